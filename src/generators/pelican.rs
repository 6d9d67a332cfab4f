//! Pelican: `pelicanconf.py` (and `publishconf.py`), `content/` to `output/`.

use std::path::Path;

use super::read::py_value;
use super::route::{MARKUP, distinct, from_url, slugify_ascii, slugify_unicode};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static PELICAN: Generator = Generator {
    id: "pelican",
    own_sitemap_off: Some("remove the sitemap plugin from PLUGINS"),
    name: "Pelican",
    markers: &[Marker::file("pelicanconf.py")],
    public_dir: "output",
    // Drafts are built to drafts/ but not published.
    excludes: &["drafts/**"],
    suggested_rules: "# Tag, category, author and archive lists, and index pagination (index2.html):\n\
         # [[rule]]\n\
         # match = [\"tag/**\", \"category/**\", \"author/**\", \"tags.html\", \"categories.html\", \"authors.html\", \"archives.html\", \"index[0-9]*.html\"]\n\
         # exclude = true\n",
    suggested_sections: &[("pages", "pages/**")],
    content: &["content"],
    extensions: MARKUP,
    updated: &["modified"],
    read_config,
    route,
    prepare: |project| super::languages(&PELICAN, project),
    ..Generator::BASE
};

fn read_config(s: &mut Settings, p: &Project) {
    // publishconf.py is the production build's: its SITEURL wins.
    let publish = p.read("publishconf.py").unwrap_or_default();
    let site = py_value(&publish, "SITEURL").filter(|u| !u.is_empty());
    if site.is_some() {
        s.note("base_url from SITEURL in publishconf.py");
    }
    s.base_url = site.or_else(|| py_value(p.text, "SITEURL"));
    let out = py_value(&publish, "OUTPUT_PATH").or_else(|| py_value(p.text, "OUTPUT_PATH"));
    s.output(Path::new(""), out, "OUTPUT_PATH");
    s.content(py_value(p.text, "PATH"));
    // Where articles and pages are written, when the config moves them.
    for (kind, key, default) in SAVE_AS {
        let pattern = py_value(p.text, key).filter(|v| !v.trim().is_empty());
        if let Some(pattern) = pattern.or_else(|| default.map(str::to_string)) {
            s.permalinks.push((kind.to_string(), pattern));
        }
    }
    s.default_language = py_value(p.text, "DEFAULT_LANG");
}

/// Where Pelican writes articles and pages, by kind: the setting, and its default when
/// it moves a page from the one Pelican's own routing here gives (translations).
const SAVE_AS: [(&str, &str, Option<&str>); 4] = [
    ("article", "ARTICLE_SAVE_AS", None),
    ("page", "PAGE_SAVE_AS", None),
    (
        "article_lang",
        "ARTICLE_LANG_SAVE_AS",
        Some("{slug}-{lang}.html"),
    ),
    (
        "page_lang",
        "PAGE_LANG_SAVE_AS",
        Some("pages/{slug}-{lang}.html"),
    ),
];

/// The output file of a source by the `*_SAVE_AS` pattern of its kind (`posts/{date:%Y}/
/// {slug}/index.html`), when the config sets one.
fn saved_as(
    cx: &Context,
    kind: &str,
    slug: &str,
    n: &super::route::Name,
    fm: &super::FrontMatter,
) -> Option<String> {
    let (_, pattern) = cx.permalinks.iter().find(|(k, _)| k == kind)?;
    // The date as written, else the one the file's name starts with (FILENAME_METADATA).
    let day = fm
        .day
        .or_else(|| super::route::dated(&n.stem)?.0.parse().ok());
    let mut out = pattern.replace("{slug}", slug);
    if let Some(lang) = &fm.lang {
        out = out.replace("{lang}", lang);
    }
    if let Some(day) = day {
        out = out
            .replace("{date:%Y}", &format!("{:04}", day.year()))
            .replace("{date:%m}", &format!("{:02}", day.month()))
            .replace("{date:%d}", &format!("{:02}", day.day()));
    }
    let category = fm.categories.first().or(n.dirs.first());
    if let Some(category) = category {
        out = out.replace("{category}", &slugify_ascii(category));
    }
    (!out.contains('{')).then(|| from_url(&format!("/{}", out.trim_start_matches('/'))))
}

/// Pelican with its default URLs: an article `{slug}.html`, a page (under `pages/`)
/// `pages/{slug}.html`; the slug is `Slug`, else the title slugified (Unicode kept, or
/// folded to ASCII as with `SLUGIFY_USE_UNICODE` off); `URL`/`save_as` win.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let fm = s.fm;
    if let Some(url) = &fm.url {
        return vec![from_url(&format!("/{}", url.trim_start_matches('/')))];
    }
    let page = n.dirs.first().is_some_and(|d| d == "pages");
    let slugs = match (&fm.slug, &fm.title) {
        (Some(slug), _) => vec![slug.clone()],
        (None, Some(title)) => vec![slugify_unicode(title), slugify_ascii(title)],
        (None, None) => vec![slugify_unicode(&n.stem)],
    };
    // A translation (its `Lang` not the default language's) is saved as one.
    let translated = fm
        .lang
        .as_deref()
        .is_some_and(|l| Some(l) != cx.default_language.or(Some("en")));
    let kind = match (page, translated) {
        (true, false) => "page",
        (false, false) => "article",
        (true, true) => "page_lang",
        (false, true) => "article_lang",
    };
    let saved: Vec<String> = (slugs.iter())
        .filter_map(|slug| saved_as(cx, kind, slug, &n, fm))
        .collect();
    if !saved.is_empty() {
        return distinct(saved);
    }
    let prefix = if page { "pages/" } else { "" };
    distinct(
        slugs
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| format!("{prefix}{s}.html"))
            .collect(),
    )
}
