//! Gzipped and text sitemaps.

use std::fs;
use std::io::Read;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, child_position, locs, parse, validate};

const BASE: &str = "base_url = 'https://example.org/'\n";

/// Gunzips `path` into a plain file beside the test's temporary files, for the
/// validators that read plain XML.
fn gunzipped(path: &Path) -> tempfile::TempPath {
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(fs::File::open(path).unwrap())
        .read_to_end(&mut text)
        .unwrap_or_else(|e| panic!("{} is not gzip: {e}", path.display()));
    let file = tempfile::Builder::new().suffix(".xml").tempfile().unwrap();
    fs::write(file.path(), &text).unwrap();
    file.into_temp_path()
}

fn pages(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("p{i}.html")).collect()
}

#[test]
fn gzip_writes_one_gzipped_sitemap_named_so() {
    let names = pages(3);
    let site = Site::new(&names.iter().map(String::as_str).collect::<Vec<_>>());
    site.config(&format!("{BASE}gzip = true\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "wrote public/sitemap.xml.gz: 3 URLs",
        ));
    assert!(!site.public().join("sitemap.xml").exists());
    let plain = gunzipped(&site.public().join("sitemap.xml.gz"));
    assert_eq!(locs(&plain).len(), 3);
    site.cmd()
        .args(["check", "public/sitemap.xml.gz", "--strict"])
        .assert()
        .success();
}

#[test]
fn a_gzipped_split_set_names_gzipped_children() {
    let names = pages(5);
    let site = Site::new(&names.iter().map(String::as_str).collect::<Vec<_>>());
    site.config(&format!("{BASE}max_urls_per_file = 2\n"));
    // An output name ending in .gz is enough to ask for gzip.
    site.cmd()
        .args(["--output", "public/sitemap.xml.gz", "--check"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "wrote public/sitemap.xml.gz (index of 3 sitemaps): 5 URLs",
        ));
    let index = gunzipped(&site.public().join("sitemap.xml.gz"));
    validate(&index, "siteindex.xsd");
    let (root, children) = parse(&fs::read_to_string(&index).unwrap());
    assert_eq!(root, "sitemapindex");
    let mut all = Vec::new();
    for (n, child) in (1..).zip(&children) {
        let name = child.loc.strip_prefix("https://example.org/").unwrap();
        let plain_name = name.strip_suffix(".gz").unwrap();
        assert_eq!(child_position(plain_name), Some(n), "{name}");
        all.extend(locs(&gunzipped(&site.public().join(name))));
    }
    assert_eq!(all.len(), 5);
    // The same run again gives the same bytes, so the same names.
    let before = site.listing();
    site.cmd()
        .args(["--output", "public/sitemap.xml.gz", "-q"])
        .assert()
        .success();
    assert_eq!(site.listing(), before);
}

#[test]
fn gzip_to_standard_output_is_gzip() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let out = site
        .cmd()
        .args(["--output", "-", "--gzip"])
        .assert()
        .success();
    let mut xml = String::new();
    flate2::read::GzDecoder::new(&out.get_output().stdout[..])
        .read_to_string(&mut xml)
        .unwrap();
    assert!(xml.contains("<loc>https://example.org/</loc>"), "{xml}");
}

#[test]
fn text_sitemaps_are_one_url_per_line_split_without_an_index() {
    let names = pages(5);
    let site = Site::new(&names.iter().map(String::as_str).collect::<Vec<_>>());
    site.config(&format!(
        "{BASE}format = 'txt'\nmax_urls_per_file = 2\nrobots_txt = 'create'\n"
    ));
    site.cmd()
        .arg("--check")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "wrote public/sitemap.txt and public/sitemap-2.txt, public/sitemap-3.txt: 5 URLs",
        ));
    assert_eq!(
        site.read("sitemap.txt"),
        "https://example.org/p1.html\nhttps://example.org/p2.html\n"
    );
    assert_eq!(site.read("sitemap-3.txt"), "https://example.org/p5.html\n");
    // Each file is submitted on its own, so each is announced.
    let robots = site.read("robots.txt");
    for name in ["sitemap.txt", "sitemap-2.txt", "sitemap-3.txt"] {
        assert!(
            robots.contains(&format!("Sitemap: https://example.org/{name}\n")),
            "{robots}"
        );
    }

    // Fewer files now: the third goes, a stranger of the same name shape stays.
    fs::write(site.public().join("sitemap-7.txt"), "not a sitemap\n").unwrap();
    site.config(&format!("{BASE}format = 'txt'\nmax_urls_per_file = 3\n"));
    site.cmd().assert().success();
    assert!(!site.public().join("sitemap-3.txt").exists());
    assert!(site.public().join("sitemap-7.txt").exists());
    assert_eq!(
        site.read("sitemap-2.txt"),
        "https://example.org/p4.html\nhttps://example.org/p5.html\n"
    );
}

#[test]
fn text_and_gzip_together() {
    let site = Site::new(&["a.html", "b.html"]);
    site.cmd()
        .args(["build", "public", "--base-url", "https://example.org/"])
        .args(["--format", "txt", "--gzip", "--check"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "wrote public/sitemap.txt.gz: 2 URLs",
        ));
    let mut text = String::new();
    flate2::read::GzDecoder::new(fs::File::open(site.public().join("sitemap.txt.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(
        text,
        "https://example.org/a.html\nhttps://example.org/b.html\n"
    );
}
