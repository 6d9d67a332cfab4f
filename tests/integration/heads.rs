//! What pages' heads say decides what is listed: the fixture in tests/fixtures/heads.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, copy_tree, locs, parse, validate};

const BASE: &str = "base_url = 'https://example.org/'\n";

/// The fixture site, plus a 5 MB page made here rather than kept in the repository.
fn fixture() -> Site {
    let site = Site::new(&[]);
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/heads"),
        &site.public(),
    );
    let para = format!("<p>{}</p>\n", "Lorem ipsum dolor sit amet. ".repeat(40));
    let big = format!(
        "<!DOCTYPE html><html><head><title>big</title>\
         <meta property=\"article:modified_time\" content=\"2023-06-01T12:00:00+02:00\"></head>\
         <body>{}<meta name=\"robots\" content=\"noindex\"></body></html>",
        para.repeat(5 * 1024 * 1024 / para.len() + 1)
    );
    fs::write(site.public().join("big.html"), big).unwrap();
    site.set_all_mtimes(1_700_000_000); // 2023-11-14T22:13:20Z
    site
}

#[test]
fn pages_are_listed_or_left_out_by_what_their_heads_say() {
    let site = fixture();
    site.config(BASE);
    let out = site
        .cmd()
        .arg("-v")
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8(out).unwrap();
    let path = site.public().join("sitemap.xml");
    validate(&path, "sitemap+xhtml.xsd");
    let (_, urls) = parse(&fs::read_to_string(&path).unwrap());
    let got: Vec<&str> = urls.iter().map(|u| u.loc.as_str()).collect();
    assert_eq!(
        got,
        [
            "https://example.org/",
            "https://example.org/bad-date.html",
            "https://example.org/big.html",
            "https://example.org/binary.html",
            "https://example.org/canonical-javascript.html",
            "https://example.org/canonical-self-absolute.html",
            "https://example.org/canonical-self/",
            "https://example.org/dated/",
            "https://example.org/de/",
            "https://example.org/en/",
            "https://example.org/googlebot-noindex.html",
            "https://example.org/index-follow.html",
            "https://example.org/noindex-in-body.html",
            "https://example.org/robots-no-content.html",
            "https://example.org/unterminated-head.html",
        ]
    );
    for line in [
        "left out public/noindex-upper.html: noindex (robots meta tag)",
        "left out public/noindex-none.html: noindex (robots meta tag)",
        "left out public/kept-by-rule/index.html: noindex (robots meta tag)",
        "left out public/old-url/index.html: redirect stub (meta refresh to https://example.org/canonical-self/)",
        "left out public/canonical-other.html: canonical elsewhere (https://example.org/canonical-self/)",
        "left out public/canonical-missing.html: canonical names no page of this site (https://example.org/not-a-page/)",
        "warning: public/canonical-missing.html: left out for its canonical, which names no page of this site: page https://example.org/canonical-missing.html, canonical https://example.org/not-a-page/ (fix the canonical link, or set respect_canonical = false)",
        "warning: public/canonical-javascript.html: canonical 'javascript:alert(1)' ignored: uses the javascript: scheme",
        "warning: public/en/index.html: hreflang 'en_US' ignored: not a language tag",
        "warning: public/en/index.html: hreflang 'javascript:void(0)' ignored: uses the javascript: scheme",
        "warning: public/bad-date.html: modified date 'sometime last spring' is not a date",
        "15 URLs (3 noindex, 1 redirect, 1 canonical elsewhere, 1 canonical not on this site, 5 warnings)",
    ] {
        assert!(stderr.contains(line), "stderr lacks {line:?}:\n{stderr}");
    }
}

