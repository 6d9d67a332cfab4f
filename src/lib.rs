//! sitemapgen: writes `sitemap.xml` for a built static site.
//!
//! The pipeline, one module per stage, data flowing one way:
//! [`config`] (file + flags into one [`Config`]) → [`scan`] (walk the public directory)
//! → [`rules`] (exclude / changefreq / priority) → [`url`] (path → absolute URL) →
//! [`page`] (what the page's head says: noindex, canonical, redirects, hreflang, date) →
//! [`lastmod`] (date each page) → [`sitemap`] (XML, splitting, index, atomic writes).
//!
//! ```no_run
//! use sitemapgen::config::{Config, Overrides};
//!
//! let config = Config::load(Some("sitemap.toml".as_ref()), &Overrides::default())?;
//! let collection = sitemapgen::collect(&config, false)?;
//! let outcome = sitemapgen::write(&config, &collection, &mut std::io::stdout())?;
//! # Ok::<(), sitemapgen::Error>(())
//! ```
#![deny(missing_docs)]

pub mod canonical;
pub mod check;
pub mod cli;
pub mod config;
pub mod index;
pub mod init;
pub mod lastmod;
pub mod page;
pub mod robots;
pub mod rules;
pub mod scan;
pub mod sitemap;
pub mod text;
pub mod url;

use std::fmt;
use std::path::{Path, PathBuf};

pub use config::Config;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use config::{ConfigError, Output};
use jiff::Timestamp;
use lastmod::LastmodSource;
use lastmod::PageFacts;
use lastmod::git::GitDates;
use lastmod::state::{PageState, State, StateError};
use page::{Head, HeadOptions};
use robots::{Announced, Robots, RobotsError, RobotsTxt};
use rules::ExcludedBy;
use scan::{ScanOptions, ScanWarning, Skipped};
use sitemap::{Alternate, Children, Entry, Limits, WriteError, Written};
use std::collections::BTreeMap;

pub(crate) use text::one_line;

/// A failed run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad configuration or flags.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The public directory holds no pages at all.
    #[error("no pages found under {} - was the site built?", dir.display())]
    NoPages {
        /// The public directory.
        dir: PathBuf,
    },
    /// Every page was left out, and a sitemap may not be empty.
    #[error(
        "{} under {} {} left out ({}); a sitemap needs at least one URL - {}",
        all_pages(collection.counts.total()),
        dir.display(),
        if collection.counts.total() == 1 { "was" } else { "were" },
        collection.counts.describe().join(", "),
        collection.counts.advice()
    )]
    AllLeftOut {
        /// The public directory.
        dir: PathBuf,
        /// What was collected: every page left out, with the reason when details were
        /// asked for.
        collection: Box<Collection>,
    },
    /// The canonical links are wrong rather than the pages duplicates (a site-wide
    /// canonical tag, a site built for another URL); nothing is written.
    #[error("{message}")]
    WrongCanonicals {
        /// The pattern, its count and the fix.
        message: String,
        /// What was collected, for `--verbose`.
        collection: Box<Collection>,
    },
    /// Writing failed; the previous sitemap is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The `"content"` source's state file is unusable.
    #[error(transparent)]
    State(#[from] StateError),
    /// robots.txt could not be updated; the sitemap itself was written.
    #[error(transparent)]
    Robots(#[from] RobotsError),
    /// `build --check` found errors in what was written.
    #[error(
        "the written sitemap has {} (listed above)",
        text::count(*errors, "error", "errors")
    )]
    CheckFailed {
        /// How many.
        errors: usize,
    },
}

/// `all 12 pages`, `the 1 page`.
fn all_pages(n: usize) -> String {
    if n == 1 {
        "the 1 page".to_string()
    } else {
        format!("all {n} pages")
    }
}

impl Error {
    /// What was collected before the run failed, when the failure is about what was
    /// collected (so `--verbose` can still show every page left out and why).
    pub fn collection(&self) -> Option<&Collection> {
        match self {
            Error::AllLeftOut { collection, .. } | Error::WrongCanonicals { collection, .. } => {
                Some(collection)
            }
            _ => None,
        }
    }

    /// The process exit code: 2 for bad usage or configuration, 1 for the rest.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Config(_)
            | Error::Write(WriteError::NeedsIndex { .. })
            | Error::State(StateError::Invalid { .. }) => 2,
            _ => 1,
        }
    }
}

