//! SvelteKit with adapter-static: `svelte.config.*` (Kit 2) or the `sveltekit()` Vite
//! plugin (Kit 3), `src/routes/` to `build/`.

use std::path::Path;

use super::read::{join as join_url, js_value, js_value_in, read_export};
use super::route::{either_page, is_dynamic, is_group};
use super::{
    APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, SPA_FALLBACK, Settings, Source,
};

pub static SVELTEKIT: Generator = Generator {
    id: "sveltekit",
    name: "SvelteKit",
    markers: &[
        Marker::file("svelte.config.{js,mjs,ts,cjs}"),
        // Kit 3 configures the adapter in `sveltekit({ adapter })`.
        Marker::shared("vite.config.{ts,js,mts,mjs}", |p| {
            p.text.contains("sveltekit(")
        }),
    ],
    public_dir: "build",
    // adapter-static's `fallback: '200.html'`: the app's empty shell.
    not_pages: &[("200.html", SPA_FALLBACK)],
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["src/routes"],
    extensions: &["svelte", "md", "svx"],
    updated: &[],
    read_config,
    route,
    ..Generator::BASE
};

/// Where a SvelteKit project's root layout exports its page options.
const LAYOUTS: [&str; 4] = [
    "src/routes/+layout.js",
    "src/routes/+layout.ts",
    "src/routes/+layout.server.js",
    "src/routes/+layout.server.ts",
];

/// The output is the adapter's `pages` (`build`); the base path `paths.base`; the
/// origin, if any, `paths.origin` (Kit 3) or `prerender.origin` (Kit 2). `trailingSlash`
/// is a page option, exported by the root layout: `'never'` (the default) prerenders
/// `about.html` for `/about`.
fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.output(
        Path::new(""),
        js_value(text, "pages"),
        "adapter-static pages",
    );
    let base = js_value_in(text, "paths", "base").unwrap_or_default();
    s.base_url = js_value_in(text, "paths", "origin")
        .or_else(|| js_value_in(text, "prerender", "origin"))
        .map(|url| join_url(&url, &base));
    let slash = LAYOUTS
        .iter()
        .find_map(|name| read_export(&p.read(name)?, "trailingSlash"));
    if slash.as_deref() == Some("always") {
        s.trailing_slash = Some(true);
        s.note("trailing_slash from trailingSlash = 'always' in the root layout");
    } else {
        s.clean_urls = Some(true);
        s.trailing_slash = Some(false);
        s.note("clean_urls: SvelteKit prerenders about.html for /about");
    }
}

/// SvelteKit: a folder's `+page.svelte` is the folder's page; route groups `(x)` name
/// no segment; dynamic `[x]` folders build the pages of other sources.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if n.stem != "+page" || n.dirs.iter().any(|d| is_dynamic(d)) {
        return Vec::new();
    }
    let dirs: Vec<String> = n.dirs.iter().filter(|d| !is_group(d)).cloned().collect();
    either_page(&dirs)
}
