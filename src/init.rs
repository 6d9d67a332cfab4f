//! `sitemapgen init`: recognise the site generator from the files of a project directory
//! and write a commented `sitemap.toml` with its output directory and base URL.
//!
//! The generators' own configs are TOML, YAML, JSON or JavaScript. TOML is read with the
//! `toml` crate; for the others only one or two top-level string values are needed, so
//! they are picked out by hand (`yaml_value`, `js_value`) rather than pulling in a YAML
//! parser or a JavaScript engine; a value they cannot find is left for the user to fill.

use std::fs;
use std::path::{Path, PathBuf};

/// A static site generator `init` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// Hugo.
    Hugo,
    /// Zola.
    Zola,
    /// Jekyll.
    Jekyll,
    /// Eleventy.
    Eleventy,
    /// Astro.
    Astro,
    /// Next.js with `output: 'export'`.
    Next,
    /// Docusaurus.
    Docusaurus,
}

impl Generator {
    /// The generator's name.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Hugo => "Hugo",
            Generator::Zola => "Zola",
            Generator::Jekyll => "Jekyll",
            Generator::Eleventy => "Eleventy",
            Generator::Astro => "Astro",
            Generator::Next => "Next.js (static export)",
            Generator::Docusaurus => "Docusaurus",
        }
    }

    /// Where the generator writes the built site by default.
    pub fn public_dir(self) -> &'static str {
        match self {
            Generator::Hugo | Generator::Zola => "public",
            Generator::Jekyll | Generator::Eleventy => "_site",
            Generator::Astro => "dist",
            Generator::Next => "out",
            Generator::Docusaurus => "build",
        }
    }

    /// Rules for the pages that generator makes which rarely belong in a sitemap
    /// (pagination, taxonomy lists), written commented out.
    fn suggested_rules(self) -> &'static str {
        match self {
            Generator::Hugo | Generator::Zola => {
                "# Pagination pages (/posts/page/2/) and taxonomy lists (/tags/, /categories/):\n\
                 # [[rule]]\n\
                 # match = [\"**/page/*/index.html\", \"tags/**\", \"categories/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Jekyll => {
                "# jekyll-paginate pages (/page2/, /blog/page3/) and tag or category archives:\n\
                 # [[rule]]\n\
                 # match = [\"**/page[0-9]*/index.html\", \"tag/**\", \"category/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Docusaurus => {
                "# Blog pagination and tag pages, and the search page:\n\
                 # [[rule]]\n\
                 # match = [\"blog/page/**\", \"**/tags/**\", \"search/index.html\"]\n\
                 # exclude = true\n"
            }
            Generator::Eleventy | Generator::Astro | Generator::Next => {
                "# Pagination pages, if your templates make them (e.g. /blog/2/):\n\
                 # [[rule]]\n\
                 # match = [\"blog/[0-9]*/index.html\"]\n\
                 # exclude = true\n"
            }
        }
    }
}

/// What `init` found in a project directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The generator, if one was recognised.
    pub generator: Option<Generator>,
    /// The file it was recognised by.
    pub source: Option<PathBuf>,
    /// The site's base URL from the generator's config, when it has one.
    pub base_url: Option<String>,
}

/// Files that name a generator, most specific first.
const MARKERS: &[(&str, Generator)] = &[
    ("hugo.toml", Generator::Hugo),
    ("hugo.yaml", Generator::Hugo),
    ("hugo.yml", Generator::Hugo),
    ("hugo.json", Generator::Hugo),
    ("docusaurus.config.js", Generator::Docusaurus),
    ("docusaurus.config.ts", Generator::Docusaurus),
    ("docusaurus.config.mjs", Generator::Docusaurus),
    ("astro.config.mjs", Generator::Astro),
    ("astro.config.ts", Generator::Astro),
    ("astro.config.js", Generator::Astro),
    ("astro.config.mts", Generator::Astro),
    ("next.config.js", Generator::Next),
    ("next.config.mjs", Generator::Next),
    ("next.config.ts", Generator::Next),
    ("eleventy.config.js", Generator::Eleventy),
    ("eleventy.config.mjs", Generator::Eleventy),
    ("eleventy.config.cjs", Generator::Eleventy),
    (".eleventy.js", Generator::Eleventy),
    ("_config.yml", Generator::Jekyll),
    ("_config.yaml", Generator::Jekyll),
];

