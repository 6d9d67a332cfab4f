//! `lastmod` that stays true in CI: the "git" and "content" sources.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use predicates::prelude::*;

use crate::util::{Site, parse};

const BASE: &str = "base_url = 'https://example.org/'\n";

/// The site's URLs and their lastmod values.
pub(crate) fn lastmods(site: &Site) -> BTreeMap<String, String> {
    let xml = site.read("sitemap.xml");
    crate::util::validate(&site.public().join("sitemap.xml"), "sitemap.xsd");
    parse(&xml)
        .1
        .into_iter()
        .map(|u| (u.loc, u.lastmod.unwrap_or_default()))
        .collect()
}

/// A page as a generator would build it, with a build-specific asset hash.
fn built_page(title: &str, paragraph: &str, asset_hash: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="/css/main.{asset_hash}.css"><link rel="preload" href="/js/app.{asset_hash}.js" as="script">
<script>window.build = "{asset_hash}";</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>{title}</h1><p>{paragraph}</p>
<img src="/img/cover.{asset_hash}.jpg" alt="Cover"><a href="/about/">About</a></main>
<!-- built at {asset_hash} --><script src="/js/app.{asset_hash}.js"></script></body></html>"#
    )
}

pub(crate) fn build(site: &Site, asset_hash: &str, changed: Option<&str>, mtime: u64) {
    for name in [
        "index.html",
        "about/index.html",
        "blog/a/index.html",
        "blog/b/index.html",
    ] {
        let paragraph = if Some(name) == changed {
            "A changed paragraph."
        } else {
            "The original paragraph."
        };
        let path = site.public().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, built_page(name, paragraph, asset_hash)).unwrap();
    }
    site.set_all_mtimes(mtime);
}

#[test]
fn content_keeps_lastmod_until_a_page_really_changes() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(&format!("{BASE}lastmod = ['content', 'mtime']\n"));
    site.cmd().assert().success();
    let first = lastmods(&site);
    assert_eq!(first.len(), 4);
    assert!(
        first.values().all(|d| d == "2023-11-14T22:13:20+00:00"),
        "{first:?}"
    );
    let state = fs::read_to_string(site.root().join(".sitemap-state.json")).unwrap();
    assert!(state.contains("\"sitemapgen_state\": 2"), "{state}");

    // A rebuild a month later: every file new, every asset hash new, one paragraph changed.
    build(&site, "9b8c7d6e", Some("blog/a/index.html"), 1_702_592_000);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "lastmod: 3 from content, 1 from mtime;",
        ));
    let second = lastmods(&site);
    let moved: Vec<&String> = second
        .keys()
        .filter(|url| first[*url] != second[*url])
        .collect();
    assert_eq!(moved, ["https://example.org/blog/a/"]);
    assert_eq!(
        second["https://example.org/blog/a/"],
        "2023-12-14T22:13:20+00:00"
    );

    // Rebuilt again, nothing changed: nothing moves, including the page changed last time,
    // and the state file, which would be written as it is, is left alone (time and all).
    build(&site, "0a1b2c3d", Some("blog/a/index.html"), 1_705_000_000);
    let state_file = site.root().join(".sitemap-state.json");
    let state = fs::read(&state_file).unwrap();
    let long_ago = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    let set_time = fs::File::options().write(true).open(&state_file).unwrap();
    set_time.set_modified(long_ago).unwrap();
    drop(set_time);
    site.cmd().assert().success();
    assert_eq!(lastmods(&site), second);
    assert_eq!(fs::read(&state_file).unwrap(), state);
    assert_eq!(
        fs::metadata(&state_file).unwrap().modified().unwrap(),
        long_ago
    );

    // A page that is gone is dropped from the state.
    fs::remove_dir_all(site.public().join("blog/b")).unwrap();
    site.cmd().assert().success();
    let state = fs::read_to_string(site.root().join(".sitemap-state.json")).unwrap();
    assert!(!state.contains("blog/b"), "{state}");
    assert!(state.contains("blog/a"), "{state}");
}

