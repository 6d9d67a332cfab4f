//! `sitemapgen check` on hand-made valid and invalid sitemaps.

use std::fs;
use std::io::Write;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, bin};

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const TAIL: &str = "</urlset>\n";

/// `<url>` entries, one per line, so line N of the file is entry N-2.
fn urlset(entries: &[&str]) -> String {
    let mut xml = HEAD.to_string();
    for e in entries {
        xml.push_str(&format!("  <url>{e}</url>\n"));
    }
    xml.push_str(TAIL);
    xml
}

fn loc(url: &str) -> String {
    format!("<loc>{url}</loc>")
}

/// Runs `check` on one file holding `content`; returns (exit code, stdout, stderr).
fn check_one(name: &str, content: &[u8], args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, content).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .arg("check")
        .arg(name)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn each_error_is_reported_at_its_line() {
    let long = format!("https://example.org/{}", "a".repeat(2040));
    let good = loc("https://example.org/");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "mismatched tags",
            urlset(&[&good, "<loc>https://example.org/a</lock>"]).into_bytes(),
            "sitemap.xml:4: error: not well-formed XML",
        ),
        (
            "truncated",
            format!("{HEAD}  <url>{good}</url>\n  <url>").into_bytes(),
            "sitemap.xml:4: error: not well-formed XML: the file ends",
        ),
        (
            "not utf-8",
            [
                HEAD.as_bytes(),
                b"  <url><loc>https://example.org/caf\xe9</loc></url>\n",
                TAIL.as_bytes(),
            ]
            .concat(),
            "sitemap.xml:3: error: not UTF-8",
        ),
        (
            "declared latin-1",
            urlset(&[&good]).replace("UTF-8", "ISO-8859-1").into_bytes(),
            "sitemap.xml:1: error: declares encoding ISO-8859-1",
        ),
        (
            "old namespace",
            urlset(&[&good])
                .replace(
                    "sitemaps.org/schemas/sitemap/0.9",
                    "google.com/schemas/sitemap/0.84",
                )
                .into_bytes(),
            "sitemap.xml:2: error: root element is <urlset> in http://www.google.com/schemas/sitemap/0.84",
        ),
        (
            "wrong root",
            b"<?xml version=\"1.0\"?>\n<rss version=\"2.0\"/>\n".to_vec(),
            "sitemap.xml:2: error: root element is <rss> in no namespace",
        ),
        (
            "url without loc",
            urlset(&[&good, "<lastmod>2024-01-01</lastmod>"]).into_bytes(),
            "sitemap.xml:4: error: <url> without <loc>",
        ),
        (
            "relative loc",
            urlset(&[&good, &loc("/about/")]).into_bytes(),
            "sitemap.xml:4: error: '/about/' is not an absolute http(s) URL",
        ),
        (
            "ftp loc",
            urlset(&[&good, &good, &loc("ftp://example.org/f")]).into_bytes(),
            "sitemap.xml:5: error: 'ftp://example.org/f' is not an absolute http(s) URL",
        ),
        (
            "space",
            urlset(&[&loc("https://example.org/a b")]).into_bytes(),
            "sitemap.xml:3: error: URL holds a space",
        ),
        (
            "non-ascii",
            urlset(&[&loc("https://example.org/über")]).into_bytes(),
            "sitemap.xml:3: error: URL holds non-ASCII 'ü'",
        ),
        (
            "less-than",
            urlset(&[&loc("https://example.org/&lt;x")]).into_bytes(),
            "sitemap.xml:3: error: URL holds '<'",
        ),
        (
            "greater-than",
            urlset(&[&loc("https://example.org/x&gt;")]).into_bytes(),
            "sitemap.xml:3: error: URL holds '>'",
        ),
        (
            "quote",
            urlset(&[&loc("https://example.org/&quot;q")]).into_bytes(),
            "sitemap.xml:3: error: URL holds '\"'",
        ),
        (
            "raw percent",
            urlset(&[&good, &loc("https://example.org/100%")]).into_bytes(),
            "sitemap.xml:4: error: URL holds a '%' not followed by two hex digits",
        ),
        (
            "too long",
            urlset(&[&loc(&long)]).into_bytes(),
            "sitemap.xml:3: error: URL is 2060 characters",
        ),
        (
            "lastmod",
            urlset(&[&format!("{good}<lastmod>05/03/2024</lastmod>")]).into_bytes(),
            "sitemap.xml:3: error: lastmod '05/03/2024' is not a W3C Datetime",
        ),
        (
            "lastmod without zone",
            urlset(&[&format!("{good}<lastmod>2024-03-05T10:20:30</lastmod>")]).into_bytes(),
            "sitemap.xml:3: error: lastmod '2024-03-05T10:20:30'",
        ),
        (
            "changefreq",
            urlset(&[
                &good,
                &format!(
                    "{}<changefreq>sometimes</changefreq>",
                    loc("https://example.org/b")
                ),
            ])
            .into_bytes(),
            "sitemap.xml:4: error: changefreq 'sometimes' is not one of always, hourly, daily, weekly, monthly, yearly, never",
        ),
        (
            "priority",
            urlset(&[&format!("{good}<priority>1.5</priority>")]).into_bytes(),
            "sitemap.xml:3: error: priority '1.5' is not a number from 0.0 to 1.0",
        ),
        (
            "priority text",
            urlset(&[&format!("{good}<priority>high</priority>")]).into_bytes(),
            "sitemap.xml:3: error: priority 'high'",
        ),
        (
            "unknown element",
            urlset(&[&format!("{good}<title>x</title>")]).into_bytes(),
            "sitemap.xml:3: error: unexpected <title> in <url>",
        ),
        (
            "undefined entity",
            urlset(&[&loc("https://example.org/?a=1&b=2")]).into_bytes(),
            "sitemap.xml:3: error:",
        ),
    ];
    for (what, content, want) in cases {
        let (code, stdout, _) = check_one("sitemap.xml", &content, &[]);
        assert_eq!(code, 1, "{what}: {stdout}");
        assert!(
            stdout.contains(want),
            "{what}: wanted {want:?} in\n{stdout}"
        );
    }
}