/// Recognises the generator of the project in `dir` and reads its base URL.
pub fn detect(dir: &Path) -> Detected {
    for &(name, generator) in MARKERS {
        let path = dir.join(name);
        if let Ok(text) = fs::read_to_string(&path) {
            return Detected {
                generator: Some(generator),
                base_url: base_url(generator, name, &text),
                source: Some(path),
            };
        }
    }
    // config.toml is Hugo's older name and Zola's only one: the base URL key tells them
    // apart.
    for name in ["config.toml", "config.yaml", "config.yml"] {
        let path = dir.join(name);
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let generator = if name.ends_with(".toml") && toml_value(&text, &["base_url"]).is_some() {
            Generator::Zola
        } else {
            Generator::Hugo
        };
        return Detected {
            generator: Some(generator),
            base_url: base_url(generator, name, &text),
            source: Some(path),
        };
    }
    Detected {
        generator: None,
        source: None,
        base_url: None,
    }
}

/// The base URL in a generator's config file `name` holding `text`.
fn base_url(generator: Generator, name: &str, text: &str) -> Option<String> {
    let url = match generator {
        Generator::Hugo if name.ends_with(".toml") => toml_value(text, &["baseURL", "baseurl"]),
        Generator::Hugo if name.ends_with(".json") => json_value(text, "baseURL"),
        Generator::Hugo => yaml_value(text, "baseURL").or_else(|| yaml_value(text, "baseurl")),
        Generator::Zola => toml_value(text, &["base_url"]),
        Generator::Jekyll => {
            let url = yaml_value(text, "url")?;
            let path = yaml_value(text, "baseurl").unwrap_or_default();
            Some(join(&url, &path))
        }
        Generator::Astro => {
            let site = js_value(text, "site")?;
            let base = js_value(text, "base").unwrap_or_default();
            Some(join(&site, &base))
        }
        Generator::Docusaurus => {
            let url = js_value(text, "url")?;
            let base = js_value(text, "baseUrl").unwrap_or_default();
            Some(join(&url, &base))
        }
        // Neither config holds the site's host.
        Generator::Next | Generator::Eleventy => None,
    }?;
    let url = url.trim();
    (url.starts_with("http://") || url.starts_with("https://")).then(|| {
        if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        }
    })
}

/// `https://example.org` + `/blog/` → `https://example.org/blog/`.
fn join(url: &str, path: &str) -> String {
    let path = path.trim().trim_matches('/');
    let url = url.trim().trim_end_matches('/');
    if path.is_empty() {
        format!("{url}/")
    } else {
        format!("{url}/{path}/")
    }
}

fn toml_value(text: &str, keys: &[&str]) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    keys.iter()
        .find_map(|k| table.get(*k)?.as_str().map(str::to_string))
}

fn json_value(text: &str, key: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get(key)?.as_str().map(str::to_string)
}

/// A top-level `key: value` of a YAML file (no indentation), unquoted.
fn yaml_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.trim_start().strip_prefix(':')?;
        let value = rest.split(" #").next()?.trim();
        let value = unquote(value).unwrap_or(value);
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// The first `key: 'string'` (or `"string"`, or `` `string` ``) in a JavaScript config.
fn js_value(text: &str, key: &str) -> Option<String> {
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + key.len()..].trim_start();
        rest = &rest[at + key.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let after = after
            .strip_prefix(['\'', '"'])
            .and_then(|a| a.trim_start().strip_prefix(':'))
            .or_else(|| after.strip_prefix(':'));
        let Some(value) = after.map(str::trim_start) else {
            continue;
        };
        if let Some(s) = unquote_prefix(value) {
            return Some(s.to_string());
        }
    }
    None
}

