//! The system calls a default run makes per page, counted with strace: the floor of a
//! head-reading run is one open, one fstat, one read and one close per page (see
//! bench/floor.c). Counts, not timings, so the test holds on a slow machine too.

use std::fs;
use std::process::Command;

use crate::util::Site;

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
    if Command::new("strace").arg("-V").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI must have strace");
        eprintln!("note: strace is missing; system calls not counted");
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
