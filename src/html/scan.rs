//! The one tokenizer every reader of a page goes through: it jumps from `<` to `<`
//! (memchr) and hands the text between tags over as slices, where html5gum walks a state
//! machine byte by byte. It makes the calls to a [`Collect`] that the
//! [`Emitter`](super::Emitter) makes, in the same order (text may be cut into other
//! pieces: where text is cut means nothing to a collector). Character references are
//! decoded by html5gum itself, over the one piece of text or value that holds them, and
//! carriage returns are turned into line feeds as html5gum's input stream turns them.
//!
//! It reads a page as it arrives: over the part read so far, it stops before a token the
//! part cuts off ([`Scanned::More`]), and goes on from there when more is read. Where it
//! does not follow the tokenizer byte for byte (a NUL, `<!--` inside a script, a tag cut
//! off by the end of the page) it gives up, and the page is read by html5gum from the
//! start. The differential tests (`scan/tests.rs`) and a fuzz target hold the two to the
//! same calls.
//!
//! Written by hand: no crate skips through HTML with the tokenizer's exact boundaries.

use html5gum::State;
use memchr::memchr;

use super::decode::{decode_text, decode_value, normalize_newlines};
use super::{Collect, MAX_NAME, Names, Tag, prose};

/// Why the scan stopped before the page's end.
#[derive(Debug)]
enum Stop {
    /// The page or the collector's wants ended: what was read stands.
    Done,
    /// Something this scan does not follow exactly: read the page with html5gum.
    GiveUp,
    /// The part read so far cuts off the token being read.
    More,
}

/// How a scan of a page, or of the part of it read so far, ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scanned {
    /// The page was read to its end, or the collector wants nothing more.
    Done,
    /// The scan does not follow this page: the collector is to be reset and the page
    /// read by html5gum.
    GaveUp,
    /// The token at the resume point was cut off by the end of the part read: read
    /// more, and scan again from there.
    More(Resume),
}

/// Where a scan of a longer part of the page goes on: everything before `at` was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resume {
    at: usize,
    /// Inside the content of a start tag read in this state (the start tag's name is
    /// still in the [`Names`]), else in the data state.
    raw: Option<State>,
}

impl Resume {
    /// A page's start.
    pub(crate) const START: Resume = Resume { at: 0, raw: None };

    /// Where in the page it is.
    pub(crate) fn at(self) -> usize {
        self.at
    }

    /// The state the content of the start tag just read is in, when it is inside one.
    pub(crate) fn raw(self) -> Option<State> {
        self.raw
    }
}

/// The tokenizer's whitespace, CR included (the input stream makes it a line feed).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// What ends a tag's name, an attribute's name and an unquoted value, as bits of one
/// table: a lookup a byte, where `is_space` and the rest were five tests a byte.
const SPACE: u8 = 1;
const SLASH: u8 = 2;
const GT: u8 = 4;
const EQUALS: u8 = 8;
const TAG_NAME_END: u8 = SPACE | SLASH | GT;
const ATTRIBUTE_NAME_END: u8 = SPACE | SLASH | GT | EQUALS;
const VALUE_END: u8 = SPACE | GT;
const ENDS: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' => SPACE,
            b'/' => SLASH,
            b'>' => GT,
            b'=' => EQUALS,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// Where the first byte of `rest` in one of the classes `ends` is.
fn find_end(rest: &[u8], ends: u8) -> Option<usize> {
    rest.iter().position(|&b| ENDS[usize::from(b)] & ends != 0)
}

/// `name`, lower-cased, at most [`MAX_NAME`] bytes of it, into the empty `out`.
fn lower_into(out: &mut Vec<u8>, name: &[u8]) {
    let name = &name[..name.len().min(MAX_NAME)];
    out.extend(name.iter().map(u8::to_ascii_lowercase));
}

/// How far a comment runs after its `<!--`, through its end: `<!-->` and `<!--->` end at
/// once, any other comment at the first `-->` or `--!>`, as the tokenizer's comment
/// states end it; `None` when the page ends first.
fn comment_len(rest: &[u8]) -> Option<usize> {
    for abrupt in [&b">"[..], b"->"] {
        if rest.starts_with(abrupt) {
            return Some(abrupt.len());
        }
    }
    [&b"-->"[..], b"--!>"]
        .iter()
        .filter_map(|close| memchr::memmem::find(rest, close).map(|i| i + close.len()))
        .min()
}

/// Scans the whole page `html` into `collector`; `false` when it gave up, leaving the
/// collector to be reset.
pub(super) fn scan<C: Collect>(html: &[u8], collector: &mut C, names: &mut Names) -> bool {
    scan_part(html, Resume::START, true, collector, names) == Scanned::Done
}

