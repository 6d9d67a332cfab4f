//! The build: walk the site, decide every page on a bounded pool of workers, settle the
//! canonicals once every page is known, then write.
//!
//! [`collect`] returns the sorted, de-duplicated entries with what was left out and
//! why; [`write()`] turns them into files. Neither prints: the CLI reports.

mod by_text;
mod dates;
mod histories;
mod new_state;
mod page;
mod sort;
mod workers;
mod write;

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use jiff::Timestamp;

pub use workers::MAX_OPEN_FILES;
pub use write::{WriteOutcome, serve_own_files, write};

use crate::canonical;
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
use crate::urls;
use crate::views::Abouts;
use histories::Beside;
pub use new_state::NewState;
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

/// Moves the listed pages (sorted by URL), `counts[s]` of them in section `s`, section by
/// section, keeping their order within each: a counting sort, each page's place found in
/// one pass and the pages moved into place by following the permutation's cycles. Sorting
/// by section and URL compared URLs all over again (0.03 s at 200,000 pages, after the
/// walk); this holds one `u32` a page.
fn by_section<T>(listed: &mut [T], section: impl Fn(&T) -> u16, counts: &[usize]) {
    let mut next: Vec<usize> = counts
        .iter()
        .scan(0, |start, &n| {
            let this = *start;
            *start += n;
            Some(this)
        })
        .collect();
    let Ok(mut place) = listed
        .iter()
        .map(|l| {
            let slot = &mut next[usize::from(section(l))];
            *slot += 1;
            u32::try_from(*slot - 1)
        })
        .collect::<Result<Vec<u32>, _>>()
    else {
        // Past 4 billion pages: a stable sort keeps the URL order as well.
        return listed.sort_by_key(section);
    };
    for i in 0..listed.len() {
        while place[i] as usize != i {
            let j = place[i] as usize;
            listed.swap(i, j);
            place.swap(i, j);
        }
    }
}

/// Orders the listed pages (sorted by URL) section by section, keeping the order within
/// each, and counts them. The sections are the `[[section]]`s, or with `split =
/// "language"` the languages found, by name.
fn into_sections(
    config: &Config,
    listed: &mut [Listed],
    languages: Option<Vec<String>>,
    warnings: &mut Vec<Warning>,
) -> Vec<SectionUrls> {
    let sections = &config.sections;
    let names: Vec<&str> = match &languages {
        Some(names) => names.iter().map(String::as_str).collect(),
        None if sections.is_empty() => return Vec::new(),
        None => sections.specs().iter().map(|s| s.name.as_str()).collect(),
    };
    let mut urls = vec![0; names.len() + 1];
    for l in listed.iter() {
        urls[l.section as usize] += 1;
    }
    by_section(listed, |l| l.section, &urls);
    for (spec, &n) in sections.specs().iter().zip(&urls) {
        if n == 0 {
            warnings.push(Warning::EmptySection {
                name: spec.name.clone(),
                globs: spec.globs.clone(),
            });
        }
    }
    let named = names.into_iter().map(|n| Some(n.to_string()));
    (named.chain([None]))
        .zip(urls)
        .filter(|(name, urls)| name.is_some() || *urls > 0 || languages.is_none())
        .map(|(name, urls)| SectionUrls { name, urls })
        .collect()
}

/// The most languages given child sitemaps of their own (`split = "language"`): each is
/// a set of files, so a site of more is bounded, with a warning.
const MAX_LANGUAGES: usize = 1_000;

