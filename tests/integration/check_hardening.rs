//! `check` and `index` on hostile input: what an index, a gzip bomb or a FIFO once made
//! them do, each pinned through the real binary.

use std::fs;
#[cfg(unix)]
use std::io::Write;
#[cfg(unix)]
use std::path::Path;
#[cfg(unix)]
use std::process::{Command, Stdio};
#[cfg(unix)]
use std::time::Duration;

use crate::util::Site;

const URLSET: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const INDEX: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

/// The most memory a run may take on any input: what the protocol's 50 MiB allow, and
/// some.
#[cfg(unix)]
const PEAK_RSS_LIMIT_KIB: u64 = 256 * 1024;

/// A hostile run must not hang: past this, it is killed and the test fails.
#[cfg(unix)]
const HANG: Duration = Duration::from_secs(20);

fn urlset(locs: &[&str]) -> String {
    let urls: String = locs
        .iter()
        .map(|l| format!("  <url><loc>{l}</loc></url>\n"))
        .collect();
    format!("{URLSET}{urls}</urlset>\n")
}

/// An index naming `locs`, one `<sitemap>` a line from line 3.
fn index(locs: &[&str]) -> String {
    let entries: String = locs
        .iter()
        .map(|l| format!("  <sitemap><loc>{l}</loc></sitemap>\n"))
        .collect();
    format!("{INDEX}{entries}</sitemapindex>\n")
}

/// What a run of the binary gave, and the most memory it held.
#[cfg(unix)]
pub(crate) struct Measured {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub peak_rss_kib: u64,
}

/// Runs the binary in `dir` with `args`, measuring its peak resident set size with
/// GNU time (`/usr/bin/time`, Debian's `time`). Not with `wait4` on our own child: std
/// starts children with `vfork`, and the kernel records the parent's peak (this test
/// process's, with other tests' data) as the child's when it calls `exec`; time forks
/// its child from a small process of its own. Output goes to files, so a long one
/// cannot fill a pipe nobody reads.
#[cfg(unix)]
pub(crate) fn measured(dir: &Path, args: &[&str]) -> Measured {
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    let peak = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(peak.path())
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.reopen().unwrap())
        .stderr(err.reopen().unwrap())
        .status()
        .expect("GNU time at /usr/bin/time (apt-get install time)");
    let peak = fs::read_to_string(peak.path()).unwrap();
    let last = peak.lines().last().unwrap_or_default();
    assert!(!peak.contains("signal"), "killed by a signal: {peak}");
    Measured {
        code: status.code().expect("time exits with its child's code"),
        stdout: fs::read_to_string(out.path()).unwrap(),
        stderr: fs::read_to_string(err.path()).unwrap(),
        peak_rss_kib: last
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("time said {peak:?}")),
    }
}

/// Fails unless `run` held at most [`PEAK_RSS_LIMIT_KIB`].
#[cfg(unix)]
fn assert_bounded(what: &str, run: &Measured) {
    assert!(
        run.peak_rss_kib <= PEAK_RSS_LIMIT_KIB,
        "{what}: peak RSS {} KiB, over {PEAK_RSS_LIMIT_KIB}",
        run.peak_rss_kib
    );
}

/// Writes `path` gzipped, its content made by `generate` as it is compressed: the bomb
/// never exists uncompressed, in memory or on disk.
#[cfg(unix)]
fn gzip_streamed(path: &Path, generate: impl FnOnce(&mut dyn Write)) {
    let file = fs::File::create(path).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    generate(&mut gz);
    gz.finish().unwrap();
}

/// `n` bytes of `byte`, written a mebibyte at a time.
#[cfg(unix)]
fn repeat(out: &mut dyn Write, byte: u8, n: usize) {
    let chunk = vec![byte; 1 << 20];
    let mut left = n;
    while left > 0 {
        let now = left.min(chunk.len());
        out.write_all(&chunk[..now]).unwrap();
        left -= now;
    }
}

/// Large enough that a reader keeping what it reads (as `check` and `index` did, about
/// twice over) passes [`PEAK_RSS_LIMIT_KIB`]; more only makes the test slower, since
/// nothing past 50 MiB is read now (a 1 GiB bomb is measured by hand, in release).
#[cfg(unix)]
const BOMB_BYTES: usize = 160 << 20;

