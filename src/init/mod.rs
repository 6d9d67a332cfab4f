//! `sitemapgen init`: recognise the site generator from the files of a project directory
//! and write a commented `sitemap.toml` with its output directory, base URL and URL
//! style, and the excludes that generator's own sitemap makes.

mod generators;
mod hints;
mod javascript;
mod read;
mod render;

use std::path::{Path, PathBuf};

use generators::{settings, sphinx};
use javascript::{vitepress, vuepress};
use read::{toml_value, yaml_has_key};

use crate::lastmod::source::Routing;

pub use render::render;

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
    /// Nuxt with `nuxt generate`.
    Nuxt,
    /// Gatsby.
    Gatsby,
    /// SvelteKit with adapter-static.
    SvelteKit,
    /// VuePress 1 or 2.
    VuePress,
    /// mdBook.
    MdBook,
    /// Nikola.
    Nikola,
    /// Quarto (a website or book project).
    Quarto,
    /// Rspress.
    Rspress,
}

/// What a generator's own sitemap leaves out: excludes written active, so the two agree.
/// Those that are a matter of taste are in [`Generator::suggested_rules`], commented.
struct Defaults {
    name: &'static str,
    public_dir: &'static str,
    exclude: &'static [&'static str],
}

impl Generator {
    /// Every generator `init` knows: the one list `init`, `--help`, the man page and
    /// the README (checked by a test) name.
    pub const ALL: [Generator; 20] = [
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
        Generator::Nuxt,
        Generator::Gatsby,
        Generator::SvelteKit,
        Generator::VuePress,
        Generator::MdBook,
        Generator::Nikola,
        Generator::Quarto,
        Generator::Rspress,
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
            Generator::Nuxt => d("Nuxt", ".output/public", &[]),
            Generator::Gatsby => d("Gatsby", "public", &[]),
            Generator::SvelteKit => d("SvelteKit", "build", &[]),
            Generator::VuePress => d("VuePress", ".vuepress/dist", &[]),
            // Its print view and sidebar (print.html, toc.html) carry noindex themselves.
            Generator::MdBook => d("mdBook", "book", &[]),
            Generator::Nikola => d("Nikola", "output", &[]),
            Generator::Quarto => d("Quarto", "_site", &[]),
            Generator::Rspress => d("Rspress", "doc_build", &[]),
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
    /// What to change in the generator's setup so the two work together, one line each.
    pub hints: Vec<String>,
    /// How its pages map to their sources, for the `"source"` lastmod source; `None` for
    /// a generator whose routing is not known.
    pub source_setup: Option<SourceSetup>,
}

/// `[source]` as `init` writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSetup {
    /// The routing.
    pub routing: Routing,
    /// Content directories, relative to the project.
    pub content: Vec<String>,
    /// The generator's `permalink` pattern (Jekyll, Hexo), when its config sets one.
    pub permalink: Option<String>,
}

impl Generator {
    /// The routing of its pages to their sources, when known.
    pub fn routing(self) -> Option<Routing> {
        Some(match self {
            Generator::Hugo => Routing::Hugo,
            Generator::Zola => Routing::Zola,
            Generator::Jekyll => Routing::Jekyll,
            Generator::Hexo => Routing::Hexo,
            Generator::Eleventy => Routing::Eleventy,
            Generator::Astro => Routing::Astro,
            Generator::Docusaurus => Routing::Docusaurus,
            Generator::MkDocs => Routing::MkDocs,
            Generator::Sphinx => Routing::Sphinx,
            Generator::Pelican => Routing::Pelican,
            _ => return None,
        })
    }
}

impl Detected {
    fn new(generator: Generator, source: PathBuf) -> Detected {
        Detected {
            source_setup: generator.routing().map(|routing| SourceSetup {
                routing,
                content: routing
                    .default_content()
                    .iter()
                    .map(|d| d.to_string())
                    .collect(),
                permalink: None,
            }),
            generator: Some(generator),
            source: Some(source),
            base_url: None,
            public_dir: generator.public_dir().to_string(),
            trailing_slash: None,
            clean_urls: None,
            notes: Vec::new(),
            hints: Vec::new(),
        }
    }

    fn none() -> Detected {
        Detected {
            source_setup: None,
            generator: None,
            source: None,
            base_url: None,
            public_dir: "public".to_string(),
            trailing_slash: None,
            clean_urls: None,
            notes: Vec::new(),
            hints: Vec::new(),
        }
    }

    fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Sets the sources' directory from the generator's config value, when there is one.
    fn content(&mut self, value: Option<String>) {
        let dir = value.map(|d| {
            d.trim()
                .trim_start_matches("./")
                .trim_end_matches('/')
                .to_string()
        });
        if let (Some(setup), Some(dir)) = (&mut self.source_setup, dir) {
            setup.content = vec![if dir.is_empty() { ".".to_string() } else { dir }];
        }
    }

