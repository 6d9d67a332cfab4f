//! `sitemapgen build` on temporary sites, run as a user would run it.

use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{
    Site, bin, child_position, copy_tree, locs, parse, validate, validate_set, validate_text,
};

const BASE: &str = "base_url = 'https://example.org/'\n";

#[test]
fn maps_a_site_to_sorted_urls_and_skips_what_is_not_a_page() {
    let site = Site::new(&[
        "index.html",
        "about.html",
        "blog/index.html",
        "blog/first-post/index.html",
        "blog/page/2/index.htm",
        "docs/Guide.HTML",
        "404.html",
        "fr/404.html",
        ".hidden.html",
        ".git/index.html",
        "drafts/.secret/index.html",
        "css/site.css",
        "img/logo.png",
        "feed.xml",
    ]);
    site.config(BASE);
    site.cmd().arg("build").assert().success();
    let path = site.public().join("sitemap.xml");
    validate(&path, "sitemap.xsd");
    assert_eq!(
        locs(&path),
        [
            "https://example.org/",
            "https://example.org/about.html",
            "https://example.org/blog/",
            "https://example.org/blog/first-post/",
            "https://example.org/blog/page/2/",
            "https://example.org/docs/Guide.HTML",
        ]
    );
    let xml = site.read("sitemap.xml");
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset"));
}

// Unix only: a file name that is not UTF-8 (raw bytes), which Windows cannot name.
#[cfg(unix)]
#[test]
fn percent_encodes_names_from_their_raw_bytes_and_escapes_xml() {
    let site = Site::new(&[
        "a b/c&d.html",
        "q?x.html",
        "über/index.html",
        "u\u{308}ber-nfd.html",
        "100%.html",
        "it's.html",
        "a#b.html",
        "日本/index.html",
    ]);
    let raw = std::ffi::OsStr::from_bytes(b"caf\xe9.html");
    site.page(raw);
    site.config(BASE);
    site.cmd().assert().success();
    let path = site.public().join("sitemap.xml");
    validate(&path, "sitemap.xsd");
    let mut want = vec![
        "https://example.org/%C3%BCber/",
        "https://example.org/%E6%97%A5%E6%9C%AC/",
        "https://example.org/100%25.html",
        "https://example.org/a%20b/c&d.html",
        "https://example.org/a%23b.html",
        "https://example.org/caf%E9.html",
        "https://example.org/it's.html",
        "https://example.org/q%3Fx.html",
        "https://example.org/u%CC%88ber-nfd.html",
    ];
    want.sort();
    assert_eq!(locs(&path), want);
    let xml = site.read("sitemap.xml");
    assert!(
        xml.contains("<loc>https://example.org/a%20b/c&amp;d.html</loc>"),
        "{xml}"
    );
    assert!(
        xml.contains("<loc>https://example.org/it&apos;s.html</loc>"),
        "{xml}"
    );
}

#[test]
fn url_style_options_change_directory_and_page_urls() {
    let table = [
        (
            "",
            [
                "https://example.org/docs/",
                "https://example.org/docs/about.html",
                "https://example.org/docs/blog/",
            ],
        ),
        (
            "trailing_slash = false\n",
            [
                "https://example.org/docs/",
                "https://example.org/docs/about.html",
                "https://example.org/docs/blog",
            ],
        ),
        (
            "clean_urls = true\n",
            [
                "https://example.org/docs/",
                "https://example.org/docs/about",
                "https://example.org/docs/blog/",
            ],
        ),
    ];
    for (extra, want) in table {
        let site = Site::new(&["index.html", "about.html", "blog/index.html"]);
        site.config(&format!(
            "base_url = 'https://EXAMPLE.org:443/docs'\n{extra}"
        ));
        site.cmd().assert().success();
        assert_eq!(
            locs(&site.public().join("sitemap.xml")),
            want,
            "config {extra:?}"
        );
    }
}

#[test]
fn an_internationalised_host_is_written_in_punycode() {
    let site = Site::new(&["index.html"]);
    site.config("base_url = 'https://bücher.example/'");
    site.cmd().assert().success();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://xn--bcher-kva.example/"]
    );
}

