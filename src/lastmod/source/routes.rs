//! Where each generator writes the page built from a source file: the output paths (under
//! the public directory, `/`-separated) a source can become, by the generator's own
//! routing and the source's front matter (`slug`, `url`, `permalink`, `path`, `id`).
//!
//! Written by hand: these are the generators' routing rules, which no crate knows. A
//! source gives every form its generator may write (raw and slugified names), so a page
//! matches whichever the build used; a page two sources claim is dated by neither.

use std::path::Path;

use jiff::Timestamp;

use super::Routing;
use super::front_matter::FrontMatter;

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

/// The generator's URL pattern for dated posts (Jekyll's and Hexo's `permalink`).
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The generator.
    pub routing: Routing,
    /// `permalink` from the generator's config, if set.
    pub permalink: Option<&'a str>,
}

/// The output files `source` may be built to (none when it builds no page).
pub fn outputs(cx: Context, source: Source) -> Vec<String> {
    let segs: Vec<String> = source
        .rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let Some((file, dirs)) = segs.split_last() else {
        return Vec::new();
    };
    let (stem, ext) = file.rsplit_once('.').unwrap_or((file, ""));
    let name = Name { dirs, stem, ext };
    let fm = source.fm;
    match cx.routing {
        Routing::Hugo => hugo(name, fm),
        Routing::Zola => zola(name, fm),
        Routing::Jekyll => jekyll(name, fm, cx.permalink),
        Routing::Hexo => hexo(name, fm, cx.permalink),
        Routing::Eleventy => eleventy(name, fm),
        Routing::Astro => astro(source.dir, name, fm),
        Routing::Docusaurus => docusaurus(source.dir, name, fm),
        Routing::MkDocs => mkdocs(name, fm),
        Routing::Sphinx => vec![join(dirs, Some(stem), ".html")],
        Routing::Pelican => pelican(name, fm),
    }
}

/// A source's path split up: its directories, file stem and extension.
#[derive(Debug, Clone, Copy)]
struct Name<'a> {
    dirs: &'a [String],
    stem: &'a str,
    ext: &'a str,
}

/// `dirs/last` + `tail` (`/index.html` or `.html`); a `None` last is the directory's own
/// index.
fn join(dirs: &[String], last: Option<&str>, tail: &str) -> String {
    let mut parts: Vec<&str> = dirs.iter().map(String::as_str).collect();
    match last {
        Some(l) if tail == ".html" => return format!("{}{l}.html", prefix(&parts)),
        Some(l) => parts.push(l),
        None => {}
    }
    format!("{}index.html", prefix(&parts))
}

fn prefix(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| format!("{p}/"))
        .collect()
}

