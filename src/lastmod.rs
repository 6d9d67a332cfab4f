//! Dating each page: the `lastmod` sources, tried in order, and how dates are written.

pub mod content;
pub mod git;
pub mod source;
pub mod state;
mod w3c;

use std::time::SystemTime;

use jiff::Timestamp;
use serde::Deserialize;

pub use w3c::w3c_datetime;

/// Where a page's `lastmod` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LastmodSource {
    /// The page's source file: its explicit "updated" key, else its last commit (see
    /// [`source`]).
    Source,
    /// A modified date in the page's `<head>` (see [`crate::page`]).
    Meta,
    /// The committer date of the last commit that touched the file (see [`git`]).
    Git,
    /// The date recorded for the page's content, kept until the content changes (see
    /// [`content`] and [`state`]).
    Content,
    /// The file's modification time.
    Mtime,
    /// No `lastmod` at all.
    None,
}

impl LastmodSource {
    /// Every source with its name in `sitemap.toml`.
    pub const NAMES: [(&'static str, LastmodSource); 6] = [
        ("source", LastmodSource::Source),
        ("meta", LastmodSource::Meta),
        ("git", LastmodSource::Git),
        ("content", LastmodSource::Content),
        ("mtime", LastmodSource::Mtime),
        ("none", LastmodSource::None),
    ];

    /// Its name in `sitemap.toml`.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }

    /// The source named `name`, if any.
    pub fn parse(name: &str) -> Option<LastmodSource> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, source)| *source)
    }
}

/// How many listed pages each source dated, and how many none did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DatedCounts {
    /// By source, in the order of [`LastmodSource::NAMES`].
    pub by: [usize; 6],
    /// Pages no source dated.
    pub undated: usize,
}

impl DatedCounts {
    /// Counts one page, dated by `from` (or by none).
    pub fn add(&mut self, from: Option<LastmodSource>) {
        match from.and_then(|f| LastmodSource::NAMES.iter().position(|(_, s)| *s == f)) {
            Some(i) => self.by[i] += 1,
            None => self.undated += 1,
        }
    }

    /// Adds another count in.
    pub fn merge(&mut self, other: DatedCounts) {
        for (a, b) in self.by.iter_mut().zip(other.by) {
            *a += b;
        }
        self.undated += other.undated;
    }

    /// The pages `source` dated.
    pub fn of(&self, source: LastmodSource) -> usize {
        LastmodSource::NAMES
            .iter()
            .position(|(_, s)| *s == source)
            .map_or(0, |i| self.by[i])
    }

    /// Each source that dated pages, with how many, then the undated:
    /// `["171 from source", "3 from meta", "2 without"]`.
    pub fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = LastmodSource::NAMES
            .iter()
            .zip(self.by)
            .filter(|(_, n)| *n > 0)
            .map(|((name, _), n)| format!("{} from {name}", crate::text::thousands(n)))
            .collect();
        if self.undated > 0 {
            out.push(format!("{} without", crate::text::thousands(self.undated)));
        }
        out
    }
}

/// How a `lastmod` is written: both are W3C Datetime forms the protocol accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LastmodFormat {
    /// `2024-03-05T10:20:30+00:00`: UTC, to the second.
    #[default]
    Datetime,
    /// `2024-03-05`: the UTC date.
    Date,
}

/// What is known about a page that a source may date it by.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageFacts<'a> {
    /// The file's modification time, when the walk read it.
    pub modified: Option<SystemTime>,
    /// The modified date its head declares, as written.
    pub meta: Option<&'a str>,
    /// Its last commit's date, when committed and unmodified.
    pub git: Option<Timestamp>,
    /// Its source's date (see [`source`]).
    pub source: Option<Timestamp>,
    /// Its content fingerprint now, and what the previous run recorded.
    pub content: Option<(content::Fingerprint, Option<state::PageState>)>,
    /// When this run started: the date of new or changed content that no later source
    /// dates.
    pub now: Option<Timestamp>,
}

