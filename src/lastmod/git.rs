//! `lastmod` from git: the committer date of the last commit that touched each file.
//!
//! A few git processes serve a whole directory, never one per file: `rev-parse` once a
//! run (is the project in a work tree, is it shallow, where is the repository), then per
//! directory `ls-tree` (the files HEAD has, with their blob ids: `git/tree.rs`), beside
//! it `status` (files with uncommitted changes, which fall through to the next source),
//! and one `log`, read as it comes and left as soon as each file HEAD has under the
//! directory has its date (`git/log.rs`). Paths travel NUL-separated (`-z`), so spaces
//! and non-ASCII names arrive as raw bytes, unquoted.
//!
//! A repository's config can name commands git runs, and a `.git` can come with a built
//! site (an artifact, a theme's output) or a content folder (unpacked, generated). So git
//! runs only in the project's repository: found once from the project's directory
//! ([`Repository::find`]) and pinned for every git after (`--git-dir`, `--work-tree`), so
//! a `.git` below it is never found; a directory inside a repository of its own is not
//! read at all ([`GitUnavailable::Nested`]). Every git we start is told not to run what
//! a repository configures (`HARDENING`):
//! - `rev-parse` and `ls-tree` only read refs, objects and paths;
//!   `safe.bareRepository=explicit` keeps `rev-parse` from taking a project directory
//!   laid out like a bare repository for one.
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

mod kept;
mod log;
mod tree;

pub use tree::{File, Oid, Tree, oid_of};

use std::collections::HashSet;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use jiff::Timestamp;

/// Why git dates are not available; the next `lastmod` source is used instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitUnavailable {
    /// No `git` on PATH.
    #[error(
        "lastmod source \"git\" needs git, which is not on PATH; install git or remove \"git\" from lastmod"
    )]
    NoGit,
    /// The project, or the directory read, is not in the project's git work tree.
    #[error(
        "lastmod source \"git\": {} is not in a git work tree ({message}); the next source is used",
        crate::text::path(dir)
    )]
    NotAWorkTree {
        /// The directory.
        dir: PathBuf,
        /// What git said, or where the project's work tree is.
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
    /// The directory is inside a repository of its own below the project's (a `.git`
    /// that came with the site or the content): git is not run in it.
    #[error(
        "lastmod source \"git\": {} is in a git repository of its own ({}), not the project's; git runs only in the project's repository, so the next source is used (date pages by the project's repository, or use the \"content\" source)",
        crate::text::path(dir),
        crate::text::path(repo)
    )]
    Nested {
        /// The directory.
        dir: PathBuf,
        /// The `.git` found between it and the project's work tree's top.
        repo: PathBuf,
    },
}

/// Committer dates of the committed, unmodified files under a directory.
#[derive(Debug, Default)]
pub struct GitDates {
    /// The files, dated by the log.
    tree: Tree,
    /// The clone is shallow. Files whose newest commit is a boundary commit of the
    /// shallow history (where git shows every older file as added) have no date, as
    /// their real date is unknown.
    pub shallow: bool,
}

impl GitDates {
    /// The date of a file (relative to the directory), if committed and unmodified.
    pub fn get(&self, rel: &Path) -> Option<Timestamp> {
        self.tree.date(rel)
    }

    /// Every file's path below the directory, as git writes it.
    pub fn paths(&self) -> impl Iterator<Item = &[u8]> {
        self.tree.paths()
    }
}

/// What `git status` listed as changed under a directory, or why it could not.
#[derive(Debug)]
pub struct Changed(Result<Vec<u8>, GitUnavailable>);

impl Changed {
    /// Marks the changed files of `tree`: all of them where `status` failed.
    pub fn mark(self, tree: &Tree) -> Result<(), GitUnavailable> {
        match self.0 {
            Ok(status) => {
                tree.mark_changed(&status);
                Ok(())
            }
            Err(e) => {
                tree.distrust();
                Err(e)
            }
        }
    }
}

/// `-c` settings for every git we run, over any the repository sets: no command the
/// repository configures runs for `rev-parse`, `ls-tree`, `status` or `log` (see the
/// module doc).
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

