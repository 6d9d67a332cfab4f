//! What a hostile or unlucky user broke, each pinned through the real binary.

use std::fs;

use predicates::prelude::*;

use crate::util::{Site, locs};

const BASE: &str = "base_url = 'https://example.org/'\n";

/// `sitemapgen index` refuses to write over one of its inputs (which would replace a
/// sitemap with an index naming itself), however the output is named.
#[test]
fn index_refuses_an_output_that_is_an_input() {
    let site = Site::new(&["blog/index.html"]);
    site.config(BASE);
    site.cmd()
        .args(["-o", "public/blog/sitemap.xml"])
        .assert()
        .success();
    let before = fs::read(site.public().join("blog/sitemap.xml")).unwrap();
    fs::hard_link(
        site.public().join("blog/sitemap.xml"),
        site.public().join("blog/linked.xml"),
    )
    .unwrap();
    for output in [
        "public/blog/sitemap.xml",
        "./public/blog/../blog/sitemap.xml",
        "public/blog/linked.xml",
    ] {
        site.cmd()
            .args([
                "index",
                "public/blog/sitemap.xml",
                "--base-url",
                "https://example.org/",
                "-o",
                output,
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is both an input and the output"));
    }
    assert_eq!(
        fs::read(site.public().join("blog/sitemap.xml")).unwrap(),
        before
    );
}

/// `--threads` past the ceiling is refused at once (it used to run for ever).
#[test]
fn absurd_thread_counts_are_refused() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    site.cmd()
        .args(["-j", "100000"])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr("error: --threads: threads: 100000 is more than 1024; give at most 1024, or 0 for one per core\n");
    site.cmd().args(["-j", "0", "-q"]).assert().success();
}

/// A base URL holding characters a URL may not carry raw is refused, not written into
/// every `<loc>` for `check` to reject.
#[test]
fn a_base_url_that_needs_encoding_is_refused() {
    let site = Site::new(&["index.html"]);
    for (url, bad) in [
        ("https://example.org/a^b|c/", "'^'"),
        ("https://example.org/100%/", "'%'"),
    ] {
        site.config(&format!("base_url = '{url}'\n"));
        site.cmd()
            .assert()
            .code(2)
            .stderr(predicate::str::contains(bad).and(predicate::str::contains("percent-encoded")));
    }
}

/// `priority = -0.0` is written as `0.0`, which the schema accepts.
#[test]
fn a_negative_zero_priority_is_written_as_zero() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}[defaults]\npriority = -0.0\n"));
    site.cmd().arg("--check").assert().success();
    let xml = site.read("sitemap.xml");
    assert!(xml.contains("<priority>0.0</priority>"), "{xml}");
    locs(&site.public().join("sitemap.xml"));
}

/// Output that cannot be written (a full disk) is an error with one line, never a
/// panic nor a silent exit 0.
#[test]
fn stdout_that_cannot_be_written_is_an_error() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let full = || std::process::Stdio::from(fs::File::create("/dev/full").unwrap());
    let cases: [&[&str]; 3] = [
        &["completions", "bash"],
        &["--json", "-o", "out.xml"],
        &["check", "--json", "out.xml"],
    ];
    site.cmd().args(["-q", "-o", "out.xml"]).assert().success();
    for args in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
            .current_dir(site.root())
            .args(args)
            .stdout(full())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("No space left on device (os error 28)\n"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}