/// A problem that leaves a file out or degrades it; the run goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The walk could not read something.
    Scan(ScanWarning),
    /// A page whose URL reaches the protocol's 2,048-character limit.
    UrlTooLong {
        /// The page's path, public directory included.
        path: PathBuf,
        /// The URL's length.
        len: usize,
    },
    /// Two files that map to one URL; the first in byte order of the path is kept.
    DuplicateUrl {
        /// The URL.
        url: String,
        /// The file listed.
        kept: PathBuf,
        /// The file left out.
        dropped: PathBuf,
    },
    /// A page that was found by the walk but is gone, or is no longer a file, when it is
    /// opened (the site changed during the run); it is skipped.
    Vanished {
        /// The page.
        path: PathBuf,
        /// What it is now: the OS error, or "a directory".
        message: String,
    },
    /// A page whose head could not be read; it is listed as if its head said nothing.
    HeadUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A declared modified date that does not parse; the next `lastmod` source is used.
    UnparseableDate {
        /// The page.
        path: PathBuf,
        /// The date as written.
        value: String,
    },
    /// A canonical or hreflang link that is ignored.
    IgnoredLink {
        /// The page.
        path: PathBuf,
        /// `canonical` or `hreflang`.
        kind: &'static str,
        /// The value as written.
        value: String,
        /// Why it is ignored.
        reason: String,
    },
    /// A `lastmod` source that cannot be used this run (git missing, a shallow clone).
    Lastmod(String),
    /// The site's robots.txt cannot be read or parsed, so it is not applied.
    Robots(String),
    /// A page whose content could not be read for its fingerprint.
    ContentUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A page left out for its canonical URL, a page of this site that is itself not
    /// listed, so neither is.
    CanonicalNotListed {
        /// The page.
        path: PathBuf,
        /// The page's own URL.
        url: String,
        /// Its canonical URL.
        canonical: String,
    },
    /// A page left out for a canonical URL that names no page of this site.
    CanonicalNotHere {
        /// The page.
        path: PathBuf,
        /// The page's own URL.
        url: String,
        /// Its canonical URL.
        canonical: String,
        /// Whether the canonical is on another host (scheme, port) than the base URL.
        other_host: bool,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Scan(w) => w.fmt(f),
            Warning::UrlTooLong { path, len } => write!(
                f,
                "{}: skipped, its URL is {len} characters (the protocol allows fewer than 2,048); shorten the path",
                path.display()
            ),
            Warning::DuplicateUrl { url, kept, dropped } => write!(
                f,
                "{}: skipped, it maps to {url} like {} (check clean_urls and trailing_slash)",
                dropped.display(),
                kept.display()
            ),
            Warning::Vanished { path, message } => write!(
                f,
                "{}: skipped, it changed during the run ({message}); run again once the site is built",
                path.display()
            ),
            Warning::HeadUnreadable { path, message } => write!(
                f,
                "{}: cannot read its head ({message}); listed without it",
                path.display()
            ),
            Warning::UnparseableDate { path, value } => write!(
                f,
                "{}: modified date '{value}' is not a date (use e.g. 2024-03-05T10:20:30Z); the next lastmod source is used",
                path.display()
            ),
            Warning::IgnoredLink {
                path,
                kind,
                value,
                reason,
            } => write!(f, "{}: {kind} '{value}' ignored: {reason}", path.display()),
            Warning::Lastmod(message) => f.write_str(message),
            Warning::Robots(message) => write!(f, "{message}; robots.txt is not applied"),
            Warning::ContentUnreadable { path, message } => write!(
                f,
                "{}: cannot read its content ({message}); the next lastmod source is used",
                path.display()
            ),
            Warning::CanonicalNotListed {
                path,
                url,
                canonical,
            } => write!(
                f,
                "{}: left out for its canonical, a page that is not in the sitemap either: page {url}, canonical {canonical} (fix the canonical link, or list its target)",
                path.display()
            ),
            Warning::CanonicalNotHere {
                path,
                url,
                canonical,
                other_host,
            } => write!(
                f,
                "{}: left out for its canonical, which {}: page {url}, canonical {canonical} ({})",
                path.display(),
                if *other_host {
                    "is on another host than base_url"
                } else {
                    "names no page of this site"
                },
                if *other_host {
                    "check base_url and the URL the site was built for, or set respect_canonical = false"
                } else {
                    "fix the canonical link, or set respect_canonical = false"
                }
            ),
        }
    }
}

/// Why a page found on disk is not in the sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeftOut {
    /// The rules excluded it.
    Rule(ExcludedBy),
    /// Its robots meta tag says noindex.
    Noindex,
    /// It is a meta-refresh redirect stub; the target as written.
    Redirect(String),
    /// Its canonical URL is another page of this site.
    Canonical(String),
    /// Its canonical URL names no page of this site (another host, outside the base
    /// URL, a query, or no such file).
    CanonicalNotHere(String),
    /// The site's robots.txt disallows it.
    Robots,
}

impl fmt::Display for LeftOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOut::Rule(by) => by.fmt(f),
            LeftOut::Noindex => f.write_str("noindex (robots meta tag)"),
            LeftOut::Redirect(to) => write!(f, "redirect stub (meta refresh to {to})"),
            LeftOut::Canonical(url) => write!(f, "canonical elsewhere ({url})"),
            LeftOut::CanonicalNotHere(url) => {
                write!(f, "canonical names no page of this site ({url})")
            }
            LeftOut::Robots => f.write_str("blocked by robots.txt"),
        }
    }
}

