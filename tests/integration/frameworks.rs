//! The frameworks and generators of the second round, each a real build under
//! `tests/fixtures/` (see [`crate::generators`] for what is checked): Next.js with
//! next-sitemap, Nuxt, SvelteKit, Gatsby, Starlight, VuePress, Rspress, Nikola, mdBook,
//! Zola, and Hugo and Jekyll with languages, collections and pagination.

use crate::generators::{Fixture, Theirs, encoded, run, urls};

const NOINDEX: &str = "noindex: the generator's sitemap does not read pages";

/// Next.js 16 static export with next-sitemap: `about.html` for `/about`; the home page
/// is written without its slash.
#[test]
fn next_export_lists_next_sitemaps_urls() {
    let base = "https://next.example.org/";
    run(&Fixture {
        dir: "next",
        init: "wrote ./sitemap.toml for Next.js (static export); base_url https://next.example.org/",
        public_dir: "out",
        theirs: Theirs::Sitemaps(&["sitemap-0.xml"]),
        theirs_only: [
            urls(
                base,
                &["blog/feed.xml"],
                "a feed (a route handler), not a page",
            ),
            urls(base, &["private"], NOINDEX),
        ]
        .concat(),
        normalise: |u| {
            encoded(if u == "https://next.example.org" {
                "https://next.example.org/"
            } else {
                u
            })
        },
        ..Fixture::default()
    });
}

/// The same site with `trailingSlash: true`: `about/index.html` for `/about/`.
#[test]
fn next_export_with_trailing_slashes_lists_next_sitemaps_urls() {
    let base = "https://next-trailing.example.org/";
    run(&Fixture {
        dir: "next-trailing",
        init: "wrote ./sitemap.toml for Next.js (static export); base_url https://next-trailing.example.org/",
        public_dir: "out",
        theirs: Theirs::Sitemaps(&["sitemap-0.xml"]),
        theirs_only: [
            urls(
                base,
                &["blog/feed.xml/"],
                "a feed (a route handler), not a page",
            ),
            urls(base, &["private/"], NOINDEX),
        ]
        .concat(),
        ..Fixture::default()
    });
}

/// Nuxt 4 `nuxt generate` with @nuxtjs/sitemap: `about/index.html` listed as `/about`,
/// the SPA fallback `200.html` left out.
#[test]
fn nuxt_generate_lists_the_sitemap_modules_urls() {
    run(&Fixture {
        dir: "nuxt",
        init: "wrote ./sitemap.toml for Nuxt; base_url https://nuxt.example.org/",
        public_dir: ".output/public",
        theirs_only: urls(
            "https://nuxt.example.org/",
            &["%25C3%25BCber-caf%25C3%25A9"],
            "the module's double-encoded copy of a page's file name: no such page",
        ),
        ..Fixture::default()
    });
}

/// SvelteKit 3 with adapter-static (configured in `vite.config.js`) and its
/// `fallback: '200.html'`; the sitemap is the usual prerendered route.
#[test]
fn sveltekit_static_lists_its_sitemap_routes_urls() {
    run(&Fixture {
        dir: "sveltekit",
        init: "wrote ./sitemap.toml for SvelteKit; base_url https://sveltekit.example.org/",
        public_dir: "build",
        theirs_only: urls("https://sveltekit.example.org/", &["private"], NOINDEX),
        ..Fixture::default()
    });
}

/// Gatsby 5 with gatsby-plugin-sitemap: the Slice API's fragments
/// (`_gatsby/slices/*.html`) are not pages.
#[test]
fn gatsby_lists_its_plugins_urls_and_not_its_slices() {
    run(&Fixture {
        dir: "gatsby",
        init: "wrote ./sitemap.toml for Gatsby; base_url https://gatsby.example.org/",
        public_dir: "public",
        theirs: Theirs::Sitemaps(&["sitemap-0.xml"]),
        theirs_only: urls("https://gatsby.example.org/", &["private/"], NOINDEX),
        ..Fixture::default()
    });
}

/// Astro 7 Starlight with a root locale and `fr`: alternates for both, fallbacks listed.
#[test]
fn starlight_with_two_locales_lists_astros_own_urls() {
    run(&Fixture {
        dir: "starlight",
        init: "wrote ./sitemap.toml for Starlight; base_url https://starlight.example.org/",
        public_dir: "dist",
        theirs: Theirs::Sitemaps(&["sitemap-0.xml"]),
        theirs_only: urls(
            "https://starlight.example.org/",
            &["private/", "fr/private/"],
            NOINDEX,
        ),
        ..Fixture::default()
    });
}

/// VuePress 2 with the sitemap and SEO plugins and two locales: exactly its own list
/// (its plugin reads noindex, as we do).
#[test]
fn vuepress_with_two_locales_lists_its_own_urls() {
    run(&Fixture {
        dir: "vuepress",
        init: "wrote ./sitemap.toml for VuePress; base_url https://vuepress.example.org/",
        public_dir: "docs/.vuepress/dist",
        ..Fixture::default()
    });
}

