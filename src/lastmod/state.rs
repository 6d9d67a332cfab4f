//! The state file of the `"content"` source: per URL, the fingerprint of the page's
//! content and the `lastmod` it was given. Small, sorted JSON, so it can be committed or
//! cached between CI runs.
//!
//! Read and written streaming, and held compactly: every URL in one string, with a
//! 40-byte item per page (its place there, its fingerprint and date), sorted by URL
//! ([`State`]). The state of 200,000
//! pages is a 30 MB file; parsed into maps of owned strings it took some 40 MB, and the
//! save held two of those and the whole file's text besides.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::{join_time, split_time};
use crate::fsutil::IoError;
use crate::page::Fingerprint;

mod file;
pub mod merge;

/// The format version written in every state file. Version 1 held blake3 fingerprints
/// (development builds before the first release); version 2 holds XXH3's.
const VERSION: u32 = 2;

/// The largest state file read: about 150 bytes a page, so room for millions of pages,
/// yet a bound whatever the path names.
const MAX_BYTES: u64 = 1 << 30;

/// A state file that cannot be used; never silently discarded.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file exists but cannot be read.
    #[error("cannot read state file {0}")]
    Read(#[source] IoError),
    /// Not JSON, or not a sitemapgen state file.
    #[error(
        "state file {} {problem}; fix or delete it, or set state_file to another path",
        crate::text::path(path)
    )]
    Invalid {
        /// The state file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The new state cannot be written.
    #[error(
        "cannot write state file {0}; the sitemap itself was written, and the next run compares its pages with the state before this run"
    )]
    Write(#[source] IoError),
}

/// What the state file remembers of one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageState {
    /// The content fingerprint.
    pub fingerprint: Fingerprint,
    /// The `lastmod` given, in UTC; none when no source dated the page (a run that keeps
    /// state for its change list only, `changes = true`).
    pub lastmod: Option<Timestamp>,
}

/// One page: its URL's place in [`State::text`], its `lastmod` in parts
/// ([`split_time`]) and its fingerprint.
#[derive(Debug, Clone, Copy)]
struct Item {
    start: usize,
    url_len: u32,
    nanosecond: i32,
    second: i64,
    fingerprint: Fingerprint,
}

impl Item {
    fn url<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.start + self.url_len as usize]
    }

    fn page(&self) -> PageState {
        PageState {
            fingerprint: self.fingerprint,
            lastmod: join_time(self.second, self.nanosecond),
        }
    }
}

/// Pages' states by URL: the previous run's, as read from the state file, or this run's.
#[derive(Debug, Default)]
pub struct State {
    text: String,
    /// Sorted by URL, one per URL.
    items: Vec<Item>,
    /// What the state file was when it was read (`None`: there was none).
    file: Option<file::Identity>,
    /// Its records whose date is outside the years a sitemap can hold, left out.
    refused: Option<RefusedDates>,
}

/// The records of a state file left out for a date no sitemap can hold (year 0, a
/// negative year): read as absent, the pages are dated as new ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedDates {
    /// How many.
    pub count: usize,
    /// The first date, as written.
    pub first: String,
}

impl State {
    /// Loads a state file; a missing file is an empty state (the first run).
    pub fn load(path: &Path) -> Result<State, StateError> {
        file::load(path, None)
    }

    /// [`State::load`] of a state file kept in the site at `site`: opened along its real
    /// path through no link, so one linked out of the site (or swapped for such a link
    /// after the check) is an error, not read.
    pub fn load_in_site(path: &Path, site: &Path) -> Result<State, StateError> {
        file::load(path, Some(site))
    }

    /// Adds a page; pages added out of URL order are sorted by [`State::sorted`].
    pub fn push(&mut self, url: &str, page: PageState) {
        let Ok(url_len) = u32::try_from(url.len()) else {
            // Beyond any URL (bounded far below 4 GiB on the way).
            return;
        };
        let (second, nanosecond) = split_time(page.lastmod);
        self.items.push(Item {
            start: self.text.len(),
            url_len,
            nanosecond,
            second,
            fingerprint: page.fingerprint,
        });
        self.text.push_str(url);
    }

    /// Leaves out a record whose date, `value` as written, no sitemap can hold.
    fn refuse_date(&mut self, value: &str) {
        match &mut self.refused {
            Some(refused) => refused.count += 1,
            None => {
                self.refused = Some(RefusedDates {
                    count: 1,
                    first: value.to_string(),
                })
            }
        }
    }

    /// The records left out for their dates when the file was read, if any.
    pub fn refused_dates(&self) -> Option<&RefusedDates> {
        self.refused.as_ref()
    }

    /// Sorted by URL, each URL once (the last added of it counts, as in a JSON object).
    pub fn sorted(mut self) -> State {
        let text = &self.text;
        if !self.items.is_sorted_by(|a, b| a.url(text) < b.url(text)) {
            // Stable, reversed first: of one URL's items the last added comes first.
            self.items.reverse();
            self.items.sort_by(|a, b| compare(a.url(text), b.url(text)));
            self.items.dedup_by(|a, b| a.url(text) == b.url(text));
        }
        self
    }

