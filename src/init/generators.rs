//! What each generator's own config says: base URL, output directory, URL style.

use std::path::Path;

use super::read::{
    absolute, join, json_value, py_value, toml_path, toml_value, yaml, yaml_bool, yaml_nested,
    yaml_value,
};
use super::{Detected, Generator, javascript, read_text};

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
            found.content(if name.ends_with(".toml") {
                toml_value(text, &["contentDir", "contentdir"])
            } else if name.ends_with(".json") {
                json_value(text, "contentDir")
            } else {
                yaml_value(text, "contentDir")
            });
        }
        Generator::Zola => {
            found.base_url = toml_value(text, &["base_url"]);
            found.output(here, toml_value(text, &["output_dir"]), "output_dir");
        }
        Generator::Jekyll => {
            found.base_url = yaml_value(text, "url")
                .map(|url| join(&url, &yaml_value(text, "baseurl").unwrap_or_default()));
            found.output(here, yaml_value(text, "destination"), "destination");
            found.content(yaml_value(text, "source"));
            found.permalink(jekyll_permalink(text));
        }
        Generator::Hexo => hexo(found, text),
        Generator::Eleventy => javascript::eleventy(found, dir, text),
        Generator::Astro => javascript::astro(found, text),
        Generator::Next => javascript::next(found, dir, text),
        Generator::Docusaurus => javascript::docusaurus(found, text),
        Generator::Nuxt => javascript::nuxt(found, text),
        Generator::Gatsby => javascript::gatsby(found, text),
        Generator::SvelteKit => javascript::sveltekit(found, dir, text),
        Generator::Rspress => javascript::rspress(found, text),
        Generator::MdBook => mdbook(found, text),
        Generator::Nikola => nikola(found, text),
        Generator::Quarto => quarto(found, text),
        Generator::MkDocs => {
            found.base_url = yaml_value(text, "site_url");
            found.output(here, yaml_value(text, "site_dir"), "site_dir");
            found.content(yaml_value(text, "docs_dir"));
            if yaml_bool(text, "use_directory_urls") == Some(false) {
                found.note("use_directory_urls: false: pages are listed as page.html".into());
            }
        }
        Generator::Pelican => pelican(found, dir, text),
        Generator::VitePress | Generator::VuePress | Generator::Sphinx => {
            unreachable!("detected apart")
        }
    }
    found.base_url = absolute(found.base_url.take());
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
    found.content(yaml_value(text, "source_dir"));
    found.permalink(yaml_value(text, "permalink"));
}

pub(super) fn sphinx(found: &mut Detected, dir: &Path, name: &str, text: &str) {
    found.base_url = absolute(py_value(text, "html_baseurl"));
    // `make html` builds into _build/html beside conf.py, or build/html beside source/.
    let conf_dir = Path::new(name).parent().unwrap_or(Path::new(""));
    found.content(Some(conf_dir.to_string_lossy().into_owned()));
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
    found.content(py_value(text, "PATH"));
}

/// mdBook: `build.build-dir` (`book`); a base URL only where `output.html.cname` names
/// the host (`site-url` is the path the book is served under).
fn mdbook(found: &mut Detected, text: &str) {
    found.output(
        Path::new(""),
        toml_path(text, &["build", "build-dir"]),
        "build.build-dir",
    );
    let path = toml_path(text, &["output", "html", "site-url"]).unwrap_or_default();
    if let Some(host) = toml_path(text, &["output", "html", "cname"]) {
        found.base_url = Some(join(&format!("https://{}", host.trim()), &path));
        found.note("base_url from output.html.cname and site-url".into());
    }
}

/// Nikola: `SITE_URL` and `OUTPUT_FOLDER` in `conf.py`.
fn nikola(found: &mut Detected, text: &str) {
    found.base_url = py_value(text, "SITE_URL");
    found.output(
        Path::new(""),
        py_value(text, "OUTPUT_FOLDER"),
        "OUTPUT_FOLDER",
    );
}

/// Quarto: `project.output-dir` (`_site`), and `website.site-url` (`book.site-url` for a
/// book).
fn quarto(found: &mut Detected, text: &str) {
    found.base_url =
        yaml_nested(text, "website", "site-url").or_else(|| yaml_nested(text, "book", "site-url"));
    found.output(
        Path::new(""),
        yaml_nested(text, "project", "output-dir"),
        "project.output-dir",
    );
}

/// The posts' permalink pattern of a Jekyll config: `permalink`, or the one its front
/// matter `defaults` give posts (`scope: {type: posts}`).
fn jekyll_permalink(text: &str) -> Option<String> {
    use yaml_rust2::Yaml;
    let doc = yaml(text);
    if let Some(p) = doc["permalink"].as_str() {
        return Some(p.to_string());
    }
    doc["defaults"].as_vec()?.iter().find_map(|d: &Yaml| {
        let scope = &d["scope"];
        let posts = scope["type"].as_str() == Some("posts")
            || scope["path"]
                .as_str()
                .is_some_and(|p| p.trim_matches('/') == "_posts");
        posts.then(|| d["values"]["permalink"].as_str().map(str::to_string))?
    })
}
