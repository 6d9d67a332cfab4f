//! A sitemap's entries in compact form, for sites of a million pages: every URL in one
//! string after a base URL kept once, and the fields packed without `Option`'s tag bytes.
//! An [`Entry`] of its own per page costs 64 bytes and a heap block for its URL; an
//! entry here costs 40 bytes and the URL's bytes after the base.

use std::fmt;

use jiff::Timestamp;

use super::{Alternate, Entry, Extras};
use crate::rules::{Changefreq, Priority};

/// The entries of a sitemap, in the order they are written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    /// What every URL starts with.
    base: Box<str>,
    /// Each URL after the base, one after the other.
    text: String,
    items: Vec<Item>,
}

/// `nanosecond` of an entry without `<lastmod>`: no timestamp has it.
const NO_LASTMOD: i32 = i32::MIN;

/// `priority` of an entry without `<priority>`: the bits of a NaN, never a priority.
const NO_PRIORITY: u32 = u32::MAX;

/// One entry, its URL a span of the text it was stored in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    start: usize,
    /// URLs are short (`url::MAX_URL_LEN`, a head's 16 KiB).
    len: u32,
    nanosecond: i32,
    second: i64,
    priority: u32,
    changefreq: Option<Changefreq>,
    extras: Option<Box<Extras>>,
}

impl Item {
    /// `entry`, its URL less the first `skip` bytes (the base) appended to `text`.
    pub(crate) fn new(text: &mut String, entry: Entry, skip: usize) -> Item {
        let rest = &entry.loc[skip.min(entry.loc.len())..];
        let start = text.len();
        text.push_str(rest);
        let (second, nanosecond) = entry
            .lastmod
            .map_or((0, NO_LASTMOD), |t| (t.as_second(), t.subsec_nanosecond()));
        Item {
            start,
            len: u32::try_from(rest.len()).expect("a URL is far shorter than 4 GiB"),
            nanosecond,
            second,
            priority: entry.priority.map_or(NO_PRIORITY, Priority::to_bits),
            changefreq: entry.changefreq,
            extras: entry.extras,
        }
    }

    /// Its URL after the base, in the `text` it was stored in.
    pub(crate) fn rest<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.start + self.len as usize]
    }

    /// Moves its span by `offset`: its text was appended to another at that offset.
    pub(crate) fn shift(&mut self, offset: usize) {
        self.start += offset;
    }

    /// `<lastmod>`, if known.
    pub(crate) fn lastmod(&self) -> Option<Timestamp> {
        if self.nanosecond == NO_LASTMOD {
            return None;
        }
        Timestamp::new(self.second, self.nanosecond).ok()
    }
}

impl Entries {
    /// Entries whose URLs start with `base` and continue with each item's span of `text`.
    pub(crate) fn from_parts(base: &str, text: String, items: Vec<Item>) -> Entries {
        Entries {
            base: base.into(),
            text,
            items,
        }
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// All the entries, to write or split.
    pub fn as_slice(&self) -> EntrySlice<'_> {
        EntrySlice {
            base: &self.base,
            text: &self.text,
            items: &self.items,
        }
    }

    /// Each entry, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = EntryRef<'_>> {
        self.as_slice().iter()
    }
}

impl FromIterator<Entry> for Entries {
    /// Entries of absolute URLs (kept whole, with no base).
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Entries {
        let mut text = String::new();
        let items = entries
            .into_iter()
            .map(|e| Item::new(&mut text, e, 0))
            .collect();
        Entries::from_parts("", text, items)
    }
}

/// A run of [`Entries`], such as one section's.
#[derive(Debug, Clone, Copy)]
pub struct EntrySlice<'a> {
    base: &'a str,
    text: &'a str,
    items: &'a [Item],
}

impl<'a> EntrySlice<'a> {
    /// How many entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each entry, in order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = EntryRef<'a>> {
        self.items.iter().map(move |item| EntryRef {
            base: self.base,
            rest: item.rest(self.text),
            item,
        })
    }

    /// The first `n` entries (all of them if fewer), and the rest.
    pub fn split_at(self, n: usize) -> (EntrySlice<'a>, EntrySlice<'a>) {
        let (first, rest) = self.items.split_at(n.min(self.items.len()));
        let part = |items| EntrySlice { items, ..self };
        (part(first), part(rest))
    }
}

