//! `sitemapgen init`: recognise the site generator from the files of a project directory
//! and write a commented `sitemap.toml` with its output directory, base URL and URL
//! style, and the excludes that generator's own sitemap makes.

mod read;

use std::fs;
use std::path::{Path, PathBuf};

use read::{
    join, js_bool, js_value, json_value, py_value, toml_value, yaml_bool, yaml_has_key, yaml_value,
};

/// A static site generator `init` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// Hugo.
    Hugo,
    /// Zola.
    Zola,
    /// Jekyll.
    Jekyll,
    /// Hexo.
    Hexo,
    /// Eleventy.
    Eleventy,
    /// Astro.
    Astro,
    /// Next.js with `output: 'export'`.
    Next,
    /// Docusaurus.
    Docusaurus,
    /// VitePress.
    VitePress,
    /// MkDocs.
    MkDocs,
    /// Sphinx.
    Sphinx,
    /// Pelican.
    Pelican,
}

/// What a generator's own sitemap leaves out: excludes written active, so the two agree.
/// Those that are a matter of taste are in [`Generator::suggested_rules`], commented.
struct Defaults {
    name: &'static str,
    public_dir: &'static str,
    exclude: &'static [&'static str],
}

impl Generator {
    /// Every generator `init` knows.
    pub const ALL: [Generator; 12] = [
        Generator::Hugo,
        Generator::Zola,
        Generator::Jekyll,
        Generator::Hexo,
        Generator::Eleventy,
        Generator::Astro,
        Generator::Next,
        Generator::Docusaurus,
        Generator::VitePress,
        Generator::MkDocs,
        Generator::Sphinx,
        Generator::Pelican,
    ];

    fn defaults(self) -> Defaults {
        let d = |name, public_dir, exclude| Defaults {
            name,
            public_dir,
            exclude,
        };
        match self {
            Generator::Hugo => d("Hugo", "public", &[]),
            Generator::Zola => d("Zola", "public", &[]),
            Generator::Jekyll => d("Jekyll", "_site", &[]),
            // hexo-generator-sitemap lists posts, pages, tags and categories: not the
            // archives nor any pagination (the index's, a tag's, a category's).
            Generator::Hexo => d("Hexo", "public", &["archives/**", "**/page/*/index.html"]),
            Generator::Eleventy => d("Eleventy", "_site", &[]),
            Generator::Astro => d("Astro", "dist", &[]),
            Generator::Next => d("Next.js (static export)", "out", &[]),
            Generator::Docusaurus => d("Docusaurus", "build", &[]),
            Generator::VitePress => d("VitePress", ".vitepress/dist", &[]),
            Generator::MkDocs => d("MkDocs", "site", &[]),
            // Sphinx's index and search pages, and the copied sources and assets.
            Generator::Sphinx => d(
                "Sphinx",
                "_build/html",
                &[
                    "genindex.html",
                    "search.html",
                    "py-modindex.html",
                    "_static/**",
                    "_sources/**",
                ],
            ),
            // Drafts are built to drafts/ but not published.
            Generator::Pelican => d("Pelican", "output", &["drafts/**"]),
        }
    }

