//! Next.js with `output: 'export'`: `next.config.*`, the App Router's `app/` and the
//! Pages Router's `pages/` to `out/`.

use std::path::Path;

use super::read::{join as join_url, js_bool, js_value};
use super::route::{either_page, is_dynamic, is_group};
use super::{APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, Settings, Source};

pub static NEXT: Generator = Generator {
    id: "next",
    own_sitemap_off: Some("remove next-sitemap from the postbuild script"),
    name: "Next.js (static export)",
    markers: &[Marker::file("next.config.{js,mjs,ts,cjs}")],
    public_dir: "out",
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["app", "src/app", "pages", "src/pages"],
    extensions: &["js", "jsx", "ts", "tsx", "md", "mdx"],
    updated: &[],
    read_config,
    route,
    ..Generator::BASE
};

/// next-sitemap's config files.
const NEXT_SITEMAP_CONFIGS: [&str; 3] = [
    "next-sitemap.config.js",
    "next-sitemap.config.cjs",
    "next-sitemap.config.mjs",
];

fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.output(Path::new(""), js_value(text, "distDir"), "distDir");
    // Without trailingSlash: true, an export writes about.html for /about.
    if js_bool(text, "trailingSlash") == Some(true) {
        s.trailing_slash = Some(true);
        s.note("trailing_slash from trailingSlash: true");
    } else {
        s.clean_urls = Some(true);
        s.trailing_slash = Some(false);
        s.note("clean_urls: the export writes about.html for /about");
    }
    // Next has no site URL; next-sitemap, which most exports use, keeps it.
    for name in NEXT_SITEMAP_CONFIGS {
        let Some(url) = p.read(name).and_then(|t| js_value(&t, "siteUrl")) else {
            continue;
        };
        let base_path = js_value(text, "basePath").unwrap_or_default();
        s.base_url = Some(join_url(&url, &base_path));
        s.note(format!("base_url from siteUrl in {name}"));
        return;
    }
}

/// Next: in `app/`, a folder's `page.tsx` is the folder's page (route groups `(x)` name
/// no segment; private `_x` folders and dynamic `[x]` ones build none of their own); in
/// `pages/`, `x.tsx` is `/x` and `index.tsx` its folder's (`_app`, `_document` and
/// `api/` are no pages). The export writes `x.html`, or `x/index.html` with
/// `trailingSlash`.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let private = |d: &String| d.starts_with('_') || is_dynamic(d);
    if n.dirs.iter().any(private) || n.stem.starts_with('_') || is_dynamic(&n.stem) {
        return Vec::new();
    }
    let mut dirs: Vec<String> = n.dirs.iter().filter(|d| !is_group(d)).cloned().collect();
    if s.dir.ends_with("app") {
        if n.stem != "page" {
            return Vec::new();
        }
        return either_page(&dirs);
    }
    if dirs.first().is_some_and(|d| d == "api") {
        return Vec::new();
    }
    if n.stem != "index" {
        dirs.push(n.stem.clone());
    }
    either_page(&dirs)
}