#[test]
fn the_protocol_limits_are_errors() {
    let urls: Vec<String> = (0..50_001)
        .map(|i| loc(&format!("https://example.org/p{i}")))
        .collect();
    let refs: Vec<&str> = urls.iter().map(String::as_str).collect();
    let (code, stdout, _) = check_one("sitemap.xml", urlset(&refs).as_bytes(), &[]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("sitemap.xml:50003: error: more than 50,000 URLs"),
        "{stdout}"
    );

    // Over 50 MiB uncompressed, even when it travels gzipped.
    let big_loc = loc(&format!("https://example.org/{}", "x".repeat(2000)));
    let mut xml = HEAD.to_string();
    let line = format!("  <url>{big_loc}</url>\n");
    for _ in 0..(52_428_800 / line.len() + 10) {
        xml.push_str(&line);
    }
    xml.push_str(TAIL);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(xml.as_bytes()).unwrap();
    let (code, stdout, _) = check_one("big.xml.gz", &gz.finish().unwrap(), &[]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(
            ": error: larger than 50 MiB uncompressed, over the protocol's limit; split it (the rest is not read)"
        ),
        "{}",
        &stdout[stdout.len().saturating_sub(500)..]
    );
}

#[test]
fn warnings_alone_exit_0_unless_strict() {
    let future = format!(
        "{}<lastmod>2999-01-01</lastmod>",
        loc("https://example.org/f")
    );
    let other_host = loc("https://elsewhere.example/x");
    let dup = loc("https://example.org/");
    let xml = urlset(&[&dup, &future, &other_host, &dup]);
    let (code, stdout, stderr) = check_one(
        "sitemap.xml",
        xml.as_bytes(),
        &["--base-url", "https://example.org/"],
    );
    assert_eq!(code, 0, "{stdout}");
    for want in [
        "sitemap.xml:4: warning: lastmod 2999-01-01 is in the future",
        "sitemap.xml:5: warning: URL is on elsewhere.example, not on example.org",
        "sitemap.xml:6: warning: duplicate URL (also at line 3): https://example.org/",
    ] {
        assert!(stdout.contains(want), "wanted {want:?} in\n{stdout}");
    }
    assert!(
        stderr.contains("checked 1 file, 4 URLs: 0 errors, 3 warnings"),
        "{stderr}"
    );
    let (code, _, _) = check_one(
        "sitemap.xml",
        xml.as_bytes(),
        &["--base-url", "https://example.org/", "--strict"],
    );
    assert_eq!(code, 1);
}

