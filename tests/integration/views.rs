//! The views (`html_sitemap`, `llms_txt`, `llms_full_txt`) through the real binary on
//! temporary sites: their exact bytes (snapshots), what they leave out, how they refuse
//! a hand-written file, and that a rerun gives the same bytes. (How a browser shows
//! `sitemap.html`, and the llmstxt.org parser's reading of `llms.txt`, are
//! tests/views.sh's part.)

use std::fs;

use predicates::prelude::*;

use crate::util::{Site, locs, validate_set};

/// Writes `rel` under `public/` with `head` in its head and `body` in its body.
fn page(site: &Site, rel: &str, head: &str, body: &str) {
    let path = site.public().join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let html =
        format!("<!doctype html><html lang=\"de\"><head>{head}</head><body>{body}</body></html>\n");
    fs::write(path, html).unwrap();
}

/// A small site with sections, non-ASCII and hostile titles, a noindex page and a page
/// whose canonical is another.
fn small_site() -> Site {
    let site = Site::new(&[]);
    page(
        &site,
        "index.html",
        "<title>Café Ünïcode — Start</title><meta name=\"description\" content=\"Ein Café &amp; mehr\">",
        "<main><h1>Willkommen</h1><p>Hallo.</p><nav>skip</nav></main>",
    );
    page(
        &site,
        "about/index.html",
        "<title>Über uns</title>",
        "<p>about</p>",
    );
    page(
        &site,
        "blog/index.html",
        "<title>Blog</title><meta property=\"og:description\" content=\"All [the] posts\">",
        "<main><p>posts</p></main>",
    );
    page(
        &site,
        "blog/hostile/index.html",
        "<title>&lt;script&gt;alert(1)&lt;/script&gt; \"q\" &amp; 'a' [x] *y*</title>\
         <meta name=\"description\" content=\"<b>bold</b> &amp; \n  spaced\">",
        "<main><h2>Hostile</h2><script>alert(2)</script><p>a &lt;b&gt; c</p></main>",
    );
    page(
        &site,
        "blog/notitle.html",
        "",
        "<article><p>no title</p></article>",
    );
    page(
        &site,
        "blog/hidden/index.html",
        "<title>Hidden</title><meta name=\"robots\" content=\"noindex\">",
        "",
    );
    page(
        &site,
        "blog/copy/index.html",
        "<title>Copy</title><link rel=\"canonical\" href=\"https://example.org/blog/\">",
        "",
    );
    page(
        &site,
        "docs/a.html",
        "<meta property=\"og:title\" content=\"Doc A (og)\">",
        "",
    );
    page(&site, "docs/b(1).html", "<title>  Doc\n\tB  </title>", "");
    page(&site, "misc/x.html", "<title>日本語のページ</title>", "");
    site.set_all_mtimes(1_700_000_000);
    site
}

const CONFIG: &str =
    "base_url = 'https://example.org/'\nlastmod = 'none'\nhtml_sitemap = true\nllms_txt = true\n";

/// The exact views of a small site without sections: grouped by top directory, titles
/// escaped, the noindex and canonical-elsewhere pages absent, and the same bytes on a
/// second run (when our own sitemap.html is there to be left out).
#[test]
fn exact_views_of_a_small_site() {
    let site = small_site();
    site.config(CONFIG);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("llms.txt (8 pages)"));
    let html = site.read("sitemap.html");
    let llms = site.read("llms.txt");
    insta::assert_snapshot!("sitemap_html", html);
    insta::assert_snapshot!("llms_txt", llms);
    for hidden in ["Hidden", "Copy", "blog/hidden", "blog/copy"] {
        assert!(!html.contains(hidden) && !llms.contains(hidden), "{hidden}");
    }
    assert!(!html.contains("<script") && !html.contains("<b>"), "{html}");
    // One link per listed URL, in the page's list items.
    let listed = locs(&site.public().join("sitemap.xml"));
    assert_eq!(html.matches("<li><a href=\"/").count(), listed.len());
    assert_eq!(llms.matches("\n- [").count(), listed.len());

    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("1 sitemapgen view"));
    assert_eq!(site.read("sitemap.html"), html);
    assert_eq!(site.read("llms.txt"), llms);
    assert_eq!(locs(&site.public().join("sitemap.xml")), listed);
}

