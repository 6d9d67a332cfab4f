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

use html5gum::Tokenizer;

mod prescan;

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
    /// The `<meta name="generator">` content, at most [`GENERATOR_LIMIT`] bytes.
    pub generator: Option<String>,
    /// Tags, but no doctype and none of `<html>`, `<head>`, `<body>`, `<title>`, `<meta>`,
    /// `<link>` or `<base>` before the head's end: an HTML fragment (a partial, Gatsby's
    /// slices), which no one visits as a page. A file of text alone, or an empty one, is
    /// not a fragment.
    pub fragment: bool,
}

/// Where a modified date was found, in the order they are preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ModifiedSource {
    /// `<meta property="article:modified_time" content>`.
    ArticleModifiedTime,
    /// `<meta property="og:updated_time" content>`.
    OgUpdatedTime,
    /// `<meta itemprop="dateModified" content>`.
    ItemPropDateModified,
    /// `<meta name="last-modified" content>`.
    LastModified,
    /// `dateModified` in a `<script type="application/ld+json">`.
    JsonLd,
}

/// The tags whose attributes the [`Collector`] reads; others' are passed over.
const TAGS_WITH_ATTRS: [&[u8]; 3] = [b"meta", b"link", b"script"];

/// Tags that may stand in a head; any other start tag means the body has begun.
pub(crate) const HEAD_TAGS: &[&[u8]] = &[
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

/// The most bytes of a `<meta name="generator">` kept: names and versions are short.
pub const GENERATOR_LIMIT: usize = 64;

/// Start tags that make a file a page rather than a fragment, with a doctype: the
/// document's own, and the metadata only a page's head holds.
const DOCUMENT_TAGS: [&[u8]; 7] = [
    b"html", b"head", b"body", b"title", b"meta", b"link", b"base",
];

/// Reads the head of the file at `path`.
pub fn read_head(path: &Path, options: &HeadOptions) -> io::Result<Head> {
    read_head_from(File::open(path)?, options)
}

/// Reads a head from `input`, consuming at most [`HEAD_LIMIT`] bytes of it.
pub fn read_head_from(input: impl Read, options: &HeadOptions) -> io::Result<Head> {
    read_head_sized(input, options, None)
}

/// [`read_head_from`] a file of `size` bytes (known from its `fstat`): a page shorter
/// than the first read is read with one `read`, not a second that would only find its
/// end (a system call per page, on a site of small pages).
pub fn read_head_sized(
    input: impl Read,
    options: &HeadOptions,
    size: Option<u64>,
) -> io::Result<Head> {
    read_head_with(input, options, size, &mut HeadBuffers::default())
}

/// The buffers the head reader fills, kept from page to page by a reading thread so a
/// page costs no allocations for them once they have grown.
#[derive(Debug, Default)]
pub struct HeadBuffers {
    read: Vec<u8>,
    tag: Vec<u8>,
    last_start_tag: Vec<u8>,
    attrs: Attrs,
    attr_name: Vec<u8>,
    text: Vec<u8>,
    prescan: prescan::Scratch,
}

/// [`read_head_sized`] into buffers kept from an earlier page.
pub fn read_head_with(
    mut input: impl Read,
    options: &HeadOptions,
    size: Option<u64>,
    buffers: &mut HeadBuffers,
) -> io::Result<Head> {
    let first = size.map_or(FIRST_READ as u64, |s| s.min(FIRST_READ as u64));
    let mut buf = std::mem::take(&mut buffers.read);
    buf.clear();
    buf.reserve(FIRST_READ);
    let read = (&mut input).take(first).read_to_end(&mut buf);
    let parsed = read.and_then(|_| {
        let (head, complete) = parse_head_with(&buf, options, buffers);
        if complete || buf.len() < FIRST_READ {
            return Ok(head);
        }
        // A long head (inline styles or scripts): read on, up to the limit, and start over.
        input
            .take((HEAD_LIMIT - FIRST_READ) as u64)
            .read_to_end(&mut buf)?;
        Ok(parse_head_with(&buf, options, buffers).0)
    });
    // Kept for the next page, unless a long head made it large.
    if buf.capacity() <= 2 * FIRST_READ {
        buffers.read = buf;
    }
    parsed
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

/// The attributes the head reader looks at; all others are dropped as they are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attr {
    Name,
    Content,
    HttpEquiv,
    Property,
    ItemProp,
    Rel,
    Href,
    HrefLang,
    Type,
}

const ATTRS: [(&[u8], Attr); 9] = [
    (b"name", Attr::Name),
    (b"content", Attr::Content),
    (b"http-equiv", Attr::HttpEquiv),
    (b"property", Attr::Property),
    (b"itemprop", Attr::ItemProp),
    (b"rel", Attr::Rel),
    (b"href", Attr::Href),
    (b"hreflang", Attr::HrefLang),
    (b"type", Attr::Type),
];

/// The wanted attributes of the tag being read; buffers are reused from tag to tag.
#[derive(Debug, Default)]
struct Attrs {
    values: [Vec<u8>; 9],
    present: [bool; 9],
}

impl Attrs {
    fn clear(&mut self) {
        self.present = [false; 9];
    }

    fn get(&self, attr: Attr) -> Option<&[u8]> {
        let i = attr as usize;
        self.present[i].then(|| self.values[i].as_slice())
    }
}

/// Turns what a page's tags say into a [`Head`].
struct Collector<'o> {
    options: &'o HeadOptions,
    head: Head,
    modified: Option<(ModifiedSource, String)>,
    /// Text is being gathered: inside a JSON-LD script.
    in_json_ld: bool,
    /// Inside a `<noscript>`: its `<meta>` and `<link>` count (a crawler without scripts
    /// reads them), and a tag that cannot be in a head is passed over, not an end.
    in_noscript: bool,
    /// How many `<template>`s are open: their content is inert, and nothing in it counts.
    templates: u32,
    /// A doctype or a tag only a document has was seen (see [`Head::fragment`]).
    document: bool,
    /// A start tag was seen: a file of text alone, or an empty one, is no fragment.
    tagged: bool,
    /// The end of the head was seen.
    complete: bool,
}

