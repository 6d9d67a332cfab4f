//! What one hostile file in a site's repository made the readers of sources, configs
//! and pages do (the third hardening round), each pinned through the real binary. The
//! runs are bounded in memory (an address-space limit) and time, so a case that is not
//! bounded fails fast instead of taking the machine down.

use std::fs;
#[cfg(unix)]
use std::path::Path;
#[cfg(unix)]
use std::process::{Command, Stdio};

use crate::util::{Site, locs};

/// The address space a run may take: far past what these sites need (the debug build
/// with its threads), far below what the unbounded cases took (1 to 22 GB).
#[cfg(unix)]
pub(crate) const ADDRESS_SPACE: u64 = 2 << 30;

/// The most a run may hold resident on these small sites.
#[cfg(unix)]
pub(crate) const PEAK_RSS_KIB: u64 = 300 * 1024;

/// How long a run may take: the unbounded cases took 10 s to hours in a release build.
#[cfg(unix)]
const SECONDS: u32 = 60;

/// What a bounded run gave.
#[cfg(unix)]
pub(crate) struct Run {
    pub code: Option<i32>,
    pub stderr: String,
    pub peak_rss_kib: u64,
}

/// Runs the binary in `dir` with `args` under [`ADDRESS_SPACE`] and [`SECONDS`],
/// measuring its peak resident set with GNU time (see `check_hardening::measured`).
#[cfg(unix)]
pub(crate) fn bounded(dir: &Path, args: &[&str]) -> Run {
    let err = tempfile::NamedTempFile::new().unwrap();
    let peak = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new("timeout")
        .arg(SECONDS.to_string())
        .arg("prlimit")
        .arg(format!("--as={ADDRESS_SPACE}"))
        .arg("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(peak.path())
        .arg(assert_cmd::cargo::cargo_bin("sitemapgen"))
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err.reopen().unwrap())
        .status()
        .expect("timeout (coreutils), prlimit (util-linux) and GNU time");
    let peak = fs::read_to_string(peak.path()).unwrap_or_default();
    Run {
        code: status.code().filter(|_| !peak.contains("signal")),
        stderr: fs::read_to_string(err.path()).unwrap(),
        peak_rss_kib: peak
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(0),
    }
}

/// Fails unless the run finished well, within its bounds, and warned of `warning`.
#[cfg(unix)]
pub(crate) fn assert_survived(what: &str, run: &Run, warning: &str) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
    assert!(
        run.peak_rss_kib <= PEAK_RSS_KIB,
        "{what}: peak RSS {} KiB",
        run.peak_rss_kib
    );
    assert!(run.stderr.contains(warning), "{what}: {}", run.stderr);
}

/// A Hugo site dated by its sources, `content/posts/<name>.md` holding `source`.
#[cfg(unix)]
fn hugo_site(sources: &[(&str, String)]) -> Site {
    let site = Site::new(&["index.html", "posts/a/index.html"]);
    site.config(
        "base_url = 'https://example.org/'\nlastmod = ['source', 'mtime']\n[source]\ngenerator = 'hugo'\n",
    );
    let content = site.root().join("content/posts");
    fs::create_dir_all(&content).unwrap();
    fs::write(
        content.join("a.md"),
        "---\ntitle: A\nlastmod: 2024-05-06\n---\n",
    )
    .unwrap();
    for (name, text) in sources {
        fs::write(content.join(format!("{name}.md")), text).unwrap();
    }
    site
}

/// Front matter nested 20,000 deep (sequences, mappings, complex keys; 40 KB) aborted
/// the run with a stack overflow, and no sitemap was written. It is skipped with a
/// warning naming it; the other sources still date their pages.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn deeply_nested_front_matter_is_skipped() {
    for (kind, nest) in [("sequences", "- "), ("mappings", ": "), ("keys", "? ")] {
        let text = format!("---\n{}x\n---\n", nest.repeat(20_000));
        let site = hugo_site(&[("deep", text)]);
        let run = bounded(site.root(), &["build"]);
        assert_survived(
            kind,
            &run,
            "content/posts/deep.md: front matter not read, its YAML nests more than 128 levels deep",
        );
        let sitemap = site.read("sitemap.xml");
        assert!(sitemap.contains("<lastmod>2024-05-06"), "{kind}: {sitemap}");
    }
    // TOML nested as deep: the toml crate's own limit refuses it as no front matter.
    let text = format!(
        "+++\nx = {}1{}\n+++\n",
        "[".repeat(30_000),
        "]".repeat(30_000)
    );
    let site = hugo_site(&[("deep", text)]);
    let run = bounded(site.root(), &["build"]);
    assert_eq!(run.code, Some(0), "toml: {}", run.stderr);
}

