//! A sitemap's entries in compact form, for sites of a million pages: every URL in one
//! string after a base URL kept once, language alternates and images in the same string
//! after their page's URL, and the fields packed without `Option`'s tag bytes. An
//! [`Entry`] of its own per page costs 64 bytes and a heap block for its URL (and five
//! more, 350 bytes, for a pair of alternates); an entry here costs 32 bytes and the
//! URLs' bytes.

use std::fmt;

use jiff::Timestamp;

use super::Entry;
use crate::rules::{Changefreq, Priority};

/// The entries of a sitemap, in the order they are written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    /// What every URL starts with.
    base: Box<str>,
    /// Each URL after the base, then its page's extras (see [`Item::new`]), one page
    /// after the other.
    text: String,
    items: Vec<Item>,
}

/// The bits of [`Item::span`] that give the start: text up to 1 TiB. The 24 left give
/// the URL's length: up to 16 MiB, where the protocol allows 2,048 bytes, and the
/// build lists no URL over that.
const START_BITS: u32 = 40;

/// `priority` of an entry without `<priority>`: the bits of a NaN, never a priority.
const NO_PRIORITY: u32 = u32::MAX;

/// One entry, its URL a span of the text it was stored in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    /// Where its URL starts in the text (the low [`START_BITS`] bits) and its length
    /// (the rest): 8 bytes, not 16, of every entry.
    span: u64,
    nanosecond: i32,
    second: i64,
    priority: u32,
    changefreq: Option<Changefreq>,
    /// The length of the alternates and images after the URL.
    extras: u32,
}

/// Marks an alternate in the extras: `a{len}:{hreflang}{len}:{href}`.
const ALTERNATE: char = 'a';
/// Marks an image in the extras: `i{len}:{url}`.
const IMAGE: char = 'i';

/// Appends `value` as `{len}:{value}`: lengths, not separators, so any value reads back.
fn push_counted(text: &mut String, value: &str) {
    use std::fmt::Write;
    let _ = write!(text, "{}:{value}", value.len());
}

/// Reads a `{len}:{value}` from the start of `extras`, moving past it.
fn take_counted<'a>(extras: &mut &'a str) -> &'a str {
    let (len, rest) = extras.split_once(':').unwrap_or(("0", ""));
    let len = len.parse::<usize>().unwrap_or(0).min(rest.len());
    let (value, rest) = rest.split_at(len);
    *extras = rest;
    value
}

/// What an entry is packed from: its fields, by reference, so a page is packed where
/// its worker found them, with no [`Entry`] of its own on the way.
pub(crate) struct Fields<'e> {
    /// Its URL after the base.
    pub rest: &'e str,
    pub lastmod: Option<Timestamp>,
    pub changefreq: Option<Changefreq>,
    pub priority: Option<Priority>,
    pub alternates: &'e [super::Alternate],
    pub images: &'e [Box<str>],
}

impl Item {
    /// `entry`, its URL less the first `skip` bytes (the base) appended to `text`, then
    /// its alternates and images.
    pub(crate) fn new(text: &mut String, entry: Entry, skip: usize) -> Item {
        Item::pack(
            text,
            Fields {
                rest: &entry.loc[skip.min(entry.loc.len())..],
                lastmod: entry.lastmod,
                changefreq: entry.changefreq,
                priority: entry.priority,
                alternates: entry.alternates(),
                images: entry.images(),
            },
        )
    }

    /// An entry of `fields`, its URL then its alternates and images appended to `text`.
    pub(crate) fn pack(text: &mut String, fields: Fields) -> Item {
        let rest = fields.rest;
        let start = text.len();
        text.push_str(rest);
        for alternate in fields.alternates {
            text.push(ALTERNATE);
            push_counted(text, &alternate.hreflang);
            push_counted(text, &alternate.href);
        }
        for image in fields.images {
            text.push(IMAGE);
            push_counted(text, image);
        }
        let extras = text.len() - start - rest.len();
        let (second, nanosecond) = crate::lastmod::split_time(fields.lastmod);
        assert!(
            start < 1 << START_BITS && rest.len() < 1 << (64 - START_BITS),
            "URLs over 16 MiB, or more than 1 TiB of them"
        );
        Item {
            span: start as u64 | (rest.len() as u64) << START_BITS,
            nanosecond,
            second,
            priority: fields.priority.map_or(NO_PRIORITY, Priority::to_bits),
            changefreq: fields.changefreq,
            extras: u32::try_from(extras).expect("a head's extras are far shorter than 4 GiB"),
        }
    }

    /// Where its URL starts in the text it was stored in.
    fn start(&self) -> usize {
        (self.span & ((1 << START_BITS) - 1)) as usize
    }

