//! Jekyll: `_config.yml`, the project itself to `_site/`.

use std::path::Path;

use super::read::{join as join_url, yaml, yaml_value};
use super::route::{
    FrontMatter, MARKUP, Name, date_parts, dated, expand, folder_page, from_url, join,
    slugify_unicode,
};
use super::{Context, Generator, Marker, Prepared, Project, Settings, Source, config_file};

pub static JEKYLL: Generator = Generator {
    id: "jekyll",
    own_sitemap_off: Some("remove jekyll-sitemap from plugins: in _config.yml (and the Gemfile)"),
    name: "Jekyll",
    // Hexo's name too; Hexo claims its own first.
    markers: &[Marker::shared("_config.{yml,yaml}", |p| {
        !super::hexo::is_hexo(p)
    })],
    public_dir: "_site",
    suggested_rules: "# jekyll-paginate pages (/page2/, /blog/page3/) and tag or category archives:\n\
         # [[rule]]\n\
         # match = [\"**/page[0-9]*/index.html\", \"tag/**\", \"category/**\"]\n\
         # exclude = true\n",
    suggested_sections: &[("posts", "[0-9][0-9][0-9][0-9]/**")],
    content: &["."],
    extensions: MARKUP,
    updated: &["last_modified_at"],
    read_config,
    route,
    hints,
    prepare,
    ..Generator::BASE
};

fn read_config(s: &mut Settings, p: &Project) {
    let text = p.text;
    s.base_url = yaml_value(text, "url")
        .map(|url| join_url(&url, &yaml_value(text, "baseurl").unwrap_or_default()));
    s.output(
        Path::new(""),
        yaml_value(text, "destination"),
        "destination",
    );
    s.content(yaml_value(text, "source"));
    s.permalink(permalink(text));
}

/// The posts' permalink pattern of a Jekyll config: `permalink`, or the one its front
/// matter `defaults` give posts (`scope: {type: posts}`).
fn permalink(text: &str) -> Option<String> {
    use yaml_rust2::Yaml;
    let doc = yaml(text);
    if let Some(p) = doc["permalink"].as_str() {
        return Some(p.to_string());
    }
    doc["defaults"].as_vec()?.iter().find_map(|d: &Yaml| {
        let scope = &d["scope"];
        let posts = scope["type"].as_str() == Some("posts")
            || scope["path"]
                .as_str()
                .is_some_and(|p| p.trim_matches('/') == "_posts");
        posts.then(|| d["values"]["permalink"].as_str().map(str::to_string))?
    })
}

/// Jekyll: posts (`_posts/2024-01-10-title.md`) by the `permalink` pattern, with their
/// categories (the folders before `_posts`, and `categories`); a collection's documents
/// by its `permalink` (see [`prepare`]); pages keep their path with `.html`, or become
/// their folder's page under `permalink: pretty` (or any pattern ending in `/`); a
/// front-matter `permalink` wins.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(mut n) = s.name() else {
        return Vec::new();
    };
    if let Some(url) = &s.fm.url {
        return vec![from_url(url)];
    }
    // Posts and collections moved to `collections_dir` are read from there; the
    // folder's other files are pages at their own path.
    let moved = (cx.collections_dir.zip(n.dirs.first())).is_some_and(|(dir, first)| {
        dir == first && n.dirs.get(1).is_some_and(|d| d.starts_with('_'))
    });
    if moved {
        n.dirs.remove(0);
    }
    if let Some(at) = n.dirs.iter().position(|d| d == "_posts") {
        return post(cx, &n, at, s.fm).into_iter().collect();
    }
    if let Some(first) = n.dirs.first().filter(|d| d.starts_with('_')) {
        let Some((_, pattern)) = cx.served.iter().find(|(dir, _)| dir == first) else {
            return Vec::new();
        };
        return vec![document(pattern, &n, s.fm)];
    }
    // The site-wide `permalink` (not the posts' own, which `cx.permalink` may be), as
    // `prepare` read it: `pretty`, or a pattern ending in `/`.
    let site = cx.served.iter().find(|(dir, _)| dir.is_empty());
    let pretty = site.is_some_and(|(_, p)| p == "pretty" || p.ends_with('/'));
    if pretty && n.stem != "index" {
        return vec![folder_page(&n)];
    }
    vec![join(&n.dirs, Some(&n.stem), ".html")]
}

