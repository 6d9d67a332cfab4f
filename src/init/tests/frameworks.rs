//! `init` on the frameworks and book tools of the second round, and the `"source"` dates
//! it sets up.

use super::*;

/// The JavaScript frameworks added in the second round: each config's own place for
/// the output, the site URL and the base path.
#[test]
fn recognises_the_frameworks() {
    use crate::generators::*;
    assert_detected(&[
        (
            &[(
                "nuxt.config.ts",
                "export default defineNuxtConfig({\n  modules: ['@nuxtjs/sitemap'],\n  app: { head: { link: [{ rel: 'icon', url: 'x' }] } },\n  site: { url: 'https://n.example', name: 'N' },\n})\n",
            )],
            Some(&NUXT),
            Some("https://n.example/"),
            ".output/public",
        ),
        (
            &[(
                "nuxt.config.ts",
                "export default defineNuxtConfig({ app: { baseURL: '/docs/' }, site: { url: 'https://n.example' }, nitro: { output: { publicDir: 'dist/public' } } })",
            )],
            Some(&NUXT),
            Some("https://n.example/docs/"),
            "dist/public",
        ),
        (
            &[(
                "gatsby-config.js",
                "module.exports = {\n  siteMetadata: { title: 'G', siteUrl: `https://g.example` },\n  pathPrefix: '/blog',\n  plugins: ['gatsby-plugin-sitemap'],\n}\n",
            )],
            Some(&GATSBY),
            Some("https://g.example/blog/"),
            "public",
        ),
        (
            &[(
                "svelte.config.js",
                "import adapter from '@sveltejs/adapter-static';\nexport default { kit: { adapter: adapter({ pages: 'dist', assets: 'dist' }), paths: { base: '/app' }, prerender: { origin: 'https://s.example' } } };\n",
            )],
            Some(&SVELTEKIT),
            Some("https://s.example/app/"),
            "dist",
        ),
        (
            &[(
                "vite.config.ts",
                "import { sveltekit } from '@sveltejs/kit/vite';\nexport default defineConfig({ plugins: [sveltekit({ adapter: adapter({ pages: 'build' }) })] });\n",
            )],
            Some(&SVELTEKIT),
            None,
            "build",
        ),
        (
            &[(
                "vite.config.ts",
                "export default defineConfig({ plugins: [react()] })",
            )],
            None,
            None,
            "public",
        ),
        (
            &[(
                "docs/.vuepress/config.js",
                "import { sitemapPlugin } from '@vuepress/plugin-sitemap'\nexport default defineUserConfig({ base: '/guide/', plugins: [sitemapPlugin({ hostname: 'https://vp.example' })] })\n",
            )],
            Some(&VUEPRESS),
            Some("https://vp.example/guide/"),
            "docs/.vuepress/dist",
        ),
        (
            &[(
                "src/.vuepress/config.ts",
                "module.exports = { dest: 'public', plugins: [['sitemap', { hostname: 'https://vp1.example' }]] }\n",
            )],
            Some(&VUEPRESS),
            Some("https://vp1.example/"),
            "public",
        ),
    ]);
}

/// mdBook, Nikola, Quarto, Rspress and next-sitemap: TOML, Python and YAML configs, and
/// the config beside Next's.
#[test]
fn recognises_book_tools_and_next_sitemap() {
    use crate::generators::*;
    assert_detected(&[
        (
            &[(
                "book.toml",
                "[book]\ntitle = 'B'\n[build]\nbuild-dir = 'site'\n[output.html]\ncname = 'book.example'\nsite-url = '/guide/'\n",
            )],
            Some(&MDBOOK),
            Some("https://book.example/guide/"),
            "site",
        ),
        (
            &[("book.toml", "[book]\ntitle = 'B'\n")],
            Some(&MDBOOK),
            None,
            "book",
        ),
        (
            &[(
                "conf.py",
                "BLOG_TITLE = 'N'\nSITE_URL = 'https://nikola.example/'\nTRANSLATIONS = {'en': ''}\n",
            )],
            Some(&NIKOLA),
            Some("https://nikola.example/"),
            "output",
        ),
        (
            &[(
                "conf.py",
                "BLOG_TITLE = 'N'\nSITE_URL = 'https://nikola.example/'\nOUTPUT_FOLDER = 'public'\n",
            )],
            Some(&NIKOLA),
            Some("https://nikola.example/"),
            "public",
        ),
        (
            &[(
                "_quarto.yml",
                "project:\n  type: website\n  output-dir: docs\nwebsite:\n  title: Q\n  site-url: https://q.example/site\n",
            )],
            Some(&QUARTO),
            Some("https://q.example/site/"),
            "docs",
        ),
        (
            &[(
                "_quarto.yml",
                "project:\n  type: book\nbook:\n  site-url: https://qb.example\n",
            )],
            Some(&QUARTO),
            Some("https://qb.example/"),
            "_site",
        ),
        (
            &[(
                "rspress.config.ts",
                "export default defineConfig({ root: 'docs', base: '/r/', outDir: 'out' })",
            )],
            Some(&RSPRESS),
            None,
            "out",
        ),
        (
            &[
                (
                    "next.config.mjs",
                    "export default { output: 'export', basePath: '/app' }",
                ),
                (
                    "next-sitemap.config.js",
                    "module.exports = { siteUrl: process.env.SITE_URL || 'https://next.example', generateRobotsTxt: true }",
                ),
            ],
            Some(&NEXT),
            Some("https://next.example/app/"),
            "out",
        ),
    ]);
}

