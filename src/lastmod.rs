//! Dating each page: the `lastmod` sources, tried in order, and how dates are written.

use std::time::SystemTime;

use jiff::Timestamp;
use serde::Deserialize;

/// Where a page's `lastmod` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LastmodSource {
    /// The file's modification time.
    Mtime,
    /// No `lastmod` at all.
    None,
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
pub struct PageFacts {
    /// The file's modification time, when the walk read it.
    pub modified: Option<SystemTime>,
}

/// The first date the sources yield, in their order; `None` when none does (or the
/// list says `"none"` first).
pub fn resolve(sources: &[LastmodSource], facts: &PageFacts) -> Option<Timestamp> {
    for source in sources {
        match source {
            LastmodSource::None => return None,
            LastmodSource::Mtime => {
                if let Some(ts) = facts.modified.and_then(to_timestamp) {
                    return Some(ts);
                }
            }
        }
    }
    None
}

/// Whether any source needs the file's modification time (so the walk can skip the
/// `stat` call when none does).
pub fn needs_mtime(sources: &[LastmodSource]) -> bool {
    sources
        .iter()
        .take_while(|s| **s != LastmodSource::None)
        .any(|s| *s == LastmodSource::Mtime)
}

/// Whole seconds: the written forms have no fraction, and truncating here keeps the
/// newest-child comparison in a sitemap index consistent with what is written.
fn to_timestamp(time: SystemTime) -> Option<Timestamp> {
    let ts = Timestamp::try_from(time).ok()?;
    Timestamp::from_second(ts.as_second()).ok()
}

/// Writes a timestamp in the configured W3C Datetime form, in UTC.
pub fn format(ts: Timestamp, format: LastmodFormat) -> String {
    match format {
        LastmodFormat::Datetime => ts.strftime("%Y-%m-%dT%H:%M:%S+00:00").to_string(),
        LastmodFormat::Date => ts.strftime("%Y-%m-%d").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

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
    fn sources_are_tried_in_order() {
        let facts = PageFacts {
            modified: Some(UNIX_EPOCH + Duration::from_millis(1_709_634_030_500)),
        };
        let ts = resolve(&[LastmodSource::Mtime], &facts).unwrap();
        assert_eq!(
            format(ts, LastmodFormat::Datetime),
            "2024-03-05T10:20:30+00:00"
        );
        assert_eq!(resolve(&[LastmodSource::None], &facts), None);
        assert_eq!(
            resolve(&[LastmodSource::Mtime], &PageFacts::default()),
            None
        );
        assert!(needs_mtime(&[LastmodSource::Mtime]));
        assert!(!needs_mtime(&[LastmodSource::None, LastmodSource::Mtime]));
    }
}
