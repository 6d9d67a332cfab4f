//! Gatsby 5: `gatsby-config.*`, the file routes of `src/pages/` and the Markdown of
//! `content/` to `public/`.

use super::read::{join as join_url, js_value};
use super::route::{folder_page, from_url, is_dynamic};
use super::{APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, Settings, Source};

pub static GATSBY: Generator = Generator {
    id: "gatsby",
    own_sitemap_off: Some("remove gatsby-plugin-sitemap from the plugins in gatsby-config"),
    name: "Gatsby",
    markers: &[Marker::file("gatsby-config.{js,ts,mjs,cjs}")],
    public_dir: "public",
    // The Slice API's shared parts (header, footer): fragments stitched into pages.
    not_pages: &[(
        "_gatsby/slices/",
        "a Gatsby slice, a part stitched into pages",
    )],
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["src/pages", "content"],
    extensions: &["js", "jsx", "ts", "tsx", "md", "mdx"],
    updated: &["updated", "lastmod", "modified"],
    read_config,
    route,
    ..Generator::BASE
};

/// Gatsby 5: `siteMetadata.siteUrl` and `pathPrefix`; `trailingSlash` is `'always'`
/// unless set.
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    let prefix = js_value(text, "pathPrefix").unwrap_or_default();
    s.base_url = js_value(text, "siteUrl").map(|url| join_url(&url, &prefix));
    match js_value(text, "trailingSlash").as_deref() {
        Some("never") => {
            s.trailing_slash = Some(false);
            s.note("trailing_slash from trailingSlash: 'never'");
        }
        Some("ignore") => {}
        _ => {
            s.trailing_slash = Some(true);
            s.note("trailing_slash: Gatsby's trailingSlash is 'always' by default");
        }
    }
}

/// Gatsby: `src/pages/x.js` is `x/index.html`, `index.js` its folder's (the File System
/// Route API's `{Node.field}.js` and client-only `[x].js` build pages of other
/// sources); Markdown made into pages by `gatsby-node.js` is at its `slug` or `path`,
/// else at its path below `content/`.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if n.dirs.iter().any(|d| is_dynamic(d) || d.starts_with('_')) || is_dynamic(&n.stem) {
        return Vec::new();
    }
    if s.dir.ends_with("pages") {
        return vec![folder_page(&n)];
    }
    if !matches!(n.ext.as_str(), "md" | "mdx") {
        return Vec::new();
    }
    match s.fm.slug.as_ref().or(s.fm.url.as_ref()) {
        Some(url) => vec![from_url(&format!("/{}/", url.trim_matches('/')))],
        None => vec![folder_page(&n)],
    }
}
