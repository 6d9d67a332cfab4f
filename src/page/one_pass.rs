//! A page held whole, read for its head and its body in one pass. Read apart, the body's
//! pass tokenized the head again after the head reader had (an eighth of a run with every
//! feature on, most of it the head's attributes); here the head reader rides beside the
//! body's collectors, as [`Along`], and stops listening where it would have stopped
//! reading.
//!
//! The two readers must see the same tokens, which they do but for one tag: a
//! `<noscript>`'s content is markup to the head reader (as a crawler without scripts
//! reads it) and text to the body's. A page with one before its head's end is read
//! again by the head reader alone. The head reader counts only attributes given a value,
//! the body's count bare ones too: [`Along`] claims an attribute at its first byte of
//! value, so a bare one is passed over as the head reader alone passes over it. The page
//! is at most [`super::HEAD_LIMIT`] bytes, all of which the head reader alone would read.

use super::body::{self, Held, Pass};
use super::{Body, BodyWants, Collector, Head, HeadBuffers, HeadOptions, HeadSink};
use super::{content_state, wanted_attribute};
use crate::html::{Collect, Reset, Tag};

/// The head and, as `wants` asks, the body of the page `html`, held whole, read as a run
/// reads them: in one pass when the page is at most [`super::HEAD_LIMIT`] bytes (and no
/// `<noscript>` comes before its head's end), else the head, then the body.
pub fn read_page_held(html: &[u8], options: &HeadOptions, wants: BodyWants) -> (Head, Body) {
    let mut buffers = HeadBuffers::default();
    let size = Some(html.len() as u64);
    let mut page = std::io::Cursor::new(html);
    // Reading from memory cannot fail.
    let head = super::read_page(&mut page, options, size, &mut buffers, wants);
    let body = buffers.read_body(&mut page, size, wants);
    (head.unwrap_or_default(), body.unwrap_or_default())
}

/// Reads the head and, as `wants` asks, the body of `html` (a whole page) in one pass,
/// leaving the body in the buffers' collectors; `None` when the head must be read alone
/// (see the module's docs), the body read all the same.
pub(super) fn read(
    html: &[u8],
    options: &HeadOptions,
    buffers: &mut HeadBuffers,
    wants: BodyWants,
) -> Option<Head> {
    let HeadBuffers {
        names,
        attrs,
        text,
        collectors,
        body_read,
        ..
    } = buffers;
    let mut collector = Collector::new(options);
    attrs.clear();
    text.clear();
    let mut along = Along {
        sink: HeadSink {
            collector: &mut collector,
            attrs,
            text,
        },
        attribute: Attribute::None,
        done: false,
        noscript: false,
    };
    let pass = WithHead(Held(html, names), &mut along);
    // A held page's pass cannot fail: only a streamed one reads.
    body::collect(wants, pass, collectors).ok()?;
    *body_read = Some(wants);
    let noscript = along.noscript;
    (!noscript).then(|| collector.finish().0)
}

/// A pass with the head reader beside the collector it is run with.
struct WithHead<'a, 'c, 'o, P>(P, &'a mut Along<'c, 'o>);

impl<P: Pass> Pass for WithHead<'_, '_, '_, P> {
    fn run<C: Collect + Reset>(self, collector: &mut C) -> std::io::Result<()> {
        let WithHead(pass, along) = self;
        pass.run(&mut (collector, along))
    }
}

/// The attribute being read, for the head reader.
#[derive(Clone, Copy)]
enum Attribute {
    None,
    /// Named, its value not begun: its slot in [`ATTRS`].
    Named(usize),
    /// Claimed at its first byte of value.
    Claimed(usize),
    /// A repeat of one the tag gave: passed over.
    Repeated,
}

/// The head reader among the body's collectors (it comes second: the tokenizer states
/// are the body's).
struct Along<'c, 'o> {
    sink: HeadSink<'c, 'o>,
    attribute: Attribute,
    /// The head ended (or a `<noscript>` came first): nothing after it is the head's.
    done: bool,
    /// A `<noscript>` came before the head's end.
    noscript: bool,
}

impl Reset for Along<'_, '_> {
    fn reset(&mut self) {
        *self.sink.collector = Collector::new(self.sink.collector.options);
        self.sink.attrs.clear();
        self.sink.text.clear();
        self.attribute = Attribute::None;
        self.done = false;
        self.noscript = false;
    }
}

impl Collect for Along<'_, '_> {
    type Slot = ();

    const BARE_ATTRIBUTES: bool = true;

    fn content_state(tag: Tag) -> Option<html5gum::State> {
        content_state(tag)
    }

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<()> {
        if self.done {
            return None;
        }
        self.attribute = Attribute::Named(wanted_attribute(tag, name)?);
        Some(())
    }

    fn value(&mut self, (): (), s: &[u8]) {
        if s.is_empty() {
            return;
        }
        if let Attribute::Named(slot) = self.attribute {
            self.attribute = match self.sink.attrs.claim(slot) {
                Some(slot) => Attribute::Claimed(slot),
                None => Attribute::Repeated,
            };
        }
        if let Attribute::Claimed(slot) = self.attribute {
            self.sink.value(slot, s);
        }
    }

    fn attribute_end(&mut self, (): ()) {
        self.attribute = Attribute::None;
    }

    fn text(&mut self, s: &[u8]) {
        if !self.done {
            self.sink.text(s);
        }
    }

    fn boundary(&mut self) {
        if !self.done {
            self.sink.boundary();
        }
    }

    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        if !self.done && tag == Tag::Noscript {
            self.noscript = true;
            self.done = true;
        }
        if !self.done {
            self.done = self.sink.start_tag(tag, name);
        }
        self.done
    }

    fn end_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        if !self.done {
            self.done = self.sink.end_tag(tag, name);
        }
        self.done
    }
}

#[cfg(test)]
mod tests;