#[test]
fn one_lastmod_for_every_url_is_the_mark_of_build_time_dates() {
    let urls: Vec<String> = (0..101)
        .map(|i| {
            format!(
                "{}<lastmod>2026-01-01T12:00:00+00:00</lastmod>",
                loc(&format!("https://example.org/p{i}"))
            )
        })
        .collect();
    let refs: Vec<&str> = urls.iter().map(String::as_str).collect();
    let (code, stdout, _) = check_one("sitemap.xml", urlset(&refs).as_bytes(), &[]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains(
            "sitemap.xml:3: warning: all 101 URLs have lastmod 2026-01-01T12:00:00+00:00"
        ),
        "{stdout}"
    );
    let (_, stdout, _) = check_one("sitemap.xml", urlset(&refs[..100]).as_bytes(), &[]);
    assert!(stdout.is_empty(), "{stdout}");
}

#[test]
fn urls_blocked_by_the_sites_robots_txt_are_warned_about() {
    let site = Site::new(&[]);
    fs::write(
        site.public().join("robots.txt"),
        "User-agent: *\nDisallow: /private/\n",
    )
    .unwrap();
    fs::write(
        site.public().join("sitemap.xml"),
        urlset(&[
            &loc("https://example.org/"),
            &loc("https://example.org/private/x.html"),
        ]),
    )
    .unwrap();
    site.cmd()
        .args(["check", "public"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "sitemap.xml:4: warning: URL is blocked by public/robots.txt",
        ));
}

