//! Astro: `astro.config.*`, `src/pages/` and the content collections in `src/content/`
//! to `dist/`.

use std::path::Path;

use crate::fsutil::dir::{Bounds, EntryKind};

use super::read::{join as join_url, js_value};
use super::route::{
    self, CODE, MARKUP_AND_CODE, Name, distinct, folder_page, is_dynamic, join, urlize,
};
use super::{
    APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Prepared, Project, Settings, Source,
};

pub static ASTRO: Generator = Generator {
    id: "astro",
    own_sitemap_off: Some(
        "remove sitemap() (@astrojs/sitemap) from the integrations in astro.config",
    ),
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

/// The most files of a pages folder read for the collections they serve.
const MAX_ROUTE_FILES: usize = 2_000;

/// The most bytes of a route file read.
const MAX_ROUTE_BYTES: u64 = 256 * 1024;

/// The content folders the dynamic routes below `pages` serve, each with the route's
/// folder: a dynamic route file (`[...slug].astro`, `notes/[id].astro`) that calls
/// `call` with a quoted name (`getCollection('blog')`) serves that collection in its
/// folder. Symbolic links are not followed; at most [`MAX_ROUTE_FILES`] files are read.
pub(super) fn served_by_dynamic_routes(pages: &Path, call: &str) -> Vec<(String, String)> {
    let mut routes = Vec::new();
    let bounds = Bounds {
        depth: usize::MAX,
        entries: MAX_ROUTE_FILES,
    };
    let _ = crate::fsutil::held(pages).and_then(|held| {
        held.walk(bounds, |rel, kind| {
            let name = rel.file_name().unwrap_or_default().to_string_lossy();
            if kind == EntryKind::File && is_dynamic(&name) {
                routes.push(rel.to_path_buf());
            }
            kind == EntryKind::Dir && !is_dynamic(&name)
        })
    });
    let mut served = Vec::new();
    for rel in routes {
        let Ok(text) = crate::fsutil::read_below_string(pages, &rel, MAX_ROUTE_BYTES) else {
            continue;
        };
        let name = rel.file_name().unwrap_or_default().to_string_lossy();
        if !takes_entry_id(&text, &name) {
            continue;
        }
        let folder = crate::slash::joined(rel.parent().unwrap_or(Path::new("")));
        let folder = String::from_utf8_lossy(&folder).into_owned();
        for collection in called_with(&text, call) {
            served.push((collection, folder.clone()));
        }
    }
    served
}

/// Whether a dynamic route (`[...slug].astro`) fills its parameter with an entry's
/// `id` or `slug` (`params: { slug: post.id }`): a route that lists entries by a tag
/// (`[tag].astro`, `params: { tag }`) serves none of them.
fn takes_entry_id(text: &str, file: &str) -> bool {
    let param = file
        .trim_start_matches('[')
        .trim_start_matches("...")
        .split(']')
        .next()
        .unwrap_or_default();
    text.match_indices(&format!("{param}:")).any(|(at, key)| {
        let value = &text[at + key.len()..];
        let end = value.find([',', '}', '\n']).unwrap_or(value.len());
        let value = value[..end].trim();
        value.ends_with(".id") || value.ends_with(".slug")
    })
}

/// The quoted names `call` is made with in `text` (`getCollection('blog')`).
fn called_with(text: &str, call: &str) -> Vec<String> {
    text.match_indices(call)
        .filter_map(|(at, _)| {
            let rest = &text[at + call.len()..];
            let quote = rest
                .chars()
                .next()
                .filter(|c| matches!(c, '\'' | '"' | '`'))?;
            let name = &rest[1..];
            name.find(quote).map(|end| name[..end].to_string())
        })
        .collect()
}