/// How many pages were left out, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOutCounts {
    /// Excluded by rules.
    pub rules: usize,
    /// Marked noindex.
    pub noindex: usize,
    /// Redirect stubs.
    pub redirects: usize,
    /// Canonical elsewhere: another page of this site.
    pub canonical: usize,
    /// A canonical that names no page of this site.
    pub canonical_not_here: usize,
    /// Blocked by robots.txt.
    pub robots: usize,
}

impl LeftOutCounts {
    fn add(&mut self, why: &LeftOut) {
        *self.slot(why) += 1;
    }

    fn slot(&mut self, why: &LeftOut) -> &mut usize {
        match why {
            LeftOut::Rule(_) => &mut self.rules,
            LeftOut::Noindex => &mut self.noindex,
            LeftOut::Redirect(_) => &mut self.redirects,
            LeftOut::Canonical(_) => &mut self.canonical,
            LeftOut::CanonicalNotHere(_) => &mut self.canonical_not_here,
            LeftOut::Robots => &mut self.robots,
        }
    }

    fn merge(&mut self, other: LeftOutCounts) {
        self.rules += other.rules;
        self.noindex += other.noindex;
        self.redirects += other.redirects;
        self.canonical += other.canonical;
        self.canonical_not_here += other.canonical_not_here;
        self.robots += other.robots;
    }

    /// All pages left out.
    pub fn total(&self) -> usize {
        self.rules
            + self.noindex
            + self.redirects
            + self.canonical
            + self.canonical_not_here
            + self.robots
    }

    /// Each reason with its count, those with none left out: `["3 noindex", "1 redirect"]`.
    pub fn describe(&self) -> Vec<String> {
        let n = |n: usize, one: &str, many: &str| (n, text::count(n, one, many));
        [
            n(self.rules, "excluded by rules", "excluded by rules"),
            n(self.noindex, "noindex", "noindex"),
            n(self.redirects, "redirect", "redirects"),
            n(self.canonical, "canonical elsewhere", "canonical elsewhere"),
            n(
                self.canonical_not_here,
                "canonical not on this site",
                "canonical not on this site",
            ),
            n(
                self.robots,
                "blocked by robots.txt",
                "blocked by robots.txt",
            ),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, text)| text)
        .collect()
    }

    /// What to look at when every page was left out, by the reasons that did it.
    fn advice(&self) -> String {
        let mut advice = vec!["run with -v to see each page and why"];
        if self.rules > 0 {
            advice.push("check exclude and the [[rule]] globs");
        }
        if self.canonical + self.canonical_not_here > 0 {
            advice.push("check the canonical links and base_url");
        }
        if self.robots > 0 {
            advice.push("check robots.txt");
        }
        advice.join("; ")
    }
}

/// The sitemap's entries and what was left out on the way.
#[derive(Debug, Default)]
pub struct Collection {
    /// Entries sorted by URL (byte order), each URL once.
    pub entries: Vec<Entry>,
    /// Pages left out and why, sorted by path (only when details were asked for).
    pub left_out: Vec<(PathBuf, LeftOut)>,
    /// How many pages were left out, by reason.
    pub counts: LeftOutCounts,
    /// Files the walk passed over, sorted by path (only when details were asked for).
    pub skipped: Vec<Skipped>,
    /// How many files and directories the walk passed over.
    pub skipped_count: usize,
    /// Problems met, in path order.
    pub warnings: Vec<Warning>,
    /// The `"content"` source's new state, saved when the sitemap is written.
    pub state: Option<BTreeMap<String, PageState>>,
}

/// Pages handed to a worker at a time.
const CHUNK: usize = 256;

/// The most worker threads, and so the most page files open at once: each worker reads
/// one file at a time.
pub const MAX_OPEN_FILES: usize = 64;

/// A listed page, as a worker leaves it.
struct Listed {
    /// Its place in the walk's list, which keeps its path.
    page: u32,
    entry: Entry,
}

/// What the workers made of the pages: filled batch by batch, under a lock.
#[derive(Default)]
struct Processed {
    listed: Vec<Listed>,
    left_out: Vec<(PathBuf, LeftOut)>,
    counts: LeftOutCounts,
    /// Pages left out for a canonical URL.
    canonical: Vec<canonical::Pending>,
    /// Content fingerprints by place in the walk's list (only with the `"content"`
    /// source, so other runs carry no room for them).
    fingerprints: Vec<(u32, Box<str>)>,
    warnings: Vec<Warning>,
}

impl Processed {
    /// Moves a worker's batch in, leaving the batch's buffers empty for reuse.
    fn take_batch(&mut self, batch: &mut Processed) {
        self.listed.append(&mut batch.listed);
        self.left_out.append(&mut batch.left_out);
        self.canonical.append(&mut batch.canonical);
        self.fingerprints.append(&mut batch.fingerprints);
        self.warnings.append(&mut batch.warnings);
        self.counts.merge(std::mem::take(&mut batch.counts));
    }
}

