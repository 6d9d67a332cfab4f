//! Astro: `astro.config.*`, `src/pages/` and the content collections in `src/content/`
//! to `dist/`.

use std::path::Path;

use super::read::{join as join_url, js_value};
use super::route::{self, CODE, MARKUP_AND_CODE, Name, distinct, folder_page, join, urlize};
use super::{APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, Settings, Source};
use super::{Prepared, served_by_dynamic_routes};

pub static ASTRO: Generator = Generator {
    id: "astro",
    name: "Astro",
    // Starlight's too: it claims those that add it.
    markers: &[Marker::shared("astro.config.{mjs,ts,js,mts,cjs}", |p| {
        !is_starlight(p)
    })],
    public_dir: "dist",
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["src/pages", "src/content"],
    extensions: MARKUP_AND_CODE,
    updated: &["updatedDate"],
    read_config,
    route,
    prepare,
    ..Generator::BASE
};

/// An Astro config that adds Starlight (which has a description of its own).
pub(super) fn is_starlight(p: &Project) -> bool {
    p.text.contains("@astrojs/starlight")
}

pub(super) fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.base_url = js_value(text, "site")
        .map(|site| join_url(&site, &js_value(text, "base").unwrap_or_default()));
    s.output(Path::new(""), js_value(text, "outDir"), "outDir");
    match js_value(text, "trailingSlash").as_deref() {
        Some("never") => {
            s.trailing_slash = Some(false);
            s.note("trailing_slash from trailingSlash: 'never'");
        }
        Some("always") => {
            s.trailing_slash = Some(true);
            s.note("trailing_slash from trailingSlash: 'always'");
        }
        _ => {}
    }
    if js_value(text, "format").as_deref() == Some("file") {
        // build.format 'file' writes about.html for /about.
        s.clean_urls = Some(true);
        s.trailing_slash = Some(false);
        s.note("clean_urls from build.format: 'file'");
    }
}

/// Whether a source is a page file of a `pages` directory (`x.astro`, `x.md`, `x.tsx`),
/// not a dynamic route (`[slug].astro`, which builds pages of other sources) nor private.
pub(super) fn is_static_page(n: &Name) -> bool {
    !n.stem.starts_with('[') && !n.dirs.iter().any(|d| d.starts_with(['[', '_']))
}

/// Astro: `src/pages/x.md` → `x/index.html` (dynamic routes `[slug]` build no page of
/// their own); a content collection's entry `src/content/blog/x.md` → `blog/x/index.html`
/// by the convention of its `blog/[...slug]` route, with the glob loader's slugged id (or
/// `slug`).
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if !is_static_page(&n) || n.stem.starts_with('_') {
        return Vec::new();
    }
    if s.dir.ends_with("pages") {
        return vec![folder_page(&n)];
    }
    if n.dirs.is_empty() || CODE.contains(&n.ext.as_str()) {
        return Vec::new();
    }
    // The collection's entries are served under the folder of the dynamic route that
    // lists them (`src/pages/[...slug].astro`: the root), else under its own name.
    let folder = cx
        .served
        .iter()
        .find(|(collection, _)| *collection == n.dirs[0])
        .map_or(n.dirs[0].as_str(), |(_, folder)| folder.as_str());
    let mut dirs: Vec<String> = n.dirs[1..].to_vec();
    if !folder.is_empty() {
        dirs.insert(0, folder.to_string());
    }
    if let Some(slug) = &s.fm.slug {
        let slug = slug.trim_matches('/');
        return vec![route::from_url(
            &format!("/{folder}/{slug}/").replace("//", "/"),
        )];
    }
    let last = (n.stem != "index").then_some(n.stem.as_str());
    let slugged: Vec<String> = dirs.iter().map(|d| urlize(d)).collect();
    distinct(vec![
        join(&dirs, last, "/index.html"),
        join(&slugged, last.map(urlize).as_deref(), "/index.html"),
    ])
}

/// The collections the project's dynamic routes serve (`getCollection('blog')` in
/// `src/pages/[...slug].astro`), each with the route's folder.
fn prepare(project: &Path) -> Prepared {
    Prepared {
        served: served_by_dynamic_routes(&project.join("src/pages"), "getCollection("),
        ..Prepared::default()
    }
}
