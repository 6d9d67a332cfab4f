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
