use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::lastmod::LastmodSource;
use crate::page::made_up;

const OWNED: &str = "https://e.org/";
const RUN_START: i64 = 1000;

fn time(second: Option<i64>) -> Option<Timestamp> {
    second.map(|s| Timestamp::from_second(s).unwrap())
}

/// A state of `records` (URL, fingerprint label, date), read from a file when `found`.
fn state(records: &[(&str, &str, Option<i64>)], found: bool) -> State {
    let mut state = State::default();
    for &(url, fingerprint, lastmod) in records {
        let page = PageState {
            fingerprint: made_up(fingerprint),
            lastmod: time(lastmod),
        };
        state.push(url, page);
    }
    State {
        file: found.then(super::super::file::Identity::default),
        ..state.sorted()
    }
}

/// A page of the run: URL after the base, fingerprint label, date so far, whether its
/// date waits (dated by `"mtime"` after `"content"` when it has a date so far).
type Listed<'a> = (&'a str, Option<&'a str>, Option<i64>, bool);

fn page<'a>(&(rest, fingerprint, lastmod, pending): &Listed<'a>) -> Page<'a> {
    let after = lastmod.map(|_| LastmodSource::Mtime);
    Page {
        rest,
        fingerprint: fingerprint.map(made_up),
        lastmod: time(lastmod),
        pending: pending.then_some(Pending { after }),
    }
}

/// Every page through the merge: the waiting pages' dates, and what it yields.
fn merge(previous: &State, pages: &[Listed], all_changed: bool) -> (Vec<Settled>, Merged) {
    let mut merge = Merge::new(previous, OWNED, all_changed, time(Some(RUN_START)));
    let settled = pages.iter().filter_map(|p| merge.page(page(p))).collect();
    (settled, merge.finish())
}

struct Row<'a> {
    what: &'a str,
    previous: &'a [(&'a str, &'a str, Option<i64>)],
    found: bool,
    pages: &'a [Listed<'a>],
    all_changed: bool,
    /// The waiting pages' dates, in order.
    settled: &'a [Option<i64>],
    /// Added, updated and removed, after the base.
    changes: [&'a [&'a str]; 3],
    holds: bool,
    outside: &'a [&'a str],
}

const NONE: &[&str] = &[];

/// What a row is unless it says otherwise.
const BASE: Row = Row {
    what: "",
    previous: &[],
    found: true,
    pages: &[],
    all_changed: false,
    settled: &[],
    changes: [NONE, NONE, NONE],
    holds: false,
    outside: NONE,
};