/// Scans `html`, the part of a page read so far (all of it when `whole`), from `from`
/// ([`Resume::START`], or where the scan of a shorter part asked for more) into
/// `collector`.
pub(crate) fn scan_part<C: Collect>(
    html: &[u8],
    from: Resume,
    whole: bool,
    collector: &mut C,
    names: &mut Names,
) -> Scanned {
    let rest = &html[from.at..];
    // html5gum turns NUL into U+FFFD in places: rare in pages, and not worth following.
    if memchr(0, rest).is_some() {
        return Scanned::GaveUp;
    }
    if from.raw.is_none() {
        names.tag.clear();
    }
    names.attr_name.clear();
    let mut scan = Scan {
        html,
        at: from.at,
        token: from,
        whole,
        crs: memchr(b'\r', rest).is_some(),
        tag: Tag::of(&names.tag),
        collector,
        names,
    };
    let read = match from.raw {
        Some(state) => scan.content(state).and_then(|()| scan.run()),
        None => scan.run(),
    };
    match read {
        Ok(()) | Err(Stop::Done) => Scanned::Done,
        Err(Stop::GiveUp) => Scanned::GaveUp,
        Err(Stop::More) => Scanned::More(scan.token),
    }
}

struct Scan<'h, 'c, C> {
    html: &'h [u8],
    at: usize,
    /// Where the token being read starts: where a scan of a longer part goes on from.
    token: Resume,
    /// `html` is the whole page, not the part of it read so far.
    whole: bool,
    /// The part holds a carriage return: text and values are looked at for one.
    crs: bool,
    /// The tag being read, told from its name in `names.tag`.
    tag: Tag,
    collector: &'c mut C,
    names: &'c mut Names,
}

impl<C: Collect> Scan<'_, '_, C> {
    /// The byte at `at` inside a tag: the page's end there gives up, as html5gum drops
    /// the tag after the collector has seen part of it; the part's end asks for more.
    fn peek(&self) -> Result<u8, Stop> {
        self.html
            .get(self.at)
            .copied()
            .ok_or_else(|| self.cut(Stop::GiveUp))
    }

    /// What the end of the input where a token needs more means: `at_page_end` for the
    /// whole page, more to read for a part.
    fn cut(&self, at_page_end: Stop) -> Stop {
        if self.whole { at_page_end } else { Stop::More }
    }

    fn next(&mut self) -> Result<u8, Stop> {
        let b = self.peek()?;
        self.at += 1;
        Ok(b)
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.html[self.at..].starts_with(s)
    }

    /// Data state: text up to each `<`, then what the `<` starts.
    fn run(&mut self) -> Result<(), Stop> {
        let html = self.html;
        loop {
            self.token = Resume {
                at: self.at,
                raw: None,
            };
            let rest = &html[self.at..];
            // One look finds where the text ends, whether it holds a reference, and
            // whether it is prose.
            let piece = prose::piece(rest);
            if !piece.lt && !self.whole {
                // More text may follow, and a reference may be cut.
                return Err(Stop::More);
            }
            let text = &rest[..piece.len];
            if piece.amp {
                self.decoded_text(text, State::Data, true);
            } else if piece.prose && !text.is_empty() {
                self.collector.prose_text(text, true);
            } else {
                self.decoded_text(text, State::Data, false);
            }
            if !piece.lt {
                return Ok(());
            }
            self.at += piece.len + 1;
            self.token.at = self.at - 1;
            match html.get(self.at) {
                Some(b) if b.is_ascii_alphabetic() => self.start_tag()?,
                Some(b'/') => self.end_tag()?,
                Some(b'!') => self.markup_declaration()?,
                // `<?xml ...?>`: a bogus comment, to the first `>`.
                Some(b'?') => {
                    self.collector.boundary();
                    self.past(b">")?;
                }
                None if !self.whole => return Err(Stop::More),
                // A `<` that starts no tag is text.
                _ => self.collector.text(b"<"),
            }
        }
    }

    /// Text read in `state`: its character references decoded, where it may hold some.
    fn text(&mut self, text: &[u8], state: State) {
        let amp = memchr(b'&', text).is_some();
        self.decoded_text(text, state, amp);
    }

    /// [`Self::text`] of text that holds an `&` or not (`amp`).
    fn decoded_text(&mut self, text: &[u8], state: State, amp: bool) {
        if text.is_empty() {
            return;
        }
        let mut decoded = std::mem::take(&mut self.names.decoded);
        if amp && matches!(state, State::Data | State::RcData) {
            decode_text(text, state, &mut decoded);
            self.collector.text(&decoded);
        } else if self.crs && memchr(b'\r', text).is_some() {
            normalize_newlines(text, &mut decoded);
            self.collector.text(&decoded);
        } else {
            self.collector.text(text);
        }
        self.names.decoded = decoded;
    }