fn unquote(value: &str) -> Option<&str> {
    let quote = value.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    value.strip_prefix(quote)?.strip_suffix(quote)
}

/// The string literal `value` starts with.
fn unquote_prefix(value: &str) -> Option<&str> {
    let quote = value
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"' | '`'))?;
    let body = &value[1..];
    body.find(quote).map(|end| &body[..end])
}

/// The `sitemap.toml` for what was detected: every value filled in that could be, the
/// others commented with what to put there.
pub fn render(found: &Detected) -> String {
    let mut out = String::new();
    out.push_str("# sitemap.toml for sitemapgen: every key is described in sitemap.toml.example\n");
    out.push_str("# and the README. Run `sitemapgen` after building the site.\n\n");
    match (found.generator, &found.source) {
        (Some(g), Some(source)) => out.push_str(&format!(
            "# Written for {} (recognised by {}).\n\n",
            g.name(),
            source.file_name().unwrap_or_default().to_string_lossy()
        )),
        _ => out.push_str(
            "# No generator recognised: set public_dir to the directory your build writes\n\
             # (Hugo and Zola: public, Jekyll and Eleventy: _site, Astro: dist, Next: out,\n\
             # Docusaurus: build).\n\n",
        ),
    }
    out.push_str("# The site's public address; every URL in the sitemap starts with it.\n");
    match &found.base_url {
        Some(url) => out.push_str(&format!("base_url = {}\n\n", toml_string(url))),
        None => out.push_str(
            "# Not found in the generator's config: set it (or pass --base-url).\n\
             # base_url = \"https://example.org/\"\n\n",
        ),
    }
    out.push_str("# The built site, relative to this file.\n");
    let public_dir = found.generator.map_or("public", Generator::public_dir);
    out.push_str(&format!("public_dir = {}\n\n", toml_string(public_dir)));
    out.push_str(
        "# Where modified dates come from, first found wins. In CI every file's mtime is\n\
         # the build time: add \"git\" (with fetch-depth: 0) or \"content\" before \"mtime\".\n\
         lastmod = [\"meta\", \"mtime\"]\n\n",
    );
    out.push_str(
        "# Pages to leave out, as globs relative to public_dir.\n\
         # exclude = [\"drafts/**\"]\n\n",
    );
    out.push_str(found.generator.map_or(
        "# [[rule]]\n# match = [\"blog/page/**\"]\n# exclude = true\n",
        Generator::suggested_rules,
    ));
    out
}

