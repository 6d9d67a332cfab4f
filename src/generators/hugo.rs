//! Hugo: `hugo.toml` (or the older `config.toml`), `content/` to `public/`.

use std::path::Path;

use super::read::{json_value, toml_value, yaml_value};
use super::route::{MARKUP, distinct, from_url, is_index, join, translation, urlize};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static HUGO: Generator = Generator {
    id: "hugo",
    own_sitemap_off: Some("add disableKinds = [\"sitemap\"] to its config"),
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
    let tree = tree(&name, text);
    languages_and_permalinks(s, &tree);
    s.default_in_subdir = text.lines().any(|l| {
        let l = l.trim_start().trim_start_matches('"');
        l.starts_with("defaultContentLanguageInSubdir")
            && l.split(['=', ':'])
                .nth(1)
                .is_some_and(|v| v.trim().starts_with("true"))
    });
}

/// The config as one tree, whatever its format (a YAML value under a tag of its own
/// is null).
fn tree(name: &str, text: &str) -> serde_json::Value {
    let parsed = if name.ends_with(".toml") {
        (text.parse::<toml::Table>().ok()).and_then(|t| serde_json::to_value(t).ok())
    } else if name.ends_with(".json") {
        serde_json::from_str(text).ok()
    } else {
        Some(super::read::yaml_json(&super::read::yaml(text)))
    };
    parsed.unwrap_or_default()
}

/// A content folder for each language that names one (`[languages.fr] contentDir`), and
/// the URL patterns of `[permalinks]` (a section's pattern, or `[permalinks.page]`'s).
fn languages_and_permalinks(s: &mut Settings, tree: &serde_json::Value) {
    let trimmed = |d: &str| {
        d.trim()
            .trim_start_matches("./")
            .trim_end_matches('/')
            .to_string()
    };
    if let Some(languages) = tree.get("languages").and_then(|l| l.as_object()) {
        for (code, lang) in languages {
            let dir = lang.get("contentDir").or_else(|| lang.get("contentdir"));
            if let Some(dir) = dir
                .and_then(|d| d.as_str())
                .filter(|d| !d.trim().is_empty())
            {
                s.content_languages
                    .push((trimmed(dir), code.to_lowercase()));
            }
        }
    }
    if !s.content_languages.is_empty() {
        let dirs: Vec<String> = s.content_languages.iter().map(|(d, _)| d.clone()).collect();
        s.note(format!(
            "content from each language's contentDir ({})",
            dirs.join(", ")
        ));
        s.content = dirs;
    }
    let Some(permalinks) = tree.get("permalinks").and_then(|p| p.as_object()) else {
        return;
    };
    let page = permalinks.get("page").and_then(|p| p.as_object());
    for (section, pattern) in page.into_iter().flatten().chain(permalinks) {
        if let Some(pattern) = pattern.as_str() {
            s.permalinks.push((section.clone(), pattern.to_string()));
        }
    }
}

/// Hugo: `_index.md` and a leaf bundle's `index.md` are their directory; other pages
/// `name/`; `url` is the whole path, `slug` the last segment; paths lower-cased. A
/// translation (`about.de.md`, `_index.de.md`) is under its language's folder, or at the
/// root when it is the default language.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    // A language in the file's name wins over its content folder's.
    let named = n.stem.clone();
    let mut folder = translation(cx, &mut n);
    if let (true, Some(lang)) = (named == n.stem, cx.language_of(s.dir)) {
        folder = cx.language_folder(lang);
    }
    // A front-matter url is the whole path, language folder included.
    if let Some(url) = &s.fm.url {
        return vec![from_url(url)];
    }
    if let Some(path) = permalink(cx, &s, &n) {
        return vec![format!("{folder}{path}")];
    }
    let last = (!is_index(&n.stem)).then(|| s.fm.slug.as_deref().unwrap_or(&n.stem));
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    let forms = distinct(vec![
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
        join(&n.dirs, last, "/index.html"),
    ]);
    forms.into_iter().map(|f| format!("{folder}{f}")).collect()
}

/// A page's path by its section's `[permalinks]` pattern (`/:year/:month/:slug/`): not
/// for a section's own `_index`, nor a section with none.
fn permalink(cx: &Context, s: &Source, n: &super::route::Name) -> Option<String> {
    let section = n.dirs.first()?;
    let (_, pattern) = cx.permalinks.iter().find(|(name, _)| name == section)?;
    if n.stem == "_index" {
        return None;
    }
    let fm = s.fm;
    let stem = if n.stem == "index" {
        n.dirs.last()?
    } else {
        &n.stem
    };
    let title = fm.title.as_deref().map(slug).unwrap_or_else(|| slug(stem));
    let mut fields = vec![
        (":slug", fm.slug.as_deref().map_or(title.clone(), slug)),
        (":title", title),
        (":filename", slug(stem)),
        (":contentbasename", slug(stem)),
        (":section", section.to_string()),
        (":sections", n.dirs.join("/")),
    ];
    // The date as written, in its own offset, as Hugo puts it in the URL.
    if let Some(day) = fm.day {
        fields.extend([
            (":year", format!("{:04}", day.year())),
            (":month", format!("{:02}", day.month())),
            (":day", format!("{:02}", day.day())),
        ]);
    } else if pattern.contains(":year") || pattern.contains(":month") {
        return None;
    }
    Some(super::route::expand(pattern, &fields))
}

/// Hugo's `urlize` of a title or name: lower-cased, spaces as hyphens, what is not a
/// letter, digit, `.`, `_` or `-` dropped, runs of hyphens one (accents kept).
fn slug(s: &str) -> String {
    let kept: String = (s.trim().to_lowercase().chars())
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .collect();
    let parts: Vec<&str> = kept.split('-').filter(|p| !p.is_empty()).collect();
    parts.join("-")
}

fn hints(p: &Project) -> Vec<String> {
    let (config, source) = (p.text, crate::text::path(p.config));
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
