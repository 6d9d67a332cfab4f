//! Walking the public directory for candidate pages.
//!
//! One walk ([`walk`](fn@walk)) on all cores, which hands each page on while its directory is
//! held open; its order varies, so callers sort what it finds. What is a page is decided
//! here (`file_verdict`); how directories are opened and read, per platform, in
//! [`crate::fsutil::dir`].

use std::ffi::OsStr;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::packed::Packed;

mod walk;

pub use walk::{At, PageSink, walk};

/// What decides which files are candidate pages.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// Page extensions, lower-case, without the dot.
    pub extensions: Vec<String>,
    /// Document extensions (`documents`), lower-case, without the dot.
    pub documents: Vec<String>,
    /// Error pages, skipped at any depth: file names, or `dir/file` (see
    /// [`DEFAULT_ERROR_PAGES`]).
    pub error_pages: Vec<String>,
    /// Follow symbolic links (never outside the public directory).
    pub follow_symlinks: bool,
    /// Keep the list of skipped files (for `--verbose`); counts are kept regardless.
    pub keep_skipped: bool,
    /// Keep the paths of the files not pages whose names this says yes to (the views'
    /// files, to remove those no page needs now; other sitemaps, to name them): the walk
    /// reads every directory anyway.
    pub keep: fn(&[u8]) -> bool,
    /// Walker threads.
    pub threads: usize,
}

/// The candidate pages: only their paths (the page workers read anything else, its
/// modification time from the file they open anyway), relative to the public directory,
/// all in one buffer ([`Packed`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pages(Packed);

impl Pages {
    /// Adds a page's path.
    pub fn push(&mut self, rel: &Path) {
        self.0.push(rel.as_os_str().as_encoded_bytes());
    }

    /// The path of page `i`, relative to the public directory.
    pub fn get(&self, i: usize) -> &Path {
        Path::new(os_str(self.0.get(i)))
    }

    /// How many pages.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Every page's path, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Path> {
        self.0.iter().map(|bytes| Path::new(os_str(bytes)))
    }

    /// Moves `other`'s pages after these, leaving it empty.
    pub fn append(&mut self, other: &mut Pages) {
        self.0.append(&mut other.0);
    }
}

/// A path's bytes as pushed by [`Pages::push`], as an `OsStr` again: on Unix any bytes
/// are one.
#[cfg(unix)]
fn os_str(bytes: &[u8]) -> &OsStr {
    std::os::unix::ffi::OsStrExt::from_bytes(bytes)
}

/// [`os_str`] elsewhere: the bytes are an `OsStr`'s encoding (WTF-8 on Windows), which
/// std turns back into one only unchecked (`OsStr::slice_encoded_bytes`, the checked way,
/// is unstable), and no crate does it without the same `unsafe` inside.
#[cfg(not(unix))]
#[allow(unsafe_code)]
fn os_str(bytes: &[u8]) -> &OsStr {
    // SAFETY: each span was pushed whole from an `OsStr`'s encoded bytes, and spans
    // are only ever appended whole.
    unsafe { OsStr::from_encoded_bytes_unchecked(bytes) }
}

/// Why the walk passed over a file or directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// A dot-file or dot-directory.
    Hidden,
    /// An error page (`error_pages`).
    ErrorPage,
    /// A search engine's site-verification file, not a page.
    Verification,
    /// A symbolic link, while `follow_symlinks` is off.
    Symlink,
    /// A symbolic link whose target lies outside the public directory.
    SymlinkOutside,
    /// Not one of the page extensions.
    Extension,
    /// An output a generator documents as no page (its SPA fallback, a partial).
    NotAPage(&'static str),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipReason::Hidden => "hidden (dot-file or dot-directory)",
            SkipReason::ErrorPage => "error page (error_pages)",
            SkipReason::Verification => "search-engine verification file",
            SkipReason::Symlink => "symbolic link (set follow_symlinks = true to follow)",
            SkipReason::SymlinkOutside => "symbolic link to outside the public directory",
            SkipReason::Extension => "not a page extension",
            SkipReason::NotAPage(what) => return write!(f, "not a page: {what}"),
        })
    }
}