#[test]
fn two_files_with_one_url_are_listed_once_with_a_warning() {
    let site = Site::new(&["about.html", "about/index.html"]);
    site.config(&format!(
        "{BASE}clean_urls = true\ntrailing_slash = false\n"
    ));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: public/about/index.html: skipped, it maps to https://example.org/about like public/about.html",
        ));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/about"]
    );
}

#[test]
fn urls_of_2048_characters_or_more_are_skipped_with_a_warning() {
    let site = Site::new(&["index.html"]);
    // 20 + 11 * 201 + 9 = 2,240 characters.
    let long = format!("{}/page.html", vec!["d".repeat(200); 11].join("/"));
    site.page(&long);
    // Exactly 2,047 characters long is still allowed.
    let dirs = vec!["f".repeat(200); 9].join("/"); // 1,808 characters
    let fits = format!(
        "{dirs}/{}.html",
        "g".repeat(2047 - "https://example.org/".len() - 1809 - 5)
    );
    site.page(&fits);
    site.config(BASE);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("page.html: skipped, its URL is"))
        .stderr(predicate::str::contains("fewer than 2,048"));
    let urls = locs(&site.public().join("sitemap.xml"));
    assert_eq!(urls.len(), 2);
    assert_eq!(urls[1].len(), 2047);
}

// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn symlinks_are_skipped_unless_followed_and_never_leave_the_site() {
    use std::os::unix::fs::symlink;
    let site = Site::new(&["index.html", "real/page.html"]);
    let outside = site.root().join("outside");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("secret.html"), "x").unwrap();
    symlink("../outside", site.public().join("escape")).unwrap();
    symlink("real", site.public().join("alias")).unwrap();
    symlink("../index.html", site.public().join("real/home.html")).unwrap();
    symlink(".", site.public().join("real/loop")).unwrap();

    site.config(BASE);
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "skipped public/alias: symbolic link",
        ));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/", "https://example.org/real/page.html"]
    );

    site.config(&format!("{BASE}follow_symlinks = true\n"));
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "skipped public/escape: symbolic link to outside",
        ));
    let urls = locs(&site.public().join("sitemap.xml"));
    assert_eq!(
        urls,
        [
            "https://example.org/",
            "https://example.org/alias/home.html",
            "https://example.org/alias/page.html",
            "https://example.org/real/home.html",
            "https://example.org/real/page.html",
        ]
    );
    assert!(!urls.iter().any(|u| u.contains("secret")));
}

// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn a_symlink_loop_is_reported_and_the_walk_goes_on() {
    use std::os::unix::fs::symlink;
    let site = Site::new(&["index.html", "a/b/page.html"]);
    symlink("../../a", site.public().join("a/b/up")).unwrap();
    site.config(&format!("{BASE}follow_symlinks = true\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("symbolic link loop"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/", "https://example.org/a/b/page.html"]
    );
}

#[test]
fn custom_extensions_replace_the_defaults() {
    let site = Site::new(&["index.html", "doc.XHTML", "notes.txt"]);
    site.config(&format!("{BASE}extensions = ['xhtml', 'txt']\n"));
    site.cmd().assert().success();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/doc.XHTML",
            "https://example.org/notes.txt"
        ]
    );
}

#[test]
fn rules_cascade_and_set_changefreq_and_priority() {
    let site = Site::new(&[
        "index.html",
        "about.html",
        "blog/index.html",
        "blog/post/index.html",
        "blog/page/2/index.html",
        "blog/page/keep/index.html",
        "drafts/x.html",
    ]);
    site.config(&format!(
        r#"{BASE}exclude = ["drafts/**"]
[defaults]
changefreq = "monthly"
priority = 0.5
[[rule]]
match = "blog/**"
changefreq = "daily"
priority = 0.8
[[rule]]
match = "blog/page/**"
exclude = true
[[rule]]
match = ["blog/page/keep/*", "index.html"]
exclude = false
priority = 1.0
"#
    ));
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "left out public/blog/page/2/index.html: excluded by [[rule]] #2 ('blog/page/**')",
        ))
        .stderr(predicate::str::contains(
            "left out public/drafts/x.html: excluded by exclude pattern 'drafts/**'",
        ))
        .stderr(predicate::str::contains("5 URLs (2 excluded by rules)"));
    let path = site.public().join("sitemap.xml");
    validate(&path, "sitemap.xsd");
    let (_, urls) = parse(&fs::read_to_string(&path).unwrap());
    let got: Vec<(&str, &str, &str)> = urls
        .iter()
        .map(|u| {
            (
                u.loc.as_str(),
                u.changefreq.as_deref().unwrap(),
                u.priority.as_deref().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("https://example.org/", "monthly", "1.0"),
            ("https://example.org/about.html", "monthly", "0.5"),
            ("https://example.org/blog/", "daily", "0.8"),
            ("https://example.org/blog/page/keep/", "daily", "1.0"),
            ("https://example.org/blog/post/", "daily", "0.8"),
        ]
    );
}

