//! The head reader: what each kind of head says, where it ends, and what it makes of
//! malformed input.

use super::HeadReader;
use crate::html;
use crate::page::*;

fn head(html: &str) -> Head {
    parse_head(html.as_bytes(), &HeadOptions::default()).0
}

/// The head `html` says, read by the head reader alone, and whether its end was seen;
/// a page's read (its readers together, in parts) makes the same of it.
fn parse_head(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    let mut reader = HeadReader::new(Some(options));
    html::read_held(html, &mut reader, &mut html::Names::default());
    let complete = reader.complete();
    let head = reader.finish();
    let wants = Wants {
        head: Some(options.clone()),
        ..Wants::default()
    };
    let shown = String::from_utf8_lossy(html);
    assert_eq!(read_held(html, &wants, None).head, head, "{shown}");
    (head, complete)
}

/// [`parse_head`] by html5gum alone: what the fast scan is held to.
fn parse_head_tokenized(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    let mut reader = HeadReader::new(Some(options));
    html::stream_bytes(html, &mut reader, &mut html::Names::default());
    let complete = reader.complete();
    (reader.finish(), complete)
}

#[test]
fn noindex_is_read_from_robots_meta_only() {
    let table = [
        (r#"<meta name="robots" content="noindex">"#, true),
        (r#"<META NAME="ROBOTS" CONTENT="NOINDEX,NOFOLLOW">"#, true),
        (r#"<meta name=robots content=none>"#, true),
        (
            r#"<meta name='robots' content=' nofollow , noindex '>"#,
            true,
        ),
        (r#"<meta name="robots" content="index, follow">"#, false),
        (r#"<meta name="robots" content="noindexed">"#, false),
        (r#"<meta name="robots">"#, false),
        (r#"<meta name="googlebot" content="noindex">"#, false),
        (r#"<meta content="noindex" name="robots">"#, true),
        ("<title>noindex</title>", false),
        (
            r#"</head><body><meta name="robots" content="noindex">"#,
            false,
        ),
    ];
    for (html, want) in table {
        assert_eq!(head(html).noindex, want, "{html}");
    }
    let agents = HeadOptions {
        noindex_agents: vec!["robots".into(), "googlebot".into()],
        ..HeadOptions::default()
    };
    let h = parse_head(br#"<meta name="Googlebot" content="noindex">"#, &agents).0;
    assert!(h.noindex);
    // Of duplicate attributes the first counts, as in browsers.
    assert!(head(r#"<meta name="robots" name="googlebot" content="noindex">"#).noindex);
    assert!(!head(r#"<meta name="googlebot" name="robots" content="noindex">"#).noindex);
    let h = head(r#"<link rel="canonical" href="/first/" href="/second/">"#);
    assert_eq!(h.canonical.as_deref(), Some("/first/"));
}

/// A `<noscript>` in the head is read as markup (Zola's alias pages keep their meta
/// refresh there), without its `<img>` ending the head; a `<template>`'s content is
/// inert. (page, noindex, refresh, canonical, complete)
#[test]
fn noscript_counts_and_template_content_does_not() {
    let zola = r#"<!doctype html><html lang="en"><head><title>Redirect</title><script>window.location.replace("https://example.org/about/");</script><noscript><meta http-equiv="refresh" content="0; url=https://example.org/about/"></noscript></head><body><p><a href="https://example.org/about/">Click here</a></p></body></html>"#;
    type Case<'a> = (&'a str, bool, Option<&'a str>, Option<&'a str>, bool);
    let table: &[Case] = &[
        (zola, false, Some("https://example.org/about/"), None, true),
        (
            "<head><noscript><meta name=robots content=noindex></noscript></head>",
            true,
            None,
            None,
            true,
        ),
        (
            "<head><noscript><img src=/px.gif></noscript><link rel=canonical href=/c/></head>",
            false,
            None,
            Some("/c/"),
            true,
        ),
        (
            "<head><noscript><style>a{}</style><link rel=canonical href=/n/></noscript>",
            false,
            None,
            Some("/n/"),
            false,
        ),
        (
            "<head><noscript><p>x<body><link rel=canonical href=/late/>",
            false,
            None,
            None,
            true,
        ),
        (
            "<head><noscript><img></noscript><div><link rel=canonical href=/late/>",
            false,
            None,
            None,
            true,
        ),
        (
            "<head><template><meta name=robots content=noindex></template></head>",
            false,
            None,
            None,
            true,
        ),
        (
            "<head><template><div><meta http-equiv=refresh content='0;url=/x/'></div></template><link rel=canonical href=/t/>",
            false,
            None,
            Some("/t/"),
            false,
        ),
        (
            "<head><template><template></template><meta name=robots content=noindex></template><link rel=canonical href=/u/></head>",
            false,
            None,
            Some("/u/"),
            true,
        ),
        (
            "<head><template></head><body></template><meta name=robots content=noindex>",
            true,
            None,
            None,
            false,
        ),
    ];
    for (html, noindex, refresh, canonical, complete) in table {
        let (h, done) = parse_head(html.as_bytes(), &HeadOptions::default());
        assert_eq!(h.noindex, *noindex, "noindex: {html}");
        assert_eq!(h.refresh.as_deref(), *refresh, "refresh: {html}");
        assert_eq!(h.canonical.as_deref(), *canonical, "canonical: {html}");
        assert_eq!(done, *complete, "complete: {html}");
        assert_eq!(
            (h, done),
            parse_head_tokenized(html.as_bytes(), &HeadOptions::default()),
            "{html}"
        );
    }
}

/// Docusaurus' body date: the `<time>` whose itemprop says dateModified, quoted or
/// not; other dates, and text that only names it, are not it. Looked for only on the
/// pages of a generator that dates pages so, and only when the head has no date.
#[test]
fn body_dates_are_found_by_their_itemprop() {
    let table: &[(&str, Option<&str>)] = &[
        (
            "<footer>Last updated on <b><time datetime=2024-03-11T04:30:00.000Z itemprop=dateModified>Mar 11</time></b>",
            Some("2024-03-11T04:30:00.000Z"),
        ),
        (
            r#"<time itemprop="dateModified" datetime="2024-01-02">x</time>"#,
            Some("2024-01-02"),
        ),
        (
            r#"<meta itemprop='dateModified' content='2024-01-03'>"#,
            Some("2024-01-03"),
        ),
        (
            r#"<time datetime="2023-01-01" itemprop="datePublished">a</time><p>dateModified is a word</p><time datetime="2024-02-02" itemprop="dateModified">b</time>"#,
            Some("2024-02-02"),
        ),
        (
            r#"<time data-datetime="x" itemprop="dateModified">no value</time><time itemprop="x dateModified" datetime=2024-05-05>"#,
            Some("2024-05-05"),
        ),
        ("<p>dateModified</p>", None),
        ("", None),
    ];
    let docusaurus = r#"<head><meta name="generator" content="Docusaurus v3.10.2"></head><body>"#;
    let dated = r#"<head><meta name="generator" content="Docusaurus v3.10.2"><meta name=last-modified content=2020-01-01></head><body>"#;
    let wants = Wants {
        head: Some(HeadOptions::default()),
        body_date: true,
        ..Wants::default()
    };
    let head_only = Wants {
        body_date: false,
        ..wants.clone()
    };
    for (html, want) in table {
        let read = |page: String, wants: &Wants| read_held(page.as_bytes(), wants, None).head;
        let page = format!("{docusaurus}{html}");
        assert_eq!(
            read(page.clone(), &wants).modified.as_deref(),
            *want,
            "{html}"
        );
        assert_eq!(read(page, &head_only).modified, None, "{html}");
        // Not a Docusaurus page: nothing but its head is read.
        let other = format!("<head></head><body>{html}");
        assert_eq!(read(other, &wants).modified, None, "{html}");
        let head = read(format!("{dated}{html}"), &wants);
        assert_eq!(head.modified.as_deref(), Some("2020-01-01"), "{html}");
    }
    let (h, _) = parse_head(docusaurus.as_bytes(), &HeadOptions::default());
    assert_eq!(h.generator.as_deref(), Some("Docusaurus v3.10.2"));
    // Names are trimmed and compared without regard to ASCII case.
    let (h, _) = parse_head(
        b"<head><meta name=' GENERATOR ' content=Hugo><meta name='Last-Modified ' content=2024-01-03>",
        &HeadOptions::default(),
    );
    assert_eq!(h.generator.as_deref(), Some("Hugo"));
    assert_eq!(h.modified.as_deref(), Some("2024-01-03"));
    // Trimmed as text: a no-break space goes too, as it did when names were copied.
    let nbsp = "<meta name='robots\u{a0}' content=noindex>";
    assert!(
        parse_head(nbsp.as_bytes(), &HeadOptions::default())
            .0
            .noindex
    );
}

/// Only links to pages are language alternates: a feed with an `hreflang` is not.
#[test]
fn feeds_and_other_types_are_not_language_alternates() {
    let table = [
        (r#"<link rel="alternate" hreflang="de" href="/de/">"#, true),
        (
            r#"<link rel="alternate" type="text/html" hreflang="de" href="/de/">"#,
            true,
        ),
        (
            r#"<link rel="alternate" type=" Text/HTML; charset=utf-8" hreflang="de" href="/de/">"#,
            true,
        ),
        (
            r#"<link rel="alternate" type="application/xhtml+xml" hreflang="de" href="/de/">"#,
            true,
        ),
        (
            r#"<link rel="alternate" type="application/rss+xml" title="RSS (en)" hreflang="en" href="rss.xml">"#,
            false,
        ),
        (
            r#"<link rel="alternate" type="application/atom+xml" hreflang="en" href="/atom.xml">"#,
            false,
        ),
        (
            r#"<link rel="alternate" type="application/json" hreflang="en" href="/feed.json">"#,
            false,
        ),
        // An empty value is as good as none.
        (
            r#"<link rel="alternate" type="" hreflang="en" href="/x/">"#,
            true,
        ),
    ];
    for (html, want) in table {
        assert_eq!(head(html).alternates.len(), usize::from(want), "{html}");
    }
}

#[test]
fn refresh_targets_follow_the_spec_forms() {
    let table = [
        (
            "0; url=https://example.org/new/",
            Some("https://example.org/new/"),
        ),
        ("0;URL='/new/'", Some("/new/")),
        ("5, url = \"x.html\"", Some("x.html")),
        ("0;/direct", Some("/direct")),
        ("0.5; url=/a b", Some("/a b")),
        ("30", None),
        ("", None),
        ("0; url=", None),
    ];
    for (content, want) in table {
        assert_eq!(refresh_target(content).as_deref(), want, "{content:?}");
    }
    let h = head(r#"<meta http-equiv="Refresh" content="0; url=/new/">"#);
    assert_eq!(h.refresh.as_deref(), Some("/new/"));
    assert_eq!(
        head(r#"<meta http-equiv="refresh" content="60">"#).refresh,
        None
    );
}

#[test]
fn canonical_and_alternates_are_read_as_written() {
    let h = head(
        r#"<link rel="stylesheet" href="/s.css"><LINK REL="Canonical" HREF="/a/">
        <link rel="canonical" href="/second/">
        <link rel=alternate hreflang=de href="/de/a/"><link rel="alternate" hreflang="x-default" href="https://example.org/a/">
        <link rel="alternate" type="application/rss+xml" href="/feed.xml">"#,
    );
    assert_eq!(h.canonical.as_deref(), Some("/a/"));
    let alts: Vec<(&str, &str)> = h
        .alternates
        .iter()
        .map(|a| (a.hreflang.as_str(), a.href.as_str()))
        .collect();
    assert_eq!(
        alts,
        [("de", "/de/a/"), ("x-default", "https://example.org/a/")]
    );
}

#[test]
fn modified_dates_are_taken_by_source_priority() {
    let ld = r#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","dateModified":"2024-01-04"}]}</script>"#;
    let last = r#"<meta name="last-modified" content="2024-01-03">"#;
    let item = r#"<meta itemprop="dateModified" content="2024-01-02">"#;
    let article = r#"<meta property="article:modified_time" content="2024-01-01T00:00:00Z">"#;
    let og = r#"<meta property="og:updated_time" content="2024-01-05">"#;
    assert_eq!(
        head(&format!("{ld}{og}")).modified.as_deref(),
        Some("2024-01-05")
    );
    assert_eq!(
        head(&format!("{og}{article}")).modified.as_deref(),
        Some("2024-01-01T00:00:00Z")
    );
    assert_eq!(
        head(&format!("{item}{og}")).modified.as_deref(),
        Some("2024-01-05")
    );
    assert_eq!(head(ld).modified.as_deref(), Some("2024-01-04"));
    assert_eq!(
        head(&format!("{ld}{last}")).modified.as_deref(),
        Some("2024-01-03")
    );
    assert_eq!(
        head(&format!("{ld}{last}{item}")).modified.as_deref(),
        Some("2024-01-02")
    );
    assert_eq!(
        head(&format!("{ld}{item}{article}{last}"))
            .modified
            .as_deref(),
        Some("2024-01-01T00:00:00Z")
    );
    assert_eq!(
        head(r#"<script type="application/ld+json">{not json</script>"#).modified,
        None
    );
    // A `<` in a script is not a tag, and does not end the head.
    let h = head(r#"<script>if (a < b) { x("<body>") }</script><link rel="canonical" href="/c/">"#);
    assert_eq!(h.canonical.as_deref(), Some("/c/"));
}

#[test]
fn reading_stops_where_the_head_ends() {
    let table: &[(&str, bool)] = &[
        ("<head><title>x</title></head><body>", true),
        ("<title>x</title><body>", true),
        ("<title>x</title><h1>Heading</h1>", true),
        ("<head><title>x</title>", false),
        ("", false),
    ];
    for (html, want) in table {
        assert_eq!(
            parse_head(html.as_bytes(), &HeadOptions::default()).1,
            *want,
            "{html}"
        );
    }
    let h = head(r#"<title>x</title><div><link rel="canonical" href="/late/">"#);
    assert_eq!(h.canonical, None);
}

#[test]
fn malformed_and_binary_input_never_panics() {
    let inputs: Vec<Vec<u8>> = vec![
        b"<meta name=\"robots\" content=\"noindex".to_vec(),
        b"<<<>>><meta<link rel=canonical href=".to_vec(),
        b"\xff\xfe\x00<\x00m\x00e\x00t\x00a".to_vec(),
        (0..=255u8).cycle().take(100_000).collect(),
        b"<meta name=\"robots\" content=\"no\xffindex\">".to_vec(),
    ];
    for input in inputs {
        let _ = parse_head(&input, &HeadOptions::default());
    }
    // Invalid UTF-8 elsewhere in the tag does not hide the directive.
    assert!(head("<meta name=\"robots\" content=\"noindex\" data-x=\"\u{FFFD}\">").noindex);
    let h = parse_head(
        b"<title>caf\xe9</title><meta name=robots content=noindex>",
        &HeadOptions::default(),
    )
    .0;
    assert!(h.noindex);
}

/// Titles and descriptions as the views show them: the first `<title>` (else
/// `og:title`), `<meta name="description">` (else `og:description`), entity-decoded,
/// whitespace collapsed, bounded; the language of `<html lang>` when it is a tag.
#[test]
fn titles_descriptions_and_the_language() {
    let long = "word ".repeat(100);
    type Row<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<&'a str>);
    let table: &[Row] = &[
        (
            "<html lang=de><title>Fish &amp; Chips &lt;script&gt;</title>",
            Some("Fish & Chips <script>"),
            None,
            Some("de"),
        ),
        ("<title> a\n\t b  </title>", Some("a b"), None, None),
        (
            "<title> </title><meta property=og:title content=OG>",
            Some("OG"),
            None,
            None,
        ),
        (
            "<meta property=og:description content=og><meta name=Description content=first><meta name=description content=second>",
            None,
            Some("first"),
            None,
        ),
        (
            "<meta property=og:description content=' only  og '>",
            None,
            Some("only og"),
            None,
        ),
        (
            "<template><title>no</title></template><title>yes</title>",
            Some("yes"),
            None,
            None,
        ),
        (
            "<title>one</title><title>two</title>",
            Some("one"),
            None,
            None,
        ),
        ("<head></head><body><title>late</title>", None, None, None),
        (
            "<title>Café — Ünïcode 日本語</title>",
            Some("Café — Ünïcode 日本語"),
            None,
            None,
        ),
        ("<html lang=' pt-BR '>", None, None, Some("pt-BR")),
        ("<html lang=en_US>", None, None, None),
        ("<html lang=''>", None, None, None),
        ("<html lang=-x>", None, None, None),
    ];
    let about = HeadOptions {
        about: true,
        ..HeadOptions::default()
    };
    let head = |html: &str| parse_head(html.as_bytes(), &about).0;
    for &(html, title, description, lang) in table {
        assert_eq!(
            self::head(html),
            Head::default(),
            "read without about: {html}"
        );
        let head = head(html);
        assert_eq!(head.title.as_deref(), title, "{html}");
        assert_eq!(head.description.as_deref(), description, "{html}");
        assert_eq!(head.lang.as_deref(), lang, "{html}");
    }
    let long_lang = format!("<html lang={}>", "a".repeat(LANG_LIMIT + 1));
    assert_eq!(head(&long_lang).lang, None);
    let cut = head(&format!(
        "<title>{long}</title><meta name=description content='{long}{long}'>"
    ));
    let title = cut.title.unwrap();
    assert_eq!(title.chars().count(), TITLE_LIMIT);
    assert!(title.ends_with('…') && !title.ends_with(" …"), "{title}");
    assert_eq!(cut.description.unwrap().chars().count(), DESCRIPTION_LIMIT);
}
