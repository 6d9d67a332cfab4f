//! Dating each page: the `lastmod` sources, tried in order, and how dates are written.

pub mod documents;
pub mod git;
pub mod source;
pub mod state;

use std::time::SystemTime;

use jiff::Timestamp;
use serde::Deserialize;

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
    /// [`crate::page::Fingerprint`] and [`state`]).
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
    /// Of the pages `"source"` dated, those found by their text (no route reached them).
    pub by_text: usize,
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
        self.by_text += other.by_text;
    }

    /// Counts a page again: dated by `to`, no longer by `from`.
    pub fn moved(&mut self, from: Option<LastmodSource>, to: Option<LastmodSource>) {
        match from.and_then(|f| LastmodSource::NAMES.iter().position(|(_, s)| *s == f)) {
            Some(i) => self.by[i] = self.by[i].saturating_sub(1),
            None => self.undated = self.undated.saturating_sub(1),
        }
        self.add(to);
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
            .map(|((name, source), n)| {
                let n = crate::text::thousands(n);
                match (*source, self.by_text) {
                    (LastmodSource::Source, t) if t > 0 => {
                        format!(
                            "{n} from {name} ({} by their text)",
                            crate::text::thousands(t)
                        )
                    }
                    _ => format!("{n} from {name}"),
                }
            })
            .collect();
        if self.undated > 0 {
            out.push(format!("{} without", crate::text::thousands(self.undated)));
        }
        out
    }
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
    /// Its content fingerprint now (none: the page could not be read through).
    pub content: Option<crate::page::Fingerprint>,
    /// What the previous run recorded of it, when it recorded it.
    pub previous: Option<state::PageState>,
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
/// dated by the run's start. [`resolve_before_state`], then [`Pending::settle`].
pub fn resolve(sources: &[LastmodSource], facts: &PageFacts) -> Resolved {
    let deferred = match resolve_before_state(sources, facts) {
        Resolution::Done(resolved) => return resolved,
        Resolution::Pending(deferred) => deferred,
    };
    let Some(fingerprint) = facts.content else {
        unreachable!("only a fingerprinted page waits for the state");
    };
    let settled = deferred.pending.settle(
        deferred.after.lastmod,
        fingerprint,
        facts.previous,
        facts.now,
    );
    let unparseable = match settled.after_used {
        true => deferred.after.unparseable.or(deferred.unparseable),
        false => deferred.unparseable,
    };
    Resolved {
        lastmod: settled.lastmod,
        unparseable,
        from: settled.from,
    }
}

/// What the sources make of a page without the previous run's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Dated, or not, whatever the state says: no source before `"content"` (or
    /// `"none"`) lets it decide.
    Done(Resolved),
    /// The state decides ([`Pending::settle`]).
    Pending(Deferred),
}

impl Resolution {
    /// The page's date for now, with what waits for the state: its [`Pending`] note, and
    /// an unparseable date among the sources after `"content"`, reported only if they
    /// are consulted (a meta date met before and after `"content"` is one text, reported
    /// once, now).
    pub fn for_now(self) -> (Resolved, Option<Pending>, Option<String>) {
        match self {
            Resolution::Done(resolved) => (resolved, None, None),
            Resolution::Pending(deferred) => {
                let after = deferred.after;
                let resolved = Resolved {
                    lastmod: after.lastmod,
                    from: after.from,
                    unparseable: deferred.unparseable,
                };
                let later = after.unparseable.filter(|_| resolved.unparseable.is_none());
                (resolved, Some(deferred.pending), later)
            }
        }
    }
}

/// A fingerprinted page the sources before `"content"` did not date: whether its content
/// is unchanged, which only the previous state tells, decides between the date that
/// state recorded, what the sources after `"content"` give, and the run's start. Kept
/// apart, the state can be read while the pages are (the walk needs none of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deferred {
    /// What the sources after `"content"` give (any further `"content"` gives nothing),
    /// with their own unparseable date.
    pub after: Resolved,
    /// An unparseable date met before `"content"`: reported whatever the state says.
    pub unparseable: Option<String>,
    /// What is kept of [`Self::after`] beside the page's entry, which holds its date.
    pub pending: Pending,
}

/// A page waiting for the previous state, in one byte: the source after `"content"`
/// that dated it, if any (its date waits in the page's entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    after: Option<LastmodSource>,
}

/// A [`Pending`] page's date, the state at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    /// Its `lastmod`.
    pub lastmod: Option<Timestamp>,
    /// The source that gave it (changed content dated by the run's start counts as
    /// `"content"`).
    pub from: Option<LastmodSource>,
    /// Whether the sources after `"content"` were consulted: an unparseable date among
    /// them is reported only then.
    pub after_used: bool,
}

