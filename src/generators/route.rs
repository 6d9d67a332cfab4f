//! The words generators route in: a source as routing sees it, and the helpers each
//! generator's `route` is written with (index names, slugs, dated names, permalink
//! patterns, URLs from front matter).
//!
//! Written by hand: these are the generators' routing rules, which no crate knows. A
//! source gives every form its generator may write (raw and slugified names), so a page
//! matches whichever the build used; a page two sources claim is dated by neither.

use std::path::Path;

use jiff::Timestamp;

/// What a source's front matter says, as far as dating and routing need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrontMatter {
    /// The explicit modified date (the first of the configured keys present).
    pub updated: Option<Timestamp>,
    /// An updated key was present but its value was no date, as written.
    pub unparseable: Option<String>,
    /// Why the front matter was not read: it breaks a bound (nesting, aliases).
    pub refused: Option<String>,
    /// The publication date (`date`, or Material's `date.created`).
    pub date: Option<Timestamp>,
    /// Its day as written, in its own offset (the `2024-03-10` of
    /// `2024-03-10T22:00:00-05:00`), which some generators put in URLs.
    pub day: Option<jiff::civil::Date>,
    /// `slug`: the last segment of the URL.
    pub slug: Option<String>,
    /// `url`, `permalink` or `path`: the whole URL path.
    pub url: Option<String>,
    /// `title`.
    pub title: Option<String>,
    /// `id` (Docusaurus): the last segment of a doc's URL when no slug is given.
    pub id: Option<String>,
    /// `categories` (a list, or words) or `category`: Jekyll puts them in a post's URL.
    pub categories: Vec<String>,
    /// `draft: true` or `published: false`: built to no page.
    pub draft: bool,
    /// `lang` (Pelican's `Lang:`): the language of a translation.
    pub lang: Option<String>,
}

/// One source file, as routing sees it.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The content directory it is in, relative to the project (`content`, `docs`,
    /// `src/pages`, `.`).
    pub dir: &'a str,
    /// Its path below that directory.
    pub rel: &'a Path,
    /// Its front matter.
    pub fm: &'a FrontMatter,
}

/// What routing takes from the generator's config.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// `permalink` from the generator's config, if set (Jekyll's and Hexo's posts).
    pub permalink: Option<&'a str>,
    /// The language whose pages are at the root, not under a language folder, when the
    /// config names it (Hugo's `defaultContentLanguage`, Zola's `default_language`).
    pub default_language: Option<&'a str>,
    /// Content folders served under another URL folder (see
    /// [`super::Prepared::served`]).
    pub served: &'a [(String, String)],
    /// The default language's pages are under its folder too.
    pub default_in_subdir: bool,
    /// See [`super::Prepared::post_name`].
    pub post_name: Option<&'a str>,
    /// See [`super::Settings::content_languages`].
    pub content_languages: &'a [(String, String)],
    /// See [`super::Settings::permalinks`].
    pub permalinks: &'a [(String, String)],
    /// See [`super::Prepared::collections_dir`].
    pub collections_dir: Option<&'a str>,
    /// See [`super::Settings::translations`].
    pub translations: Option<&'a str>,
}

impl Context<'_> {
    /// The language of the content folder `dir`, when it is one language's.
    pub fn language_of(&self, dir: &str) -> Option<&str> {
        let dir = dir.trim_end_matches('/');
        let found = self.content_languages.iter().find(|(d, _)| d == dir);
        found.map(|(_, lang)| lang.as_str())
    }

    /// Where a page in `lang` goes: `""` for the default language, else `lang/`.
    pub fn language_folder(&self, lang: &str) -> String {
        if self.default_language.unwrap_or("en") == lang && !self.default_in_subdir {
            String::new()
        } else {
            format!("{lang}/")
        }
    }
}

impl Source<'_> {
    /// Its path split up: directories, file stem, extension.
    pub fn name(&self) -> Option<Name> {
        let mut dirs: Vec<String> = self
            .rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let file = dirs.pop()?;
        let (stem, ext) = file.rsplit_once('.').unwrap_or((&file, ""));
        Some(Name {
            stem: stem.to_string(),
            ext: ext.to_string(),
            dirs,
        })
    }
}

/// A source's path split up: its directories, file stem and extension.
#[derive(Debug, Clone)]
pub struct Name {
    /// The directories below the content directory.
    pub dirs: Vec<String>,
    /// The file name without its extension.
    pub stem: String,
    /// The extension, without its dot.
    pub ext: String,
}

