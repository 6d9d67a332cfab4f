//! What a page's `<head>` says about it: noindex, redirect stubs, canonical URL, hreflang
//! alternates and a modified date; and, read whole when asked ([`read_body`]), its images
//! and content fingerprint.
//!
//! For the head, only the head is read: tokenizing stops at `</head>`, `<body>` or the first tag that
//! cannot be in a head, and never goes past [`HEAD_LIMIT`] bytes, so a 50 MB page costs
//! no more than a small one. When the body is wanted too, a page no longer than that is
//! read whole once, and its head and body in one pass (`page/one_pass.rs`). Tokens come
//! from html5gum, a WHATWG-conformant tokenizer
//! that recovers from malformed markup and invalid UTF-8 as browsers do.

use std::io::{self, Read};

use crate::html::{Collect, Tag};

mod body;
mod one_pass;
mod prescan;
mod values;

pub use body::{Body, BodyWants, read_body, read_body_held};
pub use one_pass::read_page_held;
pub use values::{BODY_DATE_LIMIT, body_date_modified, refresh_target};
use values::{collapsed, json_ld_date_modified, language_tag};

/// The most bytes of a page that are ever read.
pub const HEAD_LIMIT: usize = 64 * 1024;

/// The first read; most pages' heads end well before this.
const FIRST_READ: usize = 16 * 1024;

/// Which `<meta name=... content=...>` names count as robots directives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadOptions {
    /// Lower-case `name` values whose `noindex`/`none` is obeyed; `["robots"]` by default.
    pub noindex_agents: Vec<String>,
    /// Read the title, description and language too (for the views): off by default,
    /// so a run without views allocates nothing for them.
    pub about: bool,
}

