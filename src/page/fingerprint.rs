//! A fingerprint of a page's meaningful content, so `lastmod` can stay put until the
//! content really changes.
//!
//! It covers the text and the link and image targets of `<main>`, else `<article>`,
//! else `<body>`, with whitespace collapsed. It leaves out the head, scripts, styles,
//! templates, `<noscript>`, comments and every other attribute, and drops what changes
//! with every build of an unchanged page: hash-like pieces of file names
//! (`main.3f2a9c.css`, `index-DiwrgTda.js`) and query strings (`?v=1699999999`). A
//! site-wide CSS change or a rebuild leaves it alone; a changed paragraph moves it.
//!
//! One of the readers a page is read by in one pass (see [`crate::page`]).

use xxhash_rust::xxh3::{Xxh3Default, xxh3_128};

use crate::html::{ARTICLE, BODY, Collect, MAIN, Regions, Tag};

/// Elements whose content is never part of the fingerprint (besides the head).
fn is_skipped(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Script | Tag::Style | Tag::Template | Tag::Noscript | Tag::Title
    )
}

/// The attributes that count, in the order they are fed (by name): `img@alt`, `a@href`
/// and `img@src`.
const ATTRS: [&[u8]; 3] = [b"alt", b"href", b"src"];
const ALT: usize = 0;
const HREF: usize = 1;
const SRC: usize = 2;

/// Fingerprints HTML held in memory.
#[cfg(test)]
fn fingerprint_bytes(html: &[u8]) -> Fingerprint {
    let mut content = Content::default();
    crate::html::stream_bytes(html, &mut content, &mut Default::default());
    content.finish()
}

/// Whether a piece of a file name looks like a build hash: 6+ hex digits with a digit
/// among them (`3f2a9c`), or 8+ letters and digits that mix digits and letters or have
/// an upper-case letter after the first (`a1b2c3d4e`, `DiwrgTda`).
fn is_hash(piece: &str) -> bool {
    let bytes = piece.as_bytes();
    let digit = bytes.iter().any(u8::is_ascii_digit);
    let letter = bytes.iter().any(u8::is_ascii_alphabetic);
    let hex = bytes.len() >= 6 && bytes.iter().all(u8::is_ascii_hexdigit) && digit;
    let inner_upper = bytes.iter().skip(1).any(u8::is_ascii_uppercase);
    let mixed = bytes.len() >= 8
        && bytes.iter().all(u8::is_ascii_alphanumeric)
        && ((digit && letter) || inner_upper);
    hex || mixed
}

/// A link or image target without what changes from build to build.
#[cfg(test)]
fn stable_target(url: &str) -> String {
    let mut out = Vec::new();
    stable_target_into(&mut out, url);
    String::from_utf8(out).unwrap_or_default()
}

/// [`stable_target`] of `url`, appended to `out`: pieces are slices of `url`, so a page's
/// links cost no allocation.
fn stable_target_into(out: &mut Vec<u8>, url: &str) {
    let url = url.trim();
    let end = url.find(['?', '#']).unwrap_or(url.len());
    let url = &url[..end];
    let mut start = 0;
    for (i, c) in url.char_indices() {
        if matches!(c, '.' | '-' | '_' | '/') {
            let piece = &url[start..i];
            if !is_hash(piece) {
                out.extend_from_slice(piece.as_bytes());
            }
            out.push(c as u8);
            start = i + 1;
        }
    }
    let piece = &url[start..];
    if !is_hash(piece) {
        out.extend_from_slice(piece.as_bytes());
    }
}

/// Appends `text` to `out` with each word preceded by one space and other whitespace
/// dropped; `in_word` says the text continues a word. Returns whether it ends inside one.
///
/// Without a branch per byte: text is most of what a page is, and a branch at every
/// word's edges mispredicts once a word (a per-word search was 15 % of a run).
fn collapse(out: &mut Vec<u8>, text: &[u8], in_word: bool, prose: Option<bool>) -> bool {
    if let Some(in_word) = collapse_prose(out, text, in_word, prose) {
        return in_word;
    }
    let mut len = out.len();
    // A space and the byte itself may be written for each byte, the space only counted
    // where a word starts: at most one more byte than the text.
    out.resize(len + text.len() + 1, 0);
    let mut after_space = !in_word;
    for &b in text {
        let space = b.is_ascii_whitespace();
        let starts = !space & after_space;
        out[len] = b' ';
        len += usize::from(starts);
        out[len] = b;
        len += usize::from(!space);
        after_space = space;
    }
    out.truncate(len);
    !after_space
}

