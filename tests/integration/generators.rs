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
        .map(|u| u.loc)
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
