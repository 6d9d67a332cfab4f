//! `lastmod` from git: the committer date of the last commit that touched each file.
//!
//! Three git processes serve the whole tree, never one per file: `rev-parse` (is this a
//! work tree, is it shallow, where is the repository), `status` (files with uncommitted
//! changes, which fall through to the next source) and one `log` over the public
//! directory. Paths travel NUL-separated (`-z`), so spaces and non-ASCII names arrive
//! as raw bytes, unquoted.
//!
//! A repository's config can name commands git runs, and a `.git` can come with a built
//! site (an artifact, a theme's output). So git runs only in the project's repository,
//! never in one inside the public directory ([`read_site`]), and every git we start is
//! told not to run what a repository configures (`HARDENING`):
//! - `rev-parse` only reads refs and paths; `safe.bareRepository=explicit` keeps it from
//!   taking a public directory laid out like a bare repository for one.
//! - `status` would run `core.fsmonitor` (set to `false`) and, if it wrote the index,
//!   the `post-index-change` hook (`GIT_OPTIONAL_LOCKS=0`: it writes nothing; and
//!   `core.hooksPath` points at the null device); `--ignore-submodules=all` starts no
//!   `git status` in a submodule's own repository.
//! - `log` would run `gpg.program` for `log.showSignature` (set to `false`); it writes
//!   file names, no patches, so no `diff.external` or textconv (`--no-ext-diff
//!   --no-textconv` all the same) and no pager (`--no-pager`; and stdout is a pipe).
//!
//! What stays is the project's own: a clean filter its `.gitattributes` and config name
//! (git-lfs) runs when `status` re-reads a file, and a partial clone may fetch from its
//! remote. Both come from the repository that holds the config file, never the site's.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use jiff::Timestamp;

/// Why git dates are not available; the next `lastmod` source is used instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitUnavailable {
    /// No `git` on PATH.
    #[error(
        "lastmod source \"git\" needs git, which is not on PATH; install git or remove \"git\" from lastmod"
    )]
    NoGit,
    /// The public directory is not inside a git work tree.
    #[error("lastmod source \"git\": {} is not in a git work tree ({message}); the next source is used", dir.display())]
    NotAWorkTree {
        /// The public directory.
        dir: PathBuf,
        /// What git said.
        message: String,
    },
    /// git ran but failed.
    #[error("lastmod source \"git\": `git {command}` failed: {message}")]
    Failed {
        /// The git subcommand.
        command: &'static str,
        /// What git or the OS said.
        message: String,
    },
    /// The repository git finds from the public directory is inside it: it came with
    /// the site, not from the project.
    #[error("lastmod source \"git\": the git repository of {} ({}) is inside public_dir, not the project's; git is not run in a repository that came with the site, the next source is used (date pages by the project's repository, or use the \"content\" source)", dir.display(), repo.display())]
    InsideSite {
        /// The public directory.
        dir: PathBuf,
        /// The repository's git directory.
        repo: PathBuf,
    },
}

/// Committer dates of the committed, unmodified files under a directory.
#[derive(Debug, Default)]
pub struct GitDates {
    /// Paths relative to the directory.
    pub dates: HashMap<PathBuf, Timestamp>,
    /// The clone is shallow. Files whose newest commit is a boundary commit of the
    /// shallow history (where git shows every older file as added) are left out of
    /// `dates`, as their real date is unknown.
    pub shallow: bool,
}

impl GitDates {
    /// The date of a file (relative to the directory), if committed and unmodified.
    pub fn get(&self, rel: &Path) -> Option<Timestamp> {
        self.dates.get(rel).copied()
    }
}

/// `-c` settings for every git we run, over any the repository sets: no command the
/// repository configures runs for `rev-parse`, `status` or `log` (see the module doc).
const HARDENING: &[&str] = &[
    "core.fsmonitor=false",
    if cfg!(windows) {
        "core.hooksPath=NUL"
    } else {
        "core.hooksPath=/dev/null"
    },
    "log.showSignature=false",
    "safe.bareRepository=explicit",
];

/// Where git runs: `-C dir`, and once the repository is known and vetted, that
/// repository pinned (`--git-dir`, `--work-tree`) so nothing is discovered again.
struct At<'a> {
    dir: &'a Path,
    repo: Option<&'a Repo>,
}

