//! What a page's `<head>` says about it: noindex, redirect stubs, canonical URL, hreflang
//! alternates and a modified date.
//!
//! Only the head is read: tokenizing stops at `</head>`, `<body>` or the first tag that
//! cannot be in a head, and never goes past [`HEAD_LIMIT`] bytes, so a 50 MB page costs
//! no more than a small one. Tokens come from html5gum, a WHATWG-conformant tokenizer
//! that recovers from malformed markup and invalid UTF-8 as browsers do.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use html5gum::{DefaultEmitter, Token, Tokenizer};

/// The most bytes of a page that are ever read.
pub const HEAD_LIMIT: usize = 64 * 1024;

/// The first read; most pages' heads end well before this.
const FIRST_READ: usize = 16 * 1024;

/// Which `<meta name=... content=...>` names count as robots directives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadOptions {
    /// Lower-case `name` values whose `noindex`/`none` is obeyed; `["robots"]` by default.
    pub noindex_agents: Vec<String>,
}

impl Default for HeadOptions {
    fn default() -> Self {
        HeadOptions {
            noindex_agents: vec!["robots".to_string()],
        }
    }
}

/// A `<link rel="alternate" hreflang=... href=...>` as written in the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadAlternate {
    /// The `hreflang` value, as written.
    pub hreflang: String,
    /// The `href` value, not yet resolved.
    pub href: String,
}

/// What the head says; values are as written, not yet resolved or parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// A robots meta tag for one of the obeyed agents says `noindex` or `none`.
    pub noindex: bool,
    /// The target of a `<meta http-equiv="refresh">` that redirects.
    pub refresh: Option<String>,
    /// The first `<link rel="canonical">`'s `href`.
    pub canonical: Option<String>,
    /// Every `<link rel="alternate" hreflang>`, in page order.
    pub alternates: Vec<HeadAlternate>,
    /// The first modified date found, by source priority (see [`ModifiedSource`]).
    pub modified: Option<String>,
}

/// Where a modified date was found, in the order they are preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ModifiedSource {
    /// `<meta property="article:modified_time" content>`.
    ArticleModifiedTime,
    /// `<meta itemprop="dateModified" content>`.
    ItemPropDateModified,
    /// `<meta name="last-modified" content>`.
    LastModified,
    /// `dateModified` in a `<script type="application/ld+json">`.
    JsonLd,
}

/// Tags that may stand in a head; any other start tag means the body has begun.
const HEAD_TAGS: &[&[u8]] = &[
    b"html",
    b"head",
    b"title",
    b"base",
    b"link",
    b"meta",
    b"style",
    b"script",
    b"noscript",
    b"template",
];

/// Reads the head of the file at `path`.
pub fn read_head(path: &Path, options: &HeadOptions) -> io::Result<Head> {
    read_head_from(File::open(path)?, options)
}

/// Reads a head from `input`, consuming at most [`HEAD_LIMIT`] bytes of it.
pub fn read_head_from(mut input: impl Read, options: &HeadOptions) -> io::Result<Head> {
    let mut buf = Vec::with_capacity(FIRST_READ);
    (&mut input).take(FIRST_READ as u64).read_to_end(&mut buf)?;
    let (head, complete) = parse_head(&buf, options);
    if complete || buf.len() < FIRST_READ {
        return Ok(head);
    }
    // A long head (inline styles or scripts): read on, up to the limit, and start over.
    input
        .take((HEAD_LIMIT - FIRST_READ) as u64)
        .read_to_end(&mut buf)?;
    Ok(parse_head(&buf, options).0)
}

fn attr<'t>(tag: &'t html5gum::StartTag<()>, name: &[u8]) -> Option<&'t [u8]> {
    tag.attributes.get(name).map(|v| v.value.as_slice())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// Whether a space-separated attribute value (like `rel`) holds `token`, ignoring case.
fn has_token(value: &[u8], token: &str) -> bool {
    value
        .split(|b| b.is_ascii_whitespace())
        .any(|t| t.eq_ignore_ascii_case(token.as_bytes()))
}

/// Parses the head at the start of `html` (at most [`HEAD_LIMIT`] bytes of it). Returns
/// what it says and whether the head's end was seen.
pub fn parse_head(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    let html = &html[..html.len().min(HEAD_LIMIT)];
    let mut emitter = DefaultEmitter::default();
    // Script and style content is text, not markup: JSON-LD is read whole, and a `<`
    // inside a script does not start a tag.
    emitter.naively_switch_states(true);
    let mut head = Head::default();
    let mut modified: Option<(ModifiedSource, String)> = None;
    let mut found = |source: ModifiedSource, value: String| {
        if !value.is_empty() && modified.as_ref().is_none_or(|(s, _)| source < *s) {
            modified = Some((source, value));
        }
    };
    let mut json_ld: Option<Vec<u8>> = None;
    let mut complete = false;
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) => {
                let name = tag.name.as_slice();
                if !HEAD_TAGS.contains(&name) {
                    complete = true;
                    break;
                }
                match name {
                    b"meta" => read_meta(&tag, options, &mut head, &mut found),
                    b"link" => read_link(&tag, &mut head),
                    b"script" => {
                        let is_json_ld = attr(&tag, b"type").is_some_and(|t| {
                            String::from_utf8_lossy(t)
                                .trim()
                                .eq_ignore_ascii_case("application/ld+json")
                        });
                        json_ld = is_json_ld.then(Vec::new);
                    }
                    _ => {}
                }
            }
            Token::String(s) => {
                if let Some(buf) = json_ld.as_mut() {
                    buf.extend_from_slice(&s.value);
                }
            }
            Token::EndTag(tag) => match tag.name.as_slice() {
                b"script" => {
                    if let Some(date) = json_ld.take().and_then(|b| json_ld_date_modified(&b)) {
                        found(ModifiedSource::JsonLd, date);
                    }
                }
                b"head" | b"body" | b"html" => {
                    complete = true;
                    break;
                }
                _ => {}
            },
            _ => {}
        }
    }
    head.modified = modified.map(|(_, v)| v);
    (head, complete)
}

