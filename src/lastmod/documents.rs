//! The `"source"` date of a document (`documents`: a PDF): the document is its own
//! source, a file of the project's repository that the generator copies as it is
//! (Hugo's `static/papers/a.pdf` for `public/papers/a.pdf`, Jekyll's `papers/a.pdf`),
//! dated by its last commit. It is found as the one committed file, outside the output,
//! whose path ends with the document's path in the site; none, or two, is a miss.

use std::collections::HashMap;
use std::path::Path;

use jiff::Timestamp;
use xxhash_rust::xxh3::xxh3_64;

use super::git::{GitDates, GitUnavailable, Repository};
use super::source::Miss;

/// The committed documents of the project, by the paths they could be published at.
#[derive(Debug, Default)]
pub struct DocumentDates {
    git: GitDates,
    /// Each committed document's path.
    paths: Vec<Box<[u8]>>,
    /// The hash of each path a committed document could be published at (each of its
    /// path's tails: `static/papers/a.pdf`, `papers/a.pdf`, `a.pdf`), to the document
    /// (its place in `paths`), or `None` when two documents could: 16 bytes a tail,
    /// where the tails themselves took the square of a deep path's length.
    by_tail: HashMap<u64, Option<u32>>,
}

impl DocumentDates {
    /// Reads the history of the project's committed files with a document extension
    /// (`extensions`, lower-case), outside `public_dir` (relative to `project`).
    pub fn read(
        repository: &Repository,
        project: &Path,
        public_dir: &Path,
        extensions: &[String],
    ) -> Result<DocumentDates, GitUnavailable> {
        let output = public_dir.strip_prefix(project).unwrap_or(public_dir);
        let wanted =
            |rel: &Path| !rel.starts_with(output) && crate::scan::is_page_name(rel, extensions);
        let git = repository.dates(project, &wanted)?;
        let paths: Vec<Box<[u8]>> = git.paths().map(Box::from).collect();
        let mut by_tail: HashMap<u64, Option<u32>> = HashMap::new();
        for (at, path) in paths.iter().enumerate() {
            let at = u32::try_from(at).ok();
            let tails = std::iter::once(0).chain(memchr::memchr_iter(b'/', path).map(|i| i + 1));
            for start in tails {
                by_tail
                    .entry(xxh3_64(&path[start..]))
                    .and_modify(|found| *found = None)
                    .or_insert(at);
            }
        }
        Ok(DocumentDates {
            git,
            paths,
            by_tail,
        })
    }

    /// The date of the document at `rel` in the site: its source's last commit.
    pub fn get(&self, rel: &Path) -> Result<Timestamp, Miss> {
        let key = crate::slash::joined(rel);
        let found = self.by_tail.get(&xxh3_64(&key)).copied();
        let source = found.map(|at| at.and_then(|at| self.paths.get(at as usize)));
        // The tail itself, not only its hash: at a folder's boundary of the document's path.
        let tail_of = |path: &[u8]| {
            path.ends_with(&key)
                && (path.len() == key.len() || path[path.len() - key.len() - 1] == b'/')
        };
        match source {
            None => Err(Miss::NoSource),
            Some(None) => Err(Miss::Ambiguous),
            Some(Some(source)) if !tail_of(source) => Err(Miss::NoSource),
            Some(Some(source)) => {
                let source = crate::slash::path(source);
                (self.git.get(&source)).ok_or_else(|| Miss::Uncommitted(source.into_owned()))
            }
        }
    }
}
