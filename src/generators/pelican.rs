//! Pelican: `pelicanconf.py` (and `publishconf.py`), `content/` to `output/`.

use std::path::Path;

use super::read::py_value;
use super::route::{MARKUP, distinct, from_url, slugify_ascii, slugify_unicode};
use super::{Context, Generator, Marker, Project, Settings, Source};

pub static PELICAN: Generator = Generator {
    id: "pelican",
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
}

/// Pelican with its default URLs: an article `{slug}.html`, a page (under `pages/`)
/// `pages/{slug}.html`; the slug is `Slug`, else the title slugified (Unicode kept, or
/// folded to ASCII as with `SLUGIFY_USE_UNICODE` off); `URL`/`save_as` win.
fn route(_: &Context, s: Source) -> Vec<String> {
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
    let prefix = if page { "pages/" } else { "" };
    distinct(
        slugs
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| format!("{prefix}{s}.html"))
            .collect(),
    )
}
