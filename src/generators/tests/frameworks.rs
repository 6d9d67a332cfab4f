//! The generators routed since the one list: application frameworks, documentation
//! generators, translations and slugs, and routes a project declares.

use std::path::Path;

use super::super::*;
use super::{NONE, assert_routes};
use crate::lastmod::source::front_matter;

/// Application frameworks: route files, route groups, dynamic routes that build none of
/// their own, Nuxt Content's slugs, Gatsby's Markdown by its slug.
#[test]
fn app_frameworks() {
    assert_routes(&[
        (
            &NEXT,
            "app",
            "(marketing)/about/page.tsx",
            NONE,
            None,
            &["about.html", "about/index.html"],
        ),
        (&NEXT, "app", "page.tsx", NONE, None, &["index.html"]),
        (&NEXT, "app", "blog/[slug]/page.tsx", NONE, None, &[]),
        (&NEXT, "app", "blog/layout.tsx", NONE, None, &[]),
        (
            &NEXT,
            "pages",
            "legacy/index.tsx",
            NONE,
            None,
            &["legacy.html", "legacy/index.html"],
        ),
        (&NEXT, "pages", "_app.tsx", NONE, None, &[]),
        (&NEXT, "pages", "api/x.ts", NONE, None, &[]),
        (
            &SVELTEKIT,
            "src/routes",
            "(marketing)/about/+page.svelte",
            NONE,
            None,
            &["about.html", "about/index.html"],
        ),
        (
            &SVELTEKIT,
            "src/routes",
            "+page.svelte",
            NONE,
            None,
            &["index.html"],
        ),
        (
            &SVELTEKIT,
            "src/routes",
            "blog/[slug]/+page.svelte",
            NONE,
            None,
            &[],
        ),
        (&SVELTEKIT, "src/routes", "+layout.svelte", NONE, None, &[]),
        (
            &NUXT,
            "app/pages",
            "docs/index.vue",
            NONE,
            None,
            &["docs/index.html"],
        ),
        (&NUXT, "app/pages", "blog/[slug].vue", NONE, None, &[]),
        (
            &NUXT,
            "content",
            "docs/1.Über Café.md",
            NONE,
            None,
            &["docs/uber-cafe/index.html"],
        ),
        (
            &NUXT,
            "content",
            "docs/x.md",
            "---\npath: /docs/changelog\n---\n",
            None,
            &["docs/changelog/index.html"],
        ),
        (
            &GATSBY,
            "src/pages",
            "über-café.js",
            NONE,
            None,
            &["über-café/index.html"],
        ),
        (
            &GATSBY,
            "src/pages",
            "{MarkdownRemark.slug}.js",
            NONE,
            None,
            &[],
        ),
        (
            &GATSBY,
            "content",
            "blog/x.md",
            "---\nslug: /news/x/\n---\n",
            None,
            &["news/x/index.html"],
        ),
    ]);
}

/// Documentation generators: index files, permalinks, hidden files, Starlight's slugs.
#[test]
fn docs_generators() {
    assert_routes(&[
        (
            &MDBOOK,
            "src",
            "guide/README.md",
            NONE,
            None,
            &["guide/index.html"],
        ),
        (&MDBOOK, "src", "SUMMARY.md", NONE, None, &[]),
        (
            &VUEPRESS,
            "docs",
            "zh/guide/x.md",
            NONE,
            None,
            &["zh/guide/x.html"],
        ),
        (
            &VUEPRESS,
            "docs",
            "a.md",
            "---\npermalink: /api/v1/\n---\n",
            None,
            &["api/v1/index.html"],
        ),
        (
            &VITEPRESS,
            "docs",
            "guide/index.md",
            NONE,
            None,
            &["guide/index.html"],
        ),
        (&RSPRESS, "docs", "guide/_meta.md", NONE, None, &[]),
        (
            &QUARTO,
            ".",
            "posts/a/index.qmd",
            NONE,
            None,
            &["posts/a/index.html"],
        ),
        (&QUARTO, ".", "_site/x.qmd", NONE, None, &[]),
        (
            &STARLIGHT,
            "src/content/docs",
            "fr/Guides/FAQ.md",
            NONE,
            None,
            &["fr/guides/faq/index.html"],
        ),
        (
            &STARLIGHT,
            "src/content/docs",
            "x.md",
            "---\nslug: custom/path\n---\n",
            None,
            &["custom/path/index.html"],
        ),
    ]);
}

