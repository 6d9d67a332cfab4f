//! `documents = ["pdf"]`: files listed as they are, by the same rules and dates as pages.

use std::fs;

use predicates::str::contains;

use crate::lastmod::git;
use crate::util::{Site, locs, validate_set};

#[test]
fn documents_are_listed_by_name_and_left_out_by_rules_robots_and_host() {
    let site = Site::new(&["index.html", "about.html"]);
    for doc in [
        "papers/a.pdf",
        "papers/B.PDF",
        "private/c.pdf",
        "drafts/d.pdf",
        "old/x.pdf",
        "café ü.pdf",
        "notes.txt",
    ] {
        let path = site.public().join(doc);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "%PDF-1.4\n%%EOF\n").unwrap();
    }
    fs::write(
        site.public().join("robots.txt"),
        "User-agent: *\nDisallow: /private/\n",
    )
    .unwrap();
    fs::write(
        site.public().join("_headers"),
        "/drafts/*\n  X-Robots-Tag: noindex\n",
    )
    .unwrap();
    let config = "base_url = 'https://example.org/'\npublic_dir = 'public'\nclean_urls = true\nexclude = ['old/**']\n";
    site.config(&format!("{config}documents = ['pdf']\n"));
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(contains("private/c.pdf: blocked by robots.txt"))
        .stderr(contains(
            "drafts/d.pdf: noindex (host headers: public/_headers:2)",
        ));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/about",
            "https://example.org/caf%C3%A9%20%C3%BC.pdf",
            "https://example.org/papers/B.PDF",
            "https://example.org/papers/a.pdf",
        ]
    );
    validate_set(&site.public().join("sitemap.xml"));
    // Without the key, no document is listed; a page extension is refused as one.
    site.config(config);
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), 2);
    site.config(&format!("{config}documents = ['html']\n"));
    site.cmd()
        .args(["build"])
        .assert()
        .code(2)
        .stderr(contains("documents: 'html' is a page extension"));
}

#[test]
fn a_document_is_dated_by_its_source_in_the_repository() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    let root = site.root();
    fs::create_dir_all(root.join("static/papers")).unwrap();
    fs::create_dir_all(root.join("content")).unwrap();
    fs::write(root.join("static/papers/a.pdf"), "%PDF-1.4\n").unwrap();
    // Two files the site's b.pdf could be a copy of: neither dates it.
    fs::create_dir_all(root.join("other")).unwrap();
    fs::write(root.join("static/b.pdf"), "%PDF-1.4\n").unwrap();
    fs::write(root.join("other/b.pdf"), "%PDF-1.4\n").unwrap();
    fs::write(root.join("content/_index.md"), "---\ntitle: Home\n---\n").unwrap();
    fs::write(root.join("hugo.toml"), "baseURL = 'https://example.org/'\n").unwrap();
    fs::write(root.join(".gitignore"), "public/\n").unwrap();
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "papers"], "2024-03-04T05:06:07Z");
    // The build copies it into the site, with a new mtime.
    fs::create_dir_all(site.public().join("papers")).unwrap();
    fs::copy(
        root.join("static/papers/a.pdf"),
        site.public().join("papers/a.pdf"),
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\ndocuments = ['pdf']\nlastmod = ['source', 'mtime']\n[source]\ngenerator = 'hugo'\n");
    site.cmd().args(["build", "-q"]).assert().success();
    let xml = site.read("sitemap.xml");
    assert!(xml.contains(
            "<loc>https://example.org/papers/a.pdf</loc>\n    <lastmod>2024-03-04T05:06:07+00:00</lastmod>"
        ), "{xml}");
    site.cmd()
        .args(["explain", "public/papers/a.pdf"])
        .assert()
        .success()
        .stdout(contains(
            "  lastmod:   2024-03-04T05:06:07Z, from \"source\"\n",
        ));
}

#[test]
fn a_real_site_of_papers_lists_its_pdfs_dated_by_their_sources() {
    if !crate::tools::GIT.present() {
        return;
    }
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/documents");
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    crate::util::copy_tree(&fixture.join("source"), &project);
    fs::write(project.join(".gitignore"), "public/\n").unwrap();
    git(&project, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(&project, &["add", "."], "2020-01-01T00:00:00Z");
    git(
        &project,
        &["commit", "-qm", "papers"],
        "2024-06-07T08:09:10Z",
    );
    crate::util::copy_tree(&fixture.join("public"), &project.join("public"));
    fs::write(
        project.join("sitemap.toml"),
        "base_url = 'https://papers.example.org/'\npublic_dir = 'public'\ndocuments = ['pdf']\nlastmod = ['source', 'mtime']\n[source]\ngenerator = 'hugo'\n",
    )
    .unwrap();
    crate::util::bin()
        .current_dir(&project)
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(contains(
            "left out public/internal/budget.pdf: blocked by robots.txt",
        ));
    let sitemap = project.join("public/sitemap.xml");
    let want: Vec<String> = fs::read_to_string(fixture.join("expected-urls.txt"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(locs(&sitemap), want);
    validate_set(&sitemap);
    // Every entry, PDFs too, dated by its source's commit.
    let xml = fs::read_to_string(&sitemap).unwrap();
    assert_eq!(
        xml.matches("<lastmod>2024-06-07T08:09:10+00:00</lastmod>")
            .count(),
        want.len(),
        "{xml}"
    );
    // init offers the key for such a site.
    fs::remove_file(project.join("sitemap.toml")).unwrap();
    crate::util::bin()
        .current_dir(&project)
        .arg("init")
        .assert()
        .success();
    let written = fs::read_to_string(project.join("sitemap.toml")).unwrap();
    assert!(written.contains("\n# documents = [\"pdf\"]\n"), "{written}");
}
