//! `sitemapgen check`: validates existing sitemaps (`.xml`, `.xml.gz`, `.txt`), following
//! a sitemap index to its children on disk.
//!
//! Files are streamed: the reader holds one XML event at a time, and across a whole run
//! only a 64-bit hash and a line number per URL are kept (for duplicates), so checking
//! a 50 MiB sitemap needs a few megabytes, not fifty.

mod date;
mod loc;
mod xml;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use jiff::Timestamp;

pub use date::w3c_datetime;

use crate::robots::Robots;
use crate::sitemap::{PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES};
use crate::url::BaseUrl;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
        let file = crate::one_line(&self.file.display().to_string());
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

/// What a check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Every problem, in the order found.
    pub problems: Vec<Problem>,
    /// Files checked.
    pub files: usize,
    /// URLs (and index entries) checked.
    pub urls: usize,
}

impl Report {
    /// How many problems are errors.
    pub fn errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }

    /// How many problems are warnings.
    pub fn warnings(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count()
    }
}

/// What the checker compares against.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Warn about URLs on another host than this one's.
    pub base_url: Option<BaseUrl>,
    /// "Now", for lastmod in the future.
    pub now: Timestamp,
    /// The sitemap was written by this tool (`build --check`), so advice may name its
    /// settings.
    pub written_by_us: bool,
}

/// More URLs than this with one and the same `lastmod` is the mark of build-time dates.
const SAME_LASTMOD_LIMIT: usize = 100;

/// The names a site's top-level sitemap goes by, tried in a directory given to `check`.
pub const SITEMAP_NAMES: [&str; 6] = [
    "sitemap.xml",
    "sitemap_index.xml",
    "sitemap-index.xml",
    "sitemap.xml.gz",
    "sitemap_index.xml.gz",
    "sitemap.txt",
];

/// Checks a sitemap held in memory; `name` (its file name, for the format and in
/// messages) decides between XML and text. An index's children are not followed.
pub fn check_bytes(name: &str, bytes: &[u8], options: &CheckOptions) -> Report {
    let mut checker = Checker::new(options, false);
    let path = Path::new(name);
    checker.files.push(path.to_path_buf());
    checker.report.files = 1;
    if name.ends_with(".txt") {
        checker.check_text(path, &mut &bytes[..]);
    } else {
        checker.check_xml(path, &mut &bytes[..], false);
    }
    checker.report
}

/// Checks each path: a sitemap file, or a directory holding one (see
/// [`SITEMAP_NAMES`]). A file given twice, or both named and reached from an index, is
/// checked once. Duplicate URLs are looked for within each path given: its file and,
/// for an index, its children.
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> Report {
    let mut checker = Checker::new(options, true);
    for path in paths {
        let file = if path.is_dir() {
            match SITEMAP_NAMES
                .iter()
                .map(|n| path.join(n))
                .find(|p| p.is_file())
            {
                Some(file) => file,
                None => {
                    let message = format!(
                        "no sitemap here (looked for {}); give the sitemap file's path",
                        SITEMAP_NAMES.join(", ")
                    );
                    checker.problem(path, 0, Severity::Error, message);
                    continue;
                }
            }
        } else {
            path.clone()
        };
        checker.seen.clear();
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        // The site's robots.txt sits beside its top-level sitemap.
        checker.robots = Robots::load(&dir, "*").ok().flatten();
        checker.check_file(&file, false);
    }
    checker.report
}

struct Checker<'o> {
    options: &'o CheckOptions,
    /// Follow an index to its children on disk (off for in-memory input).
    follow: bool,
    report: Report,
    /// Every file read, by place; `seen` refers to them.
    files: Vec<PathBuf>,
    /// The real paths of the files read, so none is read twice.
    read: HashSet<PathBuf>,
    /// Hash of every loc seen in this group of files, with the file and line it was
    /// first seen at.
    seen: HashMap<u64, (usize, u64)>,
    robots: Option<Robots>,
}

/// Counts the bytes that pass, for the uncompressed size limit.
struct Counting<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// What a file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Urlset,
    Index,
    Other,
}

/// The byte-order mark, which UTF-8 does not need.
const BOM: &str = "\u{feff}";

