use std::fs;

use super::*;
use crate::config::Overrides;

fn site(files: &[&str]) -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    for file in files {
        let path = public.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "<title>x</title>").unwrap();
    }
    let overrides = Overrides {
        public_dir: Some(public),
        base_url: Some("https://example.org/docs/".to_string()),
        ..Overrides::default()
    };
    let config = Config::load(None, &overrides).unwrap();
    (dir, config)
}

#[test]
fn paths_and_urls_resolve_to_the_file_a_static_host_serves() {
    let (dir, config) = site(&["index.html", "a.html", "b/index.html", "c.pdf", "d e.html"]);
    let public = dir.path().join("public");
    let table: &[(String, Result<&str, &str>)] = &[
        ("https://example.org/docs/".into(), Ok("index.html")),
        ("https://example.org/docs".into(), Ok("index.html")),
        ("https://example.org/docs/a".into(), Ok("a.html")),
        ("https://example.org/docs/a.html?x=1#y".into(), Ok("a.html")),
        ("https://example.org/docs/b/".into(), Ok("b/index.html")),
        ("https://example.org/docs/b".into(), Ok("b/index.html")),
        ("https://example.org/docs/d%20e.html".into(), Ok("d e.html")),
        ("https://example.org/docs/c.pdf".into(), Ok("c.pdf")),
        ("https://example.org/docs/../etc/passwd".into(), Err("'..'")),
        (
            "https://example.org/other/".into(),
            Err("not under the base URL"),
        ),
        (
            "https://example.org/docs/nope".into(),
            Err("no file of the site"),
        ),
        ("a.html".into(), Ok("a.html")),
        ("b/index.html".into(), Ok("b/index.html")),
        (
            public.join("b/index.html").display().to_string(),
            Ok("b/index.html"),
        ),
        (
            dir.path().display().to_string(),
            Err("not in the site's folder"),
        ),
        ("missing.html".into(), Err("no such file")),
    ];
    for (arg, want) in table {
        let got = resolve(&config, arg);
        match (want, &got) {
            (Ok(rel), Ok(path)) => assert_eq!(path, Path::new(rel), "{arg}"),
            (Err(part), Err(why)) => assert!(why.contains(part), "{arg}: {why}"),
            _ => panic!("{arg}: {got:?}, wanted {want:?}"),
        }
    }
}

/// A URL finds the file the canonical guard finds ([`crate::urls::SitePath`]): `/h` a
/// folder's `index.htm`, `/m/` the page `m.htm`, and `/both` `both.html` before the
/// folder `both/`, as the hosts serve them.
#[test]
fn urls_resolve_to_the_files_the_canonical_guard_finds() {
    let (_dir, config) = site(&["both.html", "both/index.html", "h/index.htm", "m.htm"]);
    let table = [
        ("both", "both.html"),
        ("both/", "both/index.html"),
        ("h", "h/index.htm"),
        ("m/", "m.htm"),
    ];
    for (rest, want) in table {
        let got = resolve(&config, &format!("https://example.org/docs/{rest}"));
        assert_eq!(got.as_deref(), Ok(Path::new(want)), "{rest}");
    }
}

#[test]
fn each_page_is_explained_from_the_collection() {
    let (dir, config) = site(&["index.html", "a.html", "c.pdf"]);
    fs::write(
        dir.path().join("public/n.html"),
        "<meta name=robots content=noindex>",
    )
    .unwrap();
    let collection = crate::collect(&config, crate::Details::Keep).unwrap();
    let asked = ["a.html", "n.html", "c.pdf", "https://example.org/docs/zz"].map(String::from);
    let answers = explain(&config, &collection, &asked);
    match &answers[0].verdict {
        Verdict::Listed(listed) => {
            assert_eq!(listed.loc, "https://example.org/docs/a.html");
            assert_eq!(listed.dated_by, Some(LastmodSource::Mtime));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(answers[1].verdict, Verdict::LeftOut(LeftOut::Noindex));
    assert_eq!(answers[2].verdict, Verdict::Skipped(SkipReason::Extension));
    assert!(matches!(&answers[3].verdict, Verdict::NotFound(_)));
    assert_eq!(answers[3].path, None);
}