    /// Sets the posts' `permalink` pattern from the generator's config.
    fn permalink(&mut self, value: Option<String>) {
        if let Some(setup) = &mut self.source_setup {
            setup.permalink = value.filter(|p| !p.trim().is_empty());
        }
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
/// The largest project file `init` reads: configuration files are a few KiB.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// A project file's text, when it is a regular file (a FIFO must not hang `init`) of at
/// most [`MAX_FILE_BYTES`]; anything else is as good as absent.
fn read_text(path: &Path) -> Option<String> {
    crate::fsutil::read_regular_string(path, MAX_FILE_BYTES).ok()
}

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
    ("nuxt.config.ts", Generator::Nuxt),
    ("nuxt.config.js", Generator::Nuxt),
    ("nuxt.config.mjs", Generator::Nuxt),
    ("nuxt.config.mts", Generator::Nuxt),
    ("gatsby-config.js", Generator::Gatsby),
    ("gatsby-config.ts", Generator::Gatsby),
    ("gatsby-config.mjs", Generator::Gatsby),
    ("gatsby-config.cjs", Generator::Gatsby),
    ("svelte.config.js", Generator::SvelteKit),
    ("svelte.config.mjs", Generator::SvelteKit),
    ("svelte.config.ts", Generator::SvelteKit),
    ("svelte.config.cjs", Generator::SvelteKit),
    ("rspress.config.ts", Generator::Rspress),
    ("rspress.config.js", Generator::Rspress),
    ("rspress.config.mjs", Generator::Rspress),
    ("rspress.config.mts", Generator::Rspress),
    ("book.toml", Generator::MdBook),
    ("_quarto.yml", Generator::Quarto),
    ("_quarto.yaml", Generator::Quarto),
];

/// Vite's config, which names SvelteKit when its plugin is there: Kit 3 configures the
/// adapter in `sveltekit({ adapter })` rather than in `svelte.config.js`.
const VITE_CONFIGS: [&str; 4] = [
    "vite.config.ts",
    "vite.config.js",
    "vite.config.mts",
    "vite.config.mjs",
];

/// Where a VitePress project's `.vitepress` folder (or a VuePress project's `.vuepress`)
/// is looked for, besides the project root: `vitepress init` suggests `./docs`, and
/// VuePress' guide `docs/`.
const VITEPRESS_ROOTS: [&str; 4] = ["", "docs", "src", "website"];

/// The config file names in a `.vitepress` or `.vuepress` folder, by extension.
const DOT_CONFIG_EXTENSIONS: [&str; 6] = ["mts", "ts", "mjs", "js", "cts", "cjs"];

/// Where Sphinx's `conf.py` is looked for: the quickstart's layouts at the root and in
/// `docs/`, with or without a separate `source/` directory.
const SPHINX_CONFS: [&str; 4] = [
    "conf.py",
    "source/conf.py",
    "docs/conf.py",
    "docs/source/conf.py",
];

/// Recognises the generator of the project in `dir`, reads its settings and gives the
/// hints for it.
pub fn detect(dir: &Path) -> Detected {
    let mut found = recognise(dir);
    found.hints = hints::for_project(&found, dir);
    found
}

/// Recognises the generator of the project in `dir` and reads its settings.
fn recognise(dir: &Path) -> Detected {
    let read = |name: &str| read_text(&dir.join(name));
    for &(name, generator) in MARKERS {
        if let Some(text) = read(name) {
            let mut found = Detected::new(generator, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
    }
    for name in VITE_CONFIGS {
        if let Some(text) = read(name).filter(|t| t.contains("sveltekit(")) {
            let mut found = Detected::new(Generator::SvelteKit, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
    }
    if let Some(found) = detect_dot_folder(dir) {
        return found;
    }
    for name in ["conf.py", "nikola/conf.py"] {
        if let Some(text) = read(name).filter(|t| is_nikola_conf(t)) {
            let mut found = Detected::new(Generator::Nikola, PathBuf::from(name));
            settings(&mut found, dir, name, &text);
            return found;
        }
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

/// Nikola's `conf.py` (Sphinx has one too): Nikola's own keys tell them apart.
fn is_nikola_conf(text: &str) -> bool {
    let has = |key: &str| text.lines().any(|l| l.starts_with(key));
    has("SITE_URL") && (has("BLOG_TITLE") || has("TRANSLATIONS") || has("POSTS"))
}

/// VitePress (`.vitepress/config.*`) or VuePress (`.vuepress/config.*`), at the root or
/// in one of [`VITEPRESS_ROOTS`].
fn detect_dot_folder(dir: &Path) -> Option<Detected> {
    for root in VITEPRESS_ROOTS {
        for (folder, generator) in [
            (".vitepress", Generator::VitePress),
            (".vuepress", Generator::VuePress),
        ] {
            let config_dir = Path::new(root).join(folder);
            for ext in DOT_CONFIG_EXTENSIONS {
                let name = config_dir.join(format!("config.{ext}"));
                if let Some(text) = read_text(&dir.join(&name)) {
                    let mut found = Detected::new(generator, name);
                    match generator {
                        Generator::VitePress => vitepress(&mut found, Path::new(root), &text),
                        _ => vuepress(&mut found, Path::new(root), &text),
                    }
                    return Some(found);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
