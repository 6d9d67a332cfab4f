//! The one tokenizer everything read from a page goes through (`page` chooses the
//! readers and how much of the page is read): the fast scan (`scan.rs`), and html5gum
//! where the scan gives up, through one emitter. Each reader is a [`Collect`] that says
//! which attributes it wants and what tags, text and values mean to it.
//!
//! The general-purpose emitters allocate a map per tag and validate every character for
//! error reports, which made them most of a run's CPU time; this one keeps only the
//! attribute values a collector asks for and skips the parse-error bookkeeping.

mod decode;
mod prose;
mod regions;
mod scan;
mod tag;

pub(crate) use scan::{Resume, Scanned, scan_part};
pub(crate) use tag::Tag;

pub(crate) use prose::is_prose;
pub(crate) use regions::{ARTICLE, BODY, MAIN, Regions};

/// The most bytes of a tag or attribute name kept: names we look for are short, and a
/// hostile page's 2 GiB name must not be held.
pub(crate) const MAX_NAME: usize = 1024;

/// What one reader of a page collects from the [`Emitter`]'s tokens.
pub(crate) trait Collect {
    /// Where a wanted attribute's value goes.
    type Slot: Copy;

    /// The tokenizer state the content of the start tag `tag` is read in, now.
    fn content_state(&self, tag: Tag) -> Option<html5gum::State> {
        tag.content_state()
    }

    /// Where the value of the attribute `name` of the start tag `tag` goes, if it is
    /// wanted (one written without a value, `<img src>`, is offered too, and given no
    /// value); `None` for a repeated one (the first counts, as in browsers).
    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<Self::Slot>;

    /// More of the value of the attribute at `slot`.
    fn value(&mut self, slot: Self::Slot, s: &[u8]);

    /// The attribute at `slot` is complete.
    fn attribute_end(&mut self, _slot: Self::Slot) {}

    /// Text, including the content of scripts, styles and titles, in pieces: where it
    /// is cut means nothing (html5gum and the fast scan cut it differently).
    fn text(&mut self, _s: &[u8]) {}

    /// [`Self::text`] that is prose or not (see `html/prose.rs`), as the fast scan found
    /// while it looked for the text's end.
    fn prose_text(&mut self, s: &[u8], _prose: bool) {
        self.text(s);
    }

    /// A tag, comment or doctype begins: text before it ends there.
    fn boundary(&mut self) {}

    /// A start tag, `tag` told from its `name`, its wanted attributes given; `true` once
    /// nothing more is wanted.
    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool;

    /// An end tag; `true` once nothing more is wanted.
    fn end_tag(&mut self, tag: Tag, name: &[u8]) -> bool;
}

/// A collector used again, for another page or to read a page again from its start,
/// keeping what it has allocated: growing a fresh collector's buffers for every page,
/// under glibc's allocator locks, took a fifth of a run with every feature on.
pub(crate) trait Reset {
    /// Forgets everything collected, keeping the buffers.
    fn reset(&mut self);
}

impl<R: Reset> Reset for &mut R {
    fn reset(&mut self) {
        (**self).reset();
    }
}

/// A collector lent to a pass, kept by its owner from page to page.
impl<C: Collect> Collect for &mut C {
    type Slot = C::Slot;

    fn content_state(&self, tag: Tag) -> Option<html5gum::State> {
        (**self).content_state(tag)
    }

    #[inline]
    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<Self::Slot> {
        (**self).attribute(tag, name)
    }

    #[inline]
    fn value(&mut self, slot: Self::Slot, s: &[u8]) {
        (**self).value(slot, s);
    }

    #[inline]
    fn attribute_end(&mut self, slot: Self::Slot) {
        (**self).attribute_end(slot);
    }

    #[inline]
    fn text(&mut self, s: &[u8]) {
        (**self).text(s);
    }

    #[inline]
    fn prose_text(&mut self, s: &[u8], prose: bool) {
        (**self).prose_text(s, prose);
    }

    #[inline]
    fn boundary(&mut self) {
        (**self).boundary();
    }

    #[inline]
    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        (**self).start_tag(tag, name)
    }

    #[inline]
    fn end_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        (**self).end_tag(tag, name)
    }
}

/// The names the emitter fills, kept from page to page by a reader that wants to.
#[derive(Debug, Default)]
pub(crate) struct Names {
    tag: Vec<u8>,
    last_start_tag: Vec<u8>,
    attr_name: Vec<u8>,
    /// Text or a value with its character references decoded, by the fast scan.
    decoded: Vec<u8>,
}

/// Where the current attribute stands.
#[derive(Clone, Copy)]
enum Attribute<S> {
    /// None is being read.
    None,
    /// Its name is being read, or its value has not begun.
    Named,
    /// The collector was asked where it goes.
    Placed(Option<S>),
}