/// What became of one page.
enum Outcome {
    /// The entry, and the page's content fingerprint when the `"content"` source is used.
    Listed(Entry, Option<String>),
    /// Left out; for its canonical, with what the canonical names.
    LeftOut(LeftOut, Option<canonical::Pending>),
    Dropped,
}

/// Walks the site and builds the sorted, de-duplicated entries. With `details`, the
/// files skipped and left out are listed too (for `--verbose`).
pub fn collect(config: &Config, details: bool) -> Result<Collection, Error> {
    collect_with_progress(config, details, &Progress::default())
}

/// How far [`collect_with_progress`] has got, for a progress display on another thread.
#[derive(Debug, Default)]
pub struct Progress {
    /// Pages the walk found; 0 while it runs.
    pub pages: AtomicUsize,
    /// Pages processed so far.
    pub done: AtomicUsize,
}

/// [`collect`], counting its way through the pages in `progress`.
pub fn collect_with_progress(
    config: &Config,
    details: bool,
    progress: &Progress,
) -> Result<Collection, Error> {
    let uses = |source| lastmod::uses(&config.lastmod, source);
    let mut dates = Dates {
        now: Timestamp::from_second(Timestamp::now().as_second()).ok(),
        ..Dates::default()
    };
    let mut warnings = Vec::new();
    if uses(LastmodSource::Content) {
        dates.state = Some(State::load(&config.state_file)?);
    }
    // public_dir/robots.txt is the one crawlers read only when the site is the host root.
    if config.respect_robots && config.base_url.is_host_root() {
        match Robots::load(&config.public_dir, &config.robots_agent) {
            Ok(robots) => dates.robots = robots,
            Err(e) => warnings.push(Warning::Robots(e.to_string())),
        }
    }
    // git reads its history while the walk runs.
    let git = uses(LastmodSource::Git).then(|| {
        let dir = config.public_dir.clone();
        std::thread::spawn(move || lastmod::git::read(&dir))
    });

    let scanned = scan::scan(
        &config.public_dir,
        &ScanOptions {
            extensions: config.extensions.clone(),
            error_pages: config.error_pages.clone(),
            follow_symlinks: config.follow_symlinks,
            keep_skipped: details,
            threads: config.threads,
        },
    );
    if let Some(git) = git {
        match git.join().expect("the git thread panicked") {
            Ok(git) => {
                if git.shallow {
                    warnings.push(Warning::Lastmod(
                        "lastmod source \"git\": this is a shallow clone, so pages last changed before its history begins fall through to the next source; fetch the full history (actions/checkout: fetch-depth: 0)".to_string(),
                    ));
                }
                dates.git = Some(git);
            }
            Err(e) => warnings.push(Warning::Lastmod(e.to_string())),
        }
    }
    warnings.extend(scanned.warnings.into_iter().map(Warning::Scan));
    let mut collection = Collection {
        skipped: scanned.skipped,
        skipped_count: scanned.skipped_count,
        warnings,
        ..Collection::default()
    };

    let pages = scanned.pages;
    progress.pages.store(pages.len(), Ordering::Relaxed);
    let processed = process_all(config, &dates, &pages, details, progress);
    let mut listed = processed.listed;
    collection.warnings.extend(processed.warnings);
    collection.left_out = processed.left_out;
    collection.counts = processed.counts;
    let rel = |l: &Listed| pages[l.page as usize].rel.as_os_str().as_encoded_bytes();
    listed.sort_unstable_by(|a, b| {
        a.entry
            .loc
            .cmp(&b.entry.loc)
            .then_with(|| rel(a).cmp(rel(b)))
    });
    // `dedup_by` hands (later, earlier): the earlier, first by path, is kept.
    listed.dedup_by(|later, kept| {
        let same = later.entry.loc == kept.entry.loc;
        if same {
            collection.warnings.push(Warning::DuplicateUrl {
                url: format!("{}{}", config.base_url.as_str(), later.entry.loc),
                kept: config.public_dir.join(&pages[kept.page as usize].rel),
                dropped: config.public_dir.join(&pages[later.page as usize].rel),
            });
        }
        same
    });
    collection.state = dates.state.is_some().then(|| {
        let mut fingerprints = processed.fingerprints;
        fingerprints.sort_unstable_by_key(|(page, _)| *page);
        listed
            .iter()
            .filter_map(|l| {
                let i = fingerprints
                    .binary_search_by_key(&l.page, |(page, _)| *page)
                    .ok()?;
                let fingerprint = fingerprints[i].1.to_string();
                let lastmod = l.entry.lastmod?;
                Some((
                    format!("{}{}", config.base_url.as_str(), l.entry.loc),
                    PageState {
                        fingerprint,
                        lastmod,
                    },
                ))
            })
            .collect()
    });
    collection.left_out.sort_by(|a, b| a.0.cmp(&b.0));
    let wrong_canonicals = settle_canonicals(
        config,
        &pages,
        &listed,
        processed.canonical,
        &mut collection,
    );
    // The walk's list, with every path, is no longer needed.
    drop(pages);
    // Reuses the list's allocation, and puts the base URL back in front of each URL.
    // Entries carry only the part after the base while collecting: the prefix every URL
    // shares would double the heap each one takes, on a million pages 30 MB.
    let base = config.base_url.as_str();
    let entries: Vec<Entry> = listed
        .into_iter()
        .map(|mut l| {
            l.entry.loc = format!("{base}{}", l.entry.loc).into_boxed_str();
            l.entry
        })
        .collect();

    collection.entries = entries;
    collection.skipped.sort_by(|a, b| a.rel.cmp(&b.rel));
    collection.warnings.sort_by_cached_key(|w| w.to_string());
    if let Some(message) = wrong_canonicals {
        return Err(Error::WrongCanonicals {
            message,
            collection: Box::new(collection),
        });
    }
    if collection.entries.is_empty() {
        if collection.counts.total() > 0 {
            return Err(Error::AllLeftOut {
                dir: config.public_dir.clone(),
                collection: Box::new(collection),
            });
        }
        return Err(Error::NoPages {
            dir: config.public_dir.clone(),
        });
    }
    Ok(collection)
}

