//! VitePress: `.vitepress/config.*` (at the root or in `docs/`), its `srcDir` to
//! `.vitepress/dist/`.

use std::path::Path;

use super::read::{absolute, join as join_url, js_bool, js_value};
use super::route::html_page;
use super::{
    Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source, no_hints,
};

pub static VITEPRESS: Generator = Generator {
    id: "vitepress",
    name: "VitePress",
    markers: &[Marker::file(
        "{,docs/,src/,website/}.vitepress/config.{mts,ts,mjs,js,cts,cjs}",
    )],
    public_dir: ".vitepress/dist",
    excludes: &[],
    not_pages: &[],
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["."],
    extensions: &["md"],
    updated: &["lastUpdated"],
    read_config,
    route,
    hints: no_hints,
    fills_translations: false,
    body_dates: false,
};

/// The folder that holds `.vitepress` (or `.vuepress`): the sources' root.
pub(super) fn source_root<'p>(p: &'p Project) -> &'p Path {
    p.config_dir().parent().unwrap_or(Path::new(""))
}

fn read_config(s: &mut Settings, p: &Project) {
    let (text, root) = (p.text, source_root(p));
    let base = js_value(text, "base").unwrap_or_default();
    s.base_url = absolute(js_value(text, "hostname").map(|host| join_url(&host, &base)));
    if s.base_url.is_some() {
        s.note("base_url from sitemap.hostname and base");
    }
    s.public_dir = root
        .join(VITEPRESS.public_dir)
        .to_string_lossy()
        .into_owned();
    s.output(root, js_value(text, "outDir"), "outDir");
    let src = js_value(text, "srcDir").unwrap_or_default();
    s.content(Some(
        root.join(src.trim_start_matches("./"))
            .to_string_lossy()
            .into_owned(),
    ));
    if js_bool(text, "cleanUrls") == Some(true) {
        s.clean_urls = Some(true);
        s.note("clean_urls from cleanUrls: true");
    }
}

/// VitePress: `guide/x.md` → `guide/x.html`, `index.md` its folder's `index.html`
/// (clean URLs change the links, not the files); `[x].md` builds the pages of its
/// paths loader, none of its own.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if n.stem.starts_with('[') || n.dirs.iter().any(|d| d.starts_with(['[', '.'])) {
        return Vec::new();
    }
    if n.dirs.is_empty() && n.stem.eq_ignore_ascii_case("readme") {
        return Vec::new();
    }
    vec![html_page(&n)]
}
