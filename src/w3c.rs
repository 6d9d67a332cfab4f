//! The W3C Datetime profile the protocol's `<lastmod>` uses: written in one of its two
//! forms ([`LastmodFormat`], [`format`]) and read ([`parse`]). A leaf: the sitemap writer,
//! `index`, `check` and the config all use it, and it uses nothing of theirs.

use jiff::Timestamp;
use serde::Deserialize;

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

/// Parses the W3C Datetime profile the protocol uses: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or
/// a date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s+` and a zone (`Z` or `±hh:mm`).
/// Returns the moment it starts, in UTC. Year 0000 is refused: the sitemap schema types
/// `<lastmod>` as `xs:date` or `xs:dateTime`, which (XML Schema 1.0) have no year zero.
///
/// Written by hand: W3C Datetime is a narrow profile of ISO 8601 (years alone, a zone
/// required with a time) that general date parsers accept too much or too little of;
/// the calendar checks themselves are jiff's.
pub fn parse(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i16>().ok();
    if !digits(0..4) {
        return None;
    }
    let year = num(0..4).filter(|&y| y != 0)?;
    let (month, day) = match b.len() {
        4 => (1, 1),
        7 if b[4] == b'-' && digits(5..7) => (num(5..7)?, 1),
        n if n >= 10 && b[4] == b'-' && b[7] == b'-' && digits(5..7) && digits(8..10) => {
            (num(5..7)?, num(8..10)?)
        }
        _ => return None,
    };
    let date = jiff::civil::Date::new(year, month as i8, day as i8).ok()?;
    if b.len() <= 10 {
        return date
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp());
    }
    if b[10] != b'T' || !digits(11..13) || b.get(13) != Some(&b':') || !digits(14..16) {
        return None;
    }
    let mut i = 16;
    let mut second = 0;
    if b.get(i) == Some(&b':') {
        if !digits(i + 1..i + 3) {
            return None;
        }
        second = num(i + 1..i + 3)?;
        i += 3;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = start;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    let offset_seconds = match &b[i..] {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]
            if [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()) =>
        {
            let h = i32::from((h1 - b'0') * 10 + (h2 - b'0'));
            let m = i32::from((m1 - b'0') * 10 + (m2 - b'0'));
            if h > 23 || m > 59 {
                return None;
            }
            let total = h * 3600 + m * 60;
            if *sign == b'-' { -total } else { total }
        }
        _ => return None,
    };
    let time =
        jiff::civil::Time::new(num(11..13)? as i8, num(14..16)? as i8, second as i8, 0).ok()?;
    let offset = jiff::tz::Offset::from_seconds(offset_seconds).ok()?;
    date.to_datetime(time)
        .to_zoned(jiff::tz::TimeZone::fixed(offset))
        .ok()
        .map(|z| z.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w3c_datetimes_are_recognised_exactly() {
        let ok = [
            ("2024", "2024-01-01T00:00:00Z"),
            ("2024-03", "2024-03-01T00:00:00Z"),
            ("2024-03-05", "2024-03-05T00:00:00Z"),
            ("2024-03-05T10:20+01:00", "2024-03-05T09:20:00Z"),
            ("2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"),
            ("2024-03-05T10:20:30.123456-05:30", "2024-03-05T15:50:30Z"),
            ("0001-01-01", "0001-01-01T00:00:00Z"),
        ];
        for (s, want) in ok {
            assert_eq!(
                parse(s).map(|t| t.to_string()).as_deref(),
                Some(want),
                "{s}"
            );
        }
        let bad = [
            "",
            "24",
            "2024-3-5",
            "2024-13-01",
            "2024-02-30",
            "2024-03-05T10:20:30",
            "2024-03-05 10:20:30Z",
            "2024-03-05T10:20:30+0100",
            "2024-03-05T25:00:00Z",
            "2024-03-05T10:20:30.Z",
            "Tue, 05 Mar 2024",
            "2024-03-05T10Z",
            "2024-03-05Z",
            // No year zero in XML Schema 1.0's xs:date and xs:dateTime.
            "0000",
            "0000-01-01",
            "0000-12-31T23:00:00-01:00",
        ];
        for s in bad {
            assert!(parse(s).is_none(), "{s}");
        }
    }

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
}
