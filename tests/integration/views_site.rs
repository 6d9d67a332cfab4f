//! The views on a real build (`tests/fixtures/views`: Hugo, a theme suffix on every
//! title, deep docs folders, English and German): the nested `sitemap.html` and
//! `llms.txt` snapshotted, Markdown twins read back against `llms-full.txt`, each
//! section's own `llms.txt`, and one set of child sitemaps per language, validated.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, copy_tree, locs, validate_set};

/// The fixture's built site, copied under `public/`.
fn views_site() -> Site {
    let site = Site::new(&[]);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/views/public");
    copy_tree(&fixture, &site.public());
    // Hugo's own sitemaps are not ours to replace.
    for own in ["sitemap.xml", "en/sitemap.xml", "de/sitemap.xml"] {
        fs::remove_file(site.public().join(own)).unwrap();
    }
    site.set_all_mtimes(1_700_000_000);
    site
}

const CONFIG: &str = "base_url = 'https://docs.example.org/'\nlastmod = 'mtime'\n";

/// The views with the languages as their groups: no " | Lumen Docs" left, each folder a
/// nested list with its count, dates shown, one link per listed URL.
#[test]
fn nested_views_of_a_two_language_docs_site() {
    let site = views_site();
    site.config(&format!(
        "{CONFIG}split = 'language'\ndefault_language = 'en'\nhtml_sitemap = true\nhtml_sitemap_dates = true\nllms_txt = true\n"
    ));
    site.cmd().assert().success();
    let html = site.read("sitemap.html");
    let llms = site.read("llms.txt");
    insta::assert_snapshot!("views_site_html", html);
    insta::assert_snapshot!("views_site_llms", llms);
    assert!(!html.contains("| Lumen Docs") && !llms.contains("| Lumen Docs"));
    let listed: Vec<String> = validate_set(&site.public().join("sitemap.xml"))
        .iter()
        .flat_map(|child| locs(child))
        .collect();
    assert_eq!(listed.len(), 44);
    // Each URL once as a link, under its language's heading.
    for url in &listed {
        let path = url.strip_prefix("https://docs.example.org").unwrap();
        let link = format!("<a href=\"{path}\">");
        assert_eq!(html.matches(&link).count(), 1, "{path}");
    }
    let en = html.find("<h2 id=\"s1\">en</h2>").unwrap();
    let de = html.find("<h2 id=\"s2\">de</h2>").unwrap();
    assert!(en < de && html[de..].contains("/de/ueber-uns/"));
    // The lone deep page folds into its section; a folder without a page of its own
    // still opens; a page's date is shown.
    assert!(html.contains("<li><a href=\"/docs/reference/api/v1/pages/\">Pages API (v1)</a>"));
    assert!(html.contains("<summary>deploy <span class=\"muted\">(2)</span></summary>"));
    assert!(html.contains("<time class=\"muted\" datetime=\"2023-11-14\">2023-11-14</time>"));
}

