//! How much of a page is read, and by which readers: the one read policy.
//!
//! The readers a run wants are chosen once for the run ([`Wants`]); a page is read from
//! its start, the first [`FIRST_READ`] bytes at once (the whole page, when a reader wants
//! all of it and its size is known), and read on only while a reader wants more. The
//! fast scan goes on from where the part read so far cut it off, so no byte is scanned
//! twice; html5gum reads what the scan gives up on, and what lies past [`MAX_HELD`].
//!
//! The head, the body date and the source link are looked for in the first
//! [`MAX_HELD`] bytes; the images and the content fingerprint read the whole page.

use std::io::{self, Read};

use super::head::HeadReader;
use super::marks::{BodyDate, SourceLink, SourceLinks};
use super::{PageRead, Wants};
use crate::html::{self, Collect, Reset, Resume, Scanned, Tag};
use crate::images::Images;

/// The first read; most pages' heads end well before this.
pub const FIRST_READ: usize = 16 * 1024;

/// The most bytes of a page held in memory: past it, html5gum reads the rest as it
/// comes, 64 KiB at a time. A reading thread keeps a buffer this long at most.
pub const MAX_HELD: usize = 1024 * 1024;

/// The readers a reading thread keeps from page to page (reset, not made anew, for
/// each page), and the part of the page read so far.
pub struct Reader {
    wants: Wants,
    kept: Kept,
    held: Vec<u8>,
    names: html::Names,
}

struct Kept {
    head: HeadReader,
    images: Images,
    content: super::fingerprint::Content,
    date: BodyDate,
    link: SourceLink,
    text: super::text::ShownText,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("wants", &self.wants)
            .finish()
    }
}

impl Reader {
    /// A reader of pages for what `wants` asks.
    pub fn new(wants: &Wants) -> Reader {
        Reader {
            wants: wants.clone(),
            kept: Kept {
                head: HeadReader::new(wants.head.as_ref()),
                images: Images::default(),
                content: Default::default(),
                date: BodyDate::default(),
                link: SourceLink::default(),
                text: Default::default(),
            },
            held: Vec::new(),
            names: html::Names::default(),
        }
    }

    /// Whether anything is read from a page at all.
    pub fn reads(&self) -> bool {
        self.wants.reads()
    }

    /// Reads the page in `input`, of `size` bytes when that is known (from its `fstat`),
    /// for what the run wants, and its source link when `links` is given.
    pub fn read(
        &mut self,
        input: impl Read,
        size: Option<u64>,
        links: Option<SourceLinks>,
    ) -> io::Result<PageRead> {
        let mut pass = Pass::new(&mut self.kept, &self.wants, links);
        let part = Part {
            size,
            first: FIRST_READ,
        };
        let read = read_into(&mut self.held, &mut self.names, input, part, &mut pass);
        let page = pass.finish();
        if self.held.capacity() > MAX_HELD + FIRST_READ {
            self.held = Vec::new();
        }
        read.map(|()| page)
    }
}

/// How a page is read: its size when it is known, and the first read (the least read
/// after it too).
#[derive(Debug, Clone, Copy)]
struct Part {
    size: Option<u64>,
    first: usize,
}

/// Reads `input` into `held` and `pass`, as the module's docs say.
fn read_into(
    held: &mut Vec<u8>,
    names: &mut html::Names,
    mut input: impl Read,
    Part { size, first }: Part,
    pass: &mut Pass,
) -> io::Result<()> {
    held.clear();
    let wants_whole = pass.wants.whole();
    let first = match size {
        Some(size) if wants_whole => size.min(MAX_HELD as u64) as usize,
        Some(size) => size.min(first as u64) as usize,
        None => first,
    };
    let step = first.max(1);
    let mut whole = fill(&mut input, held, first, size)?;
    let mut from = Resume::START;
    loop {
        match html::scan_part(held, from, whole, pass, names) {
            Scanned::Done => return Ok(()),
            Scanned::GaveUp => {
                // Read again by html5gum, from the start; no more than the bounded
                // readers may read, unless a reader wants the whole page anyway.
                pass.reset();
                let limit = if wants_whole {
                    u64::MAX
                } else {
                    MAX_HELD as u64
                };
                let rest = input.take(limit.saturating_sub(held.len() as u64));
                let page = io::Cursor::new(&held[..]).chain(rest);
                return html::stream(page, pass, names, Resume::START);
            }
            Scanned::More(resume) if held.len() < MAX_HELD => {
                let target = match size {
                    Some(size) if wants_whole => size as usize,
                    _ => held.len() * 2,
                };
                let more = target.clamp(held.len() + step, MAX_HELD) - held.len();
                whole = fill(&mut input, held, more, size)?;
                from = resume;
            }
            Scanned::More(resume) => {
                pass.held_limit();
                if pass.done() {
                    return Ok(());
                }
                let rest = io::Cursor::new(&held[resume.at()..]).chain(input);
                return html::stream(rest, pass, names, resume);
            }
        }
    }
}

