use std::io::Write;

use super::*;
use crate::text::KEPT_BYTES;

const NS: &str = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";

/// The root and the entries of `xml`, or the first error.
fn read(xml: &str) -> Result<(Option<Root>, Vec<Entry>), ReadError> {
    let mut document = Document::new(xml.as_bytes());
    let root = document.root()?.cloned();
    let entries = document.collect::<Result<Vec<_>, _>>()?;
    Ok((root, entries))
}

fn entry(line: u64, loc: &str, lastmod: Option<&str>) -> Entry {
    let mut kept = Bounded::default();
    kept.push(loc);
    Entry {
        line,
        loc: kept,
        lastmod: lastmod.map(str::to_string),
        ..Entry::default()
    }
}

#[test]
fn root_kinds_are_told_by_local_name() {
    let table = [
        (
            "<?xml version=\"1.0\"?>\n<!-- c -->\n<urlset xmlns=\"x\"/>",
            Some(Root::Urlset),
        ),
        (
            "<sm:sitemapindex xmlns:sm=\"x\"></sm:sitemapindex>",
            Some(Root::Index),
        ),
        (
            "<rss version=\"2.0\"></rss>",
            Some(Root::Other("rss".into())),
        ),
        ("not xml at all", None),
        ("", None),
    ];
    for (xml, want) in table {
        assert_eq!(read(xml).unwrap().0, want, "{xml:?}");
    }
}

#[test]
fn entries_are_read_with_their_lines_and_fields() {
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<urlset {NS} xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n\
         <url><loc>https://e.org/a</loc><lastmod>2024-01-02</lastmod>\n\
         <changefreq>daily</changefreq><priority>0.5</priority>\n\
         <image:image><image:loc>https://e.org/i.png</image:loc></image:image></url>\n\
         <url/>\n\
         <url>\n  <loc> https://e.org/b </loc><lastmod/></url>\n</urlset>\n"
    );
    let (root, entries) = read(&xml).unwrap();
    assert_eq!(root, Some(Root::Urlset));
    let mut first = entry(3, "https://e.org/a", Some("2024-01-02"));
    first.changefreq = Some("daily".into());
    first.priority = Some("0.5".into());
    // Untrimmed; a self-closed entry is passed over, a self-closed value is empty.
    let second = entry(7, " https://e.org/b ", Some(""));
    assert_eq!(entries, [first, second]);
}

#[test]
fn values_decode_references_and_cdata_alike() {
    let table = [
        ("https://e.org/?a=1&amp;b=2", "https://e.org/?a=1&b=2"),
        ("https://e.org/?a=1&#38;b=&#x33;", "https://e.org/?a=1&b=3"),
        ("https://e.org/&lt;&gt;&apos;&quot;", "https://e.org/<>'\""),
        (
            "<![CDATA[https://e.org/?a=1&b=2]]>",
            "https://e.org/?a=1&b=2",
        ),
        ("https://e.org/<![CDATA[x]]>&#252;", "https://e.org/xü"),
    ];
    for (loc, want) in table {
        let xml = format!("<urlset {NS}><url><loc>{loc}</loc></url></urlset>");
        let (_, entries) = read(&xml).unwrap();
        assert_eq!(entries[0].loc.as_str(), want, "{loc}");
    }
}

/// The references XML defines without a DTD: character references and five entities.
#[test]
fn references_are_those_xml_defines() {
    let table = [
        ("amp", Some('&')),
        ("lt", Some('<')),
        ("gt", Some('>')),
        ("apos", Some('\'')),
        ("quot", Some('"')),
        ("#38", Some('&')),
        ("#x26", Some('&')),
        ("#X26", Some('&')),
        ("#252", Some('ü')),
        ("#0", None),
        ("#xD800", None),
        ("#x110000", None),
        ("#x", None),
        ("#", None),
        ("nbsp", None),
        ("AMP", None),
        ("", None),
    ];
    for (name, want) in table {
        assert_eq!(reference(&BytesRef::new(name)), want, "{name}");
    }
}

