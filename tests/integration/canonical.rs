//! Canonical links are URLs: a page whose canonical names its own file in another form
//! is listed at the URL the host serves, with a warning; one naming another page is left out; one naming nothing
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
/// category indexes say `/docs/guides/`. Every page is listed, at the URL the host
/// serves (`/about/`: hosts answer `/about` with a redirect), and each canonical in
/// another form is a warning. With `trailing_slash = false`, `/about` is served; the
/// category index's `/docs/guides/`, a directory's slashed form every host serves, is
/// followed.
#[test]
fn docusaurus_style_canonicals_list_every_page_at_the_url_served() {
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
    let slashed = [
        "https://example.org/",
        "https://example.org/about/",
        "https://example.org/blog/%C3%BCber-caf%C3%A9/",
        "https://example.org/docs/guides/",
        "https://example.org/docs/intro/",
    ];
    // A directory's slashed form is served by every host (without a `trailingSlash:
    // false` of its own): that canonical is followed.
    let unslashed_but_guides = [
        "https://example.org/",
        "https://example.org/about",
        "https://example.org/blog/%C3%BCber-caf%C3%A9",
        "https://example.org/docs/guides/",
        "https://example.org/docs/intro",
    ];
    for (trailing_slash, want, warned) in [
        ("true", slashed, ["about", "blog/über-café", "docs/intro"]),
        ("false", unslashed_but_guides, ["", "", ""]),
    ] {
        site.config(&format!(
            "base_url = 'https://example.org/'\ntrailing_slash = {trailing_slash}\n"
        ));
        let stderr = stderr_of(&site, &[], 0);
        let warnings = warned.iter().filter(|w| !w.is_empty()).count();
        let summary = match warnings {
            0 => "wrote public/sitemap.xml: 5 URLs in".to_string(),
            n => format!("wrote public/sitemap.xml: 5 URLs ({n} warnings)"),
        };
        assert!(stderr.contains(&summary), "{stderr}");
        let sitemap = site.public().join("sitemap.xml");
        validate(&sitemap, "sitemap.xsd");
        assert_eq!(locs(&sitemap), want);
        for page in warned.iter().filter(|w| !w.is_empty()) {
            assert!(
                stderr.contains(&format!("warning: public/{page}/index.html: canonical ")),
                "{stderr}"
            );
        }
    }
    // One line each, naming the page, the canonical, the URL served and the fix.
    site.config("base_url = 'https://example.org/'\n");
    let stderr = stderr_of(&site, &[], 0);
    assert!(stderr.contains("warning: public/about/index.html: canonical https://example.org/about names this page in another form than the URL the host serves, https://example.org/about/; listed as https://example.org/about/: make the canonical the URL the host serves\n"), "{stderr}");
}

/// Issue 62: `en/b/index.html` whose canonical is `/en/b` was listed as `/en/b`, which
/// every static host answers with a redirect to `/en/b/`. It is listed as `/en/b/` with
/// a warning, which the audit (`build --check`) counts; a canonical naming another page
/// is still left out as "canonical elsewhere".
#[test]
fn a_canonical_in_another_form_is_listed_at_the_url_served_and_audited() {
    let site = Site::new(&["index.html"]);
    with_canonical(&site, "en/b/index.html", "https://example.org/en/b");
    with_canonical(&site, "en/b/print/index.html", "https://example.org/en/b");
    site.config("base_url = 'https://example.org/'\n");
    let out = site
        .cmd()
        .args(["--check"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let warning = "public/en/b/index.html: canonical https://example.org/en/b names this page in another form than the URL the host serves, https://example.org/en/b/; listed as https://example.org/en/b/: make the canonical the URL the host serves";
    assert!(
        stderr.contains(&format!("warning: {warning}\n")),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 URLs (1 canonical elsewhere, 1 warning)"),
        "{stderr}"
    );
    assert!(
        stdout.starts_with(&format!(
            "canonical in another form than the URL served (1):\n  warning: {warning}\n"
        )),
        "{stdout}"
    );
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/", "https://example.org/en/b/"]
    );
}

/// Hugo with `uglyURLs` writes `about.html` naming itself `/about.html`; under
/// `cleanUrls` the host serves `/about` and redirects `/about.html` there. Listed as
/// `/about`, with a warning naming the host's file, or `clean_urls = true`.
#[test]
fn a_hugo_like_page_under_clean_urls_is_listed_at_the_url_served() {
    let site = Site::new(&["index.html"]);
    with_canonical(&site, "about.html", "https://example.org/about.html");
    let line = |by: &str| {
        format!(
            "warning: public/about.html: canonical https://example.org/about.html names this page in another form than the URL the host serves, https://example.org/about{by}; listed as https://example.org/about: make the canonical the URL the host serves\n"
        )
    };
    site.config("base_url = 'https://example.org/'\nclean_urls = true\n");
    let stderr = stderr_of(&site, &[], 0);
    assert!(stderr.contains(&line("")), "{stderr}");
    let want = ["https://example.org/", "https://example.org/about"];
    assert_eq!(locs(&site.public().join("sitemap.xml")), want);

    site.config("base_url = 'https://example.org/'\n");
    fs::write(
        site.root().join("vercel.json"),
        "{\n  \"cleanUrls\": true\n}\n",
    )
    .unwrap();
    let stderr = stderr_of(&site, &[], 0);
    assert!(
        stderr.contains(&line(" (vercel.json:2 redirects that form)")),
        "{stderr}"
    );
    assert_eq!(locs(&site.public().join("sitemap.xml")), want);
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
