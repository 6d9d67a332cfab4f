//! robots.txt both ways: honoured when listing, updated to announce the sitemap.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, locs};

const BASE: &str = "base_url = 'https://example.org/'\n";

const PAGES: &[&str] = &[
    "index.html",
    "private/secret.html",
    "private/press/release.html",
    "files/report.pdf.html",
    "files/report.pdf.html.html",
    "drafts/x.html",
    "drafts-old.html",
    "drafts/published/y.html",
    "tie/index.html",
    "blog/post.html",
];

fn site() -> Site {
    let site = Site::new(PAGES);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/robots/robots.txt");
    fs::copy(fixture, site.public().join("robots.txt")).unwrap();
    // The other sitemap robots.txt announces, served from the site like everything else.
    fs::write(site.public().join("news-sitemap.xml"), "<urlset/>").unwrap();
    site
}

fn listed(site: &Site) -> Vec<String> {
    locs(&site.public().join("sitemap.xml"))
        .into_iter()
        .map(|u| u.trim_start_matches("https://example.org").to_string())
        .collect()
}

#[test]
fn disallowed_urls_are_left_out_by_googles_precedence() {
    let site = site();
    site.config(BASE);
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "left out public/private/secret.html: blocked by robots.txt",
        ))
        .stderr(predicate::str::contains("(4 blocked by robots.txt)"));
    assert_eq!(
        listed(&site),
        [
            "/",
            "/blog/post.html",
            "/drafts/published/y.html",
            "/files/report.pdf.html.html",
            "/private/press/release.html",
            "/tie/",
        ]
    );
}

#[test]
fn the_configured_agent_gets_its_own_group_case_insensitively() {
    let site = site();
    site.config(&format!("{BASE}robots_agent = 'otherbot'\n"));
    site.cmd().assert().success();
    assert_eq!(listed(&site), ["/blog/post.html"]);
}

#[test]
fn robots_can_be_ignored_and_only_apply_at_the_host_root() {
    let site = site();
    site.config(&format!("{BASE}respect_robots = false\n"));
    site.cmd().assert().success();
    assert_eq!(listed(&site).len(), PAGES.len());

    site.config("base_url = 'https://example.org/docs/'\n");
    site.cmd().assert().success();
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), PAGES.len());
}

#[test]
fn update_announces_the_sitemap_keeping_every_other_byte() {
    let site = site();
    let robots = site.public().join("robots.txt");
    let before = fs::read_to_string(&robots).unwrap();
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "added Sitemap: https://example.org/sitemap.xml to public/robots.txt",
        ));
    let after = fs::read_to_string(&robots).unwrap();
    assert_eq!(
        after,
        format!("{before}Sitemap: https://example.org/sitemap.xml\n")
    );

    // Idempotent; and a renamed output replaces the stale line of ours in place.
    site.cmd().assert().success();
    assert_eq!(fs::read_to_string(&robots).unwrap(), after);
    site.config(&format!(
        "{BASE}robots_txt = 'update'\noutput = 'sitemap_index.xml'\n"
    ));
    fs::remove_file(site.public().join("sitemap.xml")).unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "replaced Sitemap: https://example.org/sitemap.xml",
        ));
    assert_eq!(
        fs::read_to_string(&robots).unwrap(),
        format!("{before}Sitemap: https://example.org/sitemap_index.xml\n")
    );
    // The other sitemap of the site is still announced.
    assert!(
        fs::read_to_string(&robots)
            .unwrap()
            .contains("news-sitemap.xml")
    );
}

#[test]
fn create_writes_a_minimal_robots_txt_and_update_does_not() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("there is no public/robots.txt"));
    assert!(!site.public().join("robots.txt").exists());

    site.config(&format!("{BASE}robots_txt = 'create'\n"));
    site.cmd().assert().success();
    assert_eq!(
        fs::read_to_string(site.public().join("robots.txt")).unwrap(),
        "User-agent: *\nAllow: /\n\nSitemap: https://example.org/sitemap.xml\n"
    );
}
