//! `sitemapgen check`: validates existing sitemaps (`.xml`, `.xml.gz`, `.txt`), following
//! a sitemap index to its children on disk.
//!
//! Files are streamed: the reader holds one XML event at a time, and across a whole run
//! only a 64-bit hash and a line number per URL are kept (for duplicates), so checking
//! a 50 MiB sitemap needs a few megabytes, not fifty. What a hostile file can make it
//! hold is bounded too: no file is read past the protocol's 50 MiB (uncompressed), no
//! value past `KEPT_BYTES`, and no more than [`PROBLEMS_PER_FILE`] problems of a file
//! are listed (all are counted).

mod children;
mod feed;
pub mod live;
mod loc;
mod report;
mod xml;

use std::collections::HashMap;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

use jiff::Timestamp;

pub use report::{Counts, Omitted, PROBLEMS_PER_FILE, Problem, Report, Reporter, Severity};

use loc::Role;
use report::Tally;

use crate::robots::Robots;
use crate::sitemap::{PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES};
use crate::text::{BOM, KEPT_BYTES};
use crate::urls::BaseUrl;

/// What the checker compares against.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CheckOptions {
    /// Warn about URLs on another host than this one's.
    pub base_url: Option<BaseUrl>,
    /// "Now", for lastmod in the future.
    pub now: Timestamp,
    /// The sitemap was written by this tool (`build --check`), so advice may name its
    /// settings.
    pub written_by_us: bool,
}

impl CheckOptions {
    /// Options for checking a sitemap of the site at `base_url` (when known), now.
    pub fn new(base_url: Option<BaseUrl>) -> CheckOptions {
        CheckOptions {
            base_url,
            now: Timestamp::now(),
            written_by_us: false,
        }
    }
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
    let mut report = Report::default();
    let mut checker = Checker::new(options, false, &mut report);
    let path = Path::new(name);
    checker.files.push(path.to_path_buf());
    checker.counts.files = 1;
    if name.ends_with(".txt") {
        checker.check_text(path, &mut &bytes[..]);
    } else {
        checker.check_xml(path, &mut &bytes[..], false);
    }
    checker.finish_file(path);
    report.counts = checker.counts;
    report
}

/// [`check_to`], the problems kept in a [`Report`].
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> Report {
    let mut report = Report::default();
    report.counts = check_to(paths, options, &mut report);
    report
}

/// Checks each path, a sitemap file or a directory holding one (see [`SITEMAP_NAMES`]),
/// giving each problem to `reporter` as it is found; returns the totals. A file given
/// twice, or both named and reached from an index, is checked once. Duplicate URLs are
/// looked for within each path given: its file and, for an index, its children.
pub fn check_to(paths: &[PathBuf], options: &CheckOptions, reporter: &mut dyn Reporter) -> Counts {
    let mut checker = Checker::new(options, true, reporter);
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
        if let Some(view) = view_name(&file) {
            let message = format!(
                "this is the {view} view sitemapgen writes beside a sitemap, not a sitemap; check the sitemap (sitemap.xml) instead"
            );
            checker.problem(&file, 0, Severity::Error, message);
            continue;
        }
        checker.seen.clear();
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        // The site's robots.txt sits beside its top-level sitemap.
        checker.robots = Robots::load(&dir, "*").ok().flatten();
        checker.check_file(&file, false);
    }
    checker.counts
}

/// The view file `path` names, if it is one of those [`crate::views`] writes.
fn view_name(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?;
    (crate::views::ALL.iter())
        .find(|v| v.place == crate::views::Place::Top && name == v.name)
        .map(|v| v.name)
}

struct Checker<'a> {
    options: &'a CheckOptions,
    /// Follow an index to its children on disk (off for in-memory input).
    follow: bool,
    reporter: &'a mut dyn Reporter,
    counts: Counts,
    /// Each file's problems so far, to list no more than [`PROBLEMS_PER_FILE`].
    tallies: HashMap<PathBuf, Tally>,
    /// Every file read, by place; `seen` refers to them.
    files: Vec<PathBuf>,
    /// The real paths of the files read, so none is read twice, with what each turned
    /// out to be (`None` while it is being read), so an index listing an index is
    /// caught however often that index is reached.
    read: HashMap<PathBuf, Option<Root>>,
    /// Hash of every loc seen in this group of files, with the file and line it was
    /// first seen at.
    seen: HashMap<u64, (usize, u64)>,
    robots: Option<Robots>,
}

/// What a file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Urlset,
    Index,
    /// A feed listed in an index, checked by [`feed`].
    Feed(feed::Feed),
    Other,
}