/// A page's date, and a problem met on the way to it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolved {
    /// The first date the sources yield.
    pub lastmod: Option<Timestamp>,
    /// A declared date that could not be parsed (and was passed over).
    pub unparseable: Option<String>,
    /// The source that gave the date; `None` with no date. Changed content dated by the
    /// run's start counts as [`LastmodSource::Content`].
    pub from: Option<LastmodSource>,
}

/// The first date the sources yield, in their order; none when none does (or the list
/// says `"none"` first). An unparseable `meta` date falls through to the next source, and
/// so does new or changed content; if nothing after it yields a date, changed content is
/// dated by the run's start.
pub fn resolve(sources: &[LastmodSource], facts: &PageFacts) -> Resolved {
    let mut resolved = Resolved::default();
    let mut content_changed = false;
    for source in sources {
        let found = match source {
            LastmodSource::None => break,
            LastmodSource::Meta => facts.meta.and_then(|text| {
                let ts = parse_date(text);
                if ts.is_none() {
                    resolved.unparseable = Some(text.to_string());
                }
                ts
            }),
            LastmodSource::Mtime => facts.modified.and_then(to_timestamp),
            LastmodSource::Git => facts.git,
            LastmodSource::Source => facts.source,
            LastmodSource::Content => match facts.content {
                // Unchanged but never dated (state kept for the change list only): the
                // next source dates it.
                Some((now, Some(before))) if before.fingerprint == now => before.lastmod,
                Some(_) => {
                    content_changed = true;
                    None
                }
                None => None,
            },
        };
        if found.is_some() {
            resolved.lastmod = found;
            resolved.from = Some(*source);
            return resolved;
        }
    }
    if content_changed {
        resolved.lastmod = facts.now;
        resolved.from = Some(LastmodSource::Content);
    }
    resolved
}

/// A `lastmod` as its second and nanosecond, for the lists that keep one per page
/// (sitemap entries, the state) as two fields: an `Option<Timestamp>` takes 24 bytes.
/// No time is a nanosecond of `i32::MIN` (a real one is within ±999,999,999).
pub(crate) fn split_time(time: Option<Timestamp>) -> (i64, i32) {
    time.map_or((0, i32::MIN), |t| (t.as_second(), t.subsec_nanosecond()))
}

/// The `lastmod` [`split_time`] split.
pub(crate) fn join_time(second: i64, nanosecond: i32) -> Option<Timestamp> {
    match nanosecond {
        i32::MIN => None,
        nanosecond => Timestamp::new(second, nanosecond).ok(),
    }
}

/// Whether `source` is consulted: listed before any `"none"`.
pub fn uses(sources: &[LastmodSource], source: LastmodSource) -> bool {
    sources
        .iter()
        .take_while(|s| **s != LastmodSource::None)
        .any(|s| *s == source)
}

/// Parses a date as pages declare them, to whole seconds in UTC: RFC 3339 / ISO 8601
/// with an offset (`2024-03-05T10:20:30+02:00`, `...Z`), a date and time without one
/// (taken as UTC), a plain date (midnight UTC), or RFC 2822 (`Tue, 05 Mar 2024 10:20:30
/// GMT`, as in `last-modified`). A date outside the years 0001-9999 in UTC is none:
/// the protocol's W3C Datetime has four-digit years and the schema has no year 0.
pub fn parse_date(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    let ts = if let Ok(ts) = text.parse::<Timestamp>() {
        ts
    } else if let Ok(dt) = text.parse::<jiff::civil::DateTime>() {
        dt.to_zoned(jiff::tz::TimeZone::UTC).ok()?.timestamp()
    } else if let Ok(zoned) = jiff::fmt::rfc2822::parse(text) {
        zoned.timestamp()
    } else {
        return None;
    };
    whole_seconds_in_range(ts)
}