/// A file or directory the walk passed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Path relative to the public directory.
    pub rel: PathBuf,
    /// Why.
    pub reason: SkipReason,
}

/// A problem met during the walk; the walk goes on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", crate::text::path(path))]
pub struct ScanWarning {
    /// The path concerned, as walked (public directory included).
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

/// What the walk passed over and met; the pages themselves go to its sinks.
#[derive(Debug, Default)]
pub struct Scan {
    /// Files passed over (only when `keep_skipped`), in no particular order.
    pub skipped: Vec<Skipped>,
    /// The files named as `keep` says, relative to the public directory, in no
    /// particular order.
    pub kept: Vec<PathBuf>,
    /// How many entries were passed over, whether kept or not.
    pub skipped_count: usize,
    /// Problems met on the way.
    pub warnings: Vec<ScanWarning>,
}

impl Scan {
    /// Counts a file or directory passed over, and lists it with `keep`.
    fn skip(&mut self, rel: PathBuf, reason: SkipReason, keep: bool) {
        self.skipped_count += 1;
        if keep {
            self.skipped.push(Skipped { rel, reason });
        }
    }

    /// Moves what a walker thread found into this.
    fn absorb(&mut self, mut local: Scan) {
        self.skipped.append(&mut local.skipped);
        self.kept.append(&mut local.kept);
        self.skipped_count += local.skipped_count;
        self.warnings.append(&mut local.warnings);
    }
}

/// Whether a regular file at `rel` below `root` is a candidate page, or why not.
fn file_verdict(
    root: &Path,
    rel: &Path,
    name: &[u8],
    options: &ScanOptions,
    open: impl FnOnce() -> std::io::Result<std::fs::File>,
) -> Result<(), SkipReason> {
    if page_extension(name, &options.extensions).is_none() {
        return match page_extension(name, &options.documents) {
            Some(_) => Ok(()),
            None => Err(SkipReason::Extension),
        };
    }
    if is_error_page(rel, name, &options.error_pages) && !is_pagination(&root.join(rel)) {
        return Err(SkipReason::ErrorPage);
    }
    if let Some(generator) = crate::generators::not_a_page(rel.as_os_str().as_encoded_bytes()) {
        return Err(SkipReason::NotAPage(generator));
    }
    if is_verification_file(name, open) {
        return Err(SkipReason::Verification);
    }
    Ok(())
}

/// The error pages skipped by default, at any depth: what static hosts serve for 404
/// and 5xx (`404.html`, nginx's `50x.html`), and the `404/index.html` of generators that
/// give every page a directory.
pub const DEFAULT_ERROR_PAGES: [&str; 6] = [
    "404.html",
    "404.htm",
    "404/index.html",
    "500.html",
    "50x.html",
    "500/index.html",
];

/// Characters that would make an `error_pages` entry a glob, which it is not (the
/// brace as an escape, so the source's braces stay balanced for line-counting tools).
const GLOB_META: [char; 5] = ['*', '?', '[', '\u{7b}', '\\'];

/// Whether `pattern` can be an `error_pages` entry: a file name, or `dir/file`.
pub fn is_error_page_pattern(pattern: &str) -> bool {
    let parts: Vec<&str> = pattern.split('/').collect();
    parts.len() <= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && *p != "." && *p != ".." && !p.contains(GLOB_META))
}

/// Whether `rel` (whose file name is `name`) ends in one of the error-page patterns
/// (compared exactly, as a static host serves them). Every page is asked: the name is
/// compared first, and the parent directory looked up only for a `dir/file` pattern
/// whose file is the name (splitting each pattern and walking the path's components
/// per page was 2 % of a run).
fn is_error_page(rel: &Path, name: &[u8], patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let Some(dir) = p.as_bytes().strip_suffix(name) else {
            return false;
        };
        match dir.split_last() {
            None => true,
            Some((&b'/', dir)) => parent_name(rel, name) == Some(dir),
            Some(_) => false,
        }
    })
}

