//! The site-wide audit: `build --check` and `check --site DIR`.

use std::fs;

use crate::util::{Site, validate_set};

/// A site of three translations with a broken return link, a missing self-reference
/// and two x-defaults, two pages sharing a title, and a noindexed page.
fn broken_site() -> Site {
    let site = Site::new(&[]);
    let alt = |lang: &str, path: &str| {
        format!("<link rel=alternate hreflang={lang} href=https://example.org/{path}>")
    };
    let pages = [
        ("index.html", "<title>Home</title>".to_string()),
        (
            "n.html",
            "<title>N</title><meta name=robots content=noindex>".to_string(),
        ),
        (
            "en/a.html",
            format!(
                "<title>A</title>{}{}{}",
                alt("en", "en/a.html"),
                alt("de", "de/a.html"),
                alt("x-default", "en/a.html")
            ),
        ),
        (
            "de/a.html",
            format!(
                "<title>A</title>{}{}{}",
                alt("de", "de/a.html"),
                alt("fr", "fr/a.html"),
                alt("x-default", "de/a.html")
            ),
        ),
        (
            "fr/a.html",
            format!("<title>Fr</title>{}", alt("de", "de/a.html")),
        ),
    ];
    for (path, head) in pages {
        let path = site.public().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(
            path,
            format!("<html><head>{head}</head><body>x</body></html>"),
        )
        .unwrap();
    }
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site
}

