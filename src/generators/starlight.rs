//! Starlight (Astro's documentation theme): `astro.config.*` naming it,
//! `src/content/docs/` to `dist/`, a locale's pages under its folder.

use super::astro::is_starlight;
use super::route::{MARKUP, folder_page, from_url, urlize};
use super::{Context, DOCS_RULES, DOCS_SECTIONS, Generator, Marker, Source};

pub static STARLIGHT: Generator = Generator {
    id: "starlight",
    own_sitemap_off: Some(
        "remove sitemap() (@astrojs/sitemap) from the integrations in astro.config",
    ),
    name: "Starlight",
    markers: &[Marker::shared(
        "astro.config.{mjs,ts,js,mts,cjs}",
        is_starlight,
    )],
    public_dir: "dist",
    suggested_rules: DOCS_RULES,
    suggested_sections: DOCS_SECTIONS,
    content: &["src/content/docs"],
    extensions: MARKUP,
    updated: &["lastUpdated"],
    read_config: super::astro::read_config,
    route,
    fills_translations: true,
    ..Generator::BASE
};

/// Starlight: `src/content/docs/guides/x.md` → `guides/x/index.html` (the path slugged,
/// as github-slugger does: lower case, spaces as hyphens, letters kept), `index.md` its
/// folder's; a `slug` is the whole path. A locale's pages are its folder's
/// (`fr/guides/x.md`), and a page a locale lacks is built there from the default's.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    if n.stem.starts_with('_') || n.dirs.iter().any(|d| d.starts_with('_')) {
        return Vec::new();
    }
    if let Some(slug) = &s.fm.slug {
        return vec![from_url(&format!("/{}/", slug.trim_matches('/')))];
    }
    n.dirs = n.dirs.iter().map(|d| urlize(d)).collect();
    n.stem = urlize(&n.stem);
    vec![folder_page(&n)]
}