#[test]
fn an_index_is_followed_to_its_children_on_disk() {
    let site = Site::new(&[]);
    let public = site.public();
    fs::create_dir_all(public.join("maps")).unwrap();
    let index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <sitemap><loc>https://example.org/maps/a.xml</loc></sitemap>\n  <sitemap><loc>https://example.org/maps/b%20c.xml.gz</loc></sitemap>\n  <sitemap><loc>https://example.org/maps/missing.xml</loc></sitemap>\n  <sitemap><loc>https://example.org/maps/nested.xml</loc></sitemap>\n</sitemapindex>\n";
    fs::write(public.join("maps/index.xml"), index).unwrap();
    fs::write(
        public.join("maps/a.xml"),
        urlset(&[
            &loc("https://example.org/a"),
            &loc("https://example.org/a b"),
        ]),
    )
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(
        urlset(&[&loc("https://example.org/c"), &loc("https://example.org/a")]).as_bytes(),
    )
    .unwrap();
    fs::write(public.join("maps/b c.xml.gz"), gz.finish().unwrap()).unwrap();
    fs::write(public.join("maps/nested.xml"), index).unwrap();
    let out = site
        .cmd()
        .args(["check", "public/maps/index.xml"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    for want in [
        "public/maps/a.xml:4: error: URL holds a space",
        "public/maps/b c.xml.gz:4: warning: duplicate URL (also at public/maps/a.xml:3): https://example.org/a",
        "public/maps/index.xml:5: error: child sitemap https://example.org/maps/missing.xml is missing: not found under public/maps",
        "public/maps/index.xml:6: error: child sitemap https://example.org/maps/nested.xml is a sitemap index (public/maps/nested.xml); indexes may not nest: list its children instead\n",
    ] {
        assert!(out.contains(want), "wanted {want:?} in\n{out}");
    }
}

/// Feeds listed in an index (Nikola's and Blogger's) are checked as feeds: each item's
/// link as a page URL; the index is not invalid for them.
#[test]
fn feeds_in_an_index_are_checked_as_feeds() {
    let site = Site::new(&[]);
    let public = site.public();
    let index = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<sitemap><loc>https://example.org/sitemap-0.xml</loc></sitemap>\n<sitemap><loc>https://example.org/rss.xml</loc></sitemap>\n<sitemap><loc>https://example.org/atom.xml</loc></sitemap>\n</sitemapindex>\n";
    fs::write(public.join("sitemap.xml"), index).unwrap();
    fs::write(
        public.join("sitemap-0.xml"),
        urlset(&[&loc("https://example.org/")]),
    )
    .unwrap();
    let rss = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>T</title><link>https://example.org/</link><atom:link href=\"https://example.org/rss.xml\" rel=\"self\"/>\n<item><title>A</title><link>https://example.org/a/?x=1&amp;y=2</link></item>\n<item><title>B</title><link><![CDATA[https://example.org/b/]]></link></item>\n</channel></rss>\n";
    fs::write(public.join("rss.xml"), rss).unwrap();
    let atom = "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title><link href=\"https://example.org/\"/>\n<entry><title>C</title><link rel=\"alternate\" href=\"https://example.org/c/\"/><link rel=\"enclosure\" href=\"not checked\"/></entry>\n</feed>\n";
    fs::write(public.join("atom.xml"), atom).unwrap();
    site.cmd()
        .args(["check", "--strict", "public"])
        .assert()
        .success()
        .stdout("");
    // A bad link in a feed is reported where it is, as a sitemap's would be.
    fs::write(
        public.join("rss.xml"),
        rss.replace("https://example.org/b/", "b page"),
    )
    .unwrap();
    fs::write(
        public.join("atom.xml"),
        atom.replace("https://example.org/c/", ""),
    )
    .unwrap();
    let out = site
        .cmd()
        .args(["check", "public"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "public/rss.xml:4: error: URL holds a space, which must be percent-encoded: b page\npublic/rss.xml:4: error: 'b page' is not an absolute http(s) URL\npublic/atom.xml:3: error: '' is not an absolute http(s) URL\n"
    );
}

#[test]
fn text_sitemaps_are_checked_line_by_line() {
    let (code, stdout, stderr) = check_one(
        "sitemap.txt",
        b"https://example.org/\nhttps://example.org/a b\n\n/relative\nhttps://example.org/\n",
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        stdout.contains("sitemap.txt:2: error: URL holds a space"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sitemap.txt:4: error: '/relative' is not an absolute http(s) URL"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sitemap.txt:5: warning: duplicate URL (also at line 1)"),
        "{stdout}"
    );
    assert!(stderr.contains("4 URLs"), "{stderr}");
}

#[test]
fn real_generator_output_and_our_own_pass_without_warnings() {
    let hugo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hugo/public");
    bin()
        .arg("check")
        .arg(&hugo)
        .args(["--base-url", "https://hugo.example.org/", "--strict"])
        .assert()
        .success()
        .stdout("")
        .stderr("checked 1 file, 16 URLs: 0 errors, 0 warnings\n");

    let pages: Vec<String> = (0..30).map(|i| format!("p{i}/index.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.config("base_url = 'https://example.org/'\nmax_urls_per_file = 7\n");
    site.cmd()
        .arg("--check")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "checked 6 files, 35 URLs: 0 errors, 0 warnings",
        ));
}

#[test]
fn a_directory_without_a_sitemap_is_an_error() {
    let site = Site::new(&["index.html"]);
    site.cmd()
        .args(["check", "public"])
        .assert()
        .code(1)
        .stdout("public: error: no sitemap here (looked for sitemap.xml, sitemap_index.xml, sitemap-index.xml, sitemap.xml.gz, sitemap_index.xml.gz, sitemap.txt); give the sitemap file's path\n");
    site.cmd()
        .args(["check", "public/none.xml"])
        .assert()
        .code(1)
        .stdout(format!(
            "public/none.xml: error: cannot read ({})\n",
            // The platform's own words for a missing file, as the binary gets them.
            std::fs::File::open(site.public().join("none.xml")).unwrap_err()
        ));
    bin().arg("check").assert().code(2);
}

/// Each way a real-world sitemap broke the protocol that `check` once let through (or
/// misplaced), as (what, file content, the exact problem line).
#[test]
fn conformance_each_problem_at_its_line() {
    let good = loc("https://example.org/");
    let ns = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "Jekyll front matter left before the declaration",
            format!("---\nlayout: null\n---\n{}", urlset(&[&good])),
            "sitemap.xml:1: error: text before the root element ('---'): a sitemap is XML alone (front matter or a template left in?)",
        ),
        (
            "text after the root element",
            format!("{}trailing words\n", urlset(&[&good])),
            "sitemap.xml:5: error: text after the root element ('trailing words')",
        ),
        (
            "a declaration after a blank line",
            format!("\n{}", urlset(&[&good])),
            "sitemap.xml:2: error: the XML declaration must be the very first thing in the file",
        ),
        (
            "an undeclared prefix",
            format!(
                "<urlset {ns}>\n<url><loc>https://example.org/</loc>\n<image:image><image:loc>https://example.org/a.png</image:loc></image:image></url>\n</urlset>\n"
            ),
            "sitemap.xml:3: error: namespace prefix 'image' is not declared; add xmlns:image=\"...\" to the root element",
        ),
        (
            "an empty urlset",
            format!("<?xml version=\"1.0\"?>\n<urlset {ns}>\n</urlset>\n"),
            "sitemap.xml:3: error: <urlset> holds no <url>; the protocol requires at least one",
        ),
        (
            "an empty self-closed urlset",
            format!("<urlset {ns}/>\n"),
            "sitemap.xml:1: error: <urlset> holds no <url>",
        ),
        (
            "an empty index",
            format!("<sitemapindex {ns}>\n</sitemapindex>\n"),
            "sitemap.xml:2: error: <sitemapindex> holds no <sitemap>",
        ),
        (
            "two locs in one url",
            urlset(&[&format!("{good}<loc>https://example.org/b</loc>")]),
            "sitemap.xml:3: error: a second <loc> in one <url>; each appears once",
        ),
        (
            "a signed priority is a decimal",
            urlset(&[&format!("{good}<priority>+0.5</priority>")]),
            "",
        ),
        (
            "brackets in a path",
            urlset(&[&loc("https://example.org/a[1]")]),
            "sitemap.xml:3: error: URL holds '[' outside the host, which must be percent-encoded",
        ),
        (
            "a URL with no host",
            urlset(&[&loc("https:///path")]),
            "sitemap.xml:3: error: 'https:///path' is not an absolute http(s) URL",
        ),
        (
            "a URL with no slashes",
            urlset(&[&loc("http:example.com")]),
            "sitemap.xml:3: error: 'http:example.com' is not an absolute http(s) URL",
        ),
        (
            "a loc value on its own line",
            format!(
                "{HEAD}  <url>\n    <loc>\n      https://example.org/a b\n    </loc>\n  </url>\n{TAIL}"
            ),
            "sitemap.xml:5: error: URL holds a space",
        ),
        (
            "a second root element",
            format!("{}<urlset {ns}/>\n", urlset(&[&good])),
            "sitemap.xml:5: error: a second root element <urlset> after the first is closed",
        ),
    ];
    for (what, content, want) in cases {
        let (code, stdout, _) = check_one("sitemap.xml", content.as_bytes(), &[]);
        if want.is_empty() {
            assert_eq!((code, stdout.as_str()), (0, ""), "{what}");
            continue;
        }
        assert_eq!(code, 1, "{what}: {stdout}");
        assert!(
            stdout.lines().any(|l| l.starts_with(want)),
            "{what}: wanted {want:?} in\n{stdout}"
        );
        let errors = stdout.lines().filter(|l| l.contains(": error: ")).count();
        assert_eq!(errors, 1, "{what}: one error, got\n{stdout}");
    }
}

/// A UTF-8 byte-order mark at the start of a text sitemap: one warning, and the first
/// URL read without it.
#[test]
fn a_byte_order_mark_in_a_text_sitemap_is_one_warning() {
    let (code, stdout, stderr) = check_one(
        "sitemap.txt",
        "\u{feff}https://example.org/\nhttps://example.org/a\n".as_bytes(),
        &[],
    );
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        stdout,
        "sitemap.txt:1: warning: starts with a byte-order mark (U+FEFF), which some readers take as part of the first URL; save the file as UTF-8 without it\n"
    );
    assert!(stderr.contains("2 URLs"), "{stderr}");
}