/// The `"source"` dates set up for every generator recognised: the content directory and
/// the posts' permalink from their configs; none when no generator is.
#[test]
fn source_dates_are_set_up_for_every_generator() {
    assert_source_setup(&[
        (
            &[(
                "hugo.toml",
                "baseURL = 'https://h.example/'\ncontentDir = 'pages'\n",
            )],
            Some(("hugo", &["pages"], None)),
        ),
        (
            &[("config.toml", "base_url = 'https://z.example'\n")],
            Some(("zola", &["content"], None)),
        ),
        (
            &[(
                "_config.yml",
                "url: https://j.example\ndefaults:\n  - scope: { path: '', type: posts }\n    values: { permalink: /blog/:year/:title/ }\n",
            )],
            Some(("jekyll", &["."], Some("/blog/:year/:title/"))),
        ),
        (
            &[(
                "_config.yml",
                "url: https://j.example\nsource: site\npermalink: pretty\n",
            )],
            Some(("jekyll", &["site"], Some("pretty"))),
        ),
        (
            &[(
                "_config.yml",
                "url: https://x.example\nnew_post_name: :title.md\npermalink: :year/:title/\n",
            )],
            Some(("hexo", &["source"], Some(":year/:title/"))),
        ),
        (
            &[(
                "eleventy.config.js",
                "export default { dir: { input: 'src' } }",
            )],
            Some(("eleventy", &["src"], None)),
        ),
        (
            &[(
                "mkdocs.yml",
                "site_url: https://m.example/\ndocs_dir: documentation\n",
            )],
            Some(("mkdocs", &["documentation"], None)),
        ),
        (
            &[(
                "docs/conf.py",
                "project = 'x'\nhtml_baseurl = 'https://s.example/'\n",
            )],
            Some(("sphinx", &["docs"], None)),
        ),
        (
            &[("conf.py", "project = 'x'\n")],
            Some(("sphinx", &["."], None)),
        ),
        (
            &[(
                "astro.config.mjs",
                "export default { site: 'https://a.example' }",
            )],
            Some(("astro", &["src/pages", "src/content"], None)),
        ),
    ]);
}

/// The JavaScript generators' `"source"` set-up: content folders from their configs.
#[test]
fn source_dates_are_set_up_for_the_javascript_generators() {
    assert_source_setup(&[
        (
            &[("nuxt.config.ts", "export default {}")],
            Some(("nuxt", &["app/pages", "pages", "content"], None)),
        ),
        (
            &[(
                "docs/.vitepress/config.mts",
                "export default { srcDir: 'src' }",
            )],
            Some(("vitepress", &["docs/src"], None)),
        ),
        (
            &[(
                "astro.config.mjs",
                "import starlight from '@astrojs/starlight'\nexport default { integrations: [starlight()] }",
            )],
            Some(("starlight", &["src/content/docs"], None)),
        ),
        (&[("README.md", "# x")], None),
    ]);
}

type SourceCase<'a> = (
    &'a [(&'a str, &'a str)],
    Option<(&'a str, &'a [&'a str], Option<&'a str>)>,
);

/// Checks each case: the generator, content folders and permalink `init` sets up for the
/// `"source"` dates, and that `source.generator` and `lastmod = ["source", "meta"]` are written
/// exactly when a generator is recognised.
fn assert_source_setup(table: &[SourceCase]) {
    for (files, want) in table {
        let found = detect_in(files);
        let got = found
            .generator
            .map(|g| (g.id, found.content.clone(), found.permalink.clone()));
        let want = want.map(|(g, c, p)| {
            (
                g,
                c.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                p.map(str::to_string),
            )
        });
        assert_eq!(got, want, "{files:?}");
        let rendered = render(&found);
        let source_first = rendered.contains("\nlastmod = [\"source\", \"meta\"]\n");
        assert_eq!(source_first, want.is_some(), "{rendered}");
        assert_eq!(
            rendered.contains("\nsource.generator = "),
            want.is_some(),
            "{rendered}"
        );
    }
}
