//! The build: walk the site, decide every page on a bounded pool of workers, settle the
//! canonicals once every page is known, then write.
//!
//! [`collect`] returns the sorted, de-duplicated entries with what was left out and
//! why; [`write()`] turns them into files. Neither prints: the CLI reports.

mod by_text;
mod canonicals;
mod dates;
mod histories;
mod new_state;
mod page;
mod sectioning;
mod sort;
mod workers;
mod write;

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use jiff::Timestamp;

pub use workers::MAX_OPEN_FILES;
pub use write::{WriteOutcome, serve_own_files, write};

use crate::changes::Changes;
use crate::config::Config;
use crate::error::{Error, LeftOut, LeftOutCounts, Warning};
use crate::lastmod::git::GitDates;
use crate::lastmod::source::SourceDates;
use crate::lastmod::state::State;
use crate::lastmod::{self, LastmodSource};
use crate::page::Fingerprint;
use crate::robots::Robots;
use crate::scan::{Pages, ScanOptions, Skipped};
use crate::sections::SectionUrls;
use crate::sitemap::Entries;
use crate::views::Abouts;
use canonicals::{Settle, settle_canonicals};
use histories::Beside;
pub use new_state::NewState;
use sectioning::{by_language, into_sections};
use sort::sort_by_url;
use workers::{Listed, Processed};

/// The sitemap's entries and what was left out on the way.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Collection {
    /// Entries sorted by URL (byte order), each URL once.
    pub entries: Entries,
    /// The files in the site a view may have written (`views::may_be_view`),
    /// relative to the public directory, unsorted: where an earlier run's twins and
    /// sections' `llms.txt` may be.
    pub view_files: Vec<PathBuf>,
    /// The files in the site named as sitemaps ([`crate::sitemap::may_be_sitemap`]),
    /// relative to the public directory, unsorted: ours, and any a generator wrote.
    pub sitemap_files: Vec<PathBuf>,
    /// Pages left out and why, sorted by path (only when details were asked for).
    pub left_out: Vec<(PathBuf, LeftOut)>,
    /// How many pages were left out, by reason.
    pub counts: LeftOutCounts,
    /// How the listed pages were dated.
    pub dated: lastmod::DatedCounts,
    /// Listed pages the `"source"` source did not date, why, and the source that did,
    /// sorted by path (only when details were asked for).
    pub undated: Vec<(PathBuf, lastmod::source::Miss, Option<LastmodSource>)>,
    /// Each listed page and the `lastmod` source that dated it (`None`: none did), sorted
    /// by path (only when details were asked for): what `explain` says of its date.
    pub dated_by: Vec<(PathBuf, Option<LastmodSource>)>,
    /// The pages no route reached, and what matching them to a source by their text
    /// made of each, sorted by path (only when details were asked for).
    pub by_text: Vec<(PathBuf, lastmod::source::matching::ByText)>,
    /// The sources' dates the build used (only when details were asked for), for
    /// `explain` to name each page's source.
    pub source_dates: Option<SourceDates>,
    /// Files the walk passed over, sorted by path (only when details were asked for).
    pub skipped: Vec<Skipped>,
    /// How many files and directories the walk passed over.
    pub skipped_count: usize,
    /// Problems met, in path order.
    pub warnings: Vec<Warning>,
    /// The new state (of the `"content"` source or `changes`), saved when the sitemap is
    /// written.
    pub state: Option<NewState>,
    /// What changed since the previous run, when state is kept.
    pub changes: Option<Changes>,
    /// With `[[section]]`s, each section's URLs in file order, then the pages in no
    /// section: `entries` holds them in this order, each span sorted by URL. Empty
    /// without sections.
    pub sections: Vec<SectionUrls>,
    /// What each entry's page says of itself, in the order of `entries`: for the views
    /// (`html_sitemap`, `llms_txt`), empty without them.
    pub about: Abouts,
    /// The host's rules and URL form the build applied (only when details were asked
    /// for): `check --site` asks them about URLs another sitemap lists.
    pub host: Option<crate::host::Host>,
}

