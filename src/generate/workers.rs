//! The walk's threads as the pool of page workers: each page is processed as the walk
//! finds it, while its directory is held open, and handed in [`CHUNK`] at a time.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use super::page::{Out, Outcome, Scratch, Shared, process_page};
use super::{Lookups, Progress};
use crate::canonical;
use crate::config::Config;
use crate::error::{LeftOut, LeftOutCounts, Warning};
use crate::lastmod::source::Miss;
use crate::lastmod::source::matching::Unrouted;
use crate::lastmod::{DatedCounts, LastmodSource, Pending};
use crate::page::Fingerprint;
use crate::scan::{At, PageSink, Pages, Scan, ScanOptions};
use crate::sections::Sections;
use crate::sitemap::Item;
use crate::views::AboutParts;

/// Pages a worker processes before it hands them in.
const CHUNK: usize = 256;

/// The most worker threads, and so the most page files open at once: each worker reads
/// one file at a time.
pub const MAX_OPEN_FILES: usize = 64;

/// A listed page, as a worker leaves it.
pub(super) struct Listed {
    /// Its place in the walk's list, which keeps its path.
    pub page: u32,
    /// The place of its section (see [`Sections::of`]).
    pub section: u16,
    /// Its date waits for the previous state (one byte, in what was padding).
    pub pending: Option<Pending>,
    /// Its entry, its URL (after the base) in [`Processed::text`].
    pub item: Item,
}

/// How outcomes are filed: with the details of what was left out or not, and into
/// which section.
struct Filing<'a> {
    details: bool,
    sections: &'a Sections,
    /// Scratch space for matching sections.
    matched: Vec<usize>,
}

impl<'a> Filing<'a> {
    fn new(config: &'a Config, details: bool) -> Filing<'a> {
        Filing {
            details,
            sections: &config.sections,
            matched: Vec::new(),
        }
    }
}

/// What the workers made of the pages: filled batch by batch, under a lock.
#[derive(Default)]
pub(super) struct Processed {
    /// Every page the walk found; the results below refer to them by place.
    pub pages: Pages,
    pub listed: Vec<Listed>,
    /// The listed pages' URLs after the base, one after the other.
    pub text: String,
    pub left_out: Vec<(PathBuf, LeftOut)>,
    pub counts: LeftOutCounts,
    /// How the listed pages were dated (but the pending ones).
    pub dated: DatedCounts,
    /// Listed pages `"source"` did not date, why, and what did (only with details; but
    /// the pending ones).
    pub undated: Vec<(PathBuf, Miss, Option<LastmodSource>)>,
    /// Listed pages and the source that dated them (only with details; but the pending
    /// ones).
    pub dated_by: Vec<(PathBuf, Option<LastmodSource>)>,
    /// What the pending pages report once their dates are settled.
    pub waiting: Waiting,
    /// Listed pages no route reached, whose source may be found by their text, and what
    /// dated them for now, with their text (`by_text.rs`).
    pub unrouted: Vec<(u32, Option<LastmodSource>, Unrouted)>,
    /// Pages left out for a canonical URL, settled once every page is known.
    pub canonical: Vec<canonical::Pending>,
    /// Content fingerprints, at each page's place in the walk's list (only when state
    /// is kept, so other runs carry no room for them): found at once for each page in
    /// URL order, where a binary search per page waited on memory.
    pub fingerprints: Vec<Option<Fingerprint>>,
    /// What the listed pages say of themselves, by place in the walk's list (only when
    /// views are written).
    pub about: AboutParts,
    pub warnings: Vec<Warning>,
}

impl Processed {
    /// Moves a worker's batch in, leaving the batch's buffers empty for reuse. The
    /// batch's pages go after these, so its places move by as many.
    fn take_batch(&mut self, batch: &mut Processed) {
        let offset = self.text.len();
        let first = self.pages.len() as u32;
        self.pages.append(&mut batch.pages);
        self.text.push_str(&batch.text);
        batch.text.clear();
        self.listed.extend(batch.listed.drain(..).map(|mut l| {
            l.item.shift(offset);
            l.page += first;
            l
        }));
        self.left_out.append(&mut batch.left_out);
        self.canonical
            .extend(batch.canonical.drain(..).map(|mut p| {
                p.page += first;
                p
            }));
        if !batch.fingerprints.is_empty() {
            self.fingerprints.resize(first as usize, None);
            self.fingerprints.append(&mut batch.fingerprints);
        }
        self.about.append(&mut batch.about, first);
        self.warnings.append(&mut batch.warnings);
        self.counts.merge(std::mem::take(&mut batch.counts));
        self.dated.merge(std::mem::take(&mut batch.dated));
        self.undated.append(&mut batch.undated);
        self.dated_by.append(&mut batch.dated_by);
        self.waiting.take_batch(&mut batch.waiting, first);
        let unrouted = (batch.unrouted.drain(..)).map(|(p, from, u)| (p + first, from, u));
        self.unrouted.extend(unrouted);
    }

    /// Files the fingerprint of page `page` of the walk's list.
    fn set_fingerprint(&mut self, page: u32, fingerprint: Fingerprint) {
        let page = page as usize;
        if self.fingerprints.len() <= page {
            self.fingerprints.resize(page + 1, None);
        }
        self.fingerprints[page] = Some(fingerprint);
    }

