//! Routes as patterns (`[[source.route]]`): placeholders, index files, URL forms, and
//! the errors a bad route gets.

use super::super::*;
use crate::lastmod::source::front_matter;

/// Routes as patterns: each placeholder, index files, the URL forms, and the first
/// wildcard's folder as the base of `{path}`.
#[test]
fn patterns_route_sources_to_urls() {
    let table: &[(&str, &str, &str, &str, &[&str])] = &[
        (
            "docs/**/*.md",
            "/{path}/",
            "docs/a/b.md",
            "",
            &["a/b/index.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}/",
            "docs/index.md",
            "",
            &["index.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}/",
            "docs/a/index.md",
            "",
            &["a/index.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}.html",
            "docs/a/b.md",
            "",
            &["a/b.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}.html",
            "docs/a/README.md",
            "",
            &["a/index.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}.html",
            "docs/index.md",
            "",
            &["index.html"],
        ),
        (
            "docs/**/*.md",
            "/{path}",
            "docs/a/b.md",
            "",
            &["a/b.html", "a/b/index.html"],
        ),
        (
            "blog/*.md",
            "/posts/{slug}/",
            "blog/x.md",
            "---\nslug: y\n---\n",
            &["posts/y/index.html"],
        ),
        (
            "blog/*.md",
            "/posts/{slug}/",
            "blog/x.md",
            "",
            &["posts/x/index.html"],
        ),
        (
            "src/**/page.tsx",
            "/{dir}/",
            "src/a/b/page.tsx",
            "",
            &["a/b/index.html"],
        ),
        (
            "src/**/*.md",
            "/x/{name}.html",
            "src/a/b.md",
            "",
            &["x/b.html"],
        ),
        ("docs/**/*.md", "/{path}/", "other/a.md", "", &[]),
    ];
    for (from, to, path, fm, want) in table {
        let pattern = Pattern::new(from, to).unwrap();
        let fm = front_matter::parse(fm, &[]);
        let got = pattern.outputs(path, &fm).unwrap_or_default();
        assert_eq!(got, *want, "{from} -> {to}: {path}");
    }
    assert_eq!(Pattern::new("docs/**/*.md", "/x/").unwrap().base(), "docs");
}

/// A route with a bad glob, or a URL that is no absolute path or names an unknown
/// placeholder, is refused with what is wrong.
#[test]
fn bad_patterns_are_refused() {
    for (from, to, error) in [
        ("docs/[a.md", "/{path}/", "'docs/[a.md' is not a valid glob"),
        ("docs/*.md", "{path}/", "must start with /"),
        (
            "docs/*.md",
            "/{file}/",
            "may name only {path}, {dir}, {name}, {slug}",
        ),
        ("docs/*.md", "/{path/", "may name only"),
    ] {
        let got = Pattern::new(from, to).unwrap_err().to_string();
        assert!(got.contains(error), "{from} -> {to}: {got}");
    }
}

/// A route's bad glob or URL is printed on one line, its control characters escaped.
#[test]
fn pattern_errors_escape_control_characters() {
    let got = Pattern::new("docs/[\n", "/{path}/")
        .unwrap_err()
        .to_string();
    assert!(!got.contains('\n'), "{got}");
    let got = Pattern::new("docs/*.md", "x\u{1b}[31m")
        .unwrap_err()
        .to_string();
    assert!(!got.contains('\u{1b}'), "{got}");
}