/// A file given twice, as `./x` and `x`, or named and reached from an index, is read
/// once: no false duplicates.
#[test]
fn a_file_is_read_once_however_it_is_named() {
    let site = Site::new(&[]);
    let public = site.public();
    fs::write(
        public.join("a.xml"),
        urlset(&[&loc("https://example.org/a")]),
    )
    .unwrap();
    let index = String::from(
        "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<sitemap><loc>https://example.org/a.xml</loc></sitemap>\n</sitemapindex>\n",
    );
    fs::write(public.join("sitemap.xml"), index).unwrap();
    site.cmd()
        .args([
            "check",
            "public/a.xml",
            "./public/a.xml",
            "public",
            "public/sitemap.xml",
        ])
        .assert()
        .success()
        .stdout("")
        .stderr("checked 2 files, 2 URLs: 0 errors, 0 warnings\n");
}

/// Duplicates are looked for within a sitemap (a file, or an index and its children),
/// not across unrelated files given together.
#[test]
fn duplicates_are_within_one_sitemap_not_across_unrelated_files() {
    let site = Site::new(&[]);
    let public = site.public();
    fs::write(
        public.join("one.xml"),
        urlset(&[&loc("https://example.org/a")]),
    )
    .unwrap();
    fs::write(
        public.join("two.xml"),
        urlset(&[&loc("https://example.org/a")]),
    )
    .unwrap();
    site.cmd()
        .args(["check", "public/one.xml", "public/two.xml", "--strict"])
        .assert()
        .success()
        .stdout("");
}

