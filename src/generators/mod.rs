//! What sitemapgen knows of each static site generator, one file each, one list
//! ([`ALL`]): how to recognise its project, what its config says, how a built page maps
//! to its source file, which front-matter keys mean "updated", which outputs are not
//! pages, and what to tell its users. `init`, the `"source"` dates, the walk, `--help`,
//! the man page and the guide's table all read this list; adding a generator is one file here
//! and one line in [`ALL`] (CONTRIBUTING.md shows how).
//!
//! The machinery stays where it works: `init` finds the markers and writes
//! `sitemap.toml`, `lastmod::source` walks the content and reads front matter and git.

pub mod pattern;
pub mod read;
pub mod route;

mod astro;
mod docusaurus;
mod eleventy;
mod gatsby;
mod hexo;
mod hugo;
mod jekyll;
mod mdbook;
mod mkdocs;
mod next;
mod nikola;
mod nuxt;
mod pelican;
mod quarto;
mod rspress;
mod sphinx;
mod starlight;
mod sveltekit;
mod vitepress;
mod vuepress;
mod zola;

use std::fmt;
use std::path::Path;

pub use astro::ASTRO;
pub use docusaurus::DOCUSAURUS;
pub use eleventy::ELEVENTY;
pub use gatsby::GATSBY;
pub use hexo::HEXO;
pub use hugo::HUGO;
pub use jekyll::JEKYLL;
pub use mdbook::MDBOOK;
pub use mkdocs::MKDOCS;
pub use next::NEXT;
pub use nikola::NIKOLA;
pub use nuxt::NUXT;
pub use pattern::{Pattern, PatternError};
pub use pelican::PELICAN;
pub use quarto::QUARTO;
pub use route::{Context, FrontMatter, Source};
pub use rspress::RSPRESS;
pub use sphinx::SPHINX;
pub use starlight::STARLIGHT;
pub use sveltekit::SVELTEKIT;
pub use vitepress::VITEPRESS;
pub use vuepress::VUEPRESS;
pub use zola::ZOLA;

/// Every generator sitemapgen knows, in the order `init` tries their markers.
pub static ALL: [&Generator; 21] = [
    &hugo::HUGO,
    &zola::ZOLA,
    &jekyll::JEKYLL,
    &hexo::HEXO,
    &eleventy::ELEVENTY,
    &starlight::STARLIGHT,
    &astro::ASTRO,
    &next::NEXT,
    &docusaurus::DOCUSAURUS,
    &vitepress::VITEPRESS,
    &mkdocs::MKDOCS,
    &nikola::NIKOLA,
    &sphinx::SPHINX,
    &pelican::PELICAN,
    &nuxt::NUXT,
    &gatsby::GATSBY,
    &sveltekit::SVELTEKIT,
    &vuepress::VUEPRESS,
    &mdbook::MDBOOK,
    &quarto::QUARTO,
    &rspress::RSPRESS,
];

/// One generator, described.
pub struct Generator {
    /// Its name in `sitemap.toml` (`[source] generator`): lower case, no spaces.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The files that name it in a project.
    pub markers: &'static [Marker],
    /// Where it writes the built site by default, relative to its project.
    pub public_dir: &'static str,
    /// What its own sitemap leaves out, as globs: `init` writes them as excludes.
    pub excludes: &'static [&'static str],
    /// Outputs that are not pages (partials, app shells), as paths below the public
    /// directory (a file, or a folder when it ends in `/`) with what they are. The walk
    /// passes over them.
    pub not_pages: &'static [(&'static str, &'static str)],
    /// Rules for pages that rarely belong in a sitemap, as `init` writes them (commented).
    pub suggested_rules: &'static str,
    /// Sections for its usual layout, `(name, glob)`, as `init` suggests them.
    pub suggested_sections: &'static [(&'static str, &'static str)],
    /// Where its page sources are by default, relative to the project.
    pub content: &'static [&'static str],
    /// The extensions of its page sources.
    pub extensions: &'static [&'static str],
    /// The front-matter keys of an explicit modified date, first present wins.
    pub updated: &'static [&'static str],
    /// Reads what its config file says (see [`Settings`]).
    pub read_config: fn(&mut Settings, &Project),
    /// The output files a source may be built to (none when it builds no page).
    pub route: fn(&Context, Source) -> Vec<String>,
    /// What to change in its setup so the two work together, one line each.
    pub hints: fn(&Project) -> Vec<String>,
    /// What a source says of its page outside front matter (Nuxt's `definePageMeta`), added
    /// to what its front matter says.
    pub page_meta: fn(&str, &mut FrontMatter),
    /// The routes a project declares in its own files (Astro's dynamic routes,
    /// VitePress' rewrites), read once before the sources (see [`Prepared`]).
    pub prepare: fn(&Path) -> Prepared,
    /// It builds a page a language lacks under that language's folder, from the default
    /// language's source (`fr/x/` from `x.md`).
    pub fills_translations: bool,
    /// It writes a page's modified date in the body (`<time itemprop="dateModified">`),
    /// not the head; its pages name it in `<meta name="generator">`.
    pub body_dates: bool,
    /// The extension of a file beside a source that holds its metadata instead
    /// (Nikola's `post.meta` beside `post.md`).
    pub sidecar: Option<&'static str>,
    /// How to turn its own sitemap off, when it writes one that ours does not replace
    /// (per language, or under another name): named when a build finds one beside ours.
    pub own_sitemap_off: Option<&'static str>,
}