/// A page's content fingerprint: the 128-bit XXH3 hash of its collapsed text, which the
/// state file holds as 32 lower-case hex digits (big-endian, as `xxhsum -H2` prints it).
/// Held as bytes: a run keeps one per page, and the previous run's, to its end.
///
/// XXH3, not a cryptographic hash: the fingerprint only tells whether a page changed
/// since the last run, as rsync's checksum does (XXH128 by default). blake3, batched
/// across pages, was a sixth of a run with every feature on; XXH3 a few per cent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint([u8; 16]);

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Each byte's value as a lower-case hex digit; 0x80 for any other byte.
const HEX_VALUE: [u8; 256] = {
    let mut table = [0x80; 256];
    let mut i = 0;
    while i < 16 {
        table[HEX[i] as usize] = i as u8;
        i += 1;
    }
    table
};

impl Fingerprint {
    /// The fingerprint of text whose XXH3-128 hash is `hash`.
    fn of(hash: u128) -> Fingerprint {
        Fingerprint(hash.to_be_bytes())
    }

    /// The 32 lower-case hex digits the state file holds.
    pub fn hex(&self) -> [u8; 32] {
        let mut hex = [0; 32];
        for (pair, b) in hex.chunks_exact_mut(2).zip(self.0) {
            pair[0] = HEX[usize::from(b >> 4)];
            pair[1] = HEX[usize::from(b & 15)];
        }
        hex
    }

    /// A fingerprint from its 32 lower-case hex digits; `None` for anything else.
    pub fn from_hex(hex: &str) -> Option<Fingerprint> {
        let hex = hex.as_bytes();
        if hex.len() != 32 {
            return None;
        }
        let mut bytes = [0; 16];
        // Any digit not lower-case hex sets the top bit: checked once, at the end (a
        // branch per digit was a fifth of reading a state).
        let mut bad = 0;
        for (b, pair) in bytes.iter_mut().zip(hex.chunks_exact(2)) {
            let (high, low) = (
                HEX_VALUE[usize::from(pair[0])],
                HEX_VALUE[usize::from(pair[1])],
            );
            bad |= high | low;
            *b = high << 4 | low & 15;
        }
        if bad & 0x80 != 0 {
            return None;
        }
        Some(Fingerprint(bytes))
    }
}

/// A fingerprint made up for tests: `label`'s hash.
#[cfg(test)]
pub(crate) fn made_up(label: &str) -> Fingerprint {
    Fingerprint::of(xxh3_128(label.as_bytes()))
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(std::str::from_utf8(&self.hex()).unwrap_or_default())
    }
}

/// [`collapse`] of text that is words and single spaces (most of a page's prose), which
/// needs no byte changed: one check and a copy cost a fraction of a pass byte by byte.
/// `None` for any other text.
fn collapse_prose(
    out: &mut Vec<u8>,
    text: &[u8],
    in_word: bool,
    prose: Option<bool>,
) -> Option<bool> {
    if !prose.unwrap_or_else(|| crate::html::is_prose(text)) {
        return None;
    }
    let (body, ends_in_space) = match text.strip_suffix(b" ") {
        Some(body) => (body, true),
        None => (text, false),
    };
    let Some(&first) = body.first() else {
        return Some(in_word && !ends_in_space);
    };
    if first != b' ' && !in_word {
        out.push(b' ');
    }
    out.extend_from_slice(body);
    Some(!ends_in_space)
}