    /// Moves past the next `close`; the page's end ends a comment or doctype.
    fn past(&mut self, close: &[u8]) -> Result<(), Stop> {
        let i = memchr::memmem::find(&self.html[self.at..], close)
            .ok_or_else(|| self.cut(Stop::Done))?;
        self.at += i + close.len();
        Ok(())
    }

    /// A tag's name, lower-cased, into `names.tag`, and which tag it is; `at` is left on
    /// what ended it.
    fn tag_name(&mut self) -> Result<(), Stop> {
        let rest = &self.html[self.at..];
        let len = find_end(rest, TAG_NAME_END).ok_or_else(|| self.cut(Stop::GiveUp))?;
        let name = &mut self.names.tag;
        name.clear();
        lower_into(name, &rest[..len]);
        self.tag = Tag::of(name);
        self.at += len;
        Ok(())
    }

    fn start_tag(&mut self) -> Result<(), Stop> {
        self.collector.boundary();
        self.tag_name()?;
        self.attributes(true)?;
        if self.collector.start_tag(self.tag, &self.names.tag) {
            return Err(Stop::Done);
        }
        match self.collector.content_state(self.tag) {
            None => Ok(()),
            Some(state) => self.content(state),
        }
    }

    /// The content of the start tag just read, in `state`, through its end tag.
    fn content(&mut self, state: State) -> Result<(), Stop> {
        self.token = Resume {
            at: self.at,
            raw: Some(state),
        };
        match state {
            State::PlainText if !self.whole => Err(Stop::More),
            State::PlainText => {
                self.text(&self.html[self.at..], State::PlainText);
                Err(Stop::Done)
            }
            State::RcData | State::RawText | State::ScriptData => self.raw_text(state),
            _ => Err(Stop::GiveUp),
        }
    }

    /// After `</`.
    fn end_tag(&mut self) -> Result<(), Stop> {
        self.at += 1;
        match self.html.get(self.at) {
            Some(b) if b.is_ascii_alphabetic() => {}
            // `</>` is dropped, and `</` at the end is text.
            Some(b'>') => {
                self.at += 1;
                return Ok(());
            }
            None if !self.whole => return Err(Stop::More),
            None => {
                self.collector.text(b"</");
                return Err(Stop::Done);
            }
            Some(_) => {
                self.collector.boundary();
                return self.past(b">");
            }
        }
        self.collector.boundary();
        self.tag_name()?;
        self.attributes(false)?;
        if self.collector.end_tag(self.tag, &self.names.tag) {
            return Err(Stop::Done);
        }
        Ok(())
    }

    /// After `<!`: a comment, a doctype, or a bogus comment (CDATA among them: it is one
    /// in HTML content), which ends at the first `>`.
    fn markup_declaration(&mut self) -> Result<(), Stop> {
        self.at += 1;
        self.collector.boundary();
        if self.html.len() < self.at + 2 && !self.whole {
            // `<!-` may yet be a comment's start.
            return Err(Stop::More);
        }
        if !self.starts_with(b"--") {
            return self.past(b">");
        }
        self.at += 2;
        self.at += comment_len(&self.html[self.at..]).ok_or_else(|| self.cut(Stop::Done))?;
        Ok(())
    }

    /// The attributes up to and including the tag's `>`, each offered to the collector
    /// with `offer` (a start tag's; an end tag's are offered to none).
    #[inline]
    fn attributes(&mut self, offer: bool) -> Result<(), Stop> {
        // Most tags have none: a call for them was a tenth of the scan.
        if self.html.get(self.at) == Some(&b'>') {
            self.at += 1;
            return Ok(());
        }
        self.each_attribute(offer)
    }

