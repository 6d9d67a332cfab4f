//! A page's images, for `<image:image>` entries (`images = true`): the `og:image` of its
//! head, then the `<img>` of its `<main>`, else its `<article>`, else its `<body>` (the
//! regions the content fingerprint reads too), each `src` or, without one, the first
//! candidate of `srcset`. The page is streamed through html5gum, never held whole.
//!
//! Only `image:loc` is written: Google has ignored the other image tags since 2022.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::io;

use crate::page::HEAD_TAGS;

/// The most images listed for one page (Google's own limit per `<url>`).
pub const MAX_PER_PAGE: usize = 1000;

/// Distinct sources kept per region while reading: room for [`MAX_PER_PAGE`] after some
/// are merged or refused when resolved.
const KEPT_PER_REGION: usize = MAX_PER_PAGE + MAX_PER_PAGE / 4;

/// The most bytes of sources kept for one page: a thousand sources of 1 KiB, far beyond
/// real pages, and the bound on what a hostile page makes each worker hold.
const KEPT_BYTES: usize = 1024 * 1024;

/// The longest source kept: a longer one cannot make a URL under the protocol's 2,048
/// characters.
const MAX_SOURCE: usize = crate::urls::MAX_URL_LEN;

/// The regions images are taken from, most specific first.
const MAIN: usize = 0;
const ARTICLE: usize = 1;
const BODY: usize = 2;

/// What a page's markup names as its images, as written (not yet resolved).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sources {
    /// `<base href>`, the first one, if any.
    pub base: Option<String>,
    /// The sources, in page order: `og:image` first, then those of the region chosen.
    pub sources: Vec<String>,
    /// The region held more distinct sources than were kept.
    pub overflowed: bool,
}

/// Reads the page from `input` to its end and gives its image sources.
pub fn read(input: impl io::Read) -> io::Result<Sources> {
    let mut emitter = ImageEmitter::default();
    crate::html::stream(input, &mut emitter)?;
    Ok(emitter.finish())
}

/// [`read`] for HTML held in memory.
pub fn read_bytes(html: &[u8]) -> Sources {
    let mut emitter = ImageEmitter::default();
    crate::html::stream_bytes(html, &mut emitter);
    emitter.finish()
}

/// Resolves the sources against the page's URL (or its `<base href>`), keeping http(s)
/// URLs without fragments, percent-encoded as page URLs are, each once, at most [`MAX_PER_PAGE`]. Returns
/// them and whether some were left out for the limit.
pub fn resolve(page: &url::Url, sources: &Sources) -> (Vec<Box<str>>, bool) {
    let base = sources
        .base
        .as_deref()
        .and_then(|b| crate::urls::resolve_href(page, b).ok());
    let base = base.as_ref().unwrap_or(page);
    let mut seen = HashSet::new();
    let mut images = Vec::new();
    for source in &sources.sources {
        let Ok(mut url) = crate::urls::resolve_href(base, source) else {
            continue;
        };
        // A fragment names nothing in an image.
        url.set_fragment(None);
        if url.as_str().len() >= crate::urls::MAX_URL_LEN || !seen.insert(url.to_string()) {
            continue;
        }
        if images.len() == MAX_PER_PAGE {
            return (images, true);
        }
        images.push(url.as_str().into());
    }
    (images, sources.overflowed)
}

/// The first candidate of a `srcset`: its URL, up to the first whitespace.
fn first_candidate(srcset: &str) -> &str {
    let first = srcset.trim_start().split(',').next().unwrap_or("");
    first.split_ascii_whitespace().next().unwrap_or("")
}

#[derive(Default)]
struct ImageEmitter {
    tag: Vec<u8>,
    is_end_tag: bool,
    last_start_tag: Vec<u8>,
    attr_name: Vec<u8>,
    attr_value: Vec<u8>,
    /// The attributes of the current tag that matter: src, srcset, property, name,
    /// content, href.
    attrs: Vec<(&'static str, String)>,
    in_head: bool,
    depth: [usize; 2],
    seen: [bool; 2],
    og_image: Option<String>,
    base: Option<String>,
    /// Distinct sources in page order, each with the regions it was met in (bit per
    /// region), found by a hash of the source.
    sources: Vec<(String, u8)>,
    by_hash: HashMap<u64, usize>,
    bytes: usize,
    /// Sources kept, and whether some were not, per region.
    kept: [usize; 3],
    overflowed: [bool; 3],
}

impl ImageEmitter {
    fn flush_attr(&mut self) {
        let wanted = match (self.tag.as_slice(), self.attr_name.as_slice()) {
            (b"img", b"src") => Some("src"),
            (b"img", b"srcset") => Some("srcset"),
            (b"meta", b"property") => Some("property"),
            (b"meta", b"name") => Some("name"),
            (b"meta", b"content") => Some("content"),
            (b"base", b"href") => Some("href"),
            _ => None,
        };
        // The first of a repeated attribute counts, as in browsers.
        if let Some(name) = wanted
            && !self.attrs.iter().any(|(n, _)| *n == name)
            && self.attr_value.len() <= MAX_SOURCE
        {
            let value = String::from_utf8_lossy(&self.attr_value).trim().to_string();
            self.attrs.push((name, value));
        }
        self.attr_name.clear();
        self.attr_value.clear();
    }

    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// A start tag's meaning for images.
    fn start_tag(&mut self, name: &[u8]) {
        match name {
            b"main" => (self.depth[MAIN], self.seen[MAIN]) = (self.depth[MAIN] + 1, true),
            b"article" => {
                (self.depth[ARTICLE], self.seen[ARTICLE]) = (self.depth[ARTICLE] + 1, true)
            }
            b"meta" => {
                let property = self.attr("property").or(self.attr("name"));
                if self.og_image.is_none()
                    && property.is_some_and(|p| p.eq_ignore_ascii_case("og:image"))
                {
                    self.og_image = self.attr("content").map(str::to_string);
                }
            }
            b"base" if self.base.is_none() => self.base = self.attr("href").map(str::to_string),
            b"img" => {
                let source = match self.attr("src").filter(|s| !s.is_empty()) {
                    Some(src) => src.to_string(),
                    None => first_candidate(self.attr("srcset").unwrap_or("")).to_string(),
                };
                self.add(source);
            }
            _ => {}
        }
    }