fn git(at: &At, command: &'static str, args: &[&str]) -> Result<Vec<u8>, GitUnavailable> {
    let mut git = Command::new("git");
    git.arg("--no-pager");
    for setting in HARDENING {
        git.args(["-c", setting]);
    }
    git.arg("-C").arg(at.dir);
    if let Some(repo) = at.repo {
        git.arg("--git-dir").arg(&repo.git_dir);
        git.arg("--work-tree").arg(&repo.top);
    }
    let output = git
        .arg(command)
        .args(args)
        // `status` must not take the index lock of a repository it only reads.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => GitUnavailable::NoGit,
            _ => GitUnavailable::Failed {
                command,
                message: e.to_string(),
            },
        })?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr)
            .trim()
            .replace('\n', " ");
        if message.contains("not a git repository") {
            return Err(GitUnavailable::NotAWorkTree {
                dir: at.dir.to_path_buf(),
                message,
            });
        }
        return Err(GitUnavailable::Failed { command, message });
    }
    Ok(output.stdout)
}

/// The repository git found, as `rev-parse` printed it.
#[derive(Debug)]
struct Repo {
    shallow: bool,
    /// `dir` relative to the top level, `/`-terminated (empty at the top).
    prefix: String,
    /// The shallow file, relative to `dir` or absolute.
    shallow_file: PathBuf,
    /// The work tree's top level.
    top: PathBuf,
    /// The git directory (absolute) and the common one (relative to `dir` or absolute).
    git_dir: PathBuf,
    common_dir: PathBuf,
}

fn discover(dir: &Path) -> Result<Repo, GitUnavailable> {
    let info = git(
        &At { dir, repo: None },
        "rev-parse",
        &[
            "--is-shallow-repository",
            "--show-prefix",
            "--git-path",
            "shallow",
            "--show-toplevel",
            "--absolute-git-dir",
            "--git-common-dir",
        ],
    )?;
    let info = String::from_utf8_lossy(&info);
    let lines: Vec<&str> = info.lines().collect();
    // A newline in a path would shift every answer after it: refuse rather than guess.
    let [shallow, prefix, shallow_file, top, git_dir, common_dir] = lines[..] else {
        return Err(GitUnavailable::Failed {
            command: "rev-parse",
            message: format!("{} lines of output where 6 were expected", lines.len()),
        });
    };
    Ok(Repo {
        shallow: shallow == "true",
        prefix: prefix.to_string(),
        shallow_file: dir.join(shallow_file),
        top: PathBuf::from(top),
        git_dir: PathBuf::from(git_dir),
        common_dir: dir.join(common_dir),
    })
}

/// Reads the dates of the public directory's pages from the project's repository.
///
/// The repository git finds from `public_dir` is refused when its work tree, git
/// directory or common directory is inside `public_dir` (a `.git` that came with the
/// site, or a config whose `core.worktree` points out of it), unless `project` (the
/// config file's directory) is inside `public_dir` too: then the site is the project.
pub fn read_site(public_dir: &Path, project: &Path) -> Result<GitDates, GitUnavailable> {
    let repo = discover(public_dir)?;
    let real = |path: &Path| std::fs::canonicalize(path).ok();
    let project = if project.as_os_str().is_empty() {
        Path::new(".")
    } else {
        project
    };
    if let Some(site) = real(public_dir)
        && !real(project).is_some_and(|p| p.starts_with(&site))
        && [&repo.top, &repo.git_dir, &repo.common_dir]
            .into_iter()
            // A path that cannot be resolved cannot be shown outside: refused too.
            .any(|path| real(path).is_none_or(|p| p.starts_with(&site)))
    {
        return Err(GitUnavailable::InsideSite {
            dir: public_dir.to_path_buf(),
            repo: repo.git_dir,
        });
    }
    dates(public_dir, &repo)
}

#[cfg(unix)]
fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

/// Off Unix, git writes paths as UTF-8.
#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// Reads the committer dates of every committed, unmodified file under `dir`, a
/// directory of the project (whose repository is trusted: see [`read_site`]).
pub fn read(dir: &Path) -> Result<GitDates, GitUnavailable> {
    dates(dir, &discover(dir)?)
}