/// Collects a page's fingerprint from the [`crate::html::Emitter`].
#[derive(Default)]
pub(crate) struct Content {
    /// Each region's hash of what was fed and hashed before [`Self::fed`]: used only by
    /// pages whose text is longer than [`HELD`].
    hashers: [Xxh3Default; 3],
    /// Some of the text was hashed by [`Self::hashers`] already.
    hashed: bool,
    /// What has been fed and not yet hashed, at most [`HELD`] bytes: all of it is the
    /// body's, and [`Self::spans`] say which parts are `<main>`'s and `<article>`'s.
    /// Only the region chosen at the end is hashed, most often in one piece at once, and
    /// text is copied once, as it is collapsed: three copies, one per region, were a
    /// quarter of a run with musl's `memcpy`.
    fed: Vec<u8>,
    /// The ranges of [`Self::fed`] fed inside `<main>` and inside `<article>`, adjacent
    /// ones joined.
    spans: [Vec<std::ops::Range<usize>>; 2],
    regions: Regions,
    /// How many elements [`is_skipped`] are open.
    skip: usize,
    /// The values of the current tag's attributes that count (see [`ATTRS`]).
    attrs: crate::html::TagAttrs<3>,
    /// Inside a word of text: its next bytes continue it (no space fed before them).
    in_word: bool,
    /// An attribute's value as it is fed, kept from tag to tag.
    value: Vec<u8>,
}

/// The most bytes of an attribute value kept, and of text collapsed at a time: far
/// beyond any real value, and the bound on what a hostile page can make the fingerprint
/// hold beside [`HELD`].
const MAX_PIECE: usize = 64 * 1024;

/// The most bytes fed before they are hashed: a whole ordinary page's text.
const HELD: usize = 256 * 1024;

impl Content {
    /// Whether what is read now is fed (not in the head nor in a skipped element).
    fn feeding(&self) -> bool {
        self.skip == 0 && !self.regions.in_head()
    }

    /// Hashes what was fed, each region its own parts, and forgets it.
    fn flush(&mut self) {
        self.hashed = true;
        self.hashers[BODY].update(&self.fed);
        for r in [MAIN, ARTICLE] {
            for span in self.spans[r].drain(..) {
                self.hashers[r].update(&self.fed[span]);
            }
        }
        self.fed.clear();
    }

    /// Makes room for `len` more bytes in [`Self::fed`].
    fn room(&mut self, len: usize) {
        if self.fed.len() + len > HELD {
            self.flush();
        }
    }

    /// The bytes from `start` to the end of [`Self::fed`] were fed: they are in the
    /// regions the reader is inside.
    fn fed_from(&mut self, start: usize) {
        let end = self.fed.len();
        for r in [MAIN, ARTICLE] {
            if !self.regions.inside(r) || start == end {
                continue;
            }
            match self.spans[r].last_mut() {
                Some(last) if last.end == start => last.end = end,
                _ => self.spans[r].push(start..end),
            }
        }
    }

    /// Feeds `piece` to every region the reader is inside.
    fn feed(&mut self, piece: &[u8]) {
        if !self.feeding() {
            return;
        }
        self.room(piece.len());
        if piece.len() > HELD {
            // Too long to hold: hashed at once, by each region it is in.
            self.hashed = true;
            for r in [MAIN, ARTICLE, BODY] {
                if self.regions.inside(r) {
                    self.hashers[r].update(piece);
                }
            }
            return;
        }
        let start = self.fed.len();
        self.fed.extend_from_slice(piece);
        self.fed_from(start);
    }

    /// Feeds text as it comes, whitespace collapsed: each word preceded by one space, a
    /// word that arrives in pieces fed as one. Tags separate words ([`Self::end_word`]).
    /// `prose`: whether the text is prose, when that is known.
    #[inline]
    fn feed_text(&mut self, text: &[u8], prose: Option<bool>) {
        if !self.feeding() {
            return;
        }
        // Most pieces are the line break between two tags: they only end a word.
        if text.len() <= 16 && !text.is_empty() && text.iter().all(u8::is_ascii_whitespace) {
            self.in_word = false;
            return;
        }
        self.feed_words(text, prose);
    }