/// `dirs/last` + `tail` (`/index.html` or `.html`); a `None` last is the directory's own
/// index.
pub fn join(dirs: &[String], last: Option<&str>, tail: &str) -> String {
    // Built in one string: a route is made for every source of a run.
    let mut path = String::new();
    for dir in dirs.iter().filter(|d| !d.is_empty()) {
        path.push_str(dir);
        path.push('/');
    }
    match last {
        Some(last) if tail == ".html" => {
            path.push_str(last);
            path.push_str(".html");
            return path;
        }
        Some(last) if !last.is_empty() => {
            path.push_str(last);
            path.push('/');
        }
        _ => {}
    }
    path.push_str("index.html");
    path
}

/// An absolute URL path from front matter (`/custom/path/`, `/x.html`) as an output file.
pub fn from_url(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let path = path.trim_start_matches('/');
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    if decoded.is_empty() || decoded.ends_with('/') {
        format!("{decoded}index.html")
    } else if decoded.ends_with(".html") || decoded.ends_with(".htm") {
        decoded.into_owned()
    } else {
        format!("{decoded}/index.html")
    }
}

/// Lower-cased, spaces as hyphens: the slugs Hugo, Zola and Astro make of file names.
pub fn urlize(s: &str) -> String {
    s.trim().to_lowercase().replace(' ', "-")
}

/// A stem's `YYYY-MM-DD-` (or `_`) prefix, and the rest.
pub fn dated(stem: &str) -> Option<(&str, &str)> {
    let date = stem.get(..10)?;
    let ok = date.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    let rest = stem.get(10..)?.strip_prefix(['-', '_'])?;
    (ok && !rest.is_empty()).then_some((date, rest))
}

/// Every form in `forms`, each once.
pub fn distinct(mut forms: Vec<String>) -> Vec<String> {
    forms.sort();
    forms.dedup();
    forms
}

pub fn is_index(stem: &str) -> bool {
    matches!(stem, "index" | "_index" | "README" | "readme")
}

/// Date parts a permalink pattern names.
pub fn date_parts(ts: Timestamp) -> [(&'static str, String); 6] {
    let d = ts.to_zoned(jiff::tz::TimeZone::UTC);
    [
        (":year", format!("{:04}", d.year())),
        (":short_year", format!("{:02}", d.year() % 100)),
        (":month", format!("{:02}", d.month())),
        (":i_month", d.month().to_string()),
        (":day", format!("{:02}", d.day())),
        (":i_day", d.day().to_string()),
    ]
}

/// Fills a permalink pattern in one pass: each placeholder is replaced where the
/// pattern has it, the longest that matches first (`:i_month` is not `:i` + `_month`),
/// and a value is never searched for placeholders again, so a title of `:slug`s cannot
/// multiply. Runs of `/` become one.
pub fn expand(pattern: &str, fields: &[(&str, String)]) -> String {
    let mut fields = fields.to_vec();
    fields.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        let found = (c == ':')
            .then(|| fields.iter().find(|(key, _)| rest.starts_with(key)))
            .flatten();
        let (text, taken) = match found {
            Some((key, value)) => (value.as_str(), key.len()),
            None => (&rest[..c.len_utf8()], c.len_utf8()),
        };
        for c in text.chars() {
            if !(c == '/' && out.ends_with('/')) {
                out.push(c);
            }
        }
        rest = &rest[taken..];
    }
    from_url(&out)
}

/// A Docusaurus name without its number prefix (`01-intro` → `intro`).
pub fn unnumbered(s: &str) -> &str {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match s[digits..].strip_prefix(['-', '_', '.']) {
        Some(rest) if digits > 0 && !rest.is_empty() => rest.trim_start(),
        _ => s,
    }
}

/// Python-Markdown's slugify, as Material's blog uses it: accents folded to ASCII,
/// anything but word characters, spaces and hyphens dropped, lower-cased, runs of
/// spaces and hyphens one hyphen.
pub fn slugify_ascii(s: &str) -> String {
    const FOLD: [(char, &str); 14] = [
        ('ä', "a"),
        ('á', "a"),
        ('à', "a"),
        ('â', "a"),
        ('é', "e"),
        ('è', "e"),
        ('ê', "e"),
        ('ö', "o"),
        ('ó', "o"),
        ('ü', "u"),
        ('ú', "u"),
        ('ç', "c"),
        ('ñ', "n"),
        ('í', "i"),
    ];
    let mut out = String::new();
    for c in s.to_lowercase().chars() {
        if let Some((_, f)) = FOLD.iter().find(|(k, _)| *k == c) {
            out.push_str(f);
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ' {
            out.push(c);
        }
    }
    let words: Vec<&str> = out.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    words.join("-")
}

