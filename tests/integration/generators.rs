//! Real builds of real generators (`tests/fixtures/<generator>/`, each the project as a
//! user has it after building, with the generator's own sitemap): `init` in a copy of
//! the project recognises it, and the sitemap that follows lists the generator's own
//! URLs, but for differences each named here with its reason. No silent drop.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{bin, copy_tree, locs, parse};

/// One generator's fixture and what is expected of it.
pub struct Fixture {
    /// The folder under tests/fixtures.
    pub dir: &'static str,
    /// The folder in it that holds the generator's project, when not the fixture itself
    /// (`source/` of the Hugo and Jekyll fixtures, whose output sits beside it).
    pub project: Option<&'static str>,
    /// Everything `init` prints: what it wrote, then its hints.
    pub init: &'static str,
    /// The built site, relative to the fixture.
    pub public_dir: &'static str,
    /// The generator's own list of URLs.
    pub theirs: Theirs,
    /// URLs we list that the generator's sitemap does not, each with the reason.
    pub ours_only: Vec<(String, &'static str)>,
    /// URLs the generator's sitemap lists that we do not, each with the reason.
    pub theirs_only: Vec<(String, &'static str)>,
    /// What is done to each of the generator's URLs before comparing (see [`encoded`]).
    pub normalise: fn(&str) -> String,
    /// Pages whose canonical names them in another form than the URL the host serves:
    /// each is listed at the URL served with a warning, the build's only warnings.
    pub other_form_canonicals: usize,
}

/// Where a fixture's generator lists its URLs.
pub enum Theirs {
    /// Its sitemaps (urlsets), relative to the built site.
    Sitemaps(&'static [&'static str]),
    /// A file of URL paths (one per line, after the base URL), relative to the fixture,
    /// for a generator that writes no sitemap.
    Paths(&'static str, &'static str),
}

impl Default for Fixture {
    fn default() -> Fixture {
        Fixture {
            dir: "",
            project: None,
            init: "",
            public_dir: "",
            theirs: Theirs::Sitemaps(&["sitemap.xml"]),
            ours_only: Vec::new(),
            theirs_only: Vec::new(),
            normalise: encoded,
            other_form_canonicals: 0,
        }
    }
}

/// A URL with its non-ASCII characters percent-encoded, as the protocol wants them:
/// Pelican's and sphinx-sitemap's sitemaps write them raw.
pub fn encoded(url: &str) -> String {
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
pub fn urls(base: &str, paths: &[&str], reason: &'static str) -> Vec<(String, &'static str)> {
    paths
        .iter()
        .map(|p| (format!("{base}{p}"), reason))
        .collect()
}

/// The generator's URLs, normalised, less those it alone lists, with those we alone list.
fn wanted(fixture: &Fixture, root: &Path, public: &Path) -> Vec<String> {
    let theirs: Vec<String> = match &fixture.theirs {
        Theirs::Sitemaps(files) => files
            .iter()
            .flat_map(|f| parse(&fs::read_to_string(public.join(f)).unwrap()).1)
            .map(|u| u.loc)
            .collect(),
        Theirs::Paths(file, base) => fs::read_to_string(root.join(file))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{base}{}", l.trim().trim_start_matches('/')))
            .collect(),
    };
    let theirs: Vec<String> = theirs.iter().map(|u| (fixture.normalise)(u)).collect();
    // A named difference that is no longer one is stale: it would hide nothing, or the
    // same URL turning up on both sides.
    for (url, why) in &fixture.theirs_only {
        assert!(
            theirs.contains(url),
            "{}: {url} ({why}) is not in theirs",
            fixture.dir
        );
    }
    for (url, why) in &fixture.ours_only {
        assert!(
            !theirs.contains(url),
            "{}: {url} ({why}) is in theirs",
            fixture.dir
        );
    }
    let mut want: Vec<String> = theirs
        .into_iter()
        .filter(|u| !fixture.theirs_only.iter().any(|(t, _)| t == u))
        .collect();
    want.extend(fixture.ours_only.iter().map(|(u, _)| u.clone()));
    want.sort();
    want.dedup();
    want
}

/// Copies the fixture, runs `init` and a build with `--check`, and compares the URLs;
/// every language alternate written names a page we list or another host's page.
pub fn run(fixture: &Fixture) {
    if !crate::tools::GIT.present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(fixture.dir);
    copy_tree(&source, dir.path());
    if let Some(project) = fixture.project {
        copy_tree(&source.join(project), dir.path());
    }
    commit_all(dir.path());
    let public = dir.path().join(fixture.public_dir);
    let want = wanted(fixture, dir.path(), &public);

    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .success()
        .stderr(format!("{}\n", fixture.init));
    let out = bin()
        .current_dir(dir.path())
        // -v: every warning, not 20 of a kind.
        .args(["--check", "-v", "-o"])
        .arg(dir.path().join("ours.xml"))
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let warnings: Vec<&str> = (stderr.lines())
        .filter(|l| l.starts_with("warning:"))
        .collect();
    let other_form = "; listed as https://";
    assert!(
        warnings.len() == fixture.other_form_canonicals
            && warnings.iter().all(|w| w.contains(other_form)),
        "{}: {stderr}",
        fixture.dir
    );
    let mut ours = locs(&dir.path().join("ours.xml"));
    ours.sort();
    let missing: Vec<&String> = want.iter().filter(|u| !ours.contains(u)).collect();
    let extra: Vec<&String> = ours.iter().filter(|u| !want.contains(u)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: missing {missing:#?}\nextra {extra:#?}",
        fixture.dir
    );
    let xml = fs::read_to_string(dir.path().join("ours.xml")).unwrap();
    let host = |u: &str| u.split('/').nth(2).map(str::to_string);
    for href in alternate_hrefs(&xml) {
        let elsewhere = host(&href) != host(&ours[0]);
        // The pages' own hrefs, in the generator's form (as its sitemap's URLs).
        assert!(
            elsewhere || ours.contains(&(fixture.normalise)(&href)),
            "{}: alternate {href} is not a page of the sitemap",
            fixture.dir
        );
    }
}

/// Commits everything in `dir` to a new repository, as a project is kept: `init` sets
/// up dates from the pages' sources, which read their history.
pub fn commit_all(dir: &Path) {
    for args in [
        &["init", "-q", "-b", "main"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "commit",
            "-qm",
            "fixture",
        ],
    ] {
        let status = std::process::Command::new("git")
            .current_dir(dir)
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?} in {}", dir.display());
    }
}

/// The `href` of every `<xhtml:link>` in a sitemap.
fn alternate_hrefs(xml: &str) -> Vec<String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut hrefs = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Empty(e) if e.local_name().into_inner() == "link" => {
                for attr in e.attributes().flatten() {
                    if attr.key.as_ref() == "href" {
                        let value = quick_xml::escape::unescape(&attr.value).unwrap();
                        hrefs.push(value.into_owned());
                    }
                }
            }
            quick_xml::events::Event::Eof => return hrefs,
            _ => {}
        }
    }
}