/// A git command run in `dir`, pinned to `repo` once it is known (see the module doc).
fn command(dir: &Path, repo: Option<&Repository>, command: &str, args: &[&str]) -> Command {
    let mut git = Command::new("git");
    git.arg("--no-pager");
    for setting in HARDENING {
        git.args(["-c", setting]);
    }
    git.arg("-C").arg(dir);
    if let Some(repo) = repo {
        git.arg("--git-dir").arg(&repo.git_dir);
        git.arg("--work-tree").arg(&repo.top);
    }
    git.arg(command)
        .args(args)
        // `status` must not take the index lock of a repository it only reads.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null());
    git
}

/// Why git could not be started.
fn not_started(command: &'static str) -> impl Fn(io::Error) -> GitUnavailable {
    move |e| match e.kind() {
        io::ErrorKind::NotFound => GitUnavailable::NoGit,
        _ => GitUnavailable::Failed {
            command,
            message: e.to_string(),
        },
    }
}

/// What a failed git said on stderr, as the error of `command` run in `dir`.
fn failed(dir: &Path, command: &'static str, stderr: &[u8]) -> GitUnavailable {
    let message = String::from_utf8_lossy(stderr).trim().replace('\n', " ");
    if message.contains("not a git repository") {
        return GitUnavailable::NotAWorkTree {
            dir: dir.to_path_buf(),
            message,
        };
    }
    GitUnavailable::Failed { command, message }
}

/// Runs git to the end, its whole output kept: for the commands whose output is bounded
/// by the work tree (`rev-parse`, `ls-tree`, `status`), not by the history.
fn run(
    dir: &Path,
    repo: Option<&Repository>,
    name: &'static str,
    args: &[&str],
) -> Result<Vec<u8>, GitUnavailable> {
    let output = command(dir, repo, name, args)
        .output()
        .map_err(not_started(name))?;
    if !output.status.success() {
        return Err(failed(dir, name, &output.stderr));
    }
    Ok(output.stdout)
}

/// The project's git repository, as `rev-parse` found it from the project's directory:
/// every git run after is pinned to it.
#[derive(Debug, Clone)]
pub struct Repository {
    shallow: bool,
    /// The shallow file, relative to the project's directory or absolute.
    shallow_file: PathBuf,
    /// The work tree's top level (absolute).
    top: PathBuf,
    /// The git directory (absolute).
    git_dir: PathBuf,
}

impl Repository {
    /// Finds the repository of `project` (the config file's directory; empty: the
    /// current one), the one repository git is run in.
    pub fn find(project: &Path) -> Result<Repository, GitUnavailable> {
        // Named in full when it is the current directory, as a message names it.
        let current;
        let dir = if project.as_os_str().is_empty() {
            current = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            &current
        } else {
            project
        };
        let args = [
            "--is-shallow-repository",
            "--git-path",
            "shallow",
            "--show-toplevel",
            "--absolute-git-dir",
        ];
        let info = run(dir, None, "rev-parse", &args)?;
        let info = String::from_utf8_lossy(&info);
        let lines: Vec<&str> = info.lines().collect();
        // A newline in a path would shift every answer after it: refuse rather than guess.
        let [shallow, shallow_file, top, git_dir] = lines[..] else {
            return Err(GitUnavailable::Failed {
                command: "rev-parse",
                message: format!("{} lines of output where 4 were expected", lines.len()),
            });
        };
        Ok(Repository {
            shallow: shallow == "true",
            shallow_file: dir.join(shallow_file),
            top: PathBuf::from(top),
            git_dir: PathBuf::from(git_dir),
        })
    }

    /// Whether the clone is shallow (see [`GitDates::shallow`]).
    pub fn is_shallow(&self) -> bool {
        self.shallow
    }

    /// The git directory (absolute), which only git and sitemapgen's caches write.
    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// `dir`'s path below the work tree's top, `/`-separated and `/`-terminated (empty at
    /// the top), as `status` prefixes the paths it prints. A directory outside the work
    /// tree, or inside a repository of its own below the top, is refused.
    fn prefix_of(&self, dir: &Path) -> Result<Vec<u8>, GitUnavailable> {
        let outside = |message: String| GitUnavailable::NotAWorkTree {
            dir: dir.to_path_buf(),
            message,
        };
        let real = std::fs::canonicalize(dir).map_err(|e| outside(e.to_string()))?;
        let top = std::fs::canonicalize(&self.top).map_err(|e| outside(e.to_string()))?;
        let Ok(rel) = real.strip_prefix(&top) else {
            return Err(outside(format!(
                "it is outside the project's, {}",
                crate::text::path(&self.top)
            )));
        };
        if let Some(repo) = nested_repository(&top, &real) {
            return Err(GitUnavailable::Nested {
                dir: dir.to_path_buf(),
                repo,
            });
        }
        let mut prefix = crate::slash::joined(rel);
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        Ok(prefix)
    }

