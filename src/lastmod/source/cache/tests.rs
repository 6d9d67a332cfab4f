use super::*;

fn settings(project: &Path, generator: &str) -> SourceSettings {
    SourceSettings {
        generator: crate::generators::find(generator),
        routes: Vec::new(),
        project: project.to_path_buf(),
        content: vec![PathBuf::from("content")],
        updated: vec!["lastmod".into()],
        permalink: None,
        default_language: None,
        public_dir: project.join("public"),
        within: String::new(),
        threads: 1,
    }
}

const A: Oid = [1; 20];
const B: Oid = [2; 20];

fn read(outputs: &[&str]) -> Read {
    Read {
        outputs: outputs.iter().map(|o| o.to_string()).collect(),
        ..Read::default()
    }
}

/// Writes a cache of `sources` at `store` the way a run does.
fn write(store: &Store, sources: &[(&str, Oid, Read)]) {
    let writer = Writer::start(store).unwrap();
    let mut lines = String::new();
    for (key, oid, read) in sources {
        writer.keep(&mut lines, key, oid, read);
    }
    writer.write(&mut lines);
    writer.finish(store).unwrap();
}

#[test]
fn what_a_run_kept_is_found_by_path_and_blob_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(
        dir.path(),
        &settings(dir.path(), "hugo"),
        &Prepared::default(),
    );
    let dated = Read {
        updated: Some("2024-03-05T10:20:30Z".parse().unwrap()),
        unparseable: Some("someday".into()),
        outputs: vec!["a/index.html".into(), "fr/a/index.html".into()],
        ..Read::default()
    };
    let draft = Read {
        draft: true,
        ..Read::default()
    };
    let refused = Read {
        refused: Some(String::new()),
        ..Read::default()
    };
    let tabbed = read(&["tab\there/index.html"]);
    let sources = [
        ("content/a.md", A, dated.clone()),
        ("content/draft.md", A, draft.clone()),
        ("content/refused.md", B, refused.clone()),
        ("content/tabbed.md", A, tabbed),
    ];
    write(&store, &sources);
    let cache = store.load();
    let found = |key: &str, oid: &Oid| cache.get(key, oid).map(|(read, _)| read);
    let cases: [(&str, Oid, Option<Read>); 6] = [
        ("content/a.md", A, Some(dated)),
        ("content/draft.md", A, Some(draft)),
        // An empty value is a value.
        ("content/refused.md", B, Some(refused)),
        // Another blob: read again.
        ("content/a.md", B, None),
        // A tab in a field would break the line: never kept.
        ("content/tabbed.md", A, None),
        ("content/other.md", A, None),
    ];
    for (key, oid, expected) in cases {
        assert_eq!(found(key, &oid), expected, "{key}");
    }
}

#[test]
fn a_cache_written_under_other_settings_or_not_ours_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let hugo = Store::new(
        dir.path(),
        &settings(dir.path(), "hugo"),
        &Prepared::default(),
    );
    write(&hugo, &[("content/a.md", A, read(&["a/index.html"]))]);
    assert!(hugo.load().get("content/a.md", &A).is_some());
    // Another generator routes the same sources otherwise: the same file, not read.
    let zola = Store::new(
        dir.path(),
        &settings(dir.path(), "zola"),
        &Prepared::default(),
    );
    assert_eq!(zola.path, hugo.path);
    assert!(zola.load().get("content/a.md", &A).is_none());
    // A line no run writes: more outputs than any source has.
    let header = std::fs::read_to_string(&hugo.path).unwrap();
    let header = header.lines().next().unwrap();
    let many = "\tx/index.html".repeat(MAX_OUTPUTS + 1);
    let oid = "01".repeat(20);
    std::fs::write(
        &hugo.path,
        format!("{header}\ncontent/a.md\t{oid}\t\t\t\t{many}\n"),
    )
    .unwrap();
    assert!(hugo.load().get("content/a.md", &A).is_none());
    let few = "\tx/index.html".repeat(3);
    std::fs::write(
        &hugo.path,
        format!("{header}\ncontent/a.md\t{oid}\t\t\t\t{few}\n"),
    )
    .unwrap();
    assert_eq!(
        hugo.load().get("content/a.md", &A).unwrap().0.outputs.len(),
        3
    );
    // A file that does not say it is ours.
    std::fs::write(&hugo.path, "content/a.md\t0101\t\t\t\t\ta/index.html\n").unwrap();
    assert!(hugo.load().get("content/a.md", &A).is_none());
}

#[test]
#[cfg(unix)]
fn a_link_in_the_caches_place_is_neither_read_nor_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(
        dir.path(),
        &settings(dir.path(), "hugo"),
        &Prepared::default(),
    );
    let elsewhere = dir.path().join("elsewhere");
    let theirs = Store {
        path: elsewhere.clone(),
        ..store.clone()
    };
    write(&theirs, &[("content/a.md", A, read(&["a/index.html"]))]);
    std::os::unix::fs::symlink(&elsewhere, &store.path).unwrap();
    assert!(store.load().get("content/a.md", &A).is_none());
    let writer = Writer::start(&store).unwrap();
    assert!(writer.finish(&store).is_err());
    assert!(std::fs::symlink_metadata(&store.path).unwrap().is_symlink());
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(left.len(), 2);
}

#[test]
fn two_projects_of_a_repository_keep_caches_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let (docs, blog) = (dir.path().join("docs"), dir.path().join("blog"));
    let at = |project: &Path| {
        Store::new(dir.path(), &settings(project, "hugo"), &Prepared::default()).path
    };
    assert_ne!(at(&docs), at(&blog));
}