/// Settles the pages left out for their canonicals once every page is known: a
/// canonical that names no page of this site is counted apart, and each such page, or
/// one whose canonical is itself not listed, gets a warning with both URLs. Returns the
/// error when the canonicals follow a pattern that means they are wrong (see
/// [`canonical::suspicious`]); the warnings are then left to it.
fn settle_canonicals(
    config: &Config,
    pages: &[scan::Found],
    listed: &[Listed],
    mut pending: Vec<canonical::Pending>,
    collection: &mut Collection,
) -> Option<String> {
    if pending.is_empty() {
        return None;
    }
    let rel = |page: u32| &*pages[page as usize].rel;
    pending.sort_unstable_by(|a, b| rel(a.page).cmp(rel(b.page)));
    let targets = canonical::find_targets(pages.iter().map(|f| &*f.rel), &pending);
    let wrong = canonical::suspicious(&pending, pages.len(), &config.base_url);
    let mut is_listed = vec![false; pages.len()];
    for l in listed {
        is_listed[l.page as usize] = true;
    }
    for (p, target) in pending.into_iter().zip(targets) {
        let path = config.public_dir.join(rel(p.page));
        let url = url::page_url(&config.base_url, rel(p.page), &config.url_style);
        let warning = match target {
            Some(t) if is_listed[t as usize] => continue,
            Some(_) => Warning::CanonicalNotListed {
                path,
                url,
                canonical: p.target,
            },
            None => {
                if !p.candidates.is_empty() {
                    // Judged a path of this site, but no page is there.
                    collection.counts.canonical -= 1;
                    collection.counts.canonical_not_here += 1;
                    let found = collection
                        .left_out
                        .binary_search_by(|(r, _)| r.as_path().cmp(rel(p.page)));
                    if let Ok(i) = found {
                        collection.left_out[i].1 = LeftOut::CanonicalNotHere(p.target.clone());
                    }
                }
                Warning::CanonicalNotHere {
                    path,
                    url,
                    canonical: p.target,
                    other_host: p.other_host,
                }
            }
        };
        if wrong.is_none() {
            collection.warnings.push(warning);
        }
    }
    wrong
}

