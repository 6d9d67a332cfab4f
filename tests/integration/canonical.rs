//! Canonical links are URLs: a page whose canonical names its own file in another form
//! is listed under that form; one naming another page is left out; one naming nothing
//! on this site is left out with a warning that shows both URLs; a pattern of wrong
//! canonicals fails the run.

use std::fs;

use crate::util::{Site, locs, validate};

/// Writes `rel` with a head holding `<link rel="canonical" href="{href}">`.
fn with_canonical(site: &Site, rel: &str, href: &str) {
    let path = site.page(rel);
    let html = format!(
        "<!doctype html><html><head><title>t</title><link rel=\"canonical\" href=\"{href}\"></head><body>x</body></html>\n"
    );
    fs::write(path, html).unwrap();
}

fn stderr_of(site: &Site, args: &[&str], code: i32) -> String {
    let out = site
        .cmd()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    String::from_utf8(out.stderr).unwrap()
}

/// Docusaurus' default build: `about/index.html` says its canonical is `/about`, the
/// category indexes say `/docs/guides/`. Every page is listed, under its canonical.
#[test]
fn docusaurus_style_canonicals_list_every_page_under_its_own_form() {
    let site = Site::new(&[]);
    with_canonical(&site, "index.html", "https://example.org/");
    with_canonical(&site, "about/index.html", "https://example.org/about");
    with_canonical(
        &site,
        "docs/intro/index.html",
        "https://example.org/docs/intro",
    );
    with_canonical(
        &site,
        "docs/guides/index.html",
        "https://example.org/docs/guides/",
    );
    with_canonical(
        &site,
        "blog/über-café/index.html",
        "https://example.org/blog/%C3%BCber-caf%C3%A9",
    );
    for trailing_slash in ["true", "false"] {
        site.config(&format!(
            "base_url = 'https://example.org/'\ntrailing_slash = {trailing_slash}\n"
        ));
        let stderr = stderr_of(&site, &[], 0);
        assert!(
            stderr.contains("wrote public/sitemap.xml: 5 URLs in"),
            "{stderr}"
        );
        let sitemap = site.public().join("sitemap.xml");
        validate(&sitemap, "sitemap.xsd");
        assert_eq!(
            locs(&sitemap),
            [
                "https://example.org/",
                "https://example.org/about",
                "https://example.org/blog/%C3%BCber-caf%C3%A9",
                "https://example.org/docs/guides/",
                "https://example.org/docs/intro",
            ]
        );
    }
}

/// Sphinx names each page by its file; Astro with a base names the home page without
/// the base's slash. Both are the page itself.
#[test]
fn sphinx_and_astro_base_canonicals_name_the_page_itself() {
    let site = Site::new(&[]);
    with_canonical(&site, "index.html", "https://example.org/index.html");
    with_canonical(
        &site,
        "guide/index.html",
        "https://example.org/guide/index.html",
    );
    with_canonical(
        &site,
        "guide/install.html",
        "https://example.org/guide/install.html",
    );
    site.config("base_url = 'https://example.org/'\n");
    stderr_of(&site, &[], 0);
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/guide/index.html",
            "https://example.org/guide/install.html",
            "https://example.org/index.html",
        ]
    );

    let site = Site::new(&[]);
    with_canonical(&site, "index.html", "https://example.org/docs");
    with_canonical(&site, "start/index.html", "https://example.org/docs/start/");
    site.config("base_url = 'https://example.org/docs/'\n");
    stderr_of(&site, &[], 0);
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/docs/",
            "https://example.org/docs/start/"
        ]
    );
}