#[test]
fn tags_are_omitted_when_nothing_sets_them() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}lastmod = 'none'\n"));
    site.cmd().assert().success();
    validate(&site.public().join("sitemap.xml"), "sitemap.xsd");
    let xml = site.read("sitemap.xml");
    for tag in ["lastmod", "changefreq", "priority"] {
        assert!(!xml.contains(tag), "{tag} in {xml}");
    }
}

#[test]
fn lastmod_is_the_mtime_in_utc_in_either_format() {
    let site = Site::new(&["index.html", "old.html"]);
    site.set_mtime("index.html", 1_709_634_030); // 2024-03-05T10:20:30Z
    site.set_mtime("old.html", 946_684_799); // 1999-12-31T23:59:59Z
    site.config(BASE);
    site.cmd().env("TZ", "Asia/Tokyo").assert().success();
    let (_, urls) = parse(&site.read("sitemap.xml"));
    let dates: Vec<_> = urls.iter().map(|u| u.lastmod.clone().unwrap()).collect();
    assert_eq!(
        dates,
        ["2024-03-05T10:20:30+00:00", "1999-12-31T23:59:59+00:00"]
    );

    site.config(&format!("{BASE}lastmod_format = 'date'\n"));
    site.cmd().env("TZ", "Asia/Tokyo").assert().success();
    let (_, urls) = parse(&site.read("sitemap.xml"));
    let dates: Vec<_> = urls.iter().map(|u| u.lastmod.clone().unwrap()).collect();
    assert_eq!(dates, ["2024-03-05", "1999-12-31"]);
    validate(&site.public().join("sitemap.xml"), "sitemap.xsd");
}

#[test]
fn the_same_input_gives_byte_identical_output() {
    let pages: Vec<String> = (0..300)
        .map(|i| format!("s{}/p{i}/index.html", i % 7))
        .collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.set_all_mtimes(1_700_000_000);
    site.config(BASE);
    site.cmd().assert().success();
    let first = fs::read(site.public().join("sitemap.xml")).unwrap();
    for _ in 0..3 {
        site.cmd().assert().success();
        assert_eq!(fs::read(site.public().join("sitemap.xml")).unwrap(), first);
    }
}

#[test]
fn exact_xml_for_a_small_site() {
    let site = Site::new(&["index.html", "about.html", "blog/a&b/index.html"]);
    site.set_all_mtimes(1_709_634_030);
    site.config(&format!(
        "{BASE}[defaults]\nchangefreq = 'weekly'\n[[rule]]\nmatch = 'blog/**'\npriority = 0.7\n"
    ));
    site.cmd().assert().success();
    insta::assert_snapshot!(site.read("sitemap.xml"));
}