/// The html5gum emitter: hands tags, wanted attribute values and text to a [`Collect`].
/// Its one token says the collector wants nothing more.
pub(crate) struct Emitter<'n, C: Collect> {
    /// The reader fed.
    pub(crate) collector: C,
    names: &'n mut Names,
    is_end_tag: bool,
    attribute: Attribute<C::Slot>,
    done: bool,
}

impl<'n, C: Collect> Emitter<'n, C> {
    /// An emitter into `collector`, with `names` cleared for this page.
    pub(crate) fn new(collector: C, names: &'n mut Names) -> Self {
        names.tag.clear();
        names.last_start_tag.clear();
        names.attr_name.clear();
        Emitter {
            collector,
            names,
            is_end_tag: false,
            attribute: Attribute::None,
            done: false,
        }
    }

    /// Asks the collector where the current attribute goes (never, for an end tag's).
    fn place(&mut self) -> Option<C::Slot> {
        let slot = if self.is_end_tag {
            None
        } else {
            let names = &*self.names;
            self.collector
                .attribute(Tag::of(&names.tag), &names.attr_name)
        };
        self.attribute = Attribute::Placed(slot);
        slot
    }

    /// The current attribute, if any, is complete.
    fn end_attribute(&mut self) {
        let slot = match self.attribute {
            Attribute::Named => self.place(),
            Attribute::Placed(slot) => slot,
            _ => None,
        };
        if let Some(slot) = slot {
            self.collector.attribute_end(slot);
        }
        self.attribute = Attribute::None;
    }

    fn init_tag(&mut self, is_end_tag: bool) {
        self.collector.boundary();
        self.names.tag.clear();
        self.names.attr_name.clear();
        self.is_end_tag = is_end_tag;
        self.attribute = Attribute::None;
    }
}

/// Runs the emitter into `collector` over everything `input` holds, read 64 KiB at a
/// time (the page is never held whole), or until the collector wants nothing more.
/// `input` starts where the fast scan asked for more (`from`), or at the page's start.
pub(crate) fn stream<C: Collect>(
    input: impl std::io::Read,
    collector: &mut C,
    names: &mut Names,
    from: Resume,
) -> std::io::Result<()> {
    let input = std::io::BufReader::with_capacity(64 * 1024, input);
    let raw_tag = from.raw().map(|_| names.tag.clone());
    let mut emitter = Emitter::new(collector, names);
    // Inside a start tag's content, its end tag is told by the start tag's name.
    if let Some(tag) = raw_tag {
        emitter.names.last_start_tag = tag;
    }
    let reader = html5gum::IoReader::new(input);
    let mut tokenizer = html5gum::Tokenizer::new_with_emitter(reader, &mut emitter);
    if let Some(state) = from.raw() {
        tokenizer.set_state(state);
    }
    if let Some(token) = tokenizer.next() {
        token?;
    }
    Ok(())
}

/// [`stream`] over HTML held in memory, with `names` kept from an earlier page.
pub(crate) fn stream_bytes<C: Collect>(html: &[u8], collector: C, names: &mut Names) -> C {
    let mut emitter = Emitter::new(collector, names);
    if let Some(token) = html5gum::Tokenizer::new_with_emitter(html, &mut emitter).next() {
        let Ok(()) = token;
    }
    emitter.collector
}

/// Runs `collector` over HTML held in memory: by the fast scan (`scan.rs`), or, where
/// that gives up, reset and run again by html5gum.
pub(crate) fn read_held<C: Collect + Reset>(html: &[u8], collector: &mut C, names: &mut Names) {
    if scan::scan(html, collector, names) {
        return;
    }
    collector.reset();
    stream_bytes(html, collector, names);
}

/// The wanted attributes of the tag being read, by slot: the first of duplicates counts,
/// as in browsers; buffers are reused from tag to tag.
#[derive(Debug)]
pub(crate) struct TagAttrs<const N: usize> {
    values: [Vec<u8>; N],
    present: [bool; N],
}

impl<const N: usize> Default for TagAttrs<N> {
    fn default() -> Self {
        TagAttrs {
            values: std::array::from_fn(|_| Vec::new()),
            present: [false; N],
        }
    }
}

impl<const N: usize> TagAttrs<N> {
    /// Starts reading attribute `slot`, unless the tag gave it already.
    pub fn claim(&mut self, slot: usize) -> Option<usize> {
        if self.present[slot] {
            return None;
        }
        self.present[slot] = true;
        self.values[slot].clear();
        Some(slot)
    }

    /// Appends to the value of `slot`, keeping at most `cap` bytes.
    pub fn push(&mut self, slot: usize, s: &[u8], cap: usize) {
        push_capped(&mut self.values[slot], s, cap);
    }

    /// The value of `slot`, if the tag gave it.
    pub fn get(&self, slot: usize) -> Option<&[u8]> {
        self.present[slot].then(|| self.values[slot].as_slice())
    }