/// One set of child sitemaps per language, each schema-valid, each page in its own
/// language's with its alternates kept; the index lists both.
#[test]
fn one_sitemap_per_language() {
    let site = views_site();
    site.config(&format!("{CONFIG}split = 'language'\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("sections: de 11, en 33"));
    let children = validate_set(&site.public().join("sitemap.xml"));
    let names: Vec<String> = (children.iter())
        .map(|c| c.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names[0].starts_with("sitemap-de-1-"), "{names:?}");
    assert!(names[1].starts_with("sitemap-en-1-"), "{names:?}");
    let de = locs(&children[0]);
    assert!(
        de.iter()
            .all(|u| u.starts_with("https://docs.example.org/de/"))
    );
    let en = locs(&children[1]);
    assert!(
        en.iter()
            .all(|u| !u.starts_with("https://docs.example.org/de/"))
    );
    let en_xml = fs::read_to_string(&children[1]).unwrap();
    assert!(en_xml.contains(
        "<xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://docs.example.org/de/ueber-uns/\"/>"
    ));
    // Hugo's own split lists the same pages per language.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/views/public");
    for (ours, lang) in [(&de, "de"), (&en, "en")] {
        let mut theirs = locs(&fixture.join(lang).join("sitemap.xml"));
        let mut ours = ours.clone();
        theirs.sort();
        ours.sort();
        assert_eq!(ours, theirs, "{lang}");
    }
}

/// Keys that need another, and a bad value, are refused with the key named.
#[test]
fn language_and_llms_keys_are_checked() {
    let site = views_site();
    let table = [
        ("split = 'lang'\n", "split"),
        (
            "split = 'language'\n[[section]]\nname = 'docs'\nmatch = 'docs/**'\n",
            "[[section]] both decide",
        ),
        ("default_language = 'en'\n", "applies to split"),
        (
            "split = 'language'\ndefault_language = 'en_US'\n",
            "not a language tag",
        ),
        (
            "llms_txt = true\nllms_links = 'markdown'\n",
            "set llms_markdown = true",
        ),
        ("llms_markdown = true\n", "applies to llms.txt"),
        (
            "llms_txt = true\nllms_txt_per_section = true\n",
            "there is none",
        ),
        ("html_sitemap_dates = true\n", "applies to sitemap.html"),
    ];
    for (keys, message) in table {
        site.config(&format!("{CONFIG}{keys}"));
        site.cmd()
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
        assert!(!site.public().join("sitemap.xml").exists(), "{keys}");
    }
}

/// The twin of every page `llms.txt` lists, at its URL with `.md` appended, holds the
/// same Markdown as its part of `llms-full.txt`, under our mark.
#[test]
fn twins_read_back_as_llms_full_sections() {
    let site = views_site();
    site.config(&format!(
        "{CONFIG}llms_txt = true\nllms_full_txt = true\nllms_markdown = true\nllms_links = 'markdown'\n"
    ));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("44 Markdown twins"));
    let full = site.read("llms-full.txt");
    let full = unsealed(&full);
    let sections: Vec<&str> = full.split("\n---\n\n").skip(1).collect();
    assert_eq!(sections.len(), 44);
    let llms = site.read("llms.txt");
    for section in sections {
        let url = section
            .lines()
            .nth(2)
            .unwrap()
            .strip_prefix("Source: ")
            .unwrap();
        let twin_url = match url.ends_with('/') {
            true => format!("{url}index.html.md"),
            false => format!("{url}.md"),
        };
        // llms.txt links the twin.
        assert!(llms.contains(&format!("]({twin_url})")), "{twin_url}");
        let rel = twin_url.strip_prefix("https://docs.example.org/").unwrap();
        let rel = percent_decoded(rel);
        let twin = site.read(&rel);
        let (mark, rest) = unsealed(&twin).split_once('\n').unwrap();
        assert!(mark.starts_with("<!-- Generated by sitemapgen from the built site:"));
        assert!(mark.contains(url), "{mark}");
        assert_eq!(rest, section, "{rel}");
    }
    // A twin's Markdown is the page's main content: its heading, not the site's menu.
    let install = site.read("docs/getting-started/install/linux/index.html.md");
    assert!(install.contains("# Install on Linux") && !install.contains("Contact"));
}

/// A view without its seal, its last line.
fn unsealed(view: &str) -> &str {
    let (text, seal) = view[..view.len() - 1].rsplit_once('\n').unwrap();
    assert!(seal.starts_with("<!-- sitemapgen checksum "), "{seal}");
    &view[..text.len() + 1]
}

fn percent_decoded(s: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .unwrap();
    decoded.into_owned()
}

/// A Markdown file of the site's own where a twin goes stops the run before anything
/// is written; twins of pages gone are removed on the next run, ours only.
#[test]
fn twins_replace_only_their_own() {
    let site = views_site();
    site.config(&format!("{CONFIG}llms_txt = true\nllms_markdown = true\n"));
    fs::write(
        site.public().join("about/index.html.md"),
        "# About, by hand\n",
    )
    .unwrap();
    site.cmd()
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "about/index.html.md: not as sitemapgen wrote it",
        ))
        .stderr(predicate::str::contains("llms_markdown = false"));
    assert!(!site.public().join("sitemap.xml").exists());
    assert!(!site.public().join("llms.txt").exists());
    assert!(!site.public().join("index.html.md").exists());

    fs::remove_file(site.public().join("about/index.html.md")).unwrap();
    fs::write(site.public().join("docs/notes.md"), "# Notes of our own\n").unwrap();
    site.cmd().assert().success();
    assert!(site.public().join("about/index.html.md").exists());
    fs::remove_dir_all(site.public().join("blog/2025/first-post")).unwrap();
    fs::remove_file(site.public().join("contact/index.html")).unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "removed 1 file of earlier views (a page gone, or a view turned off)",
        ));
    assert!(!site.public().join("contact/index.html.md").exists());
    assert!(site.public().join("about/index.html.md").exists());
    assert_eq!(site.read("docs/notes.md"), "# Notes of our own\n");
    // Files of the site's own that quote our marks are not ours: a note that quotes a
    // twin's first line, a hand-written llms.txt that says what ours say.
    let twin = site.read("about/index.html.md");
    let first = twin.lines().next().unwrap();
    let howto = format!("# How twins look\n\nEach starts with:\n\n{first}\n");
    let by_hand = "# Docs\n\nGenerated by sitemapgen from the built site, then edited by hand.\n";
    fs::write(site.public().join("docs/twins-howto.md"), &howto).unwrap();
    fs::write(site.public().join("docs/llms.txt"), by_hand).unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("of earlier views").not());
    assert_eq!(site.read("docs/twins-howto.md"), howto);
    assert_eq!(site.read("docs/llms.txt"), by_hand);
    // A twin edited since is the user's: its page gone, it stays.
    let edited = format!("{twin}My note.\n");
    fs::write(site.public().join("about/index.html.md"), &edited).unwrap();
    fs::remove_file(site.public().join("about/index.html")).unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("of earlier views").not());
    assert_eq!(site.read("about/index.html.md"), edited);
}

