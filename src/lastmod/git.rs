//! `lastmod` from git: the committer date of the last commit that touched each file.
//!
//! Three git processes serve the whole tree, never one per file: `rev-parse` (is this a
//! work tree, is it shallow), `status` (files with uncommitted changes, which fall
//! through to the next source) and one `log` over the public directory. Paths travel
//! NUL-separated (`-z`), so spaces and non-ASCII names arrive as raw bytes, unquoted.

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

fn git(dir: &Path, command: &'static str, args: &[&str]) -> Result<Vec<u8>, GitUnavailable> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
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
                dir: dir.to_path_buf(),
                message,
            });
        }
        return Err(GitUnavailable::Failed { command, message });
    }
    Ok(output.stdout)
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

/// Reads the committer dates of every committed, unmodified file under `dir`.
pub fn read(dir: &Path) -> Result<GitDates, GitUnavailable> {
    let info = git(
        dir,
        "rev-parse",
        &[
            "--is-shallow-repository",
            "--show-prefix",
            "--git-path",
            "shallow",
        ],
    )?;
    let info = String::from_utf8_lossy(&info);
    let mut lines = info.lines();
    let shallow = lines.next() == Some("true");
    let prefix = lines.next().unwrap_or("").to_string();
    let boundary: HashSet<String> = if shallow {
        let shallow_file = dir.join(lines.next().unwrap_or(""));
        // One commit id a line; a bound all the same, and no FIFO to hang on.
        crate::fsutil::read_regular_string(&shallow_file, 64 * 1024 * 1024)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    } else {
        HashSet::new()
    };

    // Both only read the repository: run them side by side.
    let (status, log) = std::thread::scope(|scope| {
        let status = scope.spawn(|| {
            git(
                dir,
                "status",
                &[
                    "--porcelain",
                    "-z",
                    "--untracked-files=all",
                    "--no-renames",
                    "--",
                    ".",
                ],
            )
        });
        let log = git(
            dir,
            "log",
            &[
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
