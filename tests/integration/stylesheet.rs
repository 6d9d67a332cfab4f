//! `stylesheet`: an `<?xml-stylesheet?>` in every file written, and the bundled XSL
//! written into the site, through the real binary on temporary sites. (How a browser
//! renders it is tests/stylesheet.sh's part, in headless Chromium.)

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{PermissionsExt, symlink};

use predicates::prelude::*;

use crate::util::{Site, validate_set};

const PI: &str = "<?xml-stylesheet type=\"text/xsl\" href=\"/sitemap.xsl\"?>\n";

fn sitemap_files(site: &Site) -> Vec<String> {
    site.listing()
        .into_iter()
        .filter(|n| n.starts_with("sitemap") && n.ends_with(".xml"))
        .collect()
}

/// Every file of a split set, index and children, carries the link right after the
/// declaration, and still validates; `check` accepts them; without `stylesheet` none
/// does and no XSL is written.
#[test]
fn every_file_written_links_the_stylesheet() {
    let pages: Vec<String> = (0..5).map(|i| format!("p{i}.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.config(
        "base_url = 'https://example.org/'\nmax_urls_per_file = 2\nstylesheet = '/sitemap.xsl'\n",
    );
    site.cmd().assert().success();
    let files = sitemap_files(&site);
    assert_eq!(files.len(), 4, "{files:?}");
    for name in &files {
        let xml = site.read(name);
        assert!(
            xml.starts_with(&format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{PI}")),
            "{name}: {xml}"
        );
    }
    assert_eq!(validate_set(&site.public().join("sitemap.xml")).len(), 3);
    site.cmd()
        .args(["check", "public", "--strict"])
        .assert()
        .success();
    assert!(!site.public().join("sitemap.xsl").exists());

    site.config("base_url = 'https://example.org/'\nmax_urls_per_file = 2\n");
    site.cmd().assert().success();
    for name in sitemap_files(&site) {
        assert!(!site.read(&name).contains("xml-stylesheet"), "{name}");
    }
}

/// `"default"` writes the bundled XSL (well-formed, with the umask's mode) before the
/// sitemap, links it by its path on the site (the base URL's path included), reports
/// it in the JSON, and leaves an identical file untouched; a URL with `&` is escaped.
// Unix only: Unix permission bits.
#[cfg(unix)]
#[test]
fn the_default_stylesheet_is_written_into_the_site() {
    let site = Site::new(&["index.html", "a.html"]);
    site.config("base_url = 'https://example.org/docs/'\nstylesheet = 'default'\n");
    let out = site.cmd().args(["build", "--json"]).output().unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["stylesheet"], "public/sitemap.xsl");
    let xsl = site.public().join("sitemap.xsl");
    assert_eq!(
        fs::read_to_string(&xsl).unwrap(),
        sitemapgen::stylesheet::BUNDLED
    );
    let mode = fs::metadata(&xsl).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode & 0o022, 0o000, "{mode:o}");
    assert!(
        site.read("sitemap.xml")
            .contains("href=\"/docs/sitemap.xsl\"")
    );
    validate_set(&site.public().join("sitemap.xml"));
    // A time no write now can give it, rather than a wait for the clock to move on.
    site.set_mtime("sitemap.xsl", 1_000_000_000);
    let before = fs::metadata(&xsl).unwrap().modified().unwrap();
    site.cmd().assert().success();
    assert_eq!(fs::metadata(&xsl).unwrap().modified().unwrap(), before);

    site.config(
        "base_url = 'https://example.org/'\nstylesheet = 'https://cdn.example.org/s.xsl?a=1&b=2'\n",
    );
    site.cmd().assert().success();
    assert!(
        site.read("sitemap.xml")
            .contains("href=\"https://cdn.example.org/s.xsl?a=1&amp;b=2\"?>")
    );
}