const ROWS: &[Row] = &[
    Row {
        what: "unchanged",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[("a", Some("1"), Some(60), false)],
        holds: true,
        ..BASE
    },
    Row {
        what: "added",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[
            ("a", Some("1"), Some(60), false),
            ("n", Some("6"), Some(50), false),
        ],
        changes: [&["n"], NONE, NONE],
        ..BASE
    },
    Row {
        what: "removed",
        previous: &[
            ("https://e.org/a", "1", Some(60)),
            ("https://e.org/gone", "3", Some(80)),
        ],
        pages: &[("a", Some("1"), Some(60), false)],
        changes: [NONE, NONE, &["gone"]],
        ..BASE
    },
    Row {
        what: "changed content",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[("a", Some("2"), Some(60), false)],
        changes: [NONE, &["a"], NONE],
        ..BASE
    },
    Row {
        what: "a date changed alone: not listed, but the file holds another state",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[("a", Some("1"), Some(61), false)],
        ..BASE
    },
    Row {
        what: "waiting, unchanged content: the recorded date",
        previous: &[("https://e.org/p", "4", Some(90))],
        pages: &[("p", Some("4"), None, true)],
        settled: &[Some(90)],
        holds: true,
        ..BASE
    },
    Row {
        what: "waiting, changed content, no later source: the run's start",
        previous: &[("https://e.org/q", "5", Some(95))],
        pages: &[("q", Some("55"), None, true)],
        settled: &[Some(RUN_START)],
        changes: [NONE, &["q"], NONE],
        ..BASE
    },
    Row {
        what: "waiting, changed content, a later source's date",
        previous: &[("https://e.org/q", "5", Some(95))],
        pages: &[("q", Some("55"), Some(40), true)],
        settled: &[Some(40)],
        changes: [NONE, &["q"], NONE],
        ..BASE
    },
    Row {
        what: "waiting, new page: the run's start",
        previous: &[],
        pages: &[("n", Some("6"), None, true)],
        settled: &[Some(RUN_START)],
        changes: [&["n"], NONE, NONE],
        ..BASE
    },
    Row {
        what: "waiting, unchanged content never dated: a later source's date",
        previous: &[("https://e.org/p", "4", None)],
        pages: &[("p", Some("4"), Some(40), true)],
        settled: &[Some(40)],
        ..BASE
    },
    Row {
        what: "waiting, no fingerprint after all: a later source's date, its record gone",
        previous: &[("https://e.org/p", "4", Some(90))],
        pages: &[("p", None, Some(40), true)],
        settled: &[Some(40)],
        changes: [NONE, NONE, &["p"]],
        ..BASE
    },
    Row {
        what: "other shards' pages, before and after the base, kept and not removed",
        previous: &[
            ("https://d.org/x", "9", Some(5)),
            ("https://e.org", "7", None),
            ("https://e.org/a", "1", Some(60)),
            ("https://e.orgx/", "8", Some(6)),
        ],
        pages: &[("a", Some("1"), Some(60), false)],
        holds: true,
        outside: &["https://d.org/x", "https://e.org", "https://e.orgx/"],
        ..BASE
    },
    Row {
        what: "a duplicate: the first listed is compared, each waiting one settled",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[
            ("a", Some("1"), Some(60), false),
            ("a", Some("2"), None, true),
            ("a", Some("1"), None, true),
        ],
        settled: &[Some(RUN_START), Some(60)],
        holds: true,
        ..BASE
    },
    Row {
        what: "a duplicate after a first without a fingerprint: settled, the record gone",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[("a", None, Some(60), false), ("a", Some("1"), None, true)],
        settled: &[Some(60)],
        changes: [NONE, NONE, &["a"]],
        ..BASE
    },
    Row {
        what: "URLs that share prefixes",
        previous: &[
            ("https://e.org/a/", "1", None),
            ("https://e.org/a/b", "2", None),
            ("https://e.org/ab", "3", None),
        ],
        pages: &[
            ("a/b", Some("2"), None, false),
            ("b", Some("4"), None, false),
        ],
        changes: [&["b"], NONE, &["a/", "ab"]],
        ..BASE
    },
    Row {
        what: "a first run lists nothing",
        previous: &[],
        found: false,
        pages: &[("a", Some("1"), Some(60), false)],
        ..BASE
    },
    Row {
        what: "a first run with --all-changed lists every page",
        previous: &[],
        found: false,
        pages: &[
            ("a", Some("1"), Some(60), false),
            ("b", Some("2"), None, false),
        ],
        all_changed: true,
        changes: [&["a", "b"], NONE, NONE],
        ..BASE
    },
    Row {
        what: "--all-changed lists unchanged pages as updated",
        previous: &[("https://e.org/a", "1", Some(60))],
        pages: &[
            ("a", Some("1"), Some(60), false),
            ("n", Some("6"), None, false),
        ],
        all_changed: true,
        changes: [&["n"], &["a"], NONE],
        ..BASE
    },
    Row {
        what: "a found file with no pages holds a run of none",
        previous: &[],
        pages: &[],
        holds: true,
        ..BASE
    },
];

#[test]
fn one_walk_settles_compares_and_sets_aside() {
    for row in ROWS {
        let previous = state(row.previous, row.found);
        let (settled, merged) = merge(&previous, row.pages, row.all_changed);
        let what = row.what;
        let dates: Vec<Option<i64>> = settled
            .iter()
            .map(|s| s.lastmod.map(|t| t.as_second()))
            .collect();
        assert_eq!(dates, row.settled, "{what}");
        let full = |rests: &[&str]| -> Vec<String> {
            rests.iter().map(|r| format!("{OWNED}{r}")).collect()
        };
        let changes = &merged.changes;
        assert_eq!(changes.first_run, !row.found, "{what}");
        assert_eq!(changes.added, full(row.changes[0]), "{what}: added");
        assert_eq!(changes.updated, full(row.changes[1]), "{what}: updated");
        assert_eq!(changes.removed, full(row.changes[2]), "{what}: removed");
        assert_eq!(merged.holds, row.holds, "{what}: holds");
        let outside: Vec<&str> = merged.outside.pages().map(|(url, _)| url).collect();
        assert_eq!(outside, row.outside, "{what}: outside");
        assert_eq!(merged.outside.found(), row.found, "{what}: the file kept");
    }
}

/// Which source settled a waiting page: the record's date counts as `"content"`.
#[test]
fn a_recorded_date_counts_as_content() {
    let previous = state(&[("https://e.org/p", "4", Some(90))], true);
    let (settled, _) = merge(&previous, &[("p", Some("4"), Some(40), true)], false);
    assert_eq!(settled[0].from, Some(LastmodSource::Content));
    assert!(!settled[0].after_used);
    let (settled, _) = merge(&previous, &[("p", Some("5"), Some(40), true)], false);
    assert_eq!(settled[0].from, Some(LastmodSource::Mtime));
    assert!(settled[0].after_used);
}