/// Docusaurus 3, default config (`trailingSlash` unset): `about/index.html` says its
/// canonical is `/about`, and Docusaurus' sitemap lists that form, which static hosts
/// answer with a redirect to `/about/` (Netlify, Cloudflare Pages, GitHub Pages,
/// Firebase). We list the URL served, `/about/`, with a warning for each such page (38);
/// the category indexes' canonicals (`/docs/guides/`) are the URL served. The list is
/// otherwise Docusaurus' own: compared with a slash after each of its URLs.
#[test]
fn docusaurus_default_build_lists_the_urls_served() {
    run(&Fixture {
        dir: "docusaurus",
        init: "wrote ./sitemap.toml for Docusaurus; base_url https://docusaurus.example.org/",
        public_dir: "build",
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
        ours_only: Vec::new(),
        theirs_only: Vec::new(),
        normalise: |url| match url.ends_with('/') {
            true => encoded(url),
            false => encoded(&format!("{url}/")),
        },
        other_form_canonicals: 38,
        ..Fixture::default()
    });
}

/// Astro 5 with `base: '/docs'`: the home page's canonical `/docs` is the page itself,
/// in a form hosts redirect to `/docs/`: listed as `/docs/` (as Astro lists it), with a
/// warning.
#[test]
fn astro_with_a_base_lists_astros_own_urls() {
    run(&Fixture {
        other_form_canonicals: 1,
        dir: "astro",
        init: "wrote ./sitemap.toml for Astro; base_url https://astro.example.org/docs/",
        public_dir: "dist",
        theirs: Theirs::Sitemaps(&["sitemap-0.xml"]),
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://astro.example.org/docs/",
            &["private/"],
            "noindex: @astrojs/sitemap does not read pages",
        ),
        ..Fixture::default()
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
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
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
        ..Fixture::default()
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
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
        ours_only: urls(hexo, &pages, "a directory page, listed as its directory"),
        theirs_only,
        ..Fixture::default()
    });
}

