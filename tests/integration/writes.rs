//! Writes that must not reach or destroy what they must not (issue: hardening), each
//! through the real binary on a temporary site.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
#[cfg(unix)]
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use predicates::prelude::*;

use crate::util::{Site, validate_set};
#[cfg(unix)]
use crate::util::{locs, mkfifo};

const BASE: &str = "base_url = 'https://example.org/'\n";
const URLSET: &str = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.org/mine</loc></url></urlset>\n";
/// Long enough for any run here; a hang is a failure, not a stuck CI job.
const NO_HANG: Duration = Duration::from_secs(30);

// Unix only: `id -u`, for the tests of permission bits.
#[cfg(unix)]
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

// Unix only: Unix permission bits.
#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `-o` naming a FIFO, a socket or (as root) a device node is refused, exit 1, naming
/// the path; each stays what it was, and no lock file is left beside it.
// Unix only: FIFOs and Unix sockets.
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_are_refused() {
    let site = Site::new(&["index.html"]);
    site.config(BASE);
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.xml");
    mkfifo(&fifo);
    let socket = dir.path().join("socket.xml");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let mut targets = vec![(fifo, "a FIFO"), (socket, "a socket")];
    if is_root() {
        let null = dir.path().join("null");
        let made = Command::new("mknod")
            .arg(&null)
            .args(["c", "1", "3"])
            .status();
        assert!(made.unwrap().success());
        targets.push((null, "a device"));
    }
    let link = dir.path().join("link.xml");
    symlink(dir.path().join("elsewhere.xml"), &link).unwrap();
    targets.push((link, "a symbolic link"));
    for (target, what) in &targets {
        site.cmd()
            .arg("-o")
            .arg(target)
            .timeout(NO_HANG)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(target.display().to_string()))
            .stderr(predicate::str::contains(format!("is {what}")));
    }
    let kinds: Vec<_> = targets
        .iter()
        .map(|(t, _)| fs::symlink_metadata(t).unwrap().file_type())
        .collect();
    assert!(kinds[0].is_fifo() && kinds[1].is_socket() && kinds.last().unwrap().is_symlink());
    if is_root() {
        assert!(kinds[2].is_char_device());
    }
    let mut names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut want = vec!["fifo.xml", "link.xml", "socket.xml"];
    if is_root() {
        want.push("null");
        want.sort();
    }
    assert_eq!(names, want);
}

/// `output` from the config through a link leading out of `public_dir`: refused before
/// anything is written or created there, and nothing there is removed as stale.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn a_configured_output_through_a_link_out_of_the_site_is_refused() {
    let site = Site::new(&["index.html"]);
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("sitemap-1.xml"), URLSET).unwrap();
    symlink(outside.path(), site.public().join("maps")).unwrap();
    for output in ["maps/sitemap.xml", "maps/new/sitemap.xml"] {
        site.config(&format!(
            "{BASE}output = '{output}'\nmax_urls_per_file = 1\n"
        ));
        site.cmd()
            .assert()
            .code(1)
            .stderr(predicate::str::contains("outside public_dir"));
    }
    let left: Vec<_> = fs::read_dir(outside.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["sitemap-1.xml"]);
    assert_eq!(
        fs::read_to_string(outside.path().join("sitemap-1.xml")).unwrap(),
        URLSET
    );
    // --output goes where it is told, links and all.
    site.cmd()
        .args(["-o", "public/maps/sitemap.xml"])
        .assert()
        .success();
    assert!(outside.path().join("sitemap.xml").is_file());
}

