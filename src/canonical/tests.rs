use super::*;
use crate::urls::{UrlStyle, page_url};

const SLASH: UrlStyle = UrlStyle {
    trailing_slash: true,
    clean_urls: false,
    clean_slash: false,
    dotted_bare: false,
};
const NO_SLASH: UrlStyle = UrlStyle {
    trailing_slash: false,
    clean_urls: false,
    clean_slash: false,
    dotted_bare: false,
};

fn judged(base: &str, style: &UrlStyle, rel: &str, href: &str) -> Result<Judged, String> {
    let base = BaseUrl::parse(base).unwrap();
    let page = url::Url::parse(&page_url(&base, Path::new(rel), style)).unwrap();
    judge(&base, &page, Path::new(rel), href)
}

fn itself_as(s: &str) -> Judged {
    Judged::ItselfAs(s.to_string())
}

fn off(target: &str, other_host: bool) -> Judged {
    Judged::OffSite {
        target: target.to_string(),
        other_host,
    }
}

/// Checks each `(base, style, rel, href, judged)`.
fn assert_judged(table: &[(&str, &UrlStyle, &str, &str, Judged)]) {
    for (base, style, rel, href, want) in table {
        assert_eq!(
            &judged(base, style, rel, href).unwrap(),
            want,
            "{base} {rel} {href}"
        );
    }
}

const ROOT: &str = "https://example.org/";
const DOCS: &str = "https://example.org/docs/";

/// Every form a static host serves a file under names the file itself; the page is
/// listed under the canonical's form.
#[test]
fn canonicals_resolve_to_files_as_a_static_host_serves_them() {
    let root = ROOT;
    assert_judged(&[
        // Docusaurus' default: no trailing slash on a directory page.
        (
            root,
            &SLASH,
            "about/index.html",
            "https://example.org/about",
            itself_as("about"),
        ),
        (
            root,
            &SLASH,
            "about/index.html",
            "https://example.org/about/",
            Judged::Itself,
        ),
        (
            root,
            &SLASH,
            "about/index.html",
            "/about/#top",
            Judged::Itself,
        ),
        (
            root,
            &SLASH,
            "about/index.html",
            "/about#top",
            itself_as("about"),
        ),
        (
            root,
            &SLASH,
            "about/index.html",
            "https://EXAMPLE.org:443/about",
            itself_as("about"),
        ),
        // Docusaurus' category indexes, with the slash, under trailing_slash = false.
        (
            root,
            &NO_SLASH,
            "docs/guides/index.html",
            "https://example.org/docs/guides/",
            itself_as("docs/guides/"),
        ),
        // Sphinx: the page itself with its file name.
        (
            root,
            &SLASH,
            "x/index.html",
            "https://example.org/x/index.html",
            itself_as("x/index.html"),
        ),
        (
            root,
            &SLASH,
            "index.html",
            "https://example.org/index.html",
            itself_as("index.html"),
        ),
        (
            root,
            &SLASH,
            "x/index.htm",
            "https://example.org/x/",
            Judged::Itself,
        ),
    ]);
}

/// With a base path, clean URLs and non-ASCII names, too.
#[test]
fn canonicals_under_a_base_path_and_of_clean_or_non_ascii_names() {
    let (root, docs) = (ROOT, DOCS);
    assert_judged(&[
        // Astro with a base: the home page without the base's slash.
        (
            docs,
            &SLASH,
            "index.html",
            "https://example.org/docs",
            itself_as(""),
        ),
        (
            docs,
            &SLASH,
            "index.html",
            "https://example.org/docs/",
            Judged::Itself,
        ),
        (
            docs,
            &SLASH,
            "index.html",
            "/docs/index.html",
            itself_as("index.html"),
        ),
        (
            docs,
            &SLASH,
            "a/b/index.html",
            "/docs/a/b",
            itself_as("a/b"),
        ),
        // Clean URLs: about.html served as /about.
        (
            root,
            &SLASH,
            "about.html",
            "https://example.org/about",
            itself_as("about"),
        ),
        (root, &SLASH, "about.html", "about.html", Judged::Itself),
        (root, &SLASH, "notes.htm", "/notes", itself_as("notes")),
        // Non-ASCII names, written raw or encoded in either case.
        (
            root,
            &SLASH,
            "über-café/index.html",
            "https://example.org/%C3%BCber-caf%C3%A9",
            itself_as("%C3%BCber-caf%C3%A9"),
        ),
        (
            root,
            &SLASH,
            "über-café/index.html",
            "/über-café",
            itself_as("%C3%BCber-caf%C3%A9"),
        ),
        (root, &SLASH, "a b/index.html", "/a%20b", itself_as("a%20b")),
    ]);
}

/// Checks each `(base, rel, href, judged)`, with directory URLs ending in `/`.
fn assert_judged_slash(table: &[(&str, &str, &str, Judged)]) {
    for (base, rel, href, want) in table {
        assert_eq!(
            &judged(base, &SLASH, rel, href).unwrap(),
            want,
            "{base} {rel} {href}"
        );
    }
}

