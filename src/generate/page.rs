//! One page through the pipeline: rules, URL, robots.txt, its head, its date.

use std::cell::OnceCell;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Lookups;
use crate::config::Config;
use crate::error::{LeftOut, Warning};
use crate::lastmod::source::{How, Miss, SOURCE_LINK_MARKERS};
use crate::lastmod::{self, LastmodSource, PageFacts, Pending};
use crate::page::{self, Fingerprint, Head, HeadOptions, PageRead, Reader, Wants};
use crate::rules::{ExcludedBy, Verdict};
use crate::scan::{At, ScanWarning};
use crate::sitemap::{Alternate, Fields, Item};
use crate::views::{self, AboutPage, AboutParts};
use crate::{canonical, urls};

/// How a listed page was dated.
pub(super) struct Dated {
    /// The page's content fingerprint, when the `"content"` source is used.
    pub fingerprint: Option<Fingerprint>,
    /// The source that dated it (of a pending page: the source after `"content"` that
    /// gave the date its entry holds for now).
    pub from: Option<LastmodSource>,
    /// Why `"source"` did not, when it was asked to.
    pub missed: Option<Miss>,
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
}

impl<'a> Shared<'a> {
    /// What every page of the run under `config` is processed with.
    pub fn new(config: &'a Config, lookups: &'a Lookups) -> Shared<'a> {
        let uses = |source| lastmod::uses(&config.lastmod, source);
        let needs_head =
            config.head.any() || uses(LastmodSource::Meta) || config.views.any() || config.audit;
        let head = HeadOptions {
            noindex_agents: config.head.noindex_agents.clone(),
            about: config.views.any() || config.audit,
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
            },
            uses_mtime: uses(LastmodSource::Mtime),
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

impl Page<'_> {
    /// Whether a link in it is looked for that names its source: its route found none.
    fn source_link_wanted(&self) -> bool {
        !self.document && matches!(self.routed, Some(Err(_)))
    }

