//! Sites built in parts: `build --shard`, `merge`, and the CI recipes of `examples/ci/`
//! run step by step with the real binary (the generator's own step replaced by pages
//! written here; uploads and downloads by copies).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use yaml_rust2::{Yaml, YamlLoader};

use crate::tools::JQ;
use crate::util::{bin, copy_tree, parse, validate_set, walk};

const BASE: &str = "https://example.org/";

/// A small site in three parts: each part's pages.
const PARTS: &[(&str, &[&str])] = &[
    (
        "blog",
        &[
            "blog/index.html",
            "blog/one/index.html",
            "blog/two/index.html",
        ],
    ),
    (
        "docs",
        &[
            "docs/index.html",
            "docs/start/index.html",
            "docs/reference.html",
        ],
    ),
    ("pages", &["index.html", "about.html", "contact/index.html"]),
];

/// Writes `page` under `public`, titled after itself, dated by its place among all
/// parts' pages (the same in every build of it).
fn write_page(public: &Path, page: &str, body: &str) {
    let path = public.join(page);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(
        &path,
        format!("<!doctype html><html lang=\"en\"><title>{page}</title><p>{body}</p>\n"),
    )
    .unwrap();
    let place = PARTS
        .iter()
        .flat_map(|(_, pages)| pages.iter())
        .position(|p| *p == page)
        .unwrap_or(99);
    let when = UNIX_EPOCH + Duration::from_secs(1_700_000_000 + 86_400 * place as u64);
    fs::File::options()
        .append(true)
        .open(&path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

fn write_part(public: &Path, part: &str) {
    let (_, pages) = PARTS.iter().find(|(name, _)| *name == part).unwrap();
    for page in *pages {
        write_page(public, page, "first");
    }
}

/// Every URL of the set at `index` (an index or a sitemap) with its `lastmod`, the set
/// validated against the schemas on the way.
fn listed(index: &Path) -> BTreeMap<String, Option<String>> {
    let mut files = validate_set(index);
    if files.is_empty() {
        files.push(index.to_path_buf());
    }
    let mut urls = BTreeMap::new();
    for file in files {
        for url in parse(&fs::read_to_string(&file).unwrap()).1 {
            assert!(
                urls.insert(url.loc.clone(), url.lastmod).is_none(),
                "{} twice",
                url.loc
            );
        }
    }
    urls
}

/// What one build of the whole site lists.
fn whole_build() -> BTreeMap<String, Option<String>> {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    for (part, _) in PARTS {
        write_part(&public, part);
    }
    bin()
        .current_dir(dir.path())
        .args(["build", "public", "--base-url", BASE, "-q"])
        .assert()
        .success();
    listed(&public.join("sitemap.xml"))
}

/// The recipe's YAML.
fn recipe(name: &str) -> Yaml {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/ci")
        .join(name);
    YamlLoader::load_from_str(&fs::read_to_string(path).unwrap())
        .unwrap()
        .remove(0)
}

fn strings(list: &Yaml) -> Vec<String> {
    list.as_vec()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The directory holding the binary under test, for `PATH`.
fn bin_dir() -> PathBuf {
    let bin = assert_cmd::cargo::cargo_bin("sitemapgen");
    bin.parent().unwrap().to_path_buf()
}

fn path_with_bin() -> std::ffi::OsString {
    let mut paths = vec![bin_dir()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

/// The job's step that runs the Action with `command` (`build` when none is given).
fn action_step<'a>(job: &'a Yaml, command: &str) -> &'a Yaml {
    job["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|step| {
            let ours = step["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("sitemapgen/sitemapgen@"));
            ours && step["with"]["command"].as_str().unwrap_or("build") == command
        })
        .unwrap_or_else(|| panic!("no step runs the action's {command}"))
}

/// Runs the Action's run step (`action/run.sh`) in `dir` with the step's `with:` inputs,
/// `${{ matrix.part }}` given: its `GITHUB_OUTPUT`, or its output on failure.
fn run_action(dir: &Path, step: &Yaml, part: Option<&str>) -> Result<String, String> {
    let outputs = dir.join("github-output");
    fs::write(&outputs, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("action/run.sh"))
        .current_dir(dir)
        .env("PATH", path_with_bin())
        .env("GITHUB_OUTPUT", &outputs)
        .env_remove("CI");
    for (key, value) in step["with"].as_hash().unwrap() {
        let key = key.as_str().unwrap().to_uppercase().replace('-', "_");
        let mut value = value.as_str().unwrap().to_string();
        if let Some(part) = part {
            value = value.replace("${{ matrix.part }}", part);
        }
        assert!(!value.contains("${{"), "{key}: {value} is not given here");
        cmd.env(format!("INPUT_{key}"), value);
    }
    let out = cmd.output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(fs::read_to_string(&outputs).unwrap())
    } else {
        Err(said)
    }
}

/// A shard's manifest, parsed.
fn manifest(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

/// The files a shard's manifest names, with their bytes.
fn shard_files(dir: &Path, name: &str) -> BTreeMap<String, Vec<u8>> {
    let manifest = manifest(&dir.join(format!("sitemap-{name}.manifest.json")));
    let mut names: Vec<String> = manifest["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["file"].as_str().unwrap().to_string())
        .collect();
    names.push(manifest["url_hashes"]["file"].as_str().unwrap().to_string());
    names.push(format!("sitemap-{name}.manifest.json"));
    names
        .into_iter()
        .map(|n| {
            let bytes = fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// The index's entries: each child's URL and `lastmod`.
fn index_entries(index: &Path) -> BTreeMap<String, Option<String>> {
    let (root, entries) = parse(&fs::read_to_string(index).unwrap());
    assert_eq!(root, "sitemapindex");
    entries.into_iter().map(|e| (e.loc, e.lastmod)).collect()
}

fn check_strict(path: &Path) {
    bin()
        .arg("check")
        .arg("--strict")
        .arg(path)
        .assert()
        .success();
}

#[test]
fn the_github_recipe_runs_three_shards_a_merge_and_a_partial_rebuild() {
    if !JQ.present() {
        return;
    }
    let yaml = recipe("github-sharded.yml");
    let jobs = &yaml["jobs"];
    let parts = strings(&jobs["build"]["strategy"]["matrix"]["part"]);
    let names: Vec<&str> = PARTS.iter().map(|(n, _)| *n).collect();
    assert_eq!(parts, names);
    let (shard_step, merge_step) = (
        action_step(&jobs["build"], "build"),
        action_step(&jobs["deploy"], "merge"),
    );
    let work = tempfile::tempdir().unwrap();
    let deploy = work.path().join("deploy");
    // Each matrix job: its part built into public/, mapped, uploaded.
    let build_job = |part: &str| {
        let job = work.path().join(format!("job-{part}"));
        write_part(&job.join("public"), part);
        let outputs = run_action(&job, shard_step, Some(part)).unwrap();
        assert!(
            outputs.contains(&format!("sitemap=public/sitemap-{part}.manifest.json")),
            "{outputs}"
        );
        // download-artifact with merge-multiple: every part's files in one public/.
        copy_tree(&job.join("public"), &deploy.join("public"));
        job
    };
    for part in &parts {
        build_job(part);
    }
    let outputs = run_action(&deploy, merge_step, None).unwrap();
    assert!(
        outputs.contains("sitemap=public/sitemap.xml\nurls=9\n"),
        "{outputs}"
    );
    let index = deploy.join("public/sitemap.xml");
    assert_eq!(listed(&index), whole_build());
    check_strict(&index);

    // One part rebuilt: a page of the docs changed.
    let before: Vec<_> = ["blog", "pages"]
        .iter()
        .map(|s| shard_files(&deploy.join("public"), s))
        .collect();
    let entries_before = index_entries(&index);
    let job = work.path().join("job-docs");
    write_page(&job.join("public"), "docs/start/index.html", "second");
    let when = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    fs::File::options()
        .append(true)
        .open(job.join("public/docs/start/index.html"))
        .unwrap()
        .set_modified(when)
        .unwrap();
    run_action(&job, shard_step, Some("docs")).unwrap();
    copy_tree(&job.join("public"), &deploy.join("public"));
    run_action(&deploy, merge_step, None).unwrap();
    let after: Vec<_> = ["blog", "pages"]
        .iter()
        .map(|s| shard_files(&deploy.join("public"), s))
        .collect();
    assert_eq!(before, after, "the other shards' files are untouched");
    let entries_after = index_entries(&index);
    let kept = |e: &BTreeMap<String, Option<String>>| -> Vec<(String, Option<String>)> {
        e.iter()
            .filter(|(loc, _)| !loc.contains("sitemap-docs."))
            .map(|(l, m)| (l.clone(), m.clone()))
            .collect()
    };
    assert_eq!(kept(&entries_before), kept(&entries_after));
    let docs: Vec<_> = entries_after
        .iter()
        .filter(|(loc, _)| loc.contains("sitemap-docs."))
        .collect();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].1.as_deref(), Some("2026-09-21T14:13:20+00:00"));
    assert!(
        !entries_before.contains_key(docs[0].0),
        "the docs child is a new file"
    );
    check_strict(&index);
}

// Unix only: sh runs the recipe's script lines.
#[cfg(unix)]
#[test]
fn the_gitlab_recipe_runs_its_sitemapgen_lines() {
    let yaml = recipe("gitlab-sharded.yml");
    let matrix = &yaml["build"]["parallel"]["matrix"][0]["PART"];
    let parts = strings(matrix);
    let work = tempfile::tempdir().unwrap();
    let deploy = work.path().join("deploy");
    // Only the lines that run sitemapgen: the generator's are replaced by pages here.
    let run_lines = |dir: &Path, script: &Yaml, part: Option<&str>| {
        for line in strings(script)
            .iter()
            .filter(|l| l.starts_with("sitemapgen "))
        {
            let mut cmd = Command::new("bash");
            cmd.args(["-c", line])
                .current_dir(dir)
                .env("PATH", path_with_bin())
                .env_remove("CI");
            if let Some(part) = part {
                cmd.env("PART", part);
            }
            let out = cmd.output().unwrap();
            assert!(
                out.status.success(),
                "{line}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    };
    for part in &parts {
        let job = work.path().join(format!("job-{part}"));
        write_part(&job.join("public"), part);
        run_lines(&job, &yaml["build"]["script"], Some(part));
        copy_tree(&job.join("public"), &deploy.join("public"));
    }
    run_lines(&deploy, &yaml["pages"]["script"], None);
    assert_eq!(listed(&deploy.join("public/sitemap.xml")), whole_build());
}

/// Three shards of one site in folders of one output, as a monorepo's builds are
/// deployed together: two built in their folder with its base URL, the rest excluding
/// those folders.
fn folders_of_one_output(dir: &Path) {
    let public = dir.join("public");
    for (part, _) in PARTS {
        write_part(&public, part);
    }
    fs::write(
        dir.join("pages.toml"),
        format!("base_url = '{BASE}'\npublic_dir = 'public'\nexclude = ['blog/**', 'docs/**']\n"),
    )
    .unwrap();
    for part in ["blog", "docs"] {
        bin()
            .current_dir(dir)
            .args([
                "build",
                &format!("public/{part}"),
                "--base-url",
                &format!("{BASE}{part}/"),
                "--shard",
                part,
                "-q",
            ])
            .assert()
            .success();
    }
    bin()
        .current_dir(dir)
        .args(["build", "-c", "pages.toml", "--shard", "pages", "-q"])
        .assert()
        .success();
}

fn merge_shared(dir: &Path) -> assert_cmd::assert::Assert {
    bin()
        .current_dir(dir)
        .args([
            "merge",
            "public/sitemap-pages.manifest.json",
            "public/blog/sitemap-blog.manifest.json",
            "public/docs/sitemap-docs.manifest.json",
        ])
        .args(["--base-url", BASE, "-o", "public"])
        .assert()
}

#[test]
fn shards_in_folders_merge_and_a_rebuilt_shard_leaves_the_others_alone() {
    let dir = tempfile::tempdir().unwrap();
    folders_of_one_output(dir.path());
    merge_shared(dir.path())
        .success()
        .stderr(predicates::str::contains(
            "wrote public/sitemap.xml: 3 sitemaps of 3 shards, 9 URLs",
        ));
    let public = dir.path().join("public");
    assert_eq!(listed(&public.join("sitemap.xml")), whole_build());
    let index = index_entries(&public.join("sitemap.xml"));
    assert!(
        index
            .keys()
            .any(|l| l.starts_with("https://example.org/docs/sitemap-docs.1-")),
        "{index:?}"
    );

    let others = || {
        (
            shard_files(&public, "pages"),
            shard_files(&public.join("blog"), "blog"),
        )
    };
    let before = others();
    let old_docs = shard_files(&public.join("docs"), "docs");
    write_page(&public, "docs/reference.html", "second");
    fs::File::options()
        .append(true)
        .open(public.join("docs/reference.html"))
        .unwrap()
        .set_modified(UNIX_EPOCH + Duration::from_secs(1_790_000_000))
        .unwrap();
    bin()
        .current_dir(dir.path())
        .args([
            "build",
            "public/docs",
            "--base-url",
            "https://example.org/docs/",
            "--shard",
            "docs",
            "-v",
        ])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "removed stale public/docs/sitemap-docs.1-",
        ));
    assert_eq!(before, others());
    // What the rebuilt shard's new manifest no longer names is gone (its child; its side
    // file is the same, the URLs being the same).
    let new_docs = shard_files(&public.join("docs"), "docs");
    let gone: Vec<&String> = old_docs
        .keys()
        .filter(|n| !new_docs.contains_key(*n))
        .collect();
    assert_eq!(gone.len(), 1, "{gone:?}");
    for name in gone {
        assert!(!public.join("docs").join(name).exists(), "{name} is stale");
    }
    merge_shared(dir.path()).success();
    let after = index_entries(&public.join("sitemap.xml"));
    let not_docs = |e: &BTreeMap<String, Option<String>>| {
        e.iter().filter(|(l, _)| !l.contains("/docs/")).count()
    };
    assert_eq!(not_docs(&index), 2);
    for (loc, lastmod) in index.iter().filter(|(l, _)| !l.contains("/docs/")) {
        assert_eq!(after.get(loc), Some(lastmod), "{loc} keeps its entry");
    }
    check_strict(&public.join("sitemap.xml"));
}

/// Shards in their own folders (as a CI matrix leaves them), merged in `deploy/public`.
fn separate_shards(dir: &Path, config: &str, extra: &[&str]) -> PathBuf {
    let deploy = dir.join("deploy/public");
    for (part, _) in PARTS {
        let job = dir.join(format!("job-{part}"));
        write_part(&job.join("public"), part);
        fs::write(
            job.join("sitemap.toml"),
            format!("base_url = '{BASE}'\npublic_dir = 'public'\n{config}"),
        )
        .unwrap();
        bin()
            .current_dir(&job)
            .args(["build", "--shard", part, "-q"])
            .args(extra)
            .assert()
            .success();
        copy_tree(&job.join("public"), &deploy);
    }
    deploy
}

/// The site of every part built whole in `dir/whole` with `config`, `files` (paths
/// below it, and their text) written first: what a merge of its shards must match.
fn whole_site_built(dir: &Path, config: &str, files: &[(&str, &str)]) -> PathBuf {
    let whole = dir.join("whole");
    for (part, _) in PARTS {
        write_part(&whole.join("public"), part);
    }
    for (rel, text) in files {
        fs::write(whole.join(rel), text).unwrap();
    }
    fs::write(
        whole.join("sitemap.toml"),
        format!("base_url = '{BASE}'\npublic_dir = 'public'\n{config}"),
    )
    .unwrap();
    bin()
        .current_dir(&whole)
        .args(["build", "-q"])
        .assert()
        .success();
    whole
}

fn merge_in(deploy: &Path, manifests: &[&str], extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut cmd = bin();
    cmd.current_dir(deploy)
        .arg("merge")
        .args(manifests)
        .args(["--base-url", BASE, "-o", "."])
        .args(extra);
    cmd.assert()
}

const ALL: &[&str] = &[
    "sitemap-blog.manifest.json",
    "sitemap-docs.manifest.json",
    "sitemap-pages.manifest.json",
];

/// Runs a merge that must be refused: exit 2, one line naming what is wrong, and no
/// index written.
fn refused(deploy: &Path, manifests: &[&str], extra: &[&str], says: &[&str]) {
    let out = merge_in(deploy, manifests, extra)
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for s in says {
        assert!(stderr.contains(s), "{stderr} does not say {s}");
    }
    assert!(
        !deploy.join("sitemap.xml").exists() && !deploy.join("sitemap.xml.gz").exists(),
        "{stderr}: an index was written"
    );
}

// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn bad_shards_are_refused_with_one_line_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let deploy = separate_shards(dir.path(), "", &[]);
    let docs_manifest = manifest(&deploy.join("sitemap-docs.manifest.json"));
    let docs_child = docs_manifest["children"][0]["file"]
        .as_str()
        .unwrap()
        .to_string();
    let side = docs_manifest["url_hashes"]["file"]
        .as_str()
        .unwrap()
        .to_string();
    let keep = |name: &str| fs::read(deploy.join(name)).unwrap();
    let (child_bytes, side_bytes) = (keep(&docs_child), keep(&side));

    // A tampered child, then a missing one.
    fs::write(
        deploy.join(&docs_child),
        String::from_utf8(child_bytes.clone())
            .unwrap()
            .replace("start", "begin"),
    )
    .unwrap();
    refused(
        &deploy,
        ALL,
        &[],
        &[&docs_child, "does not match its manifest"],
    );
    fs::remove_file(deploy.join(&docs_child)).unwrap();
    refused(&deploy, ALL, &[], &[&docs_child, "cannot be read"]);
    // A link to the very bytes, elsewhere: never followed.
    let elsewhere = dir.path().join("elsewhere.xml");
    fs::write(&elsewhere, &child_bytes).unwrap();
    std::os::unix::fs::symlink(&elsewhere, deploy.join(&docs_child)).unwrap();
    refused(&deploy, ALL, &[], &[&docs_child, "is a symbolic link"]);
    fs::remove_file(deploy.join(&docs_child)).unwrap();
    fs::write(deploy.join(&docs_child), &child_bytes).unwrap();
    // An altered side file of URL hashes.
    let mut swapped = side_bytes.clone();
    swapped.swap(0, 8);
    fs::write(deploy.join(&side), &swapped).unwrap();
    refused(&deploy, ALL, &[], &[&side, "does not match its manifest"]);
    fs::write(deploy.join(&side), &side_bytes).unwrap();

    // A manifest of another version.
    let old = fs::read_to_string(deploy.join("sitemap-docs.manifest.json"))
        .unwrap()
        .replace("\"sitemapgen_shard\": 2", "\"sitemapgen_shard\": 0");
    fs::write(deploy.join("old.manifest.json"), old).unwrap();
    refused(
        &deploy,
        &["sitemap-blog.manifest.json", "old.manifest.json"],
        &[],
        &["old.manifest.json", "format version 0"],
    );
    // Two shards of one name.
    fs::copy(
        deploy.join("sitemap-docs.manifest.json"),
        deploy.join("copy.manifest.json"),
    )
    .unwrap();
    refused(
        &deploy,
        &["sitemap-docs.manifest.json", "copy.manifest.json"],
        &[],
        &["shard 'docs' has two manifests"],
    );
    // A manifest that names another shard's child (the index would list it twice, and
    // it is not named as the shard's own), then one that names its own twice.
    let mut greedy = manifest(&deploy.join("sitemap-blog.manifest.json"));
    let theirs = docs_manifest["children"][0].clone();
    greedy["children"].as_array_mut().unwrap().push(theirs);
    fs::write(deploy.join("greedy.manifest.json"), greedy.to_string()).unwrap();
    refused(
        &deploy,
        &["greedy.manifest.json", "sitemap-docs.manifest.json"],
        &[],
        &[&format!(
            "greedy.manifest.json: {docs_child} is not named as a child of shard 'blog' (sitemap-blog.N-HASH.xml)"
        )],
    );
    let mut twice = manifest(&deploy.join("sitemap-blog.manifest.json"));
    let own = twice["children"][0].clone();
    twice["children"].as_array_mut().unwrap().push(own);
    fs::write(deploy.join("twice.manifest.json"), twice.to_string()).unwrap();
    refused(
        &deploy,
        &["twice.manifest.json"],
        &[],
        &["is named by shard 'blog' and again by shard 'blog'"],
    );
    // Another base URL.
    let moved = String::from_utf8(keep("sitemap-docs.manifest.json"))
        .unwrap()
        .replace(
            "https://example.org/\",\n  \"sitemap\"",
            "https://example.com/\",\n  \"sitemap\"",
        );
    fs::write(deploy.join("moved.manifest.json"), moved).unwrap();
    refused(
        &deploy,
        &["moved.manifest.json"],
        &[],
        &[
            "built for https://example.com/",
            "not under --base-url https://example.org/",
        ],
    );
    merge_in(&deploy, ALL, &["--base-url", "https://example.com/"]).code(2);
    // A URL in two shards.
    let job = dir.path().join("job-blog");
    write_page(&job.join("public"), "about.html", "also here");
    bin()
        .current_dir(&job)
        .args(["build", "--shard", "blog", "-q"])
        .assert()
        .success();
    let dup = dir.path().join("dup");
    copy_tree(&deploy, &dup);
    copy_tree(&job.join("public"), &dup);
    refused(
        &dup,
        ALL,
        &[],
        &["https://example.org/about.html is listed by shard 'blog' and by shard 'pages'"],
    );
    // Gzipped shards with plain ones.
    let gz = dir.path().join("gz");
    copy_tree(&deploy, &gz);
    bin()
        .current_dir(dir.path().join("job-docs"))
        .args(["build", "--shard", "docs", "--gzip", "-q"])
        .assert()
        .success();
    copy_tree(&dir.path().join("job-docs/public"), &gz);
    refused(
        &gz,
        ALL,
        &[],
        &[
            "shard 'docs' was built to write sitemap.xml.gz, and this merge writes sitemap.xml",
            "build every shard and merge with --gzip (or gzip = true), or none",
        ],
    );
    refused(
        &gz,
        ALL,
        &["--gzip"],
        &["shard 'blog' was built to write sitemap.xml, and this merge writes sitemap.xml.gz"],
    );
    // Manifests that name what the merge writes: the home page, the host's headers. The
    // merge writes the name its config gives, and refuses theirs; nothing is replaced.
    for forged in ["index.html", "_headers"] {
        let home = keep("index.html");
        let forge = dir.path().join(format!("forged-{forged}"));
        copy_tree(&deploy, &forge);
        for name in ALL {
            let text = fs::read_to_string(forge.join(name)).unwrap();
            let text = text.replace(
                "\"sitemap\": \"sitemap.xml\"",
                &format!("\"sitemap\": \"{forged}\""),
            );
            fs::write(forge.join(name), text).unwrap();
        }
        fs::write(forge.join("_headers"), "/*\n  X-Frame-Options: DENY\n").unwrap();
        refused(
            &forge,
            ALL,
            &[],
            &[&format!(
                "shard 'blog' was built to write {forged}, and this merge writes sitemap.xml"
            )],
        );
        assert_eq!(fs::read(forge.join("index.html")).unwrap(), home);
        assert_eq!(
            fs::read_to_string(forge.join("_headers")).unwrap(),
            "/*\n  X-Frame-Options: DENY\n"
        );
    }

    merge_in(&deploy, ALL, &[]).success();
    check_strict(&deploy.join("sitemap.xml"));
}

#[test]
fn the_merge_makes_the_views_and_joins_the_change_lists() {
    let config = "html_sitemap = true\nllms_txt = true\nllms_markdown = true\nchanges = true\nrobots_txt = 'create'\n";
    let dir = tempfile::tempdir().unwrap();
    let deploy = separate_shards(dir.path(), config, &[]);
    fs::write(
        deploy.parent().unwrap().join("sitemap.toml"),
        format!("base_url = '{BASE}'\npublic_dir = 'public'\n{config}"),
    )
    .unwrap();
    // Pages a manifest's views record that its sitemaps do not list: a URL with a line
    // break (a heading forged into llms.txt), and many more pages than the shard has.
    let docs = deploy.join("sitemap-docs.manifest.json");
    let honest = fs::read(&docs).unwrap();
    let mut forged = manifest(&docs);
    let page = |loc: String| serde_json::json!({"loc": loc, "title": "T", "description": null, "path": null});
    let pages = forged["views"]["pages"].as_array_mut().unwrap();
    pages.push(page(format!("{BASE}docs/\n\n## Forged\n")));
    fs::write(&docs, forged.to_string()).unwrap();
    let says = "its views record https://example.org/docs/\\n\\n## Forged\\n, which its sitemaps do not list";
    refused(&deploy, ALL, &["-c", "../sitemap.toml"], &[says]);
    let pages = forged["views"]["pages"].as_array_mut().unwrap();
    pages.pop();
    pages.extend((0..1_000).map(|i| page(format!("{BASE}docs/p{i}/"))));
    fs::write(&docs, forged.to_string()).unwrap();
    refused(
        &deploy,
        ALL,
        &["-c", "../sitemap.toml"],
        &["which its sitemaps do not list"],
    );
    fs::write(&docs, honest).unwrap();
    merge_in(&deploy, ALL, &["-c", "../sitemap.toml"]).success();
    // The views match one build's of the whole site.
    let whole = whole_site_built(dir.path(), config, &[]);
    for view in ["sitemap.html", "llms.txt"] {
        assert_eq!(
            fs::read_to_string(deploy.join(view)).unwrap(),
            fs::read_to_string(whole.join("public").join(view)).unwrap(),
            "{view}"
        );
    }
    // The Markdown twins too, each the same.
    let twins = |root: &Path| -> Vec<(PathBuf, String)> {
        let mut found: Vec<(PathBuf, String)> = walk(root)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .map(|p| {
                (
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    fs::read_to_string(&p).unwrap(),
                )
            })
            .collect();
        found.sort();
        found
    };
    let merged = twins(&deploy);
    assert!(!merged.is_empty());
    assert_eq!(merged, twins(&whole.join("public")));
    assert!(
        fs::read_to_string(deploy.join("robots.txt"))
            .unwrap()
            .contains("Sitemap: https://example.org/sitemap.xml\n")
    );
    // First runs: nothing listed as changed.
    let changes = deploy.parent().unwrap().join(".sitemap-changes.json");
    let list = |path: &Path| -> serde_json::Value {
        serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
    };
    assert_eq!(list(&changes)["first_run"], true);

    // A page of docs changes; a page moves from pages to blog.
    let docs = dir.path().join("job-docs");
    write_page(&docs.join("public"), "docs/start/index.html", "second");
    let pages = dir.path().join("job-pages");
    fs::remove_file(pages.join("public/about.html")).unwrap();
    write_page(&dir.path().join("job-blog/public"), "about.html", "moved");
    for part in ["docs", "pages", "blog"] {
        let job = dir.path().join(format!("job-{part}"));
        bin()
            .current_dir(&job)
            .args(["build", "--shard", part, "-q"])
            .assert()
            .success();
        copy_tree(&job.join("public"), &deploy);
    }
    merge_in(&deploy, ALL, &["-c", "../sitemap.toml"])
        .success()
        .stderr(predicates::str::contains("1 added, 1 updated, 0 removed"));
    let joined = list(&changes);
    assert_eq!(
        joined["added"],
        serde_json::json!(["https://example.org/about.html"])
    );
    assert_eq!(
        joined["updated"],
        serde_json::json!(["https://example.org/docs/start/"])
    );
    assert_eq!(joined["removed"], serde_json::json!([]));
    // The same merge again keeps the list (and a submission's record) as it is.
    let bytes = fs::read(&changes).unwrap();
    merge_in(&deploy, ALL, &["-c", "../sitemap.toml"]).success();
    assert_eq!(bytes, fs::read(&changes).unwrap());
}

const SHARDS_TOML: &str = "base_url = 'https://example.org/'
public_dir = 'public'

[[shards]]
name = 'blog'
match = 'blog/**'

[[shards]]
name = 'docs'
match = ['docs/**']

[[shards]]
name = 'pages'
";

#[test]
fn declared_shards_split_one_output_and_the_merge_wants_each() {
    // Hugo's segments render into one public/: each shard lists its [[shards]] pages.
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    for (part, _) in PARTS {
        write_part(&public, part);
    }
    fs::write(dir.path().join("sitemap.toml"), SHARDS_TOML).unwrap();
    let build = |part: &str| {
        bin()
            .current_dir(dir.path())
            .args(["build", "--shard", part, "-v"])
            .assert()
            .success()
    };
    build("docs")
        .stderr(predicates::str::contains(
            "about.html: another shard's page (shard 'pages')",
        ))
        // The summary counts them as -v names them, not as excluded by rules.
        .stderr(predicates::str::contains("other shards' pages)"))
        .stderr(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("excluded by rules"),
        ));
    build("blog");
    let merge = |manifests: &[&str]| {
        let mut cmd = bin();
        cmd.current_dir(dir.path())
            .arg("merge")
            .args(manifests.iter().map(|m| format!("public/{m}")));
        cmd.assert()
    };
    // A declared shard not built yet: refused, nothing written.
    let out = merge(&["sitemap-blog.manifest.json", "sitemap-docs.manifest.json"])
        .code(2)
        .get_output()
        .clone();
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("shard 'pages' is declared in [[shards]] but no manifest of it is given")
    );
    assert!(!public.join("sitemap.xml").exists());
    build("pages");
    merge(ALL).success();
    assert_eq!(listed(&public.join("sitemap.xml")), whole_build());
    check_strict(&public.join("sitemap.xml"));

    // A shard the config does not declare.
    let err = build_refused(dir.path(), "doc");
    assert!(
        err.contains(
            "--shard: shard: 'doc' is not one of the [[shards]] of sitemap.toml: blog, docs, pages"
        ),
        "{err}"
    );
}

/// `build --shard NAME` in `dir`, refused with exit 2: what it said.
fn build_refused(dir: &Path, name: &str) -> String {
    let out = bin()
        .current_dir(dir)
        .args(["build", "--shard", name])
        .assert()
        .code(2);
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

#[test]
fn bad_shard_tables_are_refused_naming_their_line() {
    let table = [
        (
            "[[shards]]\nname = 'Docs'\nmatch = 'docs/**'\n",
            "[[shards]] #1 name: 'Docs' may hold only lowercase letters",
        ),
        (
            "[[shards]]\nname = 'a'\n[[shards]]\nname = 'b'\n",
            "[[shards]] #2: has no match, and an earlier shard takes the pages",
        ),
        (
            "[[shards]]\nname = 'a'\nmatch = []\n",
            "[[shards]] #1 match: is an empty list",
        ),
        (
            "[[shards]]\nname = 'a'\nmatch = 'x'\n[[shards]]\nname = 'a'\nmatch = 'y'\n",
            "'a' names an earlier shard too",
        ),
    ];
    for (tables, says) in table {
        let dir = tempfile::tempdir().unwrap();
        write_part(&dir.path().join("public"), "pages");
        fs::write(
            dir.path().join("sitemap.toml"),
            format!("base_url = '{BASE}'\npublic_dir = 'public'\n{tables}"),
        )
        .unwrap();
        let err = build_refused(dir.path(), "a");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{tables}: {err}"
        );
    }
}

#[test]
fn a_real_build_in_shards_lists_the_urls_and_dates_of_one_build() {
    if !crate::tools::GIT.present() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // A real Hugo build with dates from its sources, cloned with its history.
    let project = crate::util::dated_project("hugo", "public", tmp.path());
    let whole = tmp.path().join("whole.xml");
    bin()
        .current_dir(&project)
        .arg("-o")
        .arg(&whole)
        .arg("-q")
        .assert()
        .success();
    let whole = listed(&whole);
    assert!(
        whole.values().filter(|d| d.is_some()).count() > 20,
        "{whole:?}"
    );

    // Three shards by [[shards]], all in public/.
    let config = fs::read_to_string(project.join("sitemap.toml")).unwrap();
    let tables = "\n[[shards]]\nname = 'docs'\nmatch = 'docs/**'\n\n[[shards]]\nname = 'posts'\nmatch = 'posts/**'\n\n[[shards]]\nname = 'rest'\n";
    fs::write(project.join("sitemap.toml"), format!("{config}{tables}")).unwrap();
    for part in ["docs", "posts", "rest"] {
        bin()
            .current_dir(&project)
            .args(["build", "--shard", part, "-q"])
            .assert()
            .success();
    }
    let manifests = ["docs", "posts", "rest"].map(|p| format!("public/sitemap-{p}.manifest.json"));
    bin()
        .current_dir(&project)
        .arg("merge")
        .args(&manifests)
        .assert()
        .success();
    assert_eq!(listed(&project.join("public/sitemap.xml")), whole);

    // A folder of the output mapped on its own, at its own base URL: its pages still
    // take their dates from the sources, which route to paths in the whole output.
    fs::write(project.join("sitemap.toml"), &config).unwrap();
    let base = whole.keys().min_by_key(|u| u.len()).unwrap().clone();
    bin()
        .current_dir(&project)
        .args([
            "build",
            "public/docs",
            "--base-url",
            &format!("{base}docs/"),
            "--shard",
            "docs",
            "-q",
        ])
        .assert()
        .success();
    let docs_manifest = manifest(&project.join("public/docs/sitemap-docs.manifest.json"));
    let child = docs_manifest["children"][0]["file"].as_str().unwrap();
    let docs = listed(&project.join("public/docs").join(child));
    assert!(docs.len() > 1);
    for (url, lastmod) in &docs {
        assert_eq!(whole.get(url), Some(lastmod), "{url}");
    }
}

/// A merge writes the views, so it serves them as a build does: `llms.txt` gets its
/// `X-Robots-Tag: noindex` lines in the host's `_headers` (shards leave them to the
/// merge), the user's lines kept, the same file a build of the whole site gives.
#[test]
fn the_merge_serves_its_views_noindex_as_a_build_does() {
    let config = "llms_txt = true\n";
    let user = "/*\n  X-Frame-Options: DENY\n";
    let dir = tempfile::tempdir().unwrap();
    let deploy = separate_shards(dir.path(), config, &[]);
    fs::write(deploy.join("_headers"), user).unwrap();
    fs::write(
        deploy.parent().unwrap().join("sitemap.toml"),
        format!("base_url = '{BASE}'\npublic_dir = 'public'\n{config}"),
    )
    .unwrap();
    merge_in(&deploy, ALL, &["-c", "../sitemap.toml"])
        .success()
        .stderr(predicates::str::contains(
            "_headers: llms.txt served with X-Robots-Tag: noindex",
        ));
    let merged = fs::read_to_string(deploy.join("_headers")).unwrap();
    assert!(merged.starts_with(user), "{merged}");
    assert!(
        merged.contains("/llms.txt\n  X-Robots-Tag: noindex"),
        "{merged}"
    );
    let whole = whole_site_built(dir.path(), config, &[("public/_headers", user)]);
    assert_eq!(
        merged,
        fs::read_to_string(whole.join("public/_headers")).unwrap()
    );
}

/// Builds shard `name` of the site in `dir` (its pages under `public/NAME/`, declared in
/// `sitemap.toml`), quietly.
fn build_shard(dir: &Path, name: &str) {
    bin()
        .current_dir(dir)
        .args(["build", "--shard", name, "-q"])
        .assert()
        .success();
}

/// Shard `blog`'s children were named `sitemap-blog-…`, a prefix of shard `blog-x`'s, so
/// a manifest of `blog` naming `blog-x`'s child had the next build of `blog` delete it
/// (it had the shape of `blog`'s section `x`). Each shard's files are now named by its
/// name and a `.`, which no shard name holds: built and merged in either order, and
/// whatever `blog`'s manifest names, both keep their children.
#[test]
fn shards_whose_names_prefix_each_other_keep_their_children() {
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    for page in [
        "blog/a.html",
        "blog/b.html",
        "blog-x/c.html",
        "blog-x/d.html",
    ] {
        write_page(&public, page, "text");
    }
    fs::write(
        dir.path().join("sitemap.toml"),
        format!(
            "base_url = '{BASE}'\npublic_dir = 'public'\n[[shards]]\nname = 'blog'\nmatch = ['blog/**']\n[[shards]]\nname = 'blog-x'\nmatch = ['blog-x/**']\n"
        ),
    )
    .unwrap();
    let manifests = ["sitemap-blog.manifest.json", "sitemap-blog-x.manifest.json"];
    let children = |name: &str| -> Vec<String> {
        let m = manifest(&public.join(format!("sitemap-{name}.manifest.json")));
        (m["children"].as_array().unwrap().iter())
            .map(|c| c["file"].as_str().unwrap().to_string())
            .collect()
    };
    let merged = |want: &[String]| {
        merge_in(&public, &manifests, &[]).success();
        let index = index_entries(&public.join("sitemap.xml"));
        for file in want {
            assert!(public.join(file).is_file(), "{file} is gone");
            assert!(index.contains_key(&format!("{BASE}{file}")), "{index:?}");
        }
        assert_eq!(listed(&public.join("sitemap.xml")).len(), 4);
    };
    for order in [["blog", "blog-x"], ["blog-x", "blog"]] {
        for name in order {
            build_shard(dir.path(), name);
        }
        let both: Vec<String> = children("blog")
            .into_iter()
            .chain(children("blog-x"))
            .collect();
        assert!(
            children("blog-x")[0].starts_with("sitemap-blog-x.1-"),
            "{both:?}"
        );
        merged(&both);
    }
    // blog's manifest names blog-x's child too; blog built again with a page more.
    let theirs = children("blog-x");
    let path = public.join("sitemap-blog.manifest.json");
    let mut greedy = manifest(&path);
    let child = serde_json::json!({"file": theirs[0], "loc": format!("{BASE}{}", theirs[0]),
        "urls": 2, "lastmod": null, "xxh3": "0".repeat(32)});
    greedy["children"].as_array_mut().unwrap().push(child);
    fs::write(&path, greedy.to_string()).unwrap();
    write_page(&public, "blog/e.html", "text");
    build_shard(dir.path(), "blog");
    assert!(
        public.join(&theirs[0]).is_file(),
        "blog removed {}",
        theirs[0]
    );
    merge_in(&public, &manifests, &[]).success();
    assert_eq!(listed(&public.join("sitemap.xml")).len(), 5);
    check_strict(&public.join("sitemap.xml"));
}

/// Shards built with other `clean_urls` merged into one set listing `/about` in one and
/// `/about.html` in the other form. The merge refuses them, naming both and the setting.
#[test]
fn shards_built_with_other_url_forms_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let deploy = dir.path().join("deploy/public");
    for (part, _) in PARTS {
        let job = dir.path().join(format!("job-{part}"));
        write_part(&job.join("public"), part);
        let clean = if *part == "pages" {
            "clean_urls = true\n"
        } else {
            ""
        };
        fs::write(
            job.join("sitemap.toml"),
            format!("base_url = '{BASE}'\npublic_dir = 'public'\n{clean}"),
        )
        .unwrap();
        build_shard(&job, part);
        copy_tree(&job.join("public"), &deploy);
    }
    refused(
        &deploy,
        ALL,
        &[],
        &[
            "shard 'blog' was built with clean_urls = false and shard 'pages' with clean_urls = true",
            "build every shard with the same clean_urls",
        ],
    );
}

/// Each manifest could be 1 GiB, and all were held at once. They are bounded together:
/// the one that takes them past 1 GiB is refused, by its size, before any is read.
#[test]
fn manifests_past_their_total_are_refused_before_any_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let deploy = separate_shards(dir.path(), "", &[]);
    // Two manifests of 600 MiB each (sparse: no disk is taken), after a real one.
    for name in ["big-1.manifest.json", "big-2.manifest.json"] {
        let file = fs::File::create(deploy.join(name)).unwrap();
        file.set_len(600 << 20).unwrap();
    }
    let big = [
        "sitemap-blog.manifest.json",
        "big-1.manifest.json",
        "big-2.manifest.json",
    ];
    refused(
        &deploy,
        &big,
        &[],
        &[
            "big-2.manifest.json: takes the manifests of this merge past 1024 MiB",
            "this one is 600 MiB",
        ],
    );
}

/// A merge held every shard's side file open at once: 1,100 shards under `ulimit -n
/// 1024` failed with advice to copy files. It opens a file while it reads from it: 300
/// shards merge with 256 files allowed.
// Unix only: `ulimit -n` bounds the open files.
#[cfg(unix)]
#[test]
fn a_merge_of_more_shards_than_open_files_allowed_succeeds() {
    const SHARDS: usize = 300;
    let dir = tempfile::tempdir().unwrap();
    let public = dir.path().join("public");
    let mut manifests = Vec::new();
    for i in 0..SHARDS {
        let name = format!("s{i}");
        fs::create_dir_all(public.join(&name)).unwrap();
        fs::write(public.join(&name).join("index.html"), "<title>t</title>").unwrap();
        bin()
            .current_dir(dir.path())
            .args(["build", &format!("public/{name}"), "--shard", &name, "-q"])
            .args(["--base-url", &format!("{BASE}{name}/")])
            .assert()
            .success();
        manifests.push(format!("public/{name}/sitemap-{name}.manifest.json"));
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 256 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .arg("merge")
        .args(&manifests)
        .args(["--base-url", BASE, "-o", "public"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(index_entries(&public.join("sitemap.xml")).len(), SHARDS);
}

/// A shard built over a manifest of the first format (children `sitemap-NAME-N-HASH`)
/// replaces its set: the old children without a section are removed (no other shard's
/// are so named), those of a section are left (`sitemap-docs-guides-…` may be shard
/// `docs-guides`'s), and the merge refuses the old manifest.
#[test]
fn a_shard_built_over_a_first_format_manifest_removes_only_its_unambiguous_files() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("job");
    write_part(&job.join("public"), "docs");
    fs::write(
        job.join("sitemap.toml"),
        format!("base_url = '{BASE}'\npublic_dir = 'public'\n"),
    )
    .unwrap();
    let public = job.join("public");
    let urlset = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.org/docs/</loc></url></urlset>\n";
    let old = [
        "sitemap-docs-1-0123456789ab.xml",
        "sitemap-docs-guides-1-0123456789ab.xml",
    ];
    for name in old {
        fs::write(public.join(name), urlset).unwrap();
    }
    let first_format = serde_json::json!({
        "sitemapgen_shard": 1, "name": "docs", "base_url": BASE, "sitemap": "sitemap.xml",
        "urls": 2, "changes": null,
        "children": old.iter().map(|f| serde_json::json!({"file": f, "loc": format!("{BASE}{f}"),
            "urls": 1, "lastmod": null, "xxh3": "0".repeat(32)})).collect::<Vec<_>>(),
        "url_hashes": {"file": "sitemap-docs.0123456789ab.hashes", "xxh3": "0".repeat(32)},
    });
    let manifest_path = public.join("sitemap-docs.manifest.json");
    fs::write(&manifest_path, first_format.to_string()).unwrap();
    refused(
        &public,
        &["sitemap-docs.manifest.json"],
        &[],
        &["format version 1, and this sitemapgen reads version 2; build the shard again"],
    );
    build_shard(&job, "docs");
    assert!(!public.join(old[0]).exists(), "{} is left", old[0]);
    assert!(public.join(old[1]).exists(), "{} is removed", old[1]);
    merge_in(&public, &["sitemap-docs.manifest.json"], &[]).success();
}