impl Generator {
    /// What a description leaves out: no excludes or non-pages, no hints, nothing
    /// declared in the project's files, nothing read beyond front matter. The fields
    /// every description sets are placeholders here (a test checks that every
    /// generator in [`ALL`] has its own).
    pub const BASE: Generator = Generator {
        id: "",
        name: "",
        markers: &[],
        public_dir: "",
        excludes: &[],
        not_pages: &[],
        suggested_rules: "",
        suggested_sections: &[],
        content: &[],
        extensions: &[],
        updated: &[],
        read_config: |_, _| {},
        route: |_, _| Vec::new(),
        hints: no_hints,
        prepare: no_prepare,
        page_meta: no_page_meta,
        fills_translations: false,
        body_dates: false,
        sidecar: None,
        own_sitemap_off: None,
    };
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// One generator is one description: its id says which.
impl PartialEq for Generator {
    fn eq(&self, other: &Generator) -> bool {
        self.id == other.id
    }
}

impl Eq for Generator {}

/// A file that names a generator: `path` relative to the project, with `{a,b}`
/// alternatives (`hugo.{toml,yaml}`). `init` tries every generator's own files first,
/// then the names generators share (`conf.py`, `_config.yml`), each where its text
/// shows it is that generator's, then the generic names (`config.yaml`).
#[derive(Debug, Clone, Copy)]
pub struct Marker {
    /// The file's path, with `{a,b}` alternatives.
    pub path: &'static str,
    /// What its text must show, when the name alone does not tell.
    pub claims: Option<fn(&Project) -> bool>,
    /// When it is tried: 0 for a generator's own name, 1 for a shared one, 2 for a
    /// generic one.
    pub tier: u8,
}

impl Marker {
    /// A file only this generator has.
    pub const fn file(path: &'static str) -> Marker {
        Marker {
            path,
            claims: None,
            tier: 0,
        }
    }

    /// A file name shared with others, told apart by `claims`.
    pub const fn shared(path: &'static str, claims: fn(&Project) -> bool) -> Marker {
        Marker {
            path,
            claims: Some(claims),
            tier: 1,
        }
    }

    /// A generic name, tried after every other marker.
    pub const fn fallback(path: &'static str) -> Marker {
        Marker {
            path,
            claims: None,
            tier: 2,
        }
    }

    /// Every path the marker names, its alternatives spelled out.
    pub fn paths(&self) -> Vec<String> {
        expand_braces(self.path)
    }
}

/// `a{b,c}d{e,f}` as `abde`, `abdf`, `acde`, `acdf`, in that order.
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_string()];
    };
    let Some(close) = pattern[open..].find('}').map(|c| open + c) else {
        return vec![pattern.to_string()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close]
        .split(',')
        .flat_map(|alt| expand_braces(&format!("{head}{alt}{tail}")))
        .collect()
}

/// The project as a generator's config reader sees it: its directory, the marker file
/// found and its text.
#[derive(Debug, Clone, Copy)]
pub struct Project<'a> {
    /// The project directory.
    pub dir: &'a Path,
    /// The marker file, relative to it.
    pub config: &'a Path,
    /// The marker file's text.
    pub text: &'a str,
}

/// The largest project file read: configuration files are a few KiB.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

