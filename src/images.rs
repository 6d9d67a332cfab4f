//! A page's images, for `<image:image>` entries (`images = true`): the `og:image` of its
//! head, then the `<img>` of its `<main>`, else its `<article>`, else its `<body>` (the
//! regions the content fingerprint reads too), each `src` or, without one, the first
//! candidate of `srcset`. One of the readers a page is read by in one pass (see
//! `page/read.rs`).
//!
//! Only `image:loc` is written: Google has ignored the other image tags since 2022.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use crate::html::{ARTICLE, BODY, Collect, MAIN, Regions, Tag};

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

/// The image sources of HTML held in memory.
#[cfg(test)]
fn read_bytes(html: &[u8]) -> Sources {
    let mut images = crate::html::stream_bytes(html, Images::default(), &mut Default::default());
    images.finish()
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

/// The attributes read, each with where its value is kept.
const SRC: usize = 0;
const SRCSET: usize = 1;
const PROPERTY: usize = 2;
const NAME: usize = 3;
const CONTENT: usize = 4;
const HREF: usize = 5;

/// Collects a page's image sources from the [`crate::html::Emitter`].
#[derive(Default)]
pub(crate) struct Images {
    /// The wanted attributes of the current tag (see [`SRC`] and the rest).
    attrs: crate::html::TagAttrs<6>,
    regions: Regions,
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

impl Images {
    fn attr(&self, slot: usize) -> Option<String> {
        self.attrs
            .get(slot)
            .map(|v| crate::html::lossy(v).trim().to_string())
    }

    /// Adds a source to every region the reader is inside.
    fn add(&mut self, source: String) {
        let scheme = source.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
        if source.is_empty() || scheme.is_some_and(|s| s == "data" || s == "javascript") {
            return;
        }
        let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(&source);
        let at = self.by_hash.get(&hash).copied();
        let room = self.bytes + source.len() <= KEPT_BYTES;
        for r in [MAIN, ARTICLE, BODY]
            .into_iter()
            .filter(|&r| self.regions.inside(r))
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

    /// What was found, from the region chosen; the collector is to be reset before it
    /// is used again.
    pub(crate) fn finish(&mut self) -> Sources {
        let region = self.regions.chosen();
        let mut sources: Vec<String> = self.og_image.take().into_iter().collect();
        sources.extend(
            std::mem::take(&mut self.sources)
                .into_iter()
                .filter(|(_, mask)| mask & (1 << region) != 0)
                .map(|(source, _)| source),
        );
        Sources {
            base: self.base.take(),
            sources,
            overflowed: self.overflowed[region],
        }
    }
}

impl Images {
    /// What a `<meta>`, `<base>` or `<img>` says.
    #[inline(never)]
    fn read_tag(&mut self, tag: Tag) {
        match tag {
            // og:image and <base> count only in the head (an <img> ends it).
            Tag::Meta if self.regions.in_head() && self.og_image.is_none() => {
                let property = self.attrs.get(PROPERTY).or(self.attrs.get(NAME));
                if property.is_some_and(|p| crate::html::value_is(p, "og:image")) {
                    self.og_image = self.attr(CONTENT);
                }
            }
            Tag::Base if self.regions.in_head() && self.base.is_none() => {
                self.base = self.attr(HREF);
            }
            Tag::Img => {
                let source = match self.attr(SRC).filter(|s| !s.is_empty()) {
                    Some(src) => src,
                    None => first_candidate(&self.attr(SRCSET).unwrap_or_default()).to_string(),
                };
                self.add(source);
            }
            _ => {}
        }
    }
}

impl crate::html::Reset for Images {
    /// Field by field, in place, as `Content`'s (a fresh one moved here is a copy).
    fn reset(&mut self) {
        let Images {
            attrs,
            regions,
            og_image,
            base,
            sources,
            by_hash,
            bytes,
            kept,
            overflowed,
        } = self;
        attrs.clear();
        *regions = Regions::default();
        *og_image = None;
        *base = None;
        sources.clear();
        by_hash.clear();
        *bytes = 0;
        *kept = [0; 3];
        *overflowed = [false; 3];
    }
}

impl Collect for Images {
    type Slot = usize;

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<usize> {
        let slot = match (tag, name) {
            (Tag::Img, b"src") => SRC,
            (Tag::Img, b"srcset") => SRCSET,
            (Tag::Meta, b"property") => PROPERTY,
            (Tag::Meta, b"name") => NAME,
            (Tag::Meta, b"content") => CONTENT,
            (Tag::Base, b"href") => HREF,
            _ => return None,
        };
        self.attrs.claim(slot)
    }

    fn value(&mut self, slot: usize, s: &[u8]) {
        // One byte past the longest source kept, so a longer one is known to be too long.
        self.attrs.push(slot, s, MAX_SOURCE + 1);
    }

    fn attribute_end(&mut self, slot: usize) {
        // Too long to keep: as if not given, so a repeated one may count.
        if self.attrs.get(slot).is_some_and(|v| v.len() > MAX_SOURCE) {
            self.attrs.forget(slot);
        }
    }

    fn boundary(&mut self) {
        self.attrs.clear();
    }

    fn start_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.regions.start_tag(tag);
        // Only these read their attributes: every other tag costs no call.
        if matches!(tag, Tag::Meta | Tag::Base | Tag::Img) {
            self.read_tag(tag);
        }
        false
    }

    fn end_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.regions.end_tag(tag);
        false
    }
}

#[cfg(test)]
mod tests;
