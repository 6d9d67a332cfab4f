//! Docusaurus: `docusaurus.config.*`, `docs/`, `blog/` and `src/pages/` to `build/`.

use std::path::Path;

use super::read::{join as join_url, js_bool, js_value};
use super::route::{
    CODE, MARKUP_AND_CODE, dated, folder_page, from_url, is_index, join, unnumbered,
};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static DOCUSAURUS: Generator = Generator {
    id: "docusaurus",
    own_sitemap_off: Some("set sitemap: false in the classic preset's options"),
    name: "Docusaurus",
    markers: &[Marker::file("docusaurus.config.{js,ts,mjs,cjs,mts}")],
    public_dir: "build",
    suggested_rules: "# Blog pagination, tag and author pages, and the search page:\n\
         # [[rule]]\n\
         # match = [\"blog/page/**\", \"**/tags/**\", \"blog/authors/**\", \"search/index.html\"]\n\
         # exclude = true\n",
    suggested_sections: &[("docs", "docs/**"), ("blog", "blog/**")],
    content: &["docs", "blog", "src/pages"],
    extensions: MARKUP_AND_CODE,
    updated: &["last_update.date"],
    read_config,
    route,
    // Its i18n builds a page a locale lacks from the default locale's source.
    fills_translations: true,
    body_dates: true,
    ..Generator::BASE
};

/// Where the locales' translations are (`i18n/fr/docusaurus-plugin-content-docs/...`).
const I18N: &str = "i18n";

/// The translations of each plugin's content, below a locale's folder in [`I18N`], and
/// the content folder each translates (the docs' current version alone: older versions
/// are not routed).
const TRANSLATED: [(&str, &str); 3] = [
    ("docusaurus-plugin-content-docs/current", "docs"),
    ("docusaurus-plugin-content-blog", "blog"),
    ("docusaurus-plugin-content-pages", "src/pages"),
];

fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.base_url = js_value(text, "url")
        .map(|url| join_url(&url, &js_value(text, "baseUrl").unwrap_or_default()));
    // Left undefined (the default), the pages' canonical links give each URL its form.
    match js_bool(text, "trailingSlash") {
        Some(true) => {
            s.trailing_slash = Some(true);
            s.note("trailing_slash from trailingSlash: true");
        }
        Some(false) => {
            // about.html for /about.
            s.clean_urls = Some(true);
            s.trailing_slash = Some(false);
            s.note("clean_urls from trailingSlash: false");
        }
        None => {}
    }
    // Translations, when the site has locales besides its default.
    if js_value(text, "defaultLocale").is_some() && p.dir.join(I18N).is_dir() {
        s.content.push(I18N.to_string());
    }
}

/// Docusaurus: docs under their route (`docs/guides/01-x.md` → `docs/guides/x/`), an
/// `index.md`, `README.md` or a file named as its folder the folder's page, `id` and
/// `slug` as written; blog posts `blog/2024-01-10-title.md` → `blog/2024/01/10/title/`;
/// pages `src/pages/x.md` → `x/`.
fn route(cx: &Context, s: Source) -> Vec<String> {
    if s.dir == I18N {
        return translated(cx, s);
    }
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let fm = s.fm;
    if n.stem.starts_with('_') || n.dirs.iter().any(|d| d.starts_with('_')) {
        return Vec::new();
    }
    if s.dir.ends_with("pages") {
        return vec![folder_page(&n)];
    }
    if CODE.contains(&n.ext.as_str()) {
        return Vec::new();
    }
    let base = Path::new(s.dir)
        .file_name()
        .map(|b| b.to_string_lossy().into_owned())
        .unwrap_or_default();
    if base == "blog" {
        let stem = if is_index(&n.stem) {
            n.dirs.last().map_or(n.stem.as_str(), String::as_str)
        } else {
            &n.stem
        };
        // A date in the name is the URL's: `2024-01-10-hi.md` → `blog/2024/01/10/hi/`.
        let slug = fm.slug.clone().unwrap_or_else(|| match dated(stem) {
            Some((date, rest)) => format!("{}/{rest}", date.replace('-', "/")),
            None => stem.to_string(),
        });
        return vec![format!("blog/{}/index.html", slug.trim_matches('/'))];
    }
    let dirs: Vec<String> = n.dirs.iter().map(|d| unnumbered(d).to_string()).collect();
    if let Some(slug) = fm.slug.as_deref().filter(|s| s.starts_with('/')) {
        return vec![from_url(&format!("/{base}{slug}/"))];
    }
    let own = unnumbered(&n.stem);
    let folder_page = is_index(&n.stem) || dirs.last().is_some_and(|d| d == own);
    let last = match (&fm.slug, &fm.id) {
        (Some(slug), _) => Some(slug.trim_matches('/').to_string()),
        _ if folder_page => None,
        (None, Some(id)) => Some(id.clone()),
        (None, None) => Some(own.to_string()),
    };
    let mut parts = vec![base];
    parts.extend(dirs);
    vec![join(&parts, last.as_deref(), "/index.html")]
}

/// A translation (`i18n/fr/docusaurus-plugin-content-docs/current/x.md`): routed as the
/// source it translates, under its locale's folder (`fr/docs/x/`).
fn translated(cx: &Context, s: Source) -> Vec<String> {
    let mut parts = s.rel.iter();
    let Some(locale) = parts.next().and_then(|l| l.to_str()) else {
        return Vec::new();
    };
    let below = parts.as_path();
    for (plugin, dir) in TRANSLATED {
        if let Ok(rel) = below.strip_prefix(plugin) {
            let source = Source { dir, rel, fm: s.fm };
            let routes = route(cx, source);
            return routes
                .into_iter()
                .map(|r| format!("{locale}/{r}"))
                .collect();
        }
    }
    Vec::new()
}
