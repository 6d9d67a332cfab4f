//! Quarto (a website or book project): `_quarto.yml`, the project's documents to
//! `_site/`.

use std::path::Path;

use super::read::yaml_nested;
use super::route::html_page;
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static QUARTO: Generator = Generator {
    id: "quarto",
    name: "Quarto",
    markers: &[Marker::file("_quarto.{yml,yaml}")],
    public_dir: "_site",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["."],
    extensions: &["qmd", "md", "ipynb", "rmd", "Rmd"],
    updated: &["date-modified"],
    read_config,
    route,
    ..Generator::BASE
};

/// `project.output-dir` (`_site`), and `website.site-url` (`book.site-url` for a book).
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.base_url =
        yaml_nested(text, "website", "site-url").or_else(|| yaml_nested(text, "book", "site-url"));
    s.output(
        Path::new(""),
        yaml_nested(text, "project", "output-dir"),
        "project.output-dir",
    );
}

/// Quarto: `x.qmd` (or `.md`, `.ipynb`) → `x.html`, `index.qmd` its folder's; files and
/// folders starting with `_` or `.` are not rendered, nor a README.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let hidden = |x: &str| x.starts_with(['_', '.']);
    if hidden(&n.stem) || n.dirs.iter().any(|d| hidden(d)) || n.stem.eq_ignore_ascii_case("readme")
    {
        return Vec::new();
    }
    vec![html_page(&n)]
}
