//! `sitemapgen check --live URL`: the deployed sitemap (or index, and its children) and
//! every URL it lists fetched as a crawler would, and what a search engine would see
//! reported: an answer other than 200 (a redirect with where it goes; none followed), a
//! noindex (`X-Robots-Tag` or the robots meta tag), a canonical link naming another URL,
//! an hreflang alternate that does not link back, a listed `lastmod` newer than the
//! page's own date, a URL on another host.
//!
//! Politely: robots.txt is read first and obeyed for our own user agent
//! (`sitemapgen`), requests go out at most [`LiveOptions::rate`] a second
//! (slower when robots.txt sets a `Crawl-delay`) over at most
//! [`LiveOptions::connections`] connections, 429 and 5xx are retried after the server's
//! `Retry-After`. What is read is bounded: a sitemap up to the protocol's 50 MiB, of a
//! page only its head (at most `crate::page::MAX_HELD` bytes).

#[cfg(feature = "net")]
mod fetch;
#[cfg(feature = "net")]
mod pages;
#[cfg(feature = "net")]
mod sitemaps;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use super::Severity;
use crate::http::{Retry, Timeouts};

/// How the live check runs.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LiveOptions {
    /// The deployed sitemap or sitemap index.
    pub sitemap: String,
    /// Connections to the host at once (and threads fetching).
    pub connections: usize,
    /// Requests a second at most; 0 for no limit.
    pub rate: f64,
    /// Each request's timeouts.
    pub timeouts: Timeouts,
    /// Retries of requests answered 429 or 5xx, or not answered.
    pub retry: Retry,
    /// The robots meta names and `X-Robots-Tag` agents whose noindex counts
    /// (`noindex_agents`).
    pub noindex_agents: Vec<String>,
}

/// Connections to the host at once, by default.
pub const CONNECTIONS: usize = 4;

/// Requests a second at most, by default.
pub const RATE: f64 = 10.0;

impl LiveOptions {
    /// The defaults, for the sitemap at `sitemap`.
    pub fn new(sitemap: String) -> LiveOptions {
        LiveOptions {
            sitemap,
            connections: CONNECTIONS,
            rate: RATE,
            timeouts: Timeouts::within(Duration::from_secs(30)),
            retry: Retry {
                retries: 2,
                backoff: Duration::from_secs(1),
            },
            noindex_agents: vec!["robots".to_string()],
        }
    }
}

/// What the check has done so far, for a progress bar.
#[derive(Debug, Default)]
pub struct LiveProgress {
    /// URLs to fetch: known once the sitemaps are read.
    pub urls: AtomicUsize,
    /// URLs fetched.
    pub done: AtomicUsize,
}

/// Why the check could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The sitemap's URL is not an http(s) URL.
    #[error(
        "--live {url}: {problem}; give the deployed sitemap's URL, e.g. https://example.org/sitemap.xml"
    )]
    BadUrl {
        /// As given.
        url: String,
        /// What is wrong with it.
        problem: String,
    },
    /// robots.txt answered 5xx or not at all: RFC 9309 has crawlers take the whole site
    /// as disallowed then.
    #[error(
        "{url} {problem}: crawlers take the whole site as disallowed until it answers (RFC 9309); fix the server and check again"
    )]
    Robots {
        /// robots.txt's URL.
        url: String,
        /// What it answered.
        problem: String,
    },
    /// The sitemap given cannot be fetched or read.
    #[error("{url} {problem}")]
    Sitemap {
        /// Its URL.
        url: String,
        /// What went wrong, and the fix.
        problem: String,
    },
    /// This build has no network code.
    #[error("this build of sitemapgen has no network support; rebuild it with `--features net`")]
    NoNetwork,
}