/// Another page of this site: left out quietly (duplicates are what canonicals are
/// for); nothing on this site: left out, counted apart, and warned with both URLs.
#[test]
fn canonicals_to_other_pages_and_to_nothing_are_told_apart() {
    let site = Site::new(&["index.html", "a/index.html"]);
    with_canonical(&site, "a/print/index.html", "/a/");
    with_canonical(&site, "b/index.html", "/b-typo/");
    with_canonical(&site, "c/index.html", "https://other.example/c/");
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &["-v"], 0);
    for line in [
        "warning: public/b/index.html: left out for its canonical, which names no page of this site: page https://example.org/b/, canonical https://example.org/b-typo/ (fix the canonical link, or set respect_canonical = false)\n",
        "warning: public/c/index.html: left out for its canonical, which is on another host than base_url: page https://example.org/c/, canonical https://other.example/c/ (check base_url and the URL the site was built for, or set respect_canonical = false)\n",
        "left out public/a/print/index.html: canonical elsewhere (https://example.org/a/)\n",
        "left out public/b/index.html: canonical names no page of this site (https://example.org/b-typo/)\n",
        "2 URLs (1 canonical elsewhere, 2 canonical not on this site, 2 warnings)",
    ] {
        assert!(stderr.contains(line), "stderr lacks {line:?}:\n{stderr}");
    }
    assert!(!stderr.contains("warning: public/a/print"), "{stderr}");
}

/// A canonical naming a page that is itself left out would make both vanish: warned.
#[test]
fn a_canonical_to_a_page_that_is_not_listed_is_warned() {
    let site = Site::new(&["index.html"]);
    with_canonical(&site, "copy.html", "/original.html");
    let original = site.page("original.html");
    fs::write(
        original,
        "<html><head><meta name=robots content=noindex></head></html>",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &[], 0);
    assert!(
        stderr.contains("warning: public/copy.html: left out for its canonical, a page that is not in the sitemap either: page https://example.org/copy.html, canonical https://example.org/original.html"),
        "{stderr}"
    );
}

/// A site-wide canonical tag, or a site built for another URL: the run fails with one
/// error naming the pattern, writes nothing, and -v still lists every page left out.
#[test]
fn a_site_wide_or_foreign_canonical_fails_the_run_loudly() {
    let site = Site::new(&[]);
    for i in 0..12 {
        with_canonical(&site, &format!("p{i}/index.html"), "https://immudb.io");
    }
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &["-v"], 1);
    assert!(
        stderr.ends_with("error: 12 of 12 pages name https://immudb.io/ as canonical: a site-wide canonical tag, or the site was built for another URL; fix the template or set respect_canonical = false\n"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("left out public/p").count(), 12, "{stderr}");
    assert!(!stderr.contains("warning:"), "{stderr}");
    assert!(!site.public().join("sitemap.xml").exists());

    // Built with a development URL, run with the production one.
    let site = Site::new(&[]);
    for i in 0..20 {
        with_canonical(
            &site,
            &format!("p{i}/index.html"),
            &format!("http://localhost:4000/p{i}/"),
        );
    }
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &[], 1);
    assert!(
        stderr.contains("error: 20 of 20 pages have a canonical on another host than base_url https://example.org/ (e.g. http://localhost:4000/p0/): the site was built for another URL"),
        "{stderr}"
    );

    // The way out the message names works.
    site.config("base_url = 'https://example.org/'\nrespect_canonical = false\n");
    let stderr = stderr_of(&site, &[], 0);
    assert!(stderr.contains("20 URLs"), "{stderr}");
}

/// When every page is left out, the error counts the real reasons, not "rules".
#[test]
fn when_every_page_is_left_out_the_error_names_the_real_reasons() {
    let site = Site::new(&[]);
    with_canonical(&site, "a.html", "/b.html");
    with_canonical(&site, "b.html", "/a.html");
    let noindex = site.page("c.html");
    fs::write(noindex, "<meta name=robots content=noindex>").unwrap();
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &["-v"], 1);
    assert!(
        stderr.ends_with("error: all 3 pages under public were left out (1 noindex, 2 canonical elsewhere); a sitemap needs at least one URL - run with -v to see each page and why; check the canonical links and base_url\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("left out public/c.html: noindex"),
        "{stderr}"
    );
    assert!(!stderr.contains("rules"), "{stderr}");
}
