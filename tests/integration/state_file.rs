//! The `"content"` source's state file when it is damaged, foreign or holds what no
//! sitemap may: each pinned through the real binary.

use std::fs;
#[cfg(unix)]
use std::io::Write;

use predicates::prelude::*;

#[cfg(unix)]
use crate::check_hardening::measured;
use crate::lastmod::{build, lastmods};
use crate::util::Site;

const CONFIG: &str = "base_url = 'https://example.org/'\nlastmod = ['content', 'mtime']\n";

/// Wording a parse error costs no more memory than the parse: a 100 MB state file cut
/// off at its end is an error of one line, with where it ends, in a bounded run (it
/// was parsed again into a tree to word the message: 1.75 GB).
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn a_large_damaged_state_file_is_reported_in_bounded_memory() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(CONFIG);
    let path = site.root().join(".sitemap-state.json");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    write!(file, "{{\n  \"sitemapgen_state\": 2,\n  \"pages\": {{").unwrap();
    let mut i = 0u64;
    while i < 850_000 {
        write!(
            file,
            "\n    \"https://example.org/p/{i:07}/\": {{\n      \"fingerprint\": \"{i:032x}\",\n      \"lastmod\": \"2024-01-01T00:00:00Z\"\n    }},"
        )
        .unwrap();
        i += 1;
    }
    // Cut off mid-record, as a copy that ran out of space leaves it.
    write!(
        file,
        "\n    \"https://example.org/last/\": {{\n      \"fing"
    )
    .unwrap();
    drop(file);
    assert!(fs::metadata(&path).unwrap().len() > 100_000_000);

    let run = measured(site.root(), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    for part in [
        "state file .sitemap-state.json is not valid JSON",
        "line 3400005 column",
        "fix or delete it",
    ] {
        assert!(run.stderr.contains(part), "{part}: {}", run.stderr);
    }
    assert!(
        run.peak_rss_kib < 300 * 1024,
        "peak RSS {} KiB",
        run.peak_rss_kib
    );
}

/// A state's dates outside the years 0001-9999 (year 0, a negative year) are refused
/// as every other source's are: those pages' records count as absent (the pages are
/// dated as new ones, here by their mtime), with one warning naming the file and a
/// value, and the sitemap passes `--check`.
#[test]
fn out_of_range_dates_in_the_state_file_never_reach_the_sitemap() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(CONFIG);
    site.cmd().assert().success();
    let path = site.root().join(".sitemap-state.json");
    let text = fs::read_to_string(&path).unwrap();
    let kept = "\"lastmod\": \"2023-11-14T22:13:20Z\"";
    assert_eq!(text.matches(kept).count(), 4, "{text}");
    let text = text
        .replacen(kept, "\"lastmod\": \"0000-06-01T00:00:00Z\"", 1)
        .replacen(kept, "\"lastmod\": \"-000001-01-01T00:00:00Z\"", 1);
    fs::write(&path, text).unwrap();
    site.set_all_mtimes(1_710_000_000);

    let out = site
        .cmd()
        .arg("--check")
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    for part in [
        ".sitemap-state.json",
        "2 page dates outside the years 0001-9999",
        "'0000-06-01T00:00:00Z'",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
    let mut dates: Vec<String> = lastmods(&site).into_values().collect();
    dates.sort();
    assert_eq!(
        dates,
        [
            "2023-11-14T22:13:20+00:00",
            "2023-11-14T22:13:20+00:00",
            "2024-03-09T16:00:00+00:00",
            "2024-03-09T16:00:00+00:00"
        ]
    );
}

/// A version that is not a number is named as what it is, not as missing.
#[test]
fn a_state_version_that_is_a_string_is_named() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(CONFIG);
    let path = site.root().join(".sitemap-state.json");
    fs::write(&path, "{\"sitemapgen_state\": \"2\", \"pages\": {}}").unwrap();
    site.cmd().assert().code(2).stderr(predicate::str::contains(
        "state file .sitemap-state.json has sitemapgen_state \"2\", not a number",
    ));
}
