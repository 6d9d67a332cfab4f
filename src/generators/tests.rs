//! Each generator's routing: sections and bundles, URL overrides, dated posts by their
//! permalink, number prefixes, slugs, and what builds no page.

use std::path::Path;

use super::*;
use crate::lastmod::source::front_matter;

type Case<'a> = (
    &'static Generator,
    &'a str,
    &'a str,
    &'a str,
    Option<&'a str>,
    &'a [&'a str],
);

const NONE: &str = "";

/// Checks each case: the output paths a source may be built to, in any order.
fn assert_routes(table: &[Case]) {
    for (routing, dir, rel, fm_text, permalink, want) in table {
        let fm = front_matter::parse(fm_text, &[]);
        let source = Source {
            dir,
            rel: Path::new(rel),
            fm: &fm,
        };
        let cx = Context {
            permalink: *permalink,
            ..Context::default()
        };
        let mut got = (routing.route)(&cx, source);
        got.sort();
        let mut want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
        want.sort();
        assert_eq!(
            got, want,
            "{routing:?} {dir} {rel} {fm_text:?} {permalink:?}"
        );
    }
}

#[test]
fn hugo_and_zola() {
    assert_routes(&[
        (&HUGO, "content", "_index.md", NONE, None, &["index.html"]),
        (
            &HUGO,
            "content",
            "docs/_index.md",
            NONE,
            None,
            &["docs/index.html"],
        ),
        (
            &HUGO,
            "content",
            "docs/install/index.md",
            NONE,
            None,
            &["docs/install/index.html"],
        ),
        (
            &HUGO,
            "content",
            "posts/Hello World.md",
            NONE,
            None,
            &[
                "posts/Hello World/index.html",
                "posts/hello-world/index.html",
            ],
        ),
        (
            &HUGO,
            "content",
            "posts/tokyo.md",
            "+++\nslug = 'tokyo-2023'\n+++\n",
            None,
            &["posts/tokyo-2023/index.html"],
        ),
        (
            &HUGO,
            "content",
            "landing.md",
            "+++\nurl = '/custom/path/'\n+++\n",
            None,
            &["custom/path/index.html"],
        ),
        (
            &HUGO,
            "content",
            "über-café.md",
            NONE,
            None,
            &["über-café/index.html"],
        ),
        (
            &ZOLA,
            "content",
            "blog/2024-01-10-first.md",
            NONE,
            None,
            &["blog/first/index.html"],
        ),
        (
            &ZOLA,
            "content",
            "über-café.md",
            NONE,
            None,
            &["uber-cafe/index.html", "über-café/index.html"],
        ),
        (
            &ZOLA,
            "content",
            "landing.md",
            "+++\npath = 'custom/path'\n+++\n",
            None,
            &["custom/path/index.html"],
        ),
    ]);
}

#[test]
fn jekyll_and_hexo() {
    assert_routes(&[
        (
            &JEKYLL,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            None,
            &["2023/02/20/hello.html"],
        ),
        (
            &JEKYLL,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            Some("pretty"),
            &["2023/02/20/hello/index.html"],
        ),
        (
            &JEKYLL,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            Some("/blog/:year/:month/:day/:title/"),
            &["blog/2023/02/20/hello/index.html"],
        ),
        (
            &JEKYLL,
            ".",
            "_posts/2023-02-20-hello.md",
            "---\ndate: 2023-02-21 01:00:00 +0000\n---\n",
            Some("/:year/:i_month/:i_day/:title:output_ext"),
            &["2023/2/21/hello.html"],
        ),
        (
            &JEKYLL,
            ".",
            "_posts/2023-07-19-summer.md",
            "---\npermalink: /releases/summer-2023/\n---\n",
            None,
            &["releases/summer-2023/index.html"],
        ),
        (
            &JEKYLL,
            ".",
            "docs/index.md",
            NONE,
            None,
            &["docs/index.html"],
        ),
        (&JEKYLL, ".", "about.md", NONE, None, &["about.html"]),
        (&JEKYLL, ".", "_layouts/default.html", NONE, None, &[]),
        (&JEKYLL, ".", "_posts/notes.md", NONE, None, &[]),
        (
            &HEXO,
            "source",
            "_posts/hello.md",
            "---\ndate: 2023-02-01 09:00:00\n---\n",
            None,
            &["2023/02/01/hello/index.html"],
        ),
        (
            &HEXO,
            "source",
            "_posts/hello.md",
            "---\ndate: 2023-02-01\n---\n",
            Some(":year/:title.html"),
            &["2023/hello.html"],
        ),
        (&HEXO, "source", "_posts/hello.md", NONE, None, &[]),
        (
            &HEXO,
            "source",
            "about/index.md",
            NONE,
            None,
            &["about/index.html"],
        ),
        (&HEXO, "source", "contact.md", NONE, None, &["contact.html"]),
    ]);
}