/// What is wrong with one listed URL (or one child sitemap), as a search engine sees it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LiveKind {
    /// Answered with another status than 200; `location` for a redirect.
    #[error("{}", status_text(*status, location.as_deref()))]
    Status {
        /// The status.
        status: u16,
        /// Where a redirect points, as sent.
        location: Option<String>,
    },
    /// Not answered: a timeout, a connection refused or reset.
    #[error("not answered ({problem})")]
    Unanswered {
        /// What happened.
        problem: String,
    },
    /// Noindex, by the `X-Robots-Tag` header (its value) or the robots meta tag (`None`).
    #[error("{}", noindex_text(header.as_deref()))]
    Noindex {
        /// The header's value, or `None` for the meta tag.
        header: Option<String>,
    },
    /// Its canonical link names another URL.
    #[error(
        "names {canonical} as its canonical URL: list that URL instead, or point the canonical link at this one"
    )]
    Canonical {
        /// The URL it names, resolved.
        canonical: String,
    },
    /// It names `alternate` in hreflang, which does not name it back.
    #[error(
        "names {alternate} as an hreflang alternate, which does not name it back: search engines ignore links that do not go both ways"
    )]
    NoReturnLink {
        /// The alternate's URL.
        alternate: String,
    },
    /// The listed `lastmod` is newer than the date the page gives.
    #[error(
        "is listed with lastmod {listed}, newer than the page's own date {page}: date the sitemap by the page"
    )]
    LastmodNewer {
        /// As listed.
        listed: String,
        /// As the page says.
        page: String,
    },
    /// On another host than the sitemap's: not fetched.
    #[error("is not on {host}, the sitemap's host: search engines ignore it (not fetched)")]
    OtherHost {
        /// The sitemap's host.
        host: String,
    },
    /// robots.txt disallows it for our user agent: not fetched.
    #[error(
        "is disallowed by robots.txt for {} (not fetched): allow it, or leave it out",
        crate::http::ROBOTS_AGENT
    )]
    Disallowed,
    /// robots.txt asks for a longer `Crawl-delay` than is waited.
    #[error(
        "asks for a Crawl-delay of {asked} s; {waited} s were waited between requests instead, the most sitemapgen waits: lower it, search engines cap it too"
    )]
    CrawlDelay {
        /// The delay asked, in seconds, as a number is written.
        asked: String,
        /// The delay waited, in seconds.
        waited: u64,
    },
    /// A child sitemap that cannot be read, or an index inside an index.
    #[error("{problem}")]
    Sitemap {
        /// What went wrong.
        problem: String,
    },
}

impl LiveKind {
    /// How much it matters.
    pub fn severity(&self) -> Severity {
        match self {
            LiveKind::NoReturnLink { .. } | LiveKind::LastmodNewer { .. } => Severity::Warning,
            LiveKind::Disallowed | LiveKind::CrawlDelay { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// A short name for JSON: `status`, `unanswered`, `noindex`, ...
    pub fn name(&self) -> &'static str {
        match self {
            LiveKind::Status { .. } => "status",
            LiveKind::Unanswered { .. } => "unanswered",
            LiveKind::Noindex { .. } => "noindex",
            LiveKind::Canonical { .. } => "canonical",
            LiveKind::NoReturnLink { .. } => "hreflang_return",
            LiveKind::LastmodNewer { .. } => "lastmod_newer",
            LiveKind::OtherHost { .. } => "other_host",
            LiveKind::Disallowed => "robots_disallowed",
            LiveKind::CrawlDelay { .. } => "crawl_delay",
            LiveKind::Sitemap { .. } => "sitemap",
        }
    }
}

/// What a status other than 200 means, and what to do.
fn status_text(status: u16, location: Option<&str>) -> String {
    match location {
        Some(to) => {
            format!("answered HTTP {status}, a redirect to {to}: list the URL it points to instead")
        }
        None if crate::http::retryable(status) => format!(
            "answered HTTP {status}, after every retry: search engines take it as a failing server; fix the server (or its rate limit) and check again"
        ),
        None => format!("answered HTTP {status}: list only URLs served with 200, or fix the page"),
    }
}

/// What says noindex, and what to drop.
fn noindex_text(header: Option<&str>) -> String {
    match header {
        Some(v) => format!(
            "is noindex by its X-Robots-Tag header ({v}): leave it out of the sitemap, or drop the header"
        ),
        None => "is noindex by its robots meta tag: leave it out of the sitemap, or drop the tag"
            .to_string(),
    }
}

/// One finding: the URL, where it is listed, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LiveProblem {
    /// The URL (a page, or a child sitemap).
    pub url: String,
    /// The sitemap listing it.
    pub sitemap: String,
    /// The line it is listed on (0 for none).
    pub line: u64,
    /// What is wrong.
    pub kind: LiveKind,
}

impl fmt::Display for LiveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = self.kind.severity();
        match self.line {
            0 => write!(f, "{}: {severity}: ", self.sitemap)?,
            line => write!(f, "{}:{line}: {severity}: ", self.sitemap)?,
        }
        write!(f, "{} {}", self.url, self.kind)
    }
}