/// A robots.txt that links out of the site is neither read into it nor written through;
/// one that links inside is updated at its target, the link kept.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn robots_txt_links_out_of_the_site_are_not_followed() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    fs::write(&secret, "User-agent: *\nDisallow: /\n# secret\n").unwrap();
    symlink(&secret, site.public().join("robots.txt")).unwrap();
    site.cmd()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("robots.txt"))
        .stderr(predicate::str::contains("outside"));
    assert!(
        fs::symlink_metadata(site.public().join("robots.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(&secret).unwrap(),
        "User-agent: *\nDisallow: /\n# secret\n"
    );
    // A state file in the site that links out is not read either.
    site.config(&format!(
        "{BASE}lastmod = ['content']\nstate_file = 'public/state.json'\n"
    ));
    symlink(&secret, site.public().join("state.json")).unwrap();
    site.cmd()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("state.json"))
        .stderr(predicate::str::contains("outside"));
    fs::remove_file(site.public().join("state.json")).unwrap();
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    // Its rules (Disallow: /) were not read either: the page is listed.
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/"]
    );

    fs::remove_file(site.public().join("robots.txt")).unwrap();
    fs::create_dir(site.public().join("meta")).unwrap();
    fs::write(site.public().join("meta/robots.txt"), "User-agent: *\n").unwrap();
    symlink("meta/robots.txt", site.public().join("robots.txt")).unwrap();
    site.cmd().assert().success();
    assert!(
        fs::read_to_string(site.public().join("meta/robots.txt"))
            .unwrap()
            .ends_with("Sitemap: https://example.org/sitemap.xml\n")
    );
    assert!(
        fs::symlink_metadata(site.public().join("robots.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// FIFOs where sitemapgen reads (a page, robots.txt, the state file, the config file, a
/// generator's config for `init`) never hang a run: each is passed over or named in an
/// error.
// Unix only: FIFOs.
#[cfg(unix)]
#[test]
fn fifos_where_files_are_read_do_not_hang() {
    let site = Site::new(&["index.html"]);
    mkfifo(&site.public().join("fifo.html"));
    mkfifo(&site.root().join("fifo.toml"));
    site.cmd()
        .args(["--config", "fifo.toml"])
        .timeout(NO_HANG)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fifo.toml: is a FIFO"));
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    mkfifo(&site.public().join("robots.txt"));
    site.cmd()
        .timeout(NO_HANG)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("robots.txt"))
        .stderr(predicate::str::contains("is a FIFO, not a regular file"));
    assert!(
        fs::metadata(site.public().join("robots.txt"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
    fs::remove_file(site.public().join("robots.txt")).unwrap();

    site.config(&format!("{BASE}lastmod = ['content']\n"));
    mkfifo(&site.root().join(".sitemap-state.json"));
    site.cmd()
        .timeout(NO_HANG)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(".sitemap-state.json"))
        .stderr(predicate::str::contains("is a FIFO"));

    let project = tempfile::tempdir().unwrap();
    mkfifo(&project.path().join("hugo.toml"));
    crate::util::bin()
        .arg("init")
        .arg(project.path())
        .timeout(NO_HANG)
        .assert()
        .success();
}

/// Files we create get 0666 less the umask, as any file the user makes; a file replaced
/// keeps its mode.
// Unix only: the umask and permission bits.
#[cfg(unix)]
#[test]
fn new_files_get_the_umask_and_replaced_files_keep_their_mode() {
    let site = Site::new(&["index.html", "a.html", "b.html"]);
    site.config(&format!(
        "{BASE}max_urls_per_file = 2\nlastmod = ['content', 'mtime']\nrobots_txt = 'create'\n"
    ));
    let bin = assert_cmd::cargo::cargo_bin("sitemapgen");
    for (umask, want) in [("022", 0o644), ("027", 0o640)] {
        for entry in fs::read_dir(site.public()).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with(".html") {
                fs::remove_file(path).unwrap();
            }
        }
        let _ = fs::remove_file(site.root().join(".sitemap-state.json"));
        let run = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" build -q"))
            .arg(&bin)
            .current_dir(site.root())
            .status()
            .unwrap();
        assert!(run.success());
        let mut files = validate_set(&site.public().join("sitemap.xml"));
        files.push(site.public().join("sitemap.xml"));
        files.push(site.public().join("robots.txt"));
        files.push(site.root().join(".sitemap-state.json"));
        for file in &files {
            assert_eq!(mode(file), want, "umask {umask}: {}", file.display());
        }
    }
    let index = site.public().join("sitemap.xml");
    fs::set_permissions(&index, fs::Permissions::from_mode(0o604)).unwrap();
    site.page("c.html");
    site.cmd().assert().success();
    assert_eq!(mode(&index), 0o604);
}

/// Shards of one site sharing a config and `lastmod = ["content"]` keep each other's
/// state, so unchanged pages keep their dates run after run.
#[test]
fn shards_sharing_a_state_file_keep_each_others_pages() {
    let site = Site::new(&["blog/index.html", "blog/a.html", "docs/index.html"]);
    site.config("lastmod = ['content']\n");
    let shard = |name: &str| {
        site.cmd()
            .arg(format!("public/{name}"))
            .args(["--base-url", &format!("https://example.org/{name}/")])
            .args(["-o", &format!("public/{name}/sitemap.xml")])
            .assert()
            .success();
        site.read(&format!("{name}/sitemap.xml"))
    };
    shard("blog");
    shard("docs");
    // Every date the state holds is set back to 2001: a page either shard dropped from
    // the state would be dated by the next run's clock instead (no need to wait for the
    // clock to move on).
    let path = site.root().join(".sitemap-state.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let pages = state["pages"].as_object_mut().unwrap();
    assert_eq!(pages.len(), 3, "{pages:?}");
    for page in pages.values_mut() {
        page["lastmod"] = "2001-02-03T04:05:06Z".into();
    }
    fs::write(&path, state.to_string()).unwrap();
    for name in ["blog", "docs"] {
        let xml = shard(name);
        let urls = xml.matches("<url>").count();
        let kept = xml
            .matches("<lastmod>2001-02-03T04:05:06+00:00</lastmod>")
            .count();
        assert!(urls > 0 && kept == urls, "{xml}");
    }
    let state = fs::read_to_string(&path).unwrap();
    for url in ["/blog/a.html", "/blog/", "/docs/"] {
        assert!(
            state.contains(&format!("\"https://example.org{url}\"")),
            "{state}"
        );
    }
}

/// A run whose sitemap cannot be written leaves the state and its change list as they
/// were, and no temporary file beside them: the state is written while the sitemaps are,
/// and put in place only once they are.
// Unix only: a FIFO in place of the sitemap makes its write fail.
#[cfg(unix)]
#[test]
fn a_failed_sitemap_leaves_the_state_as_it_was() {
    let site = Site::new(&["index.html", "a.html"]);
    site.config(&format!(
        "{BASE}lastmod = ['content']\nstate_file = 'public/state.json'\n"
    ));
    site.cmd().assert().success();
    let (state, changes) = (site.read("state.json"), site.read(".sitemap-changes.json"));
    fs::write(site.public().join("a.html"), "<p>changed</p>\n").unwrap();
    let sitemap = site.public().join("sitemap.xml");
    fs::remove_file(&sitemap).unwrap();
    mkfifo(&sitemap);
    site.cmd()
        .timeout(NO_HANG)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("sitemap.xml"));
    assert_eq!(site.read("state.json"), state);
    assert_eq!(site.read(".sitemap-changes.json"), changes);
    let left: Vec<String> = site
        .listing()
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Once the sitemap can be written, the change is saved.
    fs::remove_file(&sitemap).unwrap();
    site.cmd().assert().success();
    assert_ne!(site.read("state.json"), state);
    assert!(site.read(".sitemap-changes.json").contains("a.html"));
}

/// Concurrent runs announcing different sitemaps in one robots.txt keep both lines.
#[test]
fn concurrent_runs_keep_each_others_robots_lines() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}robots_txt = 'update'\n"));
    let bin = assert_cmd::cargo::cargo_bin("sitemapgen");
    for round in 0..8 {
        fs::write(site.public().join("robots.txt"), "User-agent: *\n").unwrap();
        let runs: Vec<_> = ["a", "b"]
            .map(|name| {
                Command::new(&bin)
                    .args(["build", "-q", "-o", &format!("public/{name}.xml")])
                    .current_dir(site.root())
                    .spawn()
                    .unwrap()
            })
            .into_iter()
            .collect();
        for mut run in runs {
            assert!(run.wait().unwrap().success());
        }
        let robots = site.read("robots.txt");
        for name in ["a", "b"] {
            let line = format!("Sitemap: https://example.org/{name}.xml\n");
            assert!(robots.contains(&line), "round {round}: {robots}");
        }
    }
}