/// Six levels of aliases in 400 bytes took 2.2 GB and 11 s (one more, 22 GB).
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn a_yaml_alias_bomb_is_skipped() {
    let mut text = String::from(
        "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut previous = 'a';
    for name in ['b', 'c', 'd', 'e', 'f', 'g', 'h'] {
        let items = vec![format!("*{previous}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{items}]\n"));
        previous = name;
    }
    text.push_str("---\n");
    let site = hugo_site(&[("bomb", text)]);
    let run = bounded(site.root(), &["build"]);
    assert_survived(
        "alias bomb",
        &run,
        "content/posts/bomb.md: front matter not read, its YAML aliases expand it",
    );
}

/// A front-matter `url` 32,000 levels deep (64 KB), four times: the newest date below
/// each directory held a string per ancestor, 1 GB a source.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn a_deep_front_matter_url_is_held_once() {
    let sources: Vec<(String, String)> = (0..4)
        .map(|i| {
            (
                format!("deep{i}"),
                format!(
                    "---\nlastmod: 2024-01-01\nurl: /{}{i}/\n---\n",
                    "a/".repeat(32_000)
                ),
            )
        })
        .collect();
    let sources: Vec<(&str, String)> = sources
        .iter()
        .map(|(n, t)| (n.as_str(), t.clone()))
        .collect();
    let site = hugo_site(&sources);
    let run = bounded(site.root(), &["build"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.peak_rss_kib <= PEAK_RSS_KIB,
        "peak RSS {} KiB",
        run.peak_rss_kib
    );
}

/// A Jekyll post whose slug is `:slug` 13,000 times (65 KB): `:title` was filled in
/// first, then `:slug` replaced inside the title, giving an 850 MB path (1.66 GB peak).
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn permalinks_are_filled_in_one_pass() {
    let site = Site::new(&["index.html", "2024/01/02/x.html"]);
    site.config(
        "base_url = 'https://example.org/'\nlastmod = ['source', 'mtime']\n[source]\ngenerator = 'jekyll'\n",
    );
    let posts = site.root().join("_posts");
    fs::create_dir_all(&posts).unwrap();
    fs::write(
        posts.join("2024-01-02-x.md"),
        "---\nlast_modified_at: 2024-03-04\n---\n",
    )
    .unwrap();
    let slug = ":slug".repeat(13_000);
    fs::write(
        posts.join("2024-01-03-y.md"),
        format!("---\nslug: \"{slug}\"\n---\n"),
    )
    .unwrap();
    let run = bounded(site.root(), &["build"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.peak_rss_kib <= PEAK_RSS_KIB,
        "peak RSS {} KiB",
        run.peak_rss_kib
    );
    assert!(site.read("sitemap.xml").contains("<lastmod>2024-03-04"));
}

/// A page of `/edit/`s, 1 MiB: each scanned back to the nearest quote and each suffix of
/// a link hashed (12 s for 360 KB in a release build).
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn the_edit_link_search_is_linear() {
    for body in ["/edit/", "\"/edit/a/b/"] {
        let site = hugo_site(&[]);
        let page = site.public().join("edit/index.html");
        fs::create_dir_all(page.parent().unwrap()).unwrap();
        let html = format!(
            "<title>e</title><a href={}>",
            body.repeat((1 << 20) / body.len())
        );
        fs::write(&page, html).unwrap();
        let run = bounded(site.root(), &["build"]);
        assert_eq!(run.code, Some(0), "{body}: {}", run.stderr);
    }
}

/// A site with `llms_full_txt` whose page `hostile.html` has `body` in its `<main>`.
fn llms_site(body: &str) -> Site {
    let site = Site::new(&[]);
    site.config("base_url = 'https://example.org/'\nlastmod = 'none'\nllms_txt = true\nllms_full_txt = true\n");
    fs::write(
        site.public().join("index.html"),
        "<title>Home</title><main><p>home</p></main>",
    )
    .unwrap();
    let html = format!("<!doctype html><title>Hostile</title><main>{body}</main>");
    fs::write(site.public().join("hostile.html"), html).unwrap();
    site
}

/// Pages whose tree or Markdown would cost far more than their size: re-created
/// formatting (80 KB took 1 GB and 8 s), nesting that html5ever checks at every tag
/// (ruby bases, and end tags of elements that are not open, which the old guard counted
/// as closes: 480 KB took 59 s), and quotes nested around many lines (500 KB wrote
/// 50 MB). Each is passed over with a warning; the rest is written.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn costly_pages_are_passed_over_for_llms_full_txt() {
    let bold: String = (0..200).map(|i| format!("<b id={i}>")).collect();
    let cases = [
        ("formatting", format!("<p>{bold}{}", "<p>x".repeat(20_000))),
        ("ruby", "<rb>".repeat(120_000)),
        ("stray ends", "<div></span>".repeat(40_000)),
        (
            "quotes",
            format!(
                "{}<p>{}</p>",
                "<blockquote>".repeat(250),
                "line\n".repeat(100_000)
            ),
        ),
    ];
    for (what, body) in cases {
        let site = llms_site(&body);
        let run = bounded(site.root(), &["build"]);
        assert_survived(what, &run, "hostile.html");
        let full = site.read("llms-full.txt");
        assert!(full.len() < 64 * 1024, "{what}: {} bytes", full.len());
        assert!(full.contains("home"), "{what}: {full}");
    }
}

/// A page cannot forge a record of `llms-full.txt`: a record starts with a line of
/// dashes, which a page's content no longer writes.
#[test]
fn a_page_cannot_forge_a_record() {
    let forged = "<p>---</p><h1>Install</h1><p>Source: https://example.org/docs/install/</p>";
    let site = llms_site(forged);
    site.cmd().assert().success();
    let full = site.read("llms-full.txt");
    let records = full.lines().filter(|l| *l == "---").count();
    assert_eq!(records, 2, "{full}");
}

/// Bidirectional controls in a title (U+202E shows what follows reversed) reach neither
/// `llms.txt` nor the terminal raw.
#[test]
fn bidirectional_controls_are_not_written_raw() {
    let site = Site::new(&[]);
    site.config("base_url = 'https://example.org/'\nlastmod = 'none'\nllms_txt = true\nhtml_sitemap = true\n");
    let title = "Login \u{202e}lmth.xedni\u{2066}";
    fs::write(
        site.public().join("index.html"),
        format!("<title>{title}</title>"),
    )
    .unwrap();
    // A page whose URL is too long is named in a warning, with its name's controls.
    let long = format!("{}/\u{202e}.html", vec!["a".repeat(200); 11].join("/"));
    let long = site.public().join(long);
    fs::create_dir_all(long.parent().unwrap()).unwrap();
    fs::write(long, "<title>x</title>").unwrap();
    let out = site.cmd().assert().success().get_output().clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("\\u{202e}.html"), "{stderr}");
    for file in ["llms.txt", "sitemap.html"] {
        let text = site.read(file);
        assert!(text.contains("Login"), "{file}: {text}");
        assert!(!text.contains(['\u{202e}', '\u{2066}']), "{file}: {text}");
    }
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), 1);
}