/// How far [`collect_with_progress`] has got, for a progress display on another thread.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Progress {
    /// Pages the walk has found so far: all of them once it ends (a walk that does not
    /// read pages as it finds them counts them only then).
    pub pages: AtomicUsize,
    /// Pages processed so far.
    pub done: AtomicUsize,
}

/// What the run looks up beyond each page itself, gathered once: the time, git
/// history, the previous `"content"` state, the site's robots.txt rules.
#[derive(Debug, Default)]
pub(crate) struct Lookups {
    /// The run's start, to the second.
    now: Option<Timestamp>,
    /// Git history, when the `"git"` source is used (empty when git did not answer):
    /// read beside the walk.
    git: Option<Beside<GitDates>>,
    /// The documents' source dates (`documents` with the `"source"` source): read beside
    /// the walk.
    documents: Option<Beside<crate::lastmod::documents::DocumentDates>>,
    /// The pages' source dates, when the `"source"` source is used and there are
    /// sources: read beside the walk.
    source: Option<Beside<SourceDates>>,
    /// The previous run's state, when state is kept: read during the walk, at hand
    /// once it is done.
    state: Option<State>,
    /// The site's robots.txt rules, when they apply.
    robots: Option<Robots>,
    /// The host's rules (`_headers`), when the output folder holds any.
    host: Option<crate::host::Host>,
}

/// Whether [`collect`] lists each file it passed over, left out or did not date by its
/// sources (for `--verbose`), or only counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Details {
    /// Counts only: the lists in [`Collection`] stay empty.
    #[default]
    Drop,
    /// Each file too, with why.
    Keep,
}

/// Walks the site and builds the sorted, de-duplicated entries; an error when there is
/// nothing to write (no pages, every page left out, wrong canonicals).
pub fn collect(config: &Config, details: Details) -> Result<Collection, Error> {
    let (collection, unwritable) = collect_with_progress(config, details, &Progress::default())?;
    match unwritable {
        Some(err) => Err(err),
        None => Ok(collection),
    }
}

/// [`collect`], counting its way through the pages in `progress`. The collection comes
/// back even when it cannot be written, with the error that says why beside it (every
/// page left out, wrong canonicals), so `--verbose` can still show each page and why.
pub fn collect_with_progress(
    config: &Config,
    details: Details,
    progress: &Progress,
) -> Result<(Collection, Option<Error>), Error> {
    let details = details == Details::Keep;
    let unused = config.unused.iter().cloned().map(Warning::Config);
    let mut warnings: Vec<Warning> = unused.collect();
    let mut lookups = lookups(config, &mut warnings)?;
    let sources = histories::find_sources(config, &mut warnings);
    lookups.source = sources.as_ref().map(|_| Beside::default());
    lookups.git = lastmod::uses(&config.lastmod, LastmodSource::Git).then(Beside::default);
    lookups.documents = (!config.documents.is_empty()
        && lastmod::uses(&config.lastmod, LastmodSource::Source))
    .then(Beside::default);
    let options = ScanOptions {
        extensions: config.extensions.clone(),
        documents: config.documents.clone(),
        error_pages: config.error_pages.clone(),
        follow_symlinks: config.follow_symlinks,
        keep_skipped: details,
        keep: |name| crate::views::may_be_view(name) || crate::sitemap::may_be_sitemap(name),
        threads: config.threads,
    };
    // The previous state is read while the pages are: the walk needs none of it (the
    // dates it decides are settled after), and reading it first kept a core idle. Git
    // and the sources too: a page waits for them only when it is dated.
    let (scanned, processed, state, found) = std::thread::scope(|s| {
        // The "content" source implies `changes`: both keep the same state.
        let state = config.changes.then(|| s.spawn(|| load_state(config)));
        let histories = histories::read(s, config, &lookups, sources);
        let (scanned, processed) = workers::process(config, &lookups, &options, details, progress);
        let state = state.map(|t| t.join().expect("the state thread panicked"));
        let found = histories.map(|t| t.join().expect("the history thread panicked"));
        (scanned, processed, state, found)
    });
    warnings.extend(found.into_iter().flatten());
    let mut processed = processed;
    let by_text = match lookups.source.as_ref() {
        Some(dates) => by_text::date_by_text(config, dates, &mut processed, details, &mut warnings),
        None => Vec::new(),
    };
    lookups.state = state.transpose()?;
    if let Some(refused) = lookups.state.as_ref().and_then(State::refused_dates) {
        warnings.push(Warning::StateDates {
            path: config.state_file.clone(),
            refused: refused.clone(),
        });
    }
    warnings.extend(scanned.warnings.into_iter().map(Warning::Scan));
    let is_sitemap = |p: &PathBuf| {
        let name = p.file_name().unwrap_or_default();
        crate::sitemap::may_be_sitemap(name.as_encoded_bytes())
    };
    let (sitemap_files, view_files) = scanned.kept.into_iter().partition(is_sitemap);
    let mut collection = Collection {
        skipped: scanned.skipped,
        view_files,
        sitemap_files,
        by_text,
        skipped_count: scanned.skipped_count,
        warnings,
        ..Collection::default()
    };
    let wrong_canonicals = gather(config, &mut lookups, processed, &mut collection, details);
    if details {
        collection.source_dates = lookups.source.take().and_then(Beside::into_inner);
        collection.host = lookups.host.take();
    }
    finish(config, collection, wrong_canonicals)
}

