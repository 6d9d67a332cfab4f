//! What a run wrote, the next cleans up (on a real Hugo build, `tests/fixtures/views`):
//! a view turned off takes its files with it, a switch of `gzip` takes the other form's
//! set, and a generator's own sitemaps beside ours are named once, with how to turn
//! them off. Only files our seal (views) or our output's name (sitemaps) proves ours go.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::util::{Site, copy_tree, slashed, validate_set, walk};

/// The fixture's built site, copied under `public/`, Hugo's own sitemaps kept.
fn hugo_site() -> Site {
    let site = Site::new(&[]);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/views/public");
    copy_tree(&fixture, &site.public());
    site
}

const CONFIG: &str = "base_url = 'https://docs.example.org/'\nlastmod = 'mtime'\n";

const ALL_VIEWS: &str = "html_sitemap = true\nllms_txt = true\nllms_full_txt = true\nllms_markdown = true\nllms_txt_per_section = true\n[[section]]\nname = 'docs'\nmatch = ['docs/**']\n";

/// The files below the site whose names views give them.
fn view_files(site: &Site) -> Vec<String> {
    let mut found: Vec<String> = walk(&site.public())
        .iter()
        .map(|p| slashed(p.strip_prefix(site.public()).unwrap()))
        .filter(|p| p.ends_with(".md") || p.ends_with("llms.txt") || p.ends_with("llms-full.txt"))
        .chain(
            ["sitemap.html"]
                .iter()
                .filter(|n| site.public().join(n).exists())
                .map(|n| n.to_string()),
        )
        .collect();
    found.sort();
    found
}

#[test]
fn a_view_turned_off_takes_its_files_with_it() {
    let site = hugo_site();
    site.config(&format!("{CONFIG}{ALL_VIEWS}"));
    site.cmd().assert().success();
    let all = view_files(&site);
    assert!(
        all.contains(&"llms-full.txt".to_string()) && all.contains(&"docs/llms.txt".to_string())
    );
    let twins = all.iter().filter(|p| p.ends_with(".html.md")).count();
    assert!(twins > 5, "{all:?}");

    // llms_full_txt off: llms-full.txt goes, the rest stays.
    let some = ALL_VIEWS.replace("llms_full_txt = true\n", "");
    site.config(&format!("{CONFIG}{some}"));
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "removed 1 file of earlier views (a page gone, or a view turned off)",
        ));
    assert!(!site.public().join("llms-full.txt").exists());

    // No sections' llms.txt, no twins: each goes; a twin edited since is the user's.
    let edited = site.read("about/index.html.md") + "My note.\n";
    fs::write(site.public().join("about/index.html.md"), &edited).unwrap();
    site.config(&format!("{CONFIG}html_sitemap = true\nllms_txt = true\n"));
    let removed = format!("removed {} files of earlier views", twins);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(removed));
    assert_eq!(
        view_files(&site),
        ["about/index.html.md", "llms.txt", "sitemap.html"]
    );
    assert_eq!(site.read("about/index.html.md"), edited);

    // Every view off: ours go, with no line saying anything was written; the sitemap
    // is as a run that never had views writes it.
    site.config(CONFIG);
    site.cmd().assert().success().stderr(
        predicate::str::contains("removed 2 files of earlier views")
            .and(predicate::str::contains("wrote removed").not()),
    );
    assert_eq!(view_files(&site), ["about/index.html.md"]);
    validate_set(&site.public().join("sitemap.xml"));
}

/// A shard's views are the merge's: a shard build writes none, and removes none.
#[test]
fn a_shard_build_leaves_the_views_to_the_merge() {
    let site = hugo_site();
    site.config(&format!("{CONFIG}html_sitemap = true\nllms_txt = true\n"));
    site.cmd().assert().success();
    let before = (site.read("llms.txt"), site.read("sitemap.html"));
    site.config(&format!("{CONFIG}llms_txt = true\n"));
    site.cmd().args(["--shard", "docs"]).assert().success();
    assert_eq!((site.read("llms.txt"), site.read("sitemap.html")), before);
}

#[test]
fn switching_gzip_takes_the_other_forms_set() {
    let site = hugo_site();
    // Children too: the other form's index and every child it names go.
    site.config(&format!("{CONFIG}max_urls_per_file = 10\n"));
    site.cmd().assert().success();
    let mut plain = validate_set(&site.public().join("sitemap.xml"));
    assert!(plain.len() > 2, "{plain:?}");
    // Not a sitemap at the other form's name: it stays.
    site.cmd()
        .arg("--gzip")
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "removed public/sitemap.xml and {} child sitemaps: the sitemap without gzip, which public/sitemap.xml.gz replaces",
            plain.len()
        )));
    plain.push(site.public().join("sitemap.xml"));
    for path in &plain {
        assert!(!path.exists(), "{}", path.display());
    }
    // The gzipped set: its index and children, checked as a whole.
    let gzipped: Vec<_> = fs::read_dir(site.public())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".xml.gz"))
        .collect();
    assert_eq!(gzipped.len(), plain.len(), "{gzipped:?}");
    let set = site.public().join("sitemap.xml.gz");
    site.cmd().arg("check").arg(&set).assert().success();
    fs::write(site.public().join("sitemap.xml"), "notes of our own\n").unwrap();
    site.cmd()
        .arg("--gzip")
        .assert()
        .success()
        .stderr(predicate::str::contains("without gzip").not());
    assert_eq!(site.read("sitemap.xml"), "notes of our own\n");
    // And back.
    fs::remove_file(site.public().join("sitemap.xml")).unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "the sitemap with gzip, which public/sitemap.xml replaces",
        ));
    for path in &gzipped {
        assert!(!path.exists(), "{}", path.display());
    }
    validate_set(&site.public().join("sitemap.xml"));
}

/// Hugo's per-language sitemaps stay (they are not ours), named once, with the switch
/// that turns them off when the generator is known.
#[test]
fn a_generators_own_sitemaps_are_named_once() {
    let site = hugo_site();
    site.config(CONFIG);
    let note = "note: public/de/sitemap.xml and 1 more (-v lists them): sitemaps beside ours that this run did not write; search engines that find them read their lists too: turn the generator's own sitemap off, or delete them after the build";
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(note).count(1));
    assert!(site.public().join("en/sitemap.xml").exists());
    site.cmd()
        .arg("-v")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: public/de/sitemap.xml, public/en/sitemap.xml: sitemaps",
        ));
    site.config(&format!("{CONFIG}[source]\ngenerator = 'hugo'\n"));
    site.cmd().assert().success().stderr(predicate::str::contains(
        "turn Hugo's off (add disableKinds = [\"sitemap\"] to its config), or delete them after the build",
    ));
    // Gone, nothing is said; a file of that name that holds no sitemap is not one.
    fs::remove_file(site.public().join("en/sitemap.xml")).unwrap();
    fs::write(site.public().join("de/sitemap.xml"), "<html></html>").unwrap();
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("note:").not());
}