/// One entry of [`Entries`].
#[derive(Debug, Clone, Copy)]
pub struct EntryRef<'a> {
    base: &'a str,
    rest: &'a str,
    item: &'a Item,
}

impl<'a> EntryRef<'a> {
    /// The absolute, percent-encoded URL (not yet XML-escaped).
    pub fn loc(&self) -> Loc<'a> {
        Loc {
            base: self.base,
            rest: self.rest,
        }
    }

    /// `<lastmod>`, if known.
    pub fn lastmod(&self) -> Option<Timestamp> {
        self.item.lastmod()
    }

    /// `<changefreq>`, if set.
    pub fn changefreq(&self) -> Option<Changefreq> {
        self.item.changefreq
    }

    /// `<priority>`, if set.
    pub fn priority(&self) -> Option<Priority> {
        Priority::from_bits(self.item.priority)
    }

    /// Language alternates, written as `<xhtml:link rel="alternate">`.
    pub fn alternates(&self) -> &'a [Alternate] {
        self.item.extras.as_ref().map_or(&[], |e| &e.alternates)
    }

    /// Absolute URLs of the page's images, written as `<image:image>`.
    pub fn images(&self) -> &'a [Box<str>] {
        self.item.extras.as_ref().map_or(&[], |e| &e.images)
    }
}

/// An entry's URL: the base, then the entry's own part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc<'a> {
    base: &'a str,
    rest: &'a str,
}

impl Loc<'_> {
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.base.len() + self.rest.len()
    }

    /// Whether it is empty (never, for an entry of a sitemap).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes it into `out`, replacing what `out` held.
    pub fn write_into(&self, out: &mut String) {
        out.clear();
        out.push_str(self.base);
        out.push_str(self.rest);
    }
}

impl fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.base)?;
        f.write_str(self.rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_give_back_what_went_in() {
        let full = Entry {
            loc: "https://example.org/a/".into(),
            lastmod: Some(Timestamp::new(1_709_634_030, 123_456_789).unwrap()),
            changefreq: Some(Changefreq::Daily),
            priority: Priority::new(0.0),
            extras: Extras::boxed(Vec::new(), vec!["https://example.org/i.png".into()].into()),
        };
        let table = [
            full.clone(),
            Entry {
                loc: "https://example.org/b".into(),
                lastmod: Some(Timestamp::new(-1, -5).unwrap()),
                changefreq: None,
                priority: Priority::new(1.0),
                extras: None,
            },
            Entry {
                loc: "https://example.org/".into(),
                lastmod: None,
                changefreq: None,
                priority: None,
                extras: None,
            },
        ];
        let mut text = String::new();
        let items = table
            .iter()
            .map(|e| Item::new(&mut text, e.clone(), "https://example.org/".len()))
            .collect();
        let entries = Entries::from_parts("https://example.org/", text, items);
        assert_eq!(entries.len(), table.len());
        for (got, want) in entries.iter().zip(&table) {
            assert_eq!(got.loc().to_string(), &*want.loc);
            assert_eq!(got.loc().len(), want.loc.len());
            assert_eq!(got.lastmod(), want.lastmod);
            assert_eq!(got.changefreq(), want.changefreq);
            assert_eq!(got.priority(), want.priority);
            assert_eq!(got.alternates(), want.alternates());
            assert_eq!(got.images(), want.images());
        }
        let (first, rest) = entries.as_slice().split_at(1);
        assert_eq!((first.len(), rest.len()), (1, 2));
        assert_eq!(
            rest.iter().next().unwrap().loc().to_string(),
            "https://example.org/b"
        );
        assert_eq!(entries.as_slice().split_at(9).1.len(), 0);
        assert_eq!(std::mem::size_of::<Item>(), 40);
    }
}