/// In CI (`CI` set, as every CI service sets it), where a fresh checkout makes every
/// file's mtime the build time: a warning when more than half of the pages are dated by
/// `"mtime"`.
fn build_time_dates(lookups: &Lookups, dated: &lastmod::DatedCounts) -> Option<Warning> {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    let by_build = dated.of(LastmodSource::Mtime);
    let pages = dated.by.iter().sum::<usize>() + dated.undated;
    (ci && by_build * 2 > pages).then(|| Warning::BuildTimeDates {
        dated: by_build,
        pages,
        by_source: lookups.source.is_some(),
    })
}

/// The previous run's state. A state file kept in the site must not be a link leading out
/// of it: its dates would be read into the sitemap (and the save would fail later).
fn load_state(config: &Config) -> Result<State, Error> {
    let path = &config.state_file;
    Ok(match path.starts_with(&config.public_dir) {
        true => State::load_in_site(path, &config.public_dir)?,
        false => State::load(path)?,
    })
}

/// What the run looks up before the walk: the time, robots.txt.
fn lookups(config: &Config, warnings: &mut Vec<Warning>) -> Result<Lookups, Error> {
    let mut lookups = Lookups {
        now: Timestamp::from_second(Timestamp::now().as_second()).ok(),
        ..Lookups::default()
    };
    // public_dir/robots.txt is the one crawlers read only when the site is the host root.
    if config.respect_robots && config.base_url.is_host_root() {
        match Robots::load(&config.public_dir, &config.robots_agent) {
            Ok(robots) => lookups.robots = robots,
            Err(e) => warnings.push(Warning::Robots(e.to_string())),
        }
    }
    if let Some(files) = &config.host_files {
        let (host, problems) = crate::host::Host::load(files, &config.url_style);
        lookups.host = host;
        warnings.extend(problems.into_iter().map(Warning::Host));
    }
    Ok(lookups)
}

