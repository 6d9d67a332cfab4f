//! One page through the pipeline: rules, URL, robots.txt, its head, its date.

use std::cell::OnceCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{self, AtomicUsize};
use std::time::SystemTime;

use super::Lookups;
use crate::config::Config;
use crate::error::{LeftOut, Warning};
use crate::lastmod::source::matching::{MAX_POSTINGS, Shingles, Unrouted, words};
use crate::lastmod::source::{How, Miss};
use crate::lastmod::{self, LastmodSource, PageFacts, Pending};
use crate::page::{Fingerprint, Head, HeadOptions, PageRead, Reader, Shown, Wants};
use crate::rules::{ExcludedBy, Verdict};
use crate::scan::At;
use crate::sitemap::{Alternate, Fields, Item};
use crate::views::{self, AboutPage, AboutParts};
use crate::{canonical, urls};

mod file;
mod head;

use file::{open, read};
use head::{alternates, head_verdict, images};

/// How a listed page was dated.
pub(super) struct Dated {
    /// The page's content fingerprint, when the `"content"` source is used.
    pub fingerprint: Option<Fingerprint>,
    /// The source that dated it (of a pending page: the source after `"content"` that
    /// gave the date its entry holds for now).
    pub from: Option<LastmodSource>,
    /// Why `"source"` did not, when it was asked to.
    pub missed: Option<Miss>,
    /// No route reached it, and `"source"` outranks what dated it: its text, by which
    /// its source may be found once the walk is done (`by_text.rs`).
    pub by_text: Option<Box<Unrouted>>,
    /// Waiting for the previous state, which decides its date once the walk is done.
    pub pending: Option<Pending>,
    /// Of a pending page: an unparseable date among the sources after `"content"`,
    /// reported when the state says they were consulted.
    pub unparseable: Option<String>,
}

/// What became of one page.
pub(super) enum Outcome {
    /// Its entry, packed into the worker's text, and how it was dated.
    Listed(Item, Dated),
    /// Left out.
    LeftOut(LeftOut),
    /// Named another URL as canonical: listed or left out once every page is known.
    Canonical(canonical::Judged),
    /// Not on the site any more, or not fit to list (with a warning).
    Dropped,
}

/// What every page of a run is processed with.
pub(super) struct Shared<'a> {
    pub config: &'a Config,
    pub lookups: &'a Lookups,
    /// What each page is read for (decided once per run).
    pub wants: Wants,
    /// Whether the `"mtime"` source is used.
    pub uses_mtime: bool,
    /// The shingles of the unrouted pages' texts kept so far, bounded in all.
    pub shingles: AtomicUsize,
}

impl<'a> Shared<'a> {
    /// What every page of the run under `config` is processed with.
    pub fn new(config: &'a Config, lookups: &'a Lookups) -> Shared<'a> {
        let uses = |source| lastmod::uses(&config.lastmod, source);
        let about = config.views.any() || config.audit || config.split_language.is_some();
        let needs_head = config.head.any() || uses(LastmodSource::Meta) || about;
        let head = HeadOptions {
            noindex_agents: config.head.noindex_agents.clone(),
            about,
        };
        Shared {
            config,
            lookups,
            wants: Wants {
                head: needs_head.then_some(head),
                images: config.images,
                // The "content" source implies `changes`: both keep the state.
                fingerprint: config.changes,
                body_date: uses(LastmodSource::Meta),
                text: lookups.source.is_some(),
            },
            uses_mtime: uses(LastmodSource::Mtime),
            shingles: AtomicUsize::new(0),
        }
    }

    /// The page at `rel`, which no route reached, with the text it showed, to be
    /// matched once the walk is done.
    fn unrouted(&self, rel: &Path, shown: Shown) -> Unrouted {
        let mut shingles = Shingles::of_text(&shown.text);
        // Memory is bounded for any site: past the bound, a page is matched to nothing.
        let held = (self.shingles).fetch_add(shingles.len(), atomic::Ordering::Relaxed);
        if held + shingles.len() > MAX_POSTINGS {
            shingles = Shingles::default();
        }
        let key = self.lookups.source.as_ref().map(|d| d.key(rel));
        Unrouted {
            key: key.unwrap_or_default(),
            shingles,
            title: words(&shown.title),
        }
    }
}

/// Where a worker's pages go: the text their entries are packed into (see
/// [`crate::sitemap::Item`]), and their warnings.
pub(super) struct Out<'o> {
    pub text: &'o mut String,
    pub warnings: &'o mut Vec<Warning>,
    /// What listed pages say of themselves (only read when views are written), and the
    /// page's place in the worker's list they are filed under.
    pub about: &'o mut AboutParts,
    pub place: u32,
}