#[test]
fn eleventy_and_astro() {
    assert_routes(&[
        (
            &ELEVENTY,
            "src",
            "blog/post.md",
            NONE,
            None,
            &["blog/post/index.html"],
        ),
        (&ELEVENTY, "src", "index.md", NONE, None, &["index.html"]),
        (
            &ELEVENTY,
            "src",
            "old.md",
            "---\npermalink: /new.html\n---\n",
            None,
            &["new.html"],
        ),
        (&ELEVENTY, "src", "_includes/base.njk", NONE, None, &[]),
        (
            &ASTRO,
            "src/pages",
            "about.astro",
            NONE,
            None,
            &["about/index.html"],
        ),
        (&ASTRO, "src/pages", "blog/[...slug].astro", NONE, None, &[]),
        (
            &ASTRO,
            "src/content",
            "blog/Hello World.md",
            NONE,
            None,
            &["blog/Hello World/index.html", "blog/hello-world/index.html"],
        ),
        (
            &ASTRO,
            "src/content",
            "blog/notes.md",
            "---\nslug: news/release-2023\n---\n",
            None,
            &["blog/news/release-2023/index.html"],
        ),
        (
            &ASTRO,
            "src/content",
            "docs/index.md",
            NONE,
            None,
            &["docs/index.html"],
        ),
    ]);
}

#[test]
fn docusaurus() {
    assert_routes(&[
        (
            &DOCUSAURUS,
            "docs",
            "01-intro.md",
            NONE,
            None,
            &["docs/intro/index.html"],
        ),
        (
            &DOCUSAURUS,
            "docs",
            "02-guides/index.md",
            NONE,
            None,
            &["docs/guides/index.html"],
        ),
        (
            &DOCUSAURUS,
            "docs",
            "guides/guides.md",
            NONE,
            None,
            &["docs/guides/index.html"],
        ),
        (
            &DOCUSAURUS,
            "docs",
            "guides/x.md",
            "---\nid: why\n---\n",
            None,
            &["docs/guides/why/index.html"],
        ),
        (
            &DOCUSAURUS,
            "docs",
            "guides/x.md",
            "---\nslug: /start\n---\n",
            None,
            &["docs/start/index.html"],
        ),
        (
            &DOCUSAURUS,
            "blog",
            "2024-01-10-welcome.md",
            NONE,
            None,
            &["blog/2024/01/10/welcome/index.html"],
        ),
        (
            &DOCUSAURUS,
            "blog",
            "2024-01-10-welcome/index.md",
            NONE,
            None,
            &["blog/2024/01/10/welcome/index.html"],
        ),
        (
            &DOCUSAURUS,
            "src/pages",
            "about.md",
            NONE,
            None,
            &["about/index.html"],
        ),
        (&DOCUSAURUS, "docs", "_partial.md", NONE, None, &[]),
        (
            &DOCUSAURUS,
            "blog",
            "welcome.md",
            "---\nslug: hello\n---\n",
            None,
            &["blog/hello/index.html"],
        ),
        (
            &DOCUSAURUS,
            "src/pages",
            "index.js",
            NONE,
            None,
            &["index.html"],
        ),
    ]);
}