/// Pelican's slug of a title: lower-cased, what is not a word character, space or
/// hyphen dropped, runs of spaces and hyphens one hyphen (Unicode letters kept).
pub fn slugify_unicode(s: &str) -> String {
    let kept: String = s
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .collect();
    let words: Vec<&str> = kept.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    words.join("-")
}

/// The extensions of pages written in a markup language.
pub const MARKUP: &[&str] = &[
    "md", "markdown", "mdx", "mdoc", "html", "htm", "rst", "adoc", "asciidoc", "njk", "liquid",
    "astro",
];

/// [`MARKUP`], and pages written as code (in a `pages` directory only: elsewhere such
/// files are scripts, not pages).
pub const MARKUP_AND_CODE: &[&str] = &[
    "md", "markdown", "mdx", "mdoc", "html", "htm", "rst", "adoc", "asciidoc", "njk", "liquid",
    "astro", "js", "jsx", "ts", "tsx",
];

/// The extensions of pages written as code.
pub const CODE: &[&str] = &["js", "jsx", "ts", "tsx"];

/// A page in a folder-per-page build: `x.md` → `x/index.html`, `index.md` its folder's.
pub fn folder_page(n: &Name) -> String {
    let last = (n.stem != "index").then_some(n.stem.as_str());
    join(&n.dirs, last, "/index.html")
}

/// A page in a file-per-page build: `x.md` → `x.html`, an index (`index.md`,
/// `README.md`) its folder's `index.html`.
pub fn html_page(n: &Name) -> String {
    let last = (!is_index(&n.stem)).then_some(n.stem.as_str());
    join(&n.dirs, last, ".html")
}

/// A page of an app framework's file routes, whose export writes `x.html` or
/// `x/index.html` by its trailing-slash setting: both forms. `dirs` are the route's
/// folders, route groups (`(marketing)`) already dropped.
pub fn either_page(dirs: &[String]) -> Vec<String> {
    match dirs.split_last() {
        None => vec!["index.html".to_string()],
        Some((last, parents)) => vec![
            join(parents, Some(last), ".html"),
            join(dirs, None, "/index.html"),
        ],
    }
}

/// A route folder that names no URL segment: a route group, `(marketing)`.
pub fn is_group(dir: &str) -> bool {
    dir.starts_with('(') && dir.ends_with(')')
}

/// A dynamic route's segment (`[slug]`, `[...all]`, Gatsby's `{Post.slug}`): it builds
/// the pages of other sources, none of its own.
pub fn is_dynamic(segment: &str) -> bool {
    segment.starts_with(['[', '{'])
}

/// Whether `s` names a language as sites name their folders and files: two letters
/// (ISO 639-1), a region after a hyphen maybe (`de`, `pt-BR`).
pub fn is_language_code(s: &str) -> bool {
    let letters = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_lowercase());
    match s.split_once('-') {
        Some((l, region)) => letters(l) && (2..=4).contains(&region.len()),
        None => letters(s),
    }
}

/// A translation's language in its name (`about.de.md`), and the name without it.
fn language(stem: &str) -> Option<(&str, &str)> {
    let (base, lang) = stem.rsplit_once('.')?;
    (is_language_code(lang) && !base.is_empty()).then_some((lang, base))
}

/// A translation's name (`about.de.md`): its stem made the page's own (`about`), and its
/// language's folder (`de/`; `""` for the default language, or no translation).
pub fn translation(cx: &Context, n: &mut Name) -> String {
    let Some((lang, base)) = language(&n.stem) else {
        // No language in the name: the default's.
        return cx.language_folder(cx.default_language.unwrap_or("en"));
    };
    let folder = cx.language_folder(lang);
    n.stem = base.to_string();
    folder
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A route's output path from its directories and last segment: empty segments
    /// dropped, `.html` taking the last segment as it is.
    #[test]
    fn join_makes_output_paths() {
        let dirs = |d: &[&str]| d.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for (d, last, tail, want) in [
            (&[][..], None, "/index.html", "index.html"),
            (&[][..], Some("a"), "/index.html", "a/index.html"),
            (
                &["blog", "", "2024"][..],
                Some("post"),
                "/index.html",
                "blog/2024/post/index.html",
            ),
            (&["blog"][..], Some(""), "/index.html", "blog/index.html"),
            (&["blog"][..], None, ".html", "blog/index.html"),
            (&["docs"][..], Some("intro"), ".html", "docs/intro.html"),
            (&["docs"][..], Some(""), ".html", "docs/.html"),
        ] {
            assert_eq!(join(&dirs(d), last, tail), want, "{d:?} {last:?} {tail}");
        }
    }
}