#[test]
fn splits_into_an_index_and_cleans_up_when_the_site_shrinks() {
    let pages: Vec<String> = (1..=7).map(|i| format!("p{i}.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    for i in 1..=7u64 {
        site.set_mtime(&format!("p{i}.html"), 1_700_000_000 + i * 86_400);
    }
    // Not one of ours: same naming pattern, but not a urlset.
    fs::write(site.public().join("sitemap-9.xml"), "<rss/>").unwrap();
    site.config(&format!("{BASE}max_urls_per_file = 3\n"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "wrote public/sitemap.xml (index of 3 sitemaps): 7 URLs",
        ));
    let index = site.public().join("sitemap.xml");
    let files = validate_set(&index);
    let (root, children) = parse(&fs::read_to_string(&index).unwrap());
    assert_eq!(root, "sitemapindex");
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    let positions: Vec<Option<usize>> = names.iter().map(|n| child_position(n)).collect();
    assert_eq!(positions, [Some(1), Some(2), Some(3)], "{names:?}");
    let got: Vec<(String, String)> = children
        .iter()
        .map(|c| (c.loc.clone(), c.lastmod.clone().unwrap()))
        .collect();
    let want: Vec<(String, String)> = names
        .iter()
        .map(|n| format!("https://example.org/{n}"))
        .zip([
            "2023-11-17T22:13:20+00:00",
            "2023-11-20T22:13:20+00:00",
            "2023-11-21T22:13:20+00:00",
        ])
        .map(|(loc, lastmod)| (loc, lastmod.to_string()))
        .collect();
    assert_eq!(got, want);
    let all: Vec<String> = files.iter().flat_map(|f| locs(f)).collect();
    let want: Vec<String> = (1..=7)
        .map(|i| format!("https://example.org/p{i}.html"))
        .collect();
    assert_eq!(all, want);

    // Fewer pages per run now fit in one file: the old children go, the stranger stays.
    site.config(BASE);
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains("removed stale"));
    assert_eq!(
        site.listing(),
        [&pages[..], &["sitemap-9.xml", "sitemap.xml"]].concat()
    );
    validate_set(&index);
}

#[test]
fn children_of_an_output_in_a_subdirectory_are_located_there() {
    let site = Site::new(&["a.html", "b.html", "c.html"]);
    site.config(&format!(
        "{BASE}output = 'maps/site map.xml'\nmax_urls_per_file = 2\n"
    ));
    site.cmd().assert().success();
    let index = site.public().join("maps/site map.xml");
    validate_set(&index);
    let (_, children) = parse(&fs::read_to_string(&index).unwrap());
    assert_eq!(children.len(), 2);
    for (n, child) in (1..).zip(&children) {
        let name = child
            .loc
            .strip_prefix(&format!("https://example.org/maps/site%20map-{n}-"))
            .unwrap_or_else(|| panic!("{}", child.loc));
        assert!(name.len() == 16 && name.ends_with(".xml"), "{}", child.loc);
    }
}

#[test]
fn dry_run_prints_sorted_urls_and_writes_nothing() {
    let site = Site::new(&["z.html", "index.html", "m/index.html"]);
    site.config(BASE);
    site.cmd()
        .arg("--dry-run")
        .assert()
        .success()
        .stdout("https://example.org/\nhttps://example.org/m/\nhttps://example.org/z.html\n")
        .stderr(predicate::str::contains("dry run: 3 URLs"));
    assert!(!site.public().join("sitemap.xml").exists());
}

