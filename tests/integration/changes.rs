//! The change list: what was added, updated and removed since the previous run, through
//! the real binary.

use std::fs;

use predicates::prelude::*;

use crate::util::Site;

const CONFIG: &str = "base_url = 'https://example.org/'\nchanges = true\nlastmod = ['mtime']\n";

/// A page as a generator writes it: the asset names carry a build hash, the body a
/// paragraph.
fn page(site: &Site, rel: &str, build: &str, text: &str) {
    let html = format!(
        "<!doctype html><html><head><title>{rel}</title><link rel=stylesheet href=\"/main.{build}.css\">\
         <script src=\"/app.{build}.js\"></script></head><body><main><h1>{rel}</h1><p>{text}</p>\
         <img src=\"/img/photo.{build}.jpg\" alt=\"photo\"></main></body></html>\n"
    );
    let path = site.public().join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, html).unwrap();
}

fn change_list(site: &Site) -> serde_json::Value {
    let text = fs::read_to_string(site.root().join(".sitemap-changes.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn list(value: &serde_json::Value, key: &str) -> Vec<String> {
    value[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// A rebuild where every mtime and asset hash is new, one paragraph changed, one page
/// added and one removed lists exactly those three, in the summary, the JSON, `-v` and
/// the change list file; the first run lists nothing, or everything with --all-changed.
#[test]
fn a_rebuild_lists_exactly_what_changed() {
    let site = Site::new(&[]);
    site.config(CONFIG);
    for rel in ["index.html", "a.html", "b.html", "gone.html"] {
        page(&site, rel, "3f2a9c1b", "The same words.");
    }
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "first run: no previous state, nothing listed as changed",
        ));
    let first = change_list(&site);
    assert_eq!(first["first_run"], true);
    assert_eq!(first["base_url"], "https://example.org/");
    assert!(list(&first, "added").is_empty() && list(&first, "updated").is_empty());

    // The rebuild: new hashes and mtimes everywhere, one paragraph changed, b.html kept.
    for rel in ["index.html", "a.html"] {
        page(&site, rel, "9d8e7f6a", "The same words.");
    }
    page(&site, "b.html", "9d8e7f6a", "Other words.");
    page(&site, "new.html", "9d8e7f6a", "New words.");
    fs::remove_file(site.public().join("gone.html")).unwrap();
    site.set_all_mtimes(1_800_000_000);
    let out = site.cmd().args(["-v", "--json"]).output().unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = &json["changes"];
    assert_eq!(list(changes, "added"), ["https://example.org/new.html"]);
    assert_eq!(list(changes, "updated"), ["https://example.org/b.html"]);
    assert_eq!(list(changes, "removed"), ["https://example.org/gone.html"]);
    let file = change_list(&site);
    assert_eq!(file["first_run"], false);
    for key in ["added", "updated", "removed"] {
        assert_eq!(list(&file, key), list(changes, key), "{key}");
    }
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains("0 added, 0 updated, 0 removed"));

    // --all-changed on a first run lists every URL as added.
    fs::remove_file(site.root().join(".sitemap-state.json")).unwrap();
    site.cmd()
        .args(["-v", "--all-changed"])
        .assert()
        .success()
        .stderr(predicate::str::contains("4 added, 0 updated, 0 removed"))
        .stderr(predicate::str::contains(
            "added https://example.org/new.html",
        ));
}

/// `changes = false` beside the "content" source, which always keeps the state, is a
/// contradiction named as such.
#[test]
fn changes_false_with_the_content_source_is_refused() {
    let site = Site::new(&["index.html"]);
    site.config("base_url = 'https://example.org/'\nchanges = false\nlastmod = ['content']\n");
    site.cmd().assert().code(2).stderr(predicate::str::contains(
        "changes: is false, but the \"content\" lastmod source",
    ));
}

/// With sections, the sitemap's entries go section by section; the state file still
/// lists every page once, in URL order, and a change in one section is found there.
#[test]
fn sections_keep_the_state_whole_and_in_order() {
    let site = Site::new(&[]);
    site.config(&format!(
        "{CONFIG}[[section]]\nname = 'z-last'\nmatch = ['a/**']\n[[section]]\nname = 'docs'\nmatch = ['docs/**']\n"
    ));
    let pages = [
        "index.html",
        "a/x.html",
        "a/y.html",
        "b.html",
        "docs/d.html",
        "z.html",
    ];
    for rel in pages {
        page(&site, rel, "3f2a9c1b", "The same words.");
    }
    let long = "The same words. ".repeat(3000);
    page(&site, "b.html", "3f2a9c1b", &long);
    site.cmd().assert().success();
    let state = fs::read_to_string(site.root().join(".sitemap-state.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let urls: Vec<&String> = state["pages"].as_object().unwrap().keys().collect();
    let expected = [
        "https://example.org/",
        "https://example.org/a/x.html",
        "https://example.org/a/y.html",
        "https://example.org/b.html",
        "https://example.org/docs/d.html",
        "https://example.org/z.html",
    ];
    assert_eq!(urls, expected);
    let raw = fs::read_to_string(site.root().join(".sitemap-state.json")).unwrap();
    let at = |url: &str| raw.find(&format!("\"{url}\"")).unwrap();
    assert!(expected.windows(2).all(|w| at(w[0]) < at(w[1])), "{raw}");

    // A page past the head reader's first read (16 KiB) is read again from the file; the
    // others are fingerprinted from what the head reader holds.
    page(
        &site,
        "docs/d.html",
        "99ffee00",
        &"Other words. ".repeat(3000),
    );
    page(&site, "z.html", "99ffee00", "The same words.");
    page(&site, "b.html", "99ffee00", &long);
    fs::remove_file(site.public().join("a/x.html")).unwrap();
    site.cmd().assert().success();
    let changes = change_list(&site);
    assert_eq!(
        list(&changes, "updated"),
        ["https://example.org/docs/d.html"]
    );
    assert_eq!(list(&changes, "removed"), ["https://example.org/a/x.html"]);
    assert!(list(&changes, "added").is_empty());
}