    /// [`Self::attributes`] of a tag that may have some.
    fn each_attribute(&mut self, offer: bool) -> Result<(), Stop> {
        loop {
            match self.next()? {
                b'>' => return Ok(()),
                b if is_space(b) => {}
                // Self-closing: `/>` ends the tag; a `/` before anything else is dropped.
                b'/' => {
                    if self.peek()? == b'>' {
                        self.at += 1;
                        return Ok(());
                    }
                }
                _ => {
                    self.at -= 1;
                    if self.attribute(offer)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// One attribute, its name starting at `at` (an `=` there belongs to the name);
    /// `true` when the tag's `>` ended it.
    fn attribute(&mut self, offer: bool) -> Result<bool, Stop> {
        let rest = &self.html[self.at..];
        // The first byte belongs to the name whatever it is.
        let len =
            1 + find_end(&rest[1..], ATTRIBUTE_NAME_END).ok_or_else(|| self.cut(Stop::GiveUp))?;
        let name = &mut self.names.attr_name;
        name.clear();
        lower_into(name, &rest[..len]);
        self.at += len;
        // After the name: more space, then `=` and a value, or the next attribute.
        self.skip_space()?;
        if self.peek()? != b'=' {
            self.offer(offer, None);
            return Ok(false);
        }
        self.at += 1;
        self.skip_space()?;
        self.value(offer)
    }

    fn skip_space(&mut self) -> Result<(), Stop> {
        while is_space(self.peek()?) {
            self.at += 1;
        }
        Ok(())
    }

    /// An attribute value; `true` when the tag's `>` ended it.
    fn value(&mut self, offer: bool) -> Result<bool, Stop> {
        let quote = match self.peek()? {
            // `a=>`: no value.
            b'>' => {
                self.at += 1;
                self.offer(offer, None);
                return Ok(true);
            }
            q @ (b'"' | b'\'') => Some(q),
            _ => None,
        };
        let start = self.at + usize::from(quote.is_some());
        let rest = &self.html[start..];
        let len = match quote {
            Some(q) => memchr(q, rest),
            None => find_end(rest, VALUE_END),
        }
        .ok_or_else(|| self.cut(Stop::GiveUp))?;
        // The value with what ended it, which a character reference may look at.
        let end = start + len;
        self.offer(offer, Some((&self.html[start..end], self.html[end])));
        self.at = end;
        match quote {
            Some(_) => self.at += 1,
            None if self.html[end] == b'>' => {
                self.at += 1;
                return Ok(true);
            }
            None => {}
        }
        Ok(false)
    }

    /// Offers the attribute just named, with its `value` (and the byte that ended it),
    /// as the emitter does: when it has a value, or to a collector that counts bare ones.
    fn offer(&mut self, offer: bool, value: Option<(&[u8], u8)>) {
        if !offer {
            return;
        }
        let value = value.filter(|(v, _)| !v.is_empty());
        let Some(slot) = self.collector.attribute(self.tag, &self.names.attr_name) else {
            return;
        };
        if let Some((value, end)) = value {
            let mut decoded = std::mem::take(&mut self.names.decoded);
            if memchr(b'&', value).is_some() {
                decode_value(value, end, &mut decoded);
                self.collector.value(slot, &decoded);
            } else if self.crs && memchr(b'\r', value).is_some() {
                normalize_newlines(value, &mut decoded);
                self.collector.value(slot, &decoded);
            } else {
                self.collector.value(slot, value);
            }
            self.names.decoded = decoded;
        }
        self.collector.attribute_end(slot);
    }

    /// The content of the start tag just read (in `names.tag`), read in `state`, up to
    /// its end tag: the first `</name` followed by space, `/` or `>`. Every `</` and a
    /// letter before it starts an end tag for the tokenizer, which the collector is told
    /// of (a boundary) before it turns out to be text.
    fn raw_text(&mut self, state: State) -> Result<(), Stop> {
        let html = self.html;
        let name_len = self.names.tag.len();
        let mut piece = self.at;
        loop {
            let Some(lt) = memchr(b'<', &html[self.at..]) else {
                if !self.whole {
                    return Err(Stop::More);
                }
                self.text(&html[piece..], state);
                return Err(Stop::Done);
            };
            self.at += lt + 1;
            if state == State::ScriptData && self.starts_with(b"!--") {
                return Err(Stop::GiveUp);
            }
            if !self.starts_with(b"/")
                || !html.get(self.at + 1).is_some_and(u8::is_ascii_alphabetic)
            {
                continue;
            }
            self.text(&html[piece..self.at - 1], state);
            piece = self.at - 1;
            self.token.at = piece;
            self.collector.boundary();
            let name = html.get(self.at + 1..self.at + 1 + name_len);
            let delimiter = html.get(self.at + 1 + name_len).copied();
            if delimiter.is_none() && !self.whole {
                return Err(Stop::More);
            }
            if name.is_some_and(|n| n.eq_ignore_ascii_case(&self.names.tag))
                && delimiter.is_some_and(|b| is_space(b) || b == b'/' || b == b'>')
            {
                break;
            }
        }
        // The end tag's name is the start tag's: `tag` still tells it.
        self.at += 1 + name_len;
        self.attributes(false)?;
        if self.collector.end_tag(self.tag, &self.names.tag) {
            return Err(Stop::Done);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