    /// The commit ids of the shallow history's boundary, one a line in the shallow file.
    fn boundary(&self) -> HashSet<String> {
        if !self.shallow {
            return HashSet::new();
        }
        // A bound all the same, and no FIFO to hang on.
        crate::fsutil::read_regular_string(&self.shallow_file, 64 * 1024 * 1024)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The first `.git` (a directory, file or link) in `dir` or a directory above it, below
/// `top`: `dir` is then in a repository of its own, whatever its config says.
fn nested_repository(top: &Path, dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .take_while(|d| *d != top && d.starts_with(top))
        .map(|d| d.join(".git"))
        .find(|git| std::fs::symlink_metadata(git).is_ok())
}

impl Repository {
    /// Reads the committer dates of the committed, unmodified files under `dir` (a
    /// directory of the project) that `wanted` keeps (given their path below `dir`): the
    /// files the caller looks up, so the log is left once each has its date.
    pub fn dates(
        &self,
        dir: &Path,
        wanted: &dyn Fn(&Path) -> bool,
    ) -> Result<GitDates, GitUnavailable> {
        let tree = self.tree(dir, wanted)?;
        // Both only read the repository: run them side by side.
        let (status, log) = std::thread::scope(|scope| {
            let status = scope.spawn(|| self.status(dir, &tree));
            let log = self.log(dir, &tree);
            (status.join().expect("the git status thread panicked"), log)
        });
        status?;
        log?;
        Ok(GitDates {
            tree,
            shallow: self.shallow,
        })
    }

    /// The files HEAD has under `dir` that `wanted` keeps, each with its blob id, taken as
    /// unchanged until [`Repository::status`] says otherwise, and not yet dated
    /// ([`Repository::log`]).
    pub fn tree(&self, dir: &Path, wanted: &dyn Fn(&Path) -> bool) -> Result<Tree, GitUnavailable> {
        let prefix = self.prefix_of(dir)?;
        // No HEAD to list (no commit yet): the log says why.
        Ok(self.list(dir, prefix, wanted).unwrap_or_default())
    }

    /// Runs `ls-tree` and reads its listing as it comes (see [`Tree::listed`]); none
    /// where git fails.
    fn list(&self, dir: &Path, prefix: Vec<u8>, wanted: &dyn Fn(&Path) -> bool) -> Option<Tree> {
        let read = |out| Tree::listed(out, prefix, wanted);
        let streamed = self.stream(dir, "ls-tree", &LS_TREE, read, |_| true).ok()?;
        (streamed.read.ok()).filter(|_| streamed.status.is_ok_and(|s| s.success()))
    }

    /// Runs git's `name` and hands its output to `read` as git writes it; where `read`
    /// stops short of the end (`whole` says, or it fails), git is stopped, the rest not
    /// wanted.
    fn stream<T>(
        &self,
        dir: &Path,
        name: &'static str,
        args: &[&str],
        read: impl FnOnce(io::BufReader<std::process::ChildStdout>) -> io::Result<T>,
        whole: impl Fn(&T) -> bool,
    ) -> Result<Streamed<T>, GitUnavailable> {
        let mut child = command(dir, Some(self), name, args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(not_started(name))?;
        let stderr = drain_stderr(&mut child);
        let stdout = child.stdout.take().expect("stdout is piped");
        let read = read(io::BufReader::new(stdout));
        if !read.as_ref().is_ok_and(&whole) {
            let _ = child.kill();
        }
        let status = child.wait();
        let stderr = stderr.join().expect("the git stderr thread panicked");
        Ok(Streamed {
            read,
            status,
            stderr,
        })
    }

    /// Marks the files of `tree` (of `dir`) that the work tree has changed (uncommitted
    /// changes fall through to the next source); where `status` fails, all of them.
    pub fn status(&self, dir: &Path, tree: &Tree) -> Result<(), GitUnavailable> {
        self.changed(dir).mark(tree)
    }

    /// What `status` says has changed under `dir`, to be marked on its tree once listed
    /// ([`Changed::mark`]): it runs beside `ls-tree`.
    pub fn changed(&self, dir: &Path) -> Changed {
        Changed(run(dir, Some(self), "status", &STATUS))
    }

    /// Dates the files of `tree` (of `dir`) by their newest commit, as far as `git log`
    /// had to be read: once each has its date, git is stopped.
    /// The dates the last run's log gave are taken instead, where HEAD is still at the
    /// commit it was at then (`git/kept.rs`).
    pub fn log(&self, dir: &Path, tree: &Tree) -> Result<(), GitUnavailable> {
        if tree.listed && tree.len() == 0 {
            return Ok(());
        }
        // A shallow history's boundary can move while HEAD stays: read the log.
        let head = (tree.listed && !self.shallow)
            .then(|| self.head(dir))
            .flatten();
        let kept = head.map(|head| kept::Kept::new(&self.git_dir, dir, head));
        if let Some(kept) = &kept {
            if kept.fill(tree) {
                return Ok(());
            }
            tree.forget();
        }
        self.read_log(dir, tree)?;
        if let Some(kept) = kept {
            kept.keep(tree);
        }
        Ok(())
    }

    /// The commit HEAD is at, if it is at one.
    fn head(&self, dir: &Path) -> Option<String> {
        let id = run(dir, Some(self), "rev-parse", &["-q", "--verify", "HEAD"]).ok()?;
        let id = String::from_utf8(id).ok()?;
        Some(id.trim().to_string()).filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
    }

    /// Runs `git log` and dates the files of `tree` by it (see [`log::read`]).
    fn read_log(&self, dir: &Path, tree: &Tree) -> Result<(), GitUnavailable> {
        let read = |out| log::read(out, &self.boundary(), tree);
        // Left early (or unreadable), git is stopped: only a whole log's status counts.
        let streamed = self.stream(dir, "log", &LOG, read, |whole| *whole)?;
        let whole = streamed.read.map_err(|e| GitUnavailable::Failed {
            command: "log",
            message: e.to_string(),
        })?;
        match streamed.status {
            Ok(status) if whole && !status.success() => Err(failed(dir, "log", &streamed.stderr)),
            Err(e) if whole => Err(not_started("log")(e)),
            _ => Ok(()),
        }
    }
}

/// What a git run streamed ([`Repository::stream`]): what its reader made of its output,
/// how it ended, and the start of its stderr.
struct Streamed<T> {
    read: io::Result<T>,
    status: io::Result<std::process::ExitStatus>,
    stderr: Vec<u8>,
}

/// Reads a child's stderr on a thread of its own (so a chatty git cannot block on a full
/// pipe while its stdout is read), keeping the first 64 KiB.
fn drain_stderr(child: &mut Child) -> std::thread::JoinHandle<Vec<u8>> {
    let stderr = child.stderr.take();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(mut stderr) = stderr {
            let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut kept);
            let _ = io::copy(&mut stderr, &mut io::sink());
        }
        kept
    })
}

