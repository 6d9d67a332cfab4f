//! Sphinx: `conf.py` (at the root or in `docs/`, with or without `source/`), to
//! `_build/html/`.

use super::read::{absolute, py_value};
use super::route::{MARKUP, join};
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static SPHINX: Generator = Generator {
    id: "sphinx",
    own_sitemap_off: Some("remove sphinx_sitemap from extensions in conf.py"),
    name: "Sphinx",
    markers: &[Marker::shared(
        "{,source/,docs/,docs/source/}conf.py",
        is_sphinx_conf,
    )],
    public_dir: "_build/html",
    // Sphinx's index and search pages, and the copied sources and assets.
    excludes: &[
        "genindex.html",
        "search.html",
        "py-modindex.html",
        "_static/**",
        "_sources/**",
    ],
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["."],
    extensions: MARKUP,
    updated: &[],
    read_config,
    route,
    ..Generator::BASE
};

fn is_sphinx_conf(p: &Project) -> bool {
    [
        "html_theme",
        "html_baseurl",
        "extensions",
        "master_doc",
        "root_doc",
        "project",
    ]
    .iter()
    .any(|k| p.text.lines().any(|l| l.starts_with(k)))
}

fn read_config(s: &mut Settings, p: &Project) {
    s.base_url = absolute(py_value(p.text, "html_baseurl"));
    // `make html` builds into _build/html beside conf.py, or build/html beside source/.
    let conf_dir = p.config_dir();
    s.content(Some(crate::text::slashed(conf_dir)));
    let out = match conf_dir.file_name() {
        Some(last) if last == "source" => conf_dir.with_file_name("build").join("html"),
        _ => conf_dir.join("_build/html"),
    };
    let makefile = p.read(conf_dir.join("Makefile")).unwrap_or_default();
    let builddir = makefile.lines().find_map(|l| {
        l.strip_prefix("BUILDDIR")?
            .trim_start()
            .strip_prefix("=")
            .map(str::to_string)
    });
    s.public_dir = match builddir.as_deref().map(str::trim) {
        Some(b) if !b.is_empty() && !b.contains('$') => {
            crate::text::slashed(&conf_dir.join(b).join("html"))
        }
        _ => crate::text::slashed(&out),
    };
}

/// Sphinx: `x.rst` → `x.html`, the path kept.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    vec![join(&n.dirs, Some(&n.stem), ".html")]
}