    /// Its URL after the base, in the `text` it was stored in.
    pub(crate) fn rest<'t>(&self, text: &'t str) -> &'t str {
        let start = self.start();
        &text[start..start + (self.span >> START_BITS) as usize]
    }

    /// Its alternates and images, in the `text` it was stored in.
    fn extras<'t>(&self, text: &'t str) -> &'t str {
        let start = self.start() + (self.span >> START_BITS) as usize;
        &text[start..start + self.extras as usize]
    }

    /// Moves its span by `offset`: its text was appended to another at that offset.
    pub(crate) fn shift(&mut self, offset: usize) {
        let start = self.start() + offset;
        assert!(start < 1 << START_BITS, "more than 1 TiB of URLs");
        self.span += offset as u64;
    }

    /// `<lastmod>`, if known.
    pub(crate) fn lastmod(&self) -> Option<Timestamp> {
        crate::lastmod::join_time(self.second, self.nanosecond)
    }

    /// Gives it another `<lastmod>` (one the previous state settled after the walk).
    pub(crate) fn set_lastmod(&mut self, lastmod: Option<Timestamp>) {
        (self.second, self.nanosecond) = crate::lastmod::split_time(lastmod);
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
    ///
    /// # Panics
    /// On a URL over 16 MiB, or more than 1 TiB of URLs.
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Entries {
        let mut text = String::new();
        let items = entries
            .into_iter()
            .map(|e| Item::new(&mut text, e, 0))
            .collect();
        Entries::from_parts("", text, items)
    }
}

impl Entries {
    /// Entries of absolute URLs that all start with `base`, kept after it.
    ///
    /// # Panics
    /// On a URL that does not start with `base`, over 16 MiB, or more than 1 TiB of URLs.
    pub fn with_base(base: &str, entries: impl IntoIterator<Item = Entry>) -> Entries {
        let mut text = String::new();
        let items = (entries.into_iter())
            .map(|e| {
                assert!(e.loc.starts_with(base), "a URL under the base");
                Item::new(&mut text, e, base.len())
            })
            .collect();
        Entries::from_parts(base, text, items)
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
            extras: item.extras(self.text),
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
    extras: &'a str,
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

    /// Language alternates `(hreflang, href)`, written as `<xhtml:link rel="alternate">`.
    pub fn alternates(&self) -> impl Iterator<Item = (&'a str, &'a str)> + use<'a> {
        let mut rest = self.extras;
        std::iter::from_fn(move || {
            let after = rest.strip_prefix(ALTERNATE)?;
            rest = after;
            let hreflang = take_counted(&mut rest);
            Some((hreflang, take_counted(&mut rest)))
        })
    }

    /// Absolute URLs of the page's images, written as `<image:image>`.
    pub fn images(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        // After the alternates, skipped by their lengths.
        let mut rest = self.extras;
        while let Some(after) = rest.strip_prefix(ALTERNATE) {
            rest = after;
            take_counted(&mut rest);
            take_counted(&mut rest);
        }
        std::iter::from_fn(move || {
            rest = rest.strip_prefix(IMAGE)?;
            Some(take_counted(&mut rest))
        })
    }
}

/// An entry's URL: the base, then the entry's own part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc<'a> {
    base: &'a str,
    rest: &'a str,
}

impl<'a> Loc<'a> {
    /// The base URL it starts with.
    pub fn base(&self) -> &'a str {
        self.base
    }

    /// Its part after the base URL.
    pub fn rest(&self) -> &'a str {
        self.rest
    }

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
    use crate::sitemap::{Alternate, Extras};

    #[test]
    fn entries_give_back_what_went_in() {
        let full = Entry {
            loc: "https://example.org/a/".into(),
            lastmod: Some(Timestamp::new(1_709_634_030, 123_456_789).unwrap()),
            changefreq: Some(Changefreq::Daily),
            priority: Priority::new(0.0),
            extras: Extras::boxed(
                vec![
                    Alternate {
                        hreflang: "de".into(),
                        href: "https://example.org/de/a:1i2/".into(),
                    },
                    Alternate {
                        hreflang: "x-default".into(),
                        href: String::new(),
                    },
                ],
                vec!["https://example.org/i.png".into(), "i:9".into()].into(),
            ),
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
            let alternates: Vec<(&str, &str)> = got.alternates().collect();
            let want_alternates: Vec<(&str, &str)> = want
                .alternates()
                .iter()
                .map(|a| (a.hreflang.as_str(), a.href.as_str()))
                .collect();
            assert_eq!(alternates, want_alternates);
            assert!(got.images().eq(want.images().iter().map(|i| &**i)));
        }
        let (first, rest) = entries.as_slice().split_at(1);
        assert_eq!((first.len(), rest.len()), (1, 2));
        assert_eq!(
            rest.iter().next().unwrap().loc().to_string(),
            "https://example.org/b"
        );
        assert_eq!(entries.as_slice().split_at(9).1.len(), 0);
        assert_eq!(std::mem::size_of::<Item>(), 32);
    }
}