#[test]
fn hreflang_alternates_are_written_as_absolute_xhtml_links() {
    let site = fixture();
    site.config(BASE);
    site.cmd().assert().success();
    let xml = site.read("sitemap.xml");
    let en = r#"    <loc>https://example.org/en/</loc>
    <lastmod>2023-11-14T22:13:20+00:00</lastmod>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.org/en/"/>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/en/"/>
  </url>"#;
    assert!(xml.contains(en), "{xml}");
    let de = r#"    <xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/"/>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.org/en/"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/en/"/>"#;
    assert!(xml.contains(de), "{xml}");
    assert!(xml.contains(r#"xmlns:xhtml="http://www.w3.org/1999/xhtml""#));
    validate(&site.public().join("sitemap.xml"), "sitemap+xhtml.xsd");
}

#[test]
fn modified_dates_come_from_the_head_before_the_mtime() {
    let site = fixture();
    site.config(BASE);
    site.cmd().assert().success();
    let (_, urls) = parse(&site.read("sitemap.xml"));
    let lastmod = |loc: &str| {
        urls.iter()
            .find(|u| u.loc == loc)
            .and_then(|u| u.lastmod.clone())
            .unwrap()
    };
    assert_eq!(
        lastmod("https://example.org/dated/"),
        "2021-02-03T04:05:06+00:00"
    );
    assert_eq!(
        lastmod("https://example.org/big.html"),
        "2023-06-01T10:00:00+00:00"
    );
    assert_eq!(
        lastmod("https://example.org/bad-date.html"),
        "2023-11-14T22:13:20+00:00"
    );
    assert_eq!(lastmod("https://example.org/"), "2023-11-14T22:13:20+00:00");

    site.config(&format!("{BASE}lastmod = 'mtime'\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("not a date").not());
    let (_, urls) = parse(&site.read("sitemap.xml"));
    assert!(
        urls.iter()
            .all(|u| u.lastmod.as_deref() == Some("2023-11-14T22:13:20+00:00"))
    );
}

#[test]
fn every_head_rule_can_be_switched_off() {
    let site = fixture();
    let count = |config: &str| {
        site.config(&format!("{BASE}{config}"));
        site.cmd().assert().success();
        locs(&site.public().join("sitemap.xml")).len()
    };
    assert_eq!(count(""), 15);
    assert_eq!(count("respect_noindex = false\n"), 18);
    assert_eq!(count("skip_redirects = false\n"), 16);
    assert_eq!(count("respect_canonical = false\n"), 17);
    assert_eq!(
        count("respect_noindex = false\nskip_redirects = false\nrespect_canonical = false\n"),
        21
    );
    count("alternates = false\n");
    assert!(!site.read("sitemap.xml").contains("xhtml"));
}

#[test]
fn the_users_rule_overrides_what_the_head_says() {
    let site = fixture();
    site.config(&format!(
        "{BASE}[[rule]]\nmatch = ['kept-by-rule/**', 'canonical-other.html', 'old-url/**']\nexclude = false\n"
    ));
    site.cmd().assert().success();
    let urls = locs(&site.public().join("sitemap.xml"));
    for url in ["kept-by-rule/", "canonical-other.html", "old-url/"] {
        assert!(
            urls.contains(&format!("https://example.org/{url}")),
            "{url}: {urls:?}"
        );
    }
}

#[test]
fn noindex_agents_choose_which_meta_names_are_obeyed() {
    let site = fixture();
    site.config(&format!("{BASE}noindex_agents = ['robots', 'GoogleBot']\n"));
    site.cmd().assert().success();
    let urls = locs(&site.public().join("sitemap.xml"));
    assert!(!urls.contains(&"https://example.org/googlebot-noindex.html".to_string()));
    assert_eq!(urls.len(), 14);
}

/// What is not a page, said under `-v` with its reason: a `<noscript>` redirect (Zola's
/// aliases), a `<noscript>` noindex and the root SPA fallback; a noindex in a
/// `<template>` is inert, and a `200.html` below the root, a feed link with an `hreflang`,
/// a tracking pixel in a `<noscript>` and a file with no document tags (a page built
/// without a layout) change nothing.
#[test]
fn what_is_not_a_page_is_left_out_with_its_reason() {
    let site = Site::new(&["index.html", "blog/200.html"]);
    let write = |rel: &str, html: &str| fs::write(site.public().join(rel), html).unwrap();
    write(
        "old.html",
        "<!doctype html><meta charset=utf-8><title>Redirect</title><script>location.replace('/')</script><noscript><meta http-equiv=refresh content='0; url=https://example.org/'></noscript>",
    );
    write(
        "hidden.html",
        "<!doctype html><head><noscript><meta name=robots content=noindex></noscript></head>",
    );
    write(
        "header.html",
        "<header><nav><a href=/>Home</a></nav></header>",
    );
    write(
        "200.html",
        "<!doctype html><html><head><title>App</title></head><body><div id=__nuxt></div>",
    );
    write(
        "template.html",
        "<!doctype html><head><template><meta name=robots content=noindex></template><noscript><img src=/px.gif></noscript><link rel=alternate type=application/rss+xml hreflang=en href=/rss.xml><link rel=canonical href=/template.html></head>",
    );
    site.config(BASE);
    let out = site.cmd().arg("-v").assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    for line in [
        "left out public/old.html: redirect stub (meta refresh to https://example.org/)",
        "left out public/hidden.html: noindex (robots meta tag)",
        "skipped public/200.html: not a page: a single-page app fallback",
        "wrote public/sitemap.xml: 4 URLs (1 noindex, 1 redirect)",
    ] {
        assert!(stderr.contains(line), "{line}\n{stderr}");
    }
    let xml = site.read("sitemap.xml");
    assert!(!xml.contains("xhtml:link"), "{xml}");
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/blog/200.html",
            "https://example.org/header.html",
            "https://example.org/template.html",
        ]
    );
}
