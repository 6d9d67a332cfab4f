//! The state file's JSON parsed streaming: each page pushed into the [`State`] as it is
//! read, and what the file said of itself (its version, a foreign key) kept, so a
//! parse error is worded without reading the file again.

use std::fmt;

use jiff::Timestamp;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::super::{PageState, State, VERSION};
use crate::page::Fingerprint;

/// The state file's pages pushed into `state` as they are parsed; what the file said of
/// itself kept in `seen`.
pub(super) fn parse<'de, R: serde_json::de::Read<'de>>(
    mut json: serde_json::Deserializer<R>,
    state: &mut State,
    seen: &mut Seen,
) -> serde_json::Result<()> {
    json.deserialize_map(FileVisitor { state, seen })?;
    json.end()
}

/// The keys of a state file.
const FILE_KEYS: &[&str] = &["sitemapgen_state", "pages"];

/// What a state file said of itself as it was parsed: enough to word why it cannot be
/// read without reading it again: a second, looser reading would hold the whole file as
/// a tree, many times its size, on the path a damaged file takes.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// `sitemapgen_state`'s value, when met.
    version: Option<Version>,
    /// The error came while the pages were read.
    in_pages: bool,
    /// The first key no state file has, met before `sitemapgen_state` (shortened).
    foreign: Option<String>,
}

/// What `sitemapgen_state` is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Version {
    /// A whole number.
    Number(u64),
    /// Anything else, as it reads in the message (`"2"`, `-1`, `an array`).
    Other(String),
}

/// The keys of a page's record.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum PageKey {
    Fingerprint,
    Lastmod,
}

/// The state file's object: this version's, with its pages. Another version, or a
/// key no state file has, ends the reading at once (a state file of another version is
/// not read on); a foreign file's keys are skipped, to tell it has no version.
struct FileVisitor<'s> {
    state: &'s mut State,
    seen: &'s mut Seen,
}

impl<'de> Visitor<'de> for FileVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sitemapgen state file")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut key, mut pages) = (String::new(), false);
        while map.next_key_seed(Text(&mut key))?.is_some() {
            match key.as_str() {
                "sitemapgen_state" if self.seen.version.is_some() => {
                    return Err(de::Error::duplicate_field("sitemapgen_state"));
                }
                "sitemapgen_state" => {
                    let version = map.next_value_seed(VersionSeed)?;
                    let ours = version == Version::Number(u64::from(VERSION));
                    self.seen.version = Some(version);
                    if !ours {
                        return Err(de::Error::custom("not a state file of this version"));
                    }
                    if let Some(foreign) = &self.seen.foreign {
                        return Err(de::Error::unknown_field(foreign, FILE_KEYS));
                    }
                }
                "pages" if self.seen.foreign.is_none() => {
                    self.seen.in_pages = true;
                    map.next_value_seed(Pages { state: self.state })?;
                    (self.seen.in_pages, pages) = (false, true);
                }
                _ if self.seen.version.is_none() => {
                    self.seen.foreign.get_or_insert_with(|| shortened(&key));
                    map.next_value::<de::IgnoredAny>()?;
                }
                _ => return Err(de::Error::unknown_field(&shortened(&key), FILE_KEYS)),
            }
        }
        match (&self.seen.version, pages) {
            (Some(_), true) => Ok(()),
            (Some(_), false) => Err(de::Error::missing_field("pages")),
            _ => Err(de::Error::custom("not a state file")),
        }
    }
}

/// The first characters of `text` a message repeats: enough to say what it is.
fn shortened(text: &str) -> String {
    let mut shown: String = text.chars().take(40).collect();
    if shown.len() < text.len() {
        shown.push_str("...");
    }
    shown
}

/// `sitemapgen_state`'s value, whatever it is.
struct VersionSeed;