fn dates(dir: &Path, repo: &Repo) -> Result<GitDates, GitUnavailable> {
    let shallow = repo.shallow;
    let prefix = &repo.prefix;
    let boundary: HashSet<String> = if shallow {
        // One commit id a line; a bound all the same, and no FIFO to hang on.
        crate::fsutil::read_regular_string(&repo.shallow_file, 64 * 1024 * 1024)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    } else {
        HashSet::new()
    };
    let at = At {
        dir,
        repo: Some(repo),
    };

    // Both only read the repository: run them side by side.
    let (status, log) = std::thread::scope(|scope| {
        let status = scope.spawn(|| {
            git(
                &at,
                "status",
                &[
                    "--porcelain",
                    "-z",
                    "--untracked-files=all",
                    "--ignore-submodules=all",
                    "--no-renames",
                    "--",
                    ".",
                ],
            )
        });
        let log = git(
            &at,
            "log",
            &[
                "--no-ext-diff",
                "--no-textconv",
                "--format=%x00%ct %H",
                "--name-only",
                "-z",
                "--relative",
                "--no-renames",
                "--",
                ".",
            ],
        );
        (status.join().expect("the git status thread panicked"), log)
    });
    // Porcelain paths are relative to the repository root; ours to `dir`.
    let dirty: HashSet<PathBuf> = status?
        .split(|&b| b == 0)
        .filter(|entry| entry.len() > 3)
        .filter_map(|entry| entry[3..].strip_prefix(prefix.as_bytes()))
        .map(path_of)
        .collect();
    let log = log?;
    let mut dates = parse_log(&log);
    dates.retain(|path, (_, commit)| !dirty.contains(path) && !boundary.contains(commit));
    Ok(GitDates {
        dates: dates
            .into_iter()
            .map(|(path, (when, _))| (path, when))
            .collect(),
        shallow,
    })
}

/// Parses `git log --format='%x00%ct %H' --name-only -z`: each commit is an empty field,
/// its committer time and hash, then its file names, the first preceded by a newline.
/// A file's date is its newest commit's, whatever order the log walks in.
fn parse_log(log: &[u8]) -> HashMap<PathBuf, (Timestamp, String)> {
    let mut dates: HashMap<PathBuf, (Timestamp, String)> = HashMap::new();
    let mut fields = log.split(|&b| b == 0).peekable();
    let mut current: Option<(Timestamp, String)> = None;
    let mut record = |name: &[u8], current: &Option<(Timestamp, String)>| {
        let (Some((when, commit)), false) = (current, name.is_empty()) else {
            return;
        };
        let date = dates
            .entry(path_of(name))
            .or_insert_with(|| (*when, commit.clone()));
        if *when > date.0 {
            *date = (*when, commit.clone());
        }
    };
    while let Some(field) = fields.next() {
        if field.is_empty() {
            current = fields.next().and_then(|f| {
                let (time, commit) = std::str::from_utf8(f).ok()?.trim().split_once(' ')?;
                let when = Timestamp::from_second(time.parse().ok()?).ok()?;
                Some((when, commit.to_string()))
            });
            if let Some(first) = fields.next_if(|f| f.first() == Some(&b'\n')) {
                record(&first[1..], &current);
            }
            continue;
        }
        record(field, &current);
    }
    dates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_log_output_with_odd_names() {
        let log = b"\x001706832000 c3\x00\nx.html\x00\x001704164645 c2\x00\na b/index.html\x00x.html\x00\xc3\xbcber/index.html\x00\x001600000000 c1\x00\nold.html\x00";
        let dates = parse_log(log);
        let at = |p: &str| {
            dates
                .get(Path::new(p))
                .map(|(t, c)| (t.as_second(), c.as_str()))
        };
        assert_eq!(at("x.html"), Some((1_706_832_000, "c3")));
        assert_eq!(at("a b/index.html"), Some((1_704_164_645, "c2")));
        assert_eq!(at("über/index.html"), Some((1_704_164_645, "c2")));
        assert_eq!(at("old.html"), Some((1_600_000_000, "c1")));
        assert_eq!(dates.len(), 4);
    }

    #[test]
    fn a_commit_without_files_is_skipped_and_the_newest_date_wins() {
        let log =
            b"\x001700000000 e\x00\x001600000000 b\x00\na.html\x00\x001650000000 m\x00\na.html\x00";
        let dates = parse_log(log);
        let (when, commit) = &dates[Path::new("a.html")];
        assert_eq!((when.as_second(), commit.as_str()), (1_650_000_000, "m"));
    }
}
