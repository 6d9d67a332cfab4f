//! Rspress: `rspress.config.*`, its `root` (`docs/`) to `doc_build/`.

use std::path::Path;

use super::read::{join as join_url, js_value};
use super::route::html_page;
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};

pub static RSPRESS: Generator = Generator {
    id: "rspress",
    own_sitemap_off: Some("remove @rspress/plugin-sitemap from the plugins in rspress.config"),
    name: "Rspress",
    markers: &[Marker::file("rspress.config.{ts,js,mjs,mts}")],
    public_dir: "doc_build",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["docs"],
    extensions: &["md", "mdx"],
    updated: &[],
    read_config,
    route,
    prepare: |project| super::languages(&RSPRESS, project),
    ..Generator::BASE
};

/// `outDir` (`doc_build`), `base`, `root`, and the sitemap plugin's `siteUrl`.
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    let base = js_value(text, "base").unwrap_or_default();
    s.base_url = js_value(text, "siteUrl")
        .or_else(|| js_value(text, "hostname"))
        .map(|url| join_url(&url, &base));
    s.output(Path::new(""), js_value(text, "outDir"), "outDir");
    // `root: path.join(__dirname, 'docs')` is code: only a literal is read.
    s.content(js_value(text, "root").filter(|r| !r.contains('(')));
    s.default_language = js_value(text, "lang");
}

/// Rspress: `guide/x.md` → `guide/x.html`, `index.md` its folder's `index.html`;
/// `_`-prefixed files are components, no pages. With locales, the default language's
/// folder (`en/`) names no segment.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    if n.dirs
        .first()
        .is_some_and(|d| Some(d.as_str()) == cx.default_language)
    {
        n.dirs.remove(0);
    }
    if n.stem.starts_with('_') || n.dirs.iter().any(|d| d.starts_with(['_', '.'])) {
        return Vec::new();
    }
    vec![html_page(&n)]
}
