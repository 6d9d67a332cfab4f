//! `sitemapgen explain`: each page's verdict, from the build's own decisions.

use std::fs;

use predicates::str::contains;

use crate::util::{Site, dated_project};

#[test]
fn each_reason_a_page_is_left_out_is_explained_with_its_file_and_line() {
    let site = Site::new(&[
        "index.html",
        "a.html",
        "drafts/d.html",
        "old/o.html",
        "ex/e.html",
    ]);
    fs::write(site.page("n.html"), "<meta name=robots content=noindex>").unwrap();
    fs::write(
        site.page("c.html"),
        "<link rel=canonical href=https://example.org/a.html>",
    )
    .unwrap();
    fs::write(
        site.public().join("_headers"),
        "/drafts/*\n  X-Robots-Tag: noindex\n",
    )
    .unwrap();
    fs::write(
        site.public().join("_redirects"),
        "/old/*  /new/:splat  301!\n",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nexclude = ['ex/**']\n");
    let answers = [
        ("a.html", "  listed:    https://example.org/a.html\n"),
        ("n.html", "  left out:  noindex (robots meta tag)\n"),
        (
            "c.html",
            "  left out:  canonical elsewhere (https://example.org/a.html)\n",
        ),
        (
            "https://example.org/drafts/d.html",
            "  left out:  noindex (host headers: public/_headers:2)\n",
        ),
        (
            "public/old/o.html",
            "  left out:  redirected (public/_redirects:1)\n",
        ),
        ("ex/e.html", "  left out:  excluded by"),
        ("_headers", "  not a page: not a page extension\n"),
    ];
    for (asked, answer) in answers {
        site.cmd()
            .args(["explain", asked])
            .assert()
            .success()
            .stdout(contains(answer));
    }
    // Several at once, as JSON; one naming no page makes the exit code 2.
    let out = site
        .cmd()
        .args(["explain", "--json", "a.html", "https://example.org/nope"])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json[0]["status"], "listed");
    assert_eq!(json[0]["loc"], "https://example.org/a.html");
    assert_eq!(json[1]["status"], "not_found");
}

#[test]
fn a_listed_pages_date_names_its_source_and_the_sources_that_gave_none() {
    if !crate::tools::GIT.present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = dated_project("hugo", "public", tmp.path());
    let explain = |page: &str| {
        let out = crate::util::bin()
            .current_dir(&project)
            .args(["explain", page])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    // Dated by its source's last commit (truth.tsv: content/contact.md).
    let contact = explain("https://hugo-dates.example.org/contact/");
    assert!(
        contact.contains("  lastmod:   2025-06-30T08:00:00Z, from \"source\"\n"),
        "{contact}"
    );
    assert!(
        contact.contains("  source:    content/contact.md, found by its route\n"),
        "{contact}"
    );
    assert!(
        contact.contains("  dated by:  the last commit that touched it\n"),
        "{contact}"
    );
    // A page with no source of its own and none below it: why, and that none dated it.
    fs::create_dir_all(project.join("public/extra")).unwrap();
    fs::write(
        project.join("public/extra/index.html"),
        "<title>Extra</title>",
    )
    .unwrap();
    let extra = explain("public/extra/index.html");
    assert!(
        extra.contains("  lastmod:   none, no source dated it\n"),
        "{extra}"
    );
    assert!(extra.contains("  not from:  \"source\": "), "{extra}");
}

#[test]
fn a_page_robots_txt_blocks_is_explained_with_the_line_that_blocks_it() {
    let site = Site::new(&["index.html", "private/p.html"]);
    fs::write(
        site.public().join("robots.txt"),
        "User-agent: *\nDisallow: /priv\n# the most specific rule that matches is named\nDisallow: /private/*.html$\n",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["explain", "private/p.html"])
        .assert()
        .success()
        .stdout(contains(
            "  left out:  blocked by robots.txt\n  rule:      public/robots.txt:4: Disallow: /private/*.html$\n",
        ));
}

/// A generator of the project's own (`tests/fixtures/dates/notes-hashed`): a note is
/// dated by the source whose text it holds, its key named; a listing names the source it
/// shows and the page that is that source's.
#[test]
fn a_page_matched_by_its_text_names_its_source_and_score() {
    if !crate::tools::GIT.present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let project = dated_project("notes-hashed", "public", tmp.path());
    let out = crate::util::bin()
        .current_dir(&project)
        .args(["explain", "--json"])
        .args([
            "public/a-checklist-for-on-call-handover/index.html",
            "public/index.html",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let note = &json[0];
    assert_eq!(note["source"]["found"], "text", "{note}");
    assert!(note["source"]["score"].as_f64().unwrap() >= 0.5, "{note}");
    let file = note["source"]["file"].as_str().unwrap();
    assert!(file.starts_with("notes/"), "{note}");
    assert_eq!(
        note["source"]["dated_by"], "its front-matter key updated = 2024-08-30T07:00:00Z",
        "{note}"
    );
    let home = &json[1];
    assert_eq!(home["lastmod"], serde_json::Value::Null, "{home}");
    let why = home["not_from"][0]["why"].as_str().unwrap();
    assert!(why.contains("a listing"), "{why}");
}

/// A URL path is resolved against base_url; a folder is its index page, else a folder
/// with the count of pages under it (exit 2: it names no page), never a URL without its
/// slash.
#[test]
fn url_paths_and_folders_are_explained() {
    let site = Site::new(&[
        "index.html",
        "about/index.html",
        "private/a.html",
        "private/b.html",
    ]);
    fs::write(
        site.page("private/n.html"),
        "<meta name=robots content=noindex>",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\n");
    for asked in ["/about/", "/about", "public/about/", "about"] {
        site.cmd()
            .args(["explain", asked])
            .assert()
            .success()
            .stdout(contains("  listed:    https://example.org/about/\n"));
    }
    site.cmd()
        .args(["explain", "/"])
        .assert()
        .success()
        .stdout(contains("  listed:    https://example.org/\n"));
    let folder = "public/private/\n  url:       https://example.org/private/\n  folder:    a folder with no index page; 3 pages under it (1 left out): explain each by its path\n";
    for asked in [
        "public/private/",
        "private",
        "/private/",
        "https://example.org/private",
    ] {
        site.cmd()
            .args(["explain", asked])
            .assert()
            .code(2)
            .stdout(folder);
    }
    site.cmd()
        .args(["explain", "/nope/"])
        .assert()
        .code(2)
        .stdout(contains(
            "  not found: no file of the site is served at https://example.org/nope/\n",
        ));
}
