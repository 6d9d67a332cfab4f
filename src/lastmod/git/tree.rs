//! The files HEAD has under a directory (`ls-tree`), each with its blob id, whether the
//! work tree has it as HEAD does (`status`), and its last commit's date once the log has
//! met it. The ids and the dates are read while the log writes the dates (the sources'
//! walk asks for ids as git reads the history), so a date is an atomic.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use jiff::Timestamp;

use crate::packed::{Packed, Places};
use crate::slash;

/// A blob's id: SHA-1's 20 bytes (of a SHA-256 id, its first 20, as unlikely to repeat).
pub type Oid = [u8; 20];

/// In [`File::seconds`], for a file the log has not met.
const UNDATED: i64 = i64::MIN;

/// A file HEAD has.
#[derive(Debug)]
pub struct File {
    oid: Oid,
    /// The work tree has it as HEAD does (cleared by `status` beside the log).
    clean: AtomicBool,
    /// Its newest commit's time (seconds), [`UNDATED`] until the log meets it.
    seconds: AtomicI64,
    /// That commit is a boundary of a shallow history (its real date is unknown).
    boundary: AtomicBool,
}

/// The files HEAD has under a directory that the caller wants, by path below it (its
/// bytes: a `Path` hashes component by component, several times slower).
#[derive(Debug, Default)]
pub struct Tree {
    /// Each file's path, as git writes it; its file at the same place in `files`.
    paths: Packed,
    files: Vec<File>,
    index: Places,
    /// HEAD was listed; false where it cannot be read (no commit yet: the log says why).
    pub(super) listed: bool,
    /// The directory's path below the work tree's top, as `status` prefixes its paths.
    pub(super) prefix: Vec<u8>,
}

impl Tree {
    /// The files of `ls-tree -r -z HEAD` output that `wanted` keeps (each
    /// `<mode> blob <id>\t<path>`; submodules are no blobs), all taken as clean. Read as
    /// git writes it: the listing of 200,000 files is 18 MB, never held whole.
    pub(super) fn listed(
        mut listing: impl io::BufRead,
        prefix: Vec<u8>,
        wanted: &dyn Fn(&Path) -> bool,
    ) -> io::Result<Tree> {
        let (mut paths, mut files) = (Packed::default(), Vec::new());
        let mut entry = Vec::new();
        loop {
            entry.clear();
            if listing.read_until(0, &mut entry)? == 0 {
                break;
            }
            let entry = entry.strip_suffix(&[0]).unwrap_or(&entry);
            let Some(tab) = memchr::memchr(b'\t', entry) else {
                continue;
            };
            let (info, name) = (&entry[..tab], &entry[tab + 1..]);
            let mut info = info.split(|&b| b == b' ').skip(1);
            let (Some(b"blob"), Some(id)) = (info.next(), info.next()) else {
                continue;
            };
            let Some(oid) = oid_of(id) else {
                continue;
            };
            if wanted(&slash::path(name)) {
                let file = File {
                    oid,
                    clean: AtomicBool::new(true),
                    seconds: AtomicI64::new(UNDATED),
                    boundary: AtomicBool::new(false),
                };
                paths.push(name);
                files.push(file);
            }
        }
        // Each path once: ls-tree lists each once.
        let mut index = Places::with_capacity(files.len());
        for (i, path) in paths.iter().enumerate() {
            index.insert(path, i, |at| paths.get(at));
        }
        Ok(Tree {
            paths,
            files,
            index,
            listed: true,
            prefix,
        })
    }

    /// The file at `path` (as git writes it), if HEAD has it.
    fn get(&self, path: &[u8]) -> Option<&File> {
        let at = self.index.get(path, |at| self.paths.get(at))?;
        Some(&self.files[at])
    }

    /// Marks as changed the files `status --porcelain -z` lists (paths from the top of
    /// the work tree; this directory's start with its prefix).
    pub(super) fn mark_changed(&self, status: &[u8]) {
        let changed = status.split(|&b| b == 0).filter(|entry| entry.len() > 3);
        for path in changed.filter_map(|entry| entry[3..].strip_prefix(&self.prefix[..])) {
            if let Some(file) = self.get(path) {
                file.clean.store(false, Ordering::Relaxed);
            }
        }
    }

    /// Takes every file as changed (`status` could not say which are).
    pub(super) fn distrust(&self) {
        for file in &self.files {
            file.clean.store(false, Ordering::Relaxed);
        }
    }

    /// The file at `rel`, if HEAD has it and the work tree has it so.
    pub fn clean(&self, rel: &Path) -> Option<&File> {
        let file = self.get(&bytes(rel))?;
        file.clean.load(Ordering::Relaxed).then_some(file)
    }

    /// Every file's path below the directory, as git writes it.
    pub fn paths(&self) -> impl Iterator<Item = &[u8]> {
        self.paths.iter()
    }

    /// The date of the last commit of the file at `rel` (see [`File::date`]).
    pub fn date(&self, rel: &Path) -> Option<Timestamp> {
        self.clean(rel)?.date()
    }

    /// Takes back every date the log gave (it was not read to its end).
    pub fn forget(&self) {
        for file in &self.files {
            file.seconds.store(UNDATED, Ordering::Relaxed);
        }
    }

    /// Whether `path` (as git writes it) is one of the files.
    pub(super) fn has(&self, path: &[u8]) -> bool {
        self.get(path).is_some()
    }