#[test]
fn output_dash_writes_the_xml_to_stdout_only() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let out = site
        .cmd()
        .args(["--output", "-"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let xml = String::from_utf8(out).unwrap();
    assert!(xml.contains("<loc>https://example.org/</loc>"));
    validate_text(&xml, "sitemap.xsd");
    assert!(!site.public().join("sitemap.xml").exists());

    site.config(&format!("{BASE}max_urls_per_file = 1\n"));
    site.page("b.html");
    site.cmd()
        .args(["--output", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("cannot go to standard output"));
}

#[test]
fn the_config_is_found_in_a_parent_up_to_the_repository() {
    let site = Site::new(&["index.html"]);
    fs::write(
        site.root().join("sitemap.toml"),
        "base_url = \"https://example.org/\"\npublic_dir = \"public\"\n",
    )
    .unwrap();
    let content = site.root().join("content/posts");
    fs::create_dir_all(&content).unwrap();
    fs::create_dir(site.root().join(".git")).unwrap();
    // From a folder of the project: the project's file, its paths relative to it.
    site.cmd()
        .current_dir(&content)
        .arg("-q")
        .assert()
        .success();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/"]
    );
    // None up to the repository's root: the folders looked in are named.
    fs::remove_file(site.root().join("sitemap.toml")).unwrap();
    site.cmd()
        .current_dir(&content)
        .assert()
        .code(2)
        .stderr(
            "error: base_url is not set, and no sitemap.toml was found in ., .., ../..: run sitemapgen in the project's folder or pass --config FILE (or pass --base-url https://example.org/ or set base_url in sitemap.toml)\n",
        );
}

#[test]
fn flags_alone_work_without_a_config_file() {
    let site = Site::new(&["index.html"]);
    site.cmd()
        .args(["build", "public", "--base-url", "https://example.org/x"])
        .assert()
        .success();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/x/"]
    );
    site.cmd()
        .arg("public")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("base_url is not set"));
    site.cmd()
        .args(["--base-url", "https://example.org/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("public_dir is not set"));
}

#[test]
fn flags_override_the_file_and_paths_in_the_file_are_relative_to_it() {
    let site = Site::new(&["index.html"]);
    fs::create_dir_all(site.root().join("conf")).unwrap();
    fs::write(
        site.root().join("conf/site.toml"),
        "base_url = 'https://file.example/'\npublic_dir = '../public'\n",
    )
    .unwrap();
    site.cmd()
        .args(["--config", "conf/site.toml"])
        .assert()
        .success();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://file.example/"]
    );

    site.cmd()
        .args([
            "--config",
            "conf/site.toml",
            "--base-url",
            "https://flag.example/",
            "-o",
            "out.xml",
        ])
        .assert()
        .success()
        .stderr(predicate::str::starts_with(
            "warning: conf/site.toml:1:12: base_url does nothing: --base-url https://flag.example/ overrides it this run; drop the flag or the key\nnote: conf/../public/sitemap.xml: a sitemap beside ours that this run did not write; search engines that find it read its list too: turn the generator's own sitemap off, or delete it after the build\nwrote out.xml: 1 URL (1 warning) in ",
        ));
    assert_eq!(
        locs(&site.root().join("out.xml")),
        ["https://flag.example/"]
    );
}

#[test]
fn quiet_silences_the_summary_and_verbose_lists_skips() {
    let site = Site::new(&["index.html", "404.html", "style.css"]);
    site.config(BASE);
    site.cmd().arg("-q").assert().success().stderr("");
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "skipped public/404.html: error page",
        ))
        .stderr(predicate::str::contains(
            "skipped public/style.css: not a page extension",
        ))
        .stderr(
            predicate::str::is_match(
                r"wrote public/sitemap.xml: 1 URL in \d+ ms; lastmod: 1 from mtime\n$",
            )
            .unwrap(),
        );
    site.cmd().args(["-q", "-v"]).assert().code(2);
}

#[test]
fn an_empty_site_is_an_error_not_an_empty_sitemap() {
    let site = Site::new(&["style.css"]);
    site.config(BASE);
    site.cmd()
        .assert()
        .code(1)
        .stderr("error: no pages found under public - was the site built?\n");
    assert!(!site.public().join("sitemap.xml").exists());

    let site = Site::new(&["a.html"]);
    site.config(&format!("{BASE}exclude = ['**']\n"));
    site.cmd().assert().code(1).stderr(
        "error: the 1 page under public was left out (1 excluded by rules); a sitemap needs at least one URL - run with -v to see each page and why; check exclude and the [[rule]] globs\n",
    );
}