/// With `split = "language"`: each listed page's section set to its language's place
/// among the languages found (`default_language` first, then by name), which are returned; a page of no known
/// language goes to the language of `default_language`, else to the unnamed children.
fn by_language(
    config: &Config,
    urls: Urls,
    about: &mut crate::views::AboutParts,
    listed: &mut [Listed],
    warnings: &mut Vec<Warning>,
) -> Option<Vec<String>> {
    let split = config.split_language.as_ref()?;
    let languages = about.take_languages();
    let claimed: std::collections::HashMap<&str, &str> = (languages.claimed.iter())
        .map(|(href, lang)| (&**href, &**lang))
        .collect();
    let own = |l: &Listed| -> Option<&str> {
        let at = languages.own.binary_search_by_key(&l.page, |(p, _)| *p);
        match at {
            Ok(at) => Some(&*languages.own[at].1),
            Err(_) => claimed.get(urls.url(l).as_str()).copied(),
        }
    };
    let found: Vec<Option<&str>> = listed
        .iter()
        .map(|l| own(l).or(split.default.as_deref()))
        .collect();
    let mut names: Vec<&str> = found.iter().flatten().copied().collect();
    // The default language first, then the others by name.
    names.sort_unstable_by_key(|&n| (Some(n) != split.default.as_deref(), n));
    names.dedup();
    if let Some(first) = names.get(MAX_LANGUAGES) {
        let (found, kept, first) = (names.len(), MAX_LANGUAGES, first.to_string());
        warnings.push(Warning::LanguagesPastCap { found, kept, first });
    }
    names.truncate(MAX_LANGUAGES);
    let places: std::collections::HashMap<&str, u16> = (names.iter())
        .enumerate()
        .map(|(i, n)| (*n, i as u16))
        .collect();
    for (l, lang) in listed.iter_mut().zip(&found) {
        let place = lang.and_then(|lang| places.get(lang).copied());
        l.section = place.unwrap_or(names.len() as u16);
    }
    Some(names.into_iter().map(str::to_string).collect())
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

/// What the canonicals are settled against: every page, and which are listed.
struct Settle<'a> {
    config: &'a Config,
    pages: &'a Pages,
    listed: &'a [Listed],
    /// Whether the pages left out are listed (for `--verbose`).
    details: bool,
}

/// Settles the pages that name another URL as canonical, once every page is known: each
/// is left out, counted as canonical elsewhere when the canonical is a page of this
/// site and apart when it is not. Each such page, or one whose canonical is itself not
/// listed, gets a warning with both URLs. Returns the error when the canonicals follow
/// a pattern that means they are wrong (see [`canonical::suspicious`]); the warnings
/// are then left to it.
fn settle_canonicals(
    settle: Settle,
    mut pending: Vec<canonical::Pending>,
    collection: &mut Collection,
) -> Option<String> {
    if pending.is_empty() {
        return None;
    }
    let (config, pages) = (settle.config, settle.pages);
    let rel = |page: u32| pages.get(page as usize);
    pending.sort_unstable_by(|a, b| rel(a.page).cmp(rel(b.page)));
    let targets = canonical::find_targets(pages.iter(), &pending);
    let wrong = canonical::suspicious(&pending, |p| rel(p.page), pages.len(), &config.base_url);
    let mut is_listed = vec![false; pages.len()];
    for l in settle.listed {
        is_listed[l.page as usize] = true;
    }
    for (p, target) in pending.into_iter().zip(targets) {
        let why = match target {
            Some(_) => LeftOut::Canonical(p.target.clone()),
            None => LeftOut::CanonicalNotHere(p.target.clone()),
        };
        collection.counts.add(&why);
        if settle.details {
            collection.left_out.push((rel(p.page).to_path_buf(), why));
        }
        let path = config.public_dir.join(rel(p.page));
        let url = urls::page_url(&config.base_url, rel(p.page), &config.url_style);
        let warning = match target {
            Some(t) if is_listed[t as usize] => continue,
            Some(_) => Warning::CanonicalNotListed {
                path,
                url,
                canonical: p.target,
            },
            None => Warning::CanonicalNotHere {
                path,
                url,
                canonical: p.target,
                other_host: p.other_host,
            },
        };
        if wrong.is_none() {
            collection.warnings.push(warning);
        }
    }
    wrong
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pages of random sections, in order, end up section by section in their order, as
    /// a stable sort puts them.
    #[test]
    fn by_section_is_a_stable_sort_by_section() {
        let mut rng = fastrand::Rng::with_seed(7);
        for (len, sections) in [(0, 1), (1, 1), (5, 3), (1000, 4), (1000, 1), (997, 12)] {
            // (section, place in URL order)
            let listed: Vec<(u16, u32)> =
                (0..len).map(|page| (rng.u16(..sections), page)).collect();
            let mut counts = vec![0; usize::from(sections)];
            for &(section, _) in &listed {
                counts[usize::from(section)] += 1;
            }
            let mut got = listed.clone();
            by_section(&mut got, |&(section, _)| section, &counts);
            let mut want = listed;
            want.sort_by_key(|&(section, _)| section);
            assert_eq!(got, want, "{len} pages, {sections} sections");
        }
    }
}
