//! The listed pages: which are fetched, fetching them (their heads only) on a few
//! threads, and what is reported of each and across them.

use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::fetch::{Fetcher, unanswered};
use super::sitemaps::{Entry, Listed, host_of};
use super::{LiveKind, LiveOptions, LiveProgress, LiveReport};
use crate::page::{HeadOptions, MAX_HELD, Reader, Wants};
use crate::robots::Robots;

/// What a page's fetch gave.
#[derive(Debug)]
pub(super) enum Seen {
    /// Answered 200: what its header and head say.
    Page(Page),
    /// Answered with another status.
    Status {
        status: u16,
        location: Option<String>,
    },
    /// Not answered.
    Unanswered(String),
}

/// What a page served with 200 says of itself; URLs resolved against its own.
#[derive(Debug, Default)]
pub(super) struct Page {
    /// The `X-Robots-Tag` value that makes it noindex.
    pub noindex_header: Option<String>,
    pub noindex_meta: bool,
    pub canonical: Option<String>,
    pub alternates: Vec<String>,
    pub modified: Option<String>,
}

/// The entries to fetch (indexes into `listed.entries`); a URL on another host, not a
/// URL, or disallowed by robots.txt is reported instead.
pub(super) fn sort_out(
    listed: &Listed,
    sitemap: &url::Url,
    robots: Option<&Robots>,
    report: &mut LiveReport,
) -> Vec<usize> {
    let host = host_of(sitemap).unwrap_or_default();
    let mut fetch = Vec::new();
    for (i, entry) in listed.entries.iter().enumerate() {
        let kind = match url::Url::parse(&entry.loc) {
            Err(e) => LiveKind::Sitemap {
                problem: format!("is not a URL ({e})"),
            },
            Ok(url) if host_of(&url).as_deref() != Some(&host) => {
                LiveKind::OtherHost { host: host.clone() }
            }
            Ok(url) if robots.is_some_and(|r| !r.allows(url.as_str())) => LiveKind::Disallowed,
            Ok(_) => {
                fetch.push(i);
                continue;
            }
        };
        report.problems.push(listed.problem(entry, kind));
    }
    fetch
}

/// Fetches the entries `to_fetch` on `options.connections` threads; what each gave, in
/// `to_fetch`'s order.
pub(super) fn fetch_all(
    fetcher: &Fetcher,
    listed: &Listed,
    to_fetch: &[usize],
    options: &LiveOptions,
    progress: &LiveProgress,
) -> Vec<Seen> {
    let next = AtomicUsize::new(0);
    let wants = Wants {
        head: Some(HeadOptions {
            noindex_agents: options.noindex_agents.clone(),
            about: false,
        }),
        ..Wants::default()
    };
    let mut seen: Vec<(usize, Seen)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.connections.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut reader = Reader::new(&wants);
                    let mut mine = Vec::new();
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&i) = to_fetch.get(n) else { break };
                        let entry = &listed.entries[i];
                        mine.push((n, fetch_page(fetcher, &mut reader, entry, options)));
                        progress.done.fetch_add(1, Ordering::Relaxed);
                    }
                    mine
                })
            })
            .collect();
        let joined = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"));
        joined.collect()
    });
    seen.sort_unstable_by_key(|(n, _)| *n);
    seen.into_iter().map(|(_, s)| s).collect()
}