#[test]
fn bad_config_exits_2_with_one_line_and_leaves_the_previous_sitemap() {
    let cases: &[(&str, &str)] = &[
        (
            "base_url = 'https://example.org/'\n[[rule]\n",
            "sitemap.toml:2:",
        ),
        (
            "base_url = 'https://example.org/'\nbase_ulr = 'x'\n",
            "sitemap.toml:2:1: unknown key `base_ulr`; did you mean `base_url`?",
        ),
        (
            "base_url = 'example.org'\n",
            "sitemap.toml:1:12: base_url 'example.org' is not an absolute URL",
        ),
        (
            "base_url = 'https://example.org/'\n[[rule]]\nmatch = 'a/[b'\n",
            "invalid glob 'a/[b' in [[rule]] #1",
        ),
        (
            "base_url = 'https://example.org/'\n[defaults]\nchangefreq = 'often'\n",
            "expected one of `always`, `hourly`, `daily`, `weekly`, `monthly`, `yearly`, `never`",
        ),
        (
            "base_url = 'https://example.org/'\n[defaults]\npriority = 2\n",
            "priority 2 is outside 0.0-1.0",
        ),
        (
            "base_url = 'https://example.org/'\nmax_urls_per_file = 60000\n",
            "max_urls_per_file: 60000 is outside 1-50000",
        ),
        (
            "base_url = 'https://example.org/'\nmax_urls_per_file = 0\n",
            "max_urls_per_file: 0 is outside 1-50000",
        ),
        (
            "base_url = 'https://example.org/'\npublic_dir = 'nope'\n",
            "public_dir 'nope' cannot be read",
        ),
        (
            "base_url = 'https://example.org/'\npublic_dir = 'sitemap.toml'\n",
            "public_dir 'sitemap.toml' is not a directory",
        ),
    ];
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    site.cmd().assert().success();
    let before = site.read("sitemap.xml");
    for (config, want) in cases {
        site.config(config);
        let out = site.cmd().assert().code(2).get_output().stderr.clone();
        let err = String::from_utf8(out).unwrap();
        assert_eq!(err.lines().count(), 1, "not one line: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(
            err.contains(want),
            "config {config:?}\n error {err:?}\n lacks {want:?}"
        );
        assert_eq!(site.read("sitemap.xml"), before);
        assert_eq!(site.listing(), ["index.html", "sitemap.xml"]);
    }
}

/// A new user's config mistakes (issue 64), each answered in one line with the fix:
/// a top-level key appended after `[source]`, a string where a list goes, other tools'
/// names for our keys.
#[test]
fn a_new_users_config_mistakes_name_the_fix() {
    let cases: &[(&str, &str)] = &[
        (
            "base_url = 'https://example.org/'\n[source]\ngenerator = 'hugo'\nrobots_txt = 'update'\n",
            "error: sitemap.toml:4:1: `robots_txt` is a top-level key, but here it is inside [source]; move it above the first table ([source], line 2)\n",
        ),
        (
            "base_url = 'https://example.org/'\n[source]\ncontent = \"content\"\n",
            "error: sitemap.toml:3:11: `content` expected a list, found string \"content\"; write content = [\"content\"]\n",
        ),
        (
            "site_url = 'https://example.org/'\n",
            "error: sitemap.toml:1:1: unknown key `site_url`: sitemapgen's is `base_url`; rename it to base_url\n",
        ),
        (
            "base_url = 'https://example.org/'\npriority = 0.5\n",
            "error: sitemap.toml:2:1: unknown key `priority`: sitemapgen's is `priority` of [defaults] (every page) or of a [[rule]] (the pages its match takes); write it as `priority` in one of those tables\n",
        ),
    ];
    let site = Site::new(&["index.html"]);
    for (config, want) in cases {
        site.config(config);
        site.cmd().assert().code(2).stderr(*want);
        assert_eq!(site.listing(), ["index.html"]);
    }
}

/// A `[source]` the `lastmod` list does not read, and `[[shards]]` in a build of no
/// shard, are warnings naming the fix; the sitemap is written as without them.
#[test]
fn settings_that_do_nothing_are_warned_of() {
    let site = Site::new(&["index.html"]);
    site.config(&format!(
        "{BASE}[source]\ngenerator = 'hugo'\n[[shards]]\nname = 'docs'\nmatch = 'docs/**'\n"
    ));
    site.cmd().assert().success().stderr(predicate::str::starts_with(
        "warning: sitemap.toml:2:1: [source] does nothing: lastmod does not name \"source\", which alone reads it; write lastmod = [\"source\", \"meta\", \"mtime\"]\nwarning: sitemap.toml:5:8: [[shards]] does nothing: this build is no shard's (neither shard = nor --shard), so it maps the whole site; build each shard with --shard NAME, then join them with sitemapgen merge\nwrote public/sitemap.xml: 1 URL (2 warnings) in ",
    ));
}

