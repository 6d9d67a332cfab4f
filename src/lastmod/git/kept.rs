//! The dates the log gave, kept in the git directory by the commit HEAD was at: a file's
//! last commit is a fact of the history alone, so while HEAD stays where it was, the next
//! run takes the dates from here and runs no `git log`. A new commit, another branch or
//! a shallow clone (whose boundary a fetch can move without moving HEAD) means the log.
//!
//! One file per directory read: a header naming the file and HEAD's commit, then a line
//! a file, `<seconds>\t<path>` (`-` for a file the log never met). A path with a line
//! break is not kept (such a file sends the run to the log). Written by hand: a line
//! format a few lines long.

use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use super::tree::Tree;
use crate::fsutil;

/// What the file starts with, before HEAD's commit.
const MAGIC: &str = "sitemapgen log cache 1";

/// The largest kept log read: past any tree's (a path and a date a file), and a bound.
const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// Where the dates of one directory's files are kept, and the commit they hold for.
#[derive(Debug)]
pub(super) struct Kept {
    path: PathBuf,
    head: String,
}

impl Kept {
    /// The kept dates of the directory `dir` in the git directory `git_dir`, for HEAD at
    /// commit `head`.
    pub(super) fn new(git_dir: &Path, dir: &Path, head: String) -> Kept {
        let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let name = blake3::hash(real.as_os_str().as_encoded_bytes()).to_hex();
        Kept {
            path: git_dir.join(format!("sitemapgen-log-{}", &name[..16])),
            head,
        }
    }

    /// Dates the files of `tree` from what the last run kept, if it ran at this commit:
    /// whether every file of the tree was there (the log is then not needed).
    pub(super) fn fill(&self, tree: &Tree) -> bool {
        let (dir, Some(name)) = (fsutil::parent_dir(&self.path), self.path.file_name()) else {
            return false;
        };
        // Read a line at a time (7 MB at 200,000 files), never held whole.
        let Ok(file) = fsutil::open_below(dir, Path::new(name)) else {
            return false;
        };
        let mut lines = io::BufReader::new(file.take(MAX_BYTES));
        let mut line = Vec::new();
        let header = format!("{MAGIC} {}\n", self.head);
        if lines.read_until(b'\n', &mut line).is_err() || line != header.as_bytes() {
            return false;
        }
        let mut covered = 0;
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line) {
                Ok(0) => return covered == tree.len(),
                Ok(_) => {}
                Err(_) => return false,
            }
            // A line cut short (a file past the bound) is no line.
            let Some(Some(met)) = line.strip_suffix(b"\n").map(|l| meet(tree, l)) else {
                return false;
            };
            covered += usize::from(met);
        }
    }

    /// Keeps the dates of `tree`, as the log gave them, for the next run; a file that
    /// cannot be written is no error (the next run reads the log). Written whole and
    /// renamed into place, without the git directory's lock: the sources' cache holds it
    /// for the run (and sweeps what a killed run left of both).
    pub(super) fn keep(&self, tree: &Tree) {
        let name = self.path.file_name().unwrap_or_default();
        let prefix = format!(".{}.", name.to_string_lossy());
        let Ok(mut temp) =
            fsutil::held(fsutil::parent_dir(&self.path)).and_then(|d| d.temp(&prefix))
        else {
            return;
        };
        let written = temp.fill(|out| {
            writeln!(out, "{MAGIC} {}", self.head)?;
            for (path, seconds) in tree.dates() {
                if path.contains(&b'\n') {
                    continue;
                }
                match seconds {
                    Some(seconds) => write!(out, "{seconds}\t")?,
                    None => out.write_all(b"-\t")?,
                }
                out.write_all(path)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        });
        if written.is_ok() {
            let _ = temp.persist(name);
        }
    }
}

/// Dates the file a kept line names (`<seconds>\t<path>`, `-` for a file the log never
/// met): whether it is one of the tree's files, met now; none for a line that does not
/// parse.
fn meet(tree: &Tree, line: &[u8]) -> Option<bool> {
    let tab = memchr::memchr(b'\t', line)?;
    let (seconds, path) = (&line[..tab], &line[tab + 1..]);
    if seconds == b"-" {
        return Some(tree.has(path));
    }
    let seconds = std::str::from_utf8(seconds).ok()?.parse().ok()?;
    Some(tree.meet(path, (seconds, false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tree::of_paths as tree;

    #[test]
    fn dates_kept_at_a_commit_serve_that_commit_only_and_only_whole() {
        let dir = tempfile::tempdir().unwrap();
        let kept = Kept::new(dir.path(), Path::new("content"), "c1".into());
        let first = tree(&["a.md", "b c.md", "new.md"]);
        assert!(!kept.fill(&first), "nothing kept yet");
        first.meet(b"a.md", (1_600_000_000, false));
        first.meet(b"b c.md", (1_700_000_000, false));
        kept.keep(&first);
        let second = tree(&["a.md", "b c.md", "new.md"]);
        assert!(kept.fill(&second));
        let seconds = |t: &Tree, p: &str| t.date(Path::new(p)).map(|d| d.as_second());
        assert_eq!(seconds(&second, "a.md"), Some(1_600_000_000));
        assert_eq!(seconds(&second, "b c.md"), Some(1_700_000_000));
        assert_eq!(seconds(&second, "new.md"), None);
        // A file cut short (its last line without its line break) serves nothing.
        let whole = std::fs::read(&kept.path).unwrap();
        std::fs::write(&kept.path, &whole[..whole.len() - 1]).unwrap();
        assert!(!kept.fill(&tree(&["a.md", "b c.md", "new.md"])));
        std::fs::write(&kept.path, &whole).unwrap();
        // A file the last run did not date: the log is needed.
        assert!(!kept.fill(&tree(&["a.md", "other.md"])));
        // Another commit: nothing kept holds.
        let moved = Kept::new(dir.path(), Path::new("content"), "c2".into());
        assert!(!moved.fill(&tree(&["a.md"])));
    }
}
