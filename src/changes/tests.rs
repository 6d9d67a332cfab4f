use super::*;

fn state(pages: &[(&str, &str)]) -> BTreeMap<String, PageState> {
    pages
        .iter()
        .map(|(url, fp)| {
            let page = PageState {
                fingerprint: fp.to_string(),
                lastmod: None,
            };
            (url.to_string(), page)
        })
        .collect()
}

/// The previous run's state, as a state file holds it (or none: the first run).
fn previous(pages: Option<&[(&str, &str)]>) -> State {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    if let Some(pages) = pages {
        crate::lastmod::state::save(&path, "https://e.org/", &state(pages)).unwrap();
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
    let now = state(&[
        ("https://e.org/a", "1"),
        ("https://e.org/b", "22"),
        ("https://e.org/new", "5"),
    ]);
    let owned = "https://e.org/";
    let got = diff(&before, &now, owned, false);
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
    let shard = diff(&before, &now, "https://e.org/blog/", false);
    assert!(shard.removed.is_empty());
    // --all-changed: every URL counts.
    let all = diff(&before, &now, owned, true);
    assert_eq!(all.added, ["https://e.org/new"]);
    assert_eq!(all.updated, ["https://e.org/a", "https://e.org/b"]);
}

#[test]
fn a_first_run_lists_nothing_unless_asked() {
    let now = state(&[("https://e.org/a", "1"), ("https://e.org/b", "2")]);
    let got = diff(&previous(None), &now, "https://e.org/", false);
    assert!(got.first_run && got.added.is_empty() && got.updated.is_empty());
    assert!(got.describe().starts_with("first run: no previous state"));
    let all = diff(&previous(None), &now, "https://e.org/", true);
    assert_eq!(all.added, ["https://e.org/a", "https://e.org/b"]);
    assert_eq!(all.describe(), "2 added, 0 updated, 0 removed");
}
