//! The read policy: how much of a page is read, readers kept from page to page, and the
//! differential tests that hold every reader, fed by the fast scan in parts of any size,
//! to html5gum.

use std::io::{self, Read};

use crate::page::*;

/// Readers kept from page to page change nothing: each page of a varied sequence
/// (long heads, attributes left over, JSON-LD, an unfinished tag) reads as it does
/// with fresh readers.
#[test]
fn reused_readers_read_every_page_as_fresh_ones() {
    let long_style = format!("<style>{}</style>", "p{color:red}".repeat(2000));
    let pages = [
        format!("<head>{long_style}<meta name=robots content=noindex></head><body>"),
        "<head><link rel=canonical href=/a/><link rel=alternate hreflang=de href=/de/></head>"
            .to_string(),
        "<head><meta property=article:modified_time content=2024-03-05T10:20:30Z>".to_string(),
        r#"<head><script type="application/ld+json">{"dateModified":"2023-01-02"}</script></head>"#
            .to_string(),
        "<head><meta http-equiv=refresh content=\"0; url=/new/\"><link rel=canonical href="
            .to_string(),
        "<title>x</title><p>no head tags <img src=/a.png>".to_string(),
        "<head><meta name=robots></head>".to_string(),
        "<p>a\r\nb <a href=/x/edit/main/a.md>e</a>\0".to_string(),
    ];
    let wants = every_reader();
    let mut reader = Reader::new(&wants);
    for round in 0..2 {
        for page in &pages {
            let fresh = read_held(page.as_bytes(), &wants, Some(&ranks));
            let size = Some(page.len() as u64);
            let reused = reader.read(page.as_bytes(), size, Some(&ranks)).unwrap();
            assert_eq!(
                reused,
                fresh,
                "round {round}: {}",
                &page[..page.len().min(80)]
            );
        }
    }
}

/// Every reader, the head's views included.
fn every_reader() -> Wants {
    Wants {
        head: Some(HeadOptions {
            about: true,
            ..HeadOptions::default()
        }),
        images: true,
        fingerprint: true,
        body_date: true,
        text: true,
    }
}

/// Source links as a run ranks them, for any source.
fn ranks(href: &str) -> Option<usize> {
    ["/edit/", "_sources/"]
        .iter()
        .position(|m| href.contains(m))
}

/// Every generator fixture's file, the example site's and the head reader's fuzz corpus
/// (the differential tests' inputs), and whether each is a page of a site (not fuzz).
pub(super) fn corpus() -> Vec<(std::path::PathBuf, bool)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/fixtures", "example-site", "fuzz/corpus/head_reader"] {
        for entry in ignore::WalkBuilder::new(root.join(dir))
            .standard_filters(false)
            .build()
            .flatten()
        {
            if entry.file_type().is_some_and(|t| t.is_file()) {
                let path = entry.into_path();
                let page = path.extension().is_some_and(|e| e == "html" || e == "htm")
                    && !path.starts_with(root.join("fuzz"));
                files.push((path, page));
            }
        }
    }
    files
}

/// Counts the bytes read through it.
struct Counting<R>(R, usize);

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1 += n;
        Ok(n)
    }
}