/// The name of the directory holding `rel`, whose file name is `name`.
fn parent_name<'r>(rel: &'r Path, name: &[u8]) -> Option<&'r [u8]> {
    let sep = |b: &u8| std::path::is_separator(char::from(*b));
    let dir = rel.as_os_str().as_encoded_bytes().strip_suffix(name)?;
    let (last, dir) = dir.split_last()?;
    if !sep(last) {
        return None;
    }
    let start = dir.iter().rposition(sep).map_or(0, |i| i + 1);
    Some(&dir[start..])
}

/// How far apart the numbered directories of one run may be (a list paginated by 5).
const NEIGHBOURS: u32 = 10;

/// Whether `dir/index.html`, matched as an error page, is rather a page of a numbered
/// run: Hugo's `page/404/` of a long list has a `page/403/` beside it, an error page has
/// no numbered directory within [`NEIGHBOURS`] of it (a year's `2024/` is far from
/// `404/`). Only paths that matched an error page are looked at.
fn is_pagination(path: &Path) -> bool {
    let index = path
        .file_name()
        .is_some_and(|n| crate::urls::is_directory_index(n.as_encoded_bytes()));
    let (true, Some(dir)) = (index, path.parent()) else {
        return false;
    };
    let number = dir
        .file_name()
        .and_then(|n| n.to_str()?.parse::<u32>().ok());
    match (number, dir.parent()) {
        (Some(n), Some(parent)) => (n.saturating_sub(NEIGHBOURS)..=n + NEIGHBOURS)
            .filter(|&m| m != n)
            .any(|m| parent.join(m.to_string()).is_dir()),
        _ => false,
    }
}

/// Whether a file is a search engine's site-verification file: Yandex's
/// `yandex_<hex>.html` by its name, Google's `google<16 hex>.html` by its name and its
/// content (`google-site-verification: ...`), read only for such names (opened with
/// `open`, which must not wait on a FIFO).
fn is_verification_file(
    name: &[u8],
    open: impl FnOnce() -> std::io::Result<std::fs::File>,
) -> bool {
    let hex_name = |prefix: &[u8], len: Option<usize>| {
        name.strip_prefix(prefix)
            .and_then(|n| n.strip_suffix(b".html"))
            .is_some_and(|hex| {
                !hex.is_empty()
                    && len.is_none_or(|l| hex.len() == l)
                    && hex.iter().all(|b| b.is_ascii_hexdigit())
            })
    };
    if hex_name(b"yandex_", None) {
        return true;
    }
    if !hex_name(b"google", Some(16)) {
        return false;
    }
    let mut head = Vec::with_capacity(64);
    let read = open().and_then(|f| f.take(64).read_to_end(&mut head));
    read.is_ok()
        && head
            .trim_ascii_start()
            .starts_with(b"google-site-verification:")
}

/// Whether the file at `rel` has a page extension (one of `extensions`, lower-case): a
/// superset of the pages the walk lists there.
pub fn is_page_name(rel: &Path, extensions: &[String]) -> bool {
    rel.file_name()
        .is_some_and(|name| page_extension(name.as_encoded_bytes(), extensions).is_some())
}