/// What the live check found.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct LiveReport {
    /// The findings, in the sitemaps' order.
    pub problems: Vec<LiveProblem>,
    /// Sitemaps read (the index and its children).
    pub sitemaps: usize,
    /// URLs listed (each once).
    pub urls: usize,
    /// URLs fetched.
    pub fetched: usize,
    /// Requests tried again (429, 5xx, no answer).
    pub retried: usize,
}

impl LiveReport {
    /// Findings that are errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// Findings that are warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, severity: Severity) -> usize {
        let of = |p: &&LiveProblem| p.kind.severity() == severity;
        self.problems.iter().filter(of).count()
    }
}

/// Runs the live check, counting its work in `progress`.
pub fn check_live(options: &LiveOptions, progress: &LiveProgress) -> Result<LiveReport, LiveError> {
    #[cfg(feature = "net")]
    {
        run(options, progress)
    }
    #[cfg(not(feature = "net"))]
    {
        let _ = (options, progress);
        Err(LiveError::NoNetwork)
    }
}

/// The check: robots.txt, the sitemaps, the pages, then what is seen across pages.
#[cfg(feature = "net")]
fn run(options: &LiveOptions, progress: &LiveProgress) -> Result<LiveReport, LiveError> {
    let sitemap = url::Url::parse(&options.sitemap)
        .map_err(|e| e.to_string())
        .and_then(|u| match u.scheme() {
            "http" | "https" if u.host_str().is_some() => Ok(u),
            other => Err(format!("{other}: is not an http(s) URL")),
        })
        .map_err(|problem| LiveError::BadUrl {
            url: options.sitemap.clone(),
            problem,
        })?;
    let fetcher = fetch::Fetcher::new(options);
    let robots = fetcher.robots(&sitemap)?;
    let fetcher = fetcher.paced(robots.as_ref());
    let mut report = LiveReport::default();
    if let Some(robots) = &robots
        && let Some(asked) = robots.delay()
        && f64::from(asked) > fetch::MAX_CRAWL_DELAY.as_secs_f64()
    {
        report.problems.push(LiveProblem {
            url: crate::text::slashed(&robots.path),
            sitemap: crate::text::slashed(&robots.path),
            line: 0,
            kind: LiveKind::CrawlDelay {
                asked: asked.to_string(),
                waited: fetch::MAX_CRAWL_DELAY.as_secs(),
            },
        });
    }
    let listed = sitemaps::read(&fetcher, &sitemap, &mut report)?;
    let robots = robots.as_ref();
    let to_fetch = pages::sort_out(&listed, &sitemap, robots, &mut report);
    progress
        .urls
        .store(to_fetch.len(), std::sync::atomic::Ordering::Relaxed);
    let seen = pages::fetch_all(&fetcher, &listed, &to_fetch, options, progress);
    report.fetched = to_fetch.len();
    pages::report(&listed, &to_fetch, seen, &mut report);
    report.retried = fetcher.retried();
    let order = |p: &LiveProblem| (p.sitemap_order(&listed), p.line, p.kind.to_string());
    report.problems.sort_by_cached_key(order);
    Ok(report)
}

#[cfg(feature = "net")]
impl LiveProblem {
    /// Its sitemap's place among those read, for the report's order.
    fn sitemap_order(&self, listed: &sitemaps::Listed) -> usize {
        listed.sitemap_order(&self.sitemap)
    }
}
