//! The bounded pool of page workers.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::page::{Scratch, Shared, process_page};
use super::{Lookups, Progress};
use crate::canonical;
use crate::config::Config;
use crate::error::{LeftOut, LeftOutCounts, Warning};
use crate::lastmod::source::Miss;
use crate::lastmod::{DatedCounts, LastmodSource};
use crate::scan::Pages;
use crate::sections::Sections;
use crate::sitemap::{Entry, Item};

/// Pages handed to a worker at a time.
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
    /// Its entry, its URL (after the base) in [`Processed::text`].
    pub item: Item,
}

/// How outcomes are filed: with the details of what was left out or not, and into
/// which section.
struct Filing<'a> {
    details: bool,
    sections: &'a Sections,
    /// The length of the base URL, which entries are kept without.
    base_len: usize,
    /// Scratch space for matching sections.
    matched: Vec<usize>,
}

impl<'a> Filing<'a> {
    fn new(config: &'a Config, details: bool) -> Filing<'a> {
        Filing {
            details,
            sections: &config.sections,
            base_len: config.base_url.as_str().len(),
            matched: Vec::new(),
        }
    }
}

/// What the workers made of the pages: filled batch by batch, under a lock.
#[derive(Default)]
pub(super) struct Processed {
    pub listed: Vec<Listed>,
    /// The listed pages' URLs after the base, one after the other.
    pub text: String,
    pub left_out: Vec<(PathBuf, LeftOut)>,
    pub counts: LeftOutCounts,
    /// How the listed pages were dated.
    pub dated: DatedCounts,
    /// Listed pages `"source"` did not date, why, and what did (only with details).
    pub undated: Vec<(PathBuf, Miss, Option<LastmodSource>)>,
    /// Pages left out for a canonical URL.
    pub canonical: Vec<canonical::Pending>,
    /// Content fingerprints by place in the walk's list (only with the `"content"`
    /// source, so other runs carry no room for them).
    pub fingerprints: Vec<(u32, Box<str>)>,
    pub warnings: Vec<Warning>,
}

impl Processed {
    /// Moves a worker's batch in, leaving the batch's buffers empty for reuse.
    fn take_batch(&mut self, batch: &mut Processed) {
        let offset = self.text.len();
        self.text.push_str(&batch.text);
        batch.text.clear();
        self.listed.extend(batch.listed.drain(..).map(|mut l| {
            l.item.shift(offset);
            l
        }));
        self.left_out.append(&mut batch.left_out);
        self.canonical.append(&mut batch.canonical);
        self.fingerprints.append(&mut batch.fingerprints);
        self.warnings.append(&mut batch.warnings);
        self.counts.merge(std::mem::take(&mut batch.counts));
        self.dated.merge(std::mem::take(&mut batch.dated));
        self.undated.append(&mut batch.undated);
    }

