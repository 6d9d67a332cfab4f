//! The front-matter readers, each generator's routing, and how pages are looked up.

use std::path::Path;

use super::front_matter::{self, FrontMatter};
use super::*;

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn keys(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| k.to_string()).collect()
}

/// Each format and key form: YAML, TOML, nested keys, Jekyll's and Hexo's date form,
/// reStructuredText fields, quoted values, a BOM; what is not front matter is none.
#[test]
fn front_matter_gives_the_updated_date_and_the_routing_keys() {
    type Case<'a> = (&'a str, &'a [&'a str], Option<&'a str>, Option<&'a str>);
    let table: &[Case] = &[
        (
            "---\ntitle: A\nlastmod: 2024-03-05T10:20:30+02:00\n---\nbody",
            &["lastmod"],
            Some("2024-03-05T08:20:30Z"),
            None,
        ),
        (
            "---\nlast_modified_at: 2024-03-05 10:20:30 +0200\n---\n",
            &["last_modified_at"],
            Some("2024-03-05T08:20:30Z"),
            None,
        ),
        (
            "+++\ntitle = 'A'\nupdated = 2024-03-05T10:20:30-05:00\n+++\n",
            &["updated"],
            Some("2024-03-05T15:20:30Z"),
            None,
        ),
        (
            "+++\nupdated = 2024-03-05\n+++\n",
            &["updated"],
            Some("2024-03-05T00:00:00Z"),
            None,
        ),
        (
            "---\nlast_update:\n  date: '2024-11-30T12:00:00-08:00'\n---\n",
            &["last_update.date"],
            Some("2024-11-30T20:00:00Z"),
            None,
        ),
        (
            "---\ndate:\n  created: 2024-01-01\n  updated: 2024-08-14T09:30:00+02:00\n---\n",
            &["date.updated"],
            Some("2024-08-14T07:30:00Z"),
            None,
        ),
        (
            "---\nmodified: 2024-01-02\nlastmod: 2024-01-03\n---\n",
            &["lastmod", "modified"],
            Some("2024-01-03T00:00:00Z"),
            None,
        ),
        (
            "\u{feff}---\nupdated: 2024-01-02\n---\n",
            &["updated"],
            Some("2024-01-02T00:00:00Z"),
            None,
        ),
        (
            ":updated: 2024-01-02\n:author: me\n\nTitle\n=====\n",
            &["updated"],
            Some("2024-01-02T00:00:00Z"),
            None,
        ),
        (
            "---\nupdated: last tuesday\n---\n",
            &["updated"],
            None,
            Some("last tuesday"),
        ),
        (
            "---\ndate-modified: last-modified\n---\n",
            &["date-modified"],
            None,
            None,
        ),
        (
            ".. title: Nikola\n.. updated: 2025-02-01 10:00:00 UTC+01:00\n\nText\n",
            &["updated"],
            Some("2025-02-01T09:00:00Z"),
            None,
        ),
        ("---\ntitle: no key\n---\n", &["updated"], None, None),
        (
            "# Just markdown\n\nupdated: 2024-01-02\n",
            &["updated"],
            None,
            None,
        ),
        ("---\nnot: [closed\n---\n", &["updated"], None, None),
        ("---\nupdated: 2024-01-02\n", &["updated"], None, None),
    ];
    for (text, want_keys, updated, unparseable) in table {
        let fm = front_matter::parse(text, &keys(want_keys));
        assert_eq!(fm.updated, updated.map(ts), "{text:?}");
        assert_eq!(fm.unparseable.as_deref(), *unparseable, "{text:?}");
    }
}

