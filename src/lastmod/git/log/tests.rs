use std::io::{BufReader, Cursor, Read};
use std::path::Path;

use super::*;

fn parse(log: &[u8]) -> Dates {
    let read = read(Cursor::new(log), &HashSet::new(), None).unwrap();
    assert!(read.whole);
    read.dates
}

fn second(dates: &Dates, path: &str) -> Option<i64> {
    dates.get(Path::new(path))?.map(|(t, _)| t.as_second())
}

#[test]
fn parses_log_output_with_odd_names() {
    let log = b"\x001706832000 c3\x00\nx.html\x00\x001704164645 c2\x00\na b/index.html\x00x.html\x00\xc3\xbcber/index.html\x00\x001600000000 c1\x00\nold.html\x00";
    let dates = parse(log);
    assert_eq!(second(&dates, "x.html"), Some(1_706_832_000));
    assert_eq!(second(&dates, "a b/index.html"), Some(1_704_164_645));
    assert_eq!(second(&dates, "über/index.html"), Some(1_704_164_645));
    assert_eq!(second(&dates, "old.html"), Some(1_600_000_000));
    assert_eq!(dates.len(), 4);
}

#[test]
fn a_commit_without_files_is_skipped_and_the_newest_date_wins() {
    let log =
        b"\x001700000000 e\x00\x001600000000 b\x00\na.html\x00\x001650000000 m\x00\na.html\x00";
    let boundary = HashSet::from(["m".to_string()]);
    let read = read(Cursor::new(&log[..]), &boundary, None).unwrap();
    assert_eq!(
        read.dates[Path::new("a.html")],
        Some((Timestamp::from_second(1_650_000_000).unwrap(), true))
    );
}

/// A reader that fails the test if read: the history past the point where every wanted
/// file has its date.
struct Past;

impl Read for Past {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        panic!("the log was read past the point where every wanted file had its date");
    }
}

#[test]
fn reading_stops_once_every_wanted_file_is_dated() {
    let head: &[u8] =
        b"\x001700000000 c2\x00\na.html\x00logo.png\x00\x001600000000 c1\x00\nb.html\x00";
    let wanted: Dates = ["a.html", "b.html"]
        .map(|p| (PathBuf::from(p), None))
        .into();
    let log = BufReader::new(Cursor::new(head).chain(Past));
    let read = read(log, &HashSet::new(), Some(wanted)).unwrap();
    assert!(!read.whole);
    let mut dated: Vec<_> = read.dates.keys().collect();
    dated.sort();
    // Only the wanted are kept, each dated.
    assert_eq!(dated, [Path::new("a.html"), Path::new("b.html")]);
    assert_eq!(second(&read.dates, "a.html"), Some(1_700_000_000));
    assert_eq!(second(&read.dates, "b.html"), Some(1_600_000_000));
}

#[test]
fn an_overlong_name_is_cut_and_passed_over() {
    let mut log = b"\x001700000000 c\x00\n".to_vec();
    log.extend(std::iter::repeat_n(b'x', MAX_FIELD * 3));
    log.extend_from_slice(b"\x00a.html\x00");
    let dates = parse(&log);
    assert_eq!(dates.len(), 1);
    assert_eq!(second(&dates, "a.html"), Some(1_700_000_000));
}

/// A wanted file the log never names stays undated, and the log is read to its end.
#[test]
fn a_wanted_file_never_committed_stays_undated() {
    let log: &[u8] = b"\x001700000000 c\x00\na.html\x00";
    let wanted: Dates = ["a.html", "new.html"]
        .map(|p| (PathBuf::from(p), None))
        .into();
    let read = read(Cursor::new(log), &HashSet::new(), Some(wanted)).unwrap();
    assert!(read.whole);
    assert_eq!(second(&read.dates, "a.html"), Some(1_700_000_000));
    assert_eq!(read.dates[Path::new("new.html")], None);
}