/// An index child on another path than its siblings is not read as a same-named file
/// beside the index; a directory is looked in for the usual index names.
#[test]
fn an_index_child_is_found_where_its_url_says_or_reported_missing() {
    let site = Site::new(&[]);
    let public = site.public();
    fs::create_dir_all(public.join("maps")).unwrap();
    fs::write(
        public.join("sitemap-0.xml"),
        urlset(&[&loc("https://example.com/a")]),
    )
    .unwrap();
    fs::write(
        public.join("sitemap-1.xml"),
        urlset(&[&loc("https://example.com/b")]),
    )
    .unwrap();
    fs::write(
        public.join("maps/x.xml"),
        urlset(&[&loc("https://example.com/c")]),
    )
    .unwrap();
    let index = "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<sitemap><loc>https://example.com/sitemap-0.xml</loc></sitemap>\n<sitemap><loc>https://example.com/old/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>https://example.com/maps/x.xml</loc></sitemap>\n</sitemapindex>\n";
    fs::write(public.join("sitemap_index.xml"), index).unwrap();
    site.cmd()
        .args(["check", "public"])
        .assert()
        .code(1)
        .stdout("public/sitemap_index.xml:4: error: child sitemap https://example.com/old/sitemap-1.xml is missing: not found under public where the index's other children are\n")
        .stderr("checked 3 files, 5 URLs: 1 error, 0 warnings\n");
}

/// The build-time-dates warning says what is wrong; it names sitemapgen's settings only
/// for a sitemap sitemapgen wrote.
#[test]
fn the_build_time_dates_warning_names_our_settings_only_for_our_sitemaps() {
    let entries: Vec<String> = (0..101)
        .map(|i| format!("<loc>https://example.org/{i}</loc><lastmod>2024-01-01</lastmod>"))
        .collect();
    let entries: Vec<&str> = entries.iter().map(String::as_str).collect();
    let (_, stdout, _) = check_one("sitemap.xml", urlset(&entries).as_bytes(), &[]);
    assert_eq!(
        stdout,
        "sitemap.xml:3: warning: all 101 URLs have lastmod 2024-01-01: the mark of build-time dates, which search engines learn to ignore (each page's lastmod should be the date its content last changed)\n"
    );
}

/// An index that lists itself, or an index read before (given earlier on the command
/// line, or listed by another index), is an error on one line naming the index, its line
/// and the child, with `--strict` or without: the read-once rule passed over both.
#[test]
fn an_index_may_list_neither_itself_nor_another_index() {
    let site = Site::new(&[]);
    let public = site.public();
    let index = |locs: &[&str]| {
        let mut xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".to_string();
        for l in locs {
            xml.push_str(&format!("  <sitemap><loc>{l}</loc></sitemap>\n"));
        }
        xml + "</sitemapindex>\n"
    };
    fs::write(
        public.join("a.xml"),
        urlset(&[&loc("https://example.org/")]),
    )
    .unwrap();
    fs::write(
        public.join("self.xml"),
        index(&["https://example.org/a.xml", "https://example.org/self.xml"]),
    )
    .unwrap();
    fs::write(
        public.join("other.xml"),
        index(&["https://example.org/a.xml"]),
    )
    .unwrap();
    fs::write(
        public.join("top.xml"),
        index(&["https://example.org/a.xml", "https://example.org/other.xml"]),
    )
    .unwrap();
    let itself = "public/self.xml:4: error: child sitemap https://example.org/self.xml is this index itself; an index lists sitemaps, and indexes may not nest\n";
    let nested = "public/top.xml:4: error: child sitemap https://example.org/other.xml is a sitemap index (public/other.xml); indexes may not nest: list its children instead\n";
    let run = |args: &[&str]| {
        let out = site.cmd().arg("check").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for strict in [&[][..], &["--strict"]] {
        let out = run(&[&["public/self.xml"], strict].concat());
        assert!(out.starts_with(itself), "{out}");
        // Read first on its own, the listed index is still an index to the one after.
        for order in [
            ["public/other.xml", "public/top.xml"],
            ["public/top.xml", "public/other.xml"],
        ] {
            let out = run(&[&order[..], strict].concat());
            assert!(out.starts_with(nested), "{order:?}\n{out}");
            assert_eq!(out.matches("error").count(), 1, "{out}");
        }
    }
}
