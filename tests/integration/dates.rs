//! True dates from the pages' sources (`tests/fixtures/dates/<generator>/`): each fixture
//! is a generator project with a backdated git history (`project.bundle`, commits in
//! several time zones, one touching only a template) and its built site (`output/`). The
//! test clones the project, puts the built site in place (every file's mtime is now, as
//! in a fresh CI build), runs `init` then a build, and checks each content page's
//! `lastmod` against `truth.tsv`: its explicit "updated" key, else its source's last
//! commit; list pages are never dated by the build.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use jiff::Timestamp;

use crate::util::{bin, copy_tree, dated_project, parse, validate};

/// One row of `truth.tsv`.
struct Truth {
    path: String,
    kind: String,
    date: Option<Timestamp>,
}

fn truth(dir: &Path) -> Vec<Truth> {
    fs::read_to_string(dir.join("truth.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Truth {
                path: cols[0].to_string(),
                kind: cols[1].to_string(),
                date: cols[2].parse().ok(),
            }
        })
        .collect()
}

/// The URLs a built file may be listed under, after the base: its path with a directory
/// index as its directory, with or without the trailing slash or `.html`.
fn forms(path: &str) -> Vec<String> {
    let encoded: String = path
        .split('/')
        .map(|s| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
        })
        .collect::<Vec<_>>()
        .join("/")
        .replace("%2E", ".")
        .replace("%2D", "-")
        .replace("%5F", "_");
    let dir = encoded.strip_suffix("index.html").map(str::to_string);
    let mut out = vec![encoded.clone()];
    if let Some(dir) = dir {
        out.push(dir.trim_end_matches('/').to_string());
        out.push(dir);
    }
    if let Some(stem) = encoded.strip_suffix(".html") {
        out.push(stem.to_string());
    }
    out
}

