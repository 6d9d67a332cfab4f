//! Real builds of real generators (`tests/fixtures/<generator>/`, each the project as a
//! user has it after building, with the generator's own sitemap): `init` in a copy of
//! the project recognises it, and the sitemap that follows lists the generator's own
//! URLs, but for differences each named here with its reason. No silent drop.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{bin, copy_tree, locs, parse};

/// One generator's fixture and what is expected of it.
struct Fixture {
    /// The folder under tests/fixtures.
    dir: &'static str,
    /// What `init` says it wrote.
    init: &'static str,
    /// The built site, relative to the project.
    public_dir: &'static str,
    /// The generator's own sitemap (a urlset), relative to the built site.
    theirs: &'static str,
    /// URLs we list that the generator's sitemap does not, each with the reason.
    ours_only: Vec<(String, &'static str)>,
    /// URLs the generator's sitemap lists that we do not, each with the reason.
    theirs_only: Vec<(String, &'static str)>,
    /// What is done to each of the generator's URLs before comparing (see [`encoded`]).
    normalise: fn(&str) -> String,
}

/// A URL with its non-ASCII characters percent-encoded, as the protocol wants them:
/// Pelican's and sphinx-sitemap's sitemaps write them raw.
fn encoded(url: &str) -> String {
    let mut out = String::new();
    for c in url.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for b in c.to_string().bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// `base` + each of `paths`, with the reason they differ.
fn urls(base: &str, paths: &[&str], reason: &'static str) -> Vec<(String, &'static str)> {
    paths
        .iter()
        .map(|p| (format!("{base}{p}"), reason))
        .collect()
}

/// Copies the fixture, runs `init` and a build with `--check`, and compares the URLs.
fn run(fixture: &Fixture) {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(fixture.dir);
    copy_tree(&source, dir.path());
    let public = dir.path().join(fixture.public_dir);
    let theirs_xml = fs::read_to_string(public.join(fixture.theirs)).unwrap();
    let (_, theirs) = parse(&theirs_xml);
    let mut want: Vec<String> = theirs
        .into_iter()
        .map(|u| (fixture.normalise)(&u.loc))
        .filter(|u| !fixture.theirs_only.iter().any(|(t, _)| t == u))
        .collect();
    want.extend(fixture.ours_only.iter().map(|(u, _)| u.clone()));
    want.sort();
    want.dedup();

    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .success()
        .stderr(format!("{}\n", fixture.init));
    let out = bin()
        .current_dir(dir.path())
        .args(["--check", "-o"])
        .arg(dir.path().join("ours.xml"))
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("warning:"), "{}: {stderr}", fixture.dir);
    let mut ours = locs(&dir.path().join("ours.xml"));
    ours.sort();
    let missing: Vec<&String> = want.iter().filter(|u| !ours.contains(u)).collect();
    let extra: Vec<&String> = ours.iter().filter(|u| !want.contains(u)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: missing {missing:#?}\nextra {extra:#?}",
        fixture.dir
    );
}

/// Docusaurus 3, default config: canonicals without a trailing slash (and with one on
/// category indexes) are the pages themselves; the list is Docusaurus' own.
#[test]
fn docusaurus_default_build_lists_docusaurus_own_urls() {
    run(&Fixture {
        dir: "docusaurus",
        init: "wrote ./sitemap.toml for Docusaurus; base_url https://docusaurus.example.org/",
        public_dir: "build",
        theirs: "sitemap.xml",
        ours_only: Vec::new(),
        theirs_only: Vec::new(),
        normalise: encoded,
    });
}

/// Astro 5 with `base: '/docs'`: the home page's canonical `/docs` is the page itself.
#[test]
fn astro_with_a_base_lists_astros_own_urls() {
    run(&Fixture {
        dir: "astro",
        init: "wrote ./sitemap.toml for Astro; base_url https://astro.example.org/docs/",
        public_dir: "dist",
        theirs: "sitemap-0.xml",
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://astro.example.org/docs/",
            &["private/"],
            "noindex: @astrojs/sitemap does not read pages",
        ),
        normalise: encoded,
    });
}

/// Eleventy 3 with the base blog's sitemap template; the site URL comes from
/// `_data/metadata.js`.
#[test]
fn eleventy_lists_its_own_urls_and_the_pages_its_template_forgets() {
    run(&Fixture {
        dir: "eleventy",
        init: "wrote ./sitemap.toml for Eleventy; base_url https://eleventy.example.org/",
        public_dir: "_site",
        theirs: "sitemap.xml",
        ours_only: urls(
            "https://eleventy.example.org/",
            &[
                "blog/1/",
                "blog/2/",
                "tags/announcements/",
                "tags/release/",
                "tags/seo/",
                "tags/static-sites/",
                "tags/urls/",
                "tags/web/",
            ],
            "pagination and tag pages: not in collections.all",
        ),
        theirs_only: urls(
            "https://eleventy.example.org/",
            &["docs/guides/internal-notes/"],
            "noindex: the template lists collections.all",
        ),
        normalise: encoded,
    });
}

/// Hexo 8 with hexo-generator-sitemap: `init` writes the plugin's excludes (archives,
/// pagination) active.
#[test]
fn hexo_lists_its_own_urls_with_directory_urls_for_its_pages() {
    let hexo = "https://hexo.example.org/";
    // Hexo lists its pages by file (about/index.html) and its posts by directory
    // (2024/04/15/no-category/); every directory page is listed as its directory here.
    let pages = [
        "about/",
        "docs/",
        "docs/guide/",
        "docs/guide/advanced/",
        "docs/reference/",
    ];
    let files: Vec<String> = pages.iter().map(|p| format!("{p}index.html")).collect();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let mut theirs_only = urls(hexo, &files, "Hexo lists a page by its file name");
    theirs_only.extend(urls(
        hexo,
        &["docs/guide/advanced/internal.html"],
        "noindex: the plugin honours only `sitemap: false`",
    ));
    run(&Fixture {
        dir: "hexo",
        init: "wrote ./sitemap.toml for Hexo; base_url https://hexo.example.org/",
        public_dir: "public",
        theirs: "sitemap.xml",
        ours_only: urls(hexo, &pages, "a directory page, listed as its directory"),
        theirs_only,
        normalise: encoded,
    });
}

/// Pelican 4 with pelican-sitemap: the site URL from `publishconf.py`, drafts excluded.
#[test]
fn pelican_lists_its_own_urls() {
    run(&Fixture {
        dir: "pelican",
        init: "wrote ./sitemap.toml for Pelican; base_url https://pelican.example.org/",
        public_dir: "output",
        theirs: "sitemap.xml",
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://pelican.example.org/",
            &["pages/private-notes.html"],
            "noindex: the plugin does not read pages",
        ),
        normalise: encoded,
    });
}

/// Sphinx 8 with sphinx-sitemap and `html_baseurl`: every page's canonical names the
/// page itself as `x/index.html` or `x.html`, and is listed so. sphinx-sitemap's default
/// `{lang}{version}{link}` scheme puts `en/` before every URL the site does not have.
#[test]
fn sphinx_lists_its_own_urls_under_their_canonical_form() {
    run(&Fixture {
        dir: "sphinx",
        init: "wrote ./sitemap.toml for Sphinx; base_url https://sphinx.example.org/",
        public_dir: "_build/html",
        theirs: "sitemap.xml",
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://sphinx.example.org/",
            &["genindex.html", "py-modindex.html", "search.html"],
            "Sphinx's generated index and search pages: excluded by init",
        )
        .into_iter()
        .chain(urls(
            "https://sphinx.example.org/",
            &["404.html"],
            "an error page",
        ))
        .chain(urls(
            "https://sphinx.example.org/",
            &["private.html"],
            "noindex: sphinx-sitemap does not read pages",
        ))
        .collect(),
        normalise: |url| {
            encoded(&url.replacen(
                "https://sphinx.example.org/en/",
                "https://sphinx.example.org/",
                1,
            ))
        },
    });
}