/// Pelican 4 with pelican-sitemap: the site URL from `publishconf.py`, drafts excluded.
#[test]
fn pelican_lists_its_own_urls() {
    run(&Fixture {
        dir: "pelican",
        init: "wrote ./sitemap.toml for Pelican; base_url https://pelican.example.org/",
        public_dir: "output",
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://pelican.example.org/",
            &["pages/private-notes.html"],
            "noindex: the plugin does not read pages",
        ),
        ..Fixture::default()
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
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
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
        ..Fixture::default()
    });
}

/// MkDocs 1.6 with Material (canonicals with a trailing slash) and its blog plugin.
#[test]
fn mkdocs_lists_its_own_urls() {
    run(&Fixture {
        dir: "mkdocs",
        init: "wrote ./sitemap.toml for MkDocs; base_url https://mkdocs.example.org/",
        public_dir: "site",
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://mkdocs.example.org/",
            &["guide/advanced/internal-notes/"],
            "noindex: MkDocs does not read pages",
        ),
        ..Fixture::default()
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
        theirs: Theirs::Sitemaps(&["sitemap.xml"]),
        ours_only: Vec::new(),
        theirs_only: urls(
            "https://vitepress.example.org/",
            &["private.html"],
            "noindex: VitePress does not read pages",
        ),
        ..Fixture::default()
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
/// `--strict`; Pelican's, sphinx-sitemap's, next-sitemap's and Rspress' write a
/// non-ASCII URL unencoded, which the protocol (RFC 3986) does not allow, and that is
/// the one error each. Nikola's index lists its feeds, which are checked as feeds: no
/// error, and no warning but the 2038 date of its reproducible build.
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
        "hugo-i18n/public",
        "jekyll-collections/_site/sitemap.xml",
        "nuxt/.output/public/sitemap.xml",
        "gatsby/public/sitemap-index.xml",
        "sveltekit/build/sitemap.xml",
        "starlight/dist/sitemap-index.xml",
        "vuepress/docs/.vuepress/dist/sitemap.xml",
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
        (
            "next/out/sitemap.xml",
            "next/out/sitemap-0.xml:25: error: URL holds non-ASCII 'ü', which must be percent-encoded: https://next.example.org/über-café\n",
        ),
        (
            "rspress/doc_build/sitemap.xml",
            "rspress/doc_build/sitemap.xml:1: error: URL holds non-ASCII 'ü', which must be percent-encoded: https://rspress.example.org/guide/start/über-café\n",
        ),
    ] {
        bin()
            .current_dir(&fixtures)
            .args(["check", path])
            .assert()
            .code(1)
            .stdout(line);
    }
    let out = bin()
        .current_dir(&fixtures)
        .args(["check", "nikola/output/sitemapindex.xml"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 67, "{stdout}");
    for line in stdout.lines() {
        assert!(
            line.ends_with("warning: lastmod 2038-01-01 is in the future"),
            "{line}"
        );
    }
}
