//! Races against the walk (issue 27, items 1 to 3), made deterministic: a large sparse
//! page is slow to read, the binary runs on one thread (pages are read as their
//! directory is listed, subdirectories opened after it), and the test swaps a file or
//! directory the moment `/proc/PID/fd` shows the sparse page open, then checks that the
//! read was still going on. Whatever the swap puts in place leads outside the public
//! directory, to pages whose URL and values must never reach the sitemap.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::Site;

const BASE: &str = "base_url = 'https://example.org/'\n";

/// How long a run may take before it counts as hung.
const HANG: Duration = Duration::from_secs(20);

/// The sparse page's size: long enough to read (its images are looked for in all of
/// it) that the swap lands during the read; the debug build reads ~6 MB/s of it.
const BIG: u64 = if cfg!(debug_assertions) {
    8 << 20
} else {
    256 << 20
};

/// The page outside the site: its name and every value in it say "leaked".
const OUTSIDE_PAGE: &str = r#"<!doctype html><html lang="en"><head><title>leaked</title>
<link rel="alternate" hreflang="en" href="https://example.org/leaked-en/">
<link rel="alternate" hreflang="de" href="https://example.org/leaked-de/">
<meta property="og:image" content="https://example.org/leaked-og.png">
</head><body><img src="/leaked-img.png"></body></html>
"#;

/// Writes the slow page at `rel` under `public/`: a small head, then sparse zeros.
fn big_page(site: &Site, rel: &str) {
    let path = site.page(rel);
    fs::write(&path, "<!doctype html><title>big</title><p>big</p>\n").unwrap();
    fs::File::options()
        .append(true)
        .open(&path)
        .unwrap()
        .set_len(BIG)
        .unwrap();
}

/// Writes the outside page at `rel` below the site's directory, beside `public/`.
fn outside_page(site: &Site, rel: &str) -> PathBuf {
    let path = site.root().join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, OUTSIDE_PAGE).unwrap();
    path
}

/// The binary under test.
fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_sitemapgen"))
}

/// The descriptor of the running process `pid` that has a path ending in `tail` open.
fn open_fd(pid: u32, tail: &str) -> Option<PathBuf> {
    let fds = fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    fds.filter_map(Result::ok)
        .map(|fd| fd.path())
        .find(|fd| fs::read_link(fd).is_ok_and(|target| target.ends_with(tail)))
}