impl<'a> Checker<'a> {
    fn new(options: &'a CheckOptions, follow: bool, reporter: &'a mut dyn Reporter) -> Checker<'a> {
        Checker {
            options,
            follow,
            reporter,
            counts: Counts::default(),
            tallies: HashMap::new(),
            files: Vec::new(),
            read: HashMap::new(),
            seen: HashMap::new(),
            robots: None,
        }
    }

    /// Counts a problem, and gives it to the reporter unless its file has had its fill.
    fn problem(&mut self, file: &Path, line: u64, severity: Severity, message: impl Into<String>) {
        self.found(file, line, severity, message.into(), false);
    }

    /// Counts a problem, and gives it to the reporter if it `must` be, or unless its file
    /// has had its fill (then nothing of it is copied: a file may have millions).
    fn found(&mut self, file: &Path, line: u64, severity: Severity, message: String, must: bool) {
        match severity {
            Severity::Error => self.counts.errors += 1,
            Severity::Warning => self.counts.warnings += 1,
        }
        let listed = match self.tallies.get_mut(file) {
            Some(tally) => tally.listed(must),
            None => {
                let mut tally = Tally::default();
                let listed = tally.listed(must);
                self.tallies.insert(file.to_path_buf(), tally);
                listed
            }
        };
        if listed {
            self.reporter.problem(Problem {
                file: file.to_path_buf(),
                line,
                severity,
                message,
            });
        }
    }

    /// Says how many of a file's problems were not listed, once it is checked.
    fn finish_file(&mut self, path: &Path) {
        if let Some(omitted) = self.tallies.get(path).and_then(|t| t.omitted(path)) {
            self.reporter.omitted(omitted);
        }
    }

    /// The error that stops the reading of a file at `line`: listed however many
    /// problems came before, since it says why no more follow.
    fn stopped(&mut self, path: &Path, line: u64, message: String) {
        self.found(path, line, Severity::Error, message, true);
    }

    /// The problem of a file that cannot be read to its end; `line` is where reading
    /// stopped.
    fn read_error(&mut self, path: &Path, line: u64, e: &io::Error) {
        let message = match crate::fsutil::too_large(e) {
            Some(too_large) => {
                format!("{too_large}, over the protocol's limit; split it (the rest is not read)")
            }
            None => format!("cannot read: {}", crate::text::one_line(&e.to_string())),
        };
        self.stopped(path, line, message);
    }

    fn check_file(&mut self, path: &Path, as_child: bool) -> Root {
        // Regular files only (a FIFO would hang the run), read no further than the
        // protocol's size limit (a gzip bomb inflates past it).
        let opened = std::fs::canonicalize(path).and_then(|real| {
            let input = crate::fsutil::open_content(path, PROTOCOL_MAX_BYTES as u64)?;
            Ok((input, real))
        });
        let (mut input, real) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                self.problem(path, 0, Severity::Error, format!("cannot read ({e})"));
                return Root::Other;
            }
        };
        if self.read.contains_key(&real) {
            return Root::Other;
        }
        self.read.insert(real.clone(), None);
        self.counts.files += 1;
        self.files.push(path.to_path_buf());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let text = name.trim_end_matches(".gz").ends_with(".txt");
        let root = if text {
            self.check_text(path, &mut input);
            Root::Urlset
        } else {
            self.check_xml(path, &mut input, as_child)
        };
        if let Root::Feed(feed) = root {
            match crate::fsutil::open_content(path, PROTOCOL_MAX_BYTES as u64) {
                Ok(mut again) => self.check_feed(path, &mut again, feed),
                Err(e) => self.problem(path, 0, Severity::Error, format!("cannot read ({e})")),
            }
        }
        self.read.insert(real, Some(root));
        self.finish_file(path);
        root
    }

    fn check_text(&mut self, path: &Path, input: &mut impl BufRead) {
        let mut line_no = 0;
        let mut urls = 0;
        let mut line = Vec::new();
        loop {
            line.clear();
            let len = match read_line(input, &mut line) {
                Ok(Some(len)) => len,
                Ok(None) => break,
                Err(e) => return self.read_error(path, line_no + 1, &e),
            };
            line_no += 1;
            let cut = len > line.len();
            let mut text = match std::str::from_utf8(&line) {
                Ok(text) => text,
                // A cut line may end inside a character.
                Err(e) if cut && e.error_len().is_none() => {
                    std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or_default()
                }
                Err(_) => {
                    let message = "not UTF-8; sitemaps must be UTF-8";
                    self.problem(path, line_no, Severity::Error, message);
                    continue;
                }
            };
            if line_no == 1
                && let Some(rest) = text.strip_prefix(BOM)
            {
                let message = "starts with a byte-order mark (U+FEFF), which some readers take as part of the first URL; save the file as UTF-8 without it";
                self.problem(path, 1, Severity::Warning, message);
                text = rest;
            }
            let url = text.trim_end_matches('\r');
            if url.trim().is_empty() {
                continue;
            }
            urls += 1;
            if urls == PROTOCOL_MAX_ENTRIES + 1 {
                let message = "more than 50,000 URLs in one file; split it";
                self.problem(path, line_no, Severity::Error, message);
            }
            if cut {
                self.long_loc(path, line_no, len, Role::Page);
            } else {
                self.check_loc(path, line_no, url, Role::Page);
            }
        }
    }
}

/// Reads a line into `line`, keeping no more than [`KEPT_BYTES`] of it; returns its
/// whole length (its `\n` or `\r\n` not counted; the `\n` not kept), or `None` at the
/// end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<usize>> {
    let mut len = None;
    let mut last = None;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(len);
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let piece = &buf[..newline.unwrap_or(buf.len())];
        let room = KEPT_BYTES.saturating_sub(line.len()).min(piece.len());
        line.extend_from_slice(&piece[..room]);
        let n = piece.len();
        last = piece.last().copied().or(last);
        len = Some(len.unwrap_or(0) + n);
        input.consume(n + usize::from(newline.is_some()));
        if newline.is_some() {
            let cr = usize::from(last == Some(b'\r'));
            return Ok(len.map(|len| len - cr));
        }
    }
}

use crate::text::shorten;

#[cfg(test)]
mod tests;