    /// Whether it is the `sitemap.html` at the top, whose head is read whatever the run
    /// wants: it is left out when it is our own view.
    fn may_be_our_view(&self) -> bool {
        self.rel == Path::new(views::HTML_FILE)
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
    let mut page = Page {
        shared,
        rel,
        at,
        warnings: out.warnings,
        text: out.text,
        about: out.about,
        place: out.place,
        routed: None,
        document: crate::scan::is_page_name(rel, &config.documents),
        forced: None,
    };
    page.routed = match page.document {
        // A document is its own source: the repository's file it was copied from.
        true => (shared.lookups.documents.as_ref())
            .map(|dates| dates.get(rel).map(|date| (date, How::Commit))),
        false => shared.lookups.source.as_ref().map(|dates| dates.get(rel)),
    };
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
    // Before the head is read: a blocked page costs no I/O.
    if let Some(robots) = &shared.lookups.robots
        && !verdict.included
        && !robots.allows(loc)
    {
        return Outcome::LeftOut(LeftOut::Robots);
    }
    if let Some(host) = &shared.lookups.host
        && !verdict.included
        && let Some(why) = host.verdict(loc)
    {
        return Outcome::LeftOut(LeftOut::Host(why));
    }
    if verdict.included && config.audit {
        page.forced = forced_before_reading(shared, loc);
    }
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
    } = read;
    // Our own view (sitemap.html) is never a page of the site, whatever the rules say.
    if head.generator.as_deref() == Some(views::GENERATOR) {
        return Outcome::LeftOut(LeftOut::View);
    }
    if verdict.included && config.audit && page.forced.is_none() {
        page.forced = match (&head.refresh, head.noindex) {
            (Some(to), _) => Some(LeftOut::Redirect(to.clone())),
            (None, true) => Some(LeftOut::Noindex),
            (None, false) => None,
        };
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
    if let (Some(routed), Some(dates)) = (page.routed.take(), &shared.lookups.source) {
        opened.source = routed.or_else(|miss| {
            let linked = source_link.and_then(|link| dates.get_by_link(&link));
            linked.ok_or(miss)
        });
    }
    entry(&mut page, &verdict, &head, opened, loc, extras)
}

/// What robots.txt or the host would have done to a page a rule lists anyway.
fn forced_before_reading(shared: &Shared, loc: &str) -> Option<LeftOut> {
    if let Some(robots) = &shared.lookups.robots
        && !robots.allows(loc)
    {
        return Some(LeftOut::Robots);
    }
    let host = shared.lookups.host.as_ref()?;
    host.verdict(loc).map(LeftOut::Host)
}

/// What an entry lists besides the page itself.
struct Extras {
    alternates: Vec<Alternate>,
    images: Box<[Box<str>]>,
}

/// Opens the page and reads its modification time, as far as anything needs them: the
/// file is kept only when something reads it, opened by name in its held directory.
fn open(page: &mut Page) -> Result<Opened, Outcome> {
    let shared = page.shared;
    let reads = !page.document
        && (shared.wants.reads() || page.may_be_our_view() || page.source_link_wanted());
    let mut opened = Opened {
        file: None,
        size: None,
        modified: None,
        fingerprint: None,
        source: Err(Miss::NoSource),
    };
    if !reads && !shared.uses_mtime {
        return Ok(opened);
    }
    // Non-blocking: a FIFO that replaced the page after the walk must not hang us.
    let meta = match page.at.open() {
        Ok(file) => {
            let meta = file.metadata();
            opened.file = reads.then_some(file);
            meta
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(page.vanished(e.to_string())),
        // Not followed (O_NOFOLLOW): a link put in the page's place since the walk, or
        // on the real path a followed link was checked to have.
        Err(e) if crate::fsutil::dir::is_refused_link(&e) => {
            return Err(page.vanished("now a symbolic link".to_string()));
        }
        Err(e) => {
            if reads {
                let path = page.path();
                let message = e.to_string();
                page.warnings
                    .push(Warning::HeadUnreadable { path, message });
            }
            Err(e)
        }
    };
    match &meta {
        Ok(m) if m.is_dir() => return Err(page.vanished("now a directory".to_string())),
        Ok(m) if !m.is_file() => {
            let what = crate::fsutil::kind_name(&m.file_type());
            return Err(page.vanished(format!("now {what}")));
        }
        Ok(m) => opened.size = opened.file.is_some().then_some(m.len()),
        Err(_) => {}
    }
    if shared.uses_mtime {
        match meta.and_then(|m| m.modified()) {
            Ok(time) => opened.modified = Some(time),
            Err(e) => {
                let path = page.path();
                page.warnings.push(Warning::Scan(ScanWarning {
                    path,
                    message: format!("cannot read modification time: {e}"),
                }));
            }
        }
    }
    Ok(opened)
}

/// Reads the open page for what the run wants, and for the link naming its source
/// when its route did not find one.
fn read(page: &mut Page, opened: &Opened, reader: &mut Option<Reader>) -> PageRead {
    let Some(file) = &opened.file else {
        return PageRead::default();
    };
    let shared = page.shared;
    let dates = shared.lookups.source.as_ref();
    let links = |href: &str| {
        let rank = SOURCE_LINK_MARKERS.iter().position(|m| href.contains(m))?;
        dates?.get_by_link(href).map(|_| rank)
    };
    let links: Option<page::SourceLinks> = page.source_link_wanted().then_some(&links);
    let reader = reader.get_or_insert_with(|| Reader::new(&shared.wants));
    if !reader.reads() && links.is_none() && !page.may_be_our_view() {
        return PageRead::default();
    }
    let read = if shared.wants.head.is_none() && page.may_be_our_view() {
        // Its head only, to tell whether it is our own view.
        let wants = Wants {
            head: Some(HeadOptions::default()),
            ..shared.wants.clone()
        };
        Reader::new(&wants).read(file, opened.size, links)
    } else {
        reader.read(file, opened.size, links)
    };
    read.unwrap_or_else(|e| {
        unreadable(page, &e);
        PageRead::default()
    })
}

/// The warnings of a page that was opened and could not be read through, one for each
/// thing it was read for.
fn unreadable(page: &mut Page, e: &io::Error) {
    let (path, message) = (page.path(), e.to_string());
    let wants = &page.shared.wants;
    let warnings = &mut page.warnings;
    if wants.head.is_some() || wants.body_date {
        let (path, message) = (path.clone(), message.clone());
        warnings.push(Warning::HeadUnreadable { path, message });
    }
    if wants.images {
        let (path, message) = (path.clone(), message.clone());
        warnings.push(Warning::ImagesUnreadable { path, message });
    }
    if wants.fingerprint {
        warnings.push(Warning::ContentUnreadable { path, message });
    }
}

/// What the head says of the page: left out (the outcome), or listed, under the
/// canonical's form when that names the page itself in another form.
fn head_verdict<'u>(
    page: &mut Page,
    head: &Head,
    loc: &str,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Result<Option<String>, Outcome> {
    let config = page.shared.config;
    // A stub is a redirect whatever else it says (Hugo's also say noindex).
    if let (true, Some(to)) = (config.head.skip_redirects, &head.refresh) {
        return Err(Outcome::LeftOut(LeftOut::Redirect(to.clone())));
    }
    if config.head.respect_noindex && head.noindex {
        return Err(Outcome::LeftOut(LeftOut::Noindex));
    }
    let (true, Some(href)) = (config.head.respect_canonical, &head.canonical) else {
        return Ok(None);
    };
    if *href == loc {
        return Ok(None);
    }
    let Some(page_url) = page_url() else {
        return Ok(None);
    };
    match canonical::judge(&config.base_url, page_url, page.rel, href) {
        Ok(canonical::Judged::Itself) => Ok(None),
        // Listed under the form the site declares preferred.
        Ok(canonical::Judged::ItselfAs(suffix)) => {
            // Unless the host redirects that form (`cleanUrls`, `trailingSlash`).
            let host = page.shared.lookups.host.as_ref();
            if let Some(by) = host.and_then(|h| h.redirects_form(&format!("/{suffix}"))) {
                let reason = format!("{by} redirects that form; listed as the URL served");
                page.ignored("canonical", href, reason);
                return Ok(None);
            }
            Ok(Some(format!("{}{suffix}", config.base_url.as_str())))
        }
        // Settled once every page is known.
        Ok(judged) => Err(Outcome::Canonical(judged)),
        Err(reason) => {
            page.ignored("canonical", href, reason);
            Ok(None)
        }
    }
}

/// The head's hreflang alternates, resolved and checked, each once.
fn alternates<'u>(
    page: &mut Page,
    head: &Head,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Vec<Alternate> {
    let mut alternates: Vec<Alternate> = Vec::new();
    if !page.shared.config.head.alternates || head.alternates.is_empty() {
        return alternates;
    }
    let Some(page_url) = page_url() else {
        return alternates;
    };
    for alt in &head.alternates {
        if !urls::is_hreflang(&alt.hreflang) {
            let reason = "not a language tag such as en, de-AT or x-default".to_string();
            page.ignored("hreflang", &alt.hreflang, reason);
            continue;
        }
        let href = match urls::resolve_href(page_url, &alt.href) {
            Ok(u) if u.as_str().len() < urls::MAX_URL_LEN => u.to_string(),
            Ok(_) => {
                let reason = "2,048 characters or longer".to_string();
                page.ignored("hreflang", &alt.href, reason);
                continue;
            }
            Err(reason) => {
                page.ignored("hreflang", &alt.href, reason);
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
    alternates
}

/// The page's images (`images = true`), resolved against its URL.
fn images<'u>(
    page: &mut Page,
    sources: Option<crate::images::Sources>,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Box<[Box<str>]> {
    // Most pages have no image: their URL is not parsed for nothing (2 % of a run).
    let Some(sources) = sources.filter(|s| !s.sources.is_empty() || s.overflowed) else {
        return Box::default();
    };
    let Some(page_url) = page_url() else {
        return Box::default();
    };
    let (images, overflowed) = crate::images::resolve(page_url, &sources);
    if overflowed {
        let path = page.path();
        page.warnings.push(Warning::TooManyImages { path });
    }
    images.into_boxed_slice()
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
    let base = config.base_url.as_str().len();
    let rest = &loc[base.min(loc.len())..];
    if (config.views.any() || config.audit) && !page.document {
        about(page, head, rest, size);
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
        path: settings.llms_full_txt.then_some(page.rel),
        size,
        forced: page.forced.take().map(|why| why.to_string()),
    };
    page.about.add(page.place, about);
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
