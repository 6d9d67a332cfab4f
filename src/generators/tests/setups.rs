//! The second setups the generators document (issue 60): each source is built to the
//! outputs its config says.

use super::*;

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