/// Sorts and de-duplicates what the workers listed, keeps the new `"content"` state,
/// settles the canonicals, and fills `collection`. Returns the wrong-canonicals error
/// message, if any.
fn gather(
    config: &Config,
    lookups: &mut Lookups,
    mut processed: Processed,
    collection: &mut Collection,
    details: bool,
) -> Option<String> {
    let pages = &processed.pages;
    let mut listed = processed.listed;
    let text = processed.text;
    collection.warnings.extend(processed.warnings);
    collection.left_out = processed.left_out;
    collection.counts = processed.counts;
    collection.dated = processed.dated;
    collection.undated = processed.undated;
    collection.dated_by = processed.dated_by;
    let urls = Urls {
        base: config.base_url.as_str(),
        text: &text,
    };
    sort_by_url(pages, urls, &mut listed, config.cpu_threads);
    let fingerprints = processed.fingerprints;
    let fingerprint = |l: &Listed| fingerprint_of(&fingerprints, l);
    let merged = lookups.state.take().map(|previous| {
        let settling = dates::Settling {
            config,
            pages,
            previous: &previous,
            fingerprints: &fingerprints,
            now: lookups.now,
            text: &text,
            details,
        };
        // The previous state goes here: what a save needs of it is `outside`.
        dates::settle(settling, &mut listed, processed.waiting, collection)
    });
    collection.undated.sort_by(|a, b| a.0.cmp(&b.0));
    collection.dated_by.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(warning) = build_time_dates(lookups, &collection.dated) {
        collection.warnings.push(warning);
    }
    dedup(config, pages, urls, &mut listed, &mut collection.warnings);
    let (changes, kept) = merged.map(|m| (m.changes, (m.outside, m.holds))).unzip();
    collection.changes = changes;
    let settle = Settle {
        config,
        pages,
        listed: &listed,
        details,
    };
    let wrong = settle_canonicals(settle, processed.canonical, collection);
    collection.left_out.sort_by(|a, b| a.0.cmp(&b.0));
    let about = &mut processed.about;
    let languages = by_language(config, urls, about, &mut listed, &mut collection.warnings);
    collection.sections = into_sections(config, &mut listed, languages, &mut collection.warnings);
    collection.about = processed.about.in_order(listed.iter().map(|l| l.page));
    if let Some((outside, unchanged)) = kept {
        // In the entries' order; the save takes URLs and dates from the entries.
        let now = listed.iter().map(fingerprint).collect();
        let spans = collection.sections.iter().map(|s| s.urls).collect();
        collection.state = Some(NewState::new(now, spans, outside, unchanged));
    }
    // In place: the list's memory becomes the entries'.
    let items = listed.into_iter().map(|l| l.item).collect();
    collection.entries = Entries::from_parts(config.base_url.as_str(), text, items);
    wrong
}

/// A listed page's fingerprint, if it has one (`fingerprints`: by place in the walk's
/// list, as [`Processed::fingerprints`]).
fn fingerprint_of(fingerprints: &[Option<Fingerprint>], l: &Listed) -> Option<Fingerprint> {
    fingerprints.get(l.page as usize).copied().flatten()
}

/// Where the listed pages' URLs are: each is the base URL, then its item's span of
/// `text` (see [`Processed::text`]).
#[derive(Clone, Copy)]
struct Urls<'a> {
    base: &'a str,
    text: &'a str,
}

impl Urls<'_> {
    /// A listed page's URL after the base.
    fn rest(&self, l: &Listed) -> &str {
        l.item.rest(self.text)
    }

    /// A listed page's URL.
    fn url(&self, l: &Listed) -> String {
        format!("{}{}", self.base, self.rest(l))
    }
}

/// Keeps one page of each URL (sorted by [`sort_by_url`]): the first by path, with a
/// warning.
fn dedup(
    config: &Config,
    pages: &Pages,
    urls: Urls,
    listed: &mut Vec<Listed>,
    warnings: &mut Vec<Warning>,
) {
    // `dedup_by` hands (later, earlier): the earlier, first by path, is kept.
    listed.dedup_by(|later, kept| {
        let same = urls.rest(later) == urls.rest(kept);
        if same {
            warnings.push(Warning::DuplicateUrl {
                url: urls.url(later),
                kept: config.public_dir.join(pages.get(kept.page as usize)),
                dropped: config.public_dir.join(pages.get(later.page as usize)),
            });
        }
        same
    });
}

/// Sorts what is reported, and tells what cannot be written: the error beside the
/// collection, or the run's error when there were no pages at all.
fn finish(
    config: &Config,
    mut collection: Collection,
    wrong_canonicals: Option<String>,
) -> Result<(Collection, Option<Error>), Error> {
    collection.skipped.sort_by(|a, b| a.rel.cmp(&b.rel));
    collection.warnings.sort_by_cached_key(|w| w.to_string());
    let unwritable = if let Some(message) = wrong_canonicals {
        Some(Error::WrongCanonicals { message })
    } else if !collection.entries.is_empty() {
        None
    } else if collection.counts.total() > 0 {
        Some(Error::AllLeftOut {
            dir: config.public_dir.clone(),
            counts: collection.counts,
        })
    } else {
        return Err(Error::NoPages {
            dir: config.public_dir.clone(),
        });
    };
    Ok((collection, unwritable))
}
