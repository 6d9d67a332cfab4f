//! `sitemapgen submit`: after the deploy, tells IndexNow (Bing, Yandex, Naver, Seznam,
//! Yep) which URLs the last build added, updated or removed, from its change list.
//!
//! One POST of JSON `{host, key, keyLocation, urlList}` per 10,000 URLs; 429 and 5xx are
//! retried with backoff a bounded number of times; a redirect is not followed but fails
//! at once, naming where it points. Each accepted batch is recorded in the
//! change list, so running `submit` again sends nothing, and a run after a failure
//! resumes where it stopped. The requests go out only in a build with the `net`
//! feature (`send`); without it, a dry run still prints them.

use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;

use crate::changes::{self, ChangeFile};
use crate::fsutil::{At, IoError};

pub mod bing;
mod engines;
#[cfg(all(test, feature = "net"))]
mod fake;
pub mod google;
mod indexnow;
mod published;
#[cfg(feature = "net")]
mod send;

/// A build without the `net` feature sends nothing: [`submit`] refuses before this.
#[cfg(not(feature = "net"))]
mod send {
    use super::{Outcome, SubmitError, SubmitOptions};

    pub(super) fn send(
        _: &SubmitOptions,
        _: &mut crate::changes::ChangeFile,
        _: &str,
        _: usize,
    ) -> Result<Outcome, SubmitError> {
        Err(SubmitError::NoNetwork)
    }
}

pub use engines::{
    Engine, Net, Plan, Ready, SitemapReport, Told, ask_all, bing_engine, google_engine,
    requests_all, tell_all,
};
pub use indexnow::IndexNow;
pub use published::{listed, published};

/// A request as `--dry-run` prints it, every credential in it already replaced by
/// [`REDACTED`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, `PUT`.
    pub method: &'static str,
    /// The URL (a key in its query redacted).
    pub url: String,
    /// The header lines that matter to the reader (`Authorization: Bearer <redacted>`).
    pub headers: Vec<String>,
    /// The body, when there is one.
    pub body: Option<String>,
}

/// What a credential reads as wherever a request or an error is shown.
pub const REDACTED: &str = "<redacted>";

/// The environment, as `submit` reads it: a lookup, so that tests give their own.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// IndexNow takes at most this many URLs per request.
pub const BATCH: usize = 10_000;

/// Whether this build can send requests (the `net` feature): without it the change
/// list is still read and `dry_run` still prints the requests.
pub const NETWORK: bool = crate::http::NETWORK;

/// How `submit` runs.
#[derive(Debug, Clone)]
pub struct SubmitOptions {
    /// The change list (`.sitemap-changes.json` beside the state file).
    pub changes: PathBuf,
    /// The site's base URL; every URL submitted must be on its host.
    pub base_url: String,
    /// The IndexNow key.
    pub key: String,
    /// Where requests go.
    pub endpoint: String,
    /// First check that `{base_url}{key}.txt` serves the key.
    pub verify_key: bool,
    /// Build the requests, send nothing.
    pub dry_run: bool,
    /// Retries of a request answered 429 or 5xx (or not answered), after the first try.
    pub retries: u32,
    /// The first retry's wait, doubled for each next one.
    pub backoff: Duration,
}

/// What `submit` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The change list lists nothing.
    NothingChanged,
    /// Every batch was accepted earlier (at that time).
    AlreadySubmitted(Timestamp),
    /// The requests that would be sent: (endpoint, JSON body).
    DryRun(Vec<(String, String)>),
    /// Batches sent and accepted now, with the URLs they held.
    Sent {
        /// Requests accepted in this run.
        batches: usize,
        /// URLs in them.
        urls: usize,
    },
}