/// Processes every page on a pool of `config.threads` scoped threads (at most
/// [`MAX_OPEN_FILES`]), each taking [`CHUNK`] pages at a time and handing in its results
/// batch by batch, so they are gathered in one list with no copy at the end. Paths stay in
/// the walk's list; results refer to them by place. The order of the results varies;
/// callers sort.
fn process_all(
    config: &Config,
    dates: &Dates,
    pages: &[scan::Found],
    details: bool,
    progress: &Progress,
) -> Processed {
    let workers = config
        .threads
        .min(MAX_OPEN_FILES)
        .min(pages.len().div_ceil(CHUNK))
        .max(1);
    let next = AtomicUsize::new(0);
    let shared = Mutex::new(Processed::default());
    let head_options = HeadOptions {
        noindex_agents: config.head.noindex_agents.clone(),
    };
    let work = || {
        let mut batch = Processed::default();
        let mut matched = Vec::new();
        loop {
            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
            if start >= pages.len() {
                return;
            }
            for (i, found) in pages.iter().enumerate().skip(start).take(CHUNK) {
                let outcome = process_page(
                    config,
                    dates,
                    &head_options,
                    found,
                    &mut matched,
                    &mut batch.warnings,
                );
                match outcome {
                    Outcome::Listed(entry, fingerprint) => {
                        if let Some(fp) = fingerprint {
                            batch.fingerprints.push((i as u32, fp.into_boxed_str()));
                        }
                        batch.listed.push(Listed {
                            page: i as u32,
                            entry,
                        });
                    }
                    Outcome::LeftOut(why, pending) => {
                        batch.counts.add(&why);
                        if let Some(mut pending) = pending {
                            pending.page = i as u32;
                            batch.canonical.push(pending);
                        }
                        if details {
                            batch.left_out.push((found.rel.to_path_buf(), why));
                        }
                    }
                    Outcome::Dropped => {}
                }
            }
            progress
                .done
                .fetch_add(CHUNK.min(pages.len() - start), Ordering::Relaxed);
            shared
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
    shared.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Rules, URL, head and date for one page.
fn process_page(
    config: &Config,
    dates: &Dates,
    head_options: &HeadOptions,
    found: &scan::Found,
    matched: &mut Vec<usize>,
    warnings: &mut Vec<Warning>,
) -> Outcome {
    let path = || config.public_dir.join(&found.rel);
    let verdict = config.rules.apply(&found.rel, matched);
    if let Some(by) = verdict.excluded {
        return Outcome::LeftOut(LeftOut::Rule(by), None);
    }
    let loc = url::page_url(&config.base_url, &found.rel, &config.url_style);
    if loc.len() >= url::MAX_URL_LEN {
        warnings.push(Warning::UrlTooLong {
            path: path(),
            len: loc.len(),
        });
        return Outcome::Dropped;
    }

    // Before the head is read: a blocked page costs no I/O.
    if let Some(robots) = &dates.robots
        && !verdict.included
        && !robots.allows(&loc)
    {
        return Outcome::LeftOut(LeftOut::Robots, None);
    }

    // One open serves the head, the modification time (fstat) and the fingerprint.
    let uses = |source| lastmod::uses(&config.lastmod, source);
    let needs_head = config.head.any() || uses(LastmodSource::Meta);
    // A page that vanished or became a directory since the walk saw it is not on the
    // site any more; one that exists but cannot be read still is.
    let vanished = |warnings: &mut Vec<Warning>, message: String| {
        warnings.push(Warning::Vanished {
            path: path(),
            message,
        });
        Outcome::Dropped
    };
    let mut file = None;
    if needs_head || dates.state.is_some() {
        match File::open(path()) {
            Ok(f) => file = Some(f),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return vanished(warnings, e.to_string());
            }
            Err(e) => warnings.push(Warning::HeadUnreadable {
                path: path(),
                message: e.to_string(),
            }),
        }
    }
    let needs_meta = file.is_some() || uses(LastmodSource::Mtime);
    let meta = match &file {
        Some(f) => Some(f.metadata()),
        None if needs_meta => Some(std::fs::metadata(path())),
        None => None,
    };
    match &meta {
        Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => {
            return vanished(warnings, e.to_string());
        }
        Some(Ok(m)) if m.is_dir() => return vanished(warnings, "now a directory".to_string()),
        _ => {}
    }
    let modified = if uses(LastmodSource::Mtime) {
        match meta
            .expect("read when mtime is used")
            .and_then(|m| m.modified())
        {
            Ok(time) => Some(time),
            Err(e) => {
                warnings.push(Warning::Scan(ScanWarning {
                    path: path(),
                    message: format!("cannot read modification time: {e}"),
                }));
                None
            }
        }
    } else {
        None
    };
    let head = match (&file, needs_head) {
        (Some(f), true) => match page::read_head_from(f, head_options) {
            Ok(head) => head,
            Err(e) => {
                warnings.push(Warning::HeadUnreadable {
                    path: path(),
                    message: e.to_string(),
                });
                Head::default()
            }
        },
        _ => Head::default(),
    };

    // Parsed only when needed: most canonicals are written exactly as the page's URL.
    let page_url = std::cell::OnceCell::new();
    let page_url = || {
        page_url
            .get_or_init(|| ::url::Url::parse(&loc).ok())
            .as_ref()
    };
    let mut ignored = |kind: &'static str, value: &str, reason: String| {
        warnings.push(Warning::IgnoredLink {
            path: path(),
            kind,
            value: value.to_string(),
            reason,
        });
    };
    let mut listed_as = None;
    if !verdict.included {
        // A stub is a redirect whatever else it says (Hugo's also say noindex).
        if let (true, Some(to)) = (config.head.skip_redirects, &head.refresh) {
            return Outcome::LeftOut(LeftOut::Redirect(to.clone()), None);
        } else if config.head.respect_noindex && head.noindex {
            return Outcome::LeftOut(LeftOut::Noindex, None);
        } else if let (true, Some(href)) = (config.head.respect_canonical, &head.canonical)
            && *href != loc
            && let Some(page_url) = page_url()
        {
            match canonical::judge(&config.base_url, page_url, &found.rel, href) {
                Ok(canonical::Judged::Itself) => {}
                // Listed under the form the site declares preferred.
                Ok(canonical::Judged::ItselfAs(suffix)) => {
                    listed_as = Some(format!("{}{suffix}", config.base_url.as_str()));
                }
                Ok(judged) => return left_out_for_canonical(judged),
                Err(reason) => ignored("canonical", href, reason),
            }
        }
    }

    let mut alternates: Vec<Alternate> = Vec::new();
    if config.head.alternates
        && !head.alternates.is_empty()
        && let Some(page_url) = page_url()
    {
        for alt in &head.alternates {
            if !url::is_hreflang(&alt.hreflang) {
                ignored(
                    "hreflang",
                    &alt.hreflang,
                    "not a language tag such as en, de-AT or x-default".to_string(),
                );
                continue;
            }
            let href = match url::resolve_href(page_url, &alt.href) {
                Ok(u) if u.as_str().len() < url::MAX_URL_LEN => u.to_string(),
                Ok(_) => {
                    ignored(
                        "hreflang",
                        &alt.href,
                        "2,048 characters or longer".to_string(),
                    );
                    continue;
                }
                Err(reason) => {
                    ignored("hreflang", &alt.href, reason);
                    continue;
                }
            };
            let alternate = Alternate {
                hreflang: alt.hreflang.clone(),
                href,
            };
            if !alternates.contains(&alternate) {
                alternates.push(alternate);
            }
        }
    }

    let loc = listed_as.unwrap_or(loc);
    let fingerprint = match (&dates.state, &mut file) {
        (Some(_), Some(f)) => {
            let read = f
                .seek(SeekFrom::Start(0))
                .and_then(|_| lastmod::content::fingerprint_from(&*f));
            match read {
                Ok(fp) => Some(fp),
                Err(e) => {
                    warnings.push(Warning::ContentUnreadable {
                        path: path(),
                        message: e.to_string(),
                    });
                    None
                }
            }
        }
        _ => None,
    };
    let facts = PageFacts {
        modified,
        meta: head.modified.as_deref(),
        git: dates.git.as_ref().and_then(|g| g.get(&found.rel)),
        content: fingerprint
            .as_deref()
            .map(|fp| (fp, dates.state.as_ref().and_then(|s| s.get(&loc)))),
        now: dates.now,
    };
    let resolved = lastmod::resolve(&config.lastmod, &facts);
    if let Some(value) = resolved.unparseable {
        warnings.push(Warning::UnparseableDate {
            path: path(),
            value,
        });
    }
    Outcome::Listed(
        Entry {
            // Only the part after the base URL while collecting (see `collect`).
            loc: loc[config.base_url.as_str().len()..].into(),
            lastmod: resolved.lastmod,
            changefreq: verdict.changefreq,
            priority: verdict.priority,
            alternates: alternates.into_boxed_slice(),
        },
        fingerprint,
    )
}

/// A page left out for its canonical, to be settled once every page is known.
fn left_out_for_canonical(judged: canonical::Judged) -> Outcome {
    let (target, candidates, other_host) = match judged {
        canonical::Judged::Elsewhere { target, candidates } => (target, candidates, false),
        canonical::Judged::OffSite { target, other_host } => (target, Vec::new(), other_host),
        canonical::Judged::Itself | canonical::Judged::ItselfAs(_) => {
            unreachable!("a page that is its own canonical is listed")
        }
    };
    let why = if candidates.is_empty() {
        LeftOut::CanonicalNotHere(target.clone())
    } else {
        LeftOut::Canonical(target.clone())
    };
    let pending = canonical::Pending {
        page: 0,
        target,
        candidates,
        other_host,
    };
    Outcome::LeftOut(why, Some(pending))
}

/// What the `lastmod` sources that look beyond the page itself know, gathered once.
#[derive(Debug, Default)]
struct Dates {
    /// The run's start, to the second.
    now: Option<Timestamp>,
    /// Git history, when the `"git"` source is used and git answered.
    git: Option<GitDates>,
    /// The previous run's state, when the `"content"` source is used.
    state: Option<State>,
    /// The site's robots.txt rules, when they apply.
    robots: Option<Robots>,
}

/// The URL of the directory `output` is published in: its place under the public
/// directory, or the base URL when it is written elsewhere.
fn children_of(config: &Config, output: &Path) -> Children {
    let parent = output.parent().unwrap_or(Path::new(""));
    let real = |p: &Path| {
        std::fs::canonicalize(if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        })
        .ok()
    };
    let rel = match (real(parent), real(&config.public_dir)) {
        (Some(parent), Some(public)) => parent.strip_prefix(&public).ok().map(Path::to_path_buf),
        _ => None,
    };
    let mut loc_prefix = config.base_url.as_str().to_string();
    if let Some(rel) = rel.filter(|r| !r.as_os_str().is_empty()) {
        loc_prefix.push_str(&url::encode_path(&rel));
        loc_prefix.push('/');
    }
    Children { loc_prefix }
}