/// `ts` to whole seconds, when its UTC year is one a sitemap can hold (0001-9999).
fn whole_seconds_in_range(ts: Timestamp) -> Option<Timestamp> {
    let year = ts.to_zoned(jiff::tz::TimeZone::UTC).year();
    if !(1..=9999).contains(&year) {
        return None;
    }
    Timestamp::from_second(ts.as_second()).ok()
}

/// Whole seconds: the written forms have no fraction, and truncating here keeps the
/// newest-child comparison in a sitemap index consistent with what is written.
fn to_timestamp(time: SystemTime) -> Option<Timestamp> {
    whole_seconds_in_range(Timestamp::try_from(time).ok()?)
}

/// Writes a timestamp in the configured W3C Datetime form, in UTC.
pub fn format(ts: Timestamp, format: LastmodFormat) -> String {
    match format {
        LastmodFormat::Datetime => ts.strftime("%Y-%m-%dT%H:%M:%S+00:00").to_string(),
        LastmodFormat::Date => ts.strftime("%Y-%m-%d").to_string(),
    }
}

/// [`format`] of one date after another, the text of the last kept: neighbouring
/// entries mostly share a date (a build's mtimes, the dates a state kept), and each was
/// formatted afresh, with an allocation.
#[derive(Debug, Default)]
pub struct Formatted {
    last: Option<(Timestamp, LastmodFormat)>,
    text: String,
}