/// The keys routing needs: title (or the first heading), slug, URL, date, draft.
#[test]
fn front_matter_gives_what_routing_needs() {
    let fm = front_matter::parse(
        "---\ntitle: Über Café\nslug: ueber\npermalink: /x/y/\ndate: 2023-07-19 10:00:00 +0000\ndraft: true\n---\n",
        &[],
    );
    assert_eq!(
        (
            fm.title.as_deref(),
            fm.slug.as_deref(),
            fm.url.as_deref(),
            fm.draft
        ),
        (Some("Über Café"), Some("ueber"), Some("/x/y/"), true)
    );
    assert_eq!(fm.date, Some(ts("2023-07-19T10:00:00Z")));
    let fm = front_matter::parse("+++\npath = 'custom/path'\n+++\n", &[]);
    assert_eq!(fm.url.as_deref(), Some("custom/path"));
    assert!(front_matter::parse("---\npublished: false\n---\n", &[]).draft);
    let pelican = front_matter::parse(
        "Title: T\nStatus: draft\nModified: 2024-02-03 10:00\n\nText",
        &keys(&["modified"]),
    );
    assert!(pelican.draft);
    assert_eq!(pelican.updated, Some(ts("2024-02-03T10:00:00Z")));
    let fm = front_matter::parse("intro\n\n# Release notes 1.0\n", &[]);
    assert_eq!(fm.title.as_deref(), Some("Release notes 1.0"));
}

fn rows(list: Vec<(String, Mapped)>) -> table::Rows<Mapped> {
    let mut rows = table::Rows::default();
    for (path, m) in list {
        rows.push(&path, m);
    }
    rows
}

/// A page is dated by its own source; an index page with none by the newest page below
/// it; a path two sources claim by neither.
#[test]
fn pages_are_looked_up_by_their_output_paths() {
    let dated = |s: &str, how| Mapped::dated(ts(s), how);
    let pages = vec![
        (
            "blog/a/index.html".to_string(),
            dated("2024-01-01T00:00:00Z", How::Commit),
        ),
        (
            "blog/b/index.html".to_string(),
            dated("2024-06-01T00:00:00Z", How::Key),
        ),
        (
            "docs/x/index.html".to_string(),
            dated("2025-01-01T00:00:00Z", How::Commit),
        ),
        (
            "docs/index.html".to_string(),
            dated("2023-01-01T00:00:00Z", How::Commit),
        ),
        ("new.html".to_string(), Mapped::Undated(0)),
        // Two sources built to one path.
        (
            "twice.html".to_string(),
            dated("2024-01-01T00:00:00Z", How::Commit),
        ),
        (
            "twice.html".to_string(),
            dated("2024-01-01T00:00:00Z", How::Commit),
        ),
    ];
    let by_source = vec![
        (
            "docs/intro.md".to_string(),
            dated("2024-02-02T00:00:00Z", How::Commit),
        ),
        (
            "guide/index.rst".to_string(),
            dated("2024-03-03T00:00:00Z", How::Key),
        ),
    ];
    let dates = SourceDates {
        pages: newest::ByPath::new(rows(pages).sorted(|_| true, Mapped::twice), Mapped::date),
        deepest: 2,
        by_source: rows(by_source).sorted(|_| true, |_| {}),
        undated: vec!["content/new.md".into()],
        ..SourceDates::default()
    };
    let link = |href: &str| dates.get_by_link(href).map(|(t, _)| t.to_string());
    let intro = Some("2024-02-02T00:00:00Z".to_string());
    assert_eq!(
        link("https://github.com/o/r/edit/main/docs/intro.md"),
        intro
    );
    assert_eq!(
        link("https://github.com/o/r/edit/main/website/docs/intro.md#x"),
        intro
    );
    assert_eq!(
        link("https://gitlab.com/o/r/-/edit/dev/docs/intro.md"),
        intro
    );
    assert_eq!(
        link("../_sources/guide/index.rst.txt"),
        Some("2024-03-03T00:00:00Z".to_string())
    );
    assert_eq!(link("https://github.com/o/r/edit/main/docs/other.md"), None);
    assert_eq!(link("https://github.com/o/r/blob/main/docs/intro.md"), None);
    let get = |p: &str| dates.get(Path::new(p));
    assert_eq!(
        get("blog/b/index.html"),
        Ok((ts("2024-06-01T00:00:00Z"), How::Key))
    );
    assert_eq!(
        get("docs/index.html"),
        Ok((ts("2023-01-01T00:00:00Z"), How::Commit))
    );
    assert_eq!(
        get("blog/index.html"),
        Ok((ts("2024-06-01T00:00:00Z"), How::Below))
    );
    assert_eq!(
        get("index.html"),
        Ok((ts("2025-01-01T00:00:00Z"), How::Below))
    );
    assert_eq!(get("blog/page/2/index.html"), Err(Miss::NoSource));
    assert_eq!(get("blog/other.html"), Err(Miss::NoSource));
    assert_eq!(
        get("new.html"),
        Err(Miss::Uncommitted("content/new.md".into()))
    );
    assert_eq!(get("twice.html"), Err(Miss::Ambiguous));
}

