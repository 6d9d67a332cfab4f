//! The canonical guard: wrong canonical tags told from pages that are duplicates by
//! design (pagination runs, tag pages, a few pages naming one).

use std::path::{Path, PathBuf};

use super::super::*;

/// `n` pending pages at `rel(i)`, each naming `target(i)`.
fn pending(
    n: usize,
    rel: impl Fn(usize) -> String,
    target: impl Fn(usize) -> String,
    other_host: bool,
) -> Vec<(PathBuf, Pending)> {
    (0..n)
        .map(|i| {
            let p = Pending {
                page: i as u32,
                target: target(i),
                candidates: Vec::new(),
                other_host,
            };
            (PathBuf::from(rel(i)), p)
        })
        .collect()
}

fn judge_all(pages: &[(PathBuf, Pending)], total: usize) -> Option<String> {
    let base = BaseUrl::parse("https://example.org/").unwrap();
    let pending: Vec<Pending> = pages
        .iter()
        .enumerate()
        .map(|(i, (_, p))| Pending {
            page: i as u32,
            ..p.clone()
        })
        .collect();
    suspicious(&pending, |p| &pages[p.page as usize].0, total, &base)
}

type Case = (
    &'static str,
    Vec<(PathBuf, Pending)>,
    usize,
    Option<&'static str>,
);

fn s(v: &str) -> String {
    v.to_string()
}

fn home(_: usize) -> String {
    s("https://example.org/")
}

fn numbered(dir: &'static str) -> impl Fn(usize) -> String {
    move |i| format!("{dir}{}/index.html", i + 2)
}

/// Canonicals that are wrong tags: one URL across the site, another host.
fn wrong_tags() -> Vec<Case> {
    vec![
        (
            "site-wide canonical on another host",
            pending(
                156,
                |i| format!("p{i}/index.html"),
                |_| s("https://immudb.io/"),
                true,
            ),
            156,
            Some(
                "156 of 156 pages name https://immudb.io/ as canonical: a site-wide canonical tag",
            ),
        ),
        (
            "site-wide canonical: 59 of 60 pages name the home page",
            pending(59, |i| format!("docs/p{i}/index.html"), home, false),
            60,
            Some("59 of 60 pages name https://example.org/ as canonical"),
        ),
        (
            "a quarter of the site names the home page",
            pending(26, |i| format!("p{i}.html"), home, false),
            100,
            Some("26 of 100 pages name https://example.org/ as canonical"),
        ),
    ]
}

/// Pages that are duplicates by design, or too few to say, beside a few more wrong tags.
fn by_design() -> Vec<Case> {
    vec![
        (
            "home pagination of a 622-page blog: a theme's practice",
            pending(16, numbered("page/"), home, false),
            622,
            None,
        ),
        (
            "pagination is pagination on a small site too",
            pending(40, numbered("page/"), home, false),
            60,
            None,
        ),
        (
            "tag pagination, Jekyll's page2/, bare numbers and p/N.html",
            [
                pending(
                    12,
                    numbered("tags/rust/page/"),
                    |_| s("https://example.org/tags/rust/"),
                    false,
                ),
                pending(12, |i| format!("page{}/index.html", i + 2), home, false),
                pending(
                    12,
                    numbered("blog/"),
                    |_| s("https://example.org/blog/index.html"),
                    false,
                ),
                pending(
                    12,
                    |i| format!("news/p/{}.html", i + 2),
                    |_| s("https://example.org/news/"),
                    false,
                ),
            ]
            .concat(),
            60,
            None,
        ),
        (
            "not pagination: words, deeper paths, other lists",
            [
                pending(
                    12,
                    |i| format!("tags/t{i}/index.html"),
                    |_| s("https://example.org/tags/"),
                    false,
                ),
                pending(2, numbered("other/page/"), home, false),
            ]
            .concat(),
            40,
            Some("12 of 40 pages name https://example.org/tags/ as canonical"),
        ),
    ]
}

