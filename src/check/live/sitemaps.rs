//! The deployed sitemap read: a sitemap (XML, gzipped or not, or text), or an index and
//! the children it names on its host, each up to the protocol's limits.

use std::collections::HashSet;
use std::io::Read;

use super::fetch::{Fetcher, unanswered};
use super::{LiveError, LiveKind, LiveProblem, LiveReport};
use crate::sitemap::read::{Document, Root};
use crate::sitemap::{PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES};

/// One URL listed: where, and its `lastmod`.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub loc: String,
    pub lastmod: Option<String>,
    /// Its sitemap, an index into [`Listed::sitemaps`].
    pub sitemap: usize,
    pub line: u64,
}

/// Every URL the sitemaps list, each once, and the sitemaps read.
#[derive(Debug, Default)]
pub(super) struct Listed {
    pub sitemaps: Vec<String>,
    pub entries: Vec<Entry>,
}

impl Listed {
    /// The place of the sitemap at `url` among those read (past them for another).
    pub(super) fn sitemap_order(&self, url: &str) -> usize {
        let at = self.sitemaps.iter().position(|s| s == url);
        at.unwrap_or(self.sitemaps.len())
    }

    /// A finding on `entry`.
    pub(super) fn problem(&self, entry: &Entry, kind: LiveKind) -> LiveProblem {
        LiveProblem {
            url: entry.loc.clone(),
            sitemap: self.sitemaps[entry.sitemap].clone(),
            line: entry.line,
            kind,
        }
    }
}

/// Reads the sitemap at `url`, following an index to its children; a child that cannot
/// be read is a finding, the sitemap given one an error.
pub(super) fn read(
    fetcher: &Fetcher,
    url: &url::Url,
    report: &mut LiveReport,
) -> Result<Listed, LiveError> {
    let mut listed = Listed::default();
    let bytes = fetch(fetcher, url.as_str()).map_err(|problem| LiveError::Sitemap {
        url: url.to_string(),
        problem,
    })?;
    listed.sitemaps.push(url.to_string());
    let mut seen = HashSet::new();
    let children = match read_one(&bytes, url, 0, &mut listed, &mut seen) {
        Ok(children) => children,
        Err(problem) => {
            return Err(LiveError::Sitemap {
                url: url.to_string(),
                problem,
            });
        }
    };
    for child in children {
        if child.loc.parse::<url::Url>().ok().and_then(|u| host_of(&u)) != host_of(url) {
            let host = host_of(url).unwrap_or_default();
            report
                .problems
                .push(listed.problem(&child, LiveKind::OtherHost { host }));
            continue;
        }
        read_child(fetcher, &child, &mut listed, &mut seen, report);
    }
    report.sitemaps = listed.sitemaps.len();
    report.urls = listed.entries.len();
    Ok(listed)
}

/// Reads a child an index names; one that cannot be read, or is an index, is a finding.
fn read_child(
    fetcher: &Fetcher,
    child: &Entry,
    listed: &mut Listed,
    seen: &mut HashSet<String>,
    report: &mut LiveReport,
) {
    let url: url::Url = child.loc.parse().expect("checked by the caller");
    let read = fetch(fetcher, url.as_str()).and_then(|bytes| {
        let at = listed.sitemaps.len();
        listed.sitemaps.push(url.to_string());
        match read_one(&bytes, &url, at, listed, seen)? {
            nested if nested.is_empty() => Ok(()),
            _ => Err("is a sitemap index inside an index: search engines do not follow it; list its children in the top index".to_string()),
        }
    });
    if let Err(problem) = read {
        let kind = LiveKind::Sitemap { problem };
        report.problems.push(listed.problem(child, kind));
    }
}

/// A sitemap's bytes, gunzipped, or what went wrong.
fn fetch(fetcher: &Fetcher, url: &str) -> Result<Vec<u8>, String> {
    let tried = fetcher.get(url);
    let mut response = tried
        .result
        .map_err(|e| format!("was not answered ({})", unanswered(&e)))?;
    let status = response.status().as_u16();
    if status != 200 {
        let kind = LiveKind::Status {
            status,
            location: crate::http::location(&response),
        };
        return Err(kind.to_string());
    }
    let limit = PROTOCOL_MAX_BYTES as u64;
    let too_large = || format!("is larger than the protocol's {} bytes: split it", limit);
    let bytes = match response.body_mut().with_config().limit(limit).read_to_vec() {
        Ok(bytes) => bytes,
        Err(ureq::Error::BodyExceedsLimit(_)) => return Err(too_large()),
        Err(e) => return Err(format!("cannot be read ({})", unanswered(&e))),
    };
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .take(limit + 1)
        .read_to_end(&mut plain)
        .map_err(|e| format!("cannot be gunzipped ({e})"))?;
    if plain.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(plain)
}

/// Reads one sitemap's URLs into `listed` (each URL once over the run); returns the
/// children when it is an index.
fn read_one(
    bytes: &[u8],
    url: &url::Url,
    at: usize,
    listed: &mut Listed,
    seen: &mut HashSet<String>,
) -> Result<Vec<Entry>, String> {
    if url.path().ends_with(".txt") {
        read_text(bytes, at, listed, seen);
        return Ok(Vec::new());
    }
    let mut document = Document::new(bytes);
    let root = document
        .root()
        .map_err(|e| format!("is not readable XML ({e})"))?;
    let index = match root {
        Some(Root::Urlset) => false,
        Some(Root::Index) => true,
        Some(Root::Other(name)) => {
            return Err(format!(
                "is not a sitemap (its root element is <{name}>, not <urlset> or <sitemapindex>)"
            ));
        }
        None => return Err("is not a sitemap (no XML element)".to_string()),
    };
    let mut children = Vec::new();
    for (n, entry) in document.enumerate() {
        let entry = entry.map_err(|e| format!("is not readable XML ({e})"))?;
        if n == PROTOCOL_MAX_ENTRIES {
            return Err(format!(
                "lists more than the protocol's {PROTOCOL_MAX_ENTRIES} entries: split it (the first were checked)"
            ));
        }
        let loc = entry.loc.as_str().trim().to_string();
        let lastmod = entry.lastmod.map(|l| l.trim().to_string());
        let entry = Entry {
            loc,
            lastmod,
            sitemap: at,
            line: entry.line,
        };
        if index {
            children.push(entry);
        } else if seen.insert(entry.loc.clone()) {
            listed.entries.push(entry);
        }
    }
    Ok(children)
}

/// A text sitemap: a URL a line.
fn read_text(bytes: &[u8], at: usize, listed: &mut Listed, seen: &mut HashSet<String>) {
    let text = String::from_utf8_lossy(bytes);
    for (n, line) in text.lines().enumerate().take(PROTOCOL_MAX_ENTRIES) {
        let loc = line.trim();
        if !loc.is_empty() && seen.insert(loc.to_string()) {
            listed.entries.push(Entry {
                loc: loc.to_string(),
                lastmod: None,
                sitemap: at,
                line: n as u64 + 1,
            });
        }
    }
}

/// A URL's host and port, as a crawler tells sites apart.
pub(super) fn host_of(url: &url::Url) -> Option<String> {
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    })
}
