use super::*;

fn page(head: &str, body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>T</title>{head}</head><body>{body}</body></html>")
}

/// A page of one 4 MiB word, one 4 MiB attribute value and one 4 MiB tag name is
/// fingerprinted holding a bounded piece of each, and a word fed in pieces hashes as
/// one.
#[test]
fn memory_is_bounded_whatever_the_page() {
    let big = "a".repeat(4 << 20);
    let html = format!("<body><p>{big}</p><a href=\"/{big}\">x</a><{big}></body>");
    let content =
        crate::html::stream_bytes(html.as_bytes(), Content::default(), &mut Default::default());
    assert!(content.fed.capacity() <= 2 * HELD);
    assert!(content.spans.iter().all(|s| s.capacity() <= 2 * HELD));
    assert!(content.attrs.capacities().all(|c| c <= 2 * MAX_PIECE));
    let whole = fingerprint_bytes(b"<body><p>one wordinpieces</p></body>");
    let pieces = fingerprint_bytes(b"<body><p>one word&#105;n&#112;ieces</p></body>");
    assert_eq!(whole, pieces);
}

/// The words of text fed in any pieces, each after one space, as a byte-at-a-time
/// reading gives them.
#[test]
fn text_collapses_as_words_whatever_the_pieces() {
    let texts = [
        "",
        " ",
        "a",
        " a",
        "a ",
        "  one \t two\n\x0cthree\r ",
        "x\u{a0}y  z",
        "ab cd",
        " ab cd ef ",
        "one\ntwo three",
    ];
    for text in texts {
        let mut expected = Vec::new();
        for word in text.split_ascii_whitespace() {
            expected.push(b' ');
            expected.extend_from_slice(word.as_bytes());
        }
        for size in 1..=text.len().max(1) {
            let (mut out, mut in_word) = (Vec::new(), false);
            for piece in text.as_bytes().chunks(size) {
                // Told prose or not, or left to look: the same.
                let known = [None, Some(crate::html::is_prose(piece)), Some(false)];
                let mut outs = known.map(|prose| {
                    let mut out = out.clone();
                    (collapse(&mut out, piece, in_word, prose), out)
                });
                assert!(
                    outs.iter().all(|o| *o == outs[0]),
                    "{text:?} in pieces of {size}"
                );
                (in_word, out) = std::mem::take(&mut outs[0]);
            }
            assert_eq!(out, expected, "{text:?} in pieces of {size}");
            let ends_in_word =
                !text.is_empty() && !text.ends_with(|c: char| c.is_ascii_whitespace());
            assert_eq!(in_word, ends_in_word, "{text:?}");
        }
    }
    for (text, in_word, expected, ends_in_word) in [
        ("b c", true, " ab c", true),
        ("b c", false, " a b c", true),
        (" b", true, " a b", true),
        ("b ", true, " ab", false),
        (" ", true, " a", false),
        ("", true, " a", true),
        ("", false, " a", false),
    ] {
        let mut out = b" a".to_vec();
        assert_eq!(
            collapse(&mut out, text.as_bytes(), in_word, None),
            ends_in_word,
            "{text:?}"
        );
        assert_eq!(out, expected.as_bytes(), "{text:?} {in_word}");
    }
}

/// The fingerprint is the hash of the chosen region's text however it was hashed: at
/// once, in spans (two `<main>`s), or in parts as it grew past [`HELD`].
#[test]
fn the_fingerprint_is_the_hash_of_the_text_however_hashed() {
    let long = "word ".repeat(HELD / 4);
    let long_text = format!(" {}", long.trim_end());
    let table = [
        (
            "<p>One  paragraph.</p>".to_string(),
            " One paragraph.".to_string(),
        ),
        (format!("<p>{long}</p>"), long_text.clone()),
        ("<main>a</main><p>x</p><main>b</main>".into(), " a b".into()),
        (
            format!("<main>a</main><p>x</p><main>{long}</main><p>y</p><main>b</main>"),
            format!(" a{long_text} b"),
        ),
        (
            format!("<p>x</p><article>{long}</article>"),
            long_text.clone(),
        ),
        ("<p>x</p><main></main>".into(), String::new()),
    ];
    let mut content = Content::default();
    for (body, text) in table {
        let html = format!("<body>{body}</body>");
        let want = Fingerprint::of(xxh3_128(text.as_bytes()));
        assert_eq!(fingerprint_bytes(html.as_bytes()), want, "{body:.40}");
        // A collector used for another page first: reset, it gives the same.
        crate::html::Reset::reset(&mut content);
        crate::html::read_held(html.as_bytes(), &mut content, &mut Default::default());
        assert_eq!(content.finish(), want, "{body:.40} again");
        crate::html::Reset::reset(&mut content);
        crate::html::read_held(
            b"<main>a</main><p>x</p><main>b</main>",
            &mut content,
            &mut Default::default(),
        );
        assert_eq!(content.finish(), Fingerprint::of(xxh3_128(b" a b")));
    }
}