impl Project<'_> {
    /// Another file of the project, when it is a regular file (a FIFO must not hang us)
    /// of at most [`MAX_FILE_BYTES`], reached through no link; anything else is as good
    /// as absent.
    pub fn read(&self, rel: impl AsRef<Path>) -> Option<String> {
        crate::fsutil::read_below_string(self.dir, rel.as_ref(), MAX_FILE_BYTES).ok()
    }

    /// The folder the marker file is in, relative to the project (`""` at its root).
    pub fn config_dir(&self) -> &Path {
        self.config.parent().unwrap_or(Path::new(""))
    }
}

/// What a generator's config says, as far as sitemapgen needs it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settings {
    /// The site's base URL, when the config has one.
    pub base_url: Option<String>,
    /// Where the generator writes the site, relative to the project directory.
    pub public_dir: String,
    /// `trailing_slash`, when the generator's URL style sets it.
    pub trailing_slash: Option<bool>,
    /// `clean_urls`, when the generator's URL style sets it.
    pub clean_urls: Option<bool>,
    /// What was carried over from the config, one line each, for comments.
    pub notes: Vec<String>,
    /// Where the page sources are, relative to the project.
    pub content: Vec<String>,
    /// The posts' `permalink` pattern (Jekyll, Hexo), when the config sets one.
    pub permalink: Option<String>,
    /// The language of the pages at the root of a multilingual site, when the config
    /// names it.
    pub default_language: Option<String>,
    /// The default language's pages are under its folder too (Hugo's
    /// `defaultContentLanguageInSubdir`).
    pub default_in_subdir: bool,
    /// Content folders of one language each (Hugo's `[languages.fr] contentDir`), with
    /// the language.
    pub content_languages: Vec<(String, String)>,
    /// URL patterns by section (Hugo's `[permalinks]`: `posts` → `/:year/:month/:slug/`).
    pub permalinks: Vec<(String, String)>,
    /// How translations are laid out when a plugin names it (mkdocs-static-i18n's
    /// `docs_structure`: `suffix`, `about.fr.md`, or `folder`, `fr/about.md`).
    pub translations: Option<String>,
}

impl Settings {
    /// The defaults of `generator`, before its config is read.
    pub fn of(generator: &Generator) -> Settings {
        Settings {
            public_dir: generator.public_dir.to_string(),
            content: generator.content.iter().map(|d| d.to_string()).collect(),
            ..Settings::default()
        }
    }

    /// Notes a value carried over from the config.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Sets the sources' directory from the config's value, when there is one.
    pub fn content(&mut self, value: Option<String>) {
        let dir = value.map(|d| {
            d.trim()
                .trim_start_matches("./")
                .trim_end_matches('/')
                .to_string()
        });
        if let Some(dir) = dir {
            self.content = vec![if dir.is_empty() { ".".to_string() } else { dir }];
        }
    }

    /// Sets the posts' `permalink` pattern from the config.
    pub fn permalink(&mut self, value: Option<String>) {
        self.permalink = value.filter(|p| !p.trim().is_empty());
    }

    /// Sets `public_dir` (below `under`) from the config's value `key`, when there is one.
    pub fn output(&mut self, under: &Path, value: Option<String>, key: &str) {
        if let Some(dir) = value.filter(|d| !d.trim().is_empty()) {
            let dir = dir.trim().trim_start_matches("./").trim_end_matches('/');
            self.public_dir = crate::text::slashed(&under.join(dir));
            self.note(format!("public_dir from {key} = {dir}"));
        }
    }
}

/// The front-matter keys of a modified date when no known generator is named: the
/// usual ones of the generators sitemapgen knows.
pub const GENERIC_UPDATED: &[&str] = &[
    "updated",
    "lastmod",
    "last_modified_at",
    "modified",
    "updatedDate",
    "lastUpdated",
    "date.updated",
];

/// The generator named `id` in `sitemap.toml`.
pub fn find(id: &str) -> Option<&'static Generator> {
    ALL.iter().copied().find(|g| g.id == id)
}

/// The ids `[source] generator` takes.
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|g| g.id).collect()
}