/// More duplicates by design, and a whole site left out for other pages.
fn more_by_design() -> Vec<Case> {
    vec![
        (
            "ten pages naming one page are duplicates, not a wrong tag",
            pending(10, |i| format!("p{i}.html"), home, false),
            20,
            None,
        ),
        (
            "a group that is a small part of a big site",
            pending(30, |i| format!("p{i}.html"), home, false),
            1000,
            None,
        ),
        (
            "built for another URL",
            pending(
                30,
                |i| format!("p{i}/index.html"),
                |i| format!("http://localhost:4000/p{i}/"),
                true,
            ),
            200,
            Some(
                "30 of 200 pages have a canonical on another host than base_url https://example.org/ (e.g. http://localhost:4000/p0/)",
            ),
        ),
        (
            "most of the site left out, each for another page",
            pending(
                40,
                |i| format!("p{i}/index.html"),
                |i| format!("https://example.org/x{i}/"),
                false,
            ),
            60,
            Some("40 of 60 pages are left out for their canonical links"),
        ),
        (
            "many left out, but not most",
            pending(
                40,
                |i| format!("p{i}/index.html"),
                |i| format!("https://example.org/x{i}/"),
                false,
            ),
            80,
            None,
        ),
        ("nothing left out", Vec::new(), 0, None),
    ]
}

/// The guard tells a wrong canonical tag (one URL named across the site, another host,
/// most pages left out) from pages that are duplicates by design (pagination runs, tag
/// pages naming their list, a few pages naming one).
#[test]
fn wrong_canonicals_are_told_from_duplicates() {
    let table = wrong_tags()
        .into_iter()
        .chain(by_design())
        .chain(more_by_design());
    for (what, pages, total, want) in table {
        let got = judge_all(&pages, total);
        match want {
            Some(want) => {
                let got = got.expect(what);
                assert!(got.contains(want), "{what}: {got}");
                assert!(got.contains("respect_canonical = false"), "{what}: {got}");
            }
            None => assert_eq!(got, None, "{what}"),
        }
    }
}

#[test]
fn later_pages_of_a_list_are_told_apart() {
    let base = BaseUrl::parse("https://example.org/docs/").unwrap();
    let table = [
        ("page/2/index.html", "https://example.org/docs/", true),
        (
            "blog/page/17/index.html",
            "https://example.org/docs/blog/",
            true,
        ),
        (
            "blog/page/17/index.html",
            "https://example.org/docs/blog",
            true,
        ),
        (
            "blog/3/index.html",
            "https://example.org/docs/blog/index.html",
            true,
        ),
        ("page2/index.html", "https://example.org/docs/", true),
        ("p/2.html", "https://example.org/docs/", true),
        ("2.html", "https://example.org/docs/", true),
        (
            "caf%C3%A9/2/index.html",
            "https://example.org/docs/caf%25C3%25A9/",
            true,
        ),
        (
            "café/2/index.html",
            "https://example.org/docs/caf%C3%A9/",
            true,
        ),
        ("about/index.html", "https://example.org/docs/", false),
        (
            "blog/page/x/index.html",
            "https://example.org/docs/blog/",
            false,
        ),
        ("blog/page/2/index.html", "https://example.org/docs/", false),
        (
            "blog/2024/05/index.html",
            "https://example.org/docs/blog/",
            false,
        ),
        ("page/2/index.html", "https://example.org/", false),
        ("page/2/index.html", "https://other.org/docs/", false),
        (
            "page/2/index.html",
            "https://example.org/docs/?page=1",
            false,
        ),
        ("page/index.html", "https://example.org/docs/", false),
        ("index.html", "https://example.org/docs/", false),
    ];
    for (rel, target, want) in table {
        assert_eq!(
            is_later_page_of(Path::new(rel), target, &base),
            want,
            "{rel} -> {target}"
        );
    }
}