/// A post (`<categories>/_posts/2024-01-10-title.md`, `_posts` at `at` in its folders).
fn post(cx: &Context, n: &Name, at: usize, fm: &FrontMatter) -> Option<String> {
    let (date, title) = dated(&n.stem)?;
    let when = fm.date.or_else(|| {
        let day: jiff::civil::Date = date.parse().ok()?;
        day.to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp())
    })?;
    let pattern = match cx.permalink.unwrap_or("date") {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        custom => custom,
    };
    let title = fm.slug.as_deref().unwrap_or(title);
    let categories: Vec<String> = n.dirs[..at]
        .iter()
        .chain(&fm.categories)
        .map(|c| c.to_lowercase())
        .collect();
    let mut fields = date_parts(when).to_vec();
    fields.extend([
        (":title", title.to_string()),
        (":slug", title.to_string()),
        (":categories", categories.join("/")),
        (":output_ext", ".html".to_string()),
    ]);
    Some(expand(pattern, &fields))
}

/// A collection's document by the collection's `permalink` pattern.
fn document(pattern: &str, n: &Name, fm: &FrontMatter) -> String {
    let mut path: Vec<&str> = n.dirs[1..].iter().map(String::as_str).collect();
    path.push(&n.stem);
    let name = slugify_unicode(&n.stem);
    let mut fields = fm.date.map(|d| date_parts(d).to_vec()).unwrap_or_default();
    fields.extend([
        (":collection", n.dirs[0].trim_start_matches('_').to_string()),
        (":path", path.join("/")),
        (":name", name.clone()),
        (":title", fm.slug.clone().unwrap_or(name)),
        (":output_ext", ".html".to_string()),
    ]);
    expand(pattern, &fields)
}

/// The collections the project's `_config.yml` outputs, each with its `permalink`
/// (`/:collection/:path:output_ext` by default), as `("_docs", pattern)`; and the
/// site-wide `permalink`, which styles the pages, as `("", pattern)`.
fn prepare(project: &Path) -> Prepared {
    let Some((_, text)) = config_file(&JEKYLL, project) else {
        return Prepared::default();
    };
    let doc = yaml(&text);
    let site = doc["permalink"]
        .as_str()
        .map(|p| (String::new(), p.to_string()));
    let no_collections = yaml_rust2::yaml::Hash::new();
    let collections = doc["collections"].as_hash().unwrap_or(&no_collections);
    let served = collections
        .iter()
        .filter(|(_, c)| c["output"].as_bool() == Some(true))
        .filter_map(|(name, c)| {
            let pattern = c["permalink"]
                .as_str()
                .unwrap_or("/:collection/:path:output_ext");
            Some((format!("_{}", name.as_str()?), pattern.to_string()))
        })
        .chain(site)
        .collect();
    let collections_dir = doc["collections_dir"].as_str();
    let collections_dir =
        collections_dir.map(|d| d.trim().trim_start_matches("./").trim_matches('/'));
    Prepared {
        served,
        collections_dir: collections_dir
            .filter(|d| !d.is_empty())
            .map(str::to_string),
        ..Prepared::default()
    }
}

fn hints(p: &Project) -> Vec<String> {
    let (config, source) = (p.text, crate::text::path(p.config));
    let mut hints = Vec::new();
    if !config.contains("sitemap.toml") {
        hints.push(format!(
            "Jekyll publishes every file of the source: add sitemap.toml to exclude: in {source}, or it is copied to _site/sitemap.toml"
        ));
    }
    if config.contains("jekyll-sitemap") {
        hints.push(format!(
            "jekyll-sitemap writes its own sitemap.xml over ours on every build: remove it from plugins: in {source} (and the Gemfile)"
        ));
    }
    hints
}