/// The page extension `name` ends in (compared case-insensitively), if any.
fn page_extension<'e>(name: &[u8], extensions: &'e [String]) -> Option<&'e str> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    let ext = &name[dot + 1..];
    extensions
        .iter()
        .find(|e| e.as_bytes().eq_ignore_ascii_case(ext))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn pages_keep_each_path_whole_through_appends() {
        let paths = [
            "index.html",
            "",
            "a/b/index.html",
            "caf\u{e9}/x.htm",
            "z.html",
        ];
        let mut pages = Pages::default();
        let mut other = Pages::default();
        for (i, p) in paths.iter().enumerate() {
            if i < 2 {
                pages.push(Path::new(p))
            } else {
                other.push(Path::new(p))
            }
        }
        pages.append(&mut other);
        assert_eq!(other.len(), 0);
        assert_eq!(pages.len(), paths.len());
        let got: Vec<&Path> = pages.iter().collect();
        let want: Vec<&Path> = paths.iter().map(Path::new).collect();
        assert_eq!(got, want);
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let odd = Path::new(OsStr::from_bytes(b"bad\xff.html"));
            pages.push(odd);
            assert_eq!(pages.get(paths.len()), odd);
        }
    }

    #[test]
    fn extensions_match_case_insensitively() {
        let exts = vec!["html".to_string(), "htm".to_string()];
        let table: &[(&[u8], Option<&str>)] = &[
            (b"a.html", Some("html")),
            (b"a.HTML", Some("html")),
            (b"a.Htm", Some("htm")),
            (b"a.html.bak", None),
            (b"html", None),
            (b"a.xhtml", None),
        ];
        for (name, want) in table {
            assert_eq!(page_extension(name, &exts), *want, "{name:?}");
        }
    }

    #[test]
    fn error_pages_match_at_any_depth_and_exactly() {
        let list: Vec<String> = DEFAULT_ERROR_PAGES.map(String::from).to_vec();
        let table = [
            ("404.html", true),
            ("404.htm", true),
            ("docs/404.html", true),
            ("404/index.html", true),
            ("en/404/index.html", true),
            ("500/index.html", true),
            ("500.html", true),
            ("50x.html", true),
            ("a/50x.html", true),
            ("404-tips.html", false),
            ("x404.html", false),
            ("404/other.html", false),
            ("4040/index.html", false),
            ("index.html", false),
            ("404.HTML", false),
            ("a/x404/index.html", false),
            ("4.html", false),
            ("404/4.html", false),
            ("a404/index.html", false),
        ];
        for (rel, want) in table {
            let name = rel.rsplit('/').next().unwrap().as_bytes();
            assert_eq!(is_error_page(Path::new(rel), name, &list), want, "{rel}");
        }
        assert!(!is_error_page(Path::new("404.html"), b"404.html", &[]));
        for (pattern, ok) in [
            ("404.html", true),
            ("404/index.html", true),
            ("a/b/c.html", false),
            ("/404.html", false),
            ("*.html", false),
            ("../404.html", false),
            ("", false),
        ] {
            assert_eq!(is_error_page_pattern(pattern), ok, "{pattern}");
        }
    }

    #[test]
    fn a_numbered_page_in_a_run_is_not_an_error_page() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["list/page/403", "list/page/404", "en/404", "500", "2024"] {
            fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        let table = [
            ("list/page/404/index.html", true),
            ("en/404/index.html", false),
            ("500/index.html", false),
            ("404.html", false),
        ];
        for (rel, want) in table {
            assert_eq!(is_pagination(&dir.path().join(rel)), want, "{rel}");
        }
    }

    #[test]
    fn verification_files_are_told_by_name_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let table: &[(&str, &str, bool)] = &[
            (
                "google1234abcd5678ef90.html",
                "google-site-verification: google1234abcd5678ef90.html",
                true,
            ),
            (
                "google1234abcd5678ef90.html",
                "\n  google-site-verification: google1234abcd5678ef90.html",
                true,
            ),
            // The name alone is not enough: a real page may be called that.
            (
                "google1234abcd5678ef90.html",
                "<html><body>hi</body></html>",
                false,
            ),
            ("google1234.html", "google-site-verification: x", false),
            (
                "googlexyzxyzxyzxyzxyzx.html",
                "google-site-verification: x",
                false,
            ),
            (
                "yandex_0a1b2c3d4e5f.html",
                "<html><body>Verification: 0a1b</body></html>",
                true,
            ),
            ("yandex_.html", "", false),
            ("yandex-guide.html", "", false),
        ];
        for (name, content, want) in table {
            let path = dir.path().join(name);
            fs::write(&path, content).unwrap();
            assert_eq!(
                is_verification_file(name.as_bytes(), || std::fs::File::open(&path)),
                *want,
                "{name} {content:?}"
            );
        }
    }
}