    /// Treats `slot` as not given.
    pub fn forget(&mut self, slot: usize) {
        self.present[slot] = false;
    }

    /// Whether the tag gave any of them.
    pub fn any(&self) -> bool {
        self.present.contains(&true)
    }

    /// Forgets them all, for the next tag.
    pub fn clear(&mut self) {
        self.present = [false; N];
    }

    /// The buffers' capacities, for tests of what is held.
    #[cfg(test)]
    pub fn capacities(&self) -> impl Iterator<Item = usize> + '_ {
        self.values.iter().map(Vec::capacity)
    }
}

/// Text or an attribute value as a string, its invalid UTF-8 replaced: borrowed when it
/// is valid, as nearly all is (`String::from_utf8_lossy` checks a byte at a time where
/// `str::from_utf8` checks a word, and a head's values are read for every page).
pub(crate) fn lossy(value: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(value) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(value),
    }
}

/// Whether an attribute value, as text and trimmed, is `want` (ASCII case ignored):
/// compared in place, where a copy of each meta's name was most of what a head allocated.
pub(crate) fn value_is(value: &[u8], want: &str) -> bool {
    lossy(value).trim().eq_ignore_ascii_case(want)
}

/// Appends `s` to `buf` as far as `cap` bytes allow; the rest is dropped.
pub(crate) fn push_capped(buf: &mut Vec<u8>, s: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len());
    buf.extend_from_slice(&s[..s.len().min(room)]);
}

impl<C: Collect> html5gum::Emitter for &mut Emitter<'_, C> {
    type Token = ();

    fn pop_token(&mut self) -> Option<()> {
        std::mem::take(&mut self.done).then_some(())
    }

    fn emit_string(&mut self, s: &[u8]) {
        self.collector.text(s);
    }

    fn init_start_tag(&mut self) {
        self.init_tag(false);
    }

    fn init_end_tag(&mut self) {
        self.init_tag(true);
    }

    fn init_comment(&mut self) {
        self.collector.boundary();
    }

    fn emit_current_tag(&mut self) -> Option<html5gum::State> {
        self.end_attribute();
        let names = &mut *self.names;
        let tag = Tag::of(&names.tag);
        if self.is_end_tag {
            names.last_start_tag.clear();
            self.done = self.collector.end_tag(tag, &names.tag);
            return None;
        }
        std::mem::swap(&mut names.last_start_tag, &mut names.tag);
        self.done = self.collector.start_tag(tag, &names.last_start_tag);
        // Script and style content is text, not markup: a `<` in a script starts no tag.
        self.collector.content_state(tag)
    }

    fn init_doctype(&mut self) {
        self.collector.boundary();
    }

    fn init_attribute(&mut self) {
        self.end_attribute();
        self.names.attr_name.clear();
        self.attribute = Attribute::Named;
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        push_capped(&mut self.names.attr_name, s, MAX_NAME);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        let slot = match self.attribute {
            Attribute::Placed(slot) => slot,
            _ => self.place(),
        };
        if let Some(slot) = slot {
            self.collector.value(slot, s);
        }
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        push_capped(&mut self.names.tag, s, MAX_NAME);
    }

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        let last = &mut self.names.last_start_tag;
        last.clear();
        last.extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        let names = &*self.names;
        self.is_end_tag && !names.last_start_tag.is_empty() && names.last_start_tag == names.tag
    }

    fn emit_eof(&mut self) {}

    fn emit_error(&mut self, _: html5gum::Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the attribute values it is given, and stops at `</stop>`.
    #[derive(Default)]
    struct Count {
        values: usize,
        tags: usize,
    }

    impl Collect for Count {
        type Slot = ();

        fn attribute(&mut self, _: Tag, _: &[u8]) -> Option<()> {
            self.values += 1;
            Some(())
        }

        fn value(&mut self, (): (), _: &[u8]) {}

        fn start_tag(&mut self, _: Tag, _: &[u8]) -> bool {
            self.tags += 1;
            false
        }

        fn end_tag(&mut self, _: Tag, name: &[u8]) -> bool {
            name == b"stop"
        }
    }

    /// A 4 MiB tag or attribute name is held to [`MAX_NAME`] bytes; an end tag's
    /// attributes are never offered, a bare one is; reading stops where the collector
    /// says.
    #[test]
    fn names_are_bounded_and_reading_stops_when_asked() {
        let big = "a".repeat(4 << 20);
        let html = format!("<{big} {big}=1><p x=1 bare></p y=2></stop><p z=3>");
        let mut names = Names::default();
        let count = stream_bytes(html.as_bytes(), Count::default(), &mut names);
        assert!(names.tag.capacity() <= 2 * MAX_NAME);
        assert!(names.attr_name.capacity() <= 2 * MAX_NAME);
        assert_eq!((count.values, count.tags), (3, 2));
    }
}