fn read_meta(
    tag: &html5gum::StartTag<()>,
    options: &HeadOptions,
    head: &mut Head,
    found: &mut impl FnMut(ModifiedSource, String),
) {
    let content = attr(tag, b"content");
    if let Some(name) = attr(tag, b"name") {
        let name = text(name).to_ascii_lowercase();
        if options.noindex_agents.contains(&name) {
            let says_noindex = content.is_some_and(|c| {
                String::from_utf8_lossy(c).split(',').any(|d| {
                    let d = d.trim();
                    d.eq_ignore_ascii_case("noindex") || d.eq_ignore_ascii_case("none")
                })
            });
            head.noindex |= says_noindex;
        }
        if name == "last-modified"
            && let Some(c) = content
        {
            found(ModifiedSource::LastModified, text(c));
        }
    }
    if let Some(http_equiv) = attr(tag, b"http-equiv")
        && text(http_equiv).eq_ignore_ascii_case("refresh")
        && head.refresh.is_none()
    {
        head.refresh = content.and_then(|c| refresh_target(&String::from_utf8_lossy(c)));
    }
    if let Some(c) = content {
        if attr(tag, b"property")
            .is_some_and(|p| text(p).eq_ignore_ascii_case("article:modified_time"))
        {
            found(ModifiedSource::ArticleModifiedTime, text(c));
        }
        if attr(tag, b"itemprop").is_some_and(|p| text(p).eq_ignore_ascii_case("dateModified")) {
            found(ModifiedSource::ItemPropDateModified, text(c));
        }
    }
}

fn read_link(tag: &html5gum::StartTag<()>, head: &mut Head) {
    let (Some(rel), Some(href)) = (attr(tag, b"rel"), attr(tag, b"href")) else {
        return;
    };
    if has_token(rel, "canonical") && head.canonical.is_none() {
        head.canonical = Some(text(href));
    }
    if has_token(rel, "alternate")
        && let Some(lang) = attr(tag, b"hreflang")
    {
        head.alternates.push(HeadAlternate {
            hreflang: text(lang),
            href: text(href),
        });
    }
}

/// The URL a refresh `content` redirects to, if it names one: `0; url=/new/`,
/// `5,URL='x'`, `0;/new/`. A plain delay (`30`) reloads the page itself: no redirect.
///
/// Written by hand: this is the HTML spec's "shared declarative refresh steps", which no
/// crate implements on its own.
pub fn refresh_target(content: &str) -> Option<String> {
    let rest = content.trim_start();
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let rest = rest.trim_start();
    let rest = rest.strip_prefix([';', ','])?.trim_start();
    let rest = match rest.get(..3) {
        Some(u) if u.eq_ignore_ascii_case("url") => {
            let after = rest[3..].trim_start();
            match after.strip_prefix('=') {
                Some(v) => v.trim_start(),
                None => rest,
            }
        }
        _ => rest,
    };
    let target = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
        _ => rest,
    };
    let target = target.trim();
    (!target.is_empty()).then(|| target.to_string())
}

/// `dateModified` anywhere in a JSON-LD document (top level, in `@graph`, nested).
fn json_ld_date_modified(bytes: &[u8]) -> Option<String> {
    fn find(v: &serde_json::Value) -> Option<String> {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::String(s)) = map.get("dateModified") {
                    return Some(s.trim().to_string());
                }
                map.values().find_map(find)
            }
            serde_json::Value::Array(items) => items.iter().find_map(find),
            _ => None,
        }
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    find(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(html: &str) -> Head {
        parse_head(html.as_bytes(), &HeadOptions::default()).0
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
        };
        let h = parse_head(br#"<meta name="Googlebot" content="noindex">"#, &agents).0;
        assert!(h.noindex);
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
        let h =
            head(r#"<script>if (a < b) { x("<body>") }</script><link rel="canonical" href="/c/">"#);
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

    /// Counts the bytes read through it.
    struct Counting<R>(R, usize);
    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1 += n;
            Ok(n)
        }
    }

    #[test]
    fn never_reads_more_than_the_limit() {
        let body = "<p>".to_string() + &"text ".repeat(1_000_000) + "</p>";
        let cases = [
            // (page, most bytes read, canonical found)
            (
                format!("<head><link rel=canonical href=/a/></head><body>{body}"),
                FIRST_READ,
                true,
            ),
            (
                format!(
                    "<head><style>{}</style><link rel=canonical href=/a/></head>{body}",
                    "x".repeat(30_000)
                ),
                HEAD_LIMIT,
                true,
            ),
            (
                format!("<head><link rel=canonical href=/a/><meta name=x content=\"{body}"),
                HEAD_LIMIT,
                true,
            ),
            (
                format!(
                    "<head><style>{}</style><link rel=canonical href=/a/>",
                    "x".repeat(70_000)
                ),
                HEAD_LIMIT,
                false,
            ),
        ];
        for (page, most, found) in cases {
            let mut input = Counting(page.as_bytes(), 0);
            let head = read_head_from(&mut input, &HeadOptions::default()).unwrap();
            assert!(input.1 <= most, "read {} bytes, limit {most}", input.1);
            assert_eq!(head.canonical.is_some(), found, "read {}", input.1);
        }
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
}
