//! mdBook: `book.toml`, the chapters of `src/` to `book/`.

use std::path::Path;

use super::read::{join as join_url, toml_path};
use super::route::html_page;
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static MDBOOK: Generator = Generator {
    id: "mdbook",
    name: "mdBook",
    markers: &[Marker::file("book.toml")],
    public_dir: "book",
    // No excludes: its print view and sidebar (print.html, toc.html) carry noindex
    // themselves.
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["src"],
    extensions: &["md"],
    updated: &[],
    read_config,
    route,
    ..Generator::BASE
};

/// `build.build-dir` (`book`) and `book.src` (`src`); a base URL only where
/// `output.html.cname` names the host (`site-url` is the path the book is served under).
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.output(
        Path::new(""),
        toml_path(text, &["build", "build-dir"]),
        "build.build-dir",
    );
    s.content(toml_path(text, &["book", "src"]));
    let path = toml_path(text, &["output", "html", "site-url"]).unwrap_or_default();
    if let Some(host) = toml_path(text, &["output", "html", "cname"]) {
        s.base_url = Some(join_url(&format!("https://{}", host.trim()), &path));
        s.note("base_url from output.html.cname and site-url");
    }
}

/// mdBook: a chapter `guide/x.md` → `guide/x.html`, a `README.md` its folder's
/// `index.html` (mdBook renames it); `SUMMARY.md` is the table of contents, no page.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if n.dirs.is_empty() && n.stem == "SUMMARY" {
        return Vec::new();
    }
    vec![html_page(&n)]
}