impl Formatted {
    /// The text of `ts` in `format`.
    pub fn get(&mut self, ts: Timestamp, format: LastmodFormat) -> &str {
        if self.last != Some((ts, format)) {
            self.text = self::format(ts, format);
            self.last = Some((ts, format));
        }
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    /// The kept text is always the text of the date asked for, whatever came before.
    #[test]
    fn formatted_dates_are_each_dates_text() {
        let mut formatted = Formatted::default();
        let dates = [
            0,
            0,
            86_399,
            86_400,
            86_400,
            0,
            1_700_000_000,
            1_700_000_000,
        ];
        for format in [
            LastmodFormat::Datetime,
            LastmodFormat::Date,
            LastmodFormat::Datetime,
        ] {
            for second in dates {
                let ts = Timestamp::from_second(second).unwrap();
                assert_eq!(formatted.get(ts, format), self::format(ts, format));
            }
        }
    }

    #[test]
    fn formats_in_utc() {
        let ts: Timestamp = "2024-03-05T10:20:30.999+02:00".parse().unwrap();
        let ts = Timestamp::from_second(ts.as_second()).unwrap();
        assert_eq!(
            format(ts, LastmodFormat::Datetime),
            "2024-03-05T08:20:30+00:00"
        );
        assert_eq!(format(ts, LastmodFormat::Date), "2024-03-05");
    }

    #[test]
    fn parses_dates_as_pages_write_them() {
        let table = [
            (
                "2024-03-05T10:20:30+02:00",
                Some("2024-03-05T08:20:30+00:00"),
            ),
            ("2024-03-05T10:20:30Z", Some("2024-03-05T10:20:30+00:00")),
            (
                "2024-03-05T10:20:30.999-05:00",
                Some("2024-03-05T15:20:30+00:00"),
            ),
            (
                "2024-03-05 10:20:30+00:00",
                Some("2024-03-05T10:20:30+00:00"),
            ),
            ("2024-03-05T10:20:30", Some("2024-03-05T10:20:30+00:00")),
            ("2024-03-05T10:20", Some("2024-03-05T10:20:00+00:00")),
            ("2024-03-05", Some("2024-03-05T00:00:00+00:00")),
            ("  2024-03-05  ", Some("2024-03-05T00:00:00+00:00")),
            (
                "Tue, 05 Mar 2024 10:20:30 GMT",
                Some("2024-03-05T10:20:30+00:00"),
            ),
            (
                "Tue, 05 Mar 2024 10:20:30 +0100",
                Some("2024-03-05T09:20:30+00:00"),
            ),
            ("2024-13-45", None),
            ("0000-01-01", None),
            ("0001-01-01T00:30:00+01:00", None),
            ("-0001-01-01T00:00:00Z", None),
            ("0001-01-01", Some("0001-01-01T00:00:00+00:00")),
            ("9999-12-30T12:00:00Z", Some("9999-12-30T12:00:00+00:00")),
            ("yesterday", None),
            ("", None),
        ];
        for (text, want) in table {
            let got = parse_date(text).map(|ts| format(ts, LastmodFormat::Datetime));
            assert_eq!(got.as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn sources_are_tried_in_order() {
        let facts = PageFacts {
            modified: Some(UNIX_EPOCH + Duration::from_millis(1_709_634_030_500)),
            ..PageFacts::default()
        };
        let ts = resolve(&[LastmodSource::Mtime], &facts).lastmod.unwrap();
        assert_eq!(
            format(ts, LastmodFormat::Datetime),
            "2024-03-05T10:20:30+00:00"
        );
        assert_eq!(resolve(&[LastmodSource::None], &facts).lastmod, None);
        assert_eq!(
            resolve(&[LastmodSource::Mtime], &PageFacts::default()).lastmod,
            None
        );
        assert!(uses(&[LastmodSource::Mtime], LastmodSource::Mtime));
        assert!(!uses(
            &[LastmodSource::None, LastmodSource::Mtime],
            LastmodSource::Mtime
        ));

        let both = [LastmodSource::Meta, LastmodSource::Mtime];
        let meta = PageFacts {
            meta: Some("2020-01-02"),
            ..facts
        };
        let got = resolve(&both, &meta).lastmod.unwrap();
        assert_eq!(format(got, LastmodFormat::Date), "2020-01-02");
        let bad = PageFacts {
            meta: Some("last Tuesday"),
            ..facts
        };
        let got = resolve(&both, &bad);
        assert_eq!(got.lastmod, Some(ts));
        assert_eq!(got.unparseable.as_deref(), Some("last Tuesday"));
        assert!(
            uses(&both, LastmodSource::Meta) && !uses(&[LastmodSource::Mtime], LastmodSource::Meta)
        );
    }

    #[test]
    fn content_keeps_its_date_until_it_changes() {
        use LastmodSource::{Content, Git, Mtime};
        let old = Timestamp::from_second(1_600_000_000).unwrap();
        let mtime = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let before = state::PageState {
            fingerprint: content::made_up("aaa"),
            lastmod: Some(old),
        };
        let facts = |fp: &str, prev: Option<state::PageState>| PageFacts {
            modified: Some(mtime),
            content: Some((content::made_up(fp), prev)),
            now: Some(now),
            ..PageFacts::default()
        };
        let secs = |sources: &[LastmodSource], f: PageFacts| {
            resolve(sources, &f).lastmod.map(|t| t.as_second())
        };
        assert_eq!(
            secs(&[Content, Mtime], facts("aaa", Some(before))),
            Some(1_600_000_000)
        );
        assert_eq!(
            secs(&[Content, Mtime], facts("bbb", Some(before))),
            Some(1_700_000_000)
        );
        assert_eq!(
            secs(&[Content, Mtime], facts("bbb", None)),
            Some(1_700_000_000)
        );
        assert_eq!(
            secs(&[Content], facts("bbb", Some(before))),
            Some(1_800_000_000)
        );
        assert_eq!(
            secs(&[Content, LastmodSource::None], facts("bbb", None)),
            Some(1_800_000_000)
        );
        let git = PageFacts {
            git: Some(old),
            ..facts("x", None)
        };
        assert_eq!(secs(&[Git, Mtime], git), Some(1_600_000_000));
        assert_eq!(secs(&[Git, Mtime], facts("x", None)), Some(1_700_000_000));
    }
}