/// Clones the fixture's project, builds its sitemap as a user would, and checks every
/// page's date. `output` is where the generator writes the site in the project.
fn run(name: &str, output: &str) {
    if !crate::tools::GIT.present() {
        return;
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dates")
        .join(name);
    let tmp = tempfile::tempdir().unwrap();
    let project = dated_project(name, output, tmp.path());
    let ours = tmp.path().join("ours.xml");
    let out = bin()
        .current_dir(&project)
        .arg("-o")
        .arg(&ours)
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // But canonicals in another form than the URL served (Docusaurus' `/about` for
    // `about/index.html`), listed at the URL served.
    let other = stderr.lines().filter(|l| l.starts_with("warning:"));
    let other = other
        .filter(|l| !l.contains("; listed as https://"))
        .count();
    assert_eq!(other, 0, "{name}: {stderr}");
    let xml = fs::read_to_string(&ours).unwrap();
    // A second run takes the committed sources from the cache the first left in the git
    // directory, and finds the same.
    let cached = fs::read_dir(project.join(".git")).unwrap().flatten();
    let cached = cached.filter(|e| {
        e.file_name()
            .to_string_lossy()
            .starts_with("sitemapgen-sources-")
    });
    assert_eq!(cached.count(), 1, "{name}: no sources cache in .git");
    let again = tmp.path().join("again.xml");
    bin()
        .current_dir(&project)
        .arg("-o")
        .arg(&again)
        .assert()
        .success();
    assert_eq!(
        fs::read_to_string(&again).unwrap(),
        xml,
        "{name}: the cached run differs"
    );
    validate(&ours, crate::util::urlset_schema(&xml));
    let (_, urls) = parse(&xml);
    let base = urls
        .iter()
        .map(|u| u.loc.as_str())
        .min_by_key(|u| u.len())
        .unwrap();
    let base = &base[..base.find("://").unwrap()
        + 3
        + base[base.find("://").unwrap() + 3..].find('/').unwrap()
        + 1];
    let dates: HashMap<String, Option<Timestamp>> = urls
        .iter()
        .map(|u| {
            let date = u
                .lastmod
                .as_deref()
                .map(|d| d.parse::<Timestamp>().unwrap());
            (u.loc[base.len()..].to_string(), date)
        })
        .collect();
    let today = Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).date();
    let (mut checked, mut wrong) = (0, Vec::new());
    for row in truth(&fixture) {
        let dated = matches!(row.kind.as_str(), "key" | "commit");
        let Some(got) = forms(&row.path).iter().find_map(|f| dates.get(f)) else {
            // A page the truth dates must be listed: its absence is no pass.
            if dated {
                wrong.push(format!("{} ({}): not in the sitemap", row.path, row.kind));
            }
            continue;
        };
        if let Some(got) = got {
            let day = got.to_zoned(jiff::tz::TimeZone::UTC).date();
            assert!(
                day != today,
                "{name}: {} is dated by the build: {got}",
                row.path
            );
        }
        if dated {
            checked += 1;
            if *got != row.date {
                wrong.push(format!(
                    "{} ({}): want {:?}, got {got:?}",
                    row.path, row.kind, row.date
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{name}: {} of the dated pages misdated or missing ({checked} checked):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        checked >= 10,
        "{name}: only {checked} pages checked\n{stderr}"
    );
}

/// A source is read again, not taken from the cache, once it changes: edited and not
/// committed (its explicit date and its route count, its commit no longer does), then
/// committed (a new blob).
#[test]
fn a_changed_source_is_read_again_whatever_the_cache_holds() {
    if !crate::tools::GIT.present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("content/posts")).unwrap();
    fs::create_dir_all(root.join("public/posts/a")).unwrap();
    fs::create_dir_all(root.join("public/posts/moved")).unwrap();
    fs::write(root.join("hugo.toml"), "baseURL = 'https://example.org/'\n").unwrap();
    fs::write(
        root.join("content/posts/a.md"),
        "+++\ntitle = 'A'\n+++\nText.\n",
    )
    .unwrap();
    for page in ["public/posts/a/index.html", "public/posts/moved/index.html"] {
        fs::write(root.join(page), "<!doctype html><title>A</title><p>A").unwrap();
    }
    fs::write(
        root.join("sitemap.toml"),
        "base_url = 'https://example.org/'\nlastmod = ['source']\n[source]\ngenerator = 'hugo'\n",
    )
    .unwrap();
    fs::write(root.join(".gitignore"), "public/\n").unwrap();
    crate::lastmod::git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    crate::lastmod::git(root, &["add", "."], "2020-01-01T00:00:00Z");
    crate::lastmod::git(root, &["commit", "-qm", "a"], "2021-02-03T04:05:06Z");
    let dated = |want: &[(&str, Option<&str>)]| {
        let out = root.join("out.xml");
        bin()
            .current_dir(root)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let (_, urls) = parse(&fs::read_to_string(&out).unwrap());
        for (loc, lastmod) in want {
            let url = urls.iter().find(|u| u.loc.ends_with(loc)).unwrap();
            assert_eq!(url.lastmod.as_deref(), *lastmod, "{loc}");
        }
    };
    let commit = Some("2021-02-03T04:05:06+00:00");
    dated(&[("/posts/a/", commit), ("/posts/moved/", None)]);
    // From the cache now: what it says is what counts (a cache never read would pass the
    // line above), so a cache made to say otherwise shows it.
    let cache = fs::read_dir(root.join(".git")).unwrap().flatten();
    let cache = cache
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("sitemapgen-sources-"));
    let cache = cache.expect("a sources cache in .git");
    let text = fs::read_to_string(&cache).unwrap();
    fs::write(
        &cache,
        text.replace("posts/a/index.html", "posts/moved/index.html"),
    )
    .unwrap();
    dated(&[("/posts/a/", None), ("/posts/moved/", commit)]);
    fs::write(&cache, text).unwrap();
    dated(&[("/posts/a/", commit), ("/posts/moved/", None)]);
    let edited = "+++\ntitle = 'A'\nslug = 'moved'\nlastmod = 2024-03-05T10:20:30Z\n+++\nText.\n";
    fs::write(root.join("content/posts/a.md"), edited).unwrap();
    let key = Some("2024-03-05T10:20:30+00:00");
    dated(&[("/posts/a/", None), ("/posts/moved/", key)]);
    crate::lastmod::git(root, &["commit", "-qam", "moved"], "2022-02-03T04:05:06Z");
    dated(&[("/posts/a/", None), ("/posts/moved/", key)]);
    fs::write(
        root.join("content/posts/a.md"),
        "+++\ntitle = 'A'\nslug = 'moved'\n+++\n",
    )
    .unwrap();
    crate::lastmod::git(root, &["commit", "-qam", "undated"], "2023-02-03T04:05:06Z");
    dated(&[
        ("/posts/a/", None),
        ("/posts/moved/", Some("2023-02-03T04:05:06+00:00")),
    ]);
}

#[test]
fn hugo_pages_are_dated_by_their_sources() {
    run("hugo", "public");
}

#[test]
fn zola_pages_are_dated_by_their_sources() {
    run("zola", "public");
}

#[test]
fn astro_pages_are_dated_by_their_sources() {
    run("astro", "dist");
}

#[test]
fn jekyll_pages_are_dated_by_their_sources() {
    run("jekyll", "_site");
}

#[test]
fn hexo_pages_are_dated_by_their_sources() {
    run("hexo", "public");
}

#[test]
fn mkdocs_pages_are_dated_by_their_sources() {
    run("mkdocs", "site");
}

#[test]
fn sphinx_pages_are_dated_by_their_sources() {
    run("sphinx", "_build/html");
}

#[test]
fn docusaurus_pages_are_dated_by_their_sources() {
    run("docusaurus", "build");
}

#[test]
fn eleventy_pages_are_dated_by_their_sources() {
    run("eleventy", "_site");
}

#[test]
fn vuepress_pages_are_dated_by_their_sources() {
    run("vuepress", "docs/.vuepress/dist");
}

#[test]
fn rspress_pages_are_dated_by_their_sources() {
    run("rspress", "doc_build");
}

#[test]
fn mkdocs_unicode_slugs_are_dated_by_their_sources() {
    run("mkdocs-unicode", "site");
}

#[test]
fn starlight_pages_and_fallbacks_are_dated_by_their_sources() {
    run("starlight", "dist");
}

#[test]
fn hugo_translations_are_dated_by_their_sources() {
    run("hugo-i18n", "public");
}

#[test]
fn next_app_and_pages_routes_are_dated_by_their_sources() {
    run("next", "out");
}

#[test]
fn gatsby_pages_and_markdown_are_dated_by_their_sources() {
    run("gatsby", "public");
}

#[test]
fn mdbook_chapters_are_dated_by_their_sources() {
    run("mdbook", "book");
}

#[test]
fn astro_entries_of_dynamic_routes_are_dated_by_their_sources() {
    run("astro-slug", "dist");
}

#[test]
fn vitepress_pages_and_rewrites_are_dated_by_their_sources() {
    run("vitepress", "docs/.vitepress/dist");
}

#[test]
fn sveltekit_routes_are_dated_by_their_sources() {
    run("sveltekit", "build");
}

#[test]
fn nikola_posts_pages_and_translations_are_dated_by_their_sources() {
    run("nikola", "output");
}

#[test]
fn jekyll_collections_pretty_and_layoutless_pages_are_dated_by_their_sources() {
    run("jekyll-collections", "_site");
}

#[test]
fn zola_translations_are_dated_by_their_sources() {
    run("zola-i18n", "public");
}

#[test]
fn nuxt_pages_and_content_are_dated_by_their_sources() {
    run("nuxt", ".output/public");
}

/// Hugo with `defaultContentLanguageInSubdir = true` (`tests/fixtures/hugo-i18n`, a real
/// build): the default language's pages are under `en/` too, and are dated by their
/// sources (the project committed once, at a date no build has).
#[test]
fn hugo_default_language_in_a_subfolder_is_dated_by_its_sources() {
    if !crate::tools::GIT.present() {
        return;
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hugo-i18n");
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    copy_tree(&fixture.join("source"), &project);
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .current_dir(&project)
            .args(["-c", "user.name=T", "-c", "user.email=t@example.org"])
            .args(args)
            .env("GIT_COMMITTER_DATE", "2023-04-05T06:07:08+02:00")
            .env("GIT_AUTHOR_DATE", "2023-04-05T06:07:08+02:00")
            .status()
            .unwrap();
        assert!(ok.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "all"]);
    copy_tree(&fixture.join("public"), &project.join("public"));
    bin().current_dir(&project).arg("init").assert().success();
    let ours = tmp.path().join("ours.xml");
    bin()
        .current_dir(&project)
        .arg("-o")
        .arg(&ours)
        .assert()
        .success();
    let xml = fs::read_to_string(&ours).unwrap();
    validate(&ours, crate::util::urlset_schema(&xml));
    let (_, urls) = parse(&xml);
    let date = |path: &str| {
        let loc = format!("https://hugo-i18n.example.org/{path}");
        let url = urls
            .iter()
            .find(|u| u.loc == loc)
            .unwrap_or_else(|| panic!("{loc}"));
        url.lastmod.clone()
    };
    for path in [
        "en/about/",
        "en/posts/post-01/",
        "en/docs/advanced/tuning/",
        "de/%C3%BCber-uns/",
        "de/posts/post-03/",
    ] {
        assert_eq!(
            date(path).as_deref(),
            Some("2023-04-05T04:07:08+00:00"),
            "{path}"
        );
    }
}

/// Eleventy with no config file, its input folder given in `package.json`'s build script
/// (`eleventy --input=src`) and its base URL in `src/_data/site.json`.
#[test]
fn eleventy_input_from_the_command_line_is_dated_by_its_sources() {
    run("eleventy-input", "_site");
}

/// A generator of the project's own (`build.py`: notes to hashed URLs and URLs from
/// titles), no `[source] generator`: `init` writes the content folders, and every note
/// is dated by the source whose text it holds; listings by none.
#[test]
fn a_generator_of_its_own_is_dated_by_its_pages_text() {
    run("notes-hashed", "public");
}

/// Hugo with a content folder per language and `[permalinks]`.
#[test]
fn hugo_per_language_content_and_permalinks_are_dated_by_their_sources() {
    run("hugo-content-dirs", "public");
}

/// Jekyll with `collections_dir` and a collection of its own.
#[test]
fn jekyll_collections_dir_is_dated_by_its_sources() {
    run("jekyll-collections-dir", "_site");
}

/// Hexo with `new_post_name: :year-:month-:day-:title.md`.
#[test]
fn hexo_dated_post_names_are_dated_by_their_sources() {
    run("hexo-dated-names", "public");
}

/// MkDocs Material with mkdocs-static-i18n (suffixes, fallbacks) and `docs_dir`.
#[test]
fn mkdocs_i18n_suffixes_and_fallbacks_are_dated_by_their_sources() {
    run("mkdocs-i18n", "site");
}

/// Docusaurus with a second locale: translations under `i18n/fr/`, and the pages a
/// translation lacks built from the English source (docs, blog posts and pages).
#[test]
fn docusaurus_translations_and_fallbacks_are_dated_by_their_sources() {
    run("docusaurus-i18n", "build");
}

/// Pelican with `ARTICLE_URL`/`ARTICLE_SAVE_AS` and `PAGE_URL`/`PAGE_SAVE_AS`.
#[test]
fn pelican_url_settings_are_dated_by_their_sources() {
    run("pelican-urls", "output");
}

/// Nikola's Markdown posts: metadata in a comment, `.meta` sidecars, its date forms.
#[test]
fn nikola_markdown_and_sidecars_are_dated_by_their_sources() {
    // `posts/packing-list`: its `.meta` committed after its text, dated by the later.
    run("nikola-markdown", "output");
}

/// What the match read of the sources is kept in the git directory by blob id: a second
/// run reads none of them again (the file is left as it is), a file changed in any byte
/// is taken as none, and a source committed anew is read again and dated by its commit.
// Unix only: inode numbers (MetadataExt::ino).
#[cfg(unix)]
#[test]
fn what_a_match_read_of_the_sources_is_kept_for_the_next_run() {
    if !crate::tools::GIT.present() {
        return;
    }
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let project = dated_project("notes-hashed", "public", tmp.path());
    let build = || {
        let out = tmp.path().join("out.xml");
        bin()
            .current_dir(&project)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        fs::read_to_string(&out).unwrap()
    };
    let kept = || {
        let found = fs::read_dir(project.join(".git")).unwrap().flatten();
        let mut found = found.filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("sitemapgen-texts-")
        });
        let path = found.next().expect("no texts kept in .git").path();
        let inode = fs::metadata(&path).unwrap().ino();
        (path, inode)
    };
    let first = build();
    let (path, inode) = kept();
    assert_eq!(build(), first);
    assert_eq!(kept().1, inode, "rewritten though no source was read");
    let mut changed = fs::read(&path).unwrap();
    let middle = changed.len() / 2;
    changed[middle] ^= 0x55;
    fs::write(&path, &changed).unwrap();
    assert_eq!(build(), first, "a changed file was trusted");
    assert_ne!(fs::read(&path).unwrap(), changed, "a changed file was kept");
    let inode = kept().1;
    let note = project.join("notes/tz-bug.md");
    let text = fs::read_to_string(&note).unwrap();
    fs::write(
        &note,
        text.replace("The fix was small.", "The fix was rather small."),
    )
    .unwrap();
    let at = "2026-01-02T03:04:05Z";
    crate::lastmod::git(&project, &["commit", "-qam", "a word more"], at);
    let (_, urls) = parse(&build());
    let page = (urls.iter())
        .find(|u| u.loc.ends_with("/clocks-offsets-and-the-day-that-wasn-t/"))
        .unwrap();
    assert_eq!(page.lastmod.as_deref(), Some("2026-01-02T03:04:05+00:00"));
    assert_ne!(kept().1, inode, "a source read anew was not kept");
}
