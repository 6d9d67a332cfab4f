//! What changed since the previous run: URLs added, updated (their content fingerprint
//! changed) and removed, from the state the `"content"` source (or `changes = true`)
//! keeps. Written beside the state file for the step that tells search engines after the
//! deploy.

use std::io;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

mod url_list;

pub use url_list::UrlList;

/// The change list's file name, beside the state file.
pub const FILE_NAME: &str = ".sitemap-changes.json";

/// The format version written in every change list.
const VERSION: u32 = 1;

/// What changed since the previous run (made in the walk down the previous state,
/// [`crate::lastmod::state::merge`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    /// No previous state: nothing is listed as changed (unless `--all-changed`), so a
    /// first deploy does not flood the search engines.
    pub first_run: bool,
    /// URLs new in this run, sorted.
    pub added: Vec<String>,
    /// URLs whose content fingerprint changed, sorted.
    pub updated: Vec<String>,
    /// URLs of the previous run (under this run's base URL) that are gone, sorted.
    pub removed: Vec<String>,
}

impl Changes {
    /// `3 added, 2 updated, 1 removed`, or what a first run says.
    pub fn describe(&self) -> String {
        let counts = format!(
            "{} added, {} updated, {} removed",
            crate::text::thousands(self.added.len()),
            crate::text::thousands(self.updated.len()),
            crate::text::thousands(self.removed.len())
        );
        if self.first_run && self.added.is_empty() {
            "first run: no previous state, nothing listed as changed (--all-changed lists every URL)"
                .to_string()
        } else {
            counts
        }
    }
}

/// The change list's path: beside the state file.
pub fn path_beside(state_file: &Path) -> PathBuf {
    crate::fsutil::parent_dir(state_file).join(FILE_NAME)
}

/// The change list as read by `submit`: which site, when, what changed, and how far the
/// submission got. Its lists are [`UrlList`]s, read streaming, so a list holds about its
/// own size in memory (no parsed tree, no allocation per URL).
#[derive(Debug, Serialize, Deserialize)]
pub struct ChangeFile {
    /// The format version.
    pub sitemapgen_changes: u32,
    /// The base URL of the run.
    pub base_url: String,
    /// When the run wrote it.
    pub built_at: Timestamp,
    /// No previous state (see [`Changes::first_run`]).
    pub first_run: bool,
    /// URLs new in that run.
    pub added: UrlList,
    /// URLs whose content changed.
    pub updated: UrlList,
    /// URLs gone.
    pub removed: UrlList,
    /// How far `sitemapgen submit` got with this list, so a second run sends nothing
    /// and a run after a failure resumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<Submitted>,
}

/// The change list as `build` writes it; the same fields as [`ChangeFile`], in the same
/// order, with no submission yet.
#[derive(Serialize)]
struct Written<'a> {
    sitemapgen_changes: u32,
    base_url: &'a str,
    built_at: Timestamp,
    #[serde(flatten)]
    changes: &'a Changes,
}

/// A submission of the change list that succeeded, wholly or for its first batches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted {
    /// The endpoint the batches went to.
    pub endpoint: String,
    /// When the last batch was accepted.
    pub at: Timestamp,
    /// Batches accepted, in order.
    pub batches: usize,
}

impl ChangeFile {
    /// Every URL to tell about: added, updated and removed (a removed URL tells the
    /// engine to drop it), in that order.
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        self.added
            .iter()
            .chain(self.updated.iter())
            .chain(self.removed.iter())
    }

    /// How many URLs [`ChangeFile::urls`] gives.
    pub fn url_count(&self) -> usize {
        self.added.len() + self.updated.len() + self.removed.len()
    }

    /// The URLs of [`ChangeFile::urls`] from `from`, at most `count` of them.
    pub fn some_urls(&self, from: usize, count: usize) -> Vec<&str> {
        let mut urls = Vec::with_capacity(count.min(self.url_count().saturating_sub(from)));
        let mut skip = from;
        for list in [&self.added, &self.updated, &self.removed] {
            let first = skip.min(list.len());
            skip -= first;
            let left = count - urls.len();
            urls.extend((first..list.len()).take(left).map(|i| list.get(i)));
        }
        urls
    }
}

/// Reads a change list: at most 1 GiB, a regular file, parsed as it is read.
pub fn load(path: &Path) -> io::Result<ChangeFile> {
    let file = crate::fsutil::open_regular(path)?;
    let reader = io::BufReader::new(crate::fsutil::Capped::new(file, MAX_BYTES));
    serde_json::from_reader(reader).map_err(|e| match e.io_error_kind() {
        None => io::Error::new(io::ErrorKind::InvalidData, e),
        Some(_) => {
            let e = io::Error::from(e);
            match crate::fsutil::too_large(&e) {
                // Said as a whole file read at once says it.
                Some(big) => io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("is larger than {}", crate::text::bytes(big.limit)),
                ),
                None => e,
            }
        }
    })
}

/// The largest change list read.
const MAX_BYTES: u64 = 1 << 30;

/// Writes the change list atomically to `path`, under the lock of its directory.
pub fn save(path: &Path, base_url: &str, now: Timestamp, changes: &Changes) -> io::Result<()> {
    let file = Written {
        sitemapgen_changes: VERSION,
        base_url,
        built_at: now,
        changes,
    };
    write(path, &file)
}

/// Writes a change list as read (with its submission record), atomically.
pub fn save_file(path: &Path, file: &ChangeFile) -> io::Result<()> {
    write(path, file)
}

/// Streamed into the temporary file: a first run with `--all-changed` lists every URL.
fn write(path: &Path, file: &impl Serialize) -> io::Result<()> {
    crate::fsutil::write_path_with(path, |out| {
        serde_json::to_writer_pretty(&mut *out, file).map_err(io::Error::other)?;
        out.write_all(b"\n")
    })
}

#[cfg(test)]
mod tests;
