use super::*;

use crate::lastmod::state::PageState;
use crate::page::Fingerprint;
use crate::page::made_up;

fn state(pages: &[(&str, &str)]) -> State {
    let mut state = State::default();
    for &(url, fingerprint) in pages {
        let page = PageState {
            fingerprint: made_up(fingerprint),
            lastmod: None,
        };
        state.push(url, page);
    }
    state.sorted()
}

/// This run's pages as `diff` takes them: after the base URL `owned`.
fn now<'s>(state: &'s State, owned: &str) -> impl Iterator<Item = (&'s str, Fingerprint)> {
    let owned = owned.to_string();
    state
        .pages()
        .map(move |(url, page)| (url.strip_prefix(owned.as_str()).unwrap(), page.fingerprint))
}

/// The previous run's state, as a state file holds it (or none: the first run).
fn previous(pages: Option<&[(&str, &str)]>) -> State {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    if let Some(pages) = pages {
        let new = state(pages);
        crate::lastmod::state::save_pages(&path, "https://e.org/", &new, &State::default())
            .unwrap();
    }
    State::load(&path).unwrap()
}

#[test]
fn added_updated_removed_by_fingerprint() {
    let before = previous(Some(&[
        ("https://e.org/a", "1"),
        ("https://e.org/b", "2"),
        ("https://e.org/gone", "3"),
        ("https://e.org/docs/other-shard", "4"),
    ]));
    let current = state(&[
        ("https://e.org/a", "1"),
        ("https://e.org/b", "22"),
        ("https://e.org/new", "5"),
    ]);
    let owned = "https://e.org/";
    let got = diff(&before, owned, now(&current, owned), false);
    assert!(!got.first_run);
    assert_eq!(got.added, ["https://e.org/new"]);
    assert_eq!(got.updated, ["https://e.org/b"]);
    // Under this run's base URL, so the other shard's page is gone too here...
    assert_eq!(
        got.removed,
        ["https://e.org/docs/other-shard", "https://e.org/gone"]
    );
    assert_eq!(got.describe(), "1 added, 1 updated, 2 removed");
    // ... but not for a shard whose base URL does not cover it.
    let blog = "https://e.org/blog/";
    let shard_pages = state(&[("https://e.org/blog/x", "6")]);
    let shard = diff(&before, blog, now(&shard_pages, blog), false);
    assert!(shard.removed.is_empty());
    assert_eq!(shard.added, ["https://e.org/blog/x"]);
    // --all-changed: every URL counts.
    let all = diff(&before, owned, now(&current, owned), true);
    assert_eq!(all.added, ["https://e.org/new"]);
    assert_eq!(all.updated, ["https://e.org/a", "https://e.org/b"]);
}

#[test]
fn a_first_run_lists_nothing_unless_asked() {
    let current = state(&[("https://e.org/a", "1"), ("https://e.org/b", "2")]);
    let owned = "https://e.org/";
    let got = diff(&previous(None), owned, now(&current, owned), false);
    assert!(got.first_run && got.added.is_empty() && got.updated.is_empty());
    assert!(got.describe().starts_with("first run: no previous state"));
    let all = diff(&previous(None), owned, now(&current, owned), true);
    assert_eq!(all.added, ["https://e.org/a", "https://e.org/b"]);
    assert_eq!(all.describe(), "2 added, 0 updated, 0 removed");
}

/// A change list reads back as written, byte for byte when written again, and its URLs
/// come in order, in batches across its three lists.
#[test]
fn a_change_list_reads_back_and_batches_across_its_lists() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let changes = Changes {
        first_run: false,
        added: vec!["https://e.org/a".into(), "https://e.org/b".into()],
        updated: vec![],
        removed: vec![
            "https://e.org/c".into(),
            "".into(),
            "https://e.org/\u{e9}".into(),
        ],
    };
    let now: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
    save(&path, "https://e.org/", now, &changes).unwrap();
    let written = std::fs::read(&path).unwrap();
    let file = load(&path).unwrap();
    assert_eq!(file.url_count(), 5);
    let all: Vec<&str> = file.urls().collect();
    assert_eq!(
        all,
        [
            "https://e.org/a",
            "https://e.org/b",
            "https://e.org/c",
            "",
            "https://e.org/\u{e9}"
        ]
    );
    assert_eq!(file.some_urls(0, 2), all[..2]);
    assert_eq!(file.some_urls(1, 3), all[1..4]);
    assert_eq!(file.some_urls(4, 10), all[4..]);
    assert!(file.some_urls(5, 10).is_empty());
    save_file(&path, &file).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), written);
}

/// A list that is not one, or a file too large, is an error that says so.
#[test]
fn a_bad_change_list_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let base = r#"{"sitemapgen_changes":1,"base_url":"https://e.org/","built_at":"2026-11-22T10:00:00Z","first_run":false,"updated":[],"removed":[],"added":"#;
    std::fs::write(&path, format!("{base}[1]}}")).unwrap();
    let e = load(&path).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
    std::fs::write(&path, format!("{base}[\"a\"]")).unwrap();
    assert!(load(&path).unwrap_err().to_string().contains("EOF"));
}