/// Read from a project on disk: drafts and templates date nothing, a source two routes
/// claim dates neither, and a missing content directory is said.
#[test]
fn a_project_is_read_from_its_content_directories() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("content/a.md", "+++\nlastmod = 2024-05-06T07:08:09Z\n+++\n");
    write(
        "content/draft.md",
        "+++\ndraft = true\nlastmod = 2030-01-01\n+++\n",
    );
    write(
        "content/x.md",
        "+++\nurl = '/same/'\nlastmod = 2024-01-01\n+++\n",
    );
    write(
        "content/y.md",
        "+++\nurl = '/same/'\nlastmod = 2024-01-02\n+++\n",
    );
    write("content/bad.md", "+++\nlastmod = 'soon'\n+++\n");
    write("public/index.html", "<title>x</title>");
    let settings = SourceSettings {
        generator: Some(&crate::generators::HUGO),
        routes: Vec::new(),
        project: dir.path().to_path_buf(),
        content: vec!["content".into()],
        updated: keys(&["lastmod"]),
        permalink: None,
        default_language: None,
        public_dir: dir.path().join("public"),
        within: String::new(),
        threads: 2,
    };
    let repository = crate::lastmod::git::Repository::find(&settings.project);
    let dates = read(&settings, repository).unwrap();
    assert_eq!(
        dates.get(Path::new("a/index.html")),
        Ok((ts("2024-05-06T07:08:09Z"), How::Key))
    );
    assert_eq!(
        dates.get(Path::new("draft/index.html")),
        Err(Miss::NoSource)
    );
    assert_eq!(
        dates.get(Path::new("same/index.html")),
        Err(Miss::Ambiguous)
    );
    assert_eq!(
        dates.get(Path::new("index.html")),
        Ok((ts("2024-05-06T07:08:09Z"), How::Below))
    );
    assert_eq!(
        dates.unparseable,
        [(
            std::path::PathBuf::from("content/bad.md"),
            "soon".to_string()
        )]
    );
    assert!(
        matches!(dates.git_error, Some(GitUnavailable::NotAWorkTree { .. })),
        "{:?}",
        dates.git_error
    );
    let missing = SourceSettings {
        content: vec!["nowhere".into()],
        ..settings
    };
    let err = read(&missing, Err(GitUnavailable::NoGit)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "lastmod source \"source\": no content directory found (nowhere); set [source] content to where the pages' sources are"
    );
    let _ = FrontMatter::default();
}

/// The files whose history is wanted are at least those the walk can find.
#[test]
fn the_history_wanted_covers_what_the_walk_finds() {
    for (rel, walked) in [
        ("a.md", true),
        ("posts/2024/a.md", true),
        ("posts/build.md", true),
        (".hidden.md", false),
        ("posts/.drafts/a.md", false),
        ("node_modules/x/readme.md", false),
        ("docs/public/a.md", false),
    ] {
        assert_eq!(super::walk::may_be_walked(Path::new(rel)), walked, "{rel}");
    }
}

/// A walker that asks git for a source waits until `status` has run, and is released
/// however the git thread ends.
#[test]
fn a_walker_waits_for_git_and_is_released_however_git_ends() {
    let git = Git::default();
    std::thread::scope(|s| {
        let walker = s.spawn(|| git.clean(Path::new("content"), Path::new("a.md")).is_none());
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!walker.is_finished(), "it waits for git");
        drop(GitDone(&git));
        assert!(walker.join().unwrap());
    });
}
