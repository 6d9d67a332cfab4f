//! The head read by jumping from `<` to `<` (memchr) instead of tokenizing every byte:
//! text, comments, doctypes and the content of scripts and styles are passed over, and
//! only tags are read, by the tokenizer's own rules for where a tag and its attribute
//! values end. It gives the [`Collector`] exactly what html5gum would; whatever it does
//! not follow byte for byte as html5gum does (a character reference, NUL or CR in a tag
//! it reads, `<!--` inside a script, CDATA, `<?`, `</` not followed by a letter) makes it
//! give up, and the head is read again by html5gum from the start. The differential
//! tests (`tests.rs`) hold the two to the same results.
//!
//! Written by hand: no crate skips through HTML with the tokenizer's exact boundaries.

use memchr::{memchr, memchr3};

use super::{ATTRS, Attrs, Collector, content_state, has_attrs_read};
use crate::html::MAX_NAME;
use crate::html::Tag;

/// Why the scan stopped early.
enum Stop {
    /// The input ended: whatever was read stands, as it does for html5gum.
    Eof,
    /// Something this scan does not follow exactly: read the head with html5gum.
    GiveUp,
}

/// The tokenizer's whitespace, CR included (it becomes LF before tokenizing).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Runs the scan over `html` into `collector`; `false` when it gave up, leaving the
/// collector to be thrown away.
pub(super) fn scan(html: &[u8], collector: &mut Collector, scratch: &mut Scratch) -> bool {
    let mut scan = Scan {
        html,
        at: 0,
        collector,
        scratch,
    };
    match scan.run() {
        Ok(()) | Err(Stop::Eof) => true,
        Err(Stop::GiveUp) => false,
    }
}

/// The names and values the scan fills, kept from page to page.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    name: Vec<u8>,
    attr_name: Vec<u8>,
    attrs: Attrs,
}

struct Scan<'h, 'c, 'o> {
    html: &'h [u8],
    at: usize,
    collector: &'c mut Collector<'o>,
    scratch: &'c mut Scratch,
}