/// A `.xml.gz` inflating to 160 MiB of whitespace, and one holding a single 160 MiB
/// `<loc>`, once took `check` and `index` to twice their size in memory (330 MB here,
/// 2 GB for a 1 GiB bomb): each is now one error, read no further than 50 MiB.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn gzip_bombs_stop_at_the_size_limit_in_check_and_index() {
    let dir = tempfile::tempdir().unwrap();
    gzip_streamed(&dir.path().join("space.xml.gz"), |out| {
        out.write_all(URLSET.as_bytes()).unwrap();
        repeat(out, b' ', BOMB_BYTES);
        out.write_all(b"</urlset>\n").unwrap();
    });
    gzip_streamed(&dir.path().join("loc.xml.gz"), |out| {
        out.write_all(URLSET.as_bytes()).unwrap();
        out.write_all(b"<url><loc>https://example.org/").unwrap();
        repeat(out, b'a', BOMB_BYTES);
        out.write_all(b"</loc></url>\n</urlset>\n").unwrap();
    });
    for name in ["space.xml.gz", "loc.xml.gz"] {
        let run = measured(dir.path(), &["check", name]);
        assert_bounded(&format!("check {name}"), &run);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let want = ": error: larger than 50 MiB uncompressed, over the protocol's limit; split it (the rest is not read)\n";
        assert!(
            run.stdout.starts_with(name) && run.stdout.ends_with(want),
            "{name}: {}",
            run.stdout
        );
        assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
        let run = measured(
            dir.path(),
            &[
                "index",
                name,
                "--base-url",
                "https://example.org/",
                "-o",
                "i.xml",
            ],
        );
        assert_bounded(&format!("index {name}"), &run);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (
                1,
                &*format!(
                    "error: {name}: is larger than 50 MiB uncompressed, over the protocol's limit; split it\n"
                )
            )
        );
    }
    assert!(!dir.path().join("i.xml").exists());
}

/// A `<loc>` too long to keep (here 1 MiB, under the size limit) is one error giving
/// its length, in XML and text sitemaps alike; `index` refuses it rather than list a
/// cut URL.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn a_loc_longer_than_any_url_is_measured_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("https://example.org/{}", "a".repeat(1 << 20));
    fs::write(dir.path().join("s.xml"), urlset(&[&long])).unwrap();
    fs::write(
        dir.path().join("s.txt"),
        format!("{long}\r\nhttps://example.org/\n"),
    )
    .unwrap();
    for (name, line) in [("s.xml", 3), ("s.txt", 1)] {
        let run = measured(dir.path(), &["check", name]);
        assert_eq!(
            run.stdout,
            format!(
                "{name}:{line}: error: URL is 1048596 characters; the protocol allows fewer than 2,048\n"
            )
        );
        assert_eq!(run.code, 1);
    }
    let run = measured(
        dir.path(),
        &[
            "index",
            "s.xml",
            "--base-url",
            "https://example.org/",
            "-o",
            "i.xml",
        ],
    );
    assert_eq!(
        run.stderr,
        "error: s.xml: holds a <loc> of 1,048,596 bytes, longer than a URL may be; run sitemapgen check on it\n"
    );
}

/// Half a million empty `<url/>` (a few KB gzipped, under the size limit) are as many
/// errors: `check` once kept each (2 million took 280 MB, and 3.7 GB with `--json`).
/// The first 1,000 of a file are listed, the rest counted, and the totals stay exact.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn a_file_of_half_a_million_problems_lists_a_thousand_and_counts_all() {
    let dir = tempfile::tempdir().unwrap();
    gzip_streamed(&dir.path().join("empty.xml.gz"), |out| {
        out.write_all(URLSET.as_bytes()).unwrap();
        for _ in 0..500 {
            out.write_all("<url/>".repeat(1_000).as_bytes()).unwrap();
        }
        out.write_all(b"</urlset>\n").unwrap();
    });
    let run = measured(dir.path(), &["check", "empty.xml.gz"]);
    assert_bounded("check", &run);
    assert_eq!(run.code, 1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1_001, "{}", &run.stdout[..500]);
    assert_eq!(lines[0], "empty.xml.gz:3: error: <url> without <loc>");
    assert_eq!(lines[1_000], "and 499,001 more problems in empty.xml.gz");
    assert_eq!(
        run.stderr,
        "checked 1 file, 0 URLs: 500,001 errors, 0 warnings\n"
    );

    let run = measured(dir.path(), &["check", "empty.xml.gz", "--json"]);
    assert_bounded("check --json", &run);
    assert_eq!(run.code, 1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["errors"], 500_001);
    assert_eq!(v["problems"].as_array().unwrap().len(), 1_000);
    assert_eq!(
        v["omitted"],
        serde_json::json!([{"file": "empty.xml.gz", "problems": 499_001}])
    );
}