/// What [`write`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The files written; `None` when the sitemap went to standard output.
    pub written: Option<Written>,
    /// The sitemap's absolute URL, when written to a file.
    pub url: Option<String>,
    /// What was done to robots.txt, when `robots_txt` asks for anything.
    pub robots: Option<Announced>,
}

/// Writes the collection where the configuration says (standard output is `out`), then
/// saves the `"content"` state and announces the sitemap in robots.txt if asked to.
pub fn write(
    config: &Config,
    collection: &Collection,
    out: &mut dyn std::io::Write,
) -> Result<WriteOutcome, Error> {
    let limits = Limits {
        max_urls: config.max_urls_per_file,
        max_bytes: sitemap::PROTOCOL_MAX_BYTES,
    };
    let path = match &config.output {
        Output::Stdout => {
            sitemap::write_single(out, &collection.entries, limits, form(config))?;
            save_state(config, collection)?;
            return Ok(WriteOutcome {
                written: None,
                url: None,
                robots: None,
            });
        }
        Output::File(path) => path,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| WriteError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    let children = children_of(config, path);
    let url = children.url_of(path);
    let written = sitemap::write_files(path, &children, &collection.entries, limits, form(config))?;
    save_state(config, collection)?;
    let robots = match config.robots_txt {
        RobotsTxt::Leave => None,
        mode => {
            let host_root =
                ::url::Url::parse(config.base_url.as_str()).map_err(|e| RobotsError::Parse {
                    path: config.public_dir.join("robots.txt"),
                    message: e.to_string(),
                })?;
            let announced = robots::announce(&config.public_dir, &url, &host_root, mode)?;
            // Split text sitemaps have no index: each file is announced.
            if !written.indexed {
                for child in &written.children {
                    robots::announce(
                        &config.public_dir,
                        &children.url_of(child),
                        &host_root,
                        mode,
                    )?;
                }
            }
            Some(announced)
        }
    };
    Ok(WriteOutcome {
        written: Some(written),
        url: Some(url),
        robots,
    })
}

/// How the configuration says sitemaps are written.
fn form(config: &Config) -> sitemap::Form {
    sitemap::Form {
        format: config.format,
        gzip: config.gzip,
        lastmod: config.lastmod_format,
    }
}

/// Saves the `"content"` source's state, once the sitemap it describes is written.
fn save_state(config: &Config, collection: &Collection) -> Result<(), Error> {
    if let Some(state) = &collection.state {
        lastmod::state::save(&config.state_file, state)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What becomes of a page the walk found, when by the time it is opened it is gone,
    /// a directory, empty, or fine.
    #[test]
    fn pages_that_changed_after_the_walk_are_skipped_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("dir.html")).unwrap();
        std::fs::write(dir.path().join("empty.html"), "").unwrap();
        std::fs::write(dir.path().join("page.html"), "<title>x</title>").unwrap();
        let overrides = config::Overrides {
            public_dir: Some(dir.path().to_path_buf()),
            base_url: Some("https://example.org/".into()),
            ..Default::default()
        };
        // Heads read (the default), and heads not read: the mtime's stat finds it out.
        let heads_off = dir.path().join("heads-off.toml");
        std::fs::write(
            &heads_off,
            "lastmod = ['mtime']\nrespect_noindex = false\nskip_redirects = false\n\
             respect_canonical = false\nalternates = false\n",
        )
        .unwrap();
        for config in [None, Some(heads_off.as_path())] {
            let config = Config::load(config, &overrides).unwrap();
            check_changed_pages(&config);
        }
    }

    fn check_changed_pages(config: &Config) {
        let dates = Dates {
            now: None,
            git: None,
            state: None,
            robots: None,
        };
        let table = [
            ("gone.html", false, "No such file or directory"),
            ("dir.html", false, "now a directory"),
            ("empty.html", true, ""),
            ("page.html", true, ""),
        ];
        for (name, listed, warning) in table {
            let found = scan::Found {
                rel: Path::new(name).into(),
            };
            let mut warnings = Vec::new();
            let outcome = process_page(
                config,
                &dates,
                &HeadOptions::default(),
                &found,
                &mut Vec::new(),
                &mut warnings,
            );
            assert_eq!(matches!(outcome, Outcome::Listed(..)), listed, "{name}");
            if warning.is_empty() {
                assert!(warnings.is_empty(), "{name}: {warnings:?}");
            } else {
                let [w @ Warning::Vanished { .. }] = &warnings[..] else {
                    panic!("{name}: {warnings:?}");
                };
                let text = w.to_string();
                assert!(text.contains(name) && text.contains(warning), "{text}");
                assert!(text.contains("skipped"), "{text}");
            }
        }
    }
}