#[test]
fn problems_stop_the_reading() {
    let deep = format!(
        "<urlset>{}{}</urlset>",
        "<a>".repeat(MAX_DEPTH),
        "</a>".repeat(MAX_DEPTH)
    );
    let table: [(&str, &str); 4] = [
        (
            "<urlset><url><loc>https://e.org/&nbsp;</loc></url></urlset>",
            "undefined entity &nbsp;",
        ),
        (
            "<urlset><url><loc>x</lock></url></urlset>",
            "not well-formed",
        ),
        ("<urlset>\n<url>\n</urlset>", "not well-formed"),
        (&deep, "deeper than 64"),
    ];
    for (xml, want) in table {
        let err = read(xml).unwrap_err();
        let kind = match &err {
            ReadError::Xml(e) if matches!(e.kind, XmlErrorKind::Syntax) => "not well-formed",
            ReadError::Xml(_) => "other",
            ReadError::UndefinedEntity { .. } => "undefined entity &nbsp;",
            ReadError::TooDeep { line } => {
                assert_eq!(*line, 1);
                "deeper than 64"
            }
        };
        assert_eq!(kind, want, "{xml}: {err}");
        assert!(err.to_string().contains(want) || kind == "not well-formed");
    }
    // An error ends the entries: nothing more is read.
    let mut document = Document::new("<urlset><url>&x;</url><url/></urlset>".as_bytes());
    assert!(document.next().unwrap().is_err());
    assert!(document.next().is_none());
}

#[test]
fn errors_say_where_reading_stopped() {
    let xml = "<urlset>\n<url>\n<loc>a</loc>\n</urlset>";
    let Err(ReadError::Xml(e)) = read(xml) else {
        panic!("a mismatched end is an error");
    };
    assert_eq!(e.line, 4);
    assert!(!e.detail.contains('\n'), "{}", e.detail);
}

#[test]
fn values_are_kept_up_to_a_bound_and_measured_whole() {
    let long = format!("https://e.org/{}", "a".repeat(KEPT_BYTES));
    let xml = format!("<urlset><url><loc>{long}</loc></url></urlset>");
    let (_, entries) = read(&xml).unwrap();
    assert!(!entries[0].loc.is_whole());
    assert_eq!(entries[0].loc.len(), long.len());
    assert_eq!(entries[0].loc.as_str().len(), KEPT_BYTES);
}

#[test]
fn files_are_read_gunzipped_and_capped() {
    let dir = tempfile::tempdir().unwrap();
    let xml = format!(
        "<sitemapindex {NS}><sitemap><loc>https://e.org/s.xml</loc></sitemap></sitemapindex>"
    );
    let plain = dir.path().join("index.xml");
    std::fs::write(&plain, &xml).unwrap();
    let gzipped = dir.path().join("index.xml.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(xml.as_bytes()).unwrap();
    std::fs::write(&gzipped, gz.finish().unwrap()).unwrap();
    for path in [&plain, &gzipped] {
        assert_eq!(root_of(path), Some(Root::Index), "{}", path.display());
        let input = crate::fsutil::open_content(path, 1024).unwrap();
        let entries: Vec<Entry> = Document::new(input).map(Result::unwrap).collect();
        assert_eq!(entries, [entry(1, "https://e.org/s.xml", None)]);
        // Past its byte limit the input fails, and the reader says so.
        let input = crate::fsutil::open_content(path, 40).unwrap();
        let err = Document::new(input).find_map(Result::err).unwrap();
        let ReadError::Xml(XmlError {
            kind: XmlErrorKind::Io(io),
            ..
        }) = err
        else {
            panic!("{err}");
        };
        assert!(crate::fsutil::too_large(&io).is_some(), "{io}");
    }
    assert_eq!(root_of(&dir.path().join("missing.xml")), None);
}

/// Tokens carry the line they start on, newlines inside tags and text counted.
#[test]
fn tokens_count_lines() {
    let xml = "<a\n  b=\"1\">\n<c>x\ny</c><!--\n-->\n<d/></a>";
    let mut tokens = Tokens::new(xml.as_bytes());
    let mut starts = Vec::new();
    loop {
        let token = tokens.next_token().unwrap();
        match token.event {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                starts.push((e.local_name().into_inner().to_string(), token.line));
            }
            _ => {}
        }
    }
    assert_eq!(starts, [("a".into(), 1), ("c".into(), 3), ("d".into(), 6)]);
    assert_eq!(tokens.line(), 6);
}