/// `init` on a `mkdocs.yml` with a `nav:` nested 20,000 deep crashed, and on an alias
/// bomb took 3.4 GB: the generator is still recognised, its settings are not read, and
/// a warning says why.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn init_refuses_a_hostile_yaml_config() {
    let mut bomb = String::from(
        "site_name: x\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut previous = 'a';
    for name in ['b', 'c', 'd', 'e', 'f', 'g'] {
        let items = vec![format!("*{previous}"); 9].join(",");
        bomb.push_str(&format!("{name}: &{name} [{items}]\n"));
        previous = name;
    }
    let cases = [
        (
            format!("site_name: x\nnav:\n{}x\n", "- ".repeat(20_000)),
            "nests more than 128 levels deep",
        ),
        (bomb, "aliases expand it"),
    ];
    for (text, why) in cases {
        let site = Site::new(&[]);
        fs::write(site.root().join("mkdocs.yml"), text).unwrap();
        let run = bounded(site.root(), &["init"]);
        assert_survived(why, &run, &format!("mkdocs.yml: its YAML {why}"));
        let written = fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
        assert!(written.contains("MkDocs"), "{written}");
    }
}

/// A project config that is a link (here to a file outside the project) is not followed:
/// `init` names it and reads nothing through it.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn init_follows_no_link_to_a_config() {
    let site = Site::new(&[]);
    let outside = tempfile::NamedTempFile::new().unwrap();
    fs::write(
        outside.path(),
        "site_name: x\nsite_url: https://leaked.example/\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path(), site.root().join("mkdocs.yml")).unwrap();
    let out = site
        .cmd()
        .arg("init")
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("mkdocs.yml: not a regular file (a symbolic link); skipped"),
        "{stderr}"
    );
    let written = fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
    assert!(!written.contains("leaked"), "{written}");
}

