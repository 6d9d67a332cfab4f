use super::*;

/// What a run says of its changes: the counts, or on a first run with none listed, why.
#[test]
fn changes_describe_themselves() {
    let urls = |n: usize| vec![String::from("https://e.org/a"); n];
    let table = [
        (false, 1, 1, 2, "1 added, 1 updated, 2 removed"),
        (false, 0, 0, 0, "0 added, 0 updated, 0 removed"),
        (true, 2, 0, 0, "2 added, 0 updated, 0 removed"),
        (
            true,
            0,
            0,
            0,
            "first run: no previous state, nothing listed as changed (--all-changed lists every URL)",
        ),
    ];
    for (first_run, added, updated, removed, want) in table {
        let changes = Changes {
            first_run,
            added: urls(added),
            updated: urls(updated),
            removed: urls(removed),
        };
        assert_eq!(changes.describe(), want);
    }
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