/// Translations and slugs: Nikola's posts and pages, translation files under their
/// language's folder (the default language's at the root), a translation's own path.
#[test]
fn translations_and_slugs() {
    assert_routes(&[
        (
            &NIKOLA,
            "posts",
            "tokyo-trip.rst",
            ".. slug: tokyo-2023\n",
            None,
            &["posts/tokyo-2023/index.html"],
        ),
        (
            &NIKOLA,
            "pages",
            "café-menü.rst",
            NONE,
            None,
            &["pages/cafe-menu/index.html", "pages/café-menü/index.html"],
        ),
        (
            &NIKOLA,
            "pages",
            "about.de.rst",
            ".. slug: ueber-uns\n",
            None,
            &["de/pages/ueber-uns/index.html"],
        ),
        (
            &HUGO,
            "content",
            "about.de.md",
            NONE,
            None,
            &["de/about/index.html"],
        ),
        (
            &HUGO,
            "content",
            "about.en.md",
            NONE,
            None,
            &["about/index.html"],
        ),
        (
            &ZOLA,
            "content",
            "blog/post.fr.md",
            NONE,
            None,
            &["fr/blog/post/index.html"],
        ),
        (
            &ZOLA,
            "content",
            "landing.fr.md",
            "+++\npath = \"fr/page-speciale\"\n+++\n",
            None,
            &["fr/page-speciale/index.html"],
        ),
    ]);
}

/// What a project declares in its files routes its sources: an Astro collection served
/// by a dynamic route at the root, a Jekyll collection by its permalink and pages under
/// a site-wide `pretty`.
#[test]
fn declared_routes_move_collections() {
    let route = |g: &Generator, served: &[(&str, &str)], dir: &str, rel: &str, fm: &str| {
        let served: Vec<(String, String)> = served
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let cx = Context {
            served: &served,
            ..Context::default()
        };
        let fm = front_matter::parse(fm, &[]);
        let source = Source {
            dir,
            rel: Path::new(rel),
            fm: &fm,
        };
        (g.route)(&cx, source)
    };
    let astro = [("blog", "")];
    assert_eq!(
        route(&ASTRO, &astro, "src/content", "blog/Big-News.md", NONE),
        ["Big-News/index.html", "big-news/index.html"]
    );
    assert_eq!(
        route(&ASTRO, &[], "src/content", "blog/x.md", NONE),
        ["blog/x/index.html"]
    );
    let jekyll = [
        ("_docs", "/docs/:path/"),
        ("_recipes", "/:collection/:name/"),
        ("", "pretty"),
    ];
    assert_eq!(
        route(&JEKYLL, &jekyll, ".", "_docs/guide/index.md", NONE),
        ["docs/guide/index/index.html"]
    );
    assert_eq!(
        route(
            &JEKYLL,
            &jekyll,
            ".",
            "_recipes/desserts/Crème Brûlée.md",
            NONE
        ),
        ["recipes/crème-brûlée/index.html"]
    );
    assert_eq!(
        route(&JEKYLL, &jekyll, ".", "_drafts/x.md", NONE),
        Vec::<String>::new()
    );
    assert_eq!(
        route(&JEKYLL, &jekyll, ".", "about.md", NONE),
        ["about/index.html"]
    );
    assert_eq!(route(&JEKYLL, &[], ".", "about.md", NONE), ["about.html"]);
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "[...slug].astro",
        "const posts = await getCollection('blog');\nreturn posts.map((post) => ({ params: { slug: post.id } }));",
    );
    write(
        "notes/[id].astro",
        "getCollection(\"notes\") ... params: { id: note.id },",
    );
    write(
        "tags/[tag].astro",
        "getCollection('blog') ... params: { tag },",
    );
    let mut served = astro::served_by_dynamic_routes(dir.path(), "getCollection(");
    served.sort();
    assert_eq!(
        served,
        [
            ("blog".to_string(), String::new()),
            ("notes".to_string(), "notes".to_string())
        ]
    );
}