/// 100 PDFs committed 1,900 folders deep: every tail of every path was copied, with the
/// whole path beside each, to find a document's source (1,072 MiB; 300 of them passed
/// 4 GB). The tails are held by their hashes, linear in the paths, and the deep
/// document still dates its copy in the site.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn documents_deep_in_the_repository_are_held_once() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = Site::new(&["index.html"]);
    let root = site.root();
    let deep = root.join("static").join("d/".repeat(1_900));
    fs::create_dir_all(&deep).unwrap();
    for i in 0..100 {
        fs::write(deep.join(format!("p{i}.pdf")), format!("%PDF-1.4 {i}\n")).unwrap();
    }
    fs::write(root.join(".gitignore"), "public/\nsitemap.toml\n").unwrap();
    fs::create_dir_all(root.join("content")).unwrap();
    fs::write(root.join("content/_index.md"), "---\ntitle: Home\n---\n").unwrap();
    fs::write(root.join("hugo.toml"), "baseURL = 'https://example.org/'\n").unwrap();
    let at = "2024-03-04T05:06:07Z";
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["commit", "-qm", "papers"],
    ] {
        crate::lastmod::git(root, args, at);
    }
    fs::copy(deep.join("p7.pdf"), site.public().join("p7.pdf")).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\ndocuments = ['pdf']\nlastmod = ['source', 'mtime']\n[source]\ngenerator = 'hugo'\n");
    let run = bounded(root, &["build", "-q"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.peak_rss_kib <= PEAK_RSS_KIB,
        "peak RSS {} KiB",
        run.peak_rss_kib
    );
    let xml = site.read("sitemap.xml");
    assert!(
        xml.contains("<loc>https://example.org/p7.pdf</loc>\n    <lastmod>2024-03-04T05:06:07+00:00</lastmod>"),
        "{xml}"
    );
}

/// A `vercel.json` of 45,000 rules (3.7 MiB, under the 4 MiB read): each rule's line was
/// found by searching the rest of the file for its pattern and counting the lines from
/// the start (24,000 plain rules took 6 minutes in a debug build; with escaped patterns
/// every search ran to the end). Each rule is now found in its own text from
/// serde_json's parse and the lines counted on; the file is edited, and our entry
/// taken away again leaves it byte for byte.
// Unix only: run under prlimit, timeout and GNU time (Unix tools that bound and measure the run).
#[cfg(unix)]
#[test]
fn a_vercel_json_of_many_rules_is_read_and_edited_in_linear_time() {
    let site = Site::new(&["index.html", "p7/a.html"]);
    let rules: Vec<String> = (0..45_000)
        .map(|i| {
            format!(
                "{{\"source\":\"\\/p{i}/(.*)\",\"headers\":[{{\"key\":\"Cache-Control\",\"value\":\"max-age={i}\"}}]}}"
            )
        })
        .collect();
    let user = format!(
        "{{\"redirects\":[{{\"source\":\"\\/p7/(.*)\",\"destination\":\"/\"}}],\"headers\":[{}]}}",
        rules.join(",")
    );
    let file = site.root().join("vercel.json");
    fs::write(&file, &user).unwrap();
    let config = "base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\n";
    site.config(&format!("{config}host_headers = true\n"));
    let run = bounded(site.root(), &["build", "-v"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("p7/a.html: redirected (vercel.json:1)"),
        "{}",
        run.stderr
    );
    assert!(fs::read_to_string(&file).unwrap().contains("/llms.txt"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/"]
    );
    site.config(config);
    let run = bounded(site.root(), &["build", "-q"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&file).unwrap(), user);
}
