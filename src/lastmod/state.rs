//! The state file of the `"content"` source: per URL, the fingerprint of the page's
//! content and the `lastmod` it was given. Small, sorted JSON, so it can be committed or
//! cached between CI runs.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// The format version written in every state file.
const VERSION: u32 = 1;

/// A state file that cannot be used; never silently discarded.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file exists but cannot be read.
    #[error("cannot read state file {}: {source}", path.display())]
    Read {
        /// The state file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// Not JSON, or not a sitemapgen state file.
    #[error("state file {} {problem}; fix or delete it, or set state_file to another path", path.display())]
    Invalid {
        /// The state file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The new state cannot be written.
    #[error("cannot write state file {}: {source}; the sitemap itself was written, and the next run compares its pages with the state before this run", path.display())]
    Write {
        /// The state file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

/// What the state file remembers of one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageState {
    /// The content fingerprint.
    pub fingerprint: String,
    /// The `lastmod` given, in UTC; none when no source dated the page (a run that keeps
    /// state for its change list only, `changes = true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lastmod: Option<Timestamp>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    // The format version: files of another are refused, never misread.
    #[serde(rename = "sitemapgen_state")]
    version: u32,
    pages: BTreeMap<String, PageState>,
}

#[derive(Serialize)]
struct StateFileRef<'a> {
    sitemapgen_state: u32,
    pages: BTreeMap<&'a str, &'a PageState>,
}

/// The largest state file read: about 150 bytes a page, so room for millions of pages,
/// yet a bound whatever the path names.
const MAX_BYTES: u64 = 1 << 30;

/// The state of the previous run, by URL.
#[derive(Debug, Default)]
pub struct State {
    pages: HashMap<String, PageState>,
    /// A state file was there: this is not the first run.
    found: bool,
}

impl State {
    /// Loads a state file; a missing file is an empty state (the first run).
    pub fn load(path: &Path) -> Result<State, StateError> {
        let text = match crate::fsutil::read_regular_string(path, MAX_BYTES) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(State::default()),
            Err(source) => {
                return Err(StateError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        let invalid = |problem: String| StateError::Invalid {
            path: path.to_path_buf(),
            problem,
        };
        // A file of our version parses straight into its shape; only one that does not is
        // parsed a second time, loosely, to say what it is (the state of a million pages
        // is 150 MB, so the common case reads it once).
        let file: StateFile = match serde_json::from_str::<StateFile>(&text) {
            Ok(file) if file.version == VERSION => file,
            _ => return Err(invalid(what_is_wrong(&text))),
        };
        Ok(State {
            pages: file.pages.into_iter().collect(),
            found: true,
        })
    }

    /// Whether a previous run left a state file (else this is the first run).
    pub fn found(&self) -> bool {
        self.found
    }

    /// Every URL the previous run (or another shard) recorded, with what it recorded.
    pub fn pages(&self) -> impl Iterator<Item = (&str, &PageState)> {
        self.pages.iter().map(|(url, page)| (url.as_str(), page))
    }

    /// What the previous run recorded for a URL.
    pub fn get(&self, url: &str) -> Option<&PageState> {
        self.pages.get(url)
    }
}

/// Why `text` is not a state file this version reads: not JSON, another format version,
/// not a state file, or damaged.
fn what_is_wrong(text: &str) -> String {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return format!("is not valid JSON ({e})"),
    };
    match value
        .get("sitemapgen_state")
        .and_then(serde_json::Value::as_u64)
    {
        Some(v) if v != u64::from(VERSION) => {
            format!("has format version {v}, this sitemapgen reads {VERSION}")
        }
        Some(_) => match serde_json::from_value::<StateFile>(value) {
            Err(e) => format!("is damaged ({e})"),
            Ok(_) => "is damaged".to_string(),
        },
        None => "is not a sitemapgen state file (no \"sitemapgen_state\" key)".to_string(),
    }
}

/// Writes the state of this run atomically: a temporary file beside it, renamed into
/// place. The run owns the URLs under `owned` (its base URL): of those, pages that are gone
/// are dropped; URLs outside it are kept as the file holds them, so shards of one site
/// (each with its own base URL) share a state file without erasing each other. The file
/// is re-read under the lock of its directory, as another shard may have saved since.
pub fn save(
    path: &Path,
    owned: &str,
    pages: &BTreeMap<String, PageState>,
) -> Result<(), StateError> {
    let write_err = |source| StateError::Write {
        path: path.to_path_buf(),
        source,
    };
    let held = crate::fsutil::lock_dir(crate::fsutil::parent_dir(path)).map_err(write_err)?;
    let others = State::load(path)?;
    let mut merged: BTreeMap<&str, &PageState> = others
        .pages
        .iter()
        .filter(|(url, _)| !url.starts_with(owned))
        .map(|(url, page)| (url.as_str(), page))
        .collect();
    merged.extend(pages.iter().map(|(url, page)| (url.as_str(), page)));
    let file = StateFileRef {
        sitemapgen_state: VERSION,
        pages: merged,
    };
    let mut json = serde_json::to_vec_pretty(&file).map_err(|e| write_err(io::Error::other(e)))?;
    json.push(b'\n');
    let how = crate::fsutil::Atomic {
        prefix: ".sitemap-state.",
        clobber: true,
    };
    crate::fsutil::write_atomic(path, &json, how, &held).map_err(write_err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_sorted_and_refuses_foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        assert!(State::load(&path).unwrap().get("x").is_none());
        let ts = Timestamp::from_second(1_700_000_000).unwrap();
        let pages: BTreeMap<String, PageState> = ["https://e.org/b", "https://e.org/a"]
            .iter()
            .map(|u| {
                (
                    u.to_string(),
                    PageState {
                        fingerprint: "ab".into(),
                        lastmod: Some(ts),
                    },
                )
            })
            .collect();
        save(&path, "https://e.org/", &pages).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.find("e.org/a").unwrap() < text.find("e.org/b").unwrap(),
            "{text}"
        );
        assert_eq!(
            State::load(&path)
                .unwrap()
                .get("https://e.org/a")
                .unwrap()
                .lastmod,
            Some(ts)
        );
        // A shard under another base URL keeps these pages; a later run of the first
        // drops its own page that is gone, not the shard's.
        let shard: BTreeMap<String, PageState> = [(
            "https://e.org/docs/x".to_string(),
            pages["https://e.org/a"].clone(),
        )]
        .into();
        save(&path, "https://e.org/docs/", &shard).unwrap();
        let first: BTreeMap<String, PageState> = [(
            "https://e.org/b".to_string(),
            pages["https://e.org/b"].clone(),
        )]
        .into();
        save(&path, "https://e.org/blog/", &first).unwrap();
        let state = State::load(&path).unwrap();
        for (url, kept) in [
            ("https://e.org/a", true),
            ("https://e.org/b", true),
            ("https://e.org/docs/x", true),
        ] {
            assert_eq!(state.get(url).is_some(), kept, "{url}");
        }
        save(&path, "https://e.org/", &first).unwrap();
        let state = State::load(&path).unwrap();
        assert!(state.get("https://e.org/a").is_none());
        assert!(state.get("https://e.org/docs/x").is_none());
        assert!(state.get("https://e.org/b").is_some());

        let table = [
            ("{not json", "is not valid JSON"),
            (r#"{"name": "some-package"}"#, "not a sitemapgen state file"),
            (
                r#"{"sitemapgen_state": 9, "pages": {}}"#,
                "format version 9",
            ),
            (
                r#"{"sitemapgen_state": 1, "pages": {"u": {"fingerprint": 3}}}"#,
                "is damaged",
            ),
        ];
        for (text, want) in table {
            std::fs::write(&path, text).unwrap();
            let err = State::load(&path).unwrap_err().to_string();
            assert!(
                err.contains(want) && err.contains("state.json"),
                "{text}: {err}"
            );
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