/// The passes the merge replaced, as plainly as they can be written: each waiting page's
/// record looked up in a map, the change list and the comparison with the file over the
/// de-duplicated pages, and the other shards' pages filtered out of the state.
fn reference(previous: &State, pages: &[Listed], all_changed: bool) -> (Vec<Settled>, Merged) {
    let map: BTreeMap<&str, PageState> = previous.pages().collect();
    let run_start = time(Some(RUN_START));
    let mut settled = Vec::new();
    let mut now = Vec::new();
    for (i, listed) in pages.iter().enumerate() {
        let p = page(listed);
        let record = map.get(format!("{OWNED}{}", p.rest).as_str()).copied();
        let mut lastmod = p.lastmod;
        if let Some(pending) = p.pending {
            let s = match p.fingerprint {
                Some(f) => pending.settle(p.lastmod, f, record, run_start),
                None => pending.unread(p.lastmod),
            };
            lastmod = s.lastmod;
            settled.push(s);
        }
        let kept = i == 0 || pages[i - 1].0 != p.rest;
        if let (true, Some(fingerprint)) = (kept, p.fingerprint) {
            now.push((
                p.rest,
                PageState {
                    fingerprint,
                    lastmod,
                },
            ));
        }
    }
    let ours: Vec<(&str, PageState)> = previous
        .pages()
        .filter_map(|(url, page)| Some((url.strip_prefix(OWNED)?, page)))
        .collect();
    let mut changes = Changes {
        first_run: !previous.found(),
        ..Changes::default()
    };
    let before: BTreeMap<&str, PageState> = ours.iter().copied().collect();
    let after: BTreeMap<&str, PageState> = now.iter().copied().collect();
    for (rest, page) in &now {
        match before.get(rest) {
            None if changes.first_run && !all_changed => {}
            None => changes.added.push(format!("{OWNED}{rest}")),
            Some(b) if all_changed || b.fingerprint != page.fingerprint => {
                changes.updated.push(format!("{OWNED}{rest}"));
            }
            Some(_) => {}
        }
    }
    changes.removed = (ours.iter())
        .filter(|(rest, _)| !after.contains_key(rest))
        .map(|(rest, _)| format!("{OWNED}{rest}"))
        .collect();
    let mut outside = State {
        file: previous.file.clone(),
        ..State::default()
    };
    for (url, page) in previous.pages().filter(|(url, _)| !url.starts_with(OWNED)) {
        outside.push(url, page);
    }
    let holds = previous.found() && ours == now;
    let merged = Merged {
        changes,
        holds,
        outside,
    };
    (settled, merged)
}

/// URLs from a few pieces that share prefixes, with the base and around it.
const BASES: [&str; 5] = [
    "https://e.org/",
    "https://e.org",
    "https://d.org/",
    "https://e.orgx/",
    "https://e.org/a",
];
const RESTS: [&str; 8] = ["", "a", "a/", "a/b", "ab", "b", "é", "a/b/c"];

/// A record: its base and rest (by place in [`BASES`] and [`RESTS`]), fingerprint and date.
fn record() -> impl Strategy<Value = (usize, usize, u8, Option<i64>)> {
    let date = prop::option::of(0..3i64);
    (0..BASES.len(), 0..RESTS.len(), 0..3u8, date)
}

/// A page: its rest, fingerprint, date so far, and whether its date waits.
fn listed() -> impl Strategy<Value = (usize, Option<u8>, Option<i64>, bool)> {
    let date = prop::option::of(0..3i64);
    (
        0..RESTS.len(),
        prop::option::of(0..3u8),
        date,
        any::<bool>(),
    )
}

proptest! {
    #[test]
    fn the_merge_is_the_passes_it_replaced(
        records in prop::collection::vec(record(), 0..12),
        listed in prop::collection::vec(listed(), 0..12),
        found: bool,
        all_changed: bool,
    ) {
        let urls: Vec<String> = (records.iter())
            .map(|&(b, r, ..)| format!("{}{}", BASES[b], RESTS[r]))
            .collect();
        let labels = ["0", "1", "2"];
        let records: Vec<(&str, &str, Option<i64>)> = records
            .iter()
            .zip(&urls)
            .map(|(&(_, _, f, d), url)| (url.as_str(), labels[usize::from(f)], d))
            .collect();
        let previous = state(&records, found);
        let mut pages: Vec<Listed> = listed
            .iter()
            .map(|&(r, f, d, pending)| (RESTS[r], f.map(|f| labels[usize::from(f)]), d, pending))
            .collect();
        // Sorted by URL as the run sorts them, pages of one URL kept in their order.
        pages.sort_by_key(|p| p.0);
        let (got_settled, got) = merge(&previous, &pages, all_changed);
        let (want_settled, want) = reference(&previous, &pages, all_changed);
        prop_assert_eq!(got_settled, want_settled);
        prop_assert_eq!(&got.changes, &want.changes);
        prop_assert_eq!(got.holds, want.holds);
        let urls = |s: &State| s.pages().map(|(u, p)| (u.to_string(), p)).collect::<Vec<_>>();
        prop_assert_eq!(urls(&got.outside), urls(&want.outside));
        prop_assert_eq!(got.outside.found(), want.outside.found());
    }
}
