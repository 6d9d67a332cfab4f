//! Routes written as patterns: a glob over source files (relative to the project) and
//! the URL their pages get, with placeholders. Users describe a generator sitemapgen does
//! not know this way (`[[source.route]]` in `sitemap.toml`), and a generator whose
//! routes its project declares (Astro's dynamic routes, VitePress' rewrites) gives them
//! so too.

use globset::{Glob, GlobMatcher};

use super::route::{FrontMatter, from_url, is_index};

/// The placeholders a route's URL may hold: `{path}` the source's path below the glob's
/// folder, without its extension (an index file is its folder); `{dir}` its folder;
/// `{name}` its file name without the extension; `{slug}` its front matter's `slug`, else
/// its name.
pub const PLACEHOLDERS: [&str; 4] = ["{path}", "{dir}", "{name}", "{slug}"];

/// One route: sources matching `from` are built to the URL `to`.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// The glob, relative to the project (`docs/**/*.md`).
    pub from: String,
    /// The URL, with placeholders (`/{path}/`).
    pub to: String,
    matcher: GlobMatcher,
    /// The glob's folder before its first wildcard (`docs`): `{path}` is below it.
    base: String,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        (&self.from, &self.to) == (&other.from, &other.to)
    }
}

impl Eq for Pattern {}

/// Why a route cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// `from` is no glob.
    #[error("'{glob}' is not a valid glob: {message}")]
    Glob {
        /// The glob as written.
        glob: String,
        /// What is wrong with it.
        message: String,
    },
    /// `to` is no absolute URL path, or names an unknown placeholder.
    #[error("'{to}' is not a route's URL: {message}")]
    To {
        /// The URL as written.
        to: String,
        /// What is wrong with it.
        message: String,
    },
}

impl Pattern {
    /// The route from `from` to `to`, checked.
    pub fn new(from: &str, to: &str) -> Result<Pattern, PatternError> {
        let from = from.trim_start_matches("./").to_string();
        let matcher = Glob::new(&from)
            .map_err(|e| PatternError::Glob {
                glob: crate::text::one_line(&from),
                message: e.kind().to_string(),
            })?
            .compile_matcher();
        let bad = |message: String| PatternError::To {
            to: crate::text::one_line(to),
            message,
        };
        if !to.starts_with('/') {
            return Err(bad("it must start with / (for example /{path}/)".into()));
        }
        let mut rest = to;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|c| open + c + 1);
            let name = close.map(|c| &rest[open..c]);
            match name {
                Some(name) if PLACEHOLDERS.contains(&name) => rest = &rest[open + name.len()..],
                _ => {
                    let known = PLACEHOLDERS.join(", ");
                    return Err(bad(format!("it may name only {known}")));
                }
            }
        }
        let wild = from.find(['*', '?', '[', '{']).unwrap_or(from.len());
        let base = from[..wild]
            .rsplit_once('/')
            .map_or("", |(dir, _)| dir)
            .to_string();
        Ok(Pattern {
            to: to.to_string(),
            from,
            matcher,
            base,
        })
    }

    /// Whether the route matches the source at `path` (relative to the project).
    pub fn matches(&self, path: &str) -> bool {
        self.matcher.is_match(path)
    }

    /// The folder (relative to the project) whose files the route may match.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The output files of the source at `path` (relative to the project,
    /// `/`-separated), when the route matches it.
    pub fn outputs(&self, path: &str, fm: &FrontMatter) -> Option<Vec<String>> {
        if !self.matcher.is_match(path) {
            return None;
        }
        let below = path
            .strip_prefix(&self.base)
            .unwrap_or(path)
            .trim_start_matches('/');
        let (dir, file) = below.rsplit_once('/').unwrap_or(("", below));
        let name = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        // An index is its folder, ending in a slash: `/{path}/` and `/{path}.html` both
        // name its `index.html`.
        let page = if is_index(name) {
            if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            }
        } else if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        };
        let url = self
            .to
            .replace("{path}", &page)
            .replace("{dir}", dir)
            .replace("{name}", name)
            .replace("{slug}", fm.slug.as_deref().unwrap_or(name));
        Some(url_outputs(&url))
    }
}

/// The files a URL path may be served from: `/x/` from `x/index.html`, `/x.html` from
/// itself, `/x` from `x.html` or `x/index.html`.
pub fn url_outputs(url: &str) -> Vec<String> {
    let mut url = url.to_string();
    while url.contains("//") {
        url = url.replace("//", "/");
    }
    if let Some(folder) = url.strip_suffix(".html").filter(|u| u.ends_with('/')) {
        url = format!("{folder}index.html");
    }
    let file = from_url(&url);
    let bare = !url.ends_with('/') && !url.ends_with(".html") && !url.ends_with(".htm");
    match file.strip_suffix("/index.html") {
        Some(stem) if bare => vec![format!("{stem}.html"), file],
        _ => vec![file],
    }
}