impl<'o> Collector<'o> {
    fn new(options: &'o HeadOptions) -> Collector<'o> {
        Collector {
            options,
            head: Head::default(),
            modified: None,
            in_json_ld: false,
            in_noscript: false,
            templates: 0,
            document: false,
            tagged: false,
            complete: false,
        }
    }

    /// What the head said, and whether its end was seen.
    fn finish(self) -> (Head, bool) {
        let mut head = self.head;
        head.modified = self.modified.map(|(_, v)| v);
        head.fragment = self.tagged && !self.document;
        (head, self.complete)
    }

    fn found(&mut self, source: ModifiedSource, value: String) {
        if !value.is_empty() && self.modified.as_ref().is_none_or(|(s, _)| source < *s) {
            self.modified = Some((source, value));
        }
    }

    fn start_tag(&mut self, name: &[u8], attrs: &Attrs) {
        self.tagged = true;
        if name == b"template" {
            self.templates = self.templates.saturating_add(1);
            return;
        }
        if self.templates > 0 {
            return;
        }
        self.document |= DOCUMENT_TAGS.contains(&name);
        if !HEAD_TAGS.contains(&name) {
            // A tracking pixel's `<img>` in a `<noscript>` does not end the head; a
            // `<body>` does, wherever it stands.
            self.complete = !self.in_noscript || name == b"body";
            return;
        }
        // `noscript` and the tags of `TAGS_WITH_ATTRS`.
        match name {
            b"noscript" => self.in_noscript = true,
            b"meta" => self.meta(attrs),
            b"link" => self.link(attrs),
            b"script" => {
                self.in_json_ld = attrs.get(Attr::Type).is_some_and(|t| {
                    String::from_utf8_lossy(t)
                        .trim()
                        .eq_ignore_ascii_case("application/ld+json")
                });
            }
            _ => {}
        }
    }

    fn end_tag(&mut self, name: &[u8], text: &[u8]) {
        if self.templates > 0 {
            // In a template's content every end tag but its own is ignored.
            if name == b"template" {
                self.templates -= 1;
            }
            return;
        }
        match name {
            b"script" if self.in_json_ld => {
                self.in_json_ld = false;
                if let Some(date) = json_ld_date_modified(text) {
                    self.found(ModifiedSource::JsonLd, date);
                }
            }
            b"noscript" => self.in_noscript = false,
            b"head" | b"body" | b"html" => self.complete = true,
            _ => {}
        }
    }

    fn meta(&mut self, attrs: &Attrs) {
        let content = attrs.get(Attr::Content);
        if let Some(name) = attrs.get(Attr::Name) {
            let name = text(name).to_ascii_lowercase();
            if self.options.noindex_agents.contains(&name) {
                let says_noindex = content.is_some_and(|c| {
                    String::from_utf8_lossy(c).split(',').any(|d| {
                        let d = d.trim();
                        d.eq_ignore_ascii_case("noindex") || d.eq_ignore_ascii_case("none")
                    })
                });
                self.head.noindex |= says_noindex;
            }
            if name == "last-modified"
                && let Some(c) = content
            {
                self.found(ModifiedSource::LastModified, text(c));
            }
            if name == "generator"
                && self.head.generator.is_none()
                && let Some(c) = content
            {
                let c = &c[..c.len().min(GENERATOR_LIMIT)];
                self.head.generator = Some(text(c));
            }
        }
        if let Some(http_equiv) = attrs.get(Attr::HttpEquiv)
            && text(http_equiv).eq_ignore_ascii_case("refresh")
            && self.head.refresh.is_none()
        {
            self.head.refresh = content.and_then(|c| refresh_target(&String::from_utf8_lossy(c)));
        }
        if let Some(c) = content {
            let is = |attr, want: &str| {
                attrs
                    .get(attr)
                    .is_some_and(|v| text(v).eq_ignore_ascii_case(want))
            };
            if is(Attr::Property, "article:modified_time") {
                self.found(ModifiedSource::ArticleModifiedTime, text(c));
            }
            if is(Attr::Property, "og:updated_time") {
                self.found(ModifiedSource::OgUpdatedTime, text(c));
            }
            if is(Attr::ItemProp, "dateModified") {
                self.found(ModifiedSource::ItemPropDateModified, text(c));
            }
        }
    }

    fn link(&mut self, attrs: &Attrs) {
        let (Some(rel), Some(href)) = (attrs.get(Attr::Rel), attrs.get(Attr::Href)) else {
            return;
        };
        if has_token(rel, "canonical") && self.head.canonical.is_none() {
            self.head.canonical = Some(text(href));
        }
        if has_token(rel, "alternate")
            && let Some(lang) = attrs.get(Attr::HrefLang)
            && attrs.get(Attr::Type).is_none_or(is_page_type)
        {
            self.head.alternates.push(HeadAlternate {
                hreflang: text(lang),
                href: text(href),
            });
        }
    }
}

/// Whether a `<link rel="alternate">`'s `type` names a page: a language alternate has
/// none or an HTML type; a feed (`application/rss+xml`) with an `hreflang` is not one.
fn is_page_type(value: &[u8]) -> bool {
    let value = text(value);
    let essence = value.split(';').next().unwrap_or_default().trim();
    ["text/html", "application/xhtml+xml"]
        .iter()
        .any(|t| essence.eq_ignore_ascii_case(t))
}

/// The tokenizer state the content of the start tag `name` is read in. As html5gum's
/// `naive_next_state`, but a `<noscript>`'s content is markup, as a crawler that runs
/// no script parses it, so the meta refresh or robots tag a page keeps there is seen.
pub(crate) fn content_state(name: &[u8]) -> Option<html5gum::State> {
    match name {
        b"noscript" => None,
        _ => html5gum::naive_next_state(name),
    }
}

/// An html5gum emitter made for reading heads: it keeps only the attributes in
/// [`ATTRS`], gathers text only inside JSON-LD scripts, skips html5gum's parse-error
/// bookkeeping, and hands each tag straight to the [`Collector`]. Its tokens say only
/// whether to stop. The general-purpose emitters allocate a map per tag and validate
/// every character for error reports, which made them most of a run's CPU time.
struct HeadEmitter<'c, 'o> {
    collector: &'c mut Collector<'o>,
    tag: Vec<u8>,
    is_end_tag: bool,
    last_start_tag: Vec<u8>,
    attrs: Attrs,
    attr_name: Vec<u8>,
    /// Where the current attribute's value goes, once its name is known.
    attr_slot: Option<Option<usize>>,
    text: Vec<u8>,
    stop: Option<bool>,
}

impl HeadEmitter<'_, '_> {
    fn attr_slot(&mut self) -> Option<usize> {
        if let Some(slot) = self.attr_slot {
            return slot;
        }
        let slot = ATTRS
            .iter()
            .position(|(n, _)| *n == self.attr_name.as_slice())
            // Of duplicate attributes the first counts, as in browsers.
            .filter(|&i| !self.attrs.present[i]);
        if let Some(i) = slot {
            self.attrs.present[i] = true;
            self.attrs.values[i].clear();
        }
        self.attr_slot = Some(slot);
        slot
    }
}

impl html5gum::Emitter for &mut HeadEmitter<'_, '_> {
    type Token = bool;

