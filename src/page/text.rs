//! The text of a page as a browser shows it, and its title: what the text match
//! (`lastmod::source::matching`) compares with the sources' text.

use crate::html::{Collect, Reset, Tag};

/// A page's shown text, words kept apart at every tag, and its title's text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    /// The body's text: scripts, styles, templates and the title left out.
    pub text: String,
    /// The title's text.
    pub title: String,
}

/// The most bytes of a page's text kept: 1 MiB, as much as is read of the page (the
/// text stops with the source link's look, at the held limit).
const MAX_TEXT: usize = 1024 * 1024;

/// The most bytes of a title kept.
const MAX_TITLE: usize = 1024;

/// The reader of a page's [`Shown`] text.
#[derive(Debug, Default)]
pub(super) struct ShownText {
    /// The text and the title as read: bytes, as a piece may end inside a character.
    text: Vec<u8>,
    title: Vec<u8>,
    /// How deep in elements whose text is not shown.
    hidden: u32,
    /// In the title.
    in_title: bool,
    /// The title was closed: one that runs to the page's end is none.
    titled: bool,
}

impl ShownText {
    /// What the page showed; the reader is left empty for the next.
    pub fn finish(&mut self) -> Shown {
        let shown = Shown {
            text: String::from_utf8_lossy(self.text.trim_ascii_end()).into_owned(),
            title: match self.titled {
                true => String::from_utf8_lossy(self.title.trim_ascii_end()).into_owned(),
                false => String::new(),
            },
        };
        self.reset();
        shown
    }

    fn is_hidden(tag: Tag) -> bool {
        matches!(
            tag,
            Tag::Script | Tag::Style | Tag::Template | Tag::Noscript | Tag::Title
        )
    }
}

impl Reset for ShownText {
    fn reset(&mut self) {
        self.text.clear();
        self.title.clear();
        self.hidden = 0;
        self.in_title = false;
        self.titled = false;
    }
}

impl Collect for ShownText {
    type Slot = ();

    fn attribute(&mut self, _: Tag, _: &[u8]) -> Option<()> {
        None
    }

    fn value(&mut self, _: (), _: &[u8]) {}

    fn text(&mut self, s: &[u8]) {
        if self.in_title {
            push_spaced(&mut self.title, s, MAX_TITLE);
        }
        if self.hidden == 0 {
            push_spaced(&mut self.text, s, MAX_TEXT);
        }
    }

    fn boundary(&mut self) {
        if self.hidden == 0 {
            push_spaced(&mut self.text, b" ", MAX_TEXT);
        }
    }

    fn start_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.in_title |= tag == Tag::Title && !self.titled;
        self.hidden += u32::from(ShownText::is_hidden(tag));
        false
    }

    fn end_tag(&mut self, tag: Tag, _: &[u8]) -> bool {
        self.titled |= self.in_title && tag == Tag::Title;
        self.in_title &= tag != Tag::Title;
        if ShownText::is_hidden(tag) {
            self.hidden = self.hidden.saturating_sub(1);
        }
        false
    }
}

/// Appends `s` to `to`, each run of spaces as one space and none first, up to `limit`
/// bytes in all: the fast scan and html5gum cut text and see the ends of tags and pages
/// differently, and only the words count.
fn push_spaced(to: &mut Vec<u8>, s: &[u8], limit: usize) {
    for &b in s {
        if to.len() >= limit {
            return;
        }
        match b.is_ascii_whitespace() {
            false => to.push(b),
            true if to.last().is_some_and(|&b| b != b' ') => to.push(b' '),
            true => {}
        }
    }
}

/// The shown text of the page `html`, held in memory.
pub fn shown(html: &[u8]) -> Shown {
    let mut reader = ShownText::default();
    crate::html::read_held(html, &mut reader, &mut Default::default());
    reader.finish()
}