/// `git status`: every committed file with uncommitted changes under the directory, by
/// its path from the top, nothing run in a submodule. Untracked files are not listed: HEAD
/// does not have them, so the log dates none of them, and looking for them is half of
/// what status costs on a large tree.
const STATUS: [&str; 7] = [
    "--porcelain",
    "-z",
    "--untracked-files=no",
    "--ignore-submodules=all",
    "--no-renames",
    "--",
    ".",
];

/// `git ls-tree`: the files HEAD has under the directory, with their blob ids.
const LS_TREE: [&str; 5] = ["-r", "-z", "HEAD", "--", "."];

/// `git log`: each commit touching the directory, newest first, with the names of the
/// files it touched (below the directory, relative to it); see [`log::read`].
const LOG: [&str; 9] = [
    "--no-ext-diff",
    "--no-textconv",
    "--format=%x00%ct %H",
    "--name-only",
    "-z",
    "--relative",
    "--no-renames",
    "--",
    ".",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_between_a_directory_and_the_top_is_a_repository_of_its_own() {
        let top = tempfile::tempdir().unwrap();
        let top = top.path();
        let dir = top.join("site/content/posts");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(top.join(".git")).unwrap();
        assert_eq!(nested_repository(top, &dir), None);
        assert_eq!(nested_repository(top, top), None);
        std::fs::write(top.join("site/.git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(nested_repository(top, &dir), Some(top.join("site/.git")));
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        assert_eq!(nested_repository(top, &dir), Some(dir.join(".git")));
    }
}