    /// Files one page's outcome (page `i` of the walk's list).
    fn add(&mut self, i: usize, rel: &Path, outcome: Outcome, filing: &mut Filing) {
        match outcome {
            Outcome::Listed(entry, dated) => {
                self.dated.add(dated.from);
                if let (true, Some(miss)) = (filing.details, dated.missed) {
                    self.undated.push((rel.to_path_buf(), miss, dated.from));
                }
                if let Some(fp) = dated.fingerprint {
                    self.fingerprints.push((i as u32, fp.into_boxed_str()));
                }
                self.listed.push(Listed {
                    page: i as u32,
                    section: filing.sections.of(rel, &mut filing.matched),
                    item: Item::new(&mut self.text, entry, filing.base_len),
                });
            }
            Outcome::LeftOut(why, pending) => {
                self.counts.add(&why);
                if let Some(mut pending) = pending {
                    pending.page = i as u32;
                    self.canonical.push(pending);
                }
                if filing.details {
                    self.left_out.push((rel.to_path_buf(), why));
                }
            }
            Outcome::Dropped => {}
        }
    }
}

/// How a listed page was dated.
pub(super) struct Dated {
    /// The page's content fingerprint, when the `"content"` source is used.
    pub fingerprint: Option<String>,
    /// The source that dated it.
    pub from: Option<LastmodSource>,
    /// Why `"source"` did not, when it was asked to.
    pub missed: Option<Miss>,
}

/// What became of one page.
pub(super) enum Outcome {
    /// The entry, and how it was dated.
    Listed(Entry, Dated),
    /// Left out; for its canonical, with what the canonical names.
    LeftOut(LeftOut, Option<canonical::Pending>),
    Dropped,
}

/// Processes every page on a pool of `config.threads` scoped threads (at most
/// [`MAX_OPEN_FILES`]), each taking [`CHUNK`] pages at a time and handing in its results
/// batch by batch, so they are gathered in one list with no copy at the end. Paths stay in
/// the walk's list; results refer to them by place. The order of the results varies;
/// callers sort.
pub(super) fn process_all(
    config: &Config,
    lookups: &Lookups,
    pages: &Pages,
    details: bool,
    progress: &Progress,
) -> Processed {
    let workers = config
        .threads
        .min(MAX_OPEN_FILES)
        .min(pages.len().div_ceil(CHUNK))
        .max(1);
    let next = AtomicUsize::new(0);
    // Room for every page at once, and for URLs as long as the paths: grown by doubling,
    // the list and the URLs could leave as much again behind in the allocator.
    let gathered = Mutex::new(Processed {
        listed: Vec::with_capacity(pages.len()),
        text: String::with_capacity(pages.total_len()),
        ..Processed::default()
    });
    let shared = Shared::new(config, lookups);
    let work = || {
        let mut batch = Processed::default();
        let mut scratch = Scratch::default();
        let mut filing = Filing::new(config, details);
        loop {
            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
            if start >= pages.len() {
                return;
            }
            for i in start..pages.len().min(start + CHUNK) {
                let rel = pages.get(i);
                let outcome = process_page(&shared, rel, None, &mut scratch, &mut batch.warnings);
                batch.add(i, rel, outcome, &mut filing);
            }
            progress
                .done
                .fetch_add(CHUNK.min(pages.len() - start), Ordering::Relaxed);
            gathered
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take_batch(&mut batch);
        }
    };
    if workers == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(work);
            }
        });
    }
    gathered.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Walks the site and processes each page as the walk finds it, while its directory is
/// held open (see [`crate::scan::walk_held_open`]), on `config.threads` threads (at most
/// [`MAX_OPEN_FILES`]). Returns what the walk found and what became of the pages, as
/// [`crate::scan::scan`] and [`process_all`] would.
#[cfg(unix)]
pub(super) fn walk_and_process(
    config: &Config,
    lookups: &Lookups,
    options: &crate::scan::ScanOptions,
    details: bool,
    progress: &Progress,
) -> (crate::scan::Scan, Processed) {
    let gathered = Mutex::new(Processed::default());
    let shared = Shared::new(config, lookups);
    let options = crate::scan::ScanOptions {
        threads: config.threads.clamp(1, MAX_OPEN_FILES),
        ..options.clone()
    };
    let sink = || Sink {
        shared: &shared,
        scratch: Scratch::default(),
        filing: Filing::new(config, details),
        batch: Processed::default(),
        in_batch: 0,
        gathered: &gathered,
        progress,
    };
    let scanned = crate::scan::walk_held_open(&config.public_dir, &options, sink);
    let processed = gathered.into_inner().unwrap_or_else(|e| e.into_inner());
    (scanned, processed)
}

/// One walking thread's pages: processed as they come, handed in [`CHUNK`] at a time.
#[cfg(unix)]
struct Sink<'a> {
    shared: &'a Shared<'a>,
    scratch: Scratch,
    filing: Filing<'a>,
    batch: Processed,
    in_batch: usize,
    gathered: &'a Mutex<Processed>,
    progress: &'a Progress,
}

#[cfg(unix)]
impl Sink<'_> {
    fn hand_in(&mut self) {
        self.progress
            .done
            .fetch_add(self.in_batch, Ordering::Relaxed);
        self.in_batch = 0;
        self.gathered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take_batch(&mut self.batch);
    }
}

#[cfg(unix)]
impl crate::scan::PageSink for Sink<'_> {
    fn page(&mut self, i: usize, rel: &Path, dir: std::os::fd::BorrowedFd, name: &std::ffi::CStr) {
        self.progress.pages.fetch_add(1, Ordering::Relaxed);
        let at = Some((dir, name));
        let outcome = process_page(
            self.shared,
            rel,
            at,
            &mut self.scratch,
            &mut self.batch.warnings,
        );
        self.batch.add(i, rel, outcome, &mut self.filing);
        self.in_batch += 1;
        if self.in_batch == CHUNK {
            self.hand_in();
        }
    }
}

#[cfg(unix)]
impl Drop for Sink<'_> {
    fn drop(&mut self) {
        self.hand_in();
    }
}