/// A TOML basic string.
fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_in(files: &[(&str, &str)]) -> Detected {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            fs::write(dir.path().join(name), text).unwrap();
        }
        let mut found = detect(dir.path());
        found.source = found.source.map(|p| p.file_name().unwrap().into());
        found
    }

    #[test]
    fn recognises_each_generator_and_its_base_url() {
        use Generator::*;
        type Case<'a> = (&'a [(&'a str, &'a str)], Option<Generator>, Option<&'a str>);
        let table: &[Case] = &[
            (
                &[("hugo.toml", "baseURL = 'https://h.example/'\ntitle = 'x'\n")],
                Some(Hugo),
                Some("https://h.example/"),
            ),
            (
                &[("hugo.yaml", "baseURL: https://h.example\ntitle: x\n")],
                Some(Hugo),
                Some("https://h.example/"),
            ),
            (
                &[("hugo.json", "{\"baseURL\": \"https://h.example/\"}")],
                Some(Hugo),
                Some("https://h.example/"),
            ),
            (
                &[("config.toml", "baseURL = \"https://h.example/docs/\"\n")],
                Some(Hugo),
                Some("https://h.example/docs/"),
            ),
            (
                &[(
                    "config.toml",
                    "base_url = \"https://z.example\"\ntitle = \"z\"\n",
                )],
                Some(Zola),
                Some("https://z.example/"),
            ),
            (
                &[(
                    "_config.yml",
                    "title: x\nurl: \"https://j.example\" # the host\nbaseurl: /blog\n",
                )],
                Some(Jekyll),
                Some("https://j.example/blog/"),
            ),
            (
                &[("_config.yml", "url: https://j.example\n")],
                Some(Jekyll),
                Some("https://j.example/"),
            ),
            (&[("_config.yml", "title: no url\n")], Some(Jekyll), None),
            (
                &[(".eleventy.js", "module.exports = function(c) {};\n")],
                Some(Eleventy),
                None,
            ),
            (
                &[(
                    "astro.config.mjs",
                    "export default defineConfig({\n  site: 'https://a.example',\n  base: '/docs',\n});\n",
                )],
                Some(Astro),
                Some("https://a.example/docs/"),
            ),
            (
                &[("next.config.js", "module.exports = { output: 'export' };\n")],
                Some(Next),
                None,
            ),
            (
                &[(
                    "docusaurus.config.js",
                    "const config = {\n  title: 'D',\n  url: 'https://d.example',\n  baseUrl: '/',\n};\n",
                )],
                Some(Docusaurus),
                Some("https://d.example/"),
            ),
            (
                &[(
                    "docusaurus.config.ts",
                    "export default {\n  \"url\": \"https://d.example\",\n  baseUrl: '/site/',\n  themeConfig: { navbar: { url: 'nope' } },\n};\n",
                )],
                Some(Docusaurus),
                Some("https://d.example/site/"),
            ),
            // Both present: the specific marker wins over Jekyll's generic name.
            (
                &[
                    ("_config.yml", "url: https://j.example\n"),
                    ("hugo.toml", "baseURL = 'https://h.example/'\n"),
                ],
                Some(Hugo),
                Some("https://h.example/"),
            ),
            // A relative or missing base URL is not one.
            (&[("hugo.toml", "baseURL = '/'\n")], Some(Hugo), None),
            (&[("package.json", "{}")], None, None),
        ];
        for (files, generator, url) in table {
            let found = detect_in(files);
            assert_eq!(found.generator, *generator, "{files:?}");
            assert_eq!(found.base_url.as_deref(), *url, "{files:?}");
        }
    }

    #[test]
    fn js_values_are_whole_keys_only() {
        let text = "const baseUrlPrefix = 'x'; module.exports = { siteUrl: 'no', url: `https://x.example` }";
        assert_eq!(js_value(text, "url").as_deref(), Some("https://x.example"));
        assert_eq!(js_value(text, "baseUrl"), None);
    }

    #[test]
    fn the_file_written_is_a_valid_config() {
        for generator in [
            None,
            Some(Generator::Hugo),
            Some(Generator::Jekyll),
            Some(Generator::Docusaurus),
            Some(Generator::Astro),
        ] {
            for base_url in [None, Some("https://e.example/a \"b\"/".to_string())] {
                let found = Detected {
                    generator,
                    source: generator.map(|_| PathBuf::from("x")),
                    base_url: base_url.clone(),
                };
                let text = render(&found);
                let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(
                    table.get("base_url").and_then(|v| v.as_str()),
                    base_url.as_deref()
                );
                // Uncommenting the suggested rules gives valid rules too.
                let uncommented: String = text
                    .lines()
                    .map(|l| {
                        l.strip_prefix("# ")
                            .filter(|r| r.starts_with('[') || r.contains(" = "))
                            .unwrap_or(l)
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                crate::config::FileConfig::parse(&uncommented, "sitemap.toml")
                    .unwrap_or_else(|e| panic!("{e}\n{uncommented}"));
            }
        }
    }
}