#[test]
fn build_noise_does_not_change_the_fingerprint() {
    let a = page(
        r#"<link rel="stylesheet" href="/main.3f2a9c.css"><script nonce="abc">x()</script>"#,
        r#"<nav>Menu</nav><main><h1>Title</h1>
           <p>Some   text here.</p><img src="/img/photo.1a2b3c4d.jpg?v=1" alt="A photo"><a href="/next/">Next</a></main>
           <!-- built 2024-01-01T00:00:00Z --><script src="/app-DiwrgTda.js"></script>"#,
    );
    let b = page(
        r#"<link rel="stylesheet" href="/main.99ffee.css"><script nonce="xyz">y()</script><style>p{}</style>"#,
        r#"<nav>Other menu</nav><main><h1>Title</h1>
           <p>Some text
           here.</p><img alt="A photo" src="/img/photo.9f8e7d6c.jpg?v=2"><a href="/next/#top">Next</a></main>
           <!-- built 2025-06-01T00:00:00Z --><script src="/app-Zq9yXw8v.js"></script>"#,
    );
    assert_eq!(
        fingerprint_bytes(a.as_bytes()),
        fingerprint_bytes(b.as_bytes())
    );
}

#[test]
fn content_changes_change_the_fingerprint() {
    let base = page(
        "",
        "<main><p>One paragraph.</p><a href=\"/a/\">A</a><img src=\"/x.png\" alt=\"x\"></main>",
    );
    let changes = [
        page(
            "",
            "<main><p>One changed paragraph.</p><a href=\"/a/\">A</a><img src=\"/x.png\" alt=\"x\"></main>",
        ),
        page(
            "",
            "<main><p>One paragraph.</p><a href=\"/b/\">A</a><img src=\"/x.png\" alt=\"x\"></main>",
        ),
        page(
            "",
            "<main><p>One paragraph.</p><a href=\"/a/\">A</a><img src=\"/y.png\" alt=\"x\"></main>",
        ),
        page(
            "",
            "<main><p>One paragraph.</p><a href=\"/a/\">A</a><img src=\"/x.png\" alt=\"y\"></main>",
        ),
    ];
    let fp = fingerprint_bytes(base.as_bytes());
    // XXH3-128 of the text fed, as `printf ' One paragraph.' | xxh128sum` prints it.
    let plain = fingerprint_bytes(b"<body><p>One  paragraph.</p></body>");
    let hash = "e84f13ada4de9a588ba9cd4c1e09463b";
    assert_eq!(plain.to_string(), hash);
    assert_eq!(Fingerprint::from_hex(hash), Some(plain));
    for bad in [
        "",
        &hash[..31],
        &format!("{hash}0"),
        &hash.to_uppercase(),
        &"g".repeat(32),
    ] {
        assert_eq!(Fingerprint::from_hex(bad), None, "{bad}");
    }
    // One wrong digit anywhere, just outside each range of digits or upper case.
    for at in 0..32 {
        for wrong in ['/', ':', '`', 'g', 'A', 'F', ' '] {
            let mut bad = hash.to_string();
            bad.replace_range(at..at + 1, &wrong.to_string());
            assert_eq!(Fingerprint::from_hex(&bad), None, "{bad}");
        }
    }
    for label in ["a", "b", "c"] {
        let made = super::made_up(label);
        assert_eq!(Fingerprint::from_hex(&made.to_string()), Some(made));
    }
    for changed in changes {
        assert_ne!(fingerprint_bytes(changed.as_bytes()), fp, "{changed}");
    }
}

#[test]
fn main_beats_article_beats_body() {
    let with_main =
        |outside: &str| page("", &format!("<p>{outside}</p><main><p>Inside</p></main>"));
    assert_eq!(
        fingerprint_bytes(with_main("a").as_bytes()),
        fingerprint_bytes(with_main("b").as_bytes())
    );
    let with_article = |outside: &str| {
        page(
            "",
            &format!("<p>{outside}</p><article><p>Inside</p></article>"),
        )
    };
    assert_eq!(
        fingerprint_bytes(with_article("a").as_bytes()),
        fingerprint_bytes(with_article("b").as_bytes())
    );
    let body = |text: &str| page("", &format!("<p>{text}</p>"));
    assert_ne!(
        fingerprint_bytes(body("a").as_bytes()),
        fingerprint_bytes(body("b").as_bytes())
    );
    // Without <head> and <body> tags the body still starts at the first content.
    assert_ne!(
        fingerprint_bytes(b"<title>x</title><p>a"),
        fingerprint_bytes(b"<title>x</title><p>b")
    );
    assert_eq!(
        fingerprint_bytes(b"<title>x</title><p>a"),
        fingerprint_bytes(b"<title>y</title><p>a")
    );
}

#[test]
fn hash_like_pieces_are_dropped_from_targets() {
    let table = [
        ("/css/main.3f2a9c.css", "/css/main..css"),
        ("/assets/index-DiwrgTda.js", "/assets/index-.js"),
        ("/img/photo.jpg?v=123#x", "/img/photo.jpg"),
        ("/blog/2024/hello-world/", "/blog/2024/hello-world/"),
        ("/docs/getting-started/", "/docs/getting-started/"),
        ("/abcdef/", "/abcdef/"),
        ("/deadbeef1/", "//"),
    ];
    for (url, want) in table {
        assert_eq!(stable_target(url), want, "{url}");
    }
}
