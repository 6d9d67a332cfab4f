use std::fs;

use super::*;
use crate::config::{Config, Overrides};

/// A site of the pages `(path, head)`, collected with the audit on.
fn collected(pages: &[(&str, &str)]) -> (tempfile::TempDir, Config, Collection) {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    for (path, head) in pages {
        let path = public.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(
            path,
            format!("<html><head>{head}</head><body>x</body></html>"),
        )
        .unwrap();
    }
    let overrides = Overrides {
        public_dir: Some(public),
        base_url: Some("https://example.org/".to_string()),
        ..Overrides::default()
    };
    let mut config = Config::load(None, &overrides).unwrap();
    config.audit = true;
    let collection = crate::collect(&config, crate::Details::Keep).unwrap();
    (dir, config, collection)
}

fn alt(lang: &str, path: &str) -> String {
    format!("<link rel=alternate hreflang={lang} href=https://example.org/{path}>")
}

fn kinds(audit: &Audit) -> Vec<(Kind, usize)> {
    audit.counts.iter().map(|&(kind, _, n)| (kind, n)).collect()
}

#[test]
fn a_consistent_site_has_no_findings() {
    let both = format!(
        "{}{}{}",
        alt("en", "en/"),
        alt("de", "de/"),
        alt("x-default", "en/")
    );
    let (_dir, config, collection) = collected(&[
        ("en/index.html", &format!("<title>Home</title>{both}")),
        ("de/index.html", &format!("<title>Start</title>{both}")),
        ("about.html", "<title>About</title>"),
    ]);
    let audit = audit_collection(&collection, config.base_url.as_str());
    assert_eq!(
        audit,
        Audit {
            pages: 3,
            ..Audit::default()
        }
    );
}

#[test]
fn hreflang_titles_and_sizes_across_pages_are_found() {
    let en = format!(
        "<title>A</title>{}{}{}",
        alt("en", "en/"),
        alt("de", "de/"),
        alt("x-default", "en/")
    );
    let de = format!(
        "<title>A</title>{}{}{}",
        alt("de", "de/"),
        alt("fr", "fr/"),
        alt("x-default", "de/")
    );
    let fr = format!("<title>F</title>{}{}", alt("de", "de/"), alt("it", "it/"));
    let big = format!(
        "<title>Big</title><!-- {} -->",
        "x".repeat(LARGE_PAGE_BYTES as usize)
    );
    let (_dir, config, collection) = collected(&[
        ("en/index.html", &en),
        ("de/index.html", &de),
        ("fr/index.html", &fr),
        ("big.html", &big),
    ]);
    let audit = audit_collection(&collection, config.base_url.as_str());
    assert_eq!(
        kinds(&audit),
        [
            (Kind::NotReciprocal, 1),
            (Kind::NoSelfReference, 1),
            (Kind::XDefault, 1),
            (Kind::AlternateNotListed, 1),
            (Kind::TooLarge, 1),
            (Kind::DuplicateTitle, 1),
        ]
    );
    let messages: Vec<&str> = audit.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(messages[0].starts_with("https://example.org/en/ names https://example.org/de/ (de), which does not name it back; add <link rel=\"alternate\" hreflang=\"en\" href=\"https://example.org/en/\">"), "{messages:?}");
    assert!(
        messages[2]
            .contains("name 2 x-defaults (https://example.org/de/, https://example.org/en/)"),
        "{messages:?}"
    );
    assert_eq!(audit.errors(), 0);
    assert_eq!(audit.warnings(), 6);
}

#[test]
fn a_sitemaps_urls_are_checked_against_what_the_site_serves() {
    let (_dir, config, collection) = collected(&[
        ("index.html", "<title>Home</title>"),
        ("a/index.html", "<title>A</title>"),
        (
            "n.html",
            "<title>N</title><meta name=robots content=noindex>",
        ),
    ]);
    let listed: Vec<SitemapUrl> = ["", "a", "n.html", "gone.html", "a/"]
        .iter()
        .enumerate()
        .map(|(i, rest)| SitemapUrl {
            file: "sitemap.xml".into(),
            line: i as u64 + 1,
            loc: format!("https://example.org/{rest}"),
        })
        .collect();
    let audit = audit_sitemap(&config, &collection, &listed);
    assert_eq!(audit.pages, 5);
    assert_eq!(audit.errors(), 2);
    let messages: Vec<&str> = audit.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "sitemap.xml:3: https://example.org/n.html is noindex (robots meta tag); take it out of the sitemap",
            "sitemap.xml:4: https://example.org/gone.html: no file of the site is served at https://example.org/gone.html (a 404); take it out of the sitemap",
            "sitemap.xml:2: https://example.org/a: a/index.html is served at https://example.org/a/ (the site's URL form: trailing_slash, clean_urls); hosts answer another form with a redirect, a 404 or a duplicate; list https://example.org/a/",
        ]
    );
}

/// A cluster of translations each naming all the others: the audit reads each
/// alternate a bounded number of times (a few reads of n² alternates), where looking
/// for each return link in the other page's alternates read n³.
#[test]
fn the_hreflang_audit_reads_each_alternate_a_bounded_number_of_times() {
    const PAGES: usize = 120;
    let lang = |i: usize| -> String {
        let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
        [letter(i / 676), letter(i / 26), letter(i)]
            .iter()
            .collect()
    };
    let links: String = (0..PAGES)
        .map(|i| alt(&lang(i), &format!("p{i}/")))
        .collect();
    let paths: Vec<String> = (0..PAGES).map(|i| format!("p{i}/index.html")).collect();
    let pages: Vec<(&str, &str)> = paths.iter().map(|p| (p.as_str(), links.as_str())).collect();
    let (_dir, config, collection) = collected(&pages);
    hreflang::READ.with(|read| read.set(0));
    let audit = audit_collection(&collection, config.base_url.as_str());
    let read = hreflang::READ.with(|read| read.get());
    assert_eq!(kinds(&audit), [], "{:?}", audit.findings);
    let alternates = (PAGES * PAGES) as u64;
    assert!(
        read <= 5 * alternates,
        "{read} reads of {alternates} alternates"
    );
}