/// MkDocs 1.6 with Material (canonicals with a trailing slash) and its blog plugin.
#[test]
fn mkdocs_lists_its_own_urls() {
    run(&Fixture {
        dir: "mkdocs",
        init: "wrote ./sitemap.toml for MkDocs; base_url https://mkdocs.example.org/",
        public_dir: "site",
        theirs: "sitemap.xml",
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://mkdocs.example.org/",
            &["guide/advanced/internal-notes/"],
            "noindex: MkDocs does not read pages",
        ),
        normalise: encoded,
    });
}

/// VitePress 1 (source in `docs/`, output in `docs/.vitepress/dist`, no canonicals): the
/// base URL from `sitemap.hostname`.
#[test]
fn vitepress_lists_its_own_urls() {
    run(&Fixture {
        dir: "vitepress",
        init: "wrote ./sitemap.toml for VitePress; base_url https://vitepress.example.org/",
        public_dir: "docs/.vitepress/dist",
        theirs: "sitemap.xml",
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://vitepress.example.org/",
            &["private.html"],
            "noindex: VitePress does not read pages",
        ),
        normalise: encoded,
    });
}

/// `init` tells Hexo's `_config.yml` from Jekyll's.
#[test]
fn init_does_not_take_hexo_for_jekyll() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("_config.yml"),
        "title: Hexo\nurl: https://hexo.example.org\nroot: /\npublic_dir: public\nnew_post_name: :title.md\n",
    )
    .unwrap();
    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .success()
        .stderr(predicate::str::contains("for Hexo"));
    let config = fs::read_to_string(dir.path().join("sitemap.toml")).unwrap();
    assert!(config.contains("public_dir = \"public\""), "{config}");
}

/// `check` on the generators' own sitemaps: those that follow the protocol pass with
/// `--strict`; Pelican's and sphinx-sitemap's write a non-ASCII URL unencoded, which the
/// protocol (RFC 3986) does not allow, and that is the one error each.
#[test]
fn check_passes_the_generators_own_sitemaps_and_finds_their_one_real_error() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let clean = [
        "docusaurus/build/sitemap.xml",
        "astro/dist/sitemap-index.xml",
        "eleventy/_site/sitemap.xml",
        "hexo/public/sitemap.xml",
        "hexo/public/sitemap.txt",
        "mkdocs/site/sitemap.xml",
        "mkdocs/site/sitemap.xml.gz",
        "vitepress/docs/.vitepress/dist/sitemap.xml",
        "hugo/public",
    ];
    for path in clean {
        bin()
            .current_dir(&fixtures)
            .args(["check", "--strict", path])
            .assert()
            .success()
            .stdout("");
    }
    for (path, line) in [
        (
            "pelican/output/sitemap.xml",
            "pelican/output/sitemap.xml:302: error: URL holds non-ASCII 'ü', which must be percent-encoded: https://pelican.example.org/über-café.html\n",
        ),
        (
            "sphinx/_build/html/sitemap.xml",
            "sphinx/_build/html/sitemap.xml:2: error: URL holds non-ASCII 'ü', which must be percent-encoded: https://sphinx.example.org/en/über-café.html\n",
        ),
    ] {
        bin()
            .current_dir(&fixtures)
            .args(["check", path])
            .assert()
            .code(1)
            .stdout(line);
    }
}
