//! What a run can go wrong with, and why a page is not in the sitemap.

use std::fmt;
use std::path::PathBuf;

use crate::config::ConfigError;
use crate::lastmod::git::GitUnavailable;
use crate::lastmod::state::StateError;
use crate::robots::RobotsError;
use crate::rules::ExcludedBy;
use crate::scan::ScanWarning;
use crate::sitemap::WriteError;
use crate::text;

/// A failed run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
        all_pages(counts.total()),
        dir.display(),
        if counts.total() == 1 { "was" } else { "were" },
        counts.describe().join(", "),
        counts.advice()
    )]
    AllLeftOut {
        /// The public directory.
        dir: PathBuf,
        /// How many pages were left out, by reason.
        counts: LeftOutCounts,
    },
    /// The canonical links are wrong rather than the pages duplicates (a site-wide
    /// canonical tag, a site built for another URL); nothing is written.
    #[error("{message}")]
    WrongCanonicals {
        /// The pattern, its count and the fix.
        message: String,
    },
    /// Writing failed; the previous sitemap is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The `"content"` source's state file is unusable.
    #[error(transparent)]
    State(#[from] StateError),
    /// `submit` could not send the change list.
    #[error(transparent)]
    Submit(#[from] crate::submit::SubmitError),
    /// robots.txt could not be updated; the sitemap itself was written.
    #[error(transparent)]
    Robots(#[from] RobotsError),
    /// `_headers` could not be updated for our own files; the sitemap was written.
    #[error(transparent)]
    HostHeaders(#[from] crate::host::ServeError),
    /// A view (`sitemap.html`, `llms.txt`) could not be written.
    #[error(transparent)]
    View(#[from] crate::views::ViewError),
    /// `merge` refused its input or could not write.
    #[error(transparent)]
    Merge(#[from] crate::shard::MergeError),
    /// `build --check` found errors in what was written, or in the site's audit (or
    /// warnings, with `--strict`).
    #[error(
        "--check found {} (listed above)",
        text::count(*errors, "problem", "problems")
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
    /// The process exit code: 2 for bad usage or configuration, 1 for the rest.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Config(_)
            | Error::Write(WriteError::NeedsIndex { .. })
            | Error::State(StateError::Invalid { .. }) => 2,
            Error::Merge(e) if e.is_bad_input() => 2,
            _ => 1,
        }
    }
}

/// A problem that leaves a file out or degrades it; the run goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// More languages than get child sitemaps of their own (`split = "language"`): the
    /// pages of the rest are in the children of no language.
    LanguagesPastCap {
        /// How many languages the pages name.
        found: usize,
        /// How many get children of their own.
        kept: usize,
        /// The first left without children of its own (the others follow it by name).
        first: String,
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
    /// A source whose front matter breaks a bound; it dates no page.
    SourceRefused {
        /// The source, relative to the project.
        path: PathBuf,
        /// The bound it breaks.
        why: String,
    },
    /// The cache of the sources read could not be written: the next run reads them all.
    SourceCache {
        /// The cache file, in the project's git directory.
        path: PathBuf,
        /// The OS error.
        message: String,
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
    /// The `"git"` source cannot be used this run (git missing, not a repository).
    Git(GitUnavailable),
    /// The `"git"` source reads a shallow clone: older pages fall through.
    ShallowClone,
    /// The state file's records whose dates no sitemap can hold, left out.
    StateDates {
        /// The state file.
        path: PathBuf,
        /// How many, and the first date.
        refused: crate::lastmod::state::RefusedDates,
    },
    /// The `"source"` lastmod source cannot be used, or only in part.
    Source(crate::lastmod::source::SourceUnavailable),
    /// In CI, most pages are dated by the build: their files' mtimes, or the run's start.
    BuildTimeDates {
        /// Pages dated so.
        dated: usize,
        /// Pages listed.
        pages: usize,
        /// Whether the `"source"` source is set up (it then dated too few).
        source: bool,
    },
    /// The site's robots.txt cannot be read or parsed, so it is not applied.
    Robots(String),
    /// A host file (`_headers`, `vercel.json`, ...) or one of its rules could not be read;
    /// the run goes on without it.
    Host(String),
    /// A page whose images could not be read; it is listed without them.
    ImagesUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A page with more images than one entry lists.
    TooManyImages {
        /// The page.
        path: PathBuf,
    },
    /// A `[[section]]` no listed page belongs to; it gets no sitemap.
    EmptySection {
        /// Its name.
        name: String,
        /// Its globs, as written.
        globs: Vec<String>,
    },
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
    /// A page whose canonical names the page itself in another form than the URL the
    /// host serves for it (`/en/b` for `en/b/index.html`, served at `/en/b/`): hosts
    /// answer that form with a redirect (or not at all), so the page is listed at the
    /// URL served.
    CanonicalOtherForm {
        /// The page.
        path: PathBuf,
        /// Its canonical URL, as written.
        canonical: String,
        /// The URL the host serves it at, listed.
        served: String,
        /// The host's file and line that redirect the canonical's form, when it is known.
        by: Option<String>,
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
            Warning::LanguagesPastCap { found, kept, first } => write!(
                f,
                "split = \"language\": the pages name {} languages, and the first {} get child sitemaps of their own; the pages of the rest ({} and after, by name) are in the children of no language",
                crate::text::thousands(*found),
                crate::text::thousands(*kept),
                crate::text::one_line(first),
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
                "{}: modified date '{value}' is not a date sitemapgen reads (expected RFC 3339 such as 2024-03-05T10:20:30Z, 2024-03-05 10:20:30 +0200, 2024-03-05 10:20:30 UTC or 2024-03-05, in the years 0001-9999); the next lastmod source is used",
                path.display()
            ),
            Warning::SourceRefused { path, why } => write!(
                f,
                "{}: front matter not read, {why}; its pages fall through to the next lastmod source",
                path.display()
            ),
            Warning::SourceCache { path, message } => write!(
                f,
                "{}: cannot keep the sources read ({message}), so the next run reads every source again; make the git directory writable",
                path.display()
            ),
            Warning::IgnoredLink {
                path,
                kind,
                value,
                reason,
            } => write!(f, "{}: {kind} '{value}' ignored: {reason}", path.display()),
            Warning::Git(why) => why.fmt(f),
            Warning::Source(why) => why.fmt(f),
            Warning::BuildTimeDates { .. } => self.build_time_dates(f),
            Warning::ShallowClone => f.write_str(
                "lastmod from git history: this is a shallow clone, so pages last changed before its history begins fall through to the next source; fetch the full history (actions/checkout: fetch-depth: 0)",
            ),
            Warning::StateDates { path, refused } => write!(
                f,
                "state file {}: {} page {} outside the years 0001-9999 (the first: '{}') ignored, as if not recorded; those pages are dated as new ones",
                path.display(),
                refused.count,
                if refused.count == 1 { "date" } else { "dates" },
                refused.first
            ),
            Warning::Robots(message) => write!(f, "{message}; robots.txt is not applied"),
            Warning::Host(message) => f.write_str(message),
            Warning::ImagesUnreadable { path, message } => write!(
                f,
                "{}: cannot read its images ({message}); listed without them",
                path.display()
            ),
            Warning::TooManyImages { path } => write!(
                f,
                "{}: more than {} images; the first {} are listed (move the others out of <main>, or exclude the page's images with a smaller page)",
                path.display(),
                crate::text::thousands(crate::images::MAX_PER_PAGE),
                crate::text::thousands(crate::images::MAX_PER_PAGE)
            ),
            Warning::EmptySection { name, globs } => write!(
                f,
                "section '{name}' holds no page (match = {globs:?}); globs match paths under public_dir such as \"blog/**\""
            ),
            Warning::ContentUnreadable { path, message } => write!(
                f,
                "{}: cannot read its content ({message}); the next lastmod source is used",
                path.display()
            ),
            Warning::CanonicalNotListed { .. }
            | Warning::CanonicalNotHere { .. }
            | Warning::CanonicalOtherForm { .. } => self.canonical(f),
        }
    }
}

impl Warning {
    /// The two canonical warnings, with what to do about each.
    fn canonical(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
            Warning::CanonicalOtherForm {
                path,
                canonical,
                served,
                by,
            } => write!(
                f,
                "{}: canonical {canonical} names this page in another form than the URL the host serves, {served}{}; listed as {served}: make the canonical the URL the host serves",
                path.display(),
                match by {
                    Some(by) => format!(" ({by} redirects that form)"),
                    None => String::new(),
                }
            ),
            _ => Ok(()),
        }
    }

    /// [`Warning::BuildTimeDates`], with what to do about it with or without `"source"`.
    fn build_time_dates(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Warning::BuildTimeDates {
            dated,
            pages,
            source,
        } = self
        else {
            return Ok(());
        };
        let fix = if *source {
            "check out the sources' full history (actions/checkout: fetch-depth: 0) and commit them; `sitemapgen -v` names each page \"source\" did not date"
        } else {
            "date them by their sources: put \"source\" first in lastmod with a [source] table (`sitemapgen init` writes both for your generator), or remove \"mtime\""
        };
        write!(
            f,
            "{dated} of {pages} pages are dated by the build (their files' mtimes): {fix}"
        )
    }
}

/// Why a page found on disk is not in the sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// One of our own views (`sitemap.html`), not a page of the site.
    View,
    /// The host's own files leave it out (`_headers`).
    Host(crate::host::HostLeftOut),
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
            LeftOut::View => f.write_str("sitemapgen's own view of the site (sitemap.html)"),
            LeftOut::Host(why) => why.fmt(f),
        }
    }
}

/// How many pages were left out, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Our own views (`sitemap.html`).
    pub views: usize,
}

impl LeftOutCounts {
    pub(crate) fn add(&mut self, why: &LeftOut) {
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
            LeftOut::View => &mut self.views,
            LeftOut::Host(crate::host::HostLeftOut::Noindex { .. }) => &mut self.noindex,
            LeftOut::Host(crate::host::HostLeftOut::Redirected { .. }) => &mut self.redirects,
        }
    }

    pub(crate) fn merge(&mut self, other: LeftOutCounts) {
        self.rules += other.rules;
        self.noindex += other.noindex;
        self.redirects += other.redirects;
        self.canonical += other.canonical;
        self.canonical_not_here += other.canonical_not_here;
        self.robots += other.robots;
        self.views += other.views;
    }

    /// All pages left out.
    pub fn total(&self) -> usize {
        self.rules
            + self.noindex
            + self.redirects
            + self.canonical
            + self.canonical_not_here
            + self.robots
            + self.views
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
            n(self.views, "sitemapgen view", "sitemapgen views"),
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
