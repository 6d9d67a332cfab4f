//! git runs only in the project's repository, and reads no more of its history than the
//! pages need: each pinned through the real binary.

use std::fs;
use std::path::Path;
#[cfg(unix)]
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use predicates::prelude::*;

use crate::lastmod::{git, lastmods, plant_commands};
use crate::util::Site;

const BASE: &str = "base_url = 'https://example.org/'\n";

/// Past this, a run is killed and the test fails.
const HANG: Duration = Duration::from_secs(30);

/// A project with its repository, `content/a.md` committed in it.
fn project_with_content(lastmod: &str) -> Site {
    let site = Site::new(&["index.html", "a/index.html"]);
    let root = site.root();
    fs::create_dir_all(root.join("content")).unwrap();
    fs::write(root.join("content/a.md"), "+++\ntitle = 'A'\n+++\n").unwrap();
    site.config(&format!(
        "{BASE}lastmod = {lastmod}\n[source]\ngenerator = 'hugo'\n"
    ));
    git(root, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(root, &["add", "."], "2020-01-01T00:00:00Z");
    git(root, &["commit", "-qm", "project"], "2024-01-02T03:04:05Z");
    site.set_all_mtimes(1_700_000_000);
    site
}

/// Makes `dir` a repository of its own, its files committed, whose config names a
/// command for everything a read-only git could run (a clean filter on every file
/// among them), then touches `touched` so a `git status` there would read it again,
/// through the filter (its size unchanged, git cannot tell it unmodified otherwise).
/// Returns the commands' marker files.
fn plant_nested_repository(dir: &Path, markers: &Path, touched: &str) -> Vec<std::path::PathBuf> {
    git(dir, &["init", "-q"], "2020-01-01T00:00:00Z");
    git(dir, &["add", "."], "2020-01-01T00:00:00Z");
    git(dir, &["commit", "-qm", "nested"], "2025-05-05T05:05:05Z");
    let ran = plant_commands(dir, markers, true);
    let file = fs::File::options()
        .append(true)
        .open(dir.join(touched))
        .unwrap();
    file.set_modified(UNIX_EPOCH + Duration::from_secs(1_000_000_000))
        .unwrap();
    ran
}

/// A content directory holding a repository of its own (unpacked, generated, or a
/// contributor's) is not the project's: git never runs in it, so its config's clean
/// filter does not run, and the sources fall through with a warning naming it.
#[test]
fn a_repository_nested_in_content_is_never_run_in() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = project_with_content("['source', 'mtime']");
    let markers = tempfile::tempdir().unwrap();
    let ran = plant_nested_repository(&site.root().join("content"), markers.path(), "a.md");

    let run = site.cmd().timeout(HANG).assert().success();
    let ran: Vec<_> = ran.iter().filter(|m| m.exists()).collect();
    assert!(ran.is_empty(), "the nested repository ran {ran:?}");
    run.stderr(predicate::str::contains("in a git repository of its own"));
    assert_eq!(
        lastmods(&site)["https://example.org/a/"],
        "2023-11-14T22:13:20+00:00"
    );
}

/// The same for `"git"`: the project has a repository, and the public directory one of
/// its own (a deploy branch's worktree, a built artifact): only the project's is used.
#[test]
fn a_repository_nested_in_public_dir_is_never_run_in() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = project_with_content("['git', 'mtime']");
    let markers = tempfile::tempdir().unwrap();
    let ran = plant_nested_repository(&site.public(), markers.path(), "index.html");

    let run = site.cmd().timeout(HANG).assert().success();
    let ran: Vec<_> = ran.iter().filter(|m| m.exists()).collect();
    assert!(ran.is_empty(), "the nested repository ran {ran:?}");
    run.stderr(predicate::str::contains("in a git repository of its own"));
    assert_eq!(
        lastmods(&site)["https://example.org/a/"],
        "2023-11-14T22:13:20+00:00"
    );
}

/// `git log` is read as it comes, and left as soon as every page has its date: here
/// it never ends (a `git` on PATH that waits after the real log, as a long history
/// keeps git walking), and the run still finishes, with the real dates.
// Unix only: Unix permission bits (an executable script as git).
#[cfg(unix)]
#[test]
fn git_log_is_left_once_every_page_is_dated() {
    if !crate::tools::GIT.present() {
        return;
    }
    let site = project_with_content("['git', 'source', 'mtime']");
    let real = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap();
    let bin = tempfile::tempdir().unwrap();
    let wrapper = bin.path().join("git");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ncase \" $* \" in\n*\" log \"*) '{0}' \"$@\"; exec sleep 600 ;;\n*) exec '{0}' \"$@\" ;;\nesac\n",
            real.trim()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );

    site.cmd()
        .env("PATH", path)
        .timeout(HANG)
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    let dates = lastmods(&site);
    assert_eq!(dates["https://example.org/"], "2024-01-02T03:04:05+00:00");
    assert_eq!(dates["https://example.org/a/"], "2024-01-02T03:04:05+00:00");
}
