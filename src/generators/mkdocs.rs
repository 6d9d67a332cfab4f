//! MkDocs (and Material for MkDocs): `mkdocs.yml`, `docs/` to `site/`.

use std::path::Path;

use super::read::{yaml_bool, yaml_value};
use super::route::{
    MARKUP, distinct, is_index, is_language_code, join, slugify_ascii, translation,
};
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static MKDOCS: Generator = Generator {
    id: "mkdocs",
    name: "MkDocs",
    markers: &[Marker::file("mkdocs.{yml,yaml}")],
    public_dir: "site",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["docs"],
    extensions: MARKUP,
    updated: &["date.updated", "updated"],
    read_config,
    route,
    prepare: |project| super::languages(&MKDOCS, project),
    ..Generator::BASE
};

fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.base_url = yaml_value(text, "site_url");
    s.output(Path::new(""), yaml_value(text, "site_dir"), "site_dir");
    s.content(yaml_value(text, "docs_dir"));
    if yaml_bool(text, "use_directory_urls") == Some(false) {
        s.note("use_directory_urls: false: pages are listed as page.html");
    }
    i18n(s, &super::read::yaml_json(&super::read::yaml(text)));
}

/// mkdocs-static-i18n's settings: how translations are laid out, and the default
/// language (at the root).
fn i18n(s: &mut Settings, config: &serde_json::Value) {
    let plugins = config.get("plugins").and_then(|p| p.as_array());
    let Some(i18n) = plugins.into_iter().flatten().find_map(|p| p.get("i18n")) else {
        return;
    };
    let structure = i18n.get("docs_structure").and_then(|d| d.as_str());
    s.translations = Some(structure.unwrap_or("suffix").to_string());
    let languages = i18n.get("languages").and_then(|l| l.as_array());
    let default = languages
        .into_iter()
        .flatten()
        .find(|l| l.get("default").and_then(|d| d.as_bool()) == Some(true));
    s.default_language = default
        .and_then(|l| l.get("locale")?.as_str())
        .map(str::to_string);
}

/// MkDocs: `x.md` → `x/index.html`, `index.md` and `README.md` their directory's; with
/// Material's blog plugin, a post under `blog/posts/` → `blog/YYYY/MM/DD/<slug>/`, its
/// slug `slug` or its title slugified (Unicode letters kept, as Material's default
/// slugify does, or folded to ASCII, as Python-Markdown's does).
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    // mkdocs-static-i18n: `about.fr.md`, or `fr/about.md`, under its language's folder.
    let folder = match cx.translations {
        Some("folder") if n.dirs.first().is_some_and(|d| is_language_code(d)) => {
            let lang = n.dirs.remove(0);
            cx.language_folder(&lang)
        }
        Some(_) => translation(cx, &mut n),
        None => String::new(),
    };
    route_in(&n, s.fm)
        .into_iter()
        .map(|p| format!("{folder}{p}"))
        .collect()
}

/// [`route`] within a language's pages.
fn route_in(n: &super::route::Name, fm: &super::FrontMatter) -> Vec<String> {
    let in_posts = n.dirs.len() >= 2 && n.dirs[0] == "blog" && n.dirs[1] == "posts";
    if in_posts {
        let Some(when) = fm.date else {
            return Vec::new();
        };
        let slugs = match (&fm.slug, &fm.title) {
            (Some(slug), _) => vec![slug.clone()],
            (None, Some(title)) => vec![slugify_pymdownx(title), slugify_ascii(title)],
            (None, None) => return Vec::new(),
        };
        // The day in the date's own offset, as Material writes it.
        let d = fm
            .day
            .unwrap_or_else(|| when.to_zoned(jiff::tz::TimeZone::UTC).date());
        return distinct(
            slugs
                .into_iter()
                .map(|slug| {
                    format!(
                        "blog/{:04}/{:02}/{:02}/{slug}/index.html",
                        d.year(),
                        d.month(),
                        d.day()
                    )
                })
                .collect(),
        );
    }
    if !matches!(n.ext.as_str(), "md" | "markdown") {
        return Vec::new();
    }
    let last = (!is_index(&n.stem)).then_some(n.stem.as_str());
    vec![join(&n.dirs, last, "/index.html")]
}

/// Material's default `post_slugify`, `pymdownx.slugs.slugify(case="lower")`: lower-cased,
/// what is not a letter, digit, `_`, `-` or space dropped, each space a hyphen (runs are
/// not collapsed: "2.0 — x" is `20--x`).
fn slugify_pymdownx(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}
