//! Hugo: `hugo.toml` (or the older `config.toml`), `content/` to `public/`.

use std::path::Path;

use super::read::{json_value, toml_value, yaml_value};
use super::route::{MARKUP, distinct, from_url, is_index, join, translation, urlize};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static HUGO: Generator = Generator {
    id: "hugo",
    name: "Hugo",
    markers: &[
        Marker::file("hugo.{toml,yaml,yml,json}"),
        // Hugo's older name; Zola claims its `config.toml` first, by its key.
        Marker::fallback("config.{toml,yaml,yml}"),
    ],
    public_dir: "public",
    suggested_rules: TAXONOMY_RULES,
    suggested_sections: &[("posts", "posts/**")],
    content: &["content"],
    extensions: MARKUP,
    updated: &["lastmod", "modified", "lastMod"],
    read_config,
    route,
    hints,
    prepare: |project| super::languages(&HUGO, project),
    ..Generator::BASE
};

/// Hugo's and Zola's lists, as `init` suggests leaving them out.
pub(super) const TAXONOMY_RULES: &str = "# Pagination pages (/posts/page/2/) and taxonomy lists (/tags/, /categories/):\n\
     # [[rule]]\n\
     # match = [\"**/page/*/index.html\", \"tags/**\", \"categories/**\"]\n\
     # exclude = true\n";

fn read_config(s: &mut Settings, p: &Project) {
    let name = p.config.to_string_lossy();
    let text = p.text;
    let (url, out, content) = if name.ends_with(".toml") {
        (
            toml_value(text, &["baseURL", "baseurl"]),
            toml_value(text, &["publishDir", "publishdir"]),
            toml_value(text, &["contentDir", "contentdir"]),
        )
    } else if name.ends_with(".json") {
        (
            json_value(text, "baseURL"),
            json_value(text, "publishDir"),
            json_value(text, "contentDir"),
        )
    } else {
        (
            yaml_value(text, "baseURL").or_else(|| yaml_value(text, "baseurl")),
            yaml_value(text, "publishDir"),
            yaml_value(text, "contentDir"),
        )
    };
    s.base_url = url;
    s.output(Path::new(""), out, "publishDir");
    s.content(content);
    s.default_language = if name.ends_with(".toml") {
        toml_value(text, &["defaultContentLanguage"])
    } else if name.ends_with(".json") {
        json_value(text, "defaultContentLanguage")
    } else {
        yaml_value(text, "defaultContentLanguage")
    };
    s.default_in_subdir = text.lines().any(|l| {
        let l = l.trim_start().trim_start_matches('"');
        l.starts_with("defaultContentLanguageInSubdir")
            && l.split(['=', ':'])
                .nth(1)
                .is_some_and(|v| v.trim().starts_with("true"))
    });
}

/// Hugo: `_index.md` and a leaf bundle's `index.md` are their directory; other pages
/// `name/`; `url` is the whole path, `slug` the last segment; paths lower-cased. A
/// translation (`about.de.md`, `_index.de.md`) is under its language's folder, or at the
/// root when it is the default language.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    let folder = translation(cx, &mut n);
    // A front-matter url is the whole path, language folder included.
    if let Some(url) = &s.fm.url {
        return vec![from_url(url)];
    }
    let last = (!is_index(&n.stem)).then(|| s.fm.slug.as_deref().unwrap_or(&n.stem));
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    let forms = distinct(vec![
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
        join(&n.dirs, last, "/index.html"),
    ]);
    forms.into_iter().map(|f| format!("{folder}{f}")).collect()
}

fn hints(p: &Project) -> Vec<String> {
    let (config, source) = (p.text, p.config.display());
    let mut hints = Vec::new();
    if !(config.contains("disableKinds") && names_sitemap(config)) {
        hints.push(format!(
            "Hugo writes its own sitemap.xml over ours on every build: add disableKinds = [\"sitemap\"] to {source}"
        ));
    }
    hints.push(
        "Hugo leaves removed pages in public/: build with `hugo --cleanDestinationDir`, then run sitemapgen".into(),
    );
    hints
}

/// Whether a config names the `sitemap` kind in a list (`"sitemap"`, `'sitemap'` or a
/// YAML `- sitemap`), not only a `[sitemap]` table.
fn names_sitemap(config: &str) -> bool {
    config.contains("\"sitemap\"")
        || config.contains("'sitemap'")
        || config.lines().any(|l| l.trim() == "- sitemap")
}