/// With sections the views group as the sitemap does: each section, then the pages in
/// none; `site_name` names the site.
#[test]
fn views_follow_the_sections() {
    let site = small_site();
    site.config(&format!(
        "{CONFIG}site_name = 'Mein Café'\n[[section]]\nname = 'blog'\nmatch = 'blog/**'\n[[section]]\nname = 'docs'\nmatch = 'docs/**'\n"
    ));
    site.cmd().assert().success();
    validate_set(&site.public().join("sitemap.xml"));
    let llms = site.read("llms.txt");
    let headings: Vec<&str> = llms.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headings,
        ["# Mein Café", "## blog", "## docs", "## Other pages"]
    );
    let html = site.read("sitemap.html");
    assert!(html.contains("<h1>Mein Café</h1>"), "{html}");
    let h2: Vec<&str> = html.lines().filter(|l| l.starts_with("<h2")).collect();
    assert_eq!(h2.len(), 3, "{h2:?}");
}

/// `llms_txt_max_pages` keeps the shallowest pages and says how many of how many.
#[test]
fn llms_txt_keeps_the_shallowest_pages() {
    let site = small_site();
    site.config(&format!("{CONFIG}llms_txt_max_pages = 3\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("llms.txt (3 pages)"));
    let llms = site.read("llms.txt");
    assert!(llms.contains("lists 3 of the site's 8 pages"), "{llms}");
    let links: Vec<&str> = llms.lines().filter(|l| l.starts_with("- [")).collect();
    assert_eq!(links.len(), 3, "{llms}");
    assert!(links[0].contains("(https://example.org/)"), "{links:?}");
    assert!(
        links
            .iter()
            .any(|l| l.contains("(https://example.org/blog/)")),
        "{links:?}"
    );
}

/// A hand-written sitemap.html or llms.txt is never overwritten: the run stops before
/// writing anything, naming the file; without the view's key it is left alone and
/// listed (sitemap.html) as any page.
#[test]
fn hand_written_views_are_refused() {
    for (name, key) in [("sitemap.html", "html_sitemap"), ("llms.txt", "llms_txt")] {
        let site = small_site();
        site.config(CONFIG);
        let mine = "<!doctype html><title>My own sitemap page</title>\n";
        fs::write(site.public().join(name), mine).unwrap();
        site.cmd()
            .assert()
            .failure()
            .stderr(predicate::str::contains(name).and(predicate::str::contains(key)))
            .stderr(predicate::str::contains("not as sitemapgen wrote it"));
        assert_eq!(site.read(name), mine);
        assert!(!site.public().join("sitemap.xml").exists());
        for other in ["sitemap.html", "llms.txt"] {
            if other != name {
                assert!(!site.public().join(other).exists(), "{other}");
            }
        }
    }
    let site = small_site();
    site.config("base_url = 'https://example.org/'\n");
    fs::write(
        site.public().join("sitemap.html"),
        "<!doctype html><title>Mine</title>\n",
    )
    .unwrap();
    site.cmd().assert().success();
    let listed = locs(&site.public().join("sitemap.xml"));
    assert!(
        listed.contains(&"https://example.org/sitemap.html".to_string()),
        "{listed:?}"
    );
}

/// A view of ours edited since is the user's: proven ours by the seal of its bytes
/// alone, it is neither replaced (the run stops before writing anything, naming it) nor
/// taken for our own view; a copy of our words with a seal of other bytes is not ours.
#[test]
fn a_view_edited_since_is_the_users() {
    let full = "llms_full_txt = true\n";
    for (name, key) in [
        ("sitemap.html", "html_sitemap"),
        ("llms.txt", "llms_txt"),
        ("llms-full.txt", "llms_full_txt"),
    ] {
        let site = small_site();
        site.config(&format!("{CONFIG}{full}"));
        site.cmd().assert().success();
        let sitemap = site.read("sitemap.xml");
        let edited = site.read(name).replacen("\n", "\nMy own line.\n", 3);
        fs::write(site.public().join(name), &edited).unwrap();
        site.cmd()
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "{name}: not as sitemapgen wrote it"
            )))
            .stderr(predicate::str::contains(format!("{key} = false")));
        assert_eq!(site.read(name), edited, "{name}");
        assert_eq!(site.read("sitemap.xml"), sitemap, "{name}");
    }
    // Edited, our sitemap.html is a page of the site's own.
    let site = small_site();
    site.config(CONFIG);
    site.cmd().assert().success();
    let html = site.read("sitemap.html").replace("<h1>", "<h1>Mine: ");
    fs::write(site.public().join("sitemap.html"), html).unwrap();
    site.config("base_url = 'https://example.org/'\n");
    site.cmd().assert().success();
    let listed = locs(&site.public().join("sitemap.xml"));
    assert!(listed.contains(&"https://example.org/sitemap.html".to_string()));
    // Our words and a seal, of other bytes: a hand-written llms.txt copied from ours.
    let site = small_site();
    site.config(CONFIG);
    site.cmd().assert().success();
    let copied = site.read("llms.txt").replace("Café", "Cafe");
    fs::write(site.public().join("llms.txt"), &copied).unwrap();
    site.cmd().assert().failure();
    assert_eq!(site.read("llms.txt"), copied);
}

