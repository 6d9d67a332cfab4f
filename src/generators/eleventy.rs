//! Eleventy: `eleventy.config.*` (or `.eleventy.js`), its input directory to `_site/`.

use std::path::Path;

use super::read::{join as join_url, js_value, json_value};
use super::route::{MARKUP, folder_page, from_url};
use super::{APP_RULES, BLOG_SECTIONS, Context, Generator, Marker, Project, Settings, Source};

pub static ELEVENTY: Generator = Generator {
    id: "eleventy",
    name: "Eleventy",
    markers: &[
        Marker::file("eleventy.config.{js,mjs,cjs}"),
        Marker::file(".eleventy.{js,cjs}"),
        // No config file: the folders given on the command line in its scripts.
        Marker::shared("package.json", |p| {
            super::read::depends_on(p, "@11ty/eleventy")
        }),
    ],
    public_dir: "_site",
    suggested_rules: APP_RULES,
    suggested_sections: BLOG_SECTIONS,
    content: &["."],
    extensions: MARKUP,
    updated: &["updated"],
    read_config,
    route,
    ..Generator::BASE
};

/// The most data files read for the site URL.
const MAX_DATA_FILES: usize = 64;

/// Where Eleventy's starter projects keep the site URL, in the data folder.
const DATA_FILES: [&str; 6] = [
    "metadata.json",
    "metadata.js",
    "metadata.mjs",
    "metadata.cjs",
    "site.json",
    "site.js",
];

fn read_config(s: &mut Settings, p: &Project) {
    // The config's `dir`, else the flags its scripts give `eleventy` (which win over it).
    let text = if p.config == Path::new("package.json") {
        ""
    } else {
        p.text
    };
    let scripts = p.read("package.json").unwrap_or_default();
    let flag = |name| super::read::script_flag(&scripts, "eleventy", name);
    let output = flag("--output").or_else(|| js_value(text, "output"));
    s.output(Path::new(""), output, "dir.output");
    // Eleventy's config has no site URL; the starter projects keep it in a data file.
    let input = flag("--input")
        .or_else(|| js_value(text, "input"))
        .unwrap_or_default();
    s.content(Some(input.clone()));
    let input = input.trim().trim_start_matches("./").trim_end_matches('/');
    let data = Path::new(input).join(js_value(text, "data").unwrap_or("_data".into()));
    // The starter projects' names first, then any other JSON data file.
    let mut others: Vec<String> = std::fs::read_dir(p.dir.join(&data))
        .map(|d| {
            d.flatten()
                .take(1024)
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    others.retain(|n| n.ends_with(".json") && !DATA_FILES.contains(&n.as_str()));
    others.sort();
    let names = DATA_FILES.iter().map(|n| n.to_string()).chain(others);
    for name in names.take(MAX_DATA_FILES) {
        let Some(data_text) = p.read(data.join(&name)) else {
            continue;
        };
        let url = if name.ends_with(".json") {
            json_value(&data_text, "url")
        } else {
            js_value(&data_text, "url")
        };
        if let Some(url) = url {
            let prefix = js_value(text, "pathPrefix").unwrap_or_default();
            s.base_url = Some(join_url(&url, &prefix));
            s.note(format!(
                "base_url from url in {}",
                crate::text::path(&data.join(name))
            ));
            return;
        }
    }
}

/// Eleventy: `x.md` → `x/index.html`, `index.md` its directory's; `permalink` wins.
fn route(_: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    if let Some(url) = &s.fm.url {
        return vec![from_url(url)];
    }
    if n.dirs.iter().any(|d| d.starts_with('_')) {
        return Vec::new();
    }
    vec![folder_page(&n)]
}