impl<'de> DeserializeSeed<'de> for VersionSeed {
    type Value = Version;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Version, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for VersionSeed {
    type Value = Version;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a format version")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Version, E> {
        Ok(Version::Number(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Version, E> {
        Ok(Version::Other(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Version, E> {
        Ok(Version::Other(v.to_string()))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Version, E> {
        Ok(Version::Other(v.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Version, E> {
        Ok(Version::Other("null".to_string()))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Version, E> {
        Ok(Version::Other(format!("\"{}\"", shortened(v))))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Version, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Version::Other("an array".to_string()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Version, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Version::Other("an object".to_string()))
    }
}

/// The `pages` object, each page pushed as it is read.
struct Pages<'s> {
    state: &'s mut State,
}

impl<'de> DeserializeSeed<'de> for Pages<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Pages<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of pages by URL")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // Reused from page to page: no allocation per page.
        let (mut url, mut fingerprint) = (String::new(), String::new());
        let mut date = LastDate::default();
        while map.next_key_seed(Text(&mut url))?.is_some() {
            let page = Page {
                fingerprint: &mut fingerprint,
                date: &mut date,
            };
            let recorded = map.next_value_seed(page)?;
            let Some(fingerprint) = Fingerprint::from_hex(&fingerprint) else {
                let problem = format!("the fingerprint of {url} is not 32 lower-case hex digits");
                return Err(de::Error::custom(problem));
            };
            let lastmod = match recorded {
                Recorded::At(ts) => Some(ts),
                Recorded::Null => None,
                // As no record: the page is dated as a new one.
                Recorded::OutOfRange => {
                    self.state.refuse_date(&date.text);
                    continue;
                }
            };
            let page = PageState {
                fingerprint,
                lastmod,
            };
            self.state.push(&url, page);
        }
        Ok(())
    }
}

/// A string read into a buffer of ours.
struct Text<'b>(&'b mut String);

impl<'de> DeserializeSeed<'de> for Text<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Text<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        self.0.clear();
        self.0.push_str(s);
        Ok(())
    }
}

/// A page's record: its fingerprint into the buffer, its `lastmod` returned (the text
/// of a date kept in `date`).
struct Page<'b> {
    fingerprint: &'b mut String,
    date: &'b mut LastDate,
}

/// The last `lastmod` read, as written and parsed: pages mostly share their dates with
/// their neighbours, so a date is parsed once for a run of them (a parse per page was a
/// sixth of reading a state).
#[derive(Default)]
struct LastDate {
    text: String,
    parsed: Option<Recorded>,
}

/// A page's `lastmod` as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recorded {
    At(Timestamp),
    /// None recorded (`null`, or no key).
    Null,
    /// A date outside the years a sitemap can hold ([`crate::lastmod::in_sitemap_years`]).
    OutOfRange,
}

/// A page's `lastmod`: a date, or null.
struct Lastmod<'b>(&'b mut LastDate);

impl<'de> DeserializeSeed<'de> for Lastmod<'_> {
    type Value = Recorded;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for Lastmod<'_> {
    type Value = Recorded;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a date and time, or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Recorded::Null)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Recorded::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        let last = self.0;
        if last.parsed.is_none() || last.text != s {
            // As jiff's own `Deserialize` parses it.
            let ts = s.parse::<Timestamp>().map_err(E::custom)?;
            last.parsed = Some(match crate::lastmod::in_sitemap_years(ts) {
                true => Recorded::At(ts),
                false => Recorded::OutOfRange,
            });
            last.text.clear();
            last.text.push_str(s);
        }
        Ok(last.parsed.unwrap_or(Recorded::Null))
    }
}

impl<'de> DeserializeSeed<'de> for Page<'_> {
    type Value = Recorded;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Page<'_> {
    type Value = Recorded;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a page's fingerprint and lastmod")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut fingerprint, mut lastmod) = (false, None);
        while let Some(key) = map.next_key()? {
            match key {
                PageKey::Fingerprint if fingerprint => {
                    return Err(de::Error::duplicate_field("fingerprint"));
                }
                PageKey::Fingerprint => {
                    map.next_value_seed(Text(&mut *self.fingerprint))?;
                    fingerprint = true;
                }
                PageKey::Lastmod if lastmod.is_some() => {
                    return Err(de::Error::duplicate_field("lastmod"));
                }
                PageKey::Lastmod => lastmod = Some(map.next_value_seed(Lastmod(&mut *self.date))?),
            }
        }
        if !fingerprint {
            return Err(de::Error::missing_field("fingerprint"));
        }
        Ok(lastmod.unwrap_or(Recorded::Null))
    }
}

/// Why a state file is not one this version reads (another format version, not a
/// state file, not JSON, or damaged), from the parse's `error` (which says where) and
/// what the file said of itself.
pub(super) fn what_is_wrong(error: &serde_json::Error, seen: &Seen) -> String {
    let ours = u64::from(VERSION);
    match &seen.version {
        Some(Version::Number(1)) => format!(
            "has format version 1 (blake3 fingerprints, from before the first release), \
             this sitemapgen reads {VERSION}"
        ),
        Some(Version::Number(v)) if *v != ours => {
            format!("has format version {v}, this sitemapgen reads {VERSION}")
        }
        Some(Version::Other(what)) => format!(
            "has sitemapgen_state {what}, not a number (this sitemapgen reads format version {VERSION})"
        ),
        _ if error.is_syntax() || error.is_eof() => format!("is not valid JSON ({error})"),
        None if !seen.in_pages => {
            "is not a sitemapgen state file (no \"sitemapgen_state\" key)".to_string()
        }
        _ => format!("is damaged ({error})"),
    }
}