/// Reads up to `more` bytes of `input` onto `held`; whether the page's end was reached
/// (a short read, or the size the page had when it was opened).
fn fill(
    input: &mut impl Read,
    held: &mut Vec<u8>,
    more: usize,
    size: Option<u64>,
) -> io::Result<bool> {
    held.reserve_exact(more);
    let before = held.len();
    input.take(more as u64).read_to_end(held)?;
    Ok(held.len() - before < more || size == Some(held.len() as u64))
}

/// Whether the body date is looked for: decided where the head ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listen {
    Undecided,
    On,
    Off,
}

/// One page's pass: the readers the run wants, fed together, each as long as it wants.
struct Pass<'a> {
    kept: &'a mut Kept,
    wants: &'a Wants,
    links: Option<SourceLinks<'a>>,
    date: Listen,
    /// How many `<noscript>`s read as markup (before the head's end) are open: what is
    /// in them is the head reader's alone, as the other readers read it as text.
    noscript: u32,
    /// The readers bounded by [`MAX_HELD`] gave up.
    past_held: bool,
}

/// Where one attribute's value goes, for each reader that wants it.
#[derive(Debug, Clone, Copy, Default)]
struct Slots {
    head: bool,
    images: Option<usize>,
    content: Option<usize>,
    date: Option<usize>,
    link: bool,
}

impl<'a> Pass<'a> {
    fn new(kept: &'a mut Kept, wants: &'a Wants, links: Option<SourceLinks<'a>>) -> Pass<'a> {
        let mut pass = Pass {
            kept,
            wants,
            links,
            date: Listen::Undecided,
            noscript: 0,
            past_held: false,
        };
        pass.reset();
        pass
    }

    /// What the page gave; the readers are reset for the next page when it starts.
    fn finish(self) -> PageRead {
        let text_on = self.text_on();
        let kept = self.kept;
        let mut head = match self.wants.head {
            Some(_) => kept.head.finish(),
            None => Default::default(),
        };
        if head.modified.is_none() {
            head.modified = kept.date.finish();
        }
        PageRead {
            head,
            images: self.wants.images.then(|| kept.images.finish()),
            fingerprint: self.wants.fingerprint.then(|| kept.content.finish()),
            source_link: kept.link.finish(),
            text: text_on.then(|| kept.text.finish()),
        }
    }

    /// The bounded readers give up.
    fn held_limit(&mut self) {
        self.kept.head.give_up();
        self.past_held = true;
        self.decide_date();
    }

    /// Where the head ends: whether the page is one whose date is in its body.
    fn decide_date(&mut self) {
        if self.date != Listen::Undecided || !self.kept.head.complete() {
            return;
        }
        let (generator, dated) = self.kept.head.generator_and_dated();
        let in_body = generator.is_some_and(crate::generators::dates_in_body);
        self.date = match self.wants.body_date && in_body && !dated && !self.past_held {
            true => Listen::On,
            false => Listen::Off,
        };
    }

    fn links(&self) -> Option<SourceLinks<'a>> {
        self.links.filter(|_| !self.past_held)
    }

    /// Whether the shown text is read: of a page read for its source link, as far as
    /// the links are looked for.
    fn text_on(&self) -> bool {
        self.wants.text && self.links.is_some()
    }

    /// Whether no reader wants more.
    fn done(&self) -> bool {
        let head = self.wants.head.is_none() || self.kept.head.complete();
        let date = match self.date {
            Listen::Undecided => !self.wants.body_date,
            Listen::On => self.kept.date.done(),
            Listen::Off => true,
        };
        let link = self.links().is_none() || self.kept.link.done();
        let text = !self.text_on() || self.past_held;
        head && date && link && text && !self.wants.whole()
    }

    /// Inside a `<noscript>` read as markup: only the head reader reads.
    fn inner(&self) -> bool {
        self.noscript > 0
    }
}

impl Reset for Pass<'_> {
    fn reset(&mut self) {
        let Kept {
            head,
            images,
            content,
            date,
            link,
            text,
        } = &mut *self.kept;
        head.reset();
        images.reset();
        content.reset();
        date.reset();
        link.reset();
        text.reset();
        self.date = Listen::Undecided;
        self.noscript = 0;
        self.past_held = false;
    }
}

