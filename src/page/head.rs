//! The head reader: noindex, redirect stubs, the canonical URL, hreflang alternates,
//! modified dates, the generator, and for the views the title, description and
//! language. The head ends at `</head>`, `<body>` or the first tag that cannot be in a
//! head; a `<noscript>` before that is read as markup (as a crawler that runs no script
//! reads it), so the meta refresh or robots tag a page keeps there counts.

use super::values::{collapsed, json_ld_date_modified, language_tag, refresh_target};
use crate::html::{Collect, Reset, Tag};

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
    /// [`crate::page::LANG_LIMIT`] bytes).
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

/// The most bytes of a `<meta name="generator">` kept: names and versions are short.
pub const GENERATOR_LIMIT: usize = 64;

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

/// What the head said so far: turns what its tags say into a [`Head`].
#[derive(Debug, Default)]
struct Said {
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

impl Said {
    /// What the head said.
    fn finish(self) -> Head {
        let mut head = self.head;
        let [og_title, og_description] = self.og;
        head.title = head.title.or(og_title);
        head.description = head.description.or(og_description);
        head.modified = self.modified.map(|(_, v)| v);
        head
    }

    fn found(&mut self, source: ModifiedSource, value: String) {
        if !value.is_empty() && self.modified.as_ref().is_none_or(|(s, _)| source < *s) {
            self.modified = Some((source, value));
        }
    }

    fn start_tag(&mut self, options: &HeadOptions, tag: Tag, attrs: &Attrs) {
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
                self.in_title = options.about && !self.title_seen && !self.in_noscript;
            }
            Tag::Html if options.about => {
                self.head.lang = self
                    .head
                    .lang
                    .take()
                    .or_else(|| attrs.get(Attr::Lang as usize).and_then(language_tag));
            }
            Tag::Meta => self.meta(options, attrs),
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

    fn meta(&mut self, options: &HeadOptions, attrs: &Attrs) {
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
            if options.noindex_agents.iter().any(|a| lower_is(a)) {
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
                && options.about
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
                if options.about && self.og[i].is_none() && is(Attr::Property, property) {
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

/// The longest attribute value or text the head reader keeps: far past any real one,
/// and what bounds the reader of a hostile page.
const MAX_VALUE: usize = 1024 * 1024;

/// The attribute being read.
#[derive(Debug, Clone, Copy, Default)]
enum Reading {
    #[default]
    None,
    /// Named, its value not begun: its slot in [`ATTRS`]. It is claimed at its first
    /// byte of value: a bare attribute (`<meta name>`) counts as not given.
    Named(usize),
    /// Claimed at its first byte of value.
    Claimed(usize),
    /// A repeat of one the tag gave: passed over.
    Repeated,
}

/// The head reader, kept by a reading thread from page to page: one of the readers a
/// page is read by (see `page/read.rs`). With `collects` off it only follows where the
/// head ends.
#[derive(Debug, Default)]
pub(super) struct HeadReader {
    options: HeadOptions,
    collects: bool,
    said: Said,
    attrs: Attrs,
    reading: Reading,
    /// The text of the JSON-LD script or title being read.
    text: Vec<u8>,
}

impl HeadReader {
    /// A reader under `options`, or one that only follows the head's end.
    pub(super) fn new(options: Option<&HeadOptions>) -> HeadReader {
        HeadReader {
            options: options.cloned().unwrap_or_default(),
            collects: options.is_some(),
            ..HeadReader::default()
        }
    }

    /// The end of the head was seen (or the reader gave up).
    pub(super) fn complete(&self) -> bool {
        self.said.complete
    }

    /// Stops reading: what was read stands.
    pub(super) fn give_up(&mut self) {
        self.said.complete = true;
    }

    /// The generator named so far, and whether a modified date was found.
    pub(super) fn generator_and_dated(&self) -> (Option<&str>, bool) {
        (
            self.said.head.generator.as_deref(),
            self.said.modified.is_some(),
        )
    }

    /// What the head said; the reader is to be reset before it is used again.
    pub(super) fn finish(&mut self) -> Head {
        std::mem::take(&mut self.said).finish()
    }
}

impl Reset for HeadReader {
    fn reset(&mut self) {
        self.said = Said::default();
        self.attrs.clear();
        self.reading = Reading::None;
        self.text.clear();
    }
}

impl Collect for HeadReader {
    type Slot = ();

    fn content_state(&self, tag: Tag) -> Option<html5gum::State> {
        match tag {
            Tag::Noscript if !self.said.complete => None,
            _ => tag.content_state(),
        }
    }

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<()> {
        if self.said.complete || !self.collects || !has_attrs_read(tag) {
            return None;
        }
        let slot = ATTRS.iter().position(|(n, _)| *n == name)?;
        self.reading = Reading::Named(slot);
        Some(())
    }

    fn value(&mut self, (): (), s: &[u8]) {
        if s.is_empty() {
            return;
        }
        if let Reading::Named(slot) = self.reading {
            // Of duplicate attributes the first counts, as in browsers.
            self.reading = match self.attrs.claim(slot) {
                Some(slot) => Reading::Claimed(slot),
                None => Reading::Repeated,
            };
        }
        if let Reading::Claimed(slot) = self.reading {
            self.attrs.push(slot, s, MAX_VALUE);
        }
    }

    fn attribute_end(&mut self, (): ()) {
        self.reading = Reading::None;
    }

    fn text(&mut self, s: &[u8]) {
        if self.said.in_json_ld || self.said.in_title {
            crate::html::push_capped(&mut self.text, s, MAX_VALUE);
        }
    }

    fn boundary(&mut self) {
        self.attrs.clear();
        self.reading = Reading::None;
    }

    fn start_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        if !self.said.complete {
            self.said.start_tag(&self.options, tag, &self.attrs);
        }
        self.text.clear();
        self.said.complete
    }

    fn end_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        if !self.said.complete {
            self.said.end_tag(tag, &self.text);
        }
        self.text.clear();
        self.said.complete
    }
}

#[cfg(test)]
mod tests;
