//! Sharded builds: one `build` per part of the site, then `index` over their sitemaps.

use std::fs;

use predicates::prelude::*;

use crate::util::{Site, locs, parse, validate_set};

#[test]
fn shards_are_joined_into_one_flat_index() {
    let mut pages: Vec<String> = (0..5).map(|i| format!("blog/p{i}.html")).collect();
    pages.extend((0..3).map(|i| format!("docs/d{i}.html")));
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.set_all_mtimes(1_700_000_000);
    site.set_mtime("docs/d2.html", 1_710_000_000);

    // The blog shard is large enough to become an index of its own.
    fs::write(
        site.root().join("blog.toml"),
        "base_url = 'https://example.org/blog/'\npublic_dir = 'public/blog'\nmax_urls_per_file = 2\n",
    )
    .unwrap();
    site.cmd()
        .args(["build", "--config", "blog.toml", "-q"])
        .assert()
        .success();
    let blog: Vec<String> = validate_set(&site.public().join("blog/sitemap.xml"))
        .iter()
        .map(|c| {
            format!(
                "https://example.org/blog/{}",
                c.file_name().unwrap().to_str().unwrap()
            )
        })
        .collect();
    assert_eq!(blog.len(), 3);
    site.cmd()
        .args([
            "build",
            "public/docs",
            "--base-url",
            "https://example.org/docs/",
            "-q",
        ])
        .assert()
        .success();

    site.cmd()
        .args([
            "index",
            "public/blog/sitemap.xml",
            "public/docs/sitemap.xml",
        ])
        .args([
            "--base-url",
            "https://example.org/",
            "-o",
            "public/sitemap.xml",
        ])
        .assert()
        .success()
        .stderr("wrote public/sitemap.xml: index of 4 sitemaps\n");
    let index = site.public().join("sitemap.xml");
    validate_set(&index);
    let (root, children) = parse(&fs::read_to_string(&index).unwrap());
    assert_eq!(root, "sitemapindex");
    let got: Vec<(String, String)> = children
        .into_iter()
        .map(|c| (c.loc, c.lastmod.unwrap_or_default()))
        .collect();
    assert_eq!(
        got,
        [
            (blog[0].clone(), "2023-11-14T22:13:20+00:00".to_string()),
            (blog[1].clone(), "2023-11-14T22:13:20+00:00".to_string()),
            (blog[2].clone(), "2023-11-14T22:13:20+00:00".to_string()),
            (
                "https://example.org/docs/sitemap.xml".to_string(),
                "2024-03-09T16:00:00+00:00".to_string()
            ),
        ]
    );
    assert_eq!(locs(&site.public().join("docs/sitemap.xml")).len(), 3);
    site.cmd()
        .args(["check", "public/sitemap.xml", "--strict"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "checked 5 files, 12 URLs: 0 errors, 0 warnings",
        ));
}

#[test]
fn inputs_must_be_sitemaps_under_the_root() {
    let site = Site::new(&["index.html"]);
    fs::write(site.public().join("feed.xml"), "<rss/>").unwrap();
    site.cmd()
        .args([
            "index",
            "public/feed.xml",
            "--base-url",
            "https://example.org/",
            "-o",
            "public/sitemap.xml",
        ])
        .assert()
        .code(1)
        .stderr("error: public/feed.xml: is not a sitemap (its root is <rss>)\n");
    fs::write(site.root().join("outside.xml"), "<urlset/>").unwrap();
    site.cmd()
        .args([
            "index",
            "outside.xml",
            "--base-url",
            "https://example.org/",
            "-o",
            "public/sitemap.xml",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not under public"));
    assert!(!site.public().join("sitemap.xml").exists());
}

/// A shard's index listing `locs` (XML-escaped already), child N at line N + 2.
fn shard_index(locs: &[&str]) -> String {
    let mut xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".to_string();
    for loc in locs {
        xml.push_str(&format!("  <sitemap><loc>{loc}</loc></sitemap>\n"));
    }
    xml + "</sitemapindex>\n"
}

/// Runs `index public/shard.xml` with the default stylesheet (which renders each child as
/// a link) and `extra` flags.
fn index_shard(site: &Site, extra: &[&str]) -> assert_cmd::assert::Assert {
    site.cmd()
        .args([
            "index",
            "public/shard.xml",
            "--base-url",
            "https://example.org/",
        ])
        .args(["-o", "public/sitemap.xml", "--stylesheet", "default"])
        .args(extra)
        .assert()
}

/// A child `<loc>` that `check` would refuse (or on another host) is an error naming the
/// input and its line, exit 1, and nothing is written: neither the index nor the
/// stylesheet, so no `javascript:` link ever reaches a rendered index.
#[test]
fn children_check_would_refuse_are_errors_and_nothing_is_written() {
    let site = Site::new(&["index.html"]);
    let fix = "; an index lists each sitemap by its absolute, percent-encoded http(s) URL (run sitemapgen check on the input)";
    let cases = [
        ("", format!("'' is not an absolute http(s) URL{fix}")),
        (
            "javascript:void(0)",
            format!("'javascript:void(0)' is not an absolute http(s) URL{fix}"),
        ),
        (
            "JavaScript:alert(document.domain)",
            format!("'JavaScript:alert(document.domain)' is not an absolute http(s) URL{fix}"),
        ),
        (
            "not a url &lt;b&gt;",
            format!("'not a url <b>' holds a space, which must be percent-encoded{fix}"),
        ),
        (
            "https://evil.example/sitemap.xml",
            "'https://evil.example/sitemap.xml' is on evil.example, not on example.org (--base-url's host); list only this site's sitemaps, or pass --allow-other-hosts for another site you own".to_string(),
        ),
    ];
    for (loc, problem) in cases {
        let shard = shard_index(&["https://example.org/a.xml", loc]);
        fs::write(site.public().join("shard.xml"), &shard).unwrap();
        index_shard(&site, &[]).code(1).stdout("").stderr(format!(
            "error: public/shard.xml:4: child sitemap {problem}\n"
        ));
        assert_eq!(site.listing(), ["index.html", "shard.xml"], "{loc}");
    }
    let long = format!("https://example.org/{}.xml", "a".repeat(2030));
    fs::write(site.public().join("shard.xml"), shard_index(&[&long])).unwrap();
    index_shard(&site, &[]).code(1).stderr(
        predicate::str::contains("public/shard.xml:3: child sitemap 'https://example.org/aaa").and(
            predicate::str::contains("' is 2054 characters; the protocol allows fewer than 2,048"),
        ),
    );
    assert_eq!(site.listing(), ["index.html", "shard.xml"]);
}

/// Another host is listed when the user says so; the written index passes `check`.
#[test]
fn children_on_another_host_are_listed_when_allowed() {
    let site = Site::new(&["index.html"]);
    let shard = shard_index(&["https://example.org/a.xml", "https://other.example/b.xml"]);
    fs::write(site.public().join("shard.xml"), shard).unwrap();
    index_shard(&site, &["--allow-other-hosts", "-q"])
        .success()
        .stderr("");
    let (root, children) = parse(&site.read("sitemap.xml"));
    assert_eq!(root, "sitemapindex");
    let got: Vec<String> = children.into_iter().map(|c| c.loc).collect();
    assert_eq!(
        got,
        ["https://example.org/a.xml", "https://other.example/b.xml"]
    );
}
