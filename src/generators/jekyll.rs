//! Jekyll: `_config.yml`, the project itself to `_site/`.

use std::path::Path;

use super::read::{join as join_url, yaml, yaml_value};
use super::route::{MARKUP, date_parts, dated, expand, from_url, join};
use super::{Context, Generator, Marker, Project, Settings, Source, no_prepare};

pub static JEKYLL: Generator = Generator {
    id: "jekyll",
    name: "Jekyll",
    // Hexo's name too; Hexo claims its own first.
    markers: &[Marker::shared("_config.{yml,yaml}", |p| {
        !super::hexo::is_hexo(p)
    })],
    public_dir: "_site",
    excludes: &[],
    not_pages: &[],
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
    prepare: no_prepare,
    fills_translations: false,
    body_dates: false,
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

/// Jekyll: posts (`_posts/2024-01-10-title.md`) by the `permalink` pattern; pages keep
/// their path with `.html`; a front-matter `permalink` wins.
fn route(cx: &Context, s: Source) -> Vec<String> {
    let Some(n) = s.name() else {
        return Vec::new();
    };
    let fm = s.fm;
    if let Some(url) = &fm.url {
        return vec![from_url(url)];
    }
    let in_posts = n.dirs.iter().any(|d| d == "_posts");
    if !in_posts {
        if n.dirs.iter().any(|d| d.starts_with('_')) {
            return Vec::new();
        }
        return vec![join(&n.dirs, Some(&n.stem), ".html")];
    }
    let Some((date, title)) = dated(&n.stem) else {
        return Vec::new();
    };
    let Some(when) = fm.date.or_else(|| {
        let day: jiff::civil::Date = date.parse().ok()?;
        day.to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp())
    }) else {
        return Vec::new();
    };
    let pattern = match cx.permalink.unwrap_or("date") {
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

fn hints(p: &Project) -> Vec<String> {
    let (config, source) = (p.text, p.config.display());
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