/// A meta date after "content" that cannot be parsed is reported when the sources after
/// "content" are consulted (new or changed content), not when the content is unchanged.
#[test]
fn an_unparseable_date_after_content_is_reported_when_it_was_read() {
    let site = Site::new(&[]);
    let page = |paragraph: &str| {
        format!(
            "<html><head><meta name=\"last-modified\" content=\"last Tuesday\"></head>\
             <body><main><p>{paragraph}</p></main></body></html>"
        )
    };
    site.config(&format!("{BASE}lastmod = ['content', 'meta', 'mtime']\n"));
    let warned = predicate::str::contains("last Tuesday");
    for (paragraph, reported, dated) in [
        ("First.", true, "1 from mtime"),
        ("First.", false, "1 from content"),
        ("Second.", true, "1 from mtime"),
    ] {
        fs::write(site.public().join("index.html"), page(paragraph)).unwrap();
        site.set_all_mtimes(1_700_000_000);
        let run = site.cmd().assert().success();
        let run = run.stderr(predicate::str::contains(format!("lastmod: {dated};")));
        match reported {
            true => run.stderr(warned.clone()),
            false => run.stderr(warned.clone().not()),
        };
    }
}

/// A problem every page has prints a bounded number of lines and a count of the rest;
/// `-v` and `--json` give them all.
#[test]
fn a_warning_on_every_page_is_printed_a_bounded_number_of_times() {
    let site = Site::new(&[]);
    for n in 0..25 {
        fs::write(
            site.public().join(format!("p{n:02}.html")),
            "<html><head><meta name=\"last-modified\" content=\"last Tuesday\"></head></html>",
        )
        .unwrap();
    }
    site.config(&format!("{BASE}lastmod = ['meta', 'mtime']\n"));
    let lines = |args: &[&str]| {
        let out = site
            .cmd()
            .args(args)
            .assert()
            .success()
            .get_output()
            .clone();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let dates = stderr
            .lines()
            .filter(|l| l.contains("'last Tuesday'"))
            .count();
        (dates, stderr)
    };
    let (printed, stderr) = lines(&[]);
    assert_eq!(printed, 20, "{stderr}");
    assert!(
        stderr.contains("note: 5 more warnings like those above (20 of a kind are printed; -v prints all, --json lists all)\n"),
        "{stderr}"
    );
    assert!(stderr.contains("25 warnings"), "{stderr}");
    let (printed, stderr) = lines(&["-v"]);
    assert_eq!(printed, 25, "{stderr}");
    assert!(!stderr.contains("more warnings like"), "{stderr}");
    let out = site
        .cmd()
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["warnings"].as_array().unwrap().len(), 25, "{json}");
}

#[test]
fn content_alone_dates_new_content_by_the_run() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_000_000_000);
    site.config(&format!(
        "{BASE}lastmod = 'content'\nstate_file = 'cache/state.json'\n"
    ));
    fs::create_dir_all(site.root().join("cache")).unwrap();
    site.cmd().assert().success();
    let dates = lastmods(&site);
    let year: i32 = dates.values().next().unwrap()[..4].parse().unwrap();
    assert!(year >= 2026, "{dates:?}");
    assert!(site.root().join("cache/state.json").is_file());
}

#[test]
fn a_dry_run_leaves_the_state_alone() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(&format!("{BASE}lastmod = ['content', 'mtime']\n"));
    site.cmd().arg("--dry-run").assert().success();
    assert!(!site.root().join(".sitemap-state.json").exists());
}

#[test]
fn a_corrupt_or_foreign_state_file_is_an_error_never_discarded() {
    let site = Site::new(&[]);
    build(&site, "3f2a9c01", None, 1_700_000_000);
    site.config(&format!("{BASE}lastmod = ['content', 'mtime']\n"));
    let state = site.root().join(".sitemap-state.json");
    for (text, want) in [
        (
            "{\"sitemapgen_state\": 2, \"pages\": {",
            "is not valid JSON",
        ),
        (
            "{\"name\": \"my-site\", \"version\": \"1.0.0\"}",
            "is not a sitemapgen state file",
        ),
        // A development build's, whose blake3 fingerprints this build cannot compare.
        (
            "{\"sitemapgen_state\": 1, \"pages\": {\"https://example.org/\": \
             {\"fingerprint\": \"100a46c8dc46880e34b0717f742976f7\"}}}",
            "has format version 1 (blake3 fingerprints",
        ),
    ] {
        fs::write(&state, text).unwrap();
        site.cmd()
            .assert()
            .code(2)
            .stderr(predicate::str::contains("state file .sitemap-state.json"))
            .stderr(predicate::str::contains(want));
        assert_eq!(fs::read_to_string(&state).unwrap(), text);
        assert!(!site.public().join("sitemap.xml").exists());
    }
}

