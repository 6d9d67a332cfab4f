//! `init` on a project already set up: `--update` proposes, never discards; the file
//! `init` writes takes a key appended at its end as a top-level key.

use std::fs;

use crate::util::Site;

/// A Hugo project, built: two languages, a PDF.
fn built_site() -> Site {
    let site = Site::new(&["papers/a.pdf"]);
    fs::write(
        site.root().join("hugo.toml"),
        "baseURL = 'https://h.example/'\n",
    )
    .unwrap();
    for lang in ["en", "de"] {
        fs::write(
            site.public().join(format!("{lang}.html")),
            format!("<!doctype html><html lang=\"{lang}\"><title>t</title><p>page</p>"),
        )
        .unwrap();
    }
    site
}

/// The user's own file: odd spacing, CRLF, comments, the generator's settings in a
/// `[source]` table at the end, and no `documents` or `split`.
const MINE: &str = "# my site\r\nbase_url   = 'https://h.example/'   # the host\r\nlastmod = [\"source\",\"meta\"]\n\n# dates\n[source]\ngenerator = 'hugo'\n";

#[test]
fn init_update_keeps_the_users_bytes_and_adds_only_what_is_missing() {
    let site = built_site();
    site.config(MINE);
    let config = site.root().join("sitemap.toml");
    site.cmd()
        .args(["init", "--update"])
        .assert()
        .success()
        .stderr(concat!(
            "added to ./sitemap.toml, commented: documents (the built site holds PDFs)\n",
            "added to ./sitemap.toml, commented: split (the built site's pages are in 2 languages (de, en))\n",
        ));
    let updated = fs::read_to_string(&config).unwrap();
    // The user's bytes, all of them, with one block inserted before the first table.
    let at = MINE.find("[source]").unwrap();
    assert!(updated.starts_with(&MINE[..at]), "{updated}");
    assert!(updated.ends_with(&MINE[at..]), "{updated}");
    let inserted = &updated[at..updated.len() - (MINE.len() - at)];
    assert!(
        inserted
            .lines()
            .all(|l| l.is_empty() || l.starts_with("# ")),
        "{inserted}"
    );
    assert!(
        inserted.contains("\n# documents = [\"pdf\"]\n"),
        "{inserted}"
    );
    assert!(
        inserted.contains("\n# split = \"language\"\n"),
        "{inserted}"
    );
    // Uncommented, the keys are top-level keys, and the file builds.
    fs::write(&config, updated.replace("# documents = ", "documents = ")).unwrap();
    site.cmd().arg("-q").assert().success();
    assert!(
        crate::util::locs(&site.public().join("sitemap.xml"))
            .contains(&"https://h.example/papers/a.pdf".to_string())
    );

    // A second run: nothing is missing, the file is not touched.
    let before = fs::read(&config).unwrap();
    site.cmd()
        .args(["init", "--update"])
        .assert()
        .success()
        .stderr("./sitemap.toml already has every key init proposes; nothing added\n");
    assert_eq!(fs::read(&config).unwrap(), before);
}

/// `init` on an existing file keeps it and names `--update`; `--update` on a file that
/// is not TOML says where, and writes nothing.
#[test]
fn init_on_an_existing_file_names_update_and_refuses_a_broken_one() {
    let site = built_site();
    site.config("base_url = 'https://h.example/'\n[source\n");
    site.cmd()
        .arg("init")
        .assert()
        .code(2)
        .stderr("error: ./sitemap.toml already exists; run `sitemapgen init --update` to add what it lacks, or pass --force to replace it\n");
    let out = site.cmd().args(["init", "--update"]).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.starts_with("error: ./sitemap.toml:2: not valid TOML (")
            && stderr.ends_with("); fix it, then run `sitemapgen init --update` again\n")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(site.root().join("sitemap.toml")).unwrap(),
        "base_url = 'https://h.example/'\n[source\n"
    );
}

/// Before the build, `init` cannot see what the built site calls for, and says to run
/// `init --update` after it; `--update` then adds it.
#[test]
fn init_before_the_build_says_to_run_update_after_it() {
    let site = built_site();
    let built = site.root().join("built");
    fs::rename(site.public(), &built).unwrap();
    site.cmd()
        .arg("init")
        .assert()
        .success()
        .stderr(predicates::str::ends_with(
            "note: ./public is not there yet: after the build, run `sitemapgen init --update` to add what the built site calls for (documents, languages, host files)\n",
        ));
    let written = fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
    assert!(!written.contains("documents"), "{written}");
    fs::rename(&built, site.public()).unwrap();
    site.cmd().args(["init", "--update"]).assert().success();
    let updated = fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
    assert!(updated.starts_with(&written[..written.find("# A page of links").unwrap()]));
    assert!(updated.contains("\n# documents = [\"pdf\"]\n"), "{updated}");
}

/// The first key a user appends to the file `init` wrote is a top-level key: the
/// generator's settings are dotted keys (`source.generator = ...`), not a `[source]`
/// table that would take it in.
#[test]
fn a_key_appended_to_the_file_init_wrote_is_a_top_level_key() {
    let site = built_site();
    site.cmd().arg("init").assert().success();
    let config = site.root().join("sitemap.toml");
    let mut text = fs::read_to_string(&config).unwrap();
    assert!(text.contains("\nsource.generator = \"hugo\"\n"), "{text}");
    text.push_str("robots_txt = \"update\"\n");
    fs::write(&config, text).unwrap();
    fs::write(
        site.public().join("robots.txt"),
        "User-agent: *\nDisallow:\n",
    )
    .unwrap();
    site.cmd().arg("-q").assert().success();
    assert!(
        site.read("robots.txt")
            .contains("Sitemap: https://h.example/sitemap.xml")
    );
}