#[test]
fn usage_errors_exit_2() {
    bin().arg("--no-such-flag").assert().code(2);
    bin().args(["build", "a", "b"]).assert().code(2);
    bin()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("--dry-run"));
    bin()
        .args(["build", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--base-url"));
}

#[test]
fn an_output_that_cannot_be_written_fails_with_the_path_and_leaves_nothing() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    site.cmd()
        .args(["-o", "public/index.html/sitemap.xml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot write public/index.html"));
    assert_eq!(site.listing(), ["index.html"]);
}

// Unix only: Unix permission bits and setpriv.
#[cfg(unix)]
#[test]
fn an_unreadable_directory_is_a_warning_and_the_run_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let site = Site::new(&["index.html", "locked/page.html"]);
    site.config(BASE);
    let mode = |path: &Path, m| fs::set_permissions(path, fs::Permissions::from_mode(m)).unwrap();
    let locked = site.public().join("locked");
    mode(&locked, 0o000);
    // Root reads any directory, so as root the binary runs as `nobody` instead, with
    // the site made writable for it.
    let mut cmd = if fs::read_dir(&locked).is_ok() {
        mode(site.root(), 0o777);
        mode(&site.public(), 0o777);
        let mut cmd = assert_cmd::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(assert_cmd::cargo::cargo_bin!("sitemapgen"))
            .current_dir(site.root());
        cmd
    } else {
        site.cmd()
    };
    let assert = cmd.assert();
    mode(&locked, 0o755);
    assert
        .success()
        .stderr(predicate::str::contains(
            "warning: public/locked: cannot read",
        ))
        .stderr(predicate::str::contains("Permission denied"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/"]
    );
}

#[test]
fn the_bundled_example_site_builds_and_validates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let output = out.path().join("sitemap.xml");
    bin()
        .current_dir(root)
        .args(["build", "--config", "sitemap.toml.example", "-o"])
        .arg(&output)
        .assert()
        .success();
    validate(&output, "sitemap.xsd");
    let urls = locs(&output);
    assert!(
        urls.contains(&"https://example.org/%C3%BCber-uns/".to_string()),
        "{urls:?}"
    );
    assert!(
        !urls
            .iter()
            .any(|u| u.contains("404") || u.contains("drafts")),
        "{urls:?}"
    );
}

#[test]
fn a_real_hugo_site_gives_the_urls_hugo_itself_lists() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hugo/public");
    let site = Site::new(&[]);
    copy_tree(&fixture, &site.public());
    let hugo_xml = site.read("sitemap.xml");
    let (_, hugo_urls) = parse(&hugo_xml);
    let mut want: Vec<String> = hugo_urls.into_iter().map(|u| u.loc).collect();
    want.sort();
    validate(&fixture.join("sitemap.xml"), "sitemap.xsd");

    // Hugo's redirect stubs (every page/1/ and the alias old-path/) are recognised from
    // their <head>, with no rule.
    site.config("base_url = 'https://hugo.example.org/'\n");
    site.cmd()
        .args(["-o", "ours.xml"])
        .assert()
        .success()
        .stderr(predicate::str::contains("16 URLs (7 redirects)"));
    let ours = site.root().join("ours.xml");
    validate(&ours, "sitemap.xsd");
    assert_eq!(locs(&ours), want);
}

#[test]
fn a_child_whose_content_did_not_change_keeps_its_name() {
    let pages: Vec<String> = (1..=5).map(|i| format!("p{i}.html")).collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    let site = Site::new(&pages);
    site.set_all_mtimes(1_700_000_000);
    site.config(&format!("{BASE}max_urls_per_file = 2\n"));
    site.cmd().assert().success();
    let index = site.public().join("sitemap.xml");
    let before = validate_set(&index);
    // p5 is in the third child only.
    site.set_mtime("p5.html", 1_710_000_000);
    site.cmd().arg("-v").assert().success();
    let after = validate_set(&index);
    assert_eq!(before[..2], after[..2]);
    assert_ne!(before[2], after[2]);
    assert!(!before[2].exists(), "the replaced child is removed");
}

