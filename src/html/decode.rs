//! Text and attribute values as html5gum hands them over: character references decoded
//! (by html5gum itself, over the one piece that holds them) and carriage returns made
//! line feeds, for the fast scan to hand over the same bytes.

use html5gum::State;
use memchr::memchr;

use super::{Collect, Names, Tag};

/// Gathers the text and the attribute values html5gum decodes.
struct Decoded<'o>(&'o mut Vec<u8>);

impl Collect for Decoded<'_> {
    type Slot = ();

    fn attribute(&mut self, _: Tag, _: &[u8]) -> Option<()> {
        Some(())
    }

    fn value(&mut self, (): (), s: &[u8]) {
        self.0.extend_from_slice(s);
    }

    fn text(&mut self, s: &[u8]) {
        self.0.extend_from_slice(s);
    }

    fn start_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        false
    }

    fn end_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        false
    }
}

/// `text`, read in `state` (data or RCDATA), its character references decoded by
/// html5gum into `out`. Exact: text the scans hand over never ends inside a reference.
pub(super) fn decode_text(text: &[u8], state: State, out: &mut Vec<u8>) {
    out.clear();
    let mut names = Names::default();
    let mut emitter = super::Emitter::new(Decoded(out), &mut names);
    let mut tokenizer = html5gum::Tokenizer::new_with_emitter(text, &mut emitter);
    tokenizer.set_state(state);
    for token in tokenizer {
        let Ok(()) = token;
    }
}

/// `text` with each CR LF and each other CR made a line feed, into `out`, as html5gum's
/// input stream makes them.
pub(super) fn normalize_newlines(text: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut rest = text;
    while let Some(i) = memchr(b'\r', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\n');
        rest = &rest[i + 1..];
        if rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
    }
    out.extend_from_slice(rest);
}

/// An attribute `value` and the byte that ended it (its quote, a space or `>`), its
/// character references decoded by html5gum into `out`.
pub(super) fn decode_value(value: &[u8], end: u8, out: &mut Vec<u8>) {
    let mut tag = Vec::with_capacity(value.len() + 8);
    tag.extend_from_slice(b"<x a=");
    if end == b'"' || end == b'\'' {
        tag.push(end);
    }
    tag.extend_from_slice(value);
    tag.push(end);
    if end != b'>' {
        tag.push(b'>');
    }
    decode_text(&tag, State::Data, out);
}