pub(crate) fn git(dir: &Path, args: &[&str], date: &str) {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.org",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .env("GIT_COMMITTER_DATE", date)
        .env("GIT_AUTHOR_DATE", "2001-01-01T00:00:00Z")
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn git_dates_pages_by_their_last_commit() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&[
        "index.html",
        "a b/index.html",
        "über/index.html",
        "blog/post.html",
    ]);
    let root = site.root();
    fs::write(
        root.join("sitemap.toml"),
        format!("{BASE}lastmod = ['git', 'mtime']\n"),
    )
    .unwrap();
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "first"], "2024-01-02T03:04:05Z");
    fs::write(
        site.public().join("blog/post.html"),
        "<!doctype html><title>t</title><p>edited</p>",
    )
    .unwrap();
    git(
        root,
        &["commit", "-qam", "edit post"],
        "2024-02-03T04:05:06+02:00",
    );
    git(
        root,
        &["commit", "-q", "--allow-empty", "-m", "empty"],
        "2024-03-01T00:00:00Z",
    );
    // Not committed: an untracked page and an edited one fall through to mtime.
    site.page("new.html");
    fs::write(
        site.public().join("index.html"),
        "<!doctype html><title>t</title><p>uncommitted edit</p>",
    )
    .unwrap();
    site.set_mtime("new.html", 1_700_000_000);
    site.set_mtime("index.html", 1_700_000_000);

    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    let dates = lastmods(&site);
    let want: BTreeMap<String, String> = [
        ("https://example.org/", "2023-11-14T22:13:20+00:00"),
        (
            "https://example.org/%C3%BCber/",
            "2024-01-02T03:04:05+00:00",
        ),
        ("https://example.org/a%20b/", "2024-01-02T03:04:05+00:00"),
        (
            "https://example.org/blog/post.html",
            "2024-02-03T02:05:06+00:00",
        ),
        ("https://example.org/new.html", "2023-11-14T22:13:20+00:00"),
    ]
    .into_iter()
    .map(|(u, d)| (u.to_string(), d.to_string()))
    .collect();
    assert_eq!(dates, want);
}

#[test]
fn a_shallow_clone_is_warned_about_and_its_boundary_dates_not_trusted() {
    if !crate::tools::GIT.present() {
        return;
    }
    let origin = Site::new(&["old.html", "recent.html"]);
    let root = origin.root();
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "old"], "2023-01-01T00:00:00Z");
    fs::write(
        origin.public().join("recent.html"),
        "<!doctype html><title>t</title><p>new</p>",
    )
    .unwrap();
    git(root, &["commit", "-qam", "recent"], "2024-06-01T00:00:00Z");

    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", root.display());
    git(
        clone.path(),
        &["clone", "-q", "--depth", "1", &url, "site"],
        "2020-01-01T00:00:00Z",
    );
    let site_dir = clone.path().join("site");
    fs::write(
        site_dir.join("sitemap.toml"),
        format!("{BASE}lastmod = ['git', 'mtime']\n"),
    )
    .unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("sitemapgen").unwrap();
    cmd.env_remove("CI")
        .current_dir(&site_dir)
        .assert()
        .success()
        .stderr(predicate::str::contains("shallow clone"))
        .stderr(predicate::str::contains("fetch-depth: 0"));
    let xml = fs::read_to_string(site_dir.join("public/sitemap.xml")).unwrap();
    let dates: BTreeMap<String, String> = parse(&xml)
        .1
        .into_iter()
        .map(|u| (u.loc, u.lastmod.unwrap_or_default()))
        .collect();
    // Both files appear in the one fetched commit, which is the shallow boundary: neither
    // gets its date; both fall through to their (checkout-time) mtimes.
    assert_ne!(
        dates["https://example.org/old.html"],
        "2024-06-01T00:00:00+00:00"
    );
    assert_ne!(
        dates["https://example.org/recent.html"],
        "2024-06-01T00:00:00+00:00"
    );
}