impl Collect for Pass<'_> {
    type Slot = Slots;

    #[inline]
    fn content_state(&self, tag: Tag) -> Option<html5gum::State> {
        self.kept.head.content_state(tag)
    }

    #[inline]
    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<Slots> {
        let head = self.kept.head.attribute(tag, name).is_some();
        if self.inner() {
            return head.then_some(Slots {
                head,
                ..Slots::default()
            });
        }
        let kept = &mut *self.kept;
        let slots = Slots {
            head,
            images: self
                .wants
                .images
                .then(|| kept.images.attribute(tag, name))
                .flatten(),
            content: (self.wants.fingerprint)
                .then(|| kept.content.attribute(tag, name))
                .flatten(),
            date: (self.date == Listen::On)
                .then(|| kept.date.attribute(tag, name))
                .flatten(),
            link: self.links.is_some()
                && !self.past_held
                && kept.link.attribute(tag, name).is_some(),
        };
        let any = slots.head
            || slots.images.is_some()
            || slots.content.is_some()
            || slots.date.is_some()
            || slots.link;
        any.then_some(slots)
    }

    #[inline]
    fn value(&mut self, slots: Slots, s: &[u8]) {
        let kept = &mut *self.kept;
        if slots.head {
            kept.head.value((), s);
        }
        if let Some(slot) = slots.images {
            kept.images.value(slot, s);
        }
        if let Some(slot) = slots.content {
            kept.content.value(slot, s);
        }
        if let Some(slot) = slots.date {
            kept.date.value(slot, s);
        }
        if slots.link {
            kept.link.value((), s);
        }
    }

    #[inline]
    fn attribute_end(&mut self, slots: Slots) {
        if slots.head {
            self.kept.head.attribute_end(());
        }
        if let Some(slot) = slots.images {
            self.kept.images.attribute_end(slot);
        }
        if let (true, Some(links)) = (slots.link, self.links) {
            self.kept.link.value_end(links);
        }
    }

    #[inline]
    fn text(&mut self, s: &[u8]) {
        self.kept.head.text(s);
        if self.wants.fingerprint && !self.inner() {
            self.kept.content.text(s);
        }
        if self.shows_text() {
            self.kept.text.text(s);
        }
    }

    #[inline]
    fn prose_text(&mut self, s: &[u8], prose: bool) {
        self.kept.head.text(s);
        if self.wants.fingerprint && !self.inner() {
            self.kept.content.prose_text(s, prose);
        }
        if self.shows_text() {
            self.kept.text.text(s);
        }
    }

    #[inline]
    fn boundary(&mut self) {
        let kept = &mut *self.kept;
        kept.head.boundary();
        kept.images.boundary();
        kept.content.boundary();
        kept.date.boundary();
        if self.shows_text() {
            self.kept.text.boundary();
        }
    }

    #[inline]
    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        let inner = self.inner();
        self.kept.head.start_tag(tag, name);
        if !inner {
            self.body_tag(tag, name, true);
        }
        if tag == Tag::Noscript && !self.kept.head.complete() {
            self.noscript += 1;
        }
        self.decide_date();
        self.done()
    }

    #[inline]
    fn end_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        self.kept.head.end_tag(tag, name);
        if tag == Tag::Noscript && self.inner() {
            self.noscript -= 1;
        }
        if !self.inner() {
            self.body_tag(tag, name, false);
        }
        self.decide_date();
        self.done()
    }
}

impl Pass<'_> {
    /// A start (`start`) or end tag, to the readers of the body.
    #[inline]
    fn body_tag(&mut self, tag: Tag, name: &[u8], start: bool) {
        let text_on = self.text_on();
        let kept = &mut *self.kept;
        if self.wants.images {
            if start {
                kept.images.start_tag(tag, name);
            } else {
                kept.images.end_tag(tag, name);
            }
        }
        if self.wants.fingerprint {
            if start {
                kept.content.start_tag(tag, name);
            } else {
                kept.content.end_tag(tag, name);
            }
        }
        if self.date == Listen::On && start {
            kept.date.start_tag(tag, name);
        }
        if text_on {
            if start {
                kept.text.start_tag(tag, name);
            } else {
                kept.text.end_tag(tag, name);
            }
        }
    }

    /// Whether text goes to the shown text's reader: bounded as the links are.
    #[inline]
    fn shows_text(&self) -> bool {
        self.text_on() && !self.past_held && !self.inner()
    }
}

/// The page `html` read by html5gum alone, every reader fed from its start: what the
/// fast scan is held to (by the differential tests and the fuzz target).
pub fn read_by_html5gum(html: &[u8], wants: &Wants, links: Option<SourceLinks>) -> PageRead {
    let mut reader = Reader::new(wants);
    let mut pass = Pass::new(&mut reader.kept, &reader.wants, links);
    let names = &mut html::Names::default();
    html::stream(html, &mut pass, names, Resume::START).unwrap();
    pass.finish()
}

/// The page `html` read as a page of unknown size, from a first read of `first` bytes
/// and no less each time more is read: the fast scan goes on from many places.
pub fn read_in_parts(
    html: &[u8],
    wants: &Wants,
    links: Option<SourceLinks>,
    first: usize,
) -> PageRead {
    let mut reader = Reader::new(wants);
    let mut pass = Pass::new(&mut reader.kept, &reader.wants, links);
    let part = Part { size: None, first };
    read_into(&mut reader.held, &mut reader.names, html, part, &mut pass).unwrap();
    pass.finish()
}

#[cfg(test)]
mod tests;