/// With `llms_txt_per_section`, each section whose pages share a folder gets its own
/// `llms.txt` there, linked from the root one; a section gone takes its file with it.
#[test]
fn each_section_gets_its_own_llms_txt() {
    let site = views_site();
    let sections = "[[section]]\nname = 'docs'\nmatch = 'docs/**'\n[[section]]\nname = 'blog'\nmatch = 'blog/**'\n";
    site.config(&format!(
        "{CONFIG}llms_txt = true\nllms_txt_per_section = true\n{sections}"
    ));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("docs/llms.txt (17 pages)"))
        .stderr(predicate::str::contains("blog/llms.txt (5 pages)"));
    let root = site.read("llms.txt");
    assert!(
        root.contains("- [docs: llms.txt](https://docs.example.org/docs/llms.txt): its 17 pages")
    );
    assert!(
        !root.contains("https://docs.example.org/docs/reference/"),
        "{root}"
    );
    let docs = site.read("docs/llms.txt");
    assert!(docs.starts_with("# Lumen Docs: docs\n"), "{docs}");
    assert_eq!(docs.matches("\n- [").count(), 17);

    site.config(&format!(
        "{CONFIG}llms_txt = true\nllms_txt_per_section = true\n[[section]]\nname = 'docs'\nmatch = 'docs/**'\n"
    ));
    site.cmd().assert().success();
    assert!(!site.public().join("blog/llms.txt").exists());
    assert!(site.public().join("docs/llms.txt").exists());
    // A hand-written section index is never replaced.
    fs::write(site.public().join("docs/llms.txt"), "# Docs, by hand\n").unwrap();
    site.cmd()
        .assert()
        .failure()
        .stderr(predicate::str::contains("set llms_txt_per_section = false"));
    assert_eq!(site.read("docs/llms.txt"), "# Docs, by hand\n");
}

/// `init` on the built two-language site proposes one sitemap per language (commented,
/// as it offers `documents`: the owner chooses).
#[test]
fn init_proposes_a_split_by_language() {
    let site = views_site();
    site.cmd().arg("init").assert().success();
    let config = fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
    assert!(config.contains("in 2 languages (de, en)"), "{config}");
    assert!(config.contains("\n# split = \"language\"\n"), "{config}");
}

/// Past 1,000 languages the rest went to the children of no language with no word. The
/// run says how many languages there are and which is the first left without children.
#[test]
fn languages_past_the_cap_are_named_in_a_warning() {
    let site = Site::new(&[]);
    for i in 0..1_002 {
        fs::write(
            site.public().join(format!("p{i}.html")),
            format!("<!doctype html><html lang=\"x-l{i:04}\"><title>{i}</title><p>{i}</p>\n"),
        )
        .unwrap();
    }
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nsplit = 'language'\n");
    site.cmd().assert().success().stderr(predicate::str::contains(
        "warning: split = \"language\": the pages name 1,002 languages, and the first 1,000 get child sitemaps of their own; the pages of the rest (x-l1000 and after, by name) are in the children of no language",
    ));
    let children = validate_set(&site.public().join("sitemap.xml"));
    assert_eq!(children.len(), 1_001, "a child a language, and one of none");
}