/// Fetches one page: its status, its `X-Robots-Tag`, and (HTML) its head.
fn fetch_page(
    fetcher: &Fetcher,
    reader: &mut Reader,
    entry: &Entry,
    options: &LiveOptions,
) -> Seen {
    let mut response = match fetcher.get(&entry.loc).result {
        Ok(response) => response,
        Err(e) => return Seen::Unanswered(unanswered(&e)),
    };
    let status = response.status().as_u16();
    if status != 200 {
        // A relative `Location` is shown resolved, as a crawler follows it.
        let location = crate::http::location(&response).map(|to| {
            let resolved = url::Url::parse(&entry.loc).and_then(|base| base.join(&to));
            resolved.map_or(to, String::from)
        });
        return Seen::Status { status, location };
    }
    let headers = response.headers();
    let noindex_header = (headers.get_all("x-robots-tag").iter())
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .find(|v| crate::page::robots_tag_says_noindex(v, &options.noindex_agents));
    let html = headers
        .get(ureq::http::header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_none_or(|t| t.to_ascii_lowercase().contains("html"));
    let mut page = Page {
        noindex_header,
        ..Page::default()
    };
    if html {
        // Only the head is read, and at most this much of the page.
        let body = response.body_mut().as_reader().take(MAX_HELD as u64);
        match reader.read(body, None, None) {
            Ok(read) => page.take_head(read.head, &entry.loc),
            Err(e) => return Seen::Unanswered(unanswered(&ureq::Error::Io(e))),
        }
    }
    Seen::Page(page)
}

impl Page {
    /// Keeps what the head says, its URLs resolved against `url`.
    fn take_head(&mut self, head: crate::page::Head, url: &str) {
        let base = url::Url::parse(url).ok();
        let resolve = |href: &str| match &base {
            Some(base) => base.join(href.trim()).map(String::from).ok(),
            None => None,
        };
        self.noindex_meta = head.noindex;
        self.canonical = head.canonical.as_deref().and_then(resolve);
        self.alternates = (head.alternates.iter())
            .filter_map(|a| resolve(&a.href))
            .collect();
        self.modified = head.modified;
    }
}

/// Reports each fetched page's findings, then the hreflang links that do not go both
/// ways among them.
pub(super) fn report(
    listed: &Listed,
    to_fetch: &[usize],
    seen: Vec<Seen>,
    report: &mut LiveReport,
) {
    let mut pages: HashMap<String, (usize, Page)> = HashMap::new();
    for (&i, seen) in to_fetch.iter().zip(seen) {
        let entry = &listed.entries[i];
        let page = match seen {
            Seen::Page(page) => page,
            Seen::Status { status, location } => {
                let kind = LiveKind::Status { status, location };
                report.problems.push(listed.problem(entry, kind));
                continue;
            }
            Seen::Unanswered(problem) => {
                let kind = LiveKind::Unanswered { problem };
                report.problems.push(listed.problem(entry, kind));
                continue;
            }
        };
        for kind in page_findings(entry, &page) {
            report.problems.push(listed.problem(entry, kind));
        }
        pages.insert(normal(&entry.loc), (i, page));
    }
    for (url, (i, page)) in &pages {
        for alternate in &page.alternates {
            let alternate = normal(alternate);
            let Some((_, other)) = pages.get(&alternate).filter(|_| alternate != *url) else {
                continue;
            };
            if !other.alternates.iter().any(|a| normal(a) == *url) {
                let kind = LiveKind::NoReturnLink { alternate };
                report
                    .problems
                    .push(listed.problem(&listed.entries[*i], kind));
            }
        }
    }
}

/// What is wrong with one page served with 200.
fn page_findings(entry: &Entry, page: &Page) -> Vec<LiveKind> {
    let mut found = Vec::new();
    if let Some(value) = &page.noindex_header {
        found.push(LiveKind::Noindex {
            header: Some(value.clone()),
        });
    } else if page.noindex_meta {
        found.push(LiveKind::Noindex { header: None });
    }
    if let Some(canonical) = &page.canonical
        && normal(canonical) != normal(&entry.loc)
    {
        found.push(LiveKind::Canonical {
            canonical: canonical.clone(),
        });
    }
    if let Some(kind) = lastmod_newer(entry.lastmod.as_deref(), page.modified.as_deref()) {
        found.push(kind);
    }
    found
}

/// A listed `lastmod` later than the page's own date.
pub(super) fn lastmod_newer(listed: Option<&str>, page: Option<&str>) -> Option<LiveKind> {
    let (listed, page) = (listed?, page?);
    let listed_at = crate::w3c::parse(listed)?;
    let page_at = crate::lastmod::parse_date(page)?;
    (listed_at > page_at).then(|| LiveKind::LastmodNewer {
        listed: listed.to_string(),
        page: page.to_string(),
    })
}

/// A URL as `url` writes it (its host lower-cased, its path's escapes made one form),
/// so two spellings of one URL compare equal.
fn normal(url: &str) -> String {
    url::Url::parse(url.trim()).map_or_else(|_| url.to_string(), String::from)
}
