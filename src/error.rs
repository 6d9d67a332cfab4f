//! What a run can go wrong with, and why a page is not in the sitemap.

use std::path::PathBuf;

use crate::config::ConfigError;
use crate::lastmod::git::GitUnavailable;
use crate::lastmod::state::StateError;
use crate::robots::RobotsError;
use crate::scan::ScanWarning;
use crate::sitemap::WriteError;
use crate::text;

mod left_out;

pub use left_out::{LeftOut, LeftOutCounts, Reason};

/// A failed run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad configuration or flags.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The public directory holds no pages at all.
    #[error(
        "no pages found under {} - was the site built?",
        crate::text::path(dir)
    )]
    NoPages {
        /// The public directory.
        dir: PathBuf,
    },
    /// Every page was left out, and a sitemap may not be empty.
    #[error(
        "{} under {} {} left out ({}); a sitemap needs at least one URL - {}",
        all_pages(counts.total()),
        text::path(dir),
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// The walk could not read something.
    #[error("{0}")]
    Scan(ScanWarning),
    /// A setting of the config file that does nothing this run.
    #[error("{0}")]
    Config(crate::config::Unused),
    /// A page whose URL reaches the protocol's 2,048-character limit.
    #[error(
        "{}: skipped, its URL is {len} characters (the protocol allows fewer than 2,048); shorten the path",
        text::path(path)
    )]
    UrlTooLong {
        /// The page's path, public directory included.
        path: PathBuf,
        /// The URL's length.
        len: usize,
    },
    /// More languages than get child sitemaps of their own (`split = "language"`): the
    /// pages of the rest are in the children of no language.
    #[error("split = \"language\": the pages name {} languages, and the first {} get child sitemaps of their own; the pages of the rest ({} and after, by name) are in the children of no language", text::thousands(*found), text::thousands(*kept), text::one_line(first))]
    LanguagesPastCap {
        /// How many languages the pages name.
        found: usize,
        /// How many get children of their own.
        kept: usize,
        /// The first left without children of its own (the others follow it by name).
        first: String,
    },
    /// Two files that map to one URL; the first in byte order of the path is kept.
    #[error(
        "{}: skipped, it maps to {url} like {} (check clean_urls and trailing_slash)",
        text::path(dropped),
        text::path(kept)
    )]
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
    #[error(
        "{}: skipped, it changed during the run ({message}); run again once the site is built",
        text::path(path)
    )]
    Vanished {
        /// The page.
        path: PathBuf,
        /// What it is now: the OS error, or "a directory".
        message: String,
    },
    /// A page whose head could not be read; it is listed as if its head said nothing.
    #[error(
        "{}: cannot read its head ({message}); listed without it",
        text::path(path)
    )]
    HeadUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A declared modified date that does not parse; the next `lastmod` source is used.
    #[error(
        "{}: modified date '{value}' is not a date sitemapgen reads (expected RFC 3339 such as 2024-03-05T10:20:30Z, 2024-03-05 10:20:30 +0200, 2024-03-05 10:20:30 UTC or 2024-03-05, in the years 0001-9999); the next lastmod source is used",
        text::path(path)
    )]
    UnparseableDate {
        /// The page.
        path: PathBuf,
        /// The date as written.
        value: String,
    },
    /// A source whose front matter breaks a bound; it dates no page.
    #[error(
        "{}: front matter not read, {why}; its pages fall through to the next lastmod source",
        text::path(path)
    )]
    SourceRefused {
        /// The source, relative to the project.
        path: PathBuf,
        /// The bound it breaks.
        why: String,
    },
    /// The cache of the sources read could not be written: the next run reads them all.
    #[error(
        "{}: cannot keep the sources read ({message}), so the next run reads every source again; make the git directory writable",
        text::path(path)
    )]
    SourceCache {
        /// The cache file, in the project's git directory.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A canonical or hreflang link that is ignored.
    #[error("{}: {kind} '{value}' ignored: {reason}", text::path(path))]
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
    #[error("{0}")]
    Git(GitUnavailable),
    /// The `"git"` source reads a shallow clone: older pages fall through.
    #[error(
        "lastmod from git history: this is a shallow clone, so pages last changed before its history begins fall through to the next source; fetch the full history (actions/checkout: fetch-depth: 0)"
    )]
    ShallowClone,
    /// The state file's records whose dates no sitemap can hold, left out.
    #[error("state file {}: {} page {} outside the years 0001-9999 (the first: '{}') ignored, as if not recorded; those pages are dated as new ones", text::path(path), refused.count, if refused.count == 1 { "date" } else { "dates" }, refused.first)]
    StateDates {
        /// The state file.
        path: PathBuf,
        /// How many, and the first date.
        refused: crate::lastmod::state::RefusedDates,
    },
    /// The `"source"` lastmod source cannot be used, or only in part.
    #[error("{0}")]
    Source(crate::lastmod::source::SourceUnavailable),
    /// In CI, most pages are dated by the build: their files' mtimes, or the run's start.
    #[error("{dated} of {pages} pages are dated by the build (their files' mtimes): {}", build_time_fix(*by_source))]
    BuildTimeDates {
        /// Pages dated so.
        dated: usize,
        /// Pages listed.
        pages: usize,
        /// Whether the `"source"` source is set up (it then dated too few).
        by_source: bool,
    },
    /// The site's robots.txt cannot be read or parsed, so it is not applied.
    #[error("{0}; robots.txt is not applied")]
    Robots(String),
    /// A host file (`_headers`, `vercel.json`, ...) or one of its rules could not be read;
    /// the run goes on without it.
    #[error("{0}")]
    Host(crate::host::HostWarning),
    /// A page whose images could not be read; it is listed without them.
    #[error(
        "{}: cannot read its images ({message}); listed without them",
        text::path(path)
    )]
    ImagesUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A page with more images than one entry lists.
    #[error("{}: more than {max} images; the first {max} are listed (move the others out of <main>, or exclude the page's images with a smaller page)", text::path(path), max = text::thousands(crate::images::MAX_PER_PAGE))]
    TooManyImages {
        /// The page.
        path: PathBuf,
    },
    /// A `[[section]]` no listed page belongs to; it gets no sitemap.
    #[error(
        "section '{name}' holds no page (match = {globs:?}); globs match paths under public_dir such as \"blog/**\""
    )]
    EmptySection {
        /// Its name.
        name: String,
        /// Its globs, as written.
        globs: Vec<String>,
    },
    /// A page whose content could not be read for its fingerprint.
    #[error(
        "{}: cannot read its content ({message}); the next lastmod source is used",
        text::path(path)
    )]
    ContentUnreadable {
        /// The page.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// A page left out for its canonical URL, a page of this site that is itself not
    /// listed, so neither is.
    #[error(
        "{}: left out for its canonical, a page that is not in the sitemap either: page {url}, canonical {canonical} (fix the canonical link, or list its target)",
        text::path(path)
    )]
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
    #[error("{}: canonical {canonical} names this page in another form than the URL the host serves, {served}{}; listed as {served}: make the canonical the URL the host serves", text::path(path), redirected_by(by.as_deref()))]
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
    #[error("{}: left out for its canonical, which {}: page {url}, canonical {canonical} ({})", text::path(path), not_here(*other_host).0, not_here(*other_host).1)]
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

/// What to do when the build dated most pages, with or without `"source"` set up.
fn build_time_fix(by_source: bool) -> &'static str {
    if by_source {
        "check out the sources' full history (actions/checkout: fetch-depth: 0) and commit them; `sitemapgen -v` names each page \"source\" did not date"
    } else {
        "date them by their sources: put \"source\" first in lastmod with a [source] table (`sitemapgen init` writes both for your generator), or remove \"mtime\""
    }
}

/// Where a canonical that names no page of this site points, and what to do about it.
fn not_here(other_host: bool) -> (&'static str, &'static str) {
    if other_host {
        (
            "is on another host than base_url",
            "check base_url and the URL the site was built for, or set respect_canonical = false",
        )
    } else {
        (
            "names no page of this site",
            "fix the canonical link, or set respect_canonical = false",
        )
    }
}

/// ` (vercel.json:3 redirects that form)`, when the host's rule is known.
fn redirected_by(by: Option<&str>) -> String {
    by.map(|by| format!(" ({by} redirects that form)"))
        .unwrap_or_default()
}