/// Why a submission failed; each says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// No change list, or one that cannot be read.
    #[error(
        "cannot read the change list {0}; run `sitemapgen build` with changes = true (or the \"content\" lastmod source) first"
    )]
    ChangeList(#[source] IoError),
    /// The record of accepted batches (in the change list) cannot be written.
    #[error("cannot record the submission in {0}")]
    Record(#[source] IoError),
    /// The change list names a URL on another host.
    #[error(
        "{url} is not on {host}, the base URL's host; IndexNow takes one host per request: rebuild with the right base_url"
    )]
    ForeignUrl {
        /// The URL.
        url: String,
        /// The base URL's host.
        host: String,
    },
    /// The key file is not deployed, or holds something else.
    #[error(
        "{url} {problem}; deploy public_dir/{key}.txt holding the key (indexnow_key_file = true writes it), then submit"
    )]
    KeyNotServed {
        /// The key file's URL.
        url: String,
        /// What was found there.
        problem: String,
        /// The key.
        key: String,
    },
    /// The endpoint refused the request.
    #[error("{endpoint} answered HTTP {status}: {meaning}")]
    Refused {
        /// The endpoint.
        endpoint: String,
        /// The status.
        status: u16,
        /// What it means and what to fix.
        meaning: String,
    },
    /// The endpoint answered with a redirect, which is not followed: an HTTP client
    /// turns a redirected POST into a GET without the URLs, and its answer would be taken
    /// for acceptance.
    #[error(
        "{endpoint} answered HTTP {status}, a redirect to {location}; nothing was submitted (redirects are not followed): set the endpoint (indexnow_endpoint, --endpoint) to where it points"
    )]
    Redirected {
        /// The endpoint.
        endpoint: String,
        /// The status (3xx).
        status: u16,
        /// Its `Location` header, or what stands for a missing one.
        location: String,
    },
    /// Google Search Console refused, or could not be set up.
    #[error(transparent)]
    Google(#[from] google::GoogleError),
    /// Bing Webmaster Tools refused, or could not be set up.
    #[error(transparent)]
    Bing(#[from] bing::BingError),
    /// This build has no network code (built without the `net` feature).
    #[error(
        "this build of sitemapgen has no network support; rebuild it with `--features net` to send, or use --dry-run to print the requests"
    )]
    NoNetwork,
    /// No answer after every retry.
    #[error("{endpoint}: {problem} after {tries} tries; try again later")]
    GaveUp {
        /// The endpoint.
        endpoint: String,
        /// The last status or network error.
        problem: String,
        /// Tries made.
        tries: u32,
    },
}

/// Submits the change list at `options.changes`.
pub fn submit(options: &SubmitOptions) -> Result<Outcome, SubmitError> {
    if !options.dry_run && !NETWORK {
        return Err(SubmitError::NoNetwork);
    }
    let mut file = changes::load(&options.changes)
        .at(&options.changes)
        .map_err(SubmitError::ChangeList)?;
    let base = url::Url::parse(&options.base_url).expect("a checked base URL");
    let host = base.host_str().unwrap_or_default().to_string();
    if let Some(url) = file.urls().find(|u| !on_host(u, &host)) {
        return Err(SubmitError::ForeignUrl {
            url: url.to_string(),
            host,
        });
    }
    // The bodies are made one at a time, as they are sent: a list of millions of URLs
    // is held once, not again as JSON.
    let batches = file.url_count().div_ceil(BATCH);
    if batches == 0 {
        return Ok(Outcome::NothingChanged);
    }
    let done = match &file.submitted {
        Some(s) if s.endpoint == options.endpoint => s.batches.min(batches),
        _ => 0,
    };
    if done == batches {
        let at = file.submitted.as_ref().map(|s| s.at).unwrap_or_default();
        return Ok(Outcome::AlreadySubmitted(at));
    }
    if options.dry_run {
        let requests = (done..batches)
            .map(|i| (options.endpoint.clone(), batch(&file, &host, options, i).0))
            .collect();
        return Ok(Outcome::DryRun(requests));
    }
    send::send(options, &mut file, &host, done)
}

/// The `i`th request's body, and how many URLs it holds.
fn batch(file: &ChangeFile, host: &str, options: &SubmitOptions, i: usize) -> (String, usize) {
    let urls = file.some_urls(i * BATCH, BATCH);
    (request_body(host, options, &urls), urls.len())
}

fn on_host(url: &str, host: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.host_str() == Some(host))
}

/// The JSON body IndexNow takes.
fn request_body(host: &str, options: &SubmitOptions, urls: &[&str]) -> String {
    serde_json::json!({
        "host": host,
        "key": options.key,
        "keyLocation": key_location(options),
        "urlList": urls,
    })
    .to_string()
}

fn key_location(options: &SubmitOptions) -> String {
    format!("{}{}.txt", options.base_url, options.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(not(feature = "net"))]
    fn a_build_without_network_refuses_to_send_but_still_dry_runs() {
        let dir = tempfile::tempdir().unwrap();
        let mut options = SubmitOptions {
            changes: dir.path().join(".sitemap-changes.json"),
            base_url: "https://example.org/".to_string(),
            key: "k".to_string(),
            endpoint: "https://api.indexnow.org/indexnow".to_string(),
            verify_key: true,
            dry_run: false,
            retries: 0,
            backoff: Duration::ZERO,
        };
        let err = submit(&options).unwrap_err();
        assert!(matches!(err, SubmitError::NoNetwork));
        assert!(err.to_string().contains("--features net"));
        options.dry_run = true;
        let err = submit(&options).unwrap_err();
        assert!(matches!(err, SubmitError::ChangeList { .. }), "{err}");
    }

    #[test]
    fn only_urls_on_the_base_host_are_sent() {
        assert!(on_host("https://example.org/a", "example.org"));
        assert!(!on_host("https://www.example.org/a", "example.org"));
        assert!(!on_host("not a url", "example.org"));
    }
}