/// Values that make no sense are refused in one line naming the key.
#[test]
fn bad_view_settings_are_refused() {
    let table = [
        (
            "llms_txt_max_pages = 0\nllms_txt = true\n",
            "llms_txt_max_pages",
        ),
        ("llms_txt_max_pages = 10\n", "set llms_txt = true"),
        ("llms_full_txt = true\n", "set llms_txt = true"),
        ("site_name = '  '\n", "site_name"),
        ("site_name = \"a\\nb\"\n", "one line"),
    ];
    for (toml, says) in table {
        let site = small_site();
        site.config(&format!("base_url = 'https://example.org/'\n{toml}"));
        let out = site.cmd().assert().code(2).get_output().stderr.clone();
        let err = String::from_utf8(out).unwrap();
        assert!(err.contains(says), "{toml}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!site.public().join("sitemap.xml").exists());
    }
}

/// `--json` reports the views; `check` refuses them by name and ignores them in a
/// directory.
#[test]
fn views_are_reported_and_not_checked_as_sitemaps() {
    let site = small_site();
    site.config(CONFIG);
    let out = site
        .cmd()
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let views = &json["views"];
    assert!(
        views["html"].as_str().unwrap().ends_with("sitemap.html"),
        "{json}"
    );
    assert_eq!(views["llms"]["pages"], 8, "{json}");
    for name in ["sitemap.html", "llms.txt"] {
        site.cmd()
            .args(["check", &format!("public/{name}")])
            .assert()
            .failure()
            .stdout(predicate::str::contains("not a sitemap"));
    }
    site.cmd()
        .args(["check", "public", "--strict"])
        .assert()
        .success();
}

/// `llms_full_txt` writes each page llms.txt lists, in its order, as `# Title`,
/// `Source: URL` and its main content in Markdown (the frame, scripts and the hostile
/// title's markup left out); a page past 4 MiB is passed over with a warning naming it;
/// the JSON says how many pages it holds.
#[test]
fn llms_full_txt_holds_the_main_content() {
    let site = small_site();
    page(
        &site,
        "blog/huge.html",
        "<title>Huge</title>",
        &format!("<main><p>{}</p></main>", "x".repeat(5 << 20)),
    );
    site.config(&format!("{CONFIG}llms_full_txt = true\n"));
    let out = site.cmd().arg("--json").assert().success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("huge.html: left out of llms-full.txt: is larger than"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["views"]["llms_full"]["pages"], 8, "{json}");
    let full = site.read("llms-full.txt");
    insta::assert_snapshot!("llms_full_txt", full);
    let sources: Vec<&str> = full.lines().filter(|l| l.starts_with("Source: ")).collect();
    let llms = site.read("llms.txt");
    let links: Vec<String> = llms
        .lines()
        .filter_map(|l| {
            l.split_once("](")
                .map(|(_, r)| r.split(')').next().unwrap().to_string())
        })
        .collect();
    let huge = "https://example.org/blog/huge.html".to_string();
    let expected: Vec<String> = links.into_iter().filter(|l| *l != huge).collect();
    assert_eq!(
        sources
            .iter()
            .map(|s| s["Source: ".len()..].to_string())
            .collect::<Vec<_>>(),
        expected
    );
    assert!(
        !full.contains("alert(2)") && !full.contains("skip"),
        "{full}"
    );
}

/// With `follow_symlinks`, a page reached through a link to a directory of the site is
/// read for `llms-full.txt` along its real path, not refused as a link.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn llms_full_txt_reads_pages_through_followed_links() {
    let site = Site::new(&[]);
    site.config("base_url = 'https://example.org/'\nlastmod = 'none'\nfollow_symlinks = true\nllms_txt = true\nllms_full_txt = true\n");
    fs::write(
        site.public().join("index.html"),
        "<title>Home</title><main>home</main>",
    )
    .unwrap();
    fs::create_dir_all(site.public().join("real")).unwrap();
    fs::write(
        site.public().join("real/index.html"),
        "<title>Real</title><main>through the link</main>",
    )
    .unwrap();
    std::os::unix::fs::symlink("real", site.public().join("linked")).unwrap();
    let out = site.cmd().assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("linked"), "{stderr}");
    // Once as real/, once as linked/.
    let full = site.read("llms-full.txt");
    assert_eq!(full.matches("through the link").count(), 2, "{full}");
}

