//! VuePress 1 and 2: `.vuepress/config.*` (at the root or in `docs/`), the sources
//! around it to `.vuepress/dist/`.

use std::path::Path;

use super::read::js_value;
use super::route::{from_url, html_page};
use super::vitepress::{dot_folder, source_root};
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static VUEPRESS: Generator = Generator {
    id: "vuepress",
    own_sitemap_off: Some("remove the sitemap plugin from .vuepress/config"),
    name: "VuePress",
    markers: &[Marker::file(
        "{,docs/,src/,website/}.vuepress/config.{mts,ts,mjs,js,cts,cjs}",
    )],
    public_dir: ".vuepress/dist",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["."],
    extensions: &["md"],
    updated: &[],
    read_config,
    route,
    ..Generator::BASE
};

/// The output is `dest` (relative to the project) or `.vuepress/dist` in the sources;
/// the host is the sitemap or SEO plugin's `hostname`, the path `base`.
fn read_config(s: &mut Settings, p: &Project) {
    let (text, root) = (p.text, source_root(p));
    dot_folder(s, p, &VUEPRESS, "the sitemap plugin's hostname");
    s.output(Path::new(""), js_value(text, "dest"), "dest");
    s.content(Some(crate::text::slashed(root)));
}

/// VuePress: `guide/x.md` → `guide/x.html`, `README.md` (or `index.md`) its folder's
/// `index.html`; a front-matter `permalink` wins.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if n.dirs.iter().any(|d| d.starts_with('.')) {
        return Vec::new();
    }
    if let Some(url) = &s.fm.url {
        return vec![from_url(url)];
    }
    vec![html_page(&n)]
}