#[test]
fn outside_a_git_work_tree_git_falls_through_with_a_warning() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    site.set_mtime("index.html", 1_700_000_000);
    site.config(&format!("{BASE}lastmod = ['git', 'mtime']\n"));
    site.cmd()
        .env("GIT_CEILING_DIRECTORIES", site.root().parent().unwrap())
        .assert()
        .success()
        .stderr(predicate::str::contains("not in a git work tree"));
    assert_eq!(
        lastmods(&site)["https://example.org/"],
        "2023-11-14T22:13:20+00:00"
    );
}

/// Makes `repo`'s config name a command for each way a read-only git could run one:
/// `status` (fsmonitor, a clean filter, the index hook) and `log` (a signature check of
/// its signed head commit). Each command touches a file in `markers`; returns them.
pub(crate) fn plant_commands(repo: &Path, markers: &Path, filter: bool) -> Vec<std::path::PathBuf> {
    // A head commit with a signature, so `log` has one to check; made before the
    // hooks are set, as `update-ref` runs one.
    let tree = Command::new("git")
        .current_dir(repo)
        .args(["rev-parse", "HEAD^{tree}"])
        .output()
        .unwrap();
    let commit = format!(
        "tree {}\nauthor T <t@example.org> 1700000000 +0000\ncommitter T <t@example.org> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nsigned\n",
        String::from_utf8_lossy(&tree.stdout).trim()
    );
    fs::write(markers.join("commit"), commit).unwrap();
    let id = Command::new("git")
        .current_dir(repo)
        .args(["hash-object", "-t", "commit", "-w"])
        .arg(markers.join("commit"))
        .output()
        .unwrap();
    let id = String::from_utf8_lossy(&id.stdout).trim().to_string();
    git(repo, &["update-ref", "HEAD", &id], "2020-01-01T00:00:00Z");
    let marker = |name: &str| markers.join(format!("ran-{name}"));
    let script = |name: &str| {
        let path = markers.join(format!("{name}.sh"));
        fs::write(
            &path,
            format!("#!/bin/sh\ntouch '{}'\n", marker(name).display()),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        }
        path.display().to_string()
    };
    let hooks = markers.join("hooks");
    fs::create_dir_all(&hooks).unwrap();
    for hook in [
        "post-index-change",
        "reference-transaction",
        "post-checkout",
    ] {
        fs::copy(script("hook"), hooks.join(hook)).unwrap();
    }
    let mut settings = vec![
        ("core.fsmonitor", format!("{}; false", script("fsmonitor"))),
        ("core.hooksPath", hooks.display().to_string()),
        ("log.showSignature", "true".to_string()),
        ("gpg.program", script("gpg")),
    ];
    if filter {
        settings.push(("filter.planted.clean", format!("{}; cat", script("filter"))));
        fs::write(repo.join(".gitattributes"), "* filter=planted\n").unwrap();
    }
    for (key, value) in settings {
        git(repo, &["config", key, &value], "2020-01-01T00:00:00Z");
    }
    ["fsmonitor", "hook", "gpg", "filter"]
        .into_iter()
        .map(marker)
        .collect()
}

/// A `.git` that came with the site (an artifact, a theme's output) is not the project's:
/// its config can name commands, so git is not run in it at all; the next source dates.
#[test]
fn a_repository_inside_public_dir_is_not_used_and_runs_nothing() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}lastmod = ['git', 'mtime']\n"));
    let public = site.public();
    git(&public, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(&public, &["add", "."], "2020-01-01T00:00:00Z");
    git(
        &public,
        &["commit", "-qm", "planted"],
        "2024-01-02T03:04:05Z",
    );
    let markers = tempfile::tempdir().unwrap();
    let ran = plant_commands(&public, markers.path(), true);
    site.set_mtime("index.html", 1_700_000_000);

    let run = site.cmd().assert().success();
    let ran: Vec<_> = ran.iter().filter(|m| m.exists()).collect();
    assert!(ran.is_empty(), "the site's repository ran {ran:?}");
    // The project (the config file's directory) has no repository: git dates nothing.
    run.stderr(predicate::str::contains("is not in a git work tree"));
    assert_eq!(
        lastmods(&site)["https://example.org/"],
        "2023-11-14T22:13:20+00:00"
    );
}

