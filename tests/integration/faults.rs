//! Faults: nothing half-written, the previous sitemap kept, runs that take turns.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use predicates::prelude::*;

use crate::util::{Site, locs, validate_set};

const BASE: &str = "base_url = 'https://example.org/'\n";

#[test]
fn temporary_files_of_a_killed_run_are_swept_by_the_next() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    for stale in [".sitemap.xml.Ab12Cd.tmp", ".sitemap.xml.zz9.tmp"] {
        fs::write(site.public().join(stale), "<urlset").unwrap();
    }
    fs::write(site.public().join(".other.tmp"), "not ours").unwrap();
    site.cmd().assert().success();
    assert_eq!(site.listing(), [".other.tmp", "index.html", "sitemap.xml"]);
}

// Unix only: /dev/full stands in for a full disk.
#[cfg(unix)]
#[test]
fn a_full_disk_on_stdout_is_an_error_naming_it() {
    let Ok(full) = fs::File::options().write(true).open("/dev/full") else {
        panic!("/dev/full is needed for this test");
    };
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let out = Command::new(assert_cmd::cargo::cargo_bin!("sitemapgen"))
        .current_dir(site.root())
        .args(["--output", "-"])
        .stdout(std::process::Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("cannot write <stdout>: No space left on device"),
        "{stderr}"
    );
}

// Unix only: Unix permission bits.
#[cfg(unix)]
#[test]
fn an_unwritable_output_directory_fails_and_keeps_the_previous_sitemap() {
    let site = Site::new(&["index.html", "b.html"]);
    site.config(BASE);
    site.cmd().assert().success();
    let before = site.read("sitemap.xml");
    site.page("c.html");
    fs::set_permissions(site.root(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(site.public(), fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes anywhere, so as root the binary runs as `nobody`.
    let probe = site.public().join(".probe");
    let as_root = fs::write(&probe, "").is_ok();
    let _ = fs::remove_file(&probe);
    let mut cmd = if as_root {
        let mut cmd = assert_cmd::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(assert_cmd::cargo::cargo_bin!("sitemapgen"));
        cmd
    } else {
        assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("sitemapgen"))
    };
    let assert = cmd.current_dir(site.root()).assert();
    fs::set_permissions(site.public(), fs::Permissions::from_mode(0o755)).unwrap();
    assert
        .code(1)
        .stderr(predicate::str::contains("cannot write public"))
        .stderr(predicate::str::contains("Permission denied"));
    assert_eq!(site.read("sitemap.xml"), before);
    assert_eq!(
        site.listing(),
        ["b.html", "c.html", "index.html", "sitemap.xml"]
    );
}

#[test]
fn two_runs_at_once_leave_one_runs_complete_output() {
    let pages: Vec<String> = (0..400).map(|i| format!("p{i:03}.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    fs::write(
        site.root().join("a.toml"),
        format!("{BASE}public_dir = 'public'\nmax_urls_per_file = 7\n"),
    )
    .unwrap();
    fs::write(
        site.root().join("b.toml"),
        format!("{BASE}public_dir = 'public'\nmax_urls_per_file = 11\n"),
    )
    .unwrap();
    for _ in 0..10 {
        let spawn = |config: &str| {
            Command::new(assert_cmd::cargo::cargo_bin!("sitemapgen"))
                .current_dir(site.root())
                .args(["build", "--config", config, "-q"])
                .spawn()
                .unwrap()
        };
        let (mut a, mut b) = (spawn("a.toml"), spawn("b.toml"));
        assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
        let index = site.public().join("sitemap.xml");
        let children = validate_set(&index);
        assert!(
            children.len() == 58 || children.len() == 37,
            "{} children",
            children.len()
        );
        let mut urls: Vec<String> = children.iter().flat_map(|c| locs(c)).collect();
        urls.sort();
        urls.dedup();
        assert_eq!(urls.len(), 400);
        // Nothing of the other run's set is left over: the pages, the index, its children.
        assert_eq!(site.listing().len(), 400 + 1 + children.len());
    }
}

#[test]
fn children_a_killed_run_left_unnamed_are_removed_by_the_next() {
    let pages: Vec<String> = (0..5).map(|i| format!("p{i}.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.config(&format!("{BASE}max_urls_per_file = 2\n"));
    let urlset = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"></urlset>\n";
    // Renamed into place by a run killed before its index: named by no index.
    fs::write(site.public().join("sitemap-2-0123456789ab.xml"), urlset).unwrap();
    // A child as earlier versions named them, named by the index this run replaces...
    fs::write(site.public().join("sitemap-7.xml"), urlset).unwrap();
    let index = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>https://example.org/sitemap-7.xml</loc></sitemap></sitemapindex>\n";
    fs::write(site.public().join("sitemap.xml"), index).unwrap();
    // ... and one of the same shape named by no index of ours: someone's own, left alone.
    fs::write(site.public().join("sitemap-1.xml"), urlset).unwrap();
    // Same shapes, but not a urlset, or not quite our name: left alone. (Numbered apart
    // from the first: on a case-insensitive disk `...AB.xml` would be `...ab.xml`.)
    fs::write(site.public().join("sitemap-3-0123456789ab.xml"), "<rss/>").unwrap();
    fs::write(site.public().join("sitemap-4-0123456789AB.xml"), urlset).unwrap();
    site.cmd().assert().success();
    let children = validate_set(&site.public().join("sitemap.xml"));
    assert_eq!(children.len(), 3);
    let mut want: Vec<String> = pages.iter().map(|p| p.to_string()).collect();
    want.extend(
        [
            "sitemap-1.xml",
            "sitemap-3-0123456789ab.xml",
            "sitemap-4-0123456789AB.xml",
            "sitemap.xml",
        ]
        .map(String::from),
    );
    want.extend(
        children
            .iter()
            .map(|c| c.file_name().unwrap().to_str().unwrap().to_string()),
    );
    want.sort();
    assert_eq!(site.listing(), want);
}

#[test]
fn a_zero_byte_page_and_a_100_mb_page_are_listed() {
    let site = Site::new(&["index.html", "empty.html"]);
    site.config(BASE);
    fs::write(site.public().join("empty.html"), "").unwrap();
    let big = site.public().join("big.html");
    let head = "<!doctype html><html><head><title>big</title>\
                <link rel=canonical href=/big.html></head><body><p>";
    fs::write(&big, head).unwrap();
    // 100 MB, sparse: the page is as large as a real one to the reader, not to the disk.
    fs::File::options()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(100 * 1024 * 1024)
        .unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote public/sitemap.xml: 3 URLs"))
        .stderr(predicate::str::contains("warning").not());
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/big.html",
            "https://example.org/empty.html"
        ]
    );
}