/// A page is read only as far as its readers want: the head to its end, doubling the
/// part read from the first read, and never past [`MAX_HELD`] for the head alone.
#[test]
fn never_reads_more_than_the_readers_want() {
    let body = "<p>".to_string() + &"text ".repeat(1_000_000) + "</p>";
    let style = |n: usize| format!("<style>{}</style>", "x".repeat(n));
    let cases = [
        // (page, most bytes read, canonical found)
        (
            format!("<head><link rel=canonical href=/a/></head><body>{body}"),
            FIRST_READ,
            true,
        ),
        (
            format!(
                "<head>{}<link rel=canonical href=/a/></head>{body}",
                style(30_000)
            ),
            4 * FIRST_READ,
            true,
        ),
        (
            format!("<head><link rel=canonical href=/a/><meta name=x content=\"{body}"),
            MAX_HELD,
            true,
        ),
        (
            format!("<head>{}<link rel=canonical href=/a/>", style(70_000)),
            8 * FIRST_READ,
            true,
        ),
        (
            format!(
                "<head>{}<link rel=canonical href=/a/>{body}",
                style(2 * MAX_HELD)
            ),
            MAX_HELD,
            false,
        ),
    ];
    let wants = Wants {
        head: Some(HeadOptions::default()),
        ..Wants::default()
    };
    for (page, most, found) in cases {
        let mut input = Counting(page.as_bytes(), 0);
        let read = Reader::new(&wants).read(&mut input, None, None).unwrap();
        assert!(input.1 <= most, "read {} bytes, limit {most}", input.1);
        assert_eq!(read.head.canonical.is_some(), found, "read {}", input.1);
    }
    // The images want the whole page: read through, to the last image.
    let page = format!("<head></head>{body}<img src=/last.png>");
    let images = Wants {
        images: true,
        ..wants
    };
    let mut input = Counting(page.as_bytes(), 0);
    let read = Reader::new(&images).read(&mut input, None, None).unwrap();
    assert_eq!(input.1, page.len());
    assert_eq!(read.images.unwrap().sources, ["/last.png"]);
}

/// Every page of the corpus, and each with CR LF line ends (as written on Windows):
/// every reader makes of it, read by the fast scan in parts of any size, what it makes
/// of it read by html5gum; and the head is the same whichever readers ride beside it.
#[test]
fn every_reader_reads_as_html5gum_in_any_parts() {
    let wants = every_reader();
    let head_only = Wants {
        head: wants.head.clone(),
        body_date: true,
        ..Wants::default()
    };
    let mut pages = 0;
    for (path, _) in corpus() {
        let page = std::fs::read(&path).unwrap();
        if page.len() > MAX_HELD {
            continue;
        }
        let crlf = String::from_utf8_lossy(&page)
            .replace('\n', "\r\n")
            .into_bytes();
        for page in [page, crlf] {
            let shown = path.display();
            let want = read_by_html5gum(&page, &wants, Some(&ranks));
            assert_eq!(read_held(&page, &wants, Some(&ranks)), want, "{shown}");
            for first in [1, 77, 4096] {
                let read = read_in_parts(&page, &wants, Some(&ranks), first);
                assert_eq!(read, want, "{shown}, parts from {first}");
            }
            let head = read_held(&page, &head_only, None).head;
            assert_eq!(head, want.head, "{shown}");
            pages += 1;
        }
    }
    assert!(pages > 1500, "{pages}");
}

/// What the readers are fed inside a `<noscript>`: in the head it is markup to the head
/// reader and nothing to the others (as they read its content as text); after the head,
/// text to all.
#[test]
fn noscript_content_is_the_head_readers_alone() {
    let page = "<head><noscript><img src=/px.gif><meta name=robots content=noindex>\
                </noscript></head><body><main><noscript><img src=/n.png></noscript>\
                <img src=/m.png><p>words</p></main>";
    let read = read_held(page.as_bytes(), &every_reader(), None);
    assert!(read.head.noindex);
    assert_eq!(read.images.unwrap().sources, ["/m.png"]);
    let plain = "<head></head><body><main><img src=/m.png><p>words</p></main>";
    let plain = read_held(plain.as_bytes(), &every_reader(), None);
    assert_eq!(read.fingerprint, plain.fingerprint);
}