#[test]
fn the_sites_name_on_every_title_is_dropped_from_the_views() {
    let site = crate::util::Site::new(&[]);
    for (path, title) in [
        ("index.html", "Lumen Notes"),
        ("about.html", "About | Lumen Notes"),
        ("blog/a.html", "Hello, world | Lumen Notes"),
        ("blog/b.html", "Pipes | and bars | Lumen Notes"),
    ] {
        let file = site.public().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(
            file,
            format!("<html><head><title>{title}</title></head></html>"),
        )
        .unwrap();
    }
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\nhtml_sitemap = true\n");
    site.cmd().args(["build", "-q"]).assert().success();
    let llms = site.read("llms.txt");
    assert!(llms.starts_with("# Lumen Notes\n"), "{llms}");
    for line in [
        "- [Lumen Notes](https://example.org/)\n",
        "- [About](https://example.org/about.html)\n",
        "- [Hello, world](https://example.org/blog/a.html)\n",
        "- [Pipes | and bars](https://example.org/blog/b.html)\n",
    ] {
        assert!(llms.contains(line), "{line} in\n{llms}");
    }
    assert!(!site.read("sitemap.html").contains("| Lumen Notes"));
}

/// A site in two languages names itself in each ("Lumen Notes", "Lumen Notizen"): each
/// language's titles lose their own suffix, found among that language's titles.
#[test]
fn the_sites_name_is_found_per_language() {
    let site = crate::util::Site::new(&[]);
    for (path, lang, title) in [
        ("index.html", "en", "Lumen Notes"),
        ("about.html", "en", "About | Lumen Notes"),
        ("a.html", "en-GB", "Hello, world | Lumen Notes"),
        ("b.html", "en", "Pipes | Lumen Notes"),
        ("de/index.html", "de", "Lumen Notizen"),
        ("de/ueber.html", "de", "Über | Lumen Notizen"),
        ("de/a.html", "de-AT", "Hallo, Welt | Lumen Notizen"),
    ] {
        let file = site.public().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let html = format!("<html lang={lang}><head><title>{title}</title></head></html>");
        std::fs::write(file, html).unwrap();
    }
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\n");
    site.cmd().args(["build", "-q"]).assert().success();
    let llms = site.read("llms.txt");
    for line in [
        "- [About](https://example.org/about.html)\n",
        "- [Hello, world](https://example.org/a.html)\n",
        "- [Über](https://example.org/de/ueber.html)\n",
        "- [Hallo, Welt](https://example.org/de/a.html)\n",
    ] {
        assert!(llms.contains(line), "{line} in\n{llms}");
    }
    assert!(!llms.contains("| Lumen"), "{llms}");
}
