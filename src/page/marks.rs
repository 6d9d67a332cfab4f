//! What some pages say of themselves in their body rather than their head: the modified
//! date of a generator that dates pages there (Docusaurus's `<time itemprop=
//! "dateModified">`), and the link naming the page's source (an "edit this page" link,
//! Sphinx's "Show source"). Each is one of the readers a page is read by (see
//! `page/read.rs`), and each is done as soon as it has found what it looks for.

use crate::html::{Collect, Reset, Tag, TagAttrs};

/// The longest value either reader keeps: far past any date or source link.
pub const MAX_MARK: usize = 4096;

const ITEMPROP: usize = 0;
const DATETIME: usize = 1;
const CONTENT: usize = 2;

/// The `datetime` (else `content`) of the first element whose `itemprop` is
/// `dateModified`.
#[derive(Debug, Default)]
pub(super) struct BodyDate {
    attrs: TagAttrs<3>,
    found: Option<String>,
}

impl BodyDate {
    /// The date found; the reader is to be reset before it is used again.
    pub(super) fn finish(&mut self) -> Option<String> {
        self.found.take()
    }

    /// Whether it found one.
    pub(super) fn done(&self) -> bool {
        self.found.is_some()
    }
}

impl Reset for BodyDate {
    fn reset(&mut self) {
        self.attrs.clear();
        self.found = None;
    }
}

impl Collect for BodyDate {
    type Slot = usize;

    fn attribute(&mut self, _: Tag, name: &[u8]) -> Option<usize> {
        let slot = match name {
            b"itemprop" => ITEMPROP,
            b"datetime" => DATETIME,
            b"content" => CONTENT,
            _ => return None,
        };
        self.attrs.claim(slot)
    }

    fn value(&mut self, slot: usize, s: &[u8]) {
        self.attrs.push(slot, s, MAX_MARK);
    }

    fn boundary(&mut self) {
        self.attrs.clear();
    }

    fn start_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        let dated = self.attrs.get(ITEMPROP).is_some_and(|p| {
            p.split(u8::is_ascii_whitespace)
                .any(|token| token == b"dateModified")
        });
        if dated && self.found.is_none() {
            self.found = [DATETIME, CONTENT]
                .iter()
                .filter_map(|&slot| self.attrs.get(slot))
                .map(|v| crate::html::lossy(v).trim().to_string())
                .find(|v| !v.is_empty());
        }
        self.done()
    }

    fn end_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        self.done()
    }
}

/// Tells whether an attribute value names a page's source, and how good a name it is
/// (0 the best): given by the run, which knows the sources.
pub type SourceLinks<'a> = &'a (dyn Fn(&str) -> Option<usize> + Sync);

/// The best-ranked attribute value that names the page's source (see [`SourceLinks`]),
/// the first of its rank.
#[derive(Debug, Default)]
pub(super) struct SourceLink {
    value: Vec<u8>,
    /// The value is too long to be a link looked up.
    overlong: bool,
    found: Option<(usize, String)>,
}

impl SourceLink {
    /// The link found; the reader is to be reset before it is used again.
    pub(super) fn finish(&mut self) -> Option<String> {
        self.found.take().map(|(_, link)| link)
    }

    /// Whether it found a link of the best rank.
    pub(super) fn done(&self) -> bool {
        self.found.as_ref().is_some_and(|(rank, _)| *rank == 0)
    }

    /// The attribute whose value was just read is complete: looked up by `links`.
    pub(super) fn value_end(&mut self, links: SourceLinks) {
        let value = crate::html::lossy(&self.value);
        let value = value.trim();
        if self.overlong || value.is_empty() {
            return;
        }
        if let Some(rank) = links(value)
            && self.found.as_ref().is_none_or(|(best, _)| rank < *best)
        {
            self.found = Some((rank, value.to_string()));
        }
    }
}

impl Reset for SourceLink {
    fn reset(&mut self) {
        self.value.clear();
        self.overlong = false;
        self.found = None;
    }
}

/// Every attribute value is offered; [`SourceLink::value_end`] looks each up.
impl Collect for SourceLink {
    type Slot = ();

    fn attribute(&mut self, _: Tag, _: &[u8]) -> Option<()> {
        self.value.clear();
        self.overlong = false;
        Some(())
    }

    fn value(&mut self, (): (), s: &[u8]) {
        self.overlong |= self.value.len() + s.len() > MAX_MARK;
        crate::html::push_capped(&mut self.value, s, MAX_MARK);
    }

    fn start_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        self.done()
    }

    fn end_tag(&mut self, _: Tag, _: &[u8]) -> bool {
        self.done()
    }
}