/// Error pages at any depth and search engines' verification files are not pages:
/// skipped, with the reason under -v; `error_pages` changes the list.
#[test]
fn error_pages_and_verification_files_are_not_listed() {
    let site = Site::new(&[
        "index.html",
        "404.html",
        "404/index.html",
        "en/404.html",
        "500/index.html",
        "50x.html",
        "404-tips.html",
        "yandex_0a1b2c3d4e5f.html",
        // Page 404 of a long paginated list is a page, not an error page.
        "list/page/403/index.html",
        "list/page/404/index.html",
    ]);
    fs::write(
        site.public().join("google1234abcd5678ef90.html"),
        "google-site-verification: google1234abcd5678ef90.html",
    )
    .unwrap();
    site.config(BASE);
    let out = site.cmd().arg("-v").assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/404-tips.html",
            "https://example.org/list/page/403/",
            "https://example.org/list/page/404/",
        ]
    );
    for line in [
        "skipped public/404/index.html: error page (error_pages)",
        "skipped public/en/404.html: error page (error_pages)",
        "skipped public/50x.html: error page (error_pages)",
        "skipped public/google1234abcd5678ef90.html: search-engine verification file",
        "skipped public/yandex_0a1b2c3d4e5f.html: search-engine verification file",
    ] {
        assert!(stderr.contains(line), "stderr lacks {line:?}:\n{stderr}");
    }

    site.config(&format!("{BASE}error_pages = ['404-tips.html']\n"));
    site.cmd().assert().success();
    let urls = locs(&site.public().join("sitemap.xml"));
    assert!(
        urls.contains(&"https://example.org/404.html".to_string()),
        "{urls:?}"
    );
    assert!(
        !urls.contains(&"https://example.org/404-tips.html".to_string()),
        "{urls:?}"
    );

    site.config(&format!("{BASE}error_pages = ['errors/*.html']\n"));
    site.cmd()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error_pages"))
        .stderr(predicate::str::contains(
            "'errors/*.html' is not a file name",
        ));
}

/// Flags that together cannot mean what they say are refused in one line, exit 2,
/// before anything is walked or written.
#[test]
fn flags_that_undo_each_other_are_refused_with_the_reason() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let refused = [
        (
            &["--check", "--dry-run"][..],
            "error: --check checks the sitemap written, and --dry-run writes none; drop one of them\n",
        ),
        (
            &["--all-changed", "--dry-run"],
            "error: --all-changed marks every URL changed in the change list, and --dry-run writes none; drop one of them\n",
        ),
        (
            &["--check", "--output", "-"],
            "error: --check checks the files written, and --output - writes to standard output; write to a file (--output sitemap.xml), or drop --check\n",
        ),
    ];
    for (flags, line) in refused {
        site.cmd()
            .args(flags)
            .assert()
            .code(2)
            .stdout("")
            .stderr(line.to_string());
    }
    assert!(!site.public().join("sitemap.xml").exists());
    // Piped, gzip to standard output is what was asked for (formats.rs); a dry run
    // prints URLs, gzip or not.
    site.cmd()
        .args(["--output", "-", "--gzip", "--dry-run"])
        .assert()
        .success()
        .stdout("https://example.org/\n");
}

/// `-o - --gzip` on a terminal would print compressed bytes there: refused. Run under
/// `script`, which gives the binary a terminal for its standard output.
/// The flag is named, or the config's key with its file; nothing is written.
#[test]
fn gzip_to_a_terminal_is_refused() {
    if !crate::tools::SCRIPT.present() {
        return;
    }
    let cases = [
        (
            BASE.to_string(),
            "--output - --gzip",
            "error: --gzip with --output - would print compressed bytes on the terminal; redirect standard output (> sitemap.xml.gz), or drop --gzip",
        ),
        (
            format!("{BASE}gzip = true\n"),
            "--output -",
            "error: sitemap.toml: gzip: is true, and --output - would print compressed bytes on the terminal; redirect standard output (> sitemap.xml.gz), or set gzip = false",
        ),
    ];
    for (config, args, says) in cases {
        let site = Site::new(&["index.html"]);
        site.config(&config);
        let bin = assert_cmd::cargo::cargo_bin("sitemapgen");
        let out = std::process::Command::new("script")
            .args(["-qec", &format!("{} {args}", bin.display()), "/dev/null"])
            .current_dir(site.root())
            .env_remove("CI")
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{shown}");
        assert_eq!(shown.trim_end(), says);
        assert!(!site.root().join("public/sitemap.xml").exists());
    }
}
