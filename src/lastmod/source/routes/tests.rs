//! Each generator's routing: sections and bundles, URL overrides, dated posts by their
//! permalink, number prefixes, slugs, and what builds no page.

use std::path::Path;

use super::super::Routing::{self, *};
use super::super::front_matter;
use super::{Context, Source, outputs};

type Case<'a> = (
    Routing,
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
        let mut got = outputs(
            Context {
                routing: *routing,
                permalink: *permalink,
            },
            source,
        );
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
        (Hugo, "content", "_index.md", NONE, None, &["index.html"]),
        (
            Hugo,
            "content",
            "docs/_index.md",
            NONE,
            None,
            &["docs/index.html"],
        ),
        (
            Hugo,
            "content",
            "docs/install/index.md",
            NONE,
            None,
            &["docs/install/index.html"],
        ),
        (
            Hugo,
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
            Hugo,
            "content",
            "posts/tokyo.md",
            "+++\nslug = 'tokyo-2023'\n+++\n",
            None,
            &["posts/tokyo-2023/index.html"],
        ),
        (
            Hugo,
            "content",
            "landing.md",
            "+++\nurl = '/custom/path/'\n+++\n",
            None,
            &["custom/path/index.html"],
        ),
        (
            Hugo,
            "content",
            "über-café.md",
            NONE,
            None,
            &["über-café/index.html"],
        ),
        (
            Zola,
            "content",
            "blog/2024-01-10-first.md",
            NONE,
            None,
            &["blog/first/index.html"],
        ),
        (
            Zola,
            "content",
            "über-café.md",
            NONE,
            None,
            &["uber-cafe/index.html", "über-café/index.html"],
        ),
        (
            Zola,
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
            Jekyll,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            None,
            &["2023/02/20/hello.html"],
        ),
        (
            Jekyll,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            Some("pretty"),
            &["2023/02/20/hello/index.html"],
        ),
        (
            Jekyll,
            ".",
            "_posts/2023-02-20-hello.md",
            NONE,
            Some("/blog/:year/:month/:day/:title/"),
            &["blog/2023/02/20/hello/index.html"],
        ),
        (
            Jekyll,
            ".",
            "_posts/2023-02-20-hello.md",
            "---\ndate: 2023-02-21 01:00:00 +0000\n---\n",
            Some("/:year/:i_month/:i_day/:title:output_ext"),
            &["2023/2/21/hello.html"],
        ),
        (
            Jekyll,
            ".",
            "_posts/2023-07-19-summer.md",
            "---\npermalink: /releases/summer-2023/\n---\n",
            None,
            &["releases/summer-2023/index.html"],
        ),
        (
            Jekyll,
            ".",
            "docs/index.md",
            NONE,
            None,
            &["docs/index.html"],
        ),
        (Jekyll, ".", "about.md", NONE, None, &["about.html"]),
        (Jekyll, ".", "_layouts/default.html", NONE, None, &[]),
        (Jekyll, ".", "_posts/notes.md", NONE, None, &[]),
        (
            Hexo,
            "source",
            "_posts/hello.md",
            "---\ndate: 2023-02-01 09:00:00\n---\n",
            None,
            &["2023/02/01/hello/index.html"],
        ),
        (
            Hexo,
            "source",
            "_posts/hello.md",
            "---\ndate: 2023-02-01\n---\n",
            Some(":year/:title.html"),
            &["2023/hello.html"],
        ),
        (Hexo, "source", "_posts/hello.md", NONE, None, &[]),
        (
            Hexo,
            "source",
            "about/index.md",
            NONE,
            None,
            &["about/index.html"],
        ),
        (Hexo, "source", "contact.md", NONE, None, &["contact.html"]),
    ]);
}

#[test]
fn eleventy_and_astro() {
    assert_routes(&[
        (
            Eleventy,
            "src",
            "blog/post.md",
            NONE,
            None,
            &["blog/post/index.html"],
        ),
        (Eleventy, "src", "index.md", NONE, None, &["index.html"]),
        (
            Eleventy,
            "src",
            "old.md",
            "---\npermalink: /new.html\n---\n",
            None,
            &["new.html"],
        ),
        (Eleventy, "src", "_includes/base.njk", NONE, None, &[]),
        (
            Astro,
            "src/pages",
            "about.astro",
            NONE,
            None,
            &["about/index.html"],
        ),
        (Astro, "src/pages", "blog/[...slug].astro", NONE, None, &[]),
        (
            Astro,
            "src/content",
            "blog/Hello World.md",
            NONE,
            None,
            &["blog/Hello World/index.html", "blog/hello-world/index.html"],
        ),
        (
            Astro,
            "src/content",
            "blog/notes.md",
            "---\nslug: news/release-2023\n---\n",
            None,
            &["blog/news/release-2023/index.html"],
        ),
        (
            Astro,
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
            Docusaurus,
            "docs",
            "01-intro.md",
            NONE,
            None,
            &["docs/intro/index.html"],
        ),
        (
            Docusaurus,
            "docs",
            "02-guides/index.md",
            NONE,
            None,
            &["docs/guides/index.html"],
        ),
        (
            Docusaurus,
            "docs",
            "guides/guides.md",
            NONE,
            None,
            &["docs/guides/index.html"],
        ),
        (
            Docusaurus,
            "docs",
            "guides/x.md",
            "---\nid: why\n---\n",
            None,
            &["docs/guides/why/index.html"],
        ),
        (
            Docusaurus,
            "docs",
            "guides/x.md",
            "---\nslug: /start\n---\n",
            None,
            &["docs/start/index.html"],
        ),
        (
            Docusaurus,
            "blog",
            "2024-01-10-welcome.md",
            NONE,
            None,
            &["blog/2024/01/10/welcome/index.html"],
        ),
        (
            Docusaurus,
            "blog",
            "2024-01-10-welcome/index.md",
            NONE,
            None,
            &["blog/2024/01/10/welcome/index.html"],
        ),
        (
            Docusaurus,
            "src/pages",
            "about.md",
            NONE,
            None,
            &["about/index.html"],
        ),
        (Docusaurus, "docs", "_partial.md", NONE, None, &[]),
        (
            Docusaurus,
            "blog",
            "welcome.md",
            "---\nslug: hello\n---\n",
            None,
            &["blog/hello/index.html"],
        ),
        (
            Docusaurus,
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
        (MkDocs, "docs", "index.md", NONE, None, &["index.html"]),
        (
            MkDocs,
            "docs",
            "guide/install.md",
            NONE,
            None,
            &["guide/install/index.html"],
        ),
        (
            MkDocs,
            "docs",
            "blog/posts/r.md",
            "---\ndate:\n  created: 2024-08-01\n---\n# Release notes 1.0\n",
            None,
            &["blog/2024/08/01/release-notes-10/index.html"],
        ),
        (
            MkDocs,
            "docs",
            "blog/posts/c.md",
            "---\ndate: 2024-09-28\nslug: faster-builds\n---\n",
            None,
            &["blog/2024/09/28/faster-builds/index.html"],
        ),
        (
            MkDocs,
            "docs",
            "blog/posts/u.md",
            "---\ndate: 2024-09-28\ntitle: Über Café\n---\n",
            None,
            &["blog/2024/09/28/uber-cafe/index.html"],
        ),
        (
            Sphinx,
            ".",
            "guide/index.rst",
            NONE,
            None,
            &["guide/index.html"],
        ),
        (
            Sphinx,
            ".",
            "über-café.rst",
            NONE,
            None,
            &["über-café.html"],
        ),
    ]);
}