/// The bundled XSL never replaces what is not a regular file: a symbolic link (leading
/// out of the site or not) or a directory at its place fails the run, naming it, before
/// the sitemap is written; the link's target is untouched.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn the_default_stylesheet_replaces_only_a_regular_file() {
    let site = Site::new(&["index.html"]);
    site.config("base_url = 'https://example.org/'\nstylesheet = 'default'\n");
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("mine.xsl");
    fs::write(&target, "mine").unwrap();
    let xsl = site.public().join("sitemap.xsl");
    symlink(&target, &xsl).unwrap();
    site.cmd()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("sitemap.xsl"))
        .stderr(predicate::str::contains("symbolic link"));
    assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
    assert!(!site.public().join("sitemap.xml").exists());
    fs::remove_file(&xsl).unwrap();
    fs::create_dir(&xsl).unwrap();
    site.cmd()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("sitemap.xsl"));
    assert!(!site.public().join("sitemap.xml").exists());
}

/// Bad values are refused before anything is written: exit 2, one line naming the key,
/// the value and what to give instead.
#[test]
fn bad_stylesheets_are_refused() {
    let table = [
        ("stylesheet = ''\n", "stylesheet: '' is empty"),
        ("stylesheet = '/a b.xsl'\n", "percent-encode it"),
        (
            "stylesheet = 'javascript:alert(1)'\n",
            "is not http(s) or a path on the site",
        ),
        (
            "stylesheet = '//cdn.example.net/s.xsl'\n",
            "stylesheet: '//cdn.example.net/s.xsl' is scheme-relative (a host without a scheme), and browsers apply a stylesheet only from the sitemap's own origin; give \"default\"",
        ),
        (
            "stylesheet = '/s.xsl'\nformat = 'txt'\n",
            "text sitemaps cannot link a stylesheet",
        ),
        (
            "stylesheet = true\n",
            "`stylesheet` expected a string, found boolean `true`; write stylesheet = \"...\"",
        ),
    ];
    for (config, want) in table {
        let site = Site::new(&["index.html"]);
        site.config(&format!("base_url = 'https://example.org/'\n{config}"));
        site.cmd()
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want))
            .stderr(
                predicate::str::contains("give \"default\"").or(predicate::str::contains("format")
                    .or(predicate::str::contains("expected a string"))),
            )
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
        assert_eq!(site.listing(), ["index.html"], "{config}");
    }
}

/// `sitemapgen index --stylesheet`: the index of a sharded build links it too;
/// `default` writes the bundled XSL into the root directory; a bad value is exit 2.
#[test]
fn the_index_of_shards_links_the_stylesheet() {
    let site = Site::new(&["blog/a.html", "docs/b.html"]);
    for shard in ["blog", "docs"] {
        site.cmd()
            .args(["build", &format!("public/{shard}"), "-q"])
            .args(["--base-url", &format!("https://example.org/{shard}/")])
            .assert()
            .success();
    }
    site.cmd()
        .args([
            "index",
            "public/blog/sitemap.xml",
            "public/docs/sitemap.xml",
        ])
        .args([
            "--base-url",
            "https://example.org/",
            "-o",
            "public/sitemap.xml",
        ])
        .args(["--stylesheet", "default", "-q"])
        .assert()
        .success();
    let index = site.read("sitemap.xml");
    assert!(index.contains(PI), "{index}");
    assert_eq!(
        fs::read_to_string(site.public().join("sitemap.xsl")).unwrap(),
        sitemapgen::stylesheet::BUNDLED
    );
    assert_eq!(validate_set(&site.public().join("sitemap.xml")).len(), 2);
    site.cmd()
        .args([
            "index",
            "public/blog/sitemap.xml",
            "--base-url",
            "https://example.org/",
        ])
        .args(["-o", "public/other.xml", "--stylesheet", "javascript:x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--stylesheet: 'javascript:x' is not http(s) or a path on the site",
        ));
    assert!(!site.public().join("other.xml").exists());
}
