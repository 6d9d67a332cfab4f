//! The W3C Datetime profile the protocol's `<lastmod>` uses.

use jiff::Timestamp;

/// Parses the W3C Datetime profile the protocol uses: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or
/// a date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s+` and a zone (`Z` or `±hh:mm`).
/// Returns the moment it starts, in UTC. Year 0000 is refused: the sitemap schema types
/// `<lastmod>` as `xs:date` or `xs:dateTime`, which (XML Schema 1.0) have no year zero.
///
/// Written by hand: W3C Datetime is a narrow profile of ISO 8601 (years alone, a zone
/// required with a time) that general date parsers accept too much or too little of;
/// the calendar checks themselves are jiff's.
pub fn w3c_datetime(s: &str) -> Option<Timestamp> {
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
