//! Named sections (`[[section]]`): each section's pages in child sitemaps of their own,
//! through the real binary on temporary sites.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::util::{Site, locs, validate_set};

const SECTIONS: &str = r#"base_url = "https://example.org/"
[[section]]
name = "blog"
match = ["blog/**", "news/*.html"]

[[section]]
name = "docs"
match = "docs/**"

[[section]]
name = "news"
match = ["news/**", "products/**"]
"#;

fn name_of(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The section of a child named `sitemap-{section}-{n}-{hash}.xml` (`""` for
/// `sitemap-{n}-{hash}.xml`), and `n`.
fn section_and_position(name: &str) -> (String, usize) {
    let rest = name
        .strip_prefix("sitemap-")
        .unwrap()
        .strip_suffix(".xml")
        .unwrap();
    let (before, hash) = rest.rsplit_once('-').unwrap();
    assert!(
        hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{name}"
    );
    match before.rsplit_once('-') {
        Some((section, n)) => (section.to_string(), n.parse().unwrap()),
        None => (String::new(), before.parse().unwrap()),
    }
}

/// The (section, position) of each child, from its name.
fn shapes(children: &[PathBuf]) -> Vec<(String, usize)> {
    children
        .iter()
        .map(|c| section_and_position(&name_of(c)))
        .collect()
}

fn want_shapes(want: &[(&str, usize)]) -> Vec<(String, usize)> {
    want.iter().map(|(s, n)| (s.to_string(), *n)).collect()
}

fn urls(paths: &[&str]) -> Vec<String> {
    paths
        .iter()
        .map(|p| format!("https://example.org/{p}"))
        .collect()
}

/// Each section's pages go to its own children, first matching section first, the rest
/// to the unnamed children; the index lists the sections in file order, then the rest;
/// everything validates and `check` agrees; summary and JSON count URLs per section.
#[test]
fn each_section_gets_children_of_its_own() {
    let site = Site::new(&[
        "index.html",
        "about/index.html",
        "blog/index.html",
        "blog/2024/first/index.html",
        "docs/index.html",
        "docs/guide/setup.html",
        "news/one.html",
        "news/deep/two.html",
        "blogroll/index.html",
    ]);
    site.config(SECTIONS);
    site.cmd()
        .args(["build"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "sections: blog 3, docs 2, news 1, no section 3",
        ));
    let children = validate_set(&site.public().join("sitemap.xml"));
    assert_eq!(
        shapes(&children),
        want_shapes(&[("blog", 1), ("docs", 1), ("news", 1), ("", 1)])
    );
    let held: Vec<Vec<String>> = children.iter().map(|c| locs(c)).collect();
    assert_eq!(
        held,
        [
            urls(&["blog/", "blog/2024/first/", "news/one.html"]),
            urls(&["docs/", "docs/guide/setup.html"]),
            urls(&["news/deep/two.html"]),
            urls(&["", "about/", "blogroll/"]),
        ]
    );
    site.cmd()
        .args(["check", "public", "--strict"])
        .assert()
        .success();

    let out = site.cmd().args(["build", "--json"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["sections"],
        serde_json::json!([
            {"name": "blog", "urls": 3},
            {"name": "docs", "urls": 2},
            {"name": "news", "urls": 1},
            {"name": null, "urls": 3},
        ])
    );
    assert_eq!(json["index"], true);
}

/// With any section the output is an index, even for one page; a section no page
/// belongs to gets no child and a warning naming it.
#[test]
fn a_small_site_with_sections_still_gets_an_index() {
    let site = Site::new(&["index.html"]);
    site.config(SECTIONS);
    site.cmd()
        .arg("build")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: section 'blog' holds no page (match = [\"blog/**\", \"news/*.html\"])",
        ))
        .stderr(predicate::str::contains("section 'docs' holds no page"));
    let children = validate_set(&site.public().join("sitemap.xml"));
    assert_eq!(children.len(), 1);
    assert_eq!(section_and_position(&name_of(&children[0])).0, "");
    assert_eq!(locs(&children[0]), urls(&[""]));
}

/// A 25-page section splits at `max_urls_per_file` (10) into three children named after
/// it, numbered from 1; the pages in no section still start at 1. (The default split at
/// the protocol's 50,000 is `config::tests::defaults_apply_when_keys_are_absent`.)
#[test]
fn a_big_section_splits_into_numbered_children_of_its_name() {
    let site = Site::new(&["index.html", "about.html"]);
    let blog = site.public().join("blog");
    for d in 0..5 {
        let dir = blog.join(format!("d{d:03}"));
        fs::create_dir_all(&dir).unwrap();
        for p in 0..5 {
            fs::write(dir.join(format!("p{p:04}.html")), "<title>t</title>").unwrap();
        }
    }
    site.config(
        "base_url = 'https://example.org/'\nlastmod = []\nmax_urls_per_file = 10\n[[section]]\nname = 'blog'\nmatch = 'blog/**'\n",
    );
    site.cmd()
        .arg("build")
        .assert()
        .success()
        .stderr(predicate::str::contains("sections: blog 25, no section 2"));
    let children = validate_set(&site.public().join("sitemap.xml"));
    assert_eq!(
        shapes(&children),
        want_shapes(&[("blog", 1), ("blog", 2), ("blog", 3), ("", 1)])
    );
    let counts: Vec<usize> = children.iter().map(|c| locs(c).len()).collect();
    assert_eq!(counts, [10, 10, 5, 2]);
    let first = locs(&children[0]);
    assert_eq!(first[0], "https://example.org/blog/d000/p0000.html");
    assert!(
        first
            .iter()
            .all(|l| l.starts_with("https://example.org/blog/"))
    );
}

fn sitemap_files(site: &Site) -> Vec<String> {
    site.listing()
        .into_iter()
        .filter(|n| n.starts_with("sitemap"))
        .collect()
}

/// Dropping or renaming a section removes its children; the children of another
/// output whose name extends this one's (`sitemap-news.xml`), and a hand-written file of
/// a section's shape, stay.
#[test]
fn children_of_sections_no_longer_there_are_removed() {
    let site = Site::new(&["index.html", "blog/a.html", "docs/b.html"]);
    site.config(SECTIONS);
    site.cmd().arg("build").assert().success();
    let before = sitemap_files(&site);
    assert_eq!(before.len(), 4, "{before:?}");
    // Another output, `sitemap-news.xml`, whose children look like a section "news"...
    site.cmd()
        .args(["build", "-o", "public/sitemap-news.xml"])
        .assert()
        .success();
    let news: Vec<String> = sitemap_files(&site)
        .into_iter()
        .filter(|n| !before.contains(n))
        .collect();
    assert!(
        news.iter().any(|n| n.starts_with("sitemap-news-blog-1-")),
        "{news:?}"
    );
    // ... and a hand-written file shaped like a child of a section "mine".
    let mine = site.public().join("sitemap-mine-1-0123456789ab.xml");
    fs::copy(site.public().join(&before[0]), &mine).unwrap();

    site.config(
        "base_url = 'https://example.org/'\n[[section]]\nname = 'posts'\nmatch = 'blog/**'\n",
    );
    site.cmd().arg("build").assert().success();
    let children = validate_set(&site.public().join("sitemap.xml"));
    let names: Vec<String> = children.iter().map(|c| name_of(c)).collect();
    assert!(names[0].starts_with("sitemap-posts-1-"), "{names:?}");
    assert!(names[1].starts_with("sitemap-1-"), "{names:?}");
    let mut want: Vec<String> = names.clone();
    want.extend(news.iter().cloned());
    want.push(name_of(&mine));
    want.push("sitemap.xml".to_string());
    want.sort();
    assert_eq!(sitemap_files(&site), want);

    site.config("base_url = 'https://example.org/'\n");
    site.cmd().arg("build").assert().success();
    assert!(validate_set(&site.public().join("sitemap.xml")).is_empty());
    let mut want: Vec<String> = news.clone();
    want.push(name_of(&mine));
    want.push("sitemap.xml".to_string());
    want.sort();
    assert_eq!(sitemap_files(&site), want);
}

/// Bad sections are refused before anything is written: exit 2, one line naming the
/// config file, the key and the value, and what to write instead.
#[test]
fn bad_sections_are_refused_with_the_key_and_a_fix() {
    let base = "base_url = 'https://example.org/'\n";
    let section =
        |name: &str, globs: &str| format!("[[section]]\nname = {name}\nmatch = {globs}\n");
    let table: Vec<(String, Vec<&str>, &str)> = vec![
        (
            section("'Blog'", "'blog/**'"),
            vec![],
            "[[section]] #1 name: 'Blog' may hold only lowercase letters a-z, digits and '-'; name it like \"blog\"",
        ),
        (
            section("''", "'blog/**'"),
            vec![],
            "[[section]] #1 name: '' is empty",
        ),
        (
            section("'-x'", "'blog/**'"),
            vec![],
            "may not start or end with '-'",
        ),
        (
            section("'blog'", "'blog/**'") + &section("'blog'", "'b/**'"),
            vec![],
            "[[section]] #2 name: 'blog' names an earlier section too",
        ),
        (
            section("'blog'", "[]"),
            vec![],
            "[[section]] #1 match: is an empty list",
        ),
        (
            section("'blog'", "'blog/[z-a]'"),
            vec![],
            "invalid glob 'blog/[z-a]' in [[section]] #1",
        ),
        (
            "[[section]]\nname = 'blog'\n".to_string(),
            vec![],
            "missing field `match`",
        ),
        (
            section("'blog'", "'blog/**'") + "colour = 'red'\n",
            vec![],
            "unknown field `colour`",
        ),
        (
            section("'blog'", "'blog/**'"),
            vec!["--format", "txt"],
            "text sitemaps have no index",
        ),
        (
            section("'blog'", "'blog/**'"),
            vec!["-o", "-"],
            "cannot go to standard output",
        ),
    ];
    for (config, flags, want) in table {
        let site = Site::new(&["index.html", "blog/a.html"]);
        site.config(&format!("{base}{config}"));
        site.cmd()
            .arg("build")
            .args(&flags)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want))
            .stderr(predicate::str::contains("sitemap.toml"))
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
        let written: Vec<PathBuf> = fs::read_dir(site.public())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| name_of(p).starts_with("sitemap"))
            .collect();
        assert!(written.is_empty(), "{config}: {written:?}");
    }
}
