//! The outputs each generator's default setup builds a source to.

use super::*;

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