    /// The generator's name.
    pub fn name(self) -> &'static str {
        self.defaults().name
    }

    /// Where the generator writes the built site by default, relative to its project.
    pub fn public_dir(self) -> &'static str {
        self.defaults().public_dir
    }

    /// Excludes matching what the generator's own sitemap leaves out.
    pub fn excludes(self) -> &'static [&'static str] {
        self.defaults().exclude
    }

    /// Rules for the pages that generator makes which rarely belong in a sitemap
    /// (pagination, taxonomy lists), written commented out: a matter of taste.
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
            Generator::Hexo => {
                "# Tag and category lists and their pagination:\n\
                 # [[rule]]\n\
                 # match = [\"tags/**\", \"categories/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Docusaurus => {
                "# Blog pagination, tag and author pages, and the search page:\n\
                 # [[rule]]\n\
                 # match = [\"blog/page/**\", \"**/tags/**\", \"blog/authors/**\", \"search/index.html\"]\n\
                 # exclude = true\n"
            }
            Generator::Pelican => {
                "# Tag, category, author and archive lists, and index pagination (index2.html):\n\
                 # [[rule]]\n\
                 # match = [\"tag/**\", \"category/**\", \"author/**\", \"tags.html\", \"categories.html\", \"authors.html\", \"archives.html\", \"index[0-9]*.html\"]\n\
                 # exclude = true\n"
            }
            Generator::MkDocs | Generator::Sphinx | Generator::VitePress => {
                "# Pages to give a higher priority, e.g. the guides:\n\
                 # [[rule]]\n\
                 # match = [\"guide/**\"]\n\
                 # priority = 0.8\n"
            }
            Generator::Eleventy | Generator::Astro | Generator::Next => {
                "# Pagination and tag pages, if your templates make them (e.g. /blog/2/, /tags/x/):\n\
                 # [[rule]]\n\
                 # match = [\"blog/[0-9]*/index.html\", \"tags/**\"]\n\
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
    /// The file it was recognised by, relative to the project directory.
    pub source: Option<PathBuf>,
    /// The site's base URL from the generator's config, when it has one.
    pub base_url: Option<String>,
    /// Where the generator writes the site, relative to the project directory.
    pub public_dir: String,
    /// `trailing_slash`, when the generator's URL style sets it.
    pub trailing_slash: Option<bool>,
    /// `clean_urls`, when the generator's URL style sets it.
    pub clean_urls: Option<bool>,
    /// What was carried over from the generator's config, one line each, for comments.
    pub notes: Vec<String>,
}

impl Detected {
    fn new(generator: Generator, source: PathBuf) -> Detected {
        Detected {
            generator: Some(generator),
            source: Some(source),
            base_url: None,
            public_dir: generator.public_dir().to_string(),
            trailing_slash: None,
            clean_urls: None,
            notes: Vec::new(),
        }
    }

    fn none() -> Detected {
        Detected {
            generator: None,
            source: None,
            base_url: None,
            public_dir: "public".to_string(),
            trailing_slash: None,
            clean_urls: None,
            notes: Vec::new(),
        }
    }

    fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Sets `public_dir` from the generator's config value, when there is one.
    fn output(&mut self, under: &Path, value: Option<String>, key: &str) {
        if let Some(dir) = value.filter(|d| !d.trim().is_empty()) {
            let dir = dir.trim().trim_start_matches("./").trim_end_matches('/');
            self.public_dir = under.join(dir).to_string_lossy().into_owned();
            self.note(format!("public_dir from {key} = {dir}"));
        }
    }
}

/// Files that name a generator, most specific first; `config.*` and `_config.*` are
/// told apart by their content after these.
const MARKERS: &[(&str, Generator)] = &[
    ("hugo.toml", Generator::Hugo),
    ("hugo.yaml", Generator::Hugo),
    ("hugo.yml", Generator::Hugo),
    ("hugo.json", Generator::Hugo),
    ("docusaurus.config.js", Generator::Docusaurus),
    ("docusaurus.config.ts", Generator::Docusaurus),
    ("docusaurus.config.mjs", Generator::Docusaurus),
    ("docusaurus.config.cjs", Generator::Docusaurus),
    ("docusaurus.config.mts", Generator::Docusaurus),
    ("astro.config.mjs", Generator::Astro),
    ("astro.config.ts", Generator::Astro),
    ("astro.config.js", Generator::Astro),
    ("astro.config.mts", Generator::Astro),
    ("astro.config.cjs", Generator::Astro),
    ("next.config.js", Generator::Next),
    ("next.config.mjs", Generator::Next),
    ("next.config.ts", Generator::Next),
    ("next.config.cjs", Generator::Next),
    ("eleventy.config.js", Generator::Eleventy),
    ("eleventy.config.mjs", Generator::Eleventy),
    ("eleventy.config.cjs", Generator::Eleventy),
    (".eleventy.js", Generator::Eleventy),
    (".eleventy.cjs", Generator::Eleventy),
    ("mkdocs.yml", Generator::MkDocs),
    ("mkdocs.yaml", Generator::MkDocs),
    ("pelicanconf.py", Generator::Pelican),
];