/// Rspress 2 with its sitemap plugin. Its pages link each other as `about.html`
/// (`route.cleanUrls: false`), as we list them; its sitemap drops the `.html`.
#[test]
fn rspress_lists_its_own_pages_as_its_links_name_them() {
    run(&Fixture {
        dir: "rspress",
        init: "wrote ./sitemap.toml for Rspress; base_url https://rspress.example.org/",
        public_dir: "doc_build",
        theirs_only: urls("https://rspress.example.org/", &["private.html"], NOINDEX),
        normalise: |u| {
            let u = encoded(u);
            if u.ends_with('/') {
                u
            } else {
                format!("{u}.html")
            }
        },
        ..Fixture::default()
    });
}

/// Nikola 8 with two languages: the feeds' `hreflang` links are not alternates.
#[test]
fn nikola_with_two_languages_lists_its_own_urls() {
    let base = "https://nikola.example.org/";
    run(&Fixture {
        dir: "nikola",
        init: "wrote ./sitemap.toml for Nikola; base_url https://nikola.example.org/",
        public_dir: "output",
        theirs_only: [
            urls(base, &["404.html", "de/404.html"], "error pages"),
            urls(base, &["pages/private/", "de/pages/private/"], NOINDEX),
        ]
        .concat(),
        ..Fixture::default()
    });
}

/// Hugo with English and German in subdirectories: 12 and 2 pagination pages name their
/// list's first page as canonical, which passes the canonical guard.
#[test]
fn hugo_with_two_languages_lists_hugos_own_urls() {
    run(&Fixture {
        dir: "hugo-i18n",
        project: Some("source"),
        init: concat!(
            "wrote ./sitemap.toml for Hugo; base_url https://hugo-i18n.example.org/\n",
            "hint: Hugo writes its own sitemap.xml over ours on every build: add disableKinds = [\"sitemap\"] to hugo.toml\n",
            "hint: Hugo leaves removed pages in public/: build with `hugo --cleanDestinationDir`, then run sitemapgen",
        ),
        public_dir: "public",
        theirs: Theirs::Sitemaps(&["en/sitemap.xml", "de/sitemap.xml"]),
        theirs_only: urls(
            "https://hugo-i18n.example.org/",
            &["en/docs/advanced/internal/"],
            NOINDEX,
        ),
        ..Fixture::default()
    });
}

/// Jekyll with a collection, jekyll-paginate, jekyll-sitemap and jekyll-redirect-from.
#[test]
fn jekyll_with_collections_and_pagination_lists_jekyll_sitemaps_urls() {
    let base = "https://jekyll-collections.example.org/";
    run(&Fixture {
        dir: "jekyll-collections",
        project: Some("source"),
        init: concat!(
            "wrote ./sitemap.toml for Jekyll; base_url https://jekyll-collections.example.org/\n",
            "hint: Jekyll publishes every file of the source: add sitemap.toml to exclude: in _config.yml, or it is copied to _site/sitemap.toml\n",
            "hint: jekyll-sitemap writes its own sitemap.xml over ours on every build: remove it from plugins: in _config.yml (and the Gemfile)",
        ),
        public_dir: "_site",
        ours_only: urls(
            base,
            &["unlisted.html"],
            "front matter `sitemap: false`, which only jekyll-sitemap reads",
        ),
        theirs_only: urls(base, &["private.html"], NOINDEX),
        ..Fixture::default()
    });
}

/// Zola 0.22 with aliases and two languages: the alias pages keep their meta refresh in a
/// `<noscript>`, and are left out as redirects; so are the two its sitemap lists.
#[test]
fn zola_with_aliases_and_two_languages_lists_its_own_urls() {
    let base = "https://zola.example.org/";
    run(&Fixture {
        dir: "zola",
        init: "wrote ./sitemap.toml for Zola; base_url https://zola.example.org/\nhint: Zola writes its own sitemap.xml over ours on every build: add generate_sitemap = false to config.toml (Zola 0.19 and later)",
        public_dir: "public",
        theirs_only: [
            urls(
                base,
                &["blog/page/1/", "old-docs/"],
                "redirects (a list's first page, a section's redirect_to), which Zola's sitemap lists",
            ),
            urls(base, &["private/"], NOINDEX),
        ]
        .concat(),
        ..Fixture::default()
    });
}

/// mdBook 0.5 writes no sitemap: the chapters of its `SUMMARY.md` (`urls.txt`, made from
/// its own table of contents) are the list; the print view and the sidebar say noindex.
#[test]
fn mdbook_lists_the_chapters_of_its_summary() {
    run(&Fixture {
        dir: "mdbook",
        init: "wrote ./sitemap.toml for mdBook; base_url https://mdbook.example.org/",
        public_dir: "book",
        theirs: Theirs::Paths("urls.txt", "https://mdbook.example.org/"),
        theirs_only: urls(
            "https://mdbook.example.org/",
            &["reference/internal-notes.html"],
            "noindex (the fixture's one noindex chapter)",
        ),
        ..Fixture::default()
    });
}