    /// Whether a previous run left a state file (else this is the first run).
    pub fn found(&self) -> bool {
        self.file.is_some()
    }

    /// How many pages it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it holds no page.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Every URL, in order, with what was recorded of it.
    pub fn pages(&self) -> impl Iterator<Item = (&str, PageState)> {
        let text = &self.text;
        self.items.iter().map(|i| (i.url(text), i.page()))
    }

    /// What was recorded of a URL (of a state [`State::sorted`]).
    pub fn get(&self, url: &str) -> Option<PageState> {
        let text = &self.text;
        let i = self
            .items
            .binary_search_by(|item| compare(item.url(text), url))
            .ok()?;
        Some(self.items[i].page())
    }
}

/// Orders two URLs as `str`'s `Ord` does, eight bytes at a time: that calls `memcmp`,
/// which musl's static build runs a byte at a time, and the URLs compared (a sorted
/// state's, in a lookup or in [`merge`]'s walk) mostly share their first 20 bytes or more.
fn compare(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let word = |s: &[u8]| u64::from_be_bytes(s.try_into().unwrap_or_default());
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let (x, y) = (word(&a[i..i + 8]), word(&b[i..i + 8]));
        if x != y {
            return x.cmp(&y);
        }
        i += 8;
    }
    for (x, y) in a[i..n].iter().zip(&b[i..n]) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// A page's URL as the save takes it, in two parts (the run's base URL and the rest, or
/// nothing and the whole): no page's URL is copied to save it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Url<'a>(pub &'a str, pub &'a str);

impl Url<'_> {
    /// Orders it against the URL `other` as `str` does.
    fn cmp_str(&self, other: &str) -> std::cmp::Ordering {
        let Url(base, rest) = *self;
        match other.strip_prefix(base) {
            Some(tail) => rest.cmp(tail),
            None => base.cmp(other),
        }
    }

    /// Writes it into `out`, replacing what `out` held.
    fn write_into(&self, out: &mut String) {
        out.clear();
        out.push_str(self.0);
        out.push_str(self.1);
    }
}

/// Writes the state of this run atomically: a temporary file beside it, renamed into
/// place. The run owns the URLs under `owned` (its base URL): of those, pages that are gone
/// are dropped; URLs outside it are kept as the file holds them, so shards of one site
/// (each with its own base URL) share a state file without erasing each other. Under the
/// lock of its directory, the file is read again only if it changed since the run read
/// it (another shard saved since): `previous` is what it read. The run's `pages` come in
/// URL order.
pub fn save<'a>(
    path: &Path,
    owned: &str,
    pages: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
) -> Result<(), StateError> {
    file::save(path, owned, pages, previous)
}

/// A state written into its temporary file, not yet in place: [`prepare`] writes it while
/// the sitemaps are written (it needs none of their files, and took a core's time after
/// them), [`Prepared::commit`] puts it in place once they are, so a run whose sitemaps
/// failed leaves the previous state as it was (dropped, the temporary file is removed).
#[derive(Debug)]
pub struct Prepared(file::Prepared);

/// Writes what [`save`] would into a temporary file beside `path`, merged with `previous`
/// as the run read it, without taking the directory's lock (the sitemaps' writer may hold
/// it, when the state is kept beside them).
pub fn prepare<'a>(
    path: &Path,
    owned: &str,
    pages: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
) -> Result<Prepared, StateError> {
    file::prepare(path, owned, pages, previous).map(Prepared)
}

impl Prepared {
    /// Nothing to write: the run's pages are the state file's, as the run read it
    /// ([`merge::Merged::holds`]). Committed, the file is left as it is (its time too, for the
    /// caches and deploys that go by it), unless another run replaced it since.
    pub fn unchanged() -> Prepared {
        Prepared(file::unchanged())
    }

    /// Puts the state in place, under the lock of its directory. If another run saved the
    /// file since this one read it, the file is read again and the state saved as [`save`]
    /// saves it, from `pages` (the same as [`prepare`] was given).
    pub fn commit<'a>(
        self,
        path: &Path,
        owned: &str,
        pages: impl Iterator<Item = (Url<'a>, PageState)>,
        previous: &State,
    ) -> Result<(), StateError> {
        file::commit(self.0, path, owned, pages, previous)
    }
}

/// [`save`] of the pages of a [`State`], for tests.
#[cfg(test)]
pub(crate) fn save_pages(
    path: &Path,
    owned: &str,
    pages: &State,
    previous: &State,
) -> Result<(), StateError> {
    let pages = pages.pages().map(|(url, page)| (Url("", url), page));
    save(path, owned, pages, previous)
}

#[cfg(test)]
mod tests;
