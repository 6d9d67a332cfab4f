//! Nikola: `conf.py` with Nikola's keys, `posts/` and `pages/` to `output/`.

use std::path::Path;

use super::read::py_value;
use super::route::{distinct, folder_page, slugify_ascii, translation};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static NIKOLA: Generator = Generator {
    id: "nikola",
    name: "Nikola",
    markers: &[Marker::shared("{,nikola/}conf.py", is_nikola_conf)],
    public_dir: "output",
    suggested_rules: "# Tag and category lists, archives and index pagination (index-2.html):\n\
         # [[rule]]\n\
         # match = [\"categories/**\", \"archive/**\", \"archive.html\", \"index-[0-9]*.html\"]\n\
         # exclude = true\n",
    suggested_sections: &[("posts", "posts/**"), ("pages", "pages/**")],
    content: &["posts", "pages"],
    extensions: &["rst", "md", "markdown", "txt", "html", "ipynb", "adoc"],
    updated: &["updated"],
    read_config,
    route,
    fills_translations: true,
    prepare: |project| super::languages(&NIKOLA, project),
    sidecar: Some("meta"),
    ..Generator::BASE
};

/// Nikola's `conf.py` (Sphinx has one too): Nikola's own keys tell them apart.
fn is_nikola_conf(p: &Project) -> bool {
    let has = |key: &str| p.text.lines().any(|l| l.starts_with(key));
    has("SITE_URL") && (has("BLOG_TITLE") || has("TRANSLATIONS") || has("POSTS"))
}

/// `SITE_URL`, `OUTPUT_FOLDER` and `DEFAULT_LANG` in `conf.py`.
fn read_config(s: &mut Settings, p: &Project) {
    s.base_url = py_value(p.text, "SITE_URL");
    s.output(
        Path::new(""),
        py_value(p.text, "OUTPUT_FOLDER"),
        "OUTPUT_FOLDER",
    );
    s.default_language = py_value(p.text, "DEFAULT_LANG");
}

/// Nikola with pretty URLs: `posts/x.rst` → `posts/<slug>/index.html` (`pages/` alike),
/// the slug its `.. slug:` or its name; a translation `x.de.rst` under its language's
/// folder.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    let folder = translation(cx, &mut n);
    let kind = Path::new(s.dir)
        .file_name()
        .map(|d| d.to_string_lossy().into_owned());
    n.dirs.insert(0, kind.unwrap_or_default());
    // The slug as written; without one, the file name folded to ASCII (USE_SLUGIFY) or
    // as it is.
    let slugs = match &s.fm.slug {
        Some(slug) => vec![slug.clone()],
        None => vec![slugify_ascii(&n.stem), n.stem.clone()],
    };
    let pages = slugs.into_iter().map(|slug| {
        n.stem = slug;
        format!("{folder}{}", folder_page(&n))
    });
    distinct(pages.collect())
}
