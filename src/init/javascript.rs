//! What the JavaScript generators' configs say: base URL, output directory, URL style.
//! Their configs are code; the few literal values `init` needs are picked out of them
//! (see [`super::read`]).

use std::path::Path;

use super::read::{absolute, join, js_bool, js_value, js_value_in, json_value, read_export};
use super::{Detected, Generator, read_text};

pub(super) fn eleventy(found: &mut Detected, dir: &Path, text: &str) {
    found.output(Path::new(""), js_value(text, "output"), "dir.output");
    // Eleventy's config has no site URL; the starter projects keep it in a data file.
    let input = js_value(text, "input").unwrap_or_default();
    found.content(Some(input.clone()));
    let input = input.trim().trim_start_matches("./").trim_end_matches('/');
    let data = Path::new(input).join(js_value(text, "data").unwrap_or("_data".into()));
    for name in [
        "metadata.json",
        "metadata.js",
        "metadata.mjs",
        "metadata.cjs",
        "site.json",
        "site.js",
    ] {
        let Some(data_text) = read_text(&dir.join(&data).join(name)) else {
            continue;
        };
        let url = if name.ends_with(".json") {
            json_value(&data_text, "url")
        } else {
            js_value(&data_text, "url")
        };
        if let Some(url) = url {
            let prefix = js_value(text, "pathPrefix").unwrap_or_default();
            found.base_url = Some(join(&url, &prefix));
            found.note(format!(
                "base_url from url in {}",
                data.join(name).display()
            ));
            return;
        }
    }
}

pub(super) fn astro(found: &mut Detected, text: &str) {
    found.base_url =
        js_value(text, "site").map(|site| join(&site, &js_value(text, "base").unwrap_or_default()));
    found.output(Path::new(""), js_value(text, "outDir"), "outDir");
    match js_value(text, "trailingSlash").as_deref() {
        Some("never") => {
            found.trailing_slash = Some(false);
            found.note("trailing_slash from trailingSlash: 'never'".into());
        }
        Some("always") => {
            found.trailing_slash = Some(true);
            found.note("trailing_slash from trailingSlash: 'always'".into());
        }
        _ => {}
    }
    if js_value(text, "format").as_deref() == Some("file") {
        // build.format 'file' writes about.html for /about.
        found.clean_urls = Some(true);
        found.trailing_slash = Some(false);
        found.note("clean_urls from build.format: 'file'".into());
    }
}

pub(super) fn next(found: &mut Detected, dir: &Path, text: &str) {
    found.output(Path::new(""), js_value(text, "distDir"), "distDir");
    // Without trailingSlash: true, an export writes about.html for /about.
    if js_bool(text, "trailingSlash") == Some(true) {
        found.trailing_slash = Some(true);
        found.note("trailing_slash from trailingSlash: true".into());
    } else {
        found.clean_urls = Some(true);
        found.trailing_slash = Some(false);
        found.note("clean_urls: the export writes about.html for /about".into());
    }
    // Next has no site URL; next-sitemap, which most exports use, keeps it.
    for name in NEXT_SITEMAP_CONFIGS {
        let Some(url) = read_text(&dir.join(name)).and_then(|t| js_value(&t, "siteUrl")) else {
            continue;
        };
        let base_path = js_value(text, "basePath").unwrap_or_default();
        found.base_url = Some(join(&url, &base_path));
        found.note(format!("base_url from siteUrl in {name}"));
        return;
    }
}

/// next-sitemap's config files.
const NEXT_SITEMAP_CONFIGS: [&str; 3] = [
    "next-sitemap.config.js",
    "next-sitemap.config.cjs",
    "next-sitemap.config.mjs",
];

/// Nuxt 3 and 4: `nuxt generate` writes `.output/public`, `about/index.html` for a page
/// it links and lists as `/about`. The site URL is the Nuxt SEO modules' `site.url`.
pub(super) fn nuxt(found: &mut Detected, text: &str) {
    let url = js_value_in(text, "site", "url");
    let base = js_value_in(text, "app", "baseURL").unwrap_or_default();
    found.base_url = url.map(|url| join(&url, &base));
    found.output(
        Path::new(""),
        js_value_in(text, "output", "publicDir"),
        "nitro.output.publicDir",
    );
    let slash = js_bool(text, "trailingSlash").unwrap_or(false);
    found.trailing_slash = Some(slash);
    found.note(if slash {
        "trailing_slash from site.trailingSlash: true".into()
    } else {
        "trailing_slash = false: Nuxt links about/index.html as /about".into()
    });
}