/// Docusaurus' translations: each plugin's, under its locale; older doc versions and
/// the theme's strings are not pages.
#[test]
fn docusaurus_translations() {
    assert_routes(&[
        (
            &DOCUSAURUS,
            "i18n",
            "fr/docusaurus-plugin-content-docs/current/guides/x.md",
            "---\nslug: optimisation\n---\n",
            None,
            &["fr/docs/guides/optimisation/index.html"],
        ),
        (
            &DOCUSAURUS,
            "i18n",
            "fr/docusaurus-plugin-content-blog/2024-01-10-welcome/index.md",
            NONE,
            None,
            &["fr/blog/2024/01/10/welcome/index.html"],
        ),
        (
            &DOCUSAURUS,
            "i18n",
            "fr/docusaurus-plugin-content-pages/about.md",
            NONE,
            None,
            &["fr/about/index.html"],
        ),
        (
            &DOCUSAURUS,
            "i18n",
            "fr/docusaurus-plugin-content-docs/version-1.0/x.md",
            NONE,
            None,
            &[],
        ),
        (&DOCUSAURUS, "i18n", "fr/code.json", NONE, None, &[]),
    ]);
}

#[test]
fn mkdocs_sphinx_and_pelican() {
    assert_routes(&[
        (&MKDOCS, "docs", "index.md", NONE, None, &["index.html"]),
        (
            &MKDOCS,
            "docs",
            "guide/install.md",
            NONE,
            None,
            &["guide/install/index.html"],
        ),
        (
            &MKDOCS,
            "docs",
            "blog/posts/r.md",
            "---\ndate:\n  created: 2024-08-01\n---\n# Release notes 1.0\n",
            None,
            &["blog/2024/08/01/release-notes-10/index.html"],
        ),
        (
            &MKDOCS,
            "docs",
            "blog/posts/c.md",
            "---\ndate: 2024-09-28\nslug: faster-builds\n---\n",
            None,
            &["blog/2024/09/28/faster-builds/index.html"],
        ),
        (
            &MKDOCS,
            "docs",
            "blog/posts/u.md",
            "---\ndate: 2024-09-28\ntitle: Über Café\n---\n",
            None,
            &[
                "blog/2024/09/28/uber-cafe/index.html",
                "blog/2024/09/28/über-café/index.html",
            ],
        ),
        (
            &SPHINX,
            ".",
            "guide/index.rst",
            NONE,
            None,
            &["guide/index.html"],
        ),
        (
            &SPHINX,
            ".",
            "über-café.rst",
            NONE,
            None,
            &["über-café.html"],
        ),
    ]);
}

/// Each generator's hints, given until its config follows them.
#[test]
fn hints_are_given_until_the_config_follows_them() {
    let table: &[(&Generator, &str, &str, &[&str])] = &[
        (
            &HUGO,
            "hugo.toml",
            "baseURL = 'x'\n",
            &[
                "disableKinds = [\"sitemap\"] to hugo.toml",
                "--cleanDestinationDir",
            ],
        ),
        (
            &HUGO,
            "hugo.toml",
            "disableKinds = [\"sitemap\", \"RSS\"]\n",
            &["--cleanDestinationDir"],
        ),
        (
            &HUGO,
            "hugo.yaml",
            "disableKinds:\n  - sitemap\n",
            &["--cleanDestinationDir"],
        ),
        (
            &HUGO,
            "hugo.toml",
            "disableKinds = ['RSS']\n[sitemap]\nchangefreq = 'daily'\n",
            &["disableKinds", "--cleanDestinationDir"],
        ),
        (
            &ZOLA,
            "config.toml",
            "base_url = 'x'\n",
            &["generate_sitemap = false to config.toml"],
        ),
        (&ZOLA, "config.toml", "generate_sitemap = false\n", &[]),
        (
            &ZOLA,
            "config.toml",
            "# generate_sitemap = true (the default)\n",
            &["generate_sitemap = false"],
        ),
        (
            &ZOLA,
            "config.toml",
            "generate_sitemap = true\n",
            &["generate_sitemap = false"],
        ),
        (
            &JEKYLL,
            "_config.yml",
            "url: x\nplugins:\n  - jekyll-sitemap\n",
            &[
                "add sitemap.toml to exclude: in _config.yml",
                "remove it from plugins: in _config.yml",
            ],
        ),
        (&JEKYLL, "_config.yml", "exclude: [sitemap.toml]\n", &[]),
        (&ASTRO, "astro.config.mjs", "export default {}", &[]),
    ];
    for (generator, name, config, want) in table {
        let project = Project {
            dir: std::path::Path::new("/nonexistent"),
            config: std::path::Path::new(name),
            text: config,
        };
        let got = (generator.hints)(&project);
        assert_eq!(got.len(), want.len(), "{config}: {got:?}");
        for (got, want) in got.iter().zip(want.iter()) {
            assert!(got.contains(want), "{config}: {got} lacks {want}");
        }
    }
}