    /// Each file (as git writes it) with its newest commit's time, if the log met it.
    pub(super) fn dates(&self) -> impl Iterator<Item = (&[u8], Option<i64>)> {
        self.paths.iter().zip(&self.files).map(|(path, file)| {
            let seconds = file.seconds.load(Ordering::Relaxed);
            (path, (seconds != UNDATED).then_some(seconds))
        })
    }

    /// How many files the log has to meet.
    pub(super) fn len(&self) -> usize {
        self.files.len()
    }

    /// Records that a commit of time `seconds` (a boundary or not) touched `path` (as
    /// the log names it): whether it is one of the files and the log had not met it.
    pub(super) fn meet(&self, path: &[u8], (seconds, boundary): (i64, bool)) -> bool {
        let Some(file) = self.get(path) else {
            return false;
        };
        let had = file.seconds.load(Ordering::Relaxed);
        if had == UNDATED || seconds > had {
            file.seconds.store(seconds, Ordering::Relaxed);
            file.boundary.store(boundary, Ordering::Relaxed);
        }
        had == UNDATED
    }
}

impl File {
    /// Its blob's id in HEAD.
    pub fn oid(&self) -> &Oid {
        &self.oid
    }

    /// The date of its last commit, if the work tree has it as committed and the log met
    /// it short of a shallow history's boundary.
    pub fn date(&self) -> Option<Timestamp> {
        if !self.clean.load(Ordering::Relaxed) {
            return None;
        }
        let seconds = self.seconds.load(Ordering::Relaxed);
        if seconds == UNDATED || self.boundary.load(Ordering::Relaxed) {
            return None;
        }
        Timestamp::from_second(seconds).ok()
    }
}

/// A tree of files HEAD has at `paths` (one blob id for all), for tests.
#[cfg(test)]
pub(super) fn of_paths(paths: &[&str]) -> Tree {
    let mut listing = Vec::new();
    for path in paths {
        listing.extend_from_slice(b"100644 blob 0123456789abcdef0123456789abcdef01234567\t");
        listing.extend_from_slice(path.as_bytes());
        listing.push(0);
    }
    Tree::listed(&listing[..], Vec::new(), &|_| true).unwrap()
}

/// A path below the directory as git writes it: `/`-separated, on Unix its bytes (and
/// UTF-8 elsewhere, as git writes it there).
fn bytes(rel: &Path) -> std::borrow::Cow<'_, [u8]> {
    if cfg!(unix) {
        return rel.as_os_str().as_encoded_bytes().into();
    }
    crate::slash::joined(rel).into()
}

/// The first 20 bytes of a hex object id (of at least 40 digits).
pub fn oid_of(hex: &[u8]) -> Option<Oid> {
    let mut oid = [0; 20];
    if hex.len() < 40 {
        return None;
    }
    for (byte, pair) in oid.iter_mut().zip(hex.chunks_exact(2)) {
        let digit = |c: u8| (c as char).to_digit(16);
        *byte = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Some(oid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ls_tree_output_gives_blobs_by_path_and_status_marks_the_changed() {
        let listing = b"100644 blob 0123456789abcdef0123456789abcdef01234567\tposts/a b.md\0\
160000 commit 89abcdef0123456789abcdef0123456789abcdef\tthemes/x\0\
100644 blob fedcba9876543210fedcba9876543210fedcba98\tposts/c.md\0\
100644 blob fedcba9876543210fedcba9876543210fedcba98\tlogo.png\0";
        let wanted = |p: &Path| p.extension().is_some_and(|e| e == "md");
        let tree = Tree::listed(&listing[..], b"site/content/".to_vec(), &wanted).unwrap();
        assert_eq!(tree.len(), 2);
        let oid = tree.clean(Path::new("posts/a b.md")).unwrap().oid();
        assert_eq!(oid[..3], [0x01, 0x23, 0x45]);
        tree.mark_changed(b" M site/content/posts/c.md\0?? site/content/new.md\0");
        assert!(tree.clean(Path::new("posts/c.md")).is_none());
        assert!(tree.clean(Path::new("posts/a b.md")).is_some());
    }

    #[test]
    fn the_newest_commit_dates_a_file_unless_it_is_a_boundary_or_changed() {
        let listing = b"100644 blob 0123456789abcdef0123456789abcdef01234567\ta.md\0\
100644 blob 0123456789abcdef0123456789abcdef01234567\tb.md\0\
100644 blob 0123456789abcdef0123456789abcdef01234567\tc.md\0";
        let tree = Tree::listed(&listing[..], Vec::new(), &|_| true).unwrap();
        tree.mark_changed(b" M c.md\0");
        assert!(tree.meet(b"a.md", (1_600_000_000, false)));
        assert!(!tree.meet(b"a.md", (1_700_000_000, false)));
        assert!(!tree.meet(b"a.md", (1_500_000_000, false)));
        assert!(tree.meet(b"b.md", (1_700_000_000, true)));
        assert!(tree.meet(b"c.md", (1_700_000_000, false)));
        assert!(!tree.meet(b"other.md", (1_700_000_000, false)));
        let seconds = |p: &str| tree.date(Path::new(p)).map(|t| t.as_second());
        assert_eq!(seconds("a.md"), Some(1_700_000_000));
        assert_eq!(seconds("b.md"), None);
        assert_eq!(seconds("c.md"), None);
    }
}