/// One page on its way: where it is, and where its entry and warnings go.
struct Page<'a> {
    shared: &'a Shared<'a>,
    /// Its path, relative to the public directory.
    rel: &'a Path,
    /// Its directory, held open by the walk, and its name there: opened by name, the
    /// page costs the kernel no lookup of the directories above it.
    at: At<'a>,
    warnings: &'a mut Vec<Warning>,
    text: &'a mut String,
    about: &'a mut AboutParts,
    place: u32,
    /// Where its source is by its route, when sources are read.
    routed: Option<Result<(jiff::Timestamp, How), Miss>>,
    /// A document (`documents`): listed as it is, never read.
    document: bool,
    /// What would have left it out, when a rule lists it anyway (`exclude = false`):
    /// for the audit.
    forced: Option<LeftOut>,
}

impl<'a> Page<'a> {
    /// The page at `rel`, its entry and warnings going to `out`, with its source's date
    /// when sources are read.
    fn new(shared: &'a Shared<'a>, rel: &'a Path, at: At<'a>, out: Out<'a>) -> Page<'a> {
        let document = crate::scan::is_page_name(rel, &shared.config.documents);
        let routed = match document {
            // A document is its own source: the repository's file it was copied from.
            true => (shared.lookups.documents.as_ref())
                .map(|dates| dates.get(rel).map(|date| (date, How::Commit))),
            false => shared.lookups.source.as_ref().map(|dates| dates.get(rel)),
        };
        Page {
            shared,
            rel,
            at,
            warnings: out.warnings,
            text: out.text,
            about: out.about,
            place: out.place,
            routed,
            document,
            forced: None,
        }
    }

    /// Whether a link in it is looked for that names its source: its route found none.
    fn source_link_wanted(&self) -> bool {
        !self.document && matches!(self.routed, Some(Err(_)))
    }

    /// Whether it is the `sitemap.html` at the top, opened whatever the run wants: it is
    /// left out when our seal proves it our own view.
    fn may_be_our_view(&self) -> bool {
        self.rel == Path::new(views::HTML.name)
    }

    fn path(&self) -> PathBuf {
        self.shared.config.public_dir.join(self.rel)
    }

    fn ignored(&mut self, kind: &'static str, value: &str, reason: String) {
        let path = self.path();
        self.warnings.push(Warning::IgnoredLink {
            path,
            kind,
            value: value.to_string(),
            reason,
        });
    }

    /// A page that vanished or became a directory since the walk saw it is not on the
    /// site any more; one that exists but cannot be read still is.
    fn vanished(&mut self, message: String) -> Outcome {
        let path = self.path();
        self.warnings.push(Warning::Vanished { path, message });
        Outcome::Dropped
    }
}

/// The page file, opened once for its modification time (fstat) and to be read, and
/// what reading it told.
struct Opened {
    file: Option<File>,
    /// Its size, when it was opened.
    size: Option<u64>,
    modified: Option<SystemTime>,
    /// The content fingerprint, when the `"content"` source keeps state.
    fingerprint: Option<Fingerprint>,
    /// Its shown text, when no route reached it.
    text: Option<Shown>,
    /// The date of its source, by its route or a link in it, or why there is none.
    source: Result<(jiff::Timestamp, How), Miss>,
}

/// What a worker keeps from page to page, so pages cost fewer allocations.
#[derive(Default)]
pub(super) struct Scratch {
    /// The rules' matches.
    matched: Vec<usize>,
    /// The page reader, made for the run's wants by the first page.
    reader: Option<Reader>,
    /// The page's URL.
    url: String,
}

/// Rules, URL, head and date for one page, at `at` in the directory the walk holds open;
/// a listed page's entry is packed into `out.text`.
pub(super) fn process_page(
    shared: &Shared,
    rel: &Path,
    at: At,
    scratch: &mut Scratch,
    out: Out,
) -> Outcome {
    let config = shared.config;
    if let Some(shard) = config
        .shard
        .as_deref()
        .filter(|_| !config.shards.is_empty())
    {
        let owner = config.shards.owner(rel, &mut scratch.matched);
        if owner != Some(shard) {
            let by = ExcludedBy::Shard(owner.map(str::to_string));
            return Outcome::LeftOut(LeftOut::Rule(by));
        }
    }
    let verdict = config.rules.apply(rel, &mut scratch.matched);
    if let Some(by) = verdict.excluded {
        return Outcome::LeftOut(LeftOut::Rule(by));
    }
    let mut page = Page::new(shared, rel, at, out);
    // A document keeps its name in its URL, whatever `clean_urls` does to pages.
    let document_style = urls::UrlStyle {
        clean_urls: false,
        ..config.url_style.clone()
    };
    let style = if page.document {
        &document_style
    } else {
        &config.url_style
    };
    urls::page_url_into(&mut scratch.url, &config.base_url, rel, style);
    let loc = scratch.url.as_str();
    if loc.len() >= urls::MAX_URL_LEN {
        let path = page.path();
        page.warnings.push(Warning::UrlTooLong {
            path,
            len: loc.len(),
        });
        return Outcome::Dropped;
    }
    page.forced = match before_reading(shared, &verdict, loc) {
        Ok(forced) => forced,
        Err(outcome) => return outcome,
    };
    let mut opened = match open(&mut page) {
        Ok(opened) => opened,
        Err(outcome) => return outcome,
    };
    let read = read(&mut page, &opened, &mut scratch.reader);
    let PageRead {
        head,
        images: image_sources,
        fingerprint,
        source_link,
        text,
    } = read;
    if verdict.included && config.audit && page.forced.is_none() {
        page.forced = forced_by_head(&head);
    }
    // Parsed only when needed: most canonicals are written exactly as the page's URL.
    let page_url = OnceCell::new();
    let page_url = || page_url.get_or_init(|| url::Url::parse(loc).ok()).as_ref();
    let listed_as = if verdict.included {
        None
    } else {
        match head_verdict(&mut page, &head, loc, page_url) {
            Ok(listed_as) => listed_as,
            Err(outcome) => return outcome,
        }
    };
    let alternates = alternates(&mut page, &head, page_url);
    let extras = Extras {
        alternates,
        images: images(&mut page, image_sources, page_url),
    };
    let loc = listed_as.as_deref().unwrap_or(loc);
    opened.fingerprint = fingerprint;
    opened.text = text;
    if let Some(routed) = page.routed.take() {
        // A page's route missed: a link in it may name its source.
        let dates = shared.lookups.source.as_ref().filter(|_| !page.document);
        opened.source = routed.or_else(|miss| {
            let linked = (source_link.zip(dates)).and_then(|(link, d)| d.get_by_link(&link));
            linked.ok_or(miss)
        });
    }
    entry(&mut page, &verdict, &head, opened, loc, extras)
}

/// What robots.txt and the host do to the page at `loc`, before its head is read (a
/// blocked page costs no I/O): leave it out; or, for a page a rule lists anyway, what
/// they would have done, kept for the audit.
fn before_reading(
    shared: &Shared,
    verdict: &Verdict,
    loc: &str,
) -> Result<Option<LeftOut>, Outcome> {
    if verdict.included && !shared.config.audit {
        return Ok(None);
    }
    let robots = (shared.lookups.robots.as_ref()).filter(|robots| !robots.allows(loc));
    let why = match robots {
        Some(_) => Some(LeftOut::Robots),
        None => {
            (shared.lookups.host.as_ref()).and_then(|host| host.verdict(loc).map(LeftOut::Host))
        }
    };
    match why {
        Some(why) if !verdict.included => Err(Outcome::LeftOut(why)),
        why => Ok(why.filter(|_| shared.config.audit)),
    }
}

/// What a page's head would have done to a page a rule lists anyway (for the audit).
fn forced_by_head(head: &Head) -> Option<LeftOut> {
    match (&head.refresh, head.noindex) {
        (Some(to), _) => Some(LeftOut::Redirect(to.clone())),
        (None, true) => Some(LeftOut::Noindex),
        (None, false) => None,
    }
}

/// What an entry lists besides the page itself.
struct Extras {
    alternates: Vec<Alternate>,
    images: Box<[Box<str>]>,
}

/// The listed page's entry, dated by the first `lastmod` source that knows.
fn entry(
    page: &mut Page,
    verdict: &Verdict,
    head: &Head,
    opened: Opened,
    loc: &str,
    extras: Extras,
) -> Outcome {
    let fingerprint = opened.fingerprint;
    let size = opened.size;
    let source = opened.source;
    let config = page.shared.config;
    let lookups = page.shared.lookups;
    let facts = PageFacts {
        modified: opened.modified,
        meta: head.modified.as_deref(),
        git: lookups.git.as_ref().and_then(|g| g.get(page.rel)),
        source: source.as_ref().ok().map(|(ts, _)| *ts),
        content: fingerprint,
        // Read on another thread during the walk: settled after it (`dates.rs`).
        previous: None,
        now: lookups.now,
    };
    let (resolved, pending, unparseable_after) =
        lastmod::resolve_before_state(&config.lastmod, &facts).for_now();
    if let Some(value) = resolved.unparseable {
        let path = page.path();
        page.warnings.push(Warning::UnparseableDate { path, value });
    }
    // Why `"source"` did not date it, when it was asked to: the same whatever the state
    // settles, as a source that gave a date missed nothing.
    let missed = (lookups.source.is_some() && resolved.from != Some(LastmodSource::Source))
        .then(|| source.err())
        .flatten();
    let by_text = (!page.document
        && matches!(missed, Some(Miss::NoSource))
        && lastmod::outranks(&config.lastmod, LastmodSource::Source, resolved.from))
    .then(|| {
        let shown = opened.text.unwrap_or_default();
        Box::new(page.shared.unrouted(page.rel, shown))
    });
    let base = config.base_url.as_str().len();
    let rest = &loc[base.min(loc.len())..];
    if (config.views.any() || config.audit) && !page.document {
        about(page, head, rest, size);
    }
    if config.split_language.is_some() {
        languages(page, head, loc, &extras.alternates);
    }
    let fields = Fields {
        rest,
        lastmod: resolved.lastmod,
        changefreq: verdict.changefreq,
        priority: verdict.priority,
        alternates: &extras.alternates,
        images: &extras.images,
    };
    Outcome::Listed(
        Item::pack(page.text, fields),
        Dated {
            fingerprint,
            from: resolved.from,
            missed,
            by_text,
            pending,
            unparseable: unparseable_after,
        },
    )
}

/// What the views show of a listed page (`rest`, its URL after the base): its title
/// and description; the language of the home page only, the path only for the full text.
fn about(page: &mut Page, head: &Head, rest: &str, size: Option<u64>) {
    let settings = &page.shared.config.views;
    let about = AboutPage {
        title: head.title.as_deref(),
        description: head.description.as_deref(),
        lang: head.lang.as_deref().filter(|_| rest.is_empty()),
        language: head.lang.as_deref(),
        path: settings.needs_paths().then_some(page.rel),
        size,
        forced: page.forced.take().map(|why| why.to_string()),
    };
    page.about.add(page.place, about);
}

/// What the page says of its language (its `<html lang>`, else the hreflang it gives its
/// own URL, `loc`) and of its alternates', for `split = "language"`.
fn languages(page: &mut Page, head: &Head, loc: &str, alternates: &[Alternate]) {
    use crate::sections::language_name;
    let own = (head.lang.as_deref().and_then(language_name)).or_else(|| {
        let own = alternates.iter().filter(|a| a.href == loc);
        own.filter_map(|a| language_name(&a.hreflang)).next()
    });
    let claimed =
        (alternates.iter()).filter_map(|a| Some((a.href.clone(), language_name(&a.hreflang)?)));
    page.about.add_language(page.place, own, claimed);
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
        #[cfg(unix)]
        std::os::unix::fs::symlink("page.html", dir.path().join("link.html")).unwrap();
        let overrides = crate::config::Overrides {
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
        let lookups = Lookups::default();
        let shared = Shared::new(config, &lookups);
        let site = crate::fsutil::dir::Dir::open_root(&config.public_dir).unwrap();
        let table = [
            ("gone.html", false, "No such file or directory"),
            ("dir.html", false, "now a directory"),
            ("empty.html", true, ""),
            ("page.html", true, ""),
            // A link put in a page's place after the walk is not followed.
            #[cfg(unix)]
            ("link.html", false, "now a symbolic link"),
        ];
        for (name, listed, warning) in table {
            let (mut warnings, mut text) = (Vec::new(), String::new());
            let rel = Path::new(name);
            #[cfg(unix)]
            let name_here = std::ffi::CString::new(name).unwrap();
            #[cfg(not(unix))]
            let name_here = std::ffi::OsString::from(name);
            let at = At {
                dir: &site,
                name: &name_here,
                followed: None,
            };
            let mut about = AboutParts::default();
            let out = Out {
                text: &mut text,
                warnings: &mut warnings,
                about: &mut about,
                place: 0,
            };
            let outcome = process_page(&shared, rel, at, &mut Scratch::default(), out);
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
