//! VitePress: `.vitepress/config.*` (at the root or in `docs/`), its `srcDir` to
//! `.vitepress/dist/`.

use std::path::Path;

use super::pattern::Pattern;
use super::read::{absolute, join as join_url, js_bool, js_string_pairs, js_value};
use super::route::html_page;
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Project, Settings, Source};
use super::{Prepared, config_file};

pub static VITEPRESS: Generator = Generator {
    id: "vitepress",
    own_sitemap_off: Some("remove the sitemap option from .vitepress/config"),
    name: "VitePress",
    markers: &[Marker::file(
        "{,docs/,src/,website/}.vitepress/config.{mts,ts,mjs,js,cts,cjs}",
    )],
    public_dir: ".vitepress/dist",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["."],
    extensions: &["md"],
    updated: &["lastUpdated"],
    read_config,
    route,
    prepare,
    ..Generator::BASE
};

/// The folder that holds `.vitepress` (or `.vuepress`): the sources' root.
pub(super) fn source_root<'p>(p: &'p Project) -> &'p Path {
    p.config_dir().parent().unwrap_or(Path::new(""))
}

/// What VitePress and VuePress configs share: the sitemap plugin's `hostname` and
/// `base` make the base URL (`what` names them in the note), and the default output is
/// below the sources' root.
pub(super) fn dot_folder(s: &mut Settings, p: &Project, generator: &Generator, what: &str) {
    let (text, root) = (p.text, source_root(p));
    let base = js_value(text, "base").unwrap_or_default();
    s.base_url = absolute(js_value(text, "hostname").map(|host| join_url(&host, &base)));
    if s.base_url.is_some() {
        s.note(format!("base_url from {what} and base"));
    }
    s.public_dir = root
        .join(generator.public_dir)
        .to_string_lossy()
        .into_owned();
}

fn read_config(s: &mut Settings, p: &Project) {
    let (text, root) = (p.text, source_root(p));
    dot_folder(s, p, &VITEPRESS, "sitemap.hostname");
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

/// VitePress' `rewrites` as routes: `'packages/:pkg/index.md': ':pkg/index.md'` (a
/// parameter a whole segment, the same tail on both sides) and fixed ones
/// (`'legacy/a.md': 'guide/b.md'`); a rewrite written as a function is code, not read.
fn prepare(project: &Path) -> Prepared {
    let Some((config, text)) = config_file(&VITEPRESS, project) else {
        return Prepared::default();
    };
    let root = config
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new(""));
    let src = js_value(&text, "srcDir").unwrap_or_default();
    let src = root.join(src.trim_start_matches("./"));
    let src = src.to_string_lossy();
    let src = src.trim_end_matches('/');
    let routes = js_string_pairs(&text, "rewrites")
        .iter()
        .filter_map(|(from, to)| rewrite(src, from, to))
        .collect();
    Prepared {
        routes,
        ..Prepared::default()
    }
}

/// One rewrite as a route from the sources in `src`, when it has a form routes can say.
fn rewrite(src: &str, from: &str, to: &str) -> Option<Pattern> {
    let in_src = |p: &str| {
        if src.is_empty() {
            p.to_string()
        } else {
            format!("{src}/{p}")
        }
    };
    let html = |p: &str| format!("/{}", p.strip_suffix(".md").unwrap_or(p)) + ".html";
    let Some(param) = from.find(':') else {
        return Pattern::new(&in_src(from), &html(to)).ok();
    };
    // The parameters and what follows them are the same on both sides: only the
    // folder before them moves.
    let (from_head, tail) = from.split_at(param);
    let to_head = to.strip_suffix(tail)?;
    let glob: Vec<String> = tail
        .split('/')
        .map(|seg| {
            if seg.starts_with(':') {
                "*".into()
            } else {
                seg.to_string()
            }
        })
        .collect();
    let from_glob = in_src(&format!("{from_head}{}", glob.join("/")));
    Pattern::new(&from_glob, &format!("/{to_head}{{path}}.html")).ok()
}