impl Pending {
    /// The date of a page whose content was not fingerprinted after all: what the
    /// sources after `"content"` gave (`after`), as for a page `"content"` cannot read.
    pub fn unread(self, after: Option<Timestamp>) -> Settled {
        Settled {
            lastmod: after,
            from: self.after,
            after_used: true,
        }
    }

    /// The date of a page whose sources after `"content"` gave `after` (and this
    /// source), its content `now`, the previous run's record `before`, the run's start
    /// `run_start`. Unchanged content keeps its recorded date; unchanged content never
    /// dated (state kept for the change list only) and changed content take `after`,
    /// and changed content without one the run's start.
    pub fn settle(
        self,
        after: Option<Timestamp>,
        now: crate::page::Fingerprint,
        before: Option<state::PageState>,
        run_start: Option<Timestamp>,
    ) -> Settled {
        let unchanged = before.filter(|b| b.fingerprint == now);
        if let Some(lastmod @ Some(_)) = unchanged.map(|b| b.lastmod) {
            return Settled {
                lastmod,
                from: Some(LastmodSource::Content),
                after_used: false,
            };
        }
        match (after, unchanged) {
            (None, None) => Settled {
                lastmod: run_start,
                from: Some(LastmodSource::Content),
                after_used: true,
            },
            _ => Settled {
                lastmod: after,
                from: self.after,
                after_used: true,
            },
        }
    }
}

/// Whether `source` comes before `dated_by` in `sources` (any source outranks none).
pub fn outranks(
    sources: &[LastmodSource],
    source: LastmodSource,
    dated_by: Option<LastmodSource>,
) -> bool {
    let at = |s: LastmodSource| sources.iter().position(|x| *x == s);
    match (at(source), dated_by.and_then(at)) {
        (Some(a), Some(b)) => a < b,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// The sources tried in order as far as they go without the previous state: up to the
/// first `"content"`, for a page with a fingerprint (`facts.previous` is not read).
pub fn resolve_before_state(sources: &[LastmodSource], facts: &PageFacts) -> Resolution {
    let mut resolved = Resolved::default();
    for (i, source) in sources.iter().enumerate() {
        let found = match source {
            LastmodSource::None => break,
            LastmodSource::Content if facts.content.is_none() => None,
            LastmodSource::Content => {
                // Whatever the state says, a further "content" gives nothing more.
                let unfingerprinted = PageFacts {
                    content: None,
                    ..*facts
                };
                let Resolution::Done(after) =
                    resolve_before_state(&sources[i + 1..], &unfingerprinted)
                else {
                    unreachable!("no page without a fingerprint waits for the state");
                };
                let pending = Pending { after: after.from };
                let unparseable = resolved.unparseable;
                return Resolution::Pending(Deferred {
                    after,
                    unparseable,
                    pending,
                });
            }
            other => date_of(*other, facts, &mut resolved.unparseable),
        };
        if found.is_some() {
            resolved.lastmod = found;
            resolved.from = Some(*source);
            break;
        }
    }
    Resolution::Done(resolved)
}

/// The date `source` (one that needs no state: not `"content"` or `"none"`) gives the
/// page; an unparseable meta date is kept in `unparseable`.
fn date_of(
    source: LastmodSource,
    facts: &PageFacts,
    unparseable: &mut Option<String>,
) -> Option<Timestamp> {
    match source {
        LastmodSource::Meta => facts.meta.and_then(|text| {
            let ts = parse_date(text);
            if ts.is_none() {
                *unparseable = Some(text.to_string());
            }
            ts
        }),
        LastmodSource::Mtime => facts.modified.and_then(to_timestamp),
        LastmodSource::Git => facts.git,
        LastmodSource::Source => facts.source,
        LastmodSource::Content | LastmodSource::None => None,
    }
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
    if !in_sitemap_years(ts) {
        return None;
    }
    Timestamp::from_second(ts.as_second()).ok()
}

/// Whether `ts` is in a year a sitemap can hold, 0001-9999 in UTC: the protocol's W3C
/// Datetime has four-digit years and the schema has no year 0. The one definition: the
/// dates pages declare, files' mtimes and the state file's all go through it.
pub(crate) fn in_sitemap_years(ts: Timestamp) -> bool {
    let year = ts.to_zoned(jiff::tz::TimeZone::UTC).year();
    (1..=9999).contains(&year)
}

/// Whole seconds: the written forms have no fraction, and truncating here keeps the
/// newest-child comparison in a sitemap index consistent with what is written.
fn to_timestamp(time: SystemTime) -> Option<Timestamp> {
    whole_seconds_in_range(Timestamp::try_from(time).ok()?)
}

#[cfg(test)]
mod tests;
