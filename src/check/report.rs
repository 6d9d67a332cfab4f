//! What a check finds, and where it goes: a [`Reporter`] is handed each problem as it
//! is found, a [`Report`] keeps them.

use std::fmt;
use std::path::{Path, PathBuf};

/// The most problems of one file that are listed; past it they are counted, not kept, so
/// a hostile file of ten million faults costs no more memory than one of a thousand.
pub const PROBLEMS_PER_FILE: usize = 1_000;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Search engines cope, but something is likely wrong.
    Warning,
    /// The file breaks the protocol.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One problem, at a line of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (of the uncompressed content); 0 for the file as a whole.
    pub line: u64,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = crate::text::path(&self.file);
        // Line 0: the problem is the file as a whole (missing, unreadable).
        if self.line == 0 {
            write!(f, "{file}: {}: {}", self.severity, self.message)
        } else {
            write!(
                f,
                "{file}:{}: {}: {}",
                self.line, self.severity, self.message
            )
        }
    }
}

/// The problems of one file past [`PROBLEMS_PER_FILE`]: counted, not listed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Omitted {
    /// The file.
    pub file: PathBuf,
    /// How many of its problems were not listed.
    pub count: usize,
}

impl fmt::Display for Omitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let more = crate::text::count(self.count, "more problem", "more problems");
        let file = crate::text::path(&self.file);
        write!(f, "and {more} in {file}")
    }
}

/// A check's totals: exact, however many problems were listed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Files checked.
    pub files: usize,
    /// URLs (and index entries) checked.
    pub urls: usize,
    /// Problems that are errors.
    pub errors: usize,
    /// Problems that are warnings.
    pub warnings: usize,
}

/// Where a check's problems go as they are found, in order: kept in a [`Report`], or
/// printed at once.
pub trait Reporter {
    /// A problem; no more than [`PROBLEMS_PER_FILE`] of one file come here, and the one
    /// that stopped its reading (if any).
    fn problem(&mut self, problem: Problem);
    /// How many problems of a file were past [`PROBLEMS_PER_FILE`], when its check ends.
    fn omitted(&mut self, omitted: Omitted);
    /// A page's URL, at `line` of the sitemap `file`: for a site audit (`check --site`),
    /// which looks at each page listed.
    fn page_url(&mut self, _file: &std::path::Path, _line: u64, _loc: &str) {}
}

/// What a check found, kept.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// The totals.
    pub counts: Counts,
    /// The problems listed, in the order found.
    pub problems: Vec<Problem>,
    /// Each file with more problems than are listed.
    pub omitted: Vec<Omitted>,
}

impl Report {
    /// How many problems are errors.
    pub fn errors(&self) -> usize {
        self.counts.errors
    }

    /// How many problems are warnings.
    pub fn warnings(&self) -> usize {
        self.counts.warnings
    }
}

impl Reporter for Report {
    fn problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    fn omitted(&mut self, omitted: Omitted) {
        self.omitted.push(omitted);
    }
}

/// Each file's problems so far, for [`PROBLEMS_PER_FILE`].
#[derive(Debug, Default)]
pub(super) struct Tally {
    found: usize,
    omitted: usize,
}

impl Tally {
    /// Counts a problem of the file; whether it is to be listed. One that `must` be (the
    /// one that stopped the reading of a file) is listed past the limit too.
    pub(super) fn listed(&mut self, must: bool) -> bool {
        self.found += 1;
        let listed = must || self.found <= PROBLEMS_PER_FILE;
        if !listed {
            self.omitted += 1;
        }
        listed
    }

    /// The file's problems not listed, if any.
    pub(super) fn omitted(&self, file: &Path) -> Option<Omitted> {
        (self.omitted > 0).then(|| Omitted {
            file: file.to_path_buf(),
            count: self.omitted,
        })
    }
}
