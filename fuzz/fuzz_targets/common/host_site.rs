#![allow(dead_code)] // Each target uses one of the places.
//! A small built site with one host file holding the fuzzer's bytes, run through the
//! library as the binary runs it: the host's files are read, their rules matched against
//! every page, the sitemap and the views written, and `_headers` or `vercel.json` edited
//! for the views. Whatever the bytes: a result or an error, never a panic; every warning
//! and error one line; an edited JSON file still JSON.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sitemapgen::config::{Config, Overrides};

/// Where the host file goes.
pub enum Place {
    /// In the built site (`_headers`, `_redirects`).
    Public,
    /// In the project, beside `sitemap.toml`.
    Project,
}

/// The site, made once a process; each run rewrites the host file only.
fn site() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        for page in ["index.html", "a/index.html", "b.html", "c d/e.html", "docs/x.html"] {
            let path = dir.join("public").join(page);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "<title>t</title><main>m</main>").unwrap();
        }
        dir
    })
}

/// Runs a build of the site with `data` as the host file `name` of `hosting`.
pub fn run(name: &str, place: Place, hosting: &str, data: &[u8]) {
    let root = site();
    let public = root.join("public");
    for stale in ["_headers", "_redirects"] {
        let _ = std::fs::remove_file(public.join(stale));
    }
    let file = match place {
        Place::Public => public.join(name),
        Place::Project => root.join(name),
    };
    std::fs::write(&file, data).unwrap();
    let config = root.join("sitemap.toml");
    let toml = format!(
        "base_url = 'https://example.org/'\npublic_dir = 'public'\nlastmod = 'none'\n\
         hosting = '{hosting}'\nhtml_sitemap = true\nllms_txt = true\n"
    );
    std::fs::write(&config, toml).unwrap();
    let config = Config::load(Some(&config), &Overrides::default()).unwrap();
    let collection = match sitemapgen::collect(&config, sitemapgen::Details::Keep) {
        Ok(collection) => collection,
        Err(e) => return assert!(!e.to_string().contains('\n'), "{e}"),
    };
    for warning in &collection.warnings {
        assert!(!warning.to_string().contains('\n'), "{warning}");
    }
    if let Err(e) = sitemapgen::write(&config, &collection, &mut std::io::sink()) {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    if name.ends_with(".json") && serde_json::from_slice::<serde_json::Value>(data).is_ok() {
        let after = std::fs::read(&file).unwrap();
        assert!(
            serde_json::from_slice::<serde_json::Value>(&after).is_ok(),
            "the edit broke the JSON:\n{}",
            String::from_utf8_lossy(&after)
        );
    }
    std::fs::remove_file(&file).unwrap();
}
