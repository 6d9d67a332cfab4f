//! Hexo: `_config.yml` with Hexo's keys (or `hexo` in `package.json`), `source/` to
//! `public/`.

use std::path::Path;

use super::read::{join as join_url, yaml_has_key, yaml_value};
use super::route::{MARKUP, date_parts, expand, from_url, join};
use super::{Context, Generator, Marker, Prepared, Project, Settings, Source};

pub static HEXO: Generator = Generator {
    id: "hexo",
    own_sitemap_off: Some("uninstall hexo-generator-sitemap"),
    name: "Hexo",
    markers: &[Marker::shared("_config.{yml,yaml}", is_hexo)],
    public_dir: "public",
    // hexo-generator-sitemap lists posts, pages, tags and categories: not the
    // archives nor any pagination (the index's, a tag's, a category's).
    excludes: &["archives/**", "**/page/*/index.html"],
    suggested_rules: "# Tag and category lists and their pagination:\n\
         # [[rule]]\n\
         # match = [\"tags/**\", \"categories/**\"]\n\
         # exclude = true\n",
    suggested_sections: &[("posts", "[0-9][0-9][0-9][0-9]/**")],
    content: &["source"],
    extensions: MARKUP,
    updated: &["updated"],
    read_config,
    route,
    prepare,
    ..Generator::BASE
};

/// Hexo's `_config.yml` shares its name with Jekyll's: Hexo's own keys, or `hexo` among
/// the dependencies of `package.json`, tell them apart.
pub(super) fn is_hexo(p: &Project) -> bool {
    const HEXO_KEYS: [&str; 5] = [
        "new_post_name",
        "default_layout",
        "pretty_urls",
        "post_asset_folder",
        "public_dir",
    ];
    super::read::depends_on(p, "hexo") || HEXO_KEYS.iter().any(|k| yaml_has_key(p.text, k))
}

fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    // `url` holds the subdirectory in Hexo 5 and later; `root` repeats it (or, in older
    // sites, is its only place).
    let url = yaml_value(text, "url");
    let root = yaml_value(text, "root").unwrap_or_default();
    s.base_url = url.map(|url| {
        let has_path = url
            .split_once("://")
            .is_some_and(|(_, rest)| rest.trim_end_matches('/').contains('/'));
        if has_path { url } else { join_url(&url, &root) }
    });
    s.output(Path::new(""), yaml_value(text, "public_dir"), "public_dir");
    s.content(yaml_value(text, "source_dir"));
    s.permalink(yaml_value(text, "permalink"));
}

/// Hexo: posts (`source/_posts/title.md`) by the `permalink` pattern (`:year/:month/:day/
/// :title/` by default) and their `date`; pages keep their path (`about/index.md` →
/// `about/index.html`, `x.md` → `x.html`).
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let fm = s.fm;
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    if n.dirs.first().map(String::as_str) != Some("_posts") {
        if n.dirs.iter().any(|d| d.starts_with('_')) {
            return Vec::new();
        }
        return vec![join(&n.dirs, Some(&n.stem), ".html")];
    }
    let Some(when) = fm.date else {
        return Vec::new();
    };
    let mut title: Vec<&str> = n.dirs[1..].iter().map(String::as_str).collect();
    title.push(&n.stem);
    let title = post_title(cx.post_name, &title.join("/"));
    let mut fields = date_parts(when).to_vec();
    fields.extend([
        (":title", title.clone()),
        (":name", n.stem.clone()),
        (":post_title", title),
    ]);
    vec![expand(
        cx.permalink.unwrap_or(":year/:month/:day/:title/"),
        &fields,
    )]
}

/// What Hexo's `new_post_name` says of the project's post files, read at build time.
fn prepare(project: &Path) -> Prepared {
    let text = super::config_file(&HEXO, project).map(|(_, text)| text);
    Prepared {
        post_name: text.and_then(|t| yaml_value(&t, "new_post_name")),
        ..Prepared::default()
    }
}

/// A post's `:title`, from its path below `_posts` (no extension): with a dated
/// `new_post_name` (`:year-:month-:day-:title.md`), the rest of a name that starts with
/// the date; else the whole path (as Hexo does for a name that does not fit it).
fn post_title(post_name: Option<&str>, path: &str) -> String {
    let dated = post_name.is_some_and(|p| p.starts_with(":year-:month-:day-:title"));
    match super::route::dated(path) {
        Some((_, rest)) if dated => rest.to_string(),
        // Not of the dated form: Hexo slugifies the whole path, folders joined by `-`.
        None if dated && path.contains('/') => path.replace('/', "-"),
        _ => path.to_string(),
    }
}
