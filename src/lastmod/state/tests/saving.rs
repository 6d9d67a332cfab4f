//! Saving a state: read again only when another run replaced the file, prepared while the
//! sitemaps are written and committed after, or not written at all when unchanged.

use super::*;

/// The save reads the file again only when it changed since it was read: another
/// shard's pages saved in between are kept.
#[test]
fn the_save_reads_again_only_a_changed_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let none = State::default();
    save(
        &path,
        "https://e.org/",
        &state(&[("https://e.org/a", "1", None)]),
        &none,
    )
    .unwrap();
    let read = State::load(&path).unwrap();
    // Unchanged since it was read: not read again. (Proved by damaging it in place
    // and putting its time back: a second reading would fail.)
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    std::io::Write::write_all(&mut &file, &b"x".repeat(len)).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    let ours = state(&[("https://e.org/a", "2", None)]);
    save(&path, "https://e.org/", &ours, &read).unwrap();
    let read = State::load(&path).unwrap();
    assert_eq!(
        read.get("https://e.org/a").unwrap().fingerprint,
        made_up("2")
    );
    // Another shard saved since `read`: its page is kept.
    let docs = state(&[("https://e.org/docs/d", "9", None)]);
    save(&path, "https://e.org/docs/", &docs, &read).unwrap();
    save(
        &path,
        "https://e.org/blog/",
        &state(&[("https://e.org/blog/b", "5", None)]),
        &read,
    )
    .unwrap();
    let all = State::load(&path).unwrap();
    assert_eq!(
        urls(&all),
        [
            "https://e.org/a",
            "https://e.org/blog/b",
            "https://e.org/docs/d"
        ]
    );
}

/// A state prepared while the sitemaps are written and committed after: the bytes a save
/// writes; another shard's save in between is kept (the file read again), as is a
/// prepared file swept away by another run; dropped, it leaves nothing; a path that is
/// not a regular file is refused before anything is written.
#[test]
fn a_prepared_state_commits_as_a_save_would() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    fn pages(s: &State) -> impl Iterator<Item = (Url<'_>, PageState)> {
        s.pages().map(|(u, p)| (Url("", u), p))
    }
    let temporaries = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    let first = state(&[
        ("https://e.org/a", "1", Some(60)),
        ("https://x.org/k", "0", None),
    ]);
    save(&path, "https://e.org/", &first, &State::default()).unwrap();
    let read = State::load(&path).unwrap();
    let ours = state(&[
        ("https://e.org/a", "2", Some(120)),
        ("https://e.org/b", "3", None),
    ]);
    let owned = "https://e.org/";
    // Unchanged since read: the prepared file, byte for byte what a save writes.
    let prepared = prepare(&path, owned, pages(&ours), &read).unwrap();
    assert_eq!(temporaries(), 1);
    prepared.commit(&path, owned, pages(&ours), &read).unwrap();
    let committed = std::fs::read(&path).unwrap();
    save(&path, owned, &ours, &read).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), committed);
    assert_eq!(temporaries(), 0);
    // Another shard saved in between: its page is kept, ours replace ours.
    let read = State::load(&path).unwrap();
    let prepared = prepare(&path, owned, pages(&ours), &read).unwrap();
    let docs = state(&[("https://d.org/d", "9", None)]);
    // Saved elsewhere and moved in: the prepared file is still there to be renamed.
    let elsewhere = tempfile::tempdir().unwrap();
    let moved = elsewhere.path().join("state.json");
    std::fs::copy(&path, &moved).unwrap();
    save(&moved, "https://d.org/", &docs, &read).unwrap();
    std::fs::rename(&moved, &path).unwrap();
    assert_eq!(temporaries(), 1);
    prepared.commit(&path, owned, pages(&ours), &read).unwrap();
    let all = State::load(&path).unwrap();
    assert_eq!(
        urls(&all),
        [
            "https://d.org/d",
            "https://e.org/a",
            "https://e.org/b",
            "https://x.org/k"
        ]
    );
    assert_eq!(temporaries(), 0);
    // Another shard's save in this directory sweeps the prepared file (it is written
    // without the lock): saved all the same.
    let read = State::load(&path).unwrap();
    let prepared = prepare(&path, owned, pages(&ours), &read).unwrap();
    save(&path, "https://d.org/", &docs, &read).unwrap();
    assert_eq!(temporaries(), 0);
    prepared.commit(&path, owned, pages(&ours), &read).unwrap();
    assert_eq!(State::load(&path).unwrap().pages().count(), 4);
    // The file unchanged, but the prepared file swept by another run: saved all the same.
    let read = State::load(&path).unwrap();
    let fewer = state(&[("https://e.org/b", "4", None)]);
    let prepared = prepare(&path, owned, pages(&fewer), &read).unwrap();
    crate::fsutil::held(dir.path())
        .unwrap()
        .sweep_temporaries(".sitemap-state.");
    prepared.commit(&path, owned, pages(&fewer), &read).unwrap();
    let all = State::load(&path).unwrap();
    assert_eq!(
        urls(&all),
        ["https://d.org/d", "https://e.org/b", "https://x.org/k"]
    );
    assert_eq!(
        all.get("https://e.org/b").unwrap().fingerprint,
        made_up("4")
    );
    // Dropped (the sitemaps failed): the state stays, nothing is left behind.
    let before = std::fs::read(&path).unwrap();
    drop(prepare(&path, owned, pages(&ours), &read).unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(temporaries(), 0);
    // Not a regular file: refused before a temporary file is made.
    let not_a_file = dir.path().join("a-directory");
    std::fs::create_dir(&not_a_file).unwrap();
    let err = prepare(&not_a_file, owned, pages(&ours), &read).unwrap_err();
    assert!(matches!(err, StateError::Write { .. }), "{err}");
    assert_eq!(temporaries(), 0);
}

/// Nothing to write: the file is left as it is, time and all; another run's save since
/// is merged with the run's pages as any commit merges it.
#[test]
fn an_unchanged_state_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let owned = "https://e.org/";
    let ours = state(&[("https://e.org/a", "1", Some(60))]);
    let pages = || ours.pages().map(|(u, p)| (Url("", u), p));
    save(&path, owned, &ours, &State::default()).unwrap();
    let read = State::load(&path).unwrap();
    let mut merge = super::merge::Merge::new(&read, owned, false, None);
    for (url, page) in ours.pages() {
        let page = super::merge::Page {
            rest: &url[owned.len()..],
            fingerprint: Some(page.fingerprint),
            lastmod: page.lastmod,
            pending: None,
        };
        merge.page(page);
    }
    assert!(merge.finish().holds);
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(old).unwrap();
    drop(file);
    let read = State::load(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    Prepared::unchanged()
        .commit(&path, owned, pages(), &read)
        .unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), old);
    // Another shard saved since the run read the file: saved, merged.
    let docs = state(&[("https://d.org/d", "9", None)]);
    save(&path, "https://d.org/", &docs, &read).unwrap();
    Prepared::unchanged()
        .commit(&path, owned, pages(), &read)
        .unwrap();
    let all = State::load(&path).unwrap();
    assert_eq!(urls(&all), ["https://d.org/d", "https://e.org/a"]);
}