/// A site with a secret outside the directory of the index in `public/maps`.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
fn site_with_a_secret() -> Site {
    let site = Site::new(&[]);
    let maps = site.public().join("maps");
    fs::create_dir_all(&maps).unwrap();
    fs::create_dir_all(site.root().join("secret")).unwrap();
    // Were it read, its URL (a space in it) would be an error naming it.
    fs::write(
        site.root().join("secret/private.xml"),
        urlset(&["https://example.org/TOP SECRET"]),
    )
    .unwrap();
    fs::write(maps.join("a.xml"), urlset(&["https://example.org/a"])).unwrap();
    std::os::unix::fs::symlink("../../secret/private.xml", maps.join("link.xml")).unwrap();
    site
}

/// An index's children were looked up by their decoded URL paths wherever those led:
/// `..%2F` and `%2Fetc%2Fpasswd` opened files outside the index's directory, and
/// printed their content. A child whose path, or real path, leaves the directory is
/// an error, and is never opened.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn index_children_outside_the_index_directory_are_never_read() {
    let site = site_with_a_secret();
    let outside = [
        "https://example.org/..%2F..%2Fsecret%2Fprivate.xml",
        "https://example.org/%2Fetc%2Fpasswd",
        "https://example.org/link.xml",
    ];
    let mut locs = outside.to_vec();
    locs.push("https://example.org/a.xml");
    fs::write(site.public().join("maps/sitemap.xml"), index(&locs)).unwrap();
    let out = site
        .cmd()
        .args(["check", "public/maps/sitemap.xml"])
        .timeout(HANG)
        .assert()
        .code(1)
        .stderr("checked 2 files, 5 URLs: 3 errors, 0 warnings\n")
        .get_output()
        .stdout
        .clone();
    let want: String = outside
        .iter()
        .enumerate()
        .map(|(i, loc)| {
            format!(
                "public/maps/sitemap.xml:{}: error: child sitemap {loc} is outside public/maps, the index's directory, so it is not read; an index's children are published beside it or below\n",
                i + 3
            )
        })
        .collect();
    assert_eq!(String::from_utf8(out).unwrap(), want);
}

/// An index naming one child many times had it read each time (200 entries of a
/// 5,000-URL child: a million URLs, and as many duplicate warnings). Each file is
/// read once, and each entry naming it again is one warning, under the same URL or
/// another.
#[test]
fn a_child_listed_again_is_read_once_and_reported_once_per_entry() {
    let site = Site::new(&[]);
    let public = site.public();
    let urls: Vec<String> = (0..5_000)
        .map(|i| format!("https://example.org/p{i}"))
        .collect();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    fs::write(public.join("a.xml"), urlset(&urls)).unwrap();
    let mut locs = vec!["https://example.org/a.xml"; 200];
    locs.push("https://example.org/a.xml?v=2");
    fs::write(public.join("sitemap.xml"), index(&locs)).unwrap();
    let out = site
        .cmd()
        .args(["check", "public/sitemap.xml"])
        .assert()
        .success()
        .stderr("checked 2 files, 5,201 URLs: 0 errors, 200 warnings\n")
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 200, "{out}");
    assert_eq!(
        lines[0],
        "public/sitemap.xml:4: warning: child sitemap listed again (first at line 3): https://example.org/a.xml; list each child once"
    );
    assert_eq!(
        lines[199],
        "public/sitemap.xml:203: warning: child sitemap https://example.org/a.xml?v=2 is the file listed at line 3 under another URL; list each child once"
    );
}

/// An index may list 50,000 children; one listing 930,000 (50 MiB of them, each in a
/// directory of its own) took `check` to 413 MB. Past the limit, which is an error
/// already, children are not followed.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn children_past_the_protocols_limit_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let locs: Vec<String> = (0..50_003)
        .map(|i| format!("https://example.org/{i}/x.xml"))
        .collect();
    let locs: Vec<&str> = locs.iter().map(String::as_str).collect();
    fs::write(dir.path().join("sitemap.xml"), index(&locs)).unwrap();
    let run = measured(dir.path(), &["check", "sitemap.xml"]);
    assert_eq!(
        run.stderr,
        "checked 1 file, 50,003 URLs: 50,001 errors, 0 warnings\n"
    );
    assert!(
        run.stdout.contains(
            "sitemap.xml:50003: error: more than 50,000 sitemaps in one index; split it\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("and 49,001 more problems in sitemap.xml\n")
    );
}