/// Every description sets what `Generator::BASE` only holds a place for, and the list
/// holds each once.
#[test]
fn every_generator_is_described_in_full() {
    let project = Path::new("/nonexistent");
    for g in ALL {
        assert!(
            !g.id.is_empty() && !g.name.is_empty() && !g.public_dir.is_empty(),
            "{g:?}"
        );
        assert!(!g.markers.is_empty() && !g.content.is_empty(), "{g:?}");
        assert!(
            !g.extensions.is_empty() && !g.suggested_rules.is_empty(),
            "{g:?}"
        );
        assert!(!g.suggested_sections.is_empty(), "{g:?}");
        assert_eq!(ALL.iter().filter(|o| o.id == g.id).count(), 1, "{g:?}");
        // Its own routing: a page source at the top of its first content folder is a
        // page (a Next or SvelteKit route file, a Nikola post, an mdBook chapter...).
        let name = match g.id {
            "next" => "about/page.tsx",
            "sveltekit" => "about/+page.svelte",
            "nuxt" => "about.vue",
            "gatsby" => "about.js",
            "quarto" => "about.qmd",
            "nikola" => "about.rst",
            _ => "about.md",
        };
        let fm = FrontMatter::default();
        let source = Source {
            dir: g.content[0],
            rel: Path::new(name),
            fm: &fm,
        };
        assert!(
            !(g.route)(&Context::default(), source).is_empty(),
            "{g:?} routes no page"
        );
        let mut settings = Settings::of(g);
        let text = String::new();
        let marker = g.markers[0].paths().remove(0);
        let p = Project {
            dir: project,
            config: Path::new(&marker),
            text: &text,
        };
        (g.read_config)(&mut settings, &p);
        assert!(!settings.public_dir.is_empty(), "{g:?}");
    }
}

mod frameworks;
mod patterns;

/// A generator, its context, a source (content folder, path, front matter) and its
/// outputs.
type SetupCase<'a> = (
    &'a Generator,
    &'a Context<'a>,
    &'a str,
    &'a str,
    &'a str,
    &'a [&'a str],
);

/// The routes of the second setups the generators document, as their configs give
/// them (issue 60): each case's context, source and the outputs it is built to.
#[test]
fn second_setups_route_by_what_their_configs_say() {
    let langs = [
        ("content/english".to_string(), "en".to_string()),
        ("content/french".to_string(), "fr".to_string()),
    ];
    let hugo_links = [("posts".to_string(), "/:year/:month/:slug/".to_string())];
    let hugo = Context {
        default_language: Some("en"),
        content_languages: &langs,
        permalinks: &hugo_links,
        ..Context::default()
    };
    let jekyll = Context {
        collections_dir: Some("my_collections"),
        permalink: Some("/blog/:year/:month/:title/"),
        ..Context::default()
    };
    let mkdocs = Context {
        translations: Some("suffix"),
        default_language: Some("en"),
        ..Context::default()
    };
    let mkdocs_folders = Context {
        translations: Some("folder"),
        ..mkdocs
    };
    let table: [SetupCase; 7] = [
        // The date's own day, the title's slug (apostrophe dropped, accents kept).
        (
            &HUGO,
            &hugo,
            "content/french",
            "posts/ete.md",
            "---\ntitle: L'Été à Paris\ndate: 2023-07-01T23:30:00-05:00\n---\n",
            &["fr/2023/07/lété-à-paris/index.html"],
        ),
        (
            &HUGO,
            &hugo,
            "content/english",
            "posts/a.md",
            "---\nslug: hello\ndate: 2024-01-02\n---\n",
            &["2024/01/hello/index.html"],
        ),
        (
            &HUGO,
            &hugo,
            "content/french",
            "about.md",
            NONE,
            &["fr/about/index.html"],
        ),
        (
            &JEKYLL,
            &jekyll,
            "my_collections",
            "_posts/2024-03-04-hi.md",
            NONE,
            &["blog/2024/03/hi/index.html"],
        ),
        (
            &MKDOCS,
            &mkdocs,
            "docs",
            "guide/index.fr.md",
            NONE,
            &["fr/guide/index.html"],
        ),
        (
            &MKDOCS,
            &mkdocs,
            "docs",
            "contact.en.md",
            NONE,
            &["contact/index.html"],
        ),
        (
            &MKDOCS,
            &mkdocs_folders,
            "docs",
            "fr/about.md",
            NONE,
            &["fr/about/index.html"],
        ),
    ];
    assert_setups(&table);
}

