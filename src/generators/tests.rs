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