/// Where a VitePress project's `.vitepress` folder is looked for, besides the project
/// root: `vitepress init` suggests `./docs`.
const VITEPRESS_ROOTS: [&str; 4] = ["", "docs", "src", "website"];

/// Where Sphinx's `conf.py` is looked for: the quickstart's layouts at the root and in
/// `docs/`, with or without a separate `source/` directory.
const SPHINX_CONFS: [&str; 4] = [
    "conf.py",
    "source/conf.py",
    "docs/conf.py",
    "docs/source/conf.py",
];

/// Recognises the generator of the project in `dir` and reads its settings.
pub fn detect(dir: &Path) -> Detected {
    let read = |name: &str| fs::read_to_string(dir.join(name)).ok();
    for &(name, generator) in MARKERS {
        if let Some(text) = read(name) {
            let mut found = Detected::new(generator, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
    }
    if let Some(found) = detect_vitepress(dir) {
        return found;
    }
    for name in SPHINX_CONFS {
        if let Some(text) = read(name).filter(|t| is_sphinx_conf(t)) {
            let mut found = Detected::new(Generator::Sphinx, PathBuf::from(name));
            sphinx(&mut found, dir, name, &text);
            return found;
        }
    }
    for name in ["_config.yml", "_config.yaml"] {
        if let Some(text) = read(name) {
            let generator = if is_hexo(&text, read("package.json").as_deref()) {
                Generator::Hexo
            } else {
                Generator::Jekyll
            };
            let mut found = Detected::new(generator, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
    }
    // config.toml is Hugo's older name and Zola's only one: the base URL key tells them
    // apart.
    for name in ["config.toml", "config.yaml", "config.yml"] {
        if let Some(text) = read(name) {
            let zola = name.ends_with(".toml") && toml_value(&text, &["base_url"]).is_some();
            let generator = if zola {
                Generator::Zola
            } else {
                Generator::Hugo
            };
            let mut found = Detected::new(generator, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
    }
    Detected::none()
}

/// Hexo's `_config.yml` shares its name with Jekyll's: Hexo's own keys, or `hexo` among
/// the dependencies of `package.json`, tell them apart.
fn is_hexo(config: &str, package_json: Option<&str>) -> bool {
    const HEXO_KEYS: [&str; 5] = [
        "new_post_name",
        "default_layout",
        "pretty_urls",
        "post_asset_folder",
        "public_dir",
    ];
    let depends = package_json
        .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
        .is_some_and(|v| {
            ["dependencies", "devDependencies"]
                .iter()
                .any(|k| v.get(k).and_then(|d| d.get("hexo")).is_some())
        });
    depends || HEXO_KEYS.iter().any(|k| yaml_has_key(config, k))
}

fn is_sphinx_conf(text: &str) -> bool {
    [
        "html_theme",
        "html_baseurl",
        "extensions",
        "master_doc",
        "root_doc",
        "project",
    ]
    .iter()
    .any(|k| text.lines().any(|l| l.starts_with(k)))
}

fn detect_vitepress(dir: &Path) -> Option<Detected> {
    for root in VITEPRESS_ROOTS {
        let config_dir = Path::new(root).join(".vitepress");
        for ext in ["mts", "ts", "mjs", "js", "cts", "cjs"] {
            let name = config_dir.join(format!("config.{ext}"));
            if let Ok(text) = fs::read_to_string(dir.join(&name)) {
                let mut found = Detected::new(Generator::VitePress, name);
                vitepress(&mut found, Path::new(root), &text);
                return Some(found);
            }
        }
    }
    None
}

/// Reads what the generator's config file `name` (holding `text`) says of the base URL,
/// the output directory and the URL style.
fn settings(found: &mut Detected, dir: &Path, name: &str, text: &str) {
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
fn absolute(url: Option<String>) -> Option<String> {
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
        let Ok(data_text) = fs::read_to_string(dir.join(&data).join(name)) else {
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

fn vitepress(found: &mut Detected, root: &Path, text: &str) {
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

fn sphinx(found: &mut Detected, dir: &Path, name: &str, text: &str) {
    found.base_url = absolute(py_value(text, "html_baseurl"));
    // `make html` builds into _build/html beside conf.py, or build/html beside source/.
    let conf_dir = Path::new(name).parent().unwrap_or(Path::new(""));
    let out = match conf_dir.file_name() {
        Some(last) if last == "source" => conf_dir.with_file_name("build").join("html"),
        _ => conf_dir.join("_build/html"),
    };
    let makefile = fs::read_to_string(dir.join(conf_dir).join("Makefile")).unwrap_or_default();
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
    let publish = fs::read_to_string(dir.join("publishconf.py")).unwrap_or_default();
    let site = py_value(&publish, "SITEURL").filter(|u| !u.is_empty());
    if site.is_some() {
        found.note("base_url from SITEURL in publishconf.py".into());
    }
    found.base_url = site.or_else(|| py_value(text, "SITEURL"));
    let out = py_value(&publish, "OUTPUT_PATH").or_else(|| py_value(text, "OUTPUT_PATH"));
    found.output(Path::new(""), out, "OUTPUT_PATH");
}

/// The `sitemap.toml` for what was detected: every value filled in that could be, the
/// others commented with what to put there.
pub fn render(found: &Detected) -> String {
    let mut out = String::new();
    out.push_str("# sitemap.toml for sitemapgen: every key is described in sitemap.toml.example\n");
    out.push_str("# and the README. Run `sitemapgen` after building the site.\n\n");
    match (found.generator, &found.source) {
        (Some(g), Some(source)) => out.push_str(&format!(
            "# Written for {} (recognised by {}).\n",
            g.name(),
            source.display()
        )),
        _ => out.push_str(
            "# No generator recognised: set public_dir to the directory your build writes\n\
             # (Hugo, Zola, Hexo: public; Jekyll, Eleventy: _site; Astro: dist; Next: out;\n\
             # Docusaurus: build; VitePress: .vitepress/dist; MkDocs: site; Sphinx:\n\
             # _build/html; Pelican: output).\n",
        ),
    }
    for note in &found.notes {
        out.push_str(&format!("# Carried over: {note}.\n"));
    }
    out.push('\n');
    out.push_str("# The site's public address; every URL in the sitemap starts with it.\n");
    match &found.base_url {
        Some(url) => out.push_str(&format!("base_url = {}\n\n", toml_string(url))),
        None => out.push_str(
            "# Not found in the generator's config: set it (or pass --base-url).\n\
             # base_url = \"https://example.org/\"\n\n",
        ),
    }
    out.push_str("# The built site, relative to this file.\n");
    out.push_str(&format!(
        "public_dir = {}\n\n",
        toml_string(&found.public_dir)
    ));
    render_style(&mut out, found);
    out.push_str(
        "# Where modified dates come from, first found wins. In CI every file's mtime is\n\
         # the build time: add \"git\" (with fetch-depth: 0) or \"content\" before \"mtime\".\n\
         lastmod = [\"meta\", \"mtime\"]\n\n",
    );
    let excludes = found.generator.map_or(&[][..], Generator::excludes);
    if excludes.is_empty() {
        out.push_str(
            "# Pages to leave out, as globs relative to public_dir.\n\
             # exclude = [\"drafts/**\"]\n\n",
        );
    } else {
        let list: Vec<String> = excludes.iter().map(|e| toml_string(e)).collect();
        out.push_str(&format!(
            "# Pages to leave out, as globs relative to public_dir: those {}'s own sitemap\n\
             # leaves out.\nexclude = [{}]\n\n",
            found.generator.map_or("", Generator::name),
            list.join(", ")
        ));
    }
    out.push_str(found.generator.map_or(
        "# [[rule]]\n# match = [\"blog/page/**\"]\n# exclude = true\n",
        Generator::suggested_rules,
    ));
    out
}

fn render_style(out: &mut String, found: &Detected) {
    if found.trailing_slash.is_none() && found.clean_urls.is_none() {
        return;
    }
    out.push_str("# How files map to URLs, as the generator links its pages.\n");
    if let Some(v) = found.trailing_slash {
        out.push_str(&format!("trailing_slash = {v}\n"));
    }
    if let Some(v) = found.clean_urls {
        out.push_str(&format!("clean_urls = {v}\n"));
    }
    out.push('\n');
}

/// A TOML basic string.
fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

#[cfg(test)]
mod tests;