/// An absolute URL path from front matter (`/custom/path/`, `/x.html`) as an output file.
fn from_url(url: &str) -> String {
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
fn urlize(s: &str) -> String {
    s.trim().to_lowercase().replace(' ', "-")
}

/// A stem's `YYYY-MM-DD-` (or `_`) prefix, and the rest.
fn dated(stem: &str) -> Option<(&str, &str)> {
    let date = stem.get(..10)?;
    let ok = date.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    let rest = stem.get(10..)?.strip_prefix(['-', '_'])?;
    (ok && !rest.is_empty()).then_some((date, rest))
}

/// Every form in `forms`, each once.
fn distinct(mut forms: Vec<String>) -> Vec<String> {
    forms.sort();
    forms.dedup();
    forms
}

fn is_index(stem: &str) -> bool {
    matches!(stem, "index" | "_index" | "README" | "readme")
}

/// Hugo: `_index.md` and a leaf bundle's `index.md` are their directory; other pages
/// `name/`; `url` is the whole path, `slug` the last segment; paths lower-cased.
fn hugo(n: Name, fm: &FrontMatter) -> Vec<String> {
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    let last = (!is_index(n.stem)).then(|| fm.slug.as_deref().unwrap_or(n.stem));
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    distinct(vec![
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
        join(n.dirs, last, "/index.html"),
    ])
}

/// Zola: as Hugo, with `path` for the whole path and a date prefix dropped from the slug.
fn zola(n: Name, fm: &FrontMatter) -> Vec<String> {
    if let Some(path) = &fm.url {
        return vec![from_url(&format!("/{}/", path.trim_matches('/')))];
    }
    let stem = dated(n.stem).map_or(n.stem, |(_, rest)| rest);
    let last = (!is_index(n.stem)).then(|| fm.slug.as_deref().unwrap_or(stem));
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    // Zola's default `slugify.paths = "on"` folds to ASCII; "safe" keeps the name.
    let ascii: Vec<String> = n.dirs.iter().map(|d| slugify_ascii(d)).collect();
    distinct(vec![
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
        join(n.dirs, last, "/index.html"),
        join(&ascii, last.map(slugify_ascii).as_deref(), "/index.html"),
    ])
}

/// Date parts a permalink pattern names.
fn date_parts(ts: Timestamp) -> [(&'static str, String); 6] {
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

/// Fills a permalink pattern; the longer placeholders first, so `:i_month` is not read
/// as `:i` + `_month`.
fn expand(pattern: &str, fields: &[(&str, String)]) -> String {
    let mut fields = fields.to_vec();
    fields.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    let mut out = pattern.to_string();
    for (key, value) in fields {
        out = out.replace(key, &value);
    }
    while out.contains("//") {
        out = out.replace("//", "/");
    }
    from_url(&out)
}

/// Jekyll: posts (`_posts/2024-01-10-title.md`) by the `permalink` pattern; pages keep
/// their path with `.html`; a front-matter `permalink` wins.
fn jekyll(n: Name, fm: &FrontMatter, permalink: Option<&str>) -> Vec<String> {
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    let in_posts = n.dirs.iter().any(|d| d == "_posts");
    if !in_posts {
        if n.dirs.iter().any(|d| d.starts_with('_')) {
            return Vec::new();
        }
        return vec![join(n.dirs, Some(n.stem), ".html")];
    }
    let Some((date, title)) = dated(n.stem) else {
        return Vec::new();
    };
    let Some(when) = fm.date.or_else(|| super::front_matter::parse_date(date)) else {
        return Vec::new();
    };
    let pattern = match permalink.unwrap_or("date") {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        custom => custom,
    };
    let title = fm.slug.as_deref().unwrap_or(title);
    let mut fields = date_parts(when).to_vec();
    fields.extend([
        (":title", title.to_string()),
        (":slug", title.to_string()),
        (":categories", String::new()),
        (":output_ext", ".html".to_string()),
    ]);
    vec![expand(pattern, &fields)]
}

/// Hexo: posts (`source/_posts/title.md`) by the `permalink` pattern (`:year/:month/:day/
/// :title/` by default) and their `date`; pages keep their path (`about/index.md` →
/// `about/index.html`, `x.md` → `x.html`).
fn hexo(n: Name, fm: &FrontMatter, permalink: Option<&str>) -> Vec<String> {
    if n.dirs.first().map(String::as_str) != Some("_posts") {
        if let Some(url) = &fm.url {
            return vec![from_url(url)];
        }
        if n.dirs.iter().any(|d| d.starts_with('_')) {
            return Vec::new();
        }
        return vec![join(n.dirs, Some(n.stem), ".html")];
    }
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    let Some(when) = fm.date else {
        return Vec::new();
    };
    let mut title: Vec<&str> = n.dirs[1..].iter().map(String::as_str).collect();
    title.push(n.stem);
    let title = title.join("/");
    let mut fields = date_parts(when).to_vec();
    fields.extend([
        (":title", title.clone()),
        (":name", n.stem.to_string()),
        (":post_title", title),
    ]);
    vec![expand(
        permalink.unwrap_or(":year/:month/:day/:title/"),
        &fields,
    )]
}

/// Eleventy: `x.md` → `x/index.html`, `index.md` its directory's; `permalink` wins.
fn eleventy(n: Name, fm: &FrontMatter) -> Vec<String> {
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    if n.dirs.iter().any(|d| d.starts_with('_')) {
        return Vec::new();
    }
    let last = (n.stem != "index").then_some(n.stem);
    vec![join(n.dirs, last, "/index.html")]
}

/// Astro: `src/pages/x.md` → `x/index.html` (dynamic routes `[slug]` build no page of
/// their own); a content collection's entry `src/content/blog/x.md` → `blog/x/index.html`
/// by the convention of its `blog/[...slug]` route, with the glob loader's slugged id (or
/// `slug`).
fn astro(dir: &str, n: Name, fm: &FrontMatter) -> Vec<String> {
    if n.stem.starts_with('[') || n.dirs.iter().any(|d| d.starts_with(['[', '_'])) {
        return Vec::new();
    }
    if dir.ends_with("pages") {
        let last = (n.stem != "index").then_some(n.stem);
        return vec![join(n.dirs, last, "/index.html")];
    }
    if n.dirs.is_empty() {
        return Vec::new();
    }
    if let Some(slug) = &fm.slug {
        let slug = slug.trim_matches('/');
        return vec![format!("{}/{slug}/index.html", n.dirs[0])];
    }
    let last = (n.stem != "index").then_some(n.stem);
    let dirs: Vec<String> = n.dirs.iter().map(|d| urlize(d)).collect();
    distinct(vec![
        join(n.dirs, last, "/index.html"),
        join(&dirs, last.map(urlize).as_deref(), "/index.html"),
    ])
}

/// A Docusaurus name without its number prefix (`01-intro` → `intro`).
fn unnumbered(s: &str) -> &str {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match s[digits..].strip_prefix(['-', '_', '.']) {
        Some(rest) if digits > 0 && !rest.is_empty() => rest.trim_start(),
        _ => s,
    }
}

/// Docusaurus: docs under their route (`docs/guides/01-x.md` → `docs/guides/x/`), an
/// `index.md`, `README.md` or a file named as its folder the folder's page, `id` and
/// `slug` as written; blog posts `blog/2024-01-10-title.md` → `blog/2024/01/10/title/`; pages
/// `src/pages/x.md` → `x/`.
fn docusaurus(dir: &str, n: Name, fm: &FrontMatter) -> Vec<String> {
    if n.stem.starts_with('_') || n.dirs.iter().any(|d| d.starts_with('_')) {
        return Vec::new();
    }
    let base = Path::new(dir)
        .file_name()
        .map(|b| b.to_string_lossy().into_owned())
        .unwrap_or_default();
    if dir.ends_with("pages") {
        let last = (n.stem != "index").then_some(n.stem);
        return vec![join(n.dirs, last, "/index.html")];
    }
    if base == "blog" {
        let stem = if is_index(n.stem) {
            n.dirs.last().map_or(n.stem, String::as_str)
        } else {
            n.stem
        };
        // A date in the name is the URL's: `2024-01-10-hi.md` → `blog/2024/01/10/hi/`.
        let slug = fm.slug.clone().unwrap_or_else(|| match dated(stem) {
            Some((date, rest)) => format!("{}/{rest}", date.replace('-', "/")),
            None => stem.to_string(),
        });
        return vec![format!("blog/{}/index.html", slug.trim_matches('/'))];
    }
    let dirs: Vec<String> = n.dirs.iter().map(|d| unnumbered(d).to_string()).collect();
    if let Some(slug) = fm.slug.as_deref().filter(|s| s.starts_with('/')) {
        return vec![from_url(&format!("/{base}{slug}/"))];
    }
    let own = unnumbered(n.stem);
    let folder_page = is_index(n.stem) || dirs.last().is_some_and(|d| d == own);
    let last = match (&fm.slug, &fm.id) {
        (Some(slug), _) => Some(slug.trim_matches('/').to_string()),
        _ if folder_page => None,
        (None, Some(id)) => Some(id.clone()),
        (None, None) => Some(own.to_string()),
    };
    let mut parts = vec![base];
    parts.extend(dirs);
    vec![join(&parts, last.as_deref(), "/index.html")]
}

/// Python-Markdown's slugify, as Material's blog uses it: accents folded to ASCII,
/// anything but word characters, spaces and hyphens dropped, lower-cased, runs of
/// spaces and hyphens one hyphen.
fn slugify_ascii(s: &str) -> String {
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

/// MkDocs: `x.md` → `x/index.html`, `index.md` and `README.md` their directory's; with
/// Material's blog plugin, a post under `blog/posts/` → `blog/YYYY/MM/DD/<slug>/`, its
/// slug `slug` or its title slugified.
fn mkdocs(n: Name, fm: &FrontMatter) -> Vec<String> {
    let in_posts = n.dirs.len() >= 2 && n.dirs[0] == "blog" && n.dirs[1] == "posts";
    if in_posts {
        let (Some(when), Some(slug)) = (
            fm.date,
            fm.slug
                .clone()
                .or_else(|| fm.title.as_deref().map(slugify_ascii)),
        ) else {
            return Vec::new();
        };
        let d = when.to_zoned(jiff::tz::TimeZone::UTC);
        return vec![format!(
            "blog/{:04}/{:02}/{:02}/{slug}/index.html",
            d.year(),
            d.month(),
            d.day()
        )];
    }
    if !matches!(n.ext, "md" | "markdown") {
        return Vec::new();
    }
    let last = (!is_index(n.stem)).then_some(n.stem);
    vec![join(n.dirs, last, "/index.html")]
}

/// Pelican's slug of a title: lower-cased, what is not a word character, space or
/// hyphen dropped, runs of spaces and hyphens one hyphen (Unicode letters kept).
fn slugify_unicode(s: &str) -> String {
    let kept: String = s
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .collect();
    let words: Vec<&str> = kept.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    words.join("-")
}

/// Pelican with its default URLs: an article `{slug}.html`, a page (under `pages/`)
/// `pages/{slug}.html`; the slug is `Slug`, else the title slugified (Unicode kept, or
/// folded to ASCII as with `SLUGIFY_USE_UNICODE` off); `URL`/`save_as` win.
fn pelican(n: Name, fm: &FrontMatter) -> Vec<String> {
    if let Some(url) = &fm.url {
        return vec![from_url(&format!("/{}", url.trim_start_matches('/')))];
    }
    let page = n.dirs.first().is_some_and(|d| d == "pages");
    let slugs = match (&fm.slug, &fm.title) {
        (Some(slug), _) => vec![slug.clone()],
        (None, Some(title)) => vec![slugify_unicode(title), slugify_ascii(title)],
        (None, None) => vec![slugify_unicode(n.stem)],
    };
    let prefix = if page { "pages/" } else { "" };
    distinct(
        slugs
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| format!("{prefix}{s}.html"))
            .collect(),
    )
}

#[cfg(test)]
mod tests;