/// Gatsby 5: `siteMetadata.siteUrl` and `pathPrefix`; `trailingSlash` is `'always'`
/// unless set.
pub(super) fn gatsby(found: &mut Detected, text: &str) {
    let prefix = js_value(text, "pathPrefix").unwrap_or_default();
    found.base_url = js_value(text, "siteUrl").map(|url| join(&url, &prefix));
    match js_value(text, "trailingSlash").as_deref() {
        Some("never") => {
            found.trailing_slash = Some(false);
            found.note("trailing_slash from trailingSlash: 'never'".into());
        }
        Some("ignore") => {}
        _ => {
            found.trailing_slash = Some(true);
            found.note("trailing_slash: Gatsby's trailingSlash is 'always' by default".into());
        }
    }
}

/// SvelteKit with adapter-static: the output is the adapter's `pages` (`build`); the
/// base path `paths.base`; the origin, if any, `paths.origin` (Kit 3) or
/// `prerender.origin` (Kit 2). `trailingSlash` is a
/// page option, exported by the root layout: `'never'` (the default) prerenders
/// `about.html` for `/about`.
pub(super) fn sveltekit(found: &mut Detected, dir: &Path, text: &str) {
    found.output(
        Path::new(""),
        js_value(text, "pages"),
        "adapter-static pages",
    );
    let base = js_value_in(text, "paths", "base").unwrap_or_default();
    found.base_url = js_value_in(text, "paths", "origin")
        .or_else(|| js_value_in(text, "prerender", "origin"))
        .map(|url| join(&url, &base));
    let slash = SVELTEKIT_LAYOUTS
        .iter()
        .find_map(|name| read_export(&read_text(&dir.join(name))?, "trailingSlash"));
    if slash.as_deref() == Some("always") {
        found.trailing_slash = Some(true);
        found.note("trailing_slash from trailingSlash = 'always' in the root layout".into());
    } else {
        found.clean_urls = Some(true);
        found.trailing_slash = Some(false);
        found.note("clean_urls: SvelteKit prerenders about.html for /about".into());
    }
}

/// Where a SvelteKit project's root layout exports its page options.
const SVELTEKIT_LAYOUTS: [&str; 4] = [
    "src/routes/+layout.js",
    "src/routes/+layout.ts",
    "src/routes/+layout.server.js",
    "src/routes/+layout.server.ts",
];

/// Rspress: `outDir` (`doc_build`), `base`, and the sitemap plugin's `siteUrl`.
pub(super) fn rspress(found: &mut Detected, text: &str) {
    let base = js_value(text, "base").unwrap_or_default();
    found.base_url = js_value(text, "siteUrl")
        .or_else(|| js_value(text, "hostname"))
        .map(|url| join(&url, &base));
    found.output(Path::new(""), js_value(text, "outDir"), "outDir");
}

pub(super) fn docusaurus(found: &mut Detected, text: &str) {
    found.base_url =
        js_value(text, "url").map(|url| join(&url, &js_value(text, "baseUrl").unwrap_or_default()));
    // Left undefined (the default), the pages' canonical links give each URL its form.
    match js_bool(text, "trailingSlash") {
        Some(true) => {
            found.trailing_slash = Some(true);
            found.note("trailing_slash from trailingSlash: true".into());
        }
        Some(false) => {
            // about.html for /about.
            found.clean_urls = Some(true);
            found.trailing_slash = Some(false);
            found.note("clean_urls from trailingSlash: false".into());
        }
        None => {}
    }
}

pub(super) fn vitepress(found: &mut Detected, root: &Path, text: &str) {
    let base = js_value(text, "base").unwrap_or_default();
    found.base_url = absolute(js_value(text, "hostname").map(|host| join(&host, &base)));
    if found.base_url.is_some() {
        found.note("base_url from sitemap.hostname and base".into());
    }
    found.public_dir = root
        .join(Generator::VitePress.public_dir())
        .to_string_lossy()
        .into_owned();
    found.output(root, js_value(text, "outDir"), "outDir");
    if js_bool(text, "cleanUrls") == Some(true) {
        found.clean_urls = Some(true);
        found.note("clean_urls from cleanUrls: true".into());
    }
}

/// VuePress 1 and 2 (sources in `root`): the output is `dest` (relative to the project)
/// or `.vuepress/dist` in the sources; the host is the sitemap or SEO plugin's
/// `hostname`, the path `base`.
pub(super) fn vuepress(found: &mut Detected, root: &Path, text: &str) {
    let base = js_value(text, "base").unwrap_or_default();
    found.base_url = absolute(js_value(text, "hostname").map(|host| join(&host, &base)));
    if found.base_url.is_some() {
        found.note("base_url from the sitemap plugin's hostname and base".into());
    }
    found.public_dir = root
        .join(Generator::VuePress.public_dir())
        .to_string_lossy()
        .into_owned();
    found.output(Path::new(""), js_value(text, "dest"), "dest");
}
