//! The system calls a default run makes per page, counted with strace: the floor of a
//! head-reading run is one open, one fstat, one read and one close per page (see
//! bench/floor.c). Counts, not timings, so the test holds on a slow machine too.

use std::fs;
use std::process::Command;

use crate::util::Site;

/// Whether strace is missing: noted, or a failure under `SITEMAPGEN_REQUIRE_TOOLS`.
fn strace_missing() -> bool {
    !crate::tools::STRACE.present()
}

/// Per-syscall counts from `strace -c` output.
fn counts(summary: &str) -> std::collections::HashMap<String, u64> {
    summary
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // % time, seconds, usecs/call, calls, [errors,] syscall
            let name = *fields.last()?;
            let calls = fields.get(3)?.parse().ok()?;
            Some((name.to_string(), calls))
        })
        .collect()
}

/// 400 pages of a few KiB in 100 directories: one `read`, one open and one stat per page,
/// plus the walk's per directory and a constant for the config and the output. (A
/// second `read` that only finds a page's end was made for every page before.)
#[test]
fn a_default_run_reads_each_page_once() {
    if strace_missing() {
        return;
    }
    let site = Site::new(&[]);
    let page = format!(
        "<!doctype html><html><head><title>t</title><meta name=description content=d></head><body>{}</body></html>",
        "<p>text</p>".repeat(300)
    );
    let pages = 400;
    for i in 0..pages {
        let path = site.public().join(format!("a/b/c/d{}/p{i}.html", i % 100));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, &page).unwrap();
    }
    site.config("base_url = 'https://example.org/'\n");
    let summary = site.root().join("strace.txt");
    let status = Command::new("strace")
        .args(["-f", "-c", "-o"])
        .arg(&summary)
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .args(["build", "-q", "-j", "2"])
        .current_dir(site.root())
        .status()
        .unwrap();
    assert!(status.success());
    let counts = counts(&fs::read_to_string(&summary).unwrap());
    let of = |name: &str| counts.get(name).copied().unwrap_or(0);
    // The walk opens and stats each of the 104 directories up to twice.
    let (slack, dirs) = (80, 104);
    assert!(of("read") <= pages + slack, "read: {counts:?}");
    let opens = of("openat") + of("open");
    assert!(opens <= pages + 2 * dirs + slack, "open: {counts:?}");
    let stats = of("statx") + of("newfstatat") + of("fstat") + of("stat") + of("lstat");
    assert!(stats <= pages + 2 * dirs + slack, "stat: {counts:?}");
}

/// Each page is opened by its name in its directory, which the walk holds open (as the
/// floor does), not by its path from the public directory: the kernel then looks up one
/// name, not every directory on the way again.
#[test]
fn pages_are_opened_by_name_in_their_directory() {
    if strace_missing() {
        return;
    }
    let site = Site::new(&["index.html", "a/b/page.html", "a/b/c/deep.html"]);
    site.config("base_url = 'https://example.org/'\n");
    let trace = site.root().join("strace.txt");
    let status = Command::new("strace")
        .args(["-f", "-e", "trace=openat", "-o"])
        .arg(&trace)
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .args(["build", "-q"])
        .current_dir(site.root())
        .status()
        .unwrap();
    assert!(status.success());
    let trace = fs::read_to_string(&trace).unwrap();
    let page_opens: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains(".html\"") && !l.contains("sitemap"))
        .collect();
    assert_eq!(page_opens.len(), 3, "{trace}");
    for open in page_opens {
        let name = open.split('"').nth(1).unwrap();
        assert!(!name.contains('/'), "opened by path: {open}");
    }
}

/// The host's files are read once a run for what they say (issue 62): the URL form the
/// config takes from them and the rules the walk applies come from one read. The one
/// other open is the edit of our own entries, under the site's lock (three opens before:
/// the form and the rules each read it).
#[test]
fn the_hosts_files_are_read_once_a_run() {
    if strace_missing() {
        return;
    }
    let site = Site::new(&["index.html", "about.html", "private/p.html"]);
    fs::write(
        site.root().join("vercel.json"),
        r#"{ "cleanUrls": true, "headers": [{ "source": "/private/(.*)", "headers": [{ "key": "X-Robots-Tag", "value": "noindex" }] }] }"#,
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\nllms_txt = true\n");
    let trace = site.root().join("strace.txt");
    let status = Command::new("strace")
        .args(["-f", "-e", "trace=openat", "-o"])
        .arg(&trace)
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .args(["build", "-q"])
        .current_dir(site.root())
        .status()
        .unwrap();
    assert!(status.success());
    let trace = fs::read_to_string(&trace).unwrap();
    let opens = trace
        .lines()
        .filter(|l| l.contains("\"vercel.json\"") && !l.contains("ENOENT"))
        .count();
    assert_eq!(opens, 2, "{trace}");
    assert_eq!(
        crate::util::locs(&site.public().join("sitemap.xml")),
        ["https://example.org/", "https://example.org/about"]
    );
}
