//! `--json`: machine-readable summaries for CI.

use std::fs;

use serde_json::Value;

use crate::util::Site;

const BASE: &str = "base_url = 'https://example.org/'\n";

fn json(out: &[u8]) -> Value {
    let text = std::str::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON document per line: {text}"
    );
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn build_reports_counts_files_and_warnings() {
    let site = Site::new(&["index.html", "a.html", "b.html", "drafts/x.html"]);
    fs::write(
        site.public().join("a.html"),
        "<meta name=robots content=noindex>",
    )
    .unwrap();
    fs::write(
        site.public().join("b.html"),
        "<link rel=canonical href='javascript:alert(1)'>",
    )
    .unwrap();
    site.config(&format!(
        "{BASE}exclude = ['drafts/**']\nmax_urls_per_file = 1\n"
    ));
    let out = site.cmd().args(["--json", "--check"]).assert().success();
    let v = json(&out.get_output().stdout);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["urls"], 2);
    assert_eq!(v["left_out"]["rules"], 1);
    assert_eq!(v["left_out"]["noindex"], 1);
    assert_eq!(v["sitemap"], "public/sitemap.xml");
    assert_eq!(v["index"], true);
    assert_eq!(v["children"].as_array().unwrap().len(), 2);
    assert_eq!(v["check"]["errors"], 0);
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].as_str().unwrap().contains("javascript:"));
    assert!(v["duration_ms"].is_u64());
    for phase in ["collect", "write", "check"] {
        assert!(v["durations_ms"][phase].is_u64(), "{phase}: {v}");
    }
    // The summary line gives way to the JSON; warnings still go to stderr for the log.
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("wrote"), "{stderr}");
    assert!(stderr.contains("warning: "), "{stderr}");
}

#[test]
fn a_dry_run_lists_the_urls() {
    let site = Site::new(&["index.html", "b.html"]);
    site.config(BASE);
    let out = site.cmd().args(["--json", "--dry-run"]).assert().success();
    let v = json(&out.get_output().stdout);
    assert_eq!(v["dry_run"], true);
    assert_eq!(
        v["list"],
        serde_json::json!(["https://example.org/", "https://example.org/b.html"])
    );
    assert!(!site.public().join("sitemap.xml").exists());
}

#[test]
fn errors_are_json_too_with_the_exit_code() {
    let site = Site::new(&["index.html"]);
    site.config("base_url = 'ftp://example.org/'\n");
    let out = site.cmd().arg("--json").assert().code(2);
    let v = json(&out.get_output().stdout);
    assert_eq!(v["status"], "error");
    assert_eq!(v["exit_code"], 2);
    assert!(
        v["error"].as_str().unwrap().contains("sitemap.toml:1:"),
        "{v}"
    );
}

#[test]
fn json_and_a_sitemap_on_stdout_cannot_share_it() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    site.cmd()
        .args(["--json", "--output", "-"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("both write to standard output"));
}

#[test]
fn check_reports_every_problem_with_file_and_line() {
    let site = Site::new(&[]);
    let bad = site.public().join("sitemap.xml");
    fs::write(
        &bad,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>/relative</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let out = site
        .cmd()
        .args(["check", "public/sitemap.xml", "--json"])
        .assert()
        .code(1);
    let v = json(&out.get_output().stdout);
    assert_eq!(v["files"], 1);
    assert_eq!(v["errors"], 1);
    let problem = &v["problems"][0];
    assert_eq!(problem["file"], "public/sitemap.xml");
    assert_eq!(problem["line"], 3);
    assert_eq!(problem["severity"], "error");
    assert!(out.get_output().stderr.is_empty());
}