/// What `rel` (below the public directory, `/`-separated) is, when it is an output some
/// generator documents as no page.
pub fn not_a_page(rel: &[u8]) -> Option<&'static str> {
    let all = ALL.iter().flat_map(|g| g.not_pages.iter());
    all.copied().find_map(|(path, what)| {
        let hit = match path.strip_suffix('/') {
            Some(dir) => rel.starts_with(dir.as_bytes()) && rel.get(dir.len()) == Some(&b'/'),
            None => rel == path.as_bytes(),
        };
        hit.then_some(what)
    })
}

/// Whether a page's `<meta name="generator">` names a generator that dates pages in
/// their body.
pub fn dates_in_body(meta_generator: &str) -> bool {
    ALL.iter()
        .any(|g| g.body_dates && meta_generator.starts_with(g.name))
}

/// Routes a project declares in its files, beside its generator's fixed routing.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// Routes as patterns, tried before the generator's routing.
    pub routes: Vec<Pattern>,
    /// Content folders served under another URL folder than their own (an Astro
    /// collection `blog` served by `src/pages/[...slug].astro` at the root: `("blog", "")`).
    pub served: Vec<(String, String)>,
    /// What the generator's config says of languages (see [`Settings`]), when
    /// `sitemap.toml` does not say it.
    pub default_language: Option<String>,
    /// See [`Settings::default_in_subdir`].
    pub default_in_subdir: bool,
    /// How the generator names a new post's file (Hexo's `new_post_name`,
    /// `:year-:month-:day-:title.md`), when its config sets it.
    pub post_name: Option<String>,
    /// See [`Settings::content_languages`].
    pub content_languages: Vec<(String, String)>,
    /// See [`Settings::permalinks`].
    pub permalinks: Vec<(String, String)>,
    /// The folder that holds the collections (Jekyll's `collections_dir`), when the
    /// config moves them there.
    pub collections_dir: Option<String>,
    /// See [`Settings::translations`].
    pub translations: Option<String>,
}

/// The languages the generator's config names, read from the project at build time.
fn languages(generator: &Generator, project: &Path) -> Prepared {
    let Some((config, text)) = config_file(generator, project) else {
        return Prepared::default();
    };
    let mut settings = Settings::of(generator);
    let p = Project {
        dir: project,
        config: &config,
        text: &text,
    };
    (generator.read_config)(&mut settings, &p);
    Prepared {
        default_language: settings.default_language,
        default_in_subdir: settings.default_in_subdir,
        content_languages: settings.content_languages,
        permalinks: settings.permalinks,
        translations: settings.translations,
        ..Prepared::default()
    }
}

/// Says nothing beyond the front matter.
fn no_page_meta(_: &str, _: &mut FrontMatter) {}

/// Declares nothing.
fn no_prepare(_: &Path) -> Prepared {
    Prepared::default()
}

/// The generator's config file in `project` and its text: the first of its markers
/// present, whatever its claim.
pub fn config_file(generator: &Generator, project: &Path) -> Option<(std::path::PathBuf, String)> {
    generator
        .markers
        .iter()
        .flat_map(Marker::paths)
        .find_map(|rel| {
            let text =
                crate::fsutil::read_below_string(project, Path::new(&rel), MAX_FILE_BYTES).ok()?;
            Some((rel.into(), text))
        })
}

/// Hints for none.
fn no_hints(_: &Project) -> Vec<String> {
    Vec::new()
}

#[cfg(test)]
mod tests;

/// Suggested rules of documentation generators: no lists to leave out.
const DOCS_RULES: &str = "# Pages to give a higher priority, e.g. the guides:\n\
     # [[rule]]\n\
     # match = [\"guide/**\"]\n\
     # priority = 0.8\n";

/// Suggested rules of application frameworks: whatever lists the templates make.
const APP_RULES: &str = "# Pagination and tag pages, if your templates make them (e.g. /blog/2/, /tags/x/):\n\
     # [[rule]]\n\
     # match = [\"blog/[0-9]*/index.html\", \"tags/**\"]\n\
     # exclude = true\n";

/// Suggested sections of documentation generators.
const DOCS_SECTIONS: &[(&str, &str)] = &[("guide", "guide/**"), ("api", "api/**")];

/// Suggested sections of blogs and applications.
const BLOG_SECTIONS: &[(&str, &str)] = &[("blog", "blog/**")];

/// What a root `200.html` is: the file static hosts (Surge, Render, Netlify's and
/// Vercel's SPA recipes) serve for any path no file matches.
const SPA_FALLBACK: &str =
    "a single-page app fallback (200.html at the root, served for unknown paths)";
