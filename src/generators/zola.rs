//! Zola: `config.toml` with `base_url`, `content/` to `public/`.

use std::path::Path;

use super::hugo::TAXONOMY_RULES;
use super::read::toml_value;
use super::route::{
    MARKUP, dated, distinct, from_url, is_index, join, slugify_ascii, translation, urlize,
};
use super::{BLOG_SECTIONS, Context, Generator, Marker, Project, Settings, Source};

pub static ZOLA: Generator = Generator {
    id: "zola",
    own_sitemap_off: Some("add generate_sitemap = false to config.toml (Zola 0.19 and later)"),
    name: "Zola",
    markers: &[Marker::shared("config.toml", |p| {
        toml_value(p.text, &["base_url"]).is_some()
    })],
    public_dir: "public",
    suggested_rules: TAXONOMY_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["content"],
    extensions: MARKUP,
    updated: &["updated"],
    read_config,
    route,
    hints,
    prepare: |project| super::languages(&ZOLA, project),
    ..Generator::BASE
};

fn read_config(s: &mut Settings, p: &Project) {
    s.base_url = toml_value(p.text, &["base_url"]);
    s.output(
        Path::new(""),
        toml_value(p.text, &["output_dir"]),
        "output_dir",
    );
    s.default_language = toml_value(p.text, &["default_language"]);
}

/// Zola: as Hugo, with `path` for the whole path and a date prefix dropped from the
/// slug; a translation (`about.fr.md`) under its language's folder.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    let folder = translation(cx, &mut n);
    // `path` is the whole path, a translation's language folder included.
    if let Some(path) = &s.fm.url {
        return vec![from_url(&format!("/{}/", path.trim_matches('/')))];
    }
    let stem = dated(&n.stem).map_or(n.stem.as_str(), |(_, rest)| rest);
    let last = (!is_index(&n.stem)).then(|| s.fm.slug.as_deref().unwrap_or(stem));
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    // Zola's default `slugify.paths = "on"` folds to ASCII; "safe" keeps the name.
    let ascii: Vec<String> = n.dirs.iter().map(|d| slugify_ascii(d)).collect();
    // Folders are kept as named; the page's own name (or slug) is slugified.
    let forms = distinct(vec![
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
        join(&n.dirs, last, "/index.html"),
        join(&n.dirs, last.map(slugify_ascii).as_deref(), "/index.html"),
        join(&ascii, last.map(slugify_ascii).as_deref(), "/index.html"),
    ]);
    forms.into_iter().map(|f| format!("{folder}{f}")).collect()
}

fn hints(p: &Project) -> Vec<String> {
    if zola_sitemap_off(p.text) {
        return Vec::new();
    }
    vec![format!(
        "Zola writes its own sitemap.xml over ours on every build: add generate_sitemap = false to {} (Zola 0.19 and later)",
        crate::text::path(p.config)
    )]
}

/// Whether Zola's `config.toml` sets `generate_sitemap = false` (a comment naming the
/// key is not enough).
fn zola_sitemap_off(config: &str) -> bool {
    let table = config.parse::<toml::Table>().ok();
    table.and_then(|t| t.get("generate_sitemap")?.as_bool()) == Some(false)
}