    crate::html::emitter_basics!();

    fn pop_token(&mut self) -> Option<bool> {
        self.stop.take()
    }

    fn emit_string(&mut self, s: &[u8]) {
        if self.collector.in_json_ld {
            self.text.extend_from_slice(s);
        }
    }

    fn init_start_tag(&mut self) {
        self.tag.clear();
        self.is_end_tag = false;
        self.attrs.clear();
        self.attr_slot = None;
        self.attr_name.clear();
    }

    fn init_end_tag(&mut self) {
        self.tag.clear();
        self.is_end_tag = true;
        self.attrs.clear();
        self.attr_slot = None;
        self.attr_name.clear();
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<html5gum::State> {
        if self.is_end_tag {
            self.last_start_tag.clear();
            self.collector.end_tag(&self.tag, &self.text);
            self.text.clear();
            self.stop = Some(self.collector.complete);
            return None;
        }
        std::mem::swap(&mut self.last_start_tag, &mut self.tag);
        self.collector.start_tag(&self.last_start_tag, &self.attrs);
        self.text.clear();
        self.stop = Some(self.collector.complete);
        // Script and style content is text, not markup: a `<` in a script starts no tag.
        content_state(&self.last_start_tag)
    }

    fn init_doctype(&mut self) {
        self.collector.document = true;
    }

    fn init_attribute(&mut self) {
        self.attr_name.clear();
        self.attr_slot = None;
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        if let Some(i) = self.attr_slot() {
            self.attrs.values[i].extend_from_slice(s);
        }
    }
}

/// Parses the head at the start of `html` (at most [`HEAD_LIMIT`] bytes of it). Returns
/// what it says and whether the head's end was seen.
pub fn parse_head(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    parse_head_with(html, options, &mut HeadBuffers::default())
}

/// [`parse_head`] with buffers kept from an earlier page: the pre-scan, or html5gum
/// where the pre-scan gives up.
fn parse_head_with(html: &[u8], options: &HeadOptions, buffers: &mut HeadBuffers) -> (Head, bool) {
    let html = &html[..html.len().min(HEAD_LIMIT)];
    let mut collector = Collector::new(options);
    if !prescan::scan(html, &mut collector, &mut buffers.prescan) {
        collector = Collector::new(options);
        tokenize(html, &mut collector, buffers);
    }
    collector.finish()
}

/// [`parse_head`] by html5gum alone, without the pre-scan: what the pre-scan is held to.
#[cfg(test)]
fn parse_head_tokenized(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    let html = &html[..html.len().min(HEAD_LIMIT)];
    let mut collector = Collector::new(options);
    tokenize(html, &mut collector, &mut HeadBuffers::default());
    collector.finish()
}

/// Runs html5gum over the head at the start of `html` into `collector`.
fn tokenize(html: &[u8], collector: &mut Collector, buffers: &mut HeadBuffers) {
    let take = std::mem::take::<Vec<u8>>;
    let mut emitter = HeadEmitter {
        collector,
        tag: take(&mut buffers.tag),
        is_end_tag: false,
        last_start_tag: take(&mut buffers.last_start_tag),
        attrs: std::mem::take(&mut buffers.attrs),
        attr_name: take(&mut buffers.attr_name),
        attr_slot: None,
        text: take(&mut buffers.text),
        stop: None,
    };
    emitter.tag.clear();
    emitter.last_start_tag.clear();
    emitter.attrs.clear();
    emitter.attr_name.clear();
    emitter.text.clear();
    for stop in Tokenizer::new_with_emitter(html, &mut emitter).flatten() {
        if stop {
            break;
        }
    }
    // Back for the next page (each is cleared before use).
    buffers.tag = emitter.tag;
    buffers.last_start_tag = emitter.last_start_tag;
    buffers.attrs = emitter.attrs;
    buffers.attr_name = emitter.attr_name;
    buffers.text = emitter.text;
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

/// Generators that put a page's modified date in its body, not its head: Docusaurus
/// (`<time datetime=... itemprop=dateModified>` with `showLastUpdateTime`).
pub const BODY_DATE_GENERATORS: [&str; 1] = ["Docusaurus"];

/// The most bytes of a page searched for a body date.
pub const BODY_DATE_LIMIT: usize = 1024 * 1024;

/// The `datetime` (or `content`) of the first element in `html` whose `itemprop` is
/// `dateModified`: how Docusaurus dates a doc in its body.
///
/// Written by hand: a search for one attribute in a minified page, where a tokenizer
/// pass over a whole page would cost more than the rest of the run's work on it.
pub fn body_date_modified(html: &[u8]) -> Option<String> {
    let finder = memchr::memmem::Finder::new(b"dateModified");
    for at in finder.find_iter(html) {
        let start = memchr::memrchr(b'<', &html[..at])?;
        if memchr::memchr(b'>', &html[start..at]).is_some() {
            continue;
        }
        let end = at + memchr::memchr(b'>', &html[at..])?;
        let tag = &html[start..end];
        if let Some(value) = ["datetime", "content"]
            .iter()
            .find_map(|a| attribute(tag, a))
        {
            return Some(value);
        }
    }
    None
}

/// The value of attribute `name` in a tag's text (`<time datetime=x itemprop=y`), quoted
/// or not, when the tag also says `itemprop` is `dateModified`.
fn attribute(tag: &[u8], name: &str) -> Option<String> {
    let tag = String::from_utf8_lossy(tag);
    let lower = tag.to_ascii_lowercase();
    let value_of = |attr: &str| {
        let mut from = 0;
        while let Some(i) = lower[from..].find(attr) {
            let at = from + i;
            from = at + attr.len();
            let before = lower[..at].chars().next_back();
            if !before.is_some_and(char::is_whitespace) {
                continue;
            }
            let rest = tag[at + attr.len()..].trim_start();
            let rest = rest.strip_prefix('=')?.trim_start();
            let value = match rest.chars().next()? {
                q @ ('"' | '\'') => rest[1..].split(q).next()?,
                _ => rest.split(|c: char| c.is_whitespace() || c == '>').next()?,
            };
            return Some(value.trim().to_string());
        }
        None
    };
    let itemprop = value_of("itemprop")?;
    if !itemprop.split_whitespace().any(|p| p == "dateModified") {
        return None;
    }
    value_of(name).filter(|v| !v.is_empty())
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

    /// Buffers kept from page to page change nothing: each page of a varied sequence
    /// (long heads, attributes left over, JSON-LD, an unfinished tag) reads as it does
    /// with fresh buffers.
    #[test]
    fn reused_buffers_read_every_head_as_fresh_ones() {
        let long_style = format!("<style>{}</style>", "p{color:red}".repeat(2000));
        let pages = [
            format!("<head>{long_style}<meta name=robots content=noindex></head><body>"),
            "<head><link rel=canonical href=/a/><link rel=alternate hreflang=de href=/de/></head>".to_string(),
            "<head><meta property=article:modified_time content=2024-03-05T10:20:30Z>".to_string(),
            r#"<head><script type="application/ld+json">{"dateModified":"2023-01-02"}</script></head>"#.to_string(),
            "<head><meta http-equiv=refresh content=\"0; url=/new/\"><link rel=canonical href=".to_string(),
            "<title>x</title><p>no head tags".to_string(),
            "<head><meta name=robots></head>".to_string(),
        ];
        let options = HeadOptions::default();
        let mut buffers = HeadBuffers::default();
        for round in 0..2 {
            for page in &pages {
                let fresh = read_head_from(page.as_bytes(), &options).unwrap();
                let size = Some(page.len() as u64);
                let reused = read_head_with(page.as_bytes(), &options, size, &mut buffers).unwrap();
                assert_eq!(
                    reused,
                    fresh,
                    "round {round}: {}",
                    &page[..page.len().min(80)]
                );
            }
        }
    }

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

    /// A file with tags but none a document has is a fragment; a doctype, `<html>`,
    /// `<head>`, `<body>` or `<title>` anywhere before the head's end makes a document.
    #[test]
    fn fragments_are_told_from_documents() {
        let gatsby_slice = r#"<script id="gatsby-chunk-mapping">window.___chunkMapping="{}";</script><div id="gatsby-slice"><header><a href="/">Home</a></header></div>"#;
        let table = [
            (gatsby_slice, true),
            ("<p>edited</p>", true),
            ("<nav><a href=/>Home</a></nav>", true),
            ("<style>nav{}</style><script>x()</script><header>", true),
            ("<meta charset=utf-8><nav>x</nav>", false),
            ("<link rel=canonical href=/a/>", false),
            ("<template><title>x</title></template><div>", true),
            ("", false),
            ("just text, no tags", false),
            ("<!doctype html><p>x", false),
            (
                "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\"><div>",
                false,
            ),
            ("<html><div>", false),
            (
                "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><p>",
                false,
            ),
            ("<head><meta charset=utf-8>", false),
            ("<meta charset=utf-8><title>x</title><p>", false),
            ("<body><p>x", false),
            ("<!-- <html> --><p>x", true),
            ("<script>document.write('<html>')</script><div>", true),
        ];
        for (html, want) in table {
            let (h, done) = parse_head(html.as_bytes(), &HeadOptions::default());
            assert_eq!(h.fragment, want, "{html}");
            assert_eq!(
                (h, done),
                parse_head_tokenized(html.as_bytes(), &HeadOptions::default()),
                "{html}"
            );
        }
    }

    /// Docusaurus' body date: the `<time>` whose itemprop says dateModified, quoted or
    /// not; other dates, and text that only names it, are not it.
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
                r#"<time data-datetime="x" itemprop="dateModified">no value</time>"#,
                None,
            ),
            ("<p>dateModified</p>", None),
            ("", None),
        ];
        for (html, want) in table {
            assert_eq!(
                body_date_modified(html.as_bytes()).as_deref(),
                *want,
                "{html}"
            );
        }
        let (h, _) = parse_head(
            b"<head><meta name=generator content=\"Docusaurus v3.10.2\">",
            &HeadOptions::default(),
        );
        assert_eq!(h.generator.as_deref(), Some("Docusaurus v3.10.2"));
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