/// The project's own repository dates pages, but even its config's commands for
/// `status` and `log` are not run (a filter, which its files need, still is).
#[test]
fn the_projects_repository_dates_pages_without_running_its_configured_commands() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}lastmod = ['git', 'mtime']\n"));
    let root = site.root();
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "first"], "2024-01-02T03:04:05Z");
    let markers = tempfile::tempdir().unwrap();
    let ran = plant_commands(root, markers.path(), false);
    site.set_mtime("index.html", 1_700_000_000);

    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    let ran: Vec<_> = ran.iter().filter(|m| m.exists()).collect();
    assert!(ran.is_empty(), "git ran {ran:?}");
    assert_eq!(
        lastmods(&site)["https://example.org/"],
        "2023-11-14T22:13:20+00:00"
    );
}

/// A project whose public directory is its repository's root (a site of plain HTML,
/// `public_dir = "."` beside the config file) is the project: its repository dates.
#[test]
fn a_public_dir_that_is_the_projects_root_uses_its_repository() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    let public = site.public();
    fs::write(
        public.join("sitemap.toml"),
        format!("{BASE}lastmod = ['git', 'mtime']\npublic_dir = '.'\n"),
    )
    .unwrap();
    git(&public, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(&public, &["add", "."], "2020-01-01T00:00:00Z");
    git(&public, &["commit", "-qm", "first"], "2024-01-02T03:04:05Z");
    site.cmd()
        .current_dir(&public)
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    assert_eq!(
        lastmods(&site)["https://example.org/"],
        "2024-01-02T03:04:05+00:00"
    );
}

/// In CI, a sitemap dated mostly by the build says so once, naming the fix; pages dated
/// otherwise, or a run outside CI, say nothing.
#[test]
fn in_ci_dates_from_the_build_are_warned_about_once() {
    let site = Site::new(&["index.html", "a.html", "b.html"]);
    site.config("base_url = 'https://example.org/'\nlastmod = ['meta', 'mtime']\n");
    let warned = site
        .cmd()
        .env("CI", "true")
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(warned.stderr).unwrap();
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    assert!(
        stderr.contains("warning: 3 of 3 pages are dated by the build (their files' mtimes): date them by their sources: put \"source\" first in lastmod"),
        "{stderr}"
    );
    assert!(stderr.contains("lastmod: 3 from mtime"), "{stderr}");
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    site.cmd()
        .env("CI", "false")
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    // Two of three dated by their heads: no warning.
    for page in ["a.html", "b.html"] {
        fs::write(
            site.public().join(page),
            "<!doctype html><title>t</title><meta property=article:modified_time content=2024-01-02>",
        )
        .unwrap();
    }
    site.cmd()
        .env("CI", "true")
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
}