impl Scan<'_, '_, '_> {
    fn peek(&self) -> Result<u8, Stop> {
        self.html.get(self.at).copied().ok_or(Stop::Eof)
    }

    fn next(&mut self) -> Result<u8, Stop> {
        let b = self.peek()?;
        self.at += 1;
        Ok(b)
    }

    fn starts_with(&self, s: &[u8]) -> bool {
        self.html[self.at..].starts_with(s)
    }

    /// Data state: from `<` to `<` until the collector has seen the head's end.
    fn run(&mut self) -> Result<(), Stop> {
        while !self.collector.complete {
            let lt = memchr(b'<', &self.html[self.at..]).ok_or(Stop::Eof)?;
            self.at += lt + 1;
            match self.peek()? {
                b if b.is_ascii_alphabetic() => self.start_tag()?,
                b'/' => self.end_tag()?,
                b'!' => self.markup_declaration()?,
                // `<?xml ...?>`: a bogus comment, to the first `>`.
                b'?' => self.past(b'>')?,
                // A `<` that starts no tag is text.
                _ => {}
            }
        }
        Ok(())
    }

    /// A tag's name, lower-cased, into `scratch.name`, and which tag it is; `at` is left
    /// on what ended it.
    fn tag_name(&mut self) -> Result<Tag, Stop> {
        self.scratch.name.clear();
        loop {
            match self.peek()? {
                b if is_space(b) || b == b'/' || b == b'>' => {
                    return Ok(Tag::of(&self.scratch.name));
                }
                0 => return Err(Stop::GiveUp),
                b => {
                    if self.scratch.name.len() < MAX_NAME {
                        self.scratch.name.push(b.to_ascii_lowercase());
                    }
                    self.at += 1;
                }
            }
        }
    }

    fn start_tag(&mut self) -> Result<(), Stop> {
        let tag = self.tag_name()?;
        self.scratch.attrs.clear();
        self.attributes(has_attrs_read(tag))?;
        self.collector.start_tag(tag, &self.scratch.attrs);
        if self.collector.complete {
            return Ok(());
        }
        match content_state(tag) {
            None => Ok(()),
            Some(html5gum::State::ScriptData) => self.raw_text(tag, true),
            Some(html5gum::State::RcData | html5gum::State::RawText) => self.raw_text(tag, false),
            // PLAINTEXT runs to the end: no head tag starts it.
            Some(_) => Err(Stop::GiveUp),
        }
    }

    /// After `</`.
    fn end_tag(&mut self) -> Result<(), Stop> {
        self.at += 1;
        if !self.peek()?.is_ascii_alphabetic() {
            return Err(Stop::GiveUp);
        }
        let tag = self.tag_name()?;
        self.attributes(false)?;
        self.collector.end_tag(tag, &[]);
        Ok(())
    }

    /// Moves past the next `byte`.
    fn past(&mut self, byte: u8) -> Result<(), Stop> {
        let i = memchr(byte, &self.html[self.at..]).ok_or(Stop::Eof)?;
        self.at += i + 1;
        Ok(())
    }

    /// After `<!`: a comment, or a doctype or bogus comment, which end at the first `>`.
    fn markup_declaration(&mut self) -> Result<(), Stop> {
        self.at += 1;
        if self.starts_with(b"[CDATA[") {
            return Err(Stop::GiveUp);
        }
        if !self.starts_with(b"--") {
            return self.past(b'>');
        }
        self.at += 2;
        self.at += crate::html::comment_len(&self.html[self.at..]).ok_or(Stop::Eof)?;
        Ok(())
    }

    /// The attributes up to and including the tag's `>`; with `keep`, the wanted ones
    /// (first of each name) into `scratch.attrs`.
    fn attributes(&mut self, keep: bool) -> Result<(), Stop> {
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
                first => {
                    if self.attribute(first, keep)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// One attribute whose name starts with `first` (an `=` included); `true` when the
    /// tag's `>` ended it.
    fn attribute(&mut self, first: u8, keep: bool) -> Result<bool, Stop> {
        self.scratch.attr_name.clear();
        let mut b = first;
        loop {
            let name = &mut self.scratch.attr_name;
            match b {
                0 => return Err(Stop::GiveUp),
                _ if name.len() < MAX_NAME => name.push(b.to_ascii_lowercase()),
                _ => {}
            }
            b = self.peek()?;
            if is_space(b) || matches!(b, b'/' | b'>' | b'=') {
                break;
            }
            self.at += 1;
        }
        // After the name: more space, then `=` and a value, or the next attribute.
        while is_space(self.peek()?) {
            self.at += 1;
        }
        if self.peek()? != b'=' {
            return Ok(false);
        }
        self.at += 1;
        while is_space(self.peek()?) {
            self.at += 1;
        }
        self.value(keep)
    }

    /// The `Attrs` slot the attribute just named takes: a wanted name not taken before.
    /// As in the html5gum emitter, a name takes its slot with its first byte of value,
    /// so an empty value takes none.
    fn slot(&mut self) -> Option<usize> {
        let attrs = &mut self.scratch.attrs;
        let i = ATTRS
            .iter()
            .position(|(n, _)| *n == self.scratch.attr_name.as_slice())?;
        attrs.claim(i)
    }

    /// An attribute value, kept with `keep` (see [`Scan::slot`]); `true` when the tag's
    /// `>` ended it.
    fn value(&mut self, keep: bool) -> Result<bool, Stop> {
        let quote = match self.peek()? {
            b'>' => {
                self.at += 1;
                return Ok(true);
            }
            q @ (b'"' | b'\'') => {
                self.at += 1;
                Some(q)
            }
            _ => None,
        };
        let start = self.at;
        let end = match quote {
            Some(q) => self.quoted_end(q)?,
            None => loop {
                match self.peek()? {
                    0 | b'&' => return Err(Stop::GiveUp),
                    b if is_space(b) || b == b'>' => break self.at,
                    _ => self.at += 1,
                }
            },
        };
        if keep
            && end > start
            && let Some(i) = self.slot()
        {
            let value = &self.html[start..end];
            self.scratch.attrs.push(i, value, usize::MAX);
        }
        if quote.is_some() {
            self.at += 1;
        } else if self.peek()? == b'>' {
            self.at += 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// Where the quoted value starting at `at` ends (its closing `quote`), `at` moved
    /// there: by two searches, where a value went a byte at a time (they were a thirtieth
    /// of a run). A NUL, `&` or CR before it gives up, as html5gum would decode them; the
    /// end of the input first ends the scan.
    fn quoted_end(&mut self, quote: u8) -> Result<usize, Stop> {
        let rest = &self.html[self.at..];
        let stop = memchr3(quote, 0, b'&', rest);
        let value = &rest[..stop.unwrap_or(rest.len())];
        if memchr(b'\r', value).is_some() {
            return Err(Stop::GiveUp);
        }
        let i = stop.ok_or(Stop::Eof)?;
        if rest[i] != quote {
            return Err(Stop::GiveUp);
        }
        self.at += i;
        Ok(self.at)
    }

    /// The content of the start tag just read (in `scratch.name`), up to its end tag:
    /// RCDATA and RAWTEXT end at the first `</name` followed by space, `/` or `>`, and so
    /// does script data unless `<!--` comes first. The content goes to the collector with
    /// the end tag when it keeps a script's text.
    fn raw_text(&mut self, tag: Tag, script: bool) -> Result<(), Stop> {
        let name_len = self.scratch.name.len();
        let content_start = self.at;
        let end = loop {
            let lt = memchr(b'<', &self.html[self.at..]).ok_or(Stop::Eof)?;
            self.at += lt + 1;
            if script && self.starts_with(b"!--") {
                return Err(Stop::GiveUp);
            }
            let Some(after) = self.html.get(self.at + 1..self.at + 1 + name_len) else {
                return Err(Stop::Eof);
            };
            if self.peek()? == b'/' && after.eq_ignore_ascii_case(&self.scratch.name) {
                let delimiter = self.html.get(self.at + 1 + name_len).copied();
                match delimiter {
                    None => return Err(Stop::Eof),
                    Some(b) if is_space(b) || b == b'/' || b == b'>' => break self.at - 1,
                    Some(_) => {}
                }
            }
        };
        let content = &self.html[content_start..end];
        let keeps_text =
            (script && self.collector.in_json_ld) || (!script && self.collector.in_title);

        if keeps_text && content.iter().any(|&b| b == 0 || b == b'\r') {
            return Err(Stop::GiveUp);
        }
        self.at += 1 + name_len;
        self.attributes(false)?;
        // A title's character references are decoded as html5gum decodes them: by
        // html5gum, over the title alone.
        let mut decoded = Vec::new();
        let text = match keeps_text {
            true if !script && content.contains(&b'&') => {
                crate::html::decode_text(content, html5gum::State::RcData, &mut decoded);
                &decoded[..]
            }
            true => content,
            false => &[][..],
        };
        self.collector.end_tag(tag, text);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