impl<'o> Checker<'o> {
    fn new(options: &'o CheckOptions, follow: bool) -> Checker<'o> {
        Checker {
            options,
            follow,
            report: Report::default(),
            files: Vec::new(),
            read: HashSet::new(),
            seen: HashMap::new(),
            robots: None,
        }
    }

    fn problem(&mut self, file: &Path, line: u64, severity: Severity, message: impl Into<String>) {
        self.report.problems.push(Problem {
            file: file.to_path_buf(),
            line,
            severity,
            message: message.into(),
        });
    }

    fn check_file(&mut self, path: &Path, as_child: bool) -> Root {
        let opened = File::open(path).and_then(|f| {
            let real = std::fs::canonicalize(path)?;
            Ok((f, real))
        });
        let (file, real) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                self.problem(path, 0, Severity::Error, format!("cannot read ({e})"));
                return Root::Other;
            }
        };
        if !self.read.insert(real) {
            return Root::Other;
        }
        self.report.files += 1;
        self.files.push(path.to_path_buf());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let inner = match crate::fsutil::maybe_gzipped(file) {
            Ok(inner) => inner,
            Err(e) => {
                self.problem(path, 0, Severity::Error, format!("cannot read ({e})"));
                return Root::Other;
            }
        };
        let mut input = BufReader::with_capacity(64 * 1024, Counting { inner, bytes: 0 });
        let text = name.trim_end_matches(".gz").ends_with(".txt");
        let root = if text {
            self.check_text(path, &mut input);
            Root::Urlset
        } else {
            self.check_xml(path, &mut input, as_child)
        };
        let bytes = input.get_ref().bytes;
        if bytes > PROTOCOL_MAX_BYTES as u64 {
            let message = format!(
                "{bytes} bytes uncompressed, over the protocol's 52,428,800 (50 MiB); split it"
            );
            self.problem(path, 1, Severity::Error, message);
        }
        root
    }

    fn check_text(&mut self, path: &Path, input: &mut impl BufRead) {
        let mut line_no = 0;
        let mut urls = 0;
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    self.problem(
                        path,
                        line_no + 1,
                        Severity::Error,
                        format!("cannot read: {e}"),
                    );
                    return;
                }
            }
            line_no += 1;
            let Ok(mut text) = std::str::from_utf8(&line) else {
                let message = "not UTF-8; sitemaps must be UTF-8";
                self.problem(path, line_no, Severity::Error, message);
                continue;
            };
            if line_no == 1
                && let Some(rest) = text.strip_prefix(BOM)
            {
                let message = "starts with a byte-order mark (U+FEFF), which some readers take as part of the first URL; save the file as UTF-8 without it";
                self.problem(path, 1, Severity::Warning, message);
                text = rest;
            }
            let url = text.trim_end_matches(['\n', '\r']);
            if url.trim().is_empty() {
                continue;
            }
            urls += 1;
            if urls == PROTOCOL_MAX_ENTRIES + 1 {
                let message = "more than 50,000 URLs in one file; split it";
                self.problem(path, line_no, Severity::Error, message);
            }
            self.check_loc(path, line_no, url);
        }
    }

    /// Checks each child an index names, found on disk by its URL (see
    /// [`children_on_disk`]).
    fn follow_children(&mut self, index: &Path, children: Vec<(String, u64)>) {
        let dir = index.parent().map(Path::to_path_buf).unwrap_or_default();
        let located = children_on_disk(&dir, &children);
        for ((loc, line), path) in children.iter().zip(located) {
            match path {
                Some(child) => {
                    self.check_file(&child, true);
                }
                None => {
                    let message = format!(
                        "child sitemap {} is missing: not found under {} where the index's other children are",
                        shorten(loc),
                        crate::one_line(&dir.display().to_string())
                    );
                    self.problem(index, *line, Severity::Error, message);
                }
            }
        }
    }
}

/// How many candidate directories [`children_on_disk`] looks children up in.
const CHILD_DIR_CANDIDATES: usize = 16;

/// Where an index's children are on disk. The index's own URL is unknown, so the
/// directory it is published in is taken to be the URL directory under which the most
/// children are found beside it (the longest such, on a tie); each child is then looked
/// for there only, so `https://example.org/old/sitemap-1.xml` is not read as a
/// `sitemap-1.xml` that lies beside the index.
fn children_on_disk(dir: &Path, children: &[(String, u64)]) -> Vec<Option<PathBuf>> {
    let paths: Vec<Option<Vec<String>>> = children
        .iter()
        .map(|(loc, _)| {
            let url = url::Url::parse(loc).ok()?;
            let segments = url.path_segments()?;
            Some(
                segments
                    .map(|s| {
                        percent_encoding::percent_decode_str(s)
                            .decode_utf8_lossy()
                            .into_owned()
                    })
                    .collect(),
            )
        })
        .collect();
    // Candidate URL directories: the directory prefixes most children share. Only the
    // first few are looked up on disk, so a hostile index of children in as many
    // directories costs a bounded number of lookups per child.
    let mut shared: HashMap<&[String], usize> = HashMap::new();
    for p in paths.iter().flatten() {
        for i in 0..p.len() {
            *shared.entry(&p[..i]).or_default() += 1;
        }
    }
    let mut prefixes: Vec<(&[String], usize)> = shared.into_iter().collect();
    prefixes.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.len().cmp(&a.0.len()))
            .then(a.0.cmp(b.0))
    });
    let prefixes = prefixes
        .into_iter()
        .take(CHILD_DIR_CANDIDATES)
        .map(|(p, _)| p);
    let on_disk = |prefix: &[String], path: &[String]| {
        let rest = path.strip_prefix(prefix)?;
        let file = rest.iter().fold(dir.to_path_buf(), |p, s| p.join(s));
        (!rest.is_empty()
            && rest.iter().all(|s| !s.is_empty() && s != ".." && s != ".")
            && file.is_file())
        .then_some(file)
    };
    let best = prefixes
        .into_iter()
        .max_by_key(|prefix| {
            let found = paths
                .iter()
                .flatten()
                .filter(|p| on_disk(prefix, p).is_some())
                .count();
            (found, prefix.len())
        })
        .unwrap_or_default();
    paths
        .iter()
        .map(|p| p.as_deref().and_then(|p| on_disk(best, p)))
        .collect()
}

/// A value for a one-line message: control characters escaped, long values cut.
fn shorten(s: &str) -> String {
    let escaped = crate::one_line(s);
    if escaped.chars().count() > 120 {
        format!("{}...", escaped.chars().take(117).collect::<String>())
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests;
