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
// Unix only: /dev/full stands in for a full disk.
#[cfg(unix)]
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
            .env_remove("CI")
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

/// A declared date outside the years 0001-9999 is passed over with a warning (the next
/// source dates the page); an alternate href with a lone `%` is encoded. Both sitemaps
/// validate against the official schemas, and `--check` agrees.
#[test]
fn out_of_range_dates_and_raw_alternate_hrefs_never_reach_the_sitemap() {
    let site = Site::new(&[]);
    fs::write(
        site.public().join("index.html"),
        concat!(
            "<!doctype html><head><title>t</title>",
            "<meta property=\"article:modified_time\" content=\"0000-01-01\">",
            "<link rel=\"alternate\" hreflang=\"fr\" href=\"https://example.org/%zz/%\">",
            "<link rel=\"alternate\" hreflang=\"de\" href=\"/a|b^c/\">",
            "</head><p>x</p>\n"
        ),
    )
    .unwrap();
    site.set_mtime("index.html", 1_700_000_000);
    site.config(&format!("{BASE}lastmod = ['meta', 'mtime']\n"));
    site.cmd()
        .arg("--check")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "modified date '0000-01-01' is not a date sitemapgen reads",
        ))
        .stderr(predicate::str::contains("0 errors"));
    let sitemap = site.public().join("sitemap.xml");
    crate::util::validate(&sitemap, "sitemap+xhtml.xsd");
    let xml = site.read("sitemap.xml");
    assert!(
        xml.contains("<lastmod>2023-11-14T22:13:20+00:00</lastmod>"),
        "{xml}"
    );
    assert!(
        xml.contains("href=\"https://example.org/%25zz/%25\""),
        "{xml}"
    );
    assert!(
        xml.contains("href=\"https://example.org/a%7Cb%5Ec/\""),
        "{xml}"
    );
}

/// No raw control character reaches the terminal: file names, TOML keys, `--config`
/// paths, bad arguments and `check` paths are printed escaped, one line each.
// Unix only: file names holding control characters, which Windows refuses.
#[cfg(unix)]
#[test]
fn control_characters_are_escaped_in_everything_printed() {
    let site = Site::new(&["index.html"]);
    let forged = "skip\nerror: forged \u{1b}[2K.txt";
    fs::write(site.public().join(forged), "x").unwrap();
    site.config(BASE);
    let clean = |out: &[u8]| {
        let text = String::from_utf8_lossy(out);
        assert!(
            !out.iter().any(|&b| b < 0x20 && b != b'\n' || b == 0x7f),
            "raw control byte in: {text:?}"
        );
        assert!(
            !text.lines().any(|l| l.starts_with("error: forged")),
            "{text}"
        );
    };
    let runs: Vec<Vec<String>> = vec![
        vec!["-v".into()],
        vec!["--config".into(), "no\nsuch \u{1b}[2K.toml".into()],
        vec!["--bogus\u{1b}[2K".into()],
        vec!["check".into(), format!("public/{forged}")],
        vec!["check".into(), "public/\u{1b}]0;title\u{7}.xml".into()],
    ];
    for args in runs {
        let out = site.cmd().args(&args).output().unwrap();
        clean(&out.stderr);
        clean(&out.stdout);
    }
    site.config(&format!("{BASE}\"bad\\u001b[2Kkey\" = 1\n"));
    let out = site.cmd().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    clean(&out.stderr);
}

/// `[source] content` is a folder of the project: an absolute path or one through `..`
/// is refused on one line naming the key and the value, exit 2.
#[test]
fn source_content_outside_the_project_is_refused() {
    let site = Site::new(&["index.html"]);
    for value in ["/etc", "../elsewhere", "docs/../../x"] {
        site.config(&format!(
            "{BASE}lastmod = ['source']\n[source]\ngenerator = 'hugo'\ncontent = ['{value}']\n"
        ));
        let out = site.cmd().assert().code(2).get_output().stderr.clone();
        let stderr = String::from_utf8(out).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("source.content"), "{stderr}");
        assert!(stderr.contains(&format!("'{value}'")), "{stderr}");
        assert!(stderr.contains("relative to the project"), "{stderr}");
    }
}
