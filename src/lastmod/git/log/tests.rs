use std::io::{BufReader, Cursor, Read};
use std::path::Path;

use super::*;

use crate::lastmod::git::tree::of_paths as tree_of;

/// The files at `paths`, dated by `log`, read to its end.
fn parse(log: &[u8], paths: &[&str]) -> Tree {
    let tree = tree_of(paths);
    let whole = read(Cursor::new(log), &HashSet::new(), &tree).unwrap();
    assert!(whole);
    tree
}

fn second(tree: &Tree, path: &str) -> Option<i64> {
    tree.date(Path::new(path)).map(|t| t.as_second())
}

#[test]
fn parses_log_output_with_odd_names() {
    let log = b"\x001706832000 c3\x00\nx.html\x00\x001704164645 c2\x00\na b/index.html\x00x.html\x00\xc3\xbcber/index.html\x00\x001600000000 c1\x00\nold.html\x00\x001500000000 c0\x00\nnever.html\x00";
    let paths = [
        "x.html",
        "a b/index.html",
        "über/index.html",
        "old.html",
        "new.html",
    ];
    let tree = parse(log, &paths);
    assert_eq!(second(&tree, "x.html"), Some(1_706_832_000));
    assert_eq!(second(&tree, "a b/index.html"), Some(1_704_164_645));
    assert_eq!(second(&tree, "über/index.html"), Some(1_704_164_645));
    assert_eq!(second(&tree, "old.html"), Some(1_600_000_000));
    assert_eq!(second(&tree, "new.html"), None);
}

#[test]
fn a_commit_without_files_is_skipped_and_the_newest_date_wins_even_at_a_boundary() {
    let log =
        b"\x001700000000 e\x00\x001600000000 b\x00\na.html\x00\x001650000000 m\x00\na.html\x00";
    let boundary = HashSet::from(["m".to_string()]);
    let tree = tree_of(&["a.html", "b.html"]);
    read(Cursor::new(&log[..]), &boundary, &tree).unwrap();
    // Its newest commit is a boundary: its real date is unknown.
    assert_eq!(second(&tree, "a.html"), None);
    // (b.html, never met, keeps the log read to its end.)
    let tree = tree_of(&["a.html", "b.html"]);
    read(Cursor::new(&log[..]), &HashSet::new(), &tree).unwrap();
    assert_eq!(second(&tree, "a.html"), Some(1_650_000_000));
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
fn reading_stops_once_every_file_is_dated() {
    let head: &[u8] =
        b"\x001700000000 c2\x00\na.html\x00logo.png\x00\x001600000000 c1\x00\nb.html\x00";
    let tree = tree_of(&["a.html", "b.html"]);
    let log = BufReader::new(Cursor::new(head).chain(Past));
    let whole = read(log, &HashSet::new(), &tree).unwrap();
    assert!(!whole);
    assert_eq!(second(&tree, "a.html"), Some(1_700_000_000));
    assert_eq!(second(&tree, "b.html"), Some(1_600_000_000));
    assert_eq!(second(&tree, "logo.png"), None);
}

#[test]
fn an_overlong_name_is_cut_and_passed_over() {
    let mut log = b"\x001700000000 c\x00\n".to_vec();
    log.extend(std::iter::repeat_n(b'x', MAX_FIELD * 3));
    log.extend_from_slice(b"\x00a.html\x00");
    let tree = parse(&log, &["a.html", "b.html"]);
    assert_eq!(second(&tree, "a.html"), Some(1_700_000_000));
}

/// Where HEAD could not be listed, the log is read to its end (git then says why).
#[test]
fn without_a_listing_the_log_is_read_to_its_end() {
    let log: &[u8] = b"\x001700000000 c\x00\na.html\x00";
    let whole = read(Cursor::new(log), &HashSet::new(), &Tree::default()).unwrap();
    assert!(whole);
}
