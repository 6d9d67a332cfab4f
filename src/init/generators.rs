//! What each generator's own config says: base URL, output directory, URL style.

use std::path::Path;

use super::read::{
    join, js_bool, js_value, json_value, py_value, toml_value, yaml_bool, yaml_value,
};
use super::{Detected, Generator, read_text};

/// Reads what the generator's config file `name` (holding `text`) says of the base URL,
/// the output directory and the URL style.
pub(super) fn settings(found: &mut Detected, dir: &Path, name: &str, text: &str) {
    let here = Path::new("");
    let generator = found.generator.expect("detected");
    match generator {
        Generator::Hugo => {
            let (url, out) = if name.ends_with(".toml") {
                (
                    toml_value(text, &["baseURL", "baseurl"]),
                    toml_value(text, &["publishDir", "publishdir"]),
                )
            } else if name.ends_with(".json") {
                (json_value(text, "baseURL"), json_value(text, "publishDir"))
            } else {
                (
                    yaml_value(text, "baseURL").or_else(|| yaml_value(text, "baseurl")),
                    yaml_value(text, "publishDir"),
                )
            };
            found.base_url = url;
            found.output(here, out, "publishDir");
        }
        Generator::Zola => {
            found.base_url = toml_value(text, &["base_url"]);
            found.output(here, toml_value(text, &["output_dir"]), "output_dir");
        }
        Generator::Jekyll => {
            found.base_url = yaml_value(text, "url")
                .map(|url| join(&url, &yaml_value(text, "baseurl").unwrap_or_default()));
            found.output(here, yaml_value(text, "destination"), "destination");
        }
        Generator::Hexo => hexo(found, text),
        Generator::Eleventy => eleventy(found, dir, text),
        Generator::Astro => astro(found, text),
        Generator::Next => next(found, text),
        Generator::Docusaurus => docusaurus(found, text),
        Generator::MkDocs => {
            found.base_url = yaml_value(text, "site_url");
            found.output(here, yaml_value(text, "site_dir"), "site_dir");
            if yaml_bool(text, "use_directory_urls") == Some(false) {
                found.note("use_directory_urls: false: pages are listed as page.html".into());
            }
        }
        Generator::Pelican => pelican(found, dir, text),
        Generator::VitePress | Generator::Sphinx => unreachable!("detected apart"),
    }
    found.base_url = absolute(found.base_url.take());
}

/// Keeps a base URL only when it is absolute http(s), ending it in `/`.
pub(super) fn absolute(url: Option<String>) -> Option<String> {
    let url = url?;
    let url = url.trim();
    (url.starts_with("http://") || url.starts_with("https://")).then(|| {
        if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        }
    })
}

fn hexo(found: &mut Detected, text: &str) {
    // `url` holds the subdirectory in Hexo 5 and later; `root` repeats it (or, in older
    // sites, is its only place).
    let url = yaml_value(text, "url");
    let root = yaml_value(text, "root").unwrap_or_default();
    found.base_url = url.map(|url| {
        let has_path = url
            .split_once("://")
            .is_some_and(|(_, rest)| rest.trim_end_matches('/').contains('/'));
        if has_path { url } else { join(&url, &root) }
    });
    found.output(Path::new(""), yaml_value(text, "public_dir"), "public_dir");
}

fn eleventy(found: &mut Detected, dir: &Path, text: &str) {
    found.output(Path::new(""), js_value(text, "output"), "dir.output");
    // Eleventy's config has no site URL; the starter projects keep it in a data file.
    let input = js_value(text, "input").unwrap_or_default();
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

fn astro(found: &mut Detected, text: &str) {
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

fn next(found: &mut Detected, text: &str) {
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
}

fn docusaurus(found: &mut Detected, text: &str) {
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

pub(super) fn sphinx(found: &mut Detected, dir: &Path, name: &str, text: &str) {
    found.base_url = absolute(py_value(text, "html_baseurl"));
    // `make html` builds into _build/html beside conf.py, or build/html beside source/.
    let conf_dir = Path::new(name).parent().unwrap_or(Path::new(""));
    let out = match conf_dir.file_name() {
        Some(last) if last == "source" => conf_dir.with_file_name("build").join("html"),
        _ => conf_dir.join("_build/html"),
    };
    let makefile = read_text(&dir.join(conf_dir).join("Makefile")).unwrap_or_default();
    let builddir = makefile.lines().find_map(|l| {
        l.strip_prefix("BUILDDIR")?
            .trim_start()
            .strip_prefix("=")
            .map(str::trim)
    });
    found.public_dir = match builddir {
        Some(b) if !b.is_empty() && !b.contains('$') => {
            conf_dir.join(b).join("html").to_string_lossy().into_owned()
        }
        _ => out.to_string_lossy().into_owned(),
    };
}

fn pelican(found: &mut Detected, dir: &Path, text: &str) {
    // publishconf.py is the production build's: its SITEURL wins.
    let publish = read_text(&dir.join("publishconf.py")).unwrap_or_default();
    let site = py_value(&publish, "SITEURL").filter(|u| !u.is_empty());
    if site.is_some() {
        found.note("base_url from SITEURL in publishconf.py".into());
    }
    found.base_url = site.or_else(|| py_value(text, "SITEURL"));
    let out = py_value(&publish, "OUTPUT_PATH").or_else(|| py_value(text, "OUTPUT_PATH"));
    found.output(Path::new(""), out, "OUTPUT_PATH");
}