    /// [`Self::feed_text`] of text with words in it. Not inlined: the line breaks
    /// between tags are most calls, and this part's registers cost them all.
    #[inline(never)]
    fn feed_words(&mut self, text: &[u8], prose: Option<bool>) {
        for chunk in text.chunks(MAX_PIECE) {
            // A space may come before the chunk's bytes.
            self.room(chunk.len() + 1);
            let start = self.fed.len();
            self.in_word = collapse(&mut self.fed, chunk, self.in_word, prose);
            self.fed_from(start);
        }
    }

    /// Text ends at a tag, comment or doctype: the next text starts a new word.
    fn end_word(&mut self) {
        self.in_word = false;
    }

    /// Feeds the attributes of a start tag that count (it has some).
    #[inline(never)]
    fn feed_attributes(&mut self, name: &[u8]) {
        self.feed(b" <");
        self.feed(name);
        let mut fed = std::mem::take(&mut self.value);
        for slot in [ALT, HREF, SRC] {
            let Some(value) = self.attrs.get(slot) else {
                continue;
            };
            let value = crate::html::lossy(value);
            fed.clear();
            if slot == ALT {
                fed.extend_from_slice(value.trim().as_bytes());
            } else {
                stable_target_into(&mut fed, &value);
            }
            self.feed(b" ");
            self.feed(ATTRS[slot]);
            self.feed(b"=");
            self.feed(&fed);
        }
        self.value = fed;
        self.feed(b">");
    }

    /// The fingerprint: the chosen region's hash. The collector is to be reset before it
    /// is used again.
    pub(crate) fn finish(&mut self) -> Fingerprint {
        let chosen = self.regions.chosen();
        let whole = 0..self.fed.len();
        let spans = if chosen == BODY {
            std::slice::from_ref(&whole)
        } else {
            &self.spans[chosen][..]
        };
        // Most pages: held whole, their region in one piece, hashed at once.
        if let ([one], false) = (spans, self.hashed) {
            return Fingerprint::of(xxh3_128(&self.fed[one.clone()]));
        }
        let hasher = &mut self.hashers[chosen];
        for span in spans {
            hasher.update(&self.fed[span.clone()]);
        }
        let fingerprint = Fingerprint::of(hasher.digest128());
        // The hashers are to be reset.
        self.hashed = true;
        fingerprint
    }
}

impl crate::html::Reset for Content {
    /// Field by field, in place: building a fresh one and moving it here copied its
    /// three hashers per page (then blake3's, 6 KB: a quarter of a run with musl's
    /// `memcpy`); they are reset only when they were used.
    fn reset(&mut self) {
        let Content {
            hashers,
            hashed,
            fed,
            spans,
            regions,
            skip,
            attrs,
            in_word,
            value: _,
        } = self;
        if std::mem::take(hashed) {
            hashers.iter_mut().for_each(Xxh3Default::reset);
        }
        fed.clear();
        spans.iter_mut().for_each(Vec::clear);
        *regions = Regions::default();
        *skip = 0;
        attrs.clear();
        *in_word = false;
    }
}

impl Collect for Content {
    type Slot = usize;

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<usize> {
        let slot = match (tag, name) {
            (Tag::A, b"href") => HREF,
            (Tag::Img, b"src") => SRC,
            (Tag::Img, b"alt") => ALT,
            _ => return None,
        };
        self.attrs.claim(slot)
    }

    fn value(&mut self, slot: usize, s: &[u8]) {
        self.attrs.push(slot, s, MAX_PIECE);
    }

    fn text(&mut self, s: &[u8]) {
        self.feed_text(s, None);
    }

    fn prose_text(&mut self, s: &[u8], prose: bool) {
        self.feed_text(s, Some(prose));
    }

    fn boundary(&mut self) {
        self.end_word();
        self.attrs.clear();
    }

    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        self.regions.start_tag(tag);
        if tag == Tag::Body {
            self.skip = 0;
        }
        if is_skipped(tag) {
            self.skip += 1;
        }
        if self.attrs.any() {
            self.feed_attributes(name);
        }
        false
    }

    fn end_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.regions.end_tag(tag);
        if is_skipped(tag) {
            self.skip = self.skip.saturating_sub(1);
        }
        false
    }
}

#[cfg(test)]
mod tests;