/// The same for Hexo's dated post names and Pelican's `*_SAVE_AS`.
#[test]
fn second_setups_of_blogs_route_by_their_configs() {
    let pelican = [
        (
            "article".to_string(),
            "posts/{date:%Y}/{date:%m}/{slug}/index.html".to_string(),
        ),
        ("page".to_string(), "{slug}/index.html".to_string()),
        (
            "article_lang".to_string(),
            "{lang}/posts/{date:%Y}/{slug}/index.html".to_string(),
        ),
    ];
    let hexo = Context {
        post_name: Some(":year-:month-:day-:title.md"),
        permalink: Some(":year/:month/:title/"),
        ..Context::default()
    };
    let pelican = Context {
        permalinks: &pelican,
        ..Context::default()
    };
    let table: [SetupCase; 4] = [
        (
            &HEXO,
            &hexo,
            "source",
            "_posts/2024-08-17-autumn.md",
            "---\ndate: 2024-08-17 12:00:00\n---\n",
            &["2024/08/autumn/index.html"],
        ),
        (
            &HEXO,
            &hexo,
            "source",
            "_posts/releases/2024-08-18-v2.md",
            "---\ndate: 2024-08-18 12:00:00\n---\n",
            &["2024/08/releases-2024-08-18-v2/index.html"],
        ),
        (
            &PELICAN,
            &pelican,
            "content",
            "2023-10-05-trains.md",
            "Title: Night Trains\n",
            &["posts/2023/10/night-trains/index.html"],
        ),
        (
            &PELICAN,
            &pelican,
            "content",
            "welcome-de.md",
            "Title: Willkommen\nSlug: welcome\nLang: de\nDate: 2023-07-01\n",
            &["de/posts/2023/welcome/index.html"],
        ),
    ];
    assert_setups(&table);
}

/// Checks each setup case: its source is built to exactly its outputs.
fn assert_setups(table: &[SetupCase]) {
    for &(generator, cx, dir, rel, fm_text, want) in table {
        let fm = front_matter::parse(fm_text, &[]);
        let source = Source {
            dir,
            rel: Path::new(rel),
            fm: &fm,
        };
        let got = (generator.route)(cx, source);
        assert_eq!(got, want, "{generator:?} {dir} {rel}");
    }
}

/// The flags a `package.json` script gives a command, in either form, and none for
/// another command's.
#[test]
fn script_flags_are_read_from_package_json() {
    let json = r#"{"scripts": {"build": "npx @11ty/eleventy --input=src --output dist",
        "lint": "eslint --input=nope"}}"#;
    let flag = |f| read::script_flag(json, "eleventy", f);
    assert_eq!(flag("--input").as_deref(), Some("src"));
    assert_eq!(flag("--output").as_deref(), Some("dist"));
    assert_eq!(read::script_flag(json, "eslint", "--output"), None);
    assert_eq!(read::script_flag("not json", "eleventy", "--input"), None);
}