/// After a finished run, `public_dir` holds nothing of ours but the sitemap set and
/// robots.txt: no lock file, and temporary files a killed run left are swept.
#[test]
fn nothing_of_ours_is_left_in_the_site() {
    let site = Site::new(&["index.html", "a.html", "b.html"]);
    site.config(&format!(
        "{BASE}max_urls_per_file = 2\nrobots_txt = 'create'\nlastmod = ['content']\nstate_file = 'public/state.json'\n"
    ));
    for stray in [
        ".robots.txt.x1y2z3.tmp",
        ".sitemap-state.a1b2c3.tmp",
        ".sitemap.xml.q9w8e7.tmp",
    ] {
        fs::write(site.public().join(stray), "left by a killed run").unwrap();
    }
    site.cmd().assert().success();
    let mut want: Vec<String> = [
        "a.html",
        "b.html",
        "index.html",
        "robots.txt",
        "sitemap.xml",
    ]
    .map(String::from)
    .into();
    // The state and the change list beside it are where the config put the state.
    want.extend(["state.json".into(), ".sitemap-changes.json".into()]);
    want.extend(
        validate_set(&site.public().join("sitemap.xml"))
            .iter()
            .map(|c| c.file_name().unwrap().to_string_lossy().into_owned()),
    );
    want.sort();
    assert_eq!(site.listing(), want);
}