    /// Files one page's outcome (page `i` of the walk's list).
    fn add(&mut self, i: usize, rel: &Path, outcome: Outcome, filing: &mut Filing) {
        match outcome {
            Outcome::Listed(item, dated) => {
                let page = i as u32;
                let missed = dated.missed.filter(|_| filing.details);
                if dated.pending.is_some() {
                    self.waiting.add(page, dated.unparseable, missed);
                } else {
                    self.dated.add(dated.from);
                    if filing.details {
                        self.dated_by.push((rel.to_path_buf(), dated.from));
                    }
                    if let Some(miss) = missed {
                        self.undated.push((rel.to_path_buf(), miss, dated.from));
                    }
                }
                if let Some(fp) = dated.fingerprint {
                    self.set_fingerprint(page, fp);
                }
                if let Some(unrouted) = dated.by_text {
                    self.unrouted.push((page, dated.from, *unrouted));
                }
                self.listed.push(Listed {
                    page,
                    section: filing.sections.of(rel, &mut filing.matched),
                    pending: dated.pending,
                    item,
                });
            }
            Outcome::LeftOut(why) => {
                self.counts.add(&why);
                if filing.details {
                    self.left_out.push((rel.to_path_buf(), why));
                }
            }
            Outcome::Canonical(judged) => {
                self.canonical
                    .extend(canonical::Pending::new(i as u32, judged));
            }
            Outcome::Dropped => {}
        }
    }
}

/// What the pending pages report once settled, by place in the walk's list: rare (a
/// meta date that cannot be parsed, after `"content"`; why `"source"` missed, with
/// details), so kept apart from the pages.
#[derive(Debug, Default)]
pub(super) struct Waiting {
    unparseable: Vec<(u32, Option<String>)>,
    missed: Vec<(u32, Option<Miss>)>,
}

impl Waiting {
    /// Keeps what page `page` reports once settled.
    pub fn add(&mut self, page: u32, unparseable: Option<String>, missed: Option<Miss>) {
        if unparseable.is_some() {
            self.unparseable.push((page, unparseable));
        }
        if missed.is_some() {
            self.missed.push((page, missed));
        }
    }

    /// Moves a worker's batch in, its places moved by `first`.
    pub fn take_batch(&mut self, batch: &mut Waiting, first: u32) {
        fn moved<T>(to: &mut Vec<(u32, T)>, from: &mut Vec<(u32, T)>, first: u32) {
            to.extend(from.drain(..).map(|(page, x)| (page + first, x)));
        }
        moved(&mut self.unparseable, &mut batch.unparseable, first);
        moved(&mut self.missed, &mut batch.missed, first);
    }

    /// Sorted by place, for [`Self::unparseable`] and [`Self::missed`].
    pub fn sort(&mut self) {
        self.unparseable.sort_unstable_by_key(|(page, _)| *page);
        self.missed.sort_unstable_by_key(|(page, _)| *page);
    }

    /// The unparseable date page `page` reports, taken out (once sorted).
    pub fn unparseable(&mut self, page: u32) -> Option<String> {
        take(&mut self.unparseable, page)
    }

    /// Why `"source"` missed page `page`, taken out (once sorted).
    pub fn missed(&mut self, page: u32) -> Option<Miss> {
        take(&mut self.missed, page)
    }
}

/// What page `page` reports in `list` (sorted by place), taken out.
fn take<T>(list: &mut [(u32, Option<T>)], page: u32) -> Option<T> {
    let i = list.binary_search_by_key(&page, |(p, _)| *p).ok()?;
    list[i].1.take()
}

/// Walks the site and processes each page as the walk finds it, on `config.threads`
/// threads (at most [`MAX_OPEN_FILES`]). Returns what the walk passed over and met, and
/// what became of the pages; the order of the results varies, callers sort.
pub(super) fn process(
    config: &Config,
    lookups: &Lookups,
    options: &ScanOptions,
    details: bool,
    progress: &Progress,
) -> (Scan, Processed) {
    let gathered = Mutex::new(Processed::default());
    let shared = Shared::new(config, lookups);
    let options = ScanOptions {
        threads: config.threads.clamp(1, MAX_OPEN_FILES),
        ..options.clone()
    };
    let worker = || Worker {
        shared: &shared,
        scratch: Scratch::default(),
        filing: Filing::new(config, details),
        batch: Processed::default(),
        gathered: &gathered,
        progress,
    };
    let scan = crate::scan::walk(&config.public_dir, &options, worker);
    let processed = gathered.into_inner().unwrap_or_else(|e| e.into_inner());
    (scan, processed)
}

/// One walking thread as a page worker: its pages processed as they come, handed in
/// [`CHUNK`] at a time.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    scratch: Scratch,
    filing: Filing<'a>,
    /// The pages since the last hand-in, their places counted from 0.
    batch: Processed,
    gathered: &'a Mutex<Processed>,
    progress: &'a Progress,
}

impl Worker<'_> {
    fn hand_in(&mut self) {
        let pages = self.batch.pages.len();
        self.progress.done.fetch_add(pages, Ordering::Relaxed);
        self.gathered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take_batch(&mut self.batch);
    }
}

impl PageSink for Worker<'_> {
    fn page(&mut self, rel: &Path, at: At) {
        self.progress.pages.fetch_add(1, Ordering::Relaxed);
        let i = self.batch.pages.len();
        self.batch.pages.push(rel);
        let out = Out {
            text: &mut self.batch.text,
            warnings: &mut self.batch.warnings,
            about: &mut self.batch.about,
            place: i as u32,
        };
        let outcome = process_page(self.shared, rel, at, &mut self.scratch, out);
        self.batch.add(i, rel, outcome, &mut self.filing);
        if self.batch.pages.len() == CHUNK {
            self.hand_in();
        }
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        self.hand_in();
    }
}