impl Default for HeadOptions {
    fn default() -> Self {
        HeadOptions {
            noindex_agents: vec!["robots".to_string()],
            about: false,
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
    /// The first `<title>`'s text, else `og:title`: entity-decoded, whitespace collapsed,
    /// at most [`TITLE_LIMIT`] characters; for the views.
    pub title: Option<String>,
    /// `<meta name="description">`, else `og:description`, as the title is made, at most
    /// [`DESCRIPTION_LIMIT`] characters.
    pub description: Option<String>,
    /// The `<html lang>`, when it is a language tag (letters, digits and `-`, at most
    /// [`LANG_LIMIT`] bytes).
    pub lang: Option<String>,
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

/// Whether the [`Collector`] reads the attributes of `tag`; others' are passed over.
fn has_attrs_read(tag: Tag) -> bool {
    matches!(tag, Tag::Meta | Tag::Link | Tag::Script | Tag::Html)
}

/// The most characters of a title kept: more than any search result shows.
pub const TITLE_LIMIT: usize = 200;

/// The most characters of a description kept.
pub const DESCRIPTION_LIMIT: usize = 400;

/// The most bytes of a language tag: BCP 47's longest common forms fit in 35.
pub const LANG_LIMIT: usize = 35;

/// The most bytes of a `<meta name="generator">` kept: names and versions are short.
pub const GENERATOR_LIMIT: usize = 64;

/// The buffers the head reader fills, kept from page to page by a reading thread so a
/// page costs no allocations for them once they have grown.
#[derive(Debug, Default)]
pub struct HeadBuffers {
    read: Vec<u8>,
    names: crate::html::Names,
    attrs: Attrs,
    text: Vec<u8>,
    prescan: prescan::Scratch,
    collectors: body::Collectors,
    /// A page read whole for its body (see `body.rs`).
    whole: Vec<u8>,
    /// The collectors hold the body of the page last read, as these wants asked, read in
    /// one pass with its head (see `one_pass.rs`).
    body_read: Option<BodyWants>,
}

/// Reads a head from `input`, a file of `size` bytes when that is known (from its
/// `fstat`), consuming at most [`HEAD_LIMIT`] bytes of it, into buffers kept from an
/// earlier page. A page shorter than the first read is read with one `read`, not a
/// second that would only find its end (a system call per page, on a site of small
/// pages).
pub fn read_head(
    input: impl Read,
    options: &HeadOptions,
    size: Option<u64>,
    buffers: &mut HeadBuffers,
) -> io::Result<Head> {
    read_page(input, options, size, buffers, BodyWants::default())
}

/// [`read_head`], and the body as `wants` asks, when it asks, of a page no longer than
/// the head reader may read ([`HEAD_LIMIT`]): read whole, both in one pass
/// (`one_pass.rs`), for [`HeadBuffers::read_body`] to finish without reading again.
pub(crate) fn read_page(
    mut input: impl Read,
    options: &HeadOptions,
    size: Option<u64>,
    buffers: &mut HeadBuffers,
    wants: BodyWants,
) -> io::Result<Head> {
    buffers.body_read = None;
    let whole = (wants.images || wants.fingerprint)
        .then_some(size)
        .flatten()
        .filter(|&s| s <= HEAD_LIMIT as u64);
    let first = whole.unwrap_or(size.map_or(FIRST_READ as u64, |s| s.min(FIRST_READ as u64)));
    let mut buf = std::mem::take(&mut buffers.read);
    buf.clear();
    buf.reserve(first as usize);
    let read = (&mut input).take(first).read_to_end(&mut buf);
    let parsed = read.and_then(|_| {
        if whole == Some(buf.len() as u64)
            && let Some(head) = one_pass::read(&buf, options, buffers, wants)
        {
            return Ok(head);
        }
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
    if parsed.is_err() {
        buf.clear();
    }
    // Kept for the next page, unless a long head made it large.
    if buf.capacity() <= HEAD_LIMIT {
        buffers.read = buf;
    }
    parsed
}

fn text(bytes: &[u8]) -> String {
    crate::html::lossy(bytes).trim().to_string()
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
    Lang,
}

const ATTRS: [(&[u8], Attr); 10] = [
    (b"name", Attr::Name),
    (b"content", Attr::Content),
    (b"http-equiv", Attr::HttpEquiv),
    (b"property", Attr::Property),
    (b"itemprop", Attr::ItemProp),
    (b"rel", Attr::Rel),
    (b"href", Attr::Href),
    (b"hreflang", Attr::HrefLang),
    (b"type", Attr::Type),
    (b"lang", Attr::Lang),
];

/// The wanted attributes of the tag being read, by [`Attr`].
type Attrs = crate::html::TagAttrs<10>;

/// Turns what a page's tags say into a [`Head`].
struct Collector<'o> {
    options: &'o HeadOptions,
    head: Head,
    modified: Option<(ModifiedSource, String)>,
    /// Text is being gathered: inside a JSON-LD script.
    in_json_ld: bool,
    /// Text is being gathered: inside the first `<title>`.
    in_title: bool,
    /// The first `<title>` was read (empty or not): later ones do not count.
    title_seen: bool,
    /// The `og:title` and `og:description`, the fallbacks of the title and description.
    og: [Option<String>; 2],
    /// Inside a `<noscript>`: its `<meta>` and `<link>` count (a crawler without scripts
    /// reads them), and a tag that cannot be in a head is passed over, not an end.
    in_noscript: bool,
    /// How many `<template>`s are open: their content is inert, and nothing in it counts.
    templates: u32,
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
            in_title: false,
            title_seen: false,
            og: [None, None],
            in_noscript: false,
            templates: 0,
            complete: false,
        }
    }

    /// What the head said, and whether its end was seen.
    fn finish(self) -> (Head, bool) {
        let mut head = self.head;
        let [og_title, og_description] = self.og;
        head.title = head.title.or(og_title);
        head.description = head.description.or(og_description);
        head.modified = self.modified.map(|(_, v)| v);
        (head, self.complete)
    }

    fn found(&mut self, source: ModifiedSource, value: String) {
        if !value.is_empty() && self.modified.as_ref().is_none_or(|(s, _)| source < *s) {
            self.modified = Some((source, value));
        }
    }

    fn start_tag(&mut self, tag: Tag, attrs: &Attrs) {
        if tag == Tag::Template {
            self.templates = self.templates.saturating_add(1);
            return;
        }
        if self.templates > 0 {
            return;
        }
        if !tag.in_head() {
            // A tracking pixel's `<img>` in a `<noscript>` does not end the head; a
            // `<body>` does, wherever it stands.
            self.complete = !self.in_noscript || tag == Tag::Body;
            return;
        }
        // `noscript` and the tags [`has_attrs_read`].
        match tag {
            Tag::Noscript => self.in_noscript = true,
            Tag::Title => {
                self.in_title = self.options.about && !self.title_seen && !self.in_noscript;
            }
            Tag::Html if self.options.about => {
                self.head.lang = self
                    .head
                    .lang
                    .take()
                    .or_else(|| attrs.get(Attr::Lang as usize).and_then(language_tag));
            }
            Tag::Meta => self.meta(attrs),
            Tag::Link => self.link(attrs),
            Tag::Script => {
                self.in_json_ld = attrs.get(Attr::Type as usize).is_some_and(|t| {
                    crate::html::lossy(t)
                        .trim()
                        .eq_ignore_ascii_case("application/ld+json")
                });
            }
            _ => {}
        }
    }

    fn end_tag(&mut self, tag: Tag, text: &[u8]) {
        if self.templates > 0 {
            // In a template's content every end tag but its own is ignored.
            if tag == Tag::Template {
                self.templates -= 1;
            }
            return;
        }
        match tag {
            Tag::Script if self.in_json_ld => {
                self.in_json_ld = false;
                if let Some(date) = json_ld_date_modified(text) {
                    self.found(ModifiedSource::JsonLd, date);
                }
            }
            Tag::Title if self.in_title => {
                self.in_title = false;
                self.title_seen = true;
                self.head.title = collapsed(text, TITLE_LIMIT);
            }
            Tag::Noscript => self.in_noscript = false,
            Tag::Head | Tag::Body | Tag::Html => self.complete = true,
            _ => {}
        }
    }

    fn meta(&mut self, attrs: &Attrs) {
        let content = attrs.get(Attr::Content as usize);
        if let Some(name) = attrs.get(Attr::Name as usize) {
            // Compared in place: copying and lower-casing every name was most of the
            // allocations a head made.
            let lossy = crate::html::lossy(name);
            let name = lossy.trim();
            let lower_is = |want: &str| {
                want.len() == name.len()
                    && want
                        .bytes()
                        .zip(name.bytes())
                        .all(|(w, n)| w == n.to_ascii_lowercase())
            };
            if self.options.noindex_agents.iter().any(|a| lower_is(a)) {
                let says_noindex = content.is_some_and(|c| {
                    crate::html::lossy(c).split(',').any(|d| {
                        let d = d.trim();
                        d.eq_ignore_ascii_case("noindex") || d.eq_ignore_ascii_case("none")
                    })
                });
                self.head.noindex |= says_noindex;
            }
            if lower_is("last-modified")
                && let Some(c) = content
            {
                self.found(ModifiedSource::LastModified, text(c));
            }
            if lower_is("description")
                && self.options.about
                && self.head.description.is_none()
                && let Some(c) = content
            {
                self.head.description = collapsed(c, DESCRIPTION_LIMIT);
            }
            if lower_is("generator")
                && self.head.generator.is_none()
                && let Some(c) = content
            {
                let c = &c[..c.len().min(GENERATOR_LIMIT)];
                self.head.generator = Some(text(c));
            }
        }
        if let Some(http_equiv) = attrs.get(Attr::HttpEquiv as usize)
            && crate::html::value_is(http_equiv, "refresh")
            && self.head.refresh.is_none()
        {
            self.head.refresh = content.and_then(|c| refresh_target(&crate::html::lossy(c)));
        }
        if let Some(c) = content {
            let is = |attr: Attr, want: &str| {
                attrs
                    .get(attr as usize)
                    .is_some_and(|v| crate::html::value_is(v, want))
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
            for (i, (property, limit)) in [
                ("og:title", TITLE_LIMIT),
                ("og:description", DESCRIPTION_LIMIT),
            ]
            .into_iter()
            .enumerate()
            {
                if self.options.about && self.og[i].is_none() && is(Attr::Property, property) {
                    self.og[i] = collapsed(c, limit);
                }
            }
        }
    }

    fn link(&mut self, attrs: &Attrs) {
        let (Some(rel), Some(href)) = (
            attrs.get(Attr::Rel as usize),
            attrs.get(Attr::Href as usize),
        ) else {
            return;
        };
        if has_token(rel, "canonical") && self.head.canonical.is_none() {
            self.head.canonical = Some(text(href));
        }
        if has_token(rel, "alternate")
            && let Some(lang) = attrs.get(Attr::HrefLang as usize)
            && attrs.get(Attr::Type as usize).is_none_or(is_page_type)
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

/// The tokenizer state the content of the start tag `tag` is read in. As html5gum's
/// `naive_next_state`, but a `<noscript>`'s content is markup, as a crawler that runs
/// no script parses it, so the meta refresh or robots tag a page keeps there is seen.
pub(crate) fn content_state(tag: Tag) -> Option<html5gum::State> {
    match tag {
        Tag::Noscript => None,
        _ => tag.content_state(),
    }
}

/// The place in [`ATTRS`] of the attribute `name` of the tag `tag`, when the head reader
/// reads it.
fn wanted_attribute(tag: Tag, name: &[u8]) -> Option<usize> {
    if !has_attrs_read(tag) {
        return None;
    }
    ATTRS.iter().position(|(n, _)| *n == name)
}

/// The head reader as a [`Collect`] for the html5gum emitter (where the pre-scan gives
/// up): it keeps only the attributes in [`ATTRS`] of the tags [`has_attrs_read`],
/// gathers text only inside JSON-LD scripts, and hands each tag to the [`Collector`].
struct HeadSink<'c, 'o> {
    collector: &'c mut Collector<'o>,
    attrs: &'c mut Attrs,
    text: &'c mut Vec<u8>,
}

impl Collect for HeadSink<'_, '_> {
    type Slot = usize;

    const BARE_ATTRIBUTES: bool = false;

    fn content_state(tag: Tag) -> Option<html5gum::State> {
        content_state(tag)
    }

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<usize> {
        // Of duplicate attributes the first counts, as in browsers.
        self.attrs.claim(wanted_attribute(tag, name)?)
    }

    fn value(&mut self, slot: usize, s: &[u8]) {
        // The head is read to at most HEAD_LIMIT bytes, which bounds every value.
        self.attrs.push(slot, s, usize::MAX);
    }

    fn text(&mut self, s: &[u8]) {
        if self.collector.in_json_ld || self.collector.in_title {
            self.text.extend_from_slice(s);
        }
    }

    fn boundary(&mut self) {
        self.attrs.clear();
    }

    fn start_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.collector.start_tag(tag, self.attrs);
        self.text.clear();
        self.collector.complete
    }

    fn end_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.collector.end_tag(tag, self.text);
        self.text.clear();
        self.collector.complete
    }
}

/// [`parse_head_with`] with fresh buffers.
#[cfg(test)]
fn parse_head(html: &[u8], options: &HeadOptions) -> (Head, bool) {
    parse_head_with(html, options, &mut HeadBuffers::default())
}

/// Parses the head at the start of `html` (at most [`HEAD_LIMIT`] bytes of it) with
/// buffers kept from an earlier page: the pre-scan, or html5gum where the pre-scan gives
/// up. Returns what it says and whether the head's end was seen.
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
    buffers.attrs.clear();
    buffers.text.clear();
    let sink = HeadSink {
        collector,
        attrs: &mut buffers.attrs,
        text: &mut buffers.text,
    };
    crate::html::stream_bytes(html, sink, &mut buffers.names);
}

#[cfg(test)]
mod tests;