/// The smaller cases: an output naming a directory is a config error (exit 2); `./` is
/// inside the site; a hand-written `sitemap-1.xml` is not ours to remove; a state file
/// that cannot be written says the sitemap was.
#[test]
fn output_paths_and_what_is_ours() {
    let site = Site::new(&["index.html"]);
    fs::create_dir(site.public().join("sub")).unwrap();
    for (output, code) in [("sub/", 2), ("sub", 2), ("new/", 2), ("./sitemap.xml", 0)] {
        site.config(&format!("{BASE}output = '{output}'\n"));
        let run = site.cmd().assert().code(code);
        if code == 2 {
            run.stderr(predicate::str::contains(
                "is a directory; name the sitemap file",
            ));
        }
    }
    assert!(!site.public().join("new").exists());
    fs::write(site.public().join("sitemap-1.xml"), URLSET).unwrap();
    site.config(BASE);
    site.cmd().assert().success();
    assert_eq!(site.read("sitemap-1.xml"), URLSET);

    site.config(&format!(
        "{BASE}lastmod = ['content']\nstate_file = 'nodir/state.json'\n"
    ));
    site.cmd()
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the sitemap itself was written"));
}

/// What the counts refuse is refused before the first write: 50,001 pages one to a file
/// need more children than one index may list. The old build took the output's lock and
/// wrote, synced and deleted all 50,001 children first (about three minutes on disk);
/// now the lock is not even taken, and nothing in the site or beside it changes: no file
/// made or removed, the previous sitemap's bytes kept, no stylesheet, robots.txt or state
/// file written.
#[test]
fn too_many_files_are_refused_before_anything_is_written() {
    let site = Site::new(&[]);
    for i in 0..50_001 {
        fs::File::create(site.public().join(format!("p{i}.html"))).unwrap();
    }
    site.config(&format!(
        "{BASE}max_urls_per_file = 1\nrobots_txt = \"update\"\nstylesheet = \"default\"\nlastmod = [\"content\"]\n"
    ));
    fs::write(site.public().join("sitemap.xml"), URLSET).unwrap();
    let root = || {
        let mut names: Vec<_> = fs::read_dir(site.root())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = (site.listing(), root());
    // Held for the run: a build that took the output directory's lock to write would
    // wait here (and time out) instead of refusing.
    let held = fs::File::open(site.public()).unwrap();
    held.lock().unwrap();
    site.cmd()
        .arg("build")
        .timeout(NO_HANG)
        .assert()
        .code(1)
        .stdout("")
        .stderr("error: 50001 sitemap files would be needed, more than the 50,000 one index may list; raise max_urls_per_file or split the site into several runs\n");
    assert_eq!((site.listing(), root()), before);
    assert_eq!(site.read("sitemap.xml"), URLSET);
}