/// Runs the binary on one thread in the site's directory with `args`; as soon as it has
/// `watched` (a path's tail) open, calls `swap`, then checks the page is still open (so
/// the swap came during its read) and waits for the end, at most [`HANG`].
fn run_swapping(site: &Site, args: &[&str], watched: &str, swap: impl FnOnce()) -> Output {
    let mut child = Command::new(binary())
        .current_dir(site.root())
        .env_remove("CI")
        .args(["--threads", "1"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let start = Instant::now();
    let fd = loop {
        if let Some(fd) = open_fd(pid, watched) {
            break fd;
        }
        if start.elapsed() > HANG || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "the run never had {watched} open: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_micros(200));
    };
    swap();
    let still = fs::read_link(&fd).is_ok_and(|t| t.to_string_lossy().contains("big.html"));
    assert!(still, "{watched} was read before the swap: make BIG bigger");
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "hung for {HANG:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// The run ended well, and nothing of the outside page is in the sitemap; its stderr.
fn assert_nothing_leaked(site: &Site, out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    let xml = site.read("sitemap.xml");
    for leak in ["leaked", "private"] {
        assert!(!xml.contains(leak), "{leak} in the sitemap:\n{xml}");
    }
    let schema = crate::util::urlset_schema(&xml);
    crate::util::validate(&site.public().join("sitemap.xml"), schema);
    assert!(xml.contains("https://example.org/"), "{xml}");
    stderr
}

/// A directory the walk holds is renamed away and a link to outside put in its place
/// while one of its pages is read: its subdirectory is still opened in the directory
/// held (the renamed one), never through the link.
#[test]
fn a_directory_swapped_for_a_link_while_its_page_is_read_is_not_followed() {
    let site = Site::new(&["index.html", "sub/inner/kept.html"]);
    site.config(&format!("{BASE}images = true\n"));
    big_page(&site, "sub/big.html");
    outside_page(&site, "outside/inner/private.html");
    let out = run_swapping(&site, &[], "public/sub/big.html", || {
        fs::rename(site.public().join("sub"), site.root().join("moved-sub")).unwrap();
        symlink("../outside", site.public().join("sub")).unwrap();
    });
    assert_nothing_leaked(&site, &out);
    // The held directory is the site's, renamed or not: its pages are listed.
    let xml = site.read("sitemap.xml");
    assert!(xml.contains("/sub/inner/kept.html"), "{xml}");
}

/// A subdirectory the walk has listed but not opened yet becomes a link to outside: it
/// is not opened through it (reported, not followed).
#[test]
fn a_subdirectory_swapped_for_a_link_before_it_is_opened_is_not_followed() {
    let site = Site::new(&["index.html", "sub/inner/kept.html"]);
    site.config(&format!("{BASE}images = true\n"));
    big_page(&site, "sub/big.html");
    outside_page(&site, "outside/inner/private.html");
    let out = run_swapping(&site, &[], "public/sub/big.html", || {
        let inner = site.public().join("sub/inner");
        fs::rename(&inner, site.root().join("moved-inner")).unwrap();
        symlink("../../outside/inner", &inner).unwrap();
    });
    let stderr = assert_nothing_leaked(&site, &out);
    assert!(stderr.contains("inner"), "{stderr}");
}

/// Pages named by `name(i)` beside the sparse page in the public directory, added
/// until some are listed (in the order `getdents` gives, which the binary sees too: one
/// small directory, one read of it) before it and some after it: returns all of them,
/// and those after it. The walk reads those after it once the sparse page is read;
/// walks that list everything first and then read pages, in the listing's order or its
/// reverse, read one or the other set after it.
fn around_big(site: &Site, name: impl Fn(usize) -> String) -> (Vec<String>, Vec<String>) {
    around_big_made(site, |i| {
        let name = name(i);
        site.page(&name);
        name
    })
}

/// As [`around_big`], with each entry made by `make(i)`, which returns its name.
fn around_big_made(site: &Site, make: impl Fn(usize) -> String) -> (Vec<String>, Vec<String>) {
    let mut made = Vec::new();
    for i in 0..1000 {
        made.push(make(i));
        let listed: Vec<String> = fs::read_dir(site.public())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| *n == "big.html" || made.contains(n))
            .collect();
        let big = listed.iter().position(|n| n == "big.html").unwrap();
        if big > 0 && big + 1 < listed.len() {
            let mut all = listed.clone();
            all.remove(big);
            return (all, listed[big + 1..].to_vec());
        }
    }
    panic!("no entries listed both before and after big.html");
}

/// Pages found by the walk (listed) and then, before they are opened, swapped for links
/// to a page outside the site: skipped as "now a symbolic link", in the default walk, with
/// `follow_symlinks` (which follows only what was a link when the walk saw it), and with
/// the git source.
#[test]
fn pages_swapped_for_links_after_the_walk_found_them_are_not_followed() {
    for (setting, git) in [
        ("", false),
        ("follow_symlinks = true\n", false),
        ("lastmod = ['git', 'mtime']\n", true),
    ] {
        let site = Site::new(&["index.html"]);
        site.config(&format!("{BASE}images = true\n{setting}"));
        big_page(&site, "big.html");
        let (victims, after) = around_big(&site, |i| format!("page{i}.html"));
        outside_page(&site, "outside/private.html");
        if git {
            // The sparse page is dated by its mtime: nothing for git to compress.
            fs::write(site.root().join(".gitignore"), "public/big.html\n").unwrap();
            git_commit(site.root());
        }
        let out = run_swapping(&site, &[], "public/big.html", || {
            for victim in &victims {
                let path = site.public().join(victim);
                fs::remove_file(&path).unwrap();
                symlink("../outside/private.html", &path).unwrap();
            }
        });
        let stderr = assert_nothing_leaked(&site, &out);
        for victim in &after {
            let warned = stderr
                .lines()
                .any(|l| l.contains(victim.as_str()) && l.contains("now a symbolic link"));
            assert!(warned, "{setting}{victim}: {stderr}");
        }
    }
}

/// A page named like a Google verification file (whose start is read to tell) becomes a
/// FIFO after the walk listed it: neither the probe nor the page reader waits on it.
#[test]
fn a_verification_name_swapped_for_a_fifo_does_not_hang() {
    let site = Site::new(&["index.html"]);
    site.config(&format!("{BASE}images = true\n"));
    big_page(&site, "big.html");
    let (victims, after) = around_big(&site, |i| format!("google{i:016x}.html"));
    let out = run_swapping(&site, &[], "public/big.html", || {
        for victim in &victims {
            let path = site.public().join(victim);
            fs::remove_file(&path).unwrap();
            let made = Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(made.success());
        }
    });
    let stderr = assert_nothing_leaked(&site, &out);
    for victim in &after {
        let warned = stderr
            .lines()
            .any(|l| l.contains(victim.as_str()) && l.contains("now a FIFO"));
        assert!(warned, "{victim}: {stderr}");
    }
}

/// A git repository around the site, everything committed.
fn git_commit(root: &Path) {
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["commit", "-qm", "site"],
    ] {
        let out = Command::new("git")
            .current_dir(root)
            .args(["-c", "user.name=Test", "-c", "user.email=test@example.org"])
            .args(args)
            .output()
            .expect("git is installed");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }
}

/// With `follow_symlinks`, links to a directory inside the site, checked when the walk
/// lists them, are pointed outside before the walk opens them (after the listing, while
/// the sparse page is read): the directory opened is the one checked, or none.
#[test]
fn a_followed_link_pointed_outside_before_it_is_opened_is_not_followed() {
    let site = Site::new(&["index.html", "real/kept.html"]);
    site.config(&format!("{BASE}images = true\nfollow_symlinks = true\n"));
    big_page(&site, "big.html");
    outside_page(&site, "outside/private.html");
    let (links, _) = around_big_made(&site, |i| {
        let name = format!("link{i}");
        symlink("real", site.public().join(&name)).unwrap();
        name
    });
    let out = run_swapping(&site, &[], "public/big.html", || {
        for link in &links {
            let path = site.public().join(link);
            fs::remove_file(&path).unwrap();
            symlink("../outside", &path).unwrap();
        }
    });
    assert_nothing_leaked(&site, &out);
}

/// `llms-full.txt` reads each page again after the walk: pages swapped between
/// themselves and links to a page outside, continuously, while runs go on, are read
/// inside the site or passed over, never followed out (a page checked inside and
/// swapped before it was opened used to be read, outside content and all).
#[test]
fn pages_swapped_continuously_for_links_are_not_read_into_llms_full_txt() {
    const PAGES: usize = 200;
    let site = Site::new(&["index.html"]);
    site.config(&format!(
        "{BASE}lastmod = 'none'\nllms_txt = true\nllms_full_txt = true\n"
    ));
    let outside = site.root().join("secret.html");
    fs::write(&outside, "<main><p>leaked secret</p></main>").unwrap();
    let inside = "<title>in</title><main><p>inside</p></main>";
    for i in 0..PAGES {
        fs::write(site.page(format!("p{i}.html")), inside).unwrap();
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, public) = (std::sync::Arc::clone(&stop), site.public());
        std::thread::spawn(move || {
            let (link, file) = (public.join(".link"), public.join(".file"));
            // Every page a link for one pass, a page for the next: each is either half
            // the time, and changes every few milliseconds.
            for pass in 0.. {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                for i in 0..PAGES {
                    let page = public.join(format!("p{i}.html"));
                    let _ = match pass % 2 {
                        0 => symlink(&outside, &link).and_then(|()| fs::rename(&link, &page)),
                        _ => fs::write(&file, inside).and_then(|()| fs::rename(&file, &page)),
                    };
                }
            }
        })
    };
    for _ in 0..10 {
        let out = Command::new(binary())
            .current_dir(site.root())
            .env_remove("CI")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let full = site.read("llms-full.txt");
        assert!(!full.contains("leaked"), "read outside the site:\n{full}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
}

/// Markdown twins are written through held folders: `public/docs` swapped continuously
/// between itself and a link to a folder outside, while runs go on, never receives a
/// twin or a temporary file through the link (the folder was checked inside, then
/// written by path, and the first swap sent twins out).
#[test]
#[cfg(feature = "markdown")]
fn a_folder_swapped_for_a_link_while_twins_are_written_receives_nothing() {
    const PAGES: usize = 200;
    let site = Site::new(&["index.html"]);
    site.config(&format!(
        "{BASE}lastmod = 'none'\nllms_txt = true\nllms_markdown = true\n"
    ));
    let outside = site.root().join("outside");
    fs::create_dir(&outside).unwrap();
    for i in 0..PAGES {
        let page = format!("<title>p{i}</title><main><p>page {i}</p></main>");
        fs::write(site.page(format!("docs/p{i}.html")), page).unwrap();
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, public) = (std::sync::Arc::clone(&stop), site.public());
        let outside = outside.clone();
        std::thread::spawn(move || {
            let (docs, real) = (public.join("docs"), public.join(".docs"));
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = fs::rename(&docs, &real).and_then(|()| symlink(&outside, &docs));
                std::thread::sleep(Duration::from_micros(100));
                let _ = fs::remove_file(&docs).and_then(|()| fs::rename(&real, &docs));
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    for _ in 0..10 {
        // A run may fail (a folder that leads out is refused) or pass; either way the
        // folder outside stays empty.
        let out = Command::new(binary())
            .current_dir(site.root())
            .env_remove("CI")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() || stderr.contains("link") || stderr.contains("No such file"),
            "{stderr}"
        );
        let there: Vec<_> = fs::read_dir(&outside).unwrap().flatten().collect();
        assert!(there.is_empty(), "written outside the site: {there:?}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    let _ = fs::rename(site.public().join(".docs"), site.public().join("docs"));
}