#[test]
fn canonicals_naming_other_files_of_this_site() {
    let root = ROOT;
    let elsewhere = |target: &str, candidates: &[&str]| Judged::Elsewhere {
        target: target.to_string(),
        candidates: candidates.iter().map(|c| c.as_bytes().to_vec()).collect(),
    };
    assert_judged_slash(&[
        (
            root,
            "about/index.html",
            "/other/",
            // `other.html` too: Vercel's and Firebase's cleanUrls with trailingSlash
            // serve it at `/other/`, the other hosts redirect there.
            elsewhere(
                "https://example.org/other/",
                &[
                    "other/index.html",
                    "other/index.htm",
                    "other.html",
                    "other.htm",
                ],
            ),
        ),
        (
            root,
            "about/index.html",
            "/other",
            elsewhere(
                "https://example.org/other",
                // `other.html` before the folder: hosts answer `/other` with it.
                &[
                    "other",
                    "other.html",
                    "other/index.html",
                    "other/index.htm",
                    "other.htm",
                ],
            ),
        ),
        (
            root,
            "tags/x/page/2/index.html",
            "/",
            elsewhere("https://example.org/", &["index.html", "index.htm"]),
        ),
        // Case matters on a static host.
        (
            root,
            "page.html",
            "/Page.html",
            elsewhere(
                "https://example.org/Page.html",
                &[
                    "Page.html",
                    "Page.html.html",
                    "Page.html/index.html",
                    "Page.html/index.htm",
                    "Page.html.htm",
                ],
            ),
        ),
    ]);
}

#[test]
fn canonicals_naming_other_sites_or_no_file() {
    let (root, docs) = (ROOT, DOCS);
    assert_judged_slash(&[
        // Another host, scheme or port: a site-wide canonical, or built for another URL.
        (
            root,
            "about/index.html",
            "https://immudb.io",
            off("https://immudb.io/", true),
        ),
        (
            root,
            "about/index.html",
            "http://example.org/about/",
            off("http://example.org/about/", true),
        ),
        (
            root,
            "about/index.html",
            "http://localhost:4000/about/",
            off("http://localhost:4000/about/", true),
        ),
        (
            root,
            "about/index.html",
            "https://example.org:8443/about/",
            off("https://example.org:8443/about/", true),
        ),
        // The same host, but outside the base path, with a query, or no file's name.
        (
            docs,
            "a/index.html",
            "https://example.org/blog/",
            off("https://example.org/blog/", false),
        ),
        (
            docs,
            "a/index.html",
            "https://example.org/docsx/a/",
            off("https://example.org/docsx/a/", false),
        ),
        (
            root,
            "about/index.html",
            "/about/?lang=en",
            off("https://example.org/about/?lang=en", false),
        ),
        (
            root,
            "about/index.html",
            "/a//b",
            off("https://example.org/a//b", false),
        ),
        (
            root,
            "about/index.html",
            "/a%2Fb",
            off("https://example.org/a%2Fb", false),
        ),
    ]);
    for bad in [
        "javascript:void(0)",
        "mailto:a@example.org",
        "https://exa mple.org/",
    ] {
        assert!(judged(root, &SLASH, "a.html", bad).is_err(), "{bad}");
    }
}

#[test]
fn targets_are_found_among_the_walked_pages() {
    let pages = [
        Path::new("a/index.html"),
        Path::new("b.html"),
        Path::new("c/d/index.htm"),
    ];
    let with = |candidates: &[&str]| Pending {
        page: 0,
        target: String::new(),
        candidates: candidates.iter().map(|c| c.as_bytes().to_vec()).collect(),
        other_host: false,
    };
    let pending = [
        with(&["a", "a/index.html", "a/index.htm"]),
        with(&["b", "b/index.html", "b/index.htm", "b.html"]),
        with(&["c/d/index.html", "c/d/index.htm"]),
        with(&["nothing/index.html"]),
        with(&[]),
    ];
    let found = find_targets(pages.iter().copied(), &pending);
    assert_eq!(found, [Some(0), Some(1), Some(2), None, None]);
}

/// A canonical names the file the hosts serve at its URL ([`SitePath::files`]): `/both`
/// is `both.html` beside `both/index.html`, `/file/` is `file.html` (Vercel's and
/// Firebase's `cleanUrls` with `trailingSlash` serve it there, the others redirect).
#[test]
fn a_canonical_names_the_file_the_hosts_serve() {
    let base = BaseUrl::parse("https://example.org/").unwrap();
    let page = url::Url::parse("https://example.org/x.html").unwrap();
    let pages = ["both.html", "both/index.html", "file.html"].map(Path::new);
    let pending: Vec<Pending> = ["/both", "/both/", "/file/"]
        .iter()
        .map(|href| {
            let judged = judge(&base, &page, Path::new("x.html"), href).unwrap();
            Pending::new(0, judged).unwrap()
        })
        .collect();
    let found = find_targets(pages.iter().copied(), &pending);
    assert_eq!(found, [Some(0), Some(1), Some(2)]);
}

mod guard;