/// A FIFO where a sitemap or a child is expected once hung `check` and `index` for ever,
/// waiting for a writer: it is an error now, at once.
// Unix only: FIFOs.
#[cfg(unix)]
#[test]
fn fifos_are_refused_at_once_by_check_and_index() {
    let site = Site::new(&[]);
    let public = site.public();
    for name in ["pipe.xml", "child.xml"] {
        let made = Command::new("mkfifo").arg(public.join(name)).status();
        assert!(made.unwrap().success());
    }
    fs::write(
        public.join("sitemap.xml"),
        index(&["https://example.org/child.xml"]),
    )
    .unwrap();
    site.cmd()
        .args(["check", "public/pipe.xml", "public/sitemap.xml"])
        .timeout(HANG)
        .assert()
        .code(1)
        .stdout(
            "public/pipe.xml: error: cannot read (is a FIFO, not a regular file)\n\
             public/child.xml: error: cannot read (is a FIFO, not a regular file)\n",
        );
    site.cmd()
        .args([
            "index",
            "public/pipe.xml",
            "--base-url",
            "https://example.org/",
        ])
        .args(["-o", "public/index.xml"])
        .timeout(HANG)
        .assert()
        .code(1)
        .stderr("error: public/pipe.xml: cannot be read (is a FIFO, not a regular file)\n");
}

/// Language alternates whose `href` the xhtml schema refuses (`%zz`, a bare `%`, a
/// second `#`), or that are not absolute, percent-encoded URLs, were let through with 0
/// errors: each is flagged as a bad `<loc>` is, at its line.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn alternate_hrefs_are_checked_as_urls() {
    let link = |hreflang: &str, href: &str| {
        format!("<xhtml:link rel=\"alternate\" hreflang=\"{hreflang}\" href=\"{href}\"/>")
    };
    let entries = [
        link("fr", "https://example.org/fr/"),
        link("x-default", "https://other.example/?a=1&amp;b=2#top"),
        link("fr", "https://example.org/%zz/%"),
        link("de", "https://example.org/#a#b"),
        link("es", "/es/"),
        link("it", "https://example.org/ü"),
        link("en_GB", "https://example.org/en/"),
        "<xhtml:link rel=\"alternate\" hreflang=\"nl\"/>".to_string(),
        // Not an alternate: not this check's business.
        "<xhtml:link rel=\"canonical\" href=\"%zz\"/>".to_string(),
    ];
    let mut xml = URLSET.replace(
        "0.9\">",
        "0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">",
    );
    for entry in &entries {
        xml.push_str(&format!(
            "<url><loc>https://example.org/</loc>{entry}</url>\n"
        ));
    }
    xml.push_str("</urlset>\n");
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("s.xml"), xml).unwrap();
    let run = measured(dir.path(), &["check", "s.xml"]);
    let errors: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.contains("duplicate URL"))
        .collect();
    assert_eq!(
        errors,
        [
            "s.xml:5: error: alternate href holds a '%' not followed by two hex digits, which must be percent-encoded: https://example.org/%zz/%",
            "s.xml:6: error: alternate href holds a second '#', which must be percent-encoded: https://example.org/#a#b",
            "s.xml:7: error: alternate href '/es/' is not an absolute http(s) URL",
            "s.xml:8: error: alternate href holds non-ASCII 'ü', which must be percent-encoded: https://example.org/ü",
            "s.xml:9: error: hreflang 'en_GB' is not a language tag (en, de-AT, zh-Hant-TW, x-default)",
            "s.xml:10: error: <xhtml:link rel=\"alternate\"> without href; give the alternate page's URL",
        ]
    );
    assert_eq!(run.code, 1);
}

/// `<lastmod>0000-01-01</lastmod>` passed `check`, but XML Schema's dates have no year
/// zero, so the official schema refuses it.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn year_zero_lastmods_are_errors() {
    for lastmod in ["0000-01-01", "0000-12-31T23:00:00-01:00", "0000"] {
        let xml = URLSET.to_string()
            + &format!(
                "<url><loc>https://example.org/</loc><lastmod>{lastmod}</lastmod></url>\n</urlset>\n"
            );
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("s.xml"), xml).unwrap();
        let run = measured(dir.path(), &["check", "s.xml"]);
        assert_eq!(
            run.stdout,
            format!(
                "s.xml:3: error: lastmod '{lastmod}' is in year 0000, which the sitemap schema's dates do not have (1 BC is -0001); give the real date\n"
            )
        );
    }
}
