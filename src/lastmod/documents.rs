//! The `"source"` date of a document (`documents`: a PDF): the document is its own
//! source, a file of the project's repository that the generator copies as it is
//! (Hugo's `static/papers/a.pdf` for `public/papers/a.pdf`, Jekyll's `papers/a.pdf`),
//! dated by its last commit. It is found as the one committed file, outside the output,
//! whose path ends with the document's path in the site; none, or two, is a miss.

use std::collections::HashMap;
use std::path::Path;

use jiff::Timestamp;

use super::git::{GitDates, GitUnavailable, Repository};
use super::source::Miss;

/// The committed documents of the project, by the paths they could be published at.
#[derive(Debug, Default)]
pub struct DocumentDates {
    git: GitDates,
    /// Each path a committed document could be published at (each of its path's
    /// tails: `static/papers/a.pdf`, `papers/a.pdf`, `a.pdf`), to the document, or
    /// `None` when two documents could.
    by_tail: HashMap<Vec<u8>, Option<Vec<u8>>>,
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
        let mut by_tail: HashMap<Vec<u8>, Option<Vec<u8>>> = HashMap::new();
        for path in git.paths() {
            let tails = std::iter::once(0).chain(memchr::memchr_iter(b'/', path).map(|i| i + 1));
            for start in tails {
                by_tail
                    .entry(path[start..].to_vec())
                    .and_modify(|found| *found = None)
                    .or_insert_with(|| Some(path.to_vec()));
            }
        }
        Ok(DocumentDates { git, by_tail })
    }

    /// The date of the document at `rel` in the site: its source's last commit.
    pub fn get(&self, rel: &Path) -> Result<Timestamp, Miss> {
        match self.by_tail.get(&crate::slash::joined(rel)) {
            None => Err(Miss::NoSource),
            Some(None) => Err(Miss::Ambiguous),
            Some(Some(source)) => {
                let source = super::git::path_of(source);
                (self.git.get(&source)).ok_or_else(|| Miss::Uncommitted(source.into_owned()))
            }
        }
    }
}
