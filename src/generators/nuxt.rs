//! Nuxt 3 and 4 with `nuxt generate`: `nuxt.config.*`, the file routes of `app/pages/`
//! (`pages/` in Nuxt 3) and Nuxt Content's `content/` to `.output/public/`.

use std::path::Path;

use super::read::{join as join_url, js_bool, js_value, js_value_in};
use super::route::{
    FrontMatter, folder_page, from_url, is_dynamic, is_group, slugify_ascii, unnumbered,
};
use super::{
    APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, SPA_FALLBACK, Settings, Source,
};

pub static NUXT: Generator = Generator {
    id: "nuxt",
    own_sitemap_off: Some("remove @nuxtjs/sitemap from the modules in nuxt.config"),
    name: "Nuxt",
    markers: &[Marker::file("nuxt.config.{ts,js,mjs,mts}")],
    public_dir: ".output/public",
    // Its SPA fallbacks: the app's empty shell, served for unknown paths.
    not_pages: &[("200.html", SPA_FALLBACK)],
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["app/pages", "pages", "content"],
    extensions: &["vue", "md", "markdown", "yml", "yaml", "json"],
    updated: &["updatedAt", "modifiedAt", "lastmod"],
    read_config,
    route,
    page_meta,
    ..Generator::BASE
};

/// Nuxt 3 and 4: `nuxt generate` writes `.output/public`, `about/index.html` for a page
/// it links and lists as `/about`. The site URL is the Nuxt SEO modules' `site.url`.
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    let url = js_value_in(text, "site", "url");
    let base = js_value_in(text, "app", "baseURL").unwrap_or_default();
    s.base_url = url.map(|url| join_url(&url, &base));
    s.output(
        Path::new(""),
        js_value_in(text, "output", "publicDir"),
        "nitro.output.publicDir",
    );
    let slash = js_bool(text, "trailingSlash").unwrap_or(false);
    s.trailing_slash = Some(slash);
    s.note(if slash {
        "trailing_slash from site.trailingSlash: true"
    } else {
        "trailing_slash = false: Nuxt links about/index.html as /about"
    });
}

/// Nuxt: a page file `pages/x.vue` (or `x/index.vue`) is `x/index.html`; dynamic
/// `[x]` files build the pages of other sources; route groups `(x)` name no segment.
/// Nuxt Content's `content/guide/1.intro.md` is `guide/intro/index.html`, its number
/// prefixes dropped.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    if n.dirs
        .iter()
        .any(|d| is_dynamic(d) || d.starts_with(['_', '.']))
        || is_dynamic(&n.stem)
    {
        return Vec::new();
    }
    n.dirs.retain(|d| !is_group(d));
    if s.dir.ends_with("pages") {
        return match (n.ext.as_str(), &s.fm.url) {
            ("vue", Some(path)) => vec![from_url(&format!("/{}/", path.trim_matches('/')))],
            ("vue", None) => vec![folder_page(&n)],
            _ => Vec::new(),
        };
    }
    if !matches!(n.ext.as_str(), "md" | "markdown") {
        return Vec::new();
    }
    if let Some(path) = &s.fm.url {
        return vec![from_url(&format!("/{}/", path.trim_matches('/')))];
    }
    // Nuxt Content's path: the order prefixes dropped, each segment slugified (npm
    // slugify, lower case: accents folded, spaces as hyphens).
    let slug = |s: &str| slugify_ascii(unnumbered(s));
    n.dirs = n.dirs.iter().map(|d| slug(d)).collect();
    n.stem = if n.stem == "index" {
        n.stem
    } else {
        slug(&n.stem)
    };
    vec![folder_page(&n)]
}

/// A page file's `definePageMeta({ path: '/impressum' })`: its route, as a front-matter
/// `path` would be.
fn page_meta(text: &str, fm: &mut FrontMatter) {
    let Some((_, meta)) = text.split_once("definePageMeta(") else {
        return;
    };
    let meta = &meta[..meta.find(')').unwrap_or(meta.len())];
    if fm.url.is_none() {
        fm.url = js_value(meta, "path");
    }
}