/// `"source"` on a small Hugo project: a committed page by its commit, a page with
/// `lastmod` by it, the home page by the newest page below it; an uncommitted page and a
/// page with no source fall through, each named under `-v` with why.
#[test]
fn source_dates_pages_and_says_which_fell_through() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&[
        "index.html",
        "a/index.html",
        "b/index.html",
        "c/index.html",
        "tags/x/index.html",
    ]);
    let root = site.root();
    // A page no route maps to, which names its source in an "edit this page" link.
    fs::create_dir_all(site.public().join("moved")).unwrap();
    fs::write(
        site.public().join("moved/index.html"),
        "<!doctype html><title>t</title><p>x</p><a href=\"https://github.com/o/r/edit/main/content/a.md\">Edit this page</a>",
    )
    .unwrap();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("content/a.md", "+++\ntitle = 'A'\n+++\n");
    write(
        "content/b.md",
        "+++\nlastmod = 2023-05-06T07:08:09+02:00\n+++\n",
    );
    write("layouts/_default/single.html", "{{ .Content }}");
    site.config("base_url = 'https://example.org/'\nlastmod = ['source', 'meta']\n[source]\ngenerator = 'hugo'\n");
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(
        root,
        &["commit", "-qm", "content"],
        "2024-03-10T23:30:00-05:00",
    );
    write(
        "layouts/_default/single.html",
        "<main>{{ .Content }}</main>",
    );
    git(
        root,
        &["commit", "-qam", "a template only"],
        "2025-01-01T00:00:00Z",
    );
    write("content/c.md", "+++\ntitle = 'C, not committed'\n+++\n");
    let out = site.cmd().arg("-v").assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let dates = lastmods(&site);
    let want: BTreeMap<String, String> = [
        ("https://example.org/", "2024-03-11T04:30:00+00:00"),
        ("https://example.org/a/", "2024-03-11T04:30:00+00:00"),
        ("https://example.org/b/", "2023-05-06T05:08:09+00:00"),
        ("https://example.org/c/", ""),
        ("https://example.org/moved/", "2024-03-11T04:30:00+00:00"),
        ("https://example.org/tags/x/", ""),
    ]
    .into_iter()
    .map(|(u, d)| (u.to_string(), d.to_string()))
    .collect();
    assert_eq!(dates, want, "{stderr}");
    for line in [
        "lastmod public/c/index.html: not from source, its source content/c.md has no updated key and no clean committed history; no lastmod",
        "lastmod public/tags/x/index.html: not from source, no source file maps to it, and no source's text is on it; no lastmod",
        "; lastmod: 4 from source, 2 without",
    ] {
        assert!(stderr.contains(line), "{line}\n{stderr}");
    }
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// A generator sitemapgen does not know, described in `[[source.route]]`: each page is
/// dated by the source its route names (the first route that matches), with the
/// generic updated keys; a page no route reaches is named under `-v`.
#[test]
fn source_routes_describe_a_generator_sitemapgen_does_not_know() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&[
        "index.html",
        "notes/first.html",
        "notes/deep/second.html",
        "posts/hello/index.html",
        "other.html",
    ]);
    let root = site.root();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("pages/index.txt", "home\n");
    write("pages/notes/first.txt", "first\n");
    write("pages/notes/deep/second.txt", "second\n");
    write(
        "blog/2024-hello.mdx",
        "---\nslug: hello\nupdated: 2023-05-06T07:08:09+02:00\n---\n",
    );
    site.config(concat!(
        "base_url = 'https://example.org/'\nlastmod = ['source']\n",
        "[source]\ngenerator = 'my-own-tool'\n",
        "[[source.route]]\nfrom = 'pages/**/*.txt'\nto = '/{path}.html'\n",
        "[[source.route]]\nfrom = 'blog/*.mdx'\nto = '/posts/{slug}/'\n",
    ));
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "all"], "2024-03-10T23:30:00-05:00");
    let out = site.cmd().arg("-v").assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let dates = lastmods(&site);
    let want: BTreeMap<String, String> = [
        ("https://example.org/", "2024-03-11T04:30:00+00:00"),
        (
            "https://example.org/notes/first.html",
            "2024-03-11T04:30:00+00:00",
        ),
        (
            "https://example.org/notes/deep/second.html",
            "2024-03-11T04:30:00+00:00",
        ),
        (
            "https://example.org/posts/hello/",
            "2023-05-06T05:08:09+00:00",
        ),
        ("https://example.org/other.html", ""),
    ]
    .into_iter()
    .map(|(u, d)| (u.to_string(), d.to_string()))
    .collect();
    assert_eq!(dates, want, "{stderr}");
    assert!(
        stderr.contains("lastmod public/other.html: not from source, no source file maps to it"),
        "{stderr}"
    );
}

/// Docusaurus dates a doc in its body (`showLastUpdateTime`): `"meta"` finds it there,
/// for Docusaurus' pages only (no other page is read past its head for a date).
#[test]
fn meta_reads_docusaurus_body_date() {
    let site = Site::new(&[]);
    let body = format!(
        "<p>{}</p><footer>Last updated on <b><time datetime=2024-03-11T04:30:00.000Z itemprop=dateModified>Mar 11, 2024</time></b></footer></body></html>",
        "text ".repeat(30_000)
    );
    let page = |generator: &str| {
        format!(
            "<!doctype html><html><head><meta name=\"generator\" content=\"{generator}\"><title>t</title></head><body>{body}"
        )
    };
    fs::write(site.public().join("doc.html"), page("Docusaurus v3.10.2")).unwrap();
    fs::write(site.public().join("other.html"), page("Other 1.0")).unwrap();
    site.config("base_url = 'https://example.org/'\nlastmod = ['meta']\n");
    site.cmd().assert().success();
    let dates = lastmods(&site);
    assert_eq!(
        dates["https://example.org/doc.html"],
        "2024-03-11T04:30:00+00:00"
    );
    assert_eq!(dates["https://example.org/other.html"], "");
}