#[test]
fn build_check_audits_the_site_grouped_with_totals() {
    let site = broken_site();
    let out = site
        .cmd()
        .args(["build", "--check"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("audit_build_check", stdout);
    validate_set(&site.public().join("sitemap.xml"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("audited 4 pages: 0 errors, 4 warnings"),
        "{stderr}"
    );
    // --strict: the warnings fail the run.
    site.cmd()
        .args(["build", "--check", "--strict", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--check found 4 problems"));
    // JSON: the same findings.
    let out = site
        .cmd()
        .args(["build", "--check", "--json"])
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["audit"]["warnings"], 4);
    assert_eq!(
        json["audit"]["findings"][0]["kind"],
        "hreflang_not_reciprocal"
    );
}

#[test]
fn check_site_audits_another_sitemap_against_the_site() {
    let site = broken_site();
    let sitemap = site.root().join("theirs.xml");
    fs::write(
        &sitemap,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.org/</loc></url>\n<url><loc>https://example.org/n.html</loc></url>\n<url><loc>https://example.org/en/a</loc></url>\n<url><loc>https://example.org/gone/</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let out = site
        .cmd()
        .args(["check", "theirs.xml", "--site", "public"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("listed but not indexable (2):\n  error: theirs.xml:4: https://example.org/n.html is noindex (robots meta tag); take it out of the sitemap\n"), "{stdout}");
    assert!(
        stdout.contains(
            "  error: theirs.xml:6: https://example.org/gone/: no file of the site is served"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("  warning: theirs.xml:5: https://example.org/en/a: en/a.html is served at https://example.org/en/a.html (the site's URL form: trailing_slash, clean_urls); hosts answer another form with a redirect, a 404 or a duplicate; list https://example.org/en/a.html\n"), "{stdout}");
    // Without a config, the base URL is the sitemap's host.
    fs::remove_file(site.root().join("sitemap.toml")).unwrap();
    let out = site
        .cmd()
        .args(["check", "theirs.xml", "--site", "public", "--json"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["audit"]["errors"], 2);
    assert_eq!(json["urls"], 4);
}

#[test]
fn a_page_a_rule_lists_against_its_noindex_robots_or_host_is_an_error() {
    let site = broken_site();
    fs::write(
        site.public().join("robots.txt"),
        "User-agent: *\nDisallow: /fr/\n",
    )
    .unwrap();
    site.config(
        "base_url = 'https://example.org/'\npublic_dir = 'public'\n[[rule]]\nmatch = ['n.html', 'fr/**']\nexclude = false\n",
    );
    site.cmd()
        .args(["build", "--check"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "listed but not indexable (2):\n  error: https://example.org/fr/a.html is listed by a [[rule]] with exclude = false, but it is blocked by robots.txt; search engines will not index it: fix the page or remove the rule\n  error: https://example.org/n.html is listed by a [[rule]] with exclude = false, but it is noindex (robots meta tag);",
        ));
}

/// The multilingual fixture's built site, copied: `tests/fixtures/hreflang-broken`.
fn hreflang_fixture() -> tempfile::TempDir {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hreflang-broken/public");
    let tmp = tempfile::tempdir().unwrap();
    crate::util::copy_tree(&fixture, &tmp.path().join("public"));
    fs::write(
        tmp.path().join("sitemap.toml"),
        "base_url = 'https://i18n.example.org/'\npublic_dir = 'public'\n",
    )
    .unwrap();
    tmp
}

#[test]
fn a_real_multilingual_build_with_broken_hreflang_is_audited() {
    let tmp = hreflang_fixture();
    let run = |args: &[&str]| {
        let out = crate::util::bin()
            .current_dir(tmp.path())
            .args(args)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    // Our build: the return link, the self-reference, the x-defaults, the titles.
    insta::assert_snapshot!(
        "audit_hreflang_fixture_build",
        run(&["build", "--check", "-q"])
    );
    validate_set(&tmp.path().join("public/sitemap.xml"));
    // Hugo's own sitemaps against the site: the contact page's form too.
    fs::remove_file(tmp.path().join("public/sitemap.xml")).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hreflang-broken/public/sitemap.xml");
    fs::copy(fixture, tmp.path().join("public/sitemap.xml")).unwrap();
    insta::assert_snapshot!(
        "audit_hreflang_fixture_hugo_sitemap",
        run(&["check", "public/sitemap.xml", "--site", "public", "-q"])
    );
}

/// Issue 62: `check --site` names the form served for each URL the host would redirect:
/// `/en/b` for `en/b/index.html` (served at `/en/b/`), `/about.html` under Vercel's
/// `cleanUrls` (an error: the host's file says it redirects), and a URL a host rule
/// redirects (no longer "a 404").
#[test]
fn check_site_names_the_form_served_for_a_url_the_host_redirects() {
    let site = Site::new(&["index.html", "en/b/index.html", "about.html"]);
    site.config("base_url = 'https://example.org/'\n");
    fs::write(
        site.root().join("vercel.json"),
        "{\n  \"cleanUrls\": true,\n  \"redirects\": [{ \"source\": \"/old\", \"destination\": \"/about\" }]\n}\n",
    )
    .unwrap();
    fs::write(
        site.root().join("theirs.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.org/</loc></url>\n<url><loc>https://example.org/en/b</loc></url>\n<url><loc>https://example.org/about.html</loc></url>\n<url><loc>https://example.org/old</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let out = site
        .cmd()
        .args(["check", "theirs.xml", "--site", "public"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in [
        "  error: theirs.xml:6: https://example.org/old is redirected (vercel.json:3); take it out of the sitemap\n",
        "  warning: theirs.xml:4: https://example.org/en/b: en/b/index.html is served at https://example.org/en/b/ (the site's URL form: trailing_slash, clean_urls); hosts answer another form with a redirect, a 404 or a duplicate; list https://example.org/en/b/\n",
        "  error: theirs.xml:5: https://example.org/about.html: the host serves about.html at https://example.org/about, and vercel.json:2 redirects this form there; list https://example.org/about\n",
    ] {
        assert!(stdout.contains(line), "stdout lacks {line:?}:\n{stdout}");
    }
}

/// `check --site DIR` with no sitemap named checks DIR's: the config's output (here a
/// gzipped one of another name), else the names a sitemap goes by in DIR.
#[test]
fn check_site_without_a_sitemap_takes_the_sites() {
    let site = Site::new(&["index.html", "a.html"]);
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\noutput = 'map.xml'\ngzip = true\n");
    site.cmd().assert().success();
    assert!(site.public().join("map.xml.gz").is_file());
    site.cmd()
        .args(["check", "--site", "public"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "checked 1 file, 2 URLs: 0 errors",
        ));
    // No config: DIR's sitemap.xml, found by its name.
    fs::remove_file(site.root().join("sitemap.toml")).unwrap();
    fs::remove_file(site.public().join("map.xml.gz")).unwrap();
    site.cmd()
        .args(["build", "public", "--base-url", "https://example.org/"])
        .assert()
        .success();
    validate_set(&site.public().join("sitemap.xml"));
    let json = site
        .cmd()
        .args(["check", "--site", "public", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(
        (json["files"].as_u64(), json["urls"].as_u64()),
        (Some(1), Some(2))
    );
}