    /// Adds a source to every region the reader is inside.
    fn add(&mut self, source: String) {
        let scheme = source.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
        if source.is_empty() || scheme.is_some_and(|s| s == "data" || s == "javascript") {
            return;
        }
        let regions: u8 = [MAIN, ARTICLE, BODY]
            .into_iter()
            .filter(|&r| r == BODY || self.depth[r] > 0)
            .map(|r| 1 << r)
            .sum();
        let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(&source);
        let at = self.by_hash.get(&hash).copied();
        let room = self.bytes + source.len() <= KEPT_BYTES;
        for r in [MAIN, ARTICLE, BODY]
            .into_iter()
            .filter(|r| regions & (1 << r) != 0)
        {
            let mask = at.map_or(0, |i| self.sources[i].1);
            if mask & (1 << r) != 0 {
                continue;
            }
            if self.kept[r] >= KEPT_PER_REGION || (at.is_none() && !room) {
                self.overflowed[r] = true;
                continue;
            }
            self.kept[r] += 1;
            let i = match at.or_else(|| self.by_hash.get(&hash).copied()) {
                Some(i) => i,
                None => {
                    self.bytes += source.len();
                    self.sources.push((source.clone(), 0));
                    self.by_hash.insert(hash, self.sources.len() - 1);
                    self.sources.len() - 1
                }
            };
            self.sources[i].1 |= 1 << r;
        }
    }

    fn finish(mut self) -> Sources {
        let region = if self.seen[MAIN] {
            MAIN
        } else if self.seen[ARTICLE] {
            ARTICLE
        } else {
            BODY
        };
        let mut sources: Vec<String> = self.og_image.take().into_iter().collect();
        sources.extend(
            self.sources
                .into_iter()
                .filter(|(_, mask)| mask & (1 << region) != 0)
                .map(|(source, _)| source),
        );
        Sources {
            base: self.base,
            sources,
            overflowed: self.overflowed[region],
        }
    }
}

impl html5gum::Emitter for &mut ImageEmitter {
    type Token = ();

    crate::html::emitter_basics!();

    fn pop_token(&mut self) -> Option<()> {
        None
    }

    fn emit_string(&mut self, _: &[u8]) {}

    fn init_start_tag(&mut self) {
        self.tag.clear();
        self.is_end_tag = false;
        self.attrs.clear();
        self.attr_name.clear();
        self.attr_value.clear();
    }

    fn init_end_tag(&mut self) {
        self.tag.clear();
        self.is_end_tag = true;
        self.attr_name.clear();
        self.attr_value.clear();
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<html5gum::State> {
        if !self.attr_name.is_empty() {
            self.flush_attr();
        }
        let name = std::mem::take(&mut self.tag);
        if self.is_end_tag {
            self.last_start_tag.clear();
            match name.as_slice() {
                b"main" => self.depth[MAIN] = self.depth[MAIN].saturating_sub(1),
                b"article" => self.depth[ARTICLE] = self.depth[ARTICLE].saturating_sub(1),
                b"head" => self.in_head = false,
                _ => {}
            }
            self.tag = name;
            return None;
        }
        match name.as_slice() {
            b"head" => self.in_head = true,
            b"body" => self.in_head = false,
            // The head ends at the first tag that cannot be in one, </head> or not.
            other if self.in_head && !HEAD_TAGS.contains(&other) => self.in_head = false,
            _ => {}
        }
        // og:image and <base> count only in the head (an <img> ends it).
        if self.in_head || !matches!(name.as_slice(), b"meta" | b"base") {
            self.start_tag(&name);
        }
        self.last_start_tag.clear();
        self.last_start_tag.extend_from_slice(&name);
        self.tag = name;
        html5gum::naive_next_state(&self.last_start_tag)
    }

    fn init_doctype(&mut self) {}

    fn init_attribute(&mut self) {
        if !self.attr_name.is_empty() {
            self.flush_attr();
        }
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        // One byte past the longest source kept, so a longer one is known to be too long.
        crate::html::push_capped(&mut self.attr_value, s, MAX_SOURCE + 1);
    }
}

#[cfg(test)]
mod tests;