/// The link naming a page's source: the best-ranked value, the first of its rank.
#[test]
fn source_links_are_ranked() {
    let table: &[(&str, Option<&str>)] = &[
        (
            "<a href=/x/_sources/a.rst.txt>s</a><a href='https://g/x/edit/main/a.md'>e</a>",
            Some("https://g/x/edit/main/a.md"),
        ),
        (
            "<a href=/x/_sources/a.rst.txt>s</a><a href=/y/_sources/b.rst.txt>",
            Some("/x/_sources/a.rst.txt"),
        ),
        (
            "<p data-x=' /x/edit/main/c.md '>",
            Some("/x/edit/main/c.md"),
        ),
        ("<p>/x/edit/main/c.md</p>", None),
        ("", None),
    ];
    for &(html, want) in table {
        let read = read_held(html.as_bytes(), &Wants::default(), Some(&ranks));
        assert_eq!(read.source_link.as_deref(), want, "{html}");
        let none = read_held(html.as_bytes(), &Wants::default(), None);
        assert_eq!(none.source_link, None, "{html}");
    }
    let long = format!("<a href='/edit/{}'>", "a".repeat(MAX_MARK));
    assert_eq!(
        read_held(long.as_bytes(), &Wants::default(), Some(&ranks)).source_link,
        None
    );
}

/// The shown text is read only of a page read for its source link, as a page held
/// whole shows it, through the end of the page even after its link, and no further
/// than [`MAX_HELD`].
#[test]
fn shown_text_is_read_with_the_source_link() {
    let page = "<head><title>A &amp; B</title><script>x()</script></head>\
                <p>one <b>two</b><a href=/edit/a.md>edit</a><noscript>no</noscript> three";
    let text = Wants {
        text: true,
        ..Wants::default()
    };
    let read = read_held(page.as_bytes(), &text, Some(&ranks));
    let shown = read.text.expect("read with the link");
    assert_eq!(shown, crate::page::shown(page.as_bytes()));
    assert_eq!(shown.title, "A & B");
    let words: Vec<&str> = shown.text.split_whitespace().collect();
    assert_eq!(words, ["one", "two", "edit", "three"]);
    assert_eq!(read_held(page.as_bytes(), &text, None).text, None);
    assert_eq!(
        read_held(page.as_bytes(), &Wants::default(), Some(&ranks)).text,
        None
    );
    // Bounded as the page held is: a longer page's text stops there.
    let long = format!("<p>{}", "word ".repeat(MAX_HELD));
    let mut input = Counting(long.as_bytes(), 0);
    let read = Reader::new(&text)
        .read(&mut input, None, Some(&ranks))
        .unwrap();
    assert!(input.1 <= MAX_HELD, "read {} bytes", input.1);
    assert!(read.text.unwrap().text.len() <= MAX_HELD);
}

/// Pages longer than [`MAX_HELD`], cut there inside a script, a title, text, a comment
/// or a tag: the rest is read by html5gum from where the scan stopped, as html5gum
/// alone reads the whole page; the head's readers look no further than the limit.
#[test]
fn pages_past_the_held_limit_read_as_html5gum() {
    let fill = "x".repeat(MAX_HELD);
    let shapes = [
        format!("<head></head><main><img src=/a.png><script>{fill}</script><img src=/b.png>"),
        format!("<head></head><main><title>{fill}&amp;</title><img src=/b.png><p>w</p>"),
        format!("<head></head><main><p>{fill} &amp; more</p><img src=/b.png>"),
        format!("<head></head><main><!-- {fill} --><a href=/edit/x>e</a><img src=/b.png>"),
        format!("<head></head><main><img alt='{fill}' src=/b.png><p>after</p>"),
        format!(
            "<head><style>{fill}</style><link rel=canonical href=/late/></head><img src=/c.png>"
        ),
    ];
    let wants = every_reader();
    for page in &shapes {
        let read = read_held(page.as_bytes(), &wants, Some(&ranks));
        let want = read_by_html5gum(page.as_bytes(), &wants, Some(&ranks));
        assert_eq!(read.images, want.images, "{:.60}", page);
        assert_eq!(read.fingerprint, want.fingerprint, "{:.60}", page);
        assert!(read.images.unwrap().sources.iter().any(|s| s != "/a.png"));
        assert_eq!(read.head.canonical, None);
        assert_eq!(read.source_link, None);
    }
}
