//! `sitemapgen submit`: after the deploy, tells IndexNow (Bing, Yandex, Naver, Seznam,
//! Yep) which URLs the last build added, updated or removed, from its change list.
//!
//! One POST of JSON `{host, key, keyLocation, urlList}` per 10,000 URLs; 429 and 5xx are
//! retried with backoff a bounded number of times. Each accepted batch is recorded in the
//! change list, so running `submit` again sends nothing, and a run after a failure
//! resumes where it stopped.

use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;

use crate::changes::{self, ChangeFile, Submitted};

/// IndexNow takes at most this many URLs per request.
pub const BATCH: usize = 10_000;

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
    #[error("cannot read the change list {}: {source}; run `sitemapgen build` with changes = true (or the \"content\" lastmod source) first", path.display())]
    ChangeList {
        /// The change list.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The record of accepted batches cannot be written.
    #[error("cannot record the submission in {}: {source}", path.display())]
    Record {
        /// The change list.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
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
    let mut file = changes::load(&options.changes).map_err(|source| SubmitError::ChangeList {
        path: options.changes.clone(),
        source,
    })?;
    let base = url::Url::parse(&options.base_url).expect("a checked base URL");
    let host = base.host_str().unwrap_or_default().to_string();
    let urls = file.urls();
    if let Some(url) = urls.iter().find(|u| !on_host(u, &host)) {
        return Err(SubmitError::ForeignUrl {
            url: url.to_string(),
            host,
        });
    }
    // Each request's body, with how many URLs it holds.
    let batches: Vec<(String, usize)> = urls
        .chunks(BATCH)
        .map(|chunk| (request_body(&host, options, chunk), chunk.len()))
        .collect();
    if batches.is_empty() {
        return Ok(Outcome::NothingChanged);
    }
    let done = match &file.submitted {
        Some(s) if s.endpoint == options.endpoint => s.batches.min(batches.len()),
        _ => 0,
    };
    if done == batches.len() {
        let at = file.submitted.as_ref().map(|s| s.at).unwrap_or_default();
        return Ok(Outcome::AlreadySubmitted(at));
    }
    if options.dry_run {
        let requests = batches[done..]
            .iter()
            .map(|(body, _)| (options.endpoint.clone(), body.clone()))
            .collect();
        return Ok(Outcome::DryRun(requests));
    }
    let agent = agent();
    if options.verify_key {
        verify_key(&agent, options)?;
    }
    send_batches(&agent, options, &mut file, &batches, done)
}

/// Sends the batches from `done` on, recording each one accepted.
fn send_batches(
    agent: &ureq::Agent,
    options: &SubmitOptions,
    file: &mut ChangeFile,
    batches: &[(String, usize)],
    done: usize,
) -> Result<Outcome, SubmitError> {
    let mut urls = 0;
    for (i, (body, count)) in batches.iter().enumerate().skip(done) {
        post(agent, options, body)?;
        urls += count;
        file.submitted = Some(Submitted {
            endpoint: options.endpoint.clone(),
            at: Timestamp::now(),
            batches: i + 1,
        });
        changes::save_file(&options.changes, file).map_err(|source| SubmitError::Record {
            path: options.changes.clone(),
            source,
        })?;
    }
    Ok(Outcome::Sent {
        batches: batches.len() - done,
        urls,
    })
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

/// A blocking client with timeouts; statuses are read, not turned into errors.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(10)))
        .timeout_recv_response(Some(Duration::from_secs(30)))
        .timeout_global(Some(Duration::from_secs(120)))
        .http_status_as_error(false)
        .user_agent(concat!("sitemapgen/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

/// Checks that the key file is deployed with the key: IndexNow answers 403 to every
/// submission otherwise.
fn verify_key(agent: &ureq::Agent, options: &SubmitOptions) -> Result<(), SubmitError> {
    let url = key_location(options);
    let not_served = |problem: String| SubmitError::KeyNotServed {
        url: url.clone(),
        problem,
        key: options.key.clone(),
    };
    let mut response = agent
        .get(&url)
        .call()
        .map_err(|e| not_served(format!("cannot be fetched ({e})")))?;
    let status = response.status().as_u16();
    if status != 200 {
        return Err(not_served(format!("answered HTTP {status}")));
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(4096)
        .read_to_string()
        .map_err(|e| not_served(format!("cannot be read ({e})")))?;
    if body.trim() != options.key {
        return Err(not_served("does not hold the key".to_string()));
    }
    Ok(())
}

/// POSTs one batch, retrying 429, 5xx and network errors with doubling waits.
fn post(agent: &ureq::Agent, options: &SubmitOptions, body: &str) -> Result<(), SubmitError> {
    let endpoint = &options.endpoint;
    let mut wait = options.backoff;
    let mut problem = String::new();
    for attempt in 0..=options.retries {
        if attempt > 0 {
            std::thread::sleep(wait);
            wait *= 2;
        }
        let sent = agent
            .post(endpoint)
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body);
        let status = match sent {
            Ok(response) => response.status().as_u16(),
            Err(e) => {
                problem = format!("no answer ({e})");
                continue;
            }
        };
        match status {
            200 | 202 => return Ok(()),
            429 | 500..=599 => problem = format!("HTTP {status}"),
            _ => {
                return Err(SubmitError::Refused {
                    endpoint: endpoint.clone(),
                    status,
                    meaning: meaning(status).to_string(),
                });
            }
        }
    }
    Err(SubmitError::GaveUp {
        endpoint: endpoint.clone(),
        problem,
        tries: options.retries + 1,
    })
}

/// What an IndexNow status means, and what to do about it.
fn meaning(status: u16) -> &'static str {
    match status {
        400 => {
            "bad request: the request is not valid JSON or a URL in it is not valid; report this as a bug"
        }
        403 => {
            "forbidden: the key is not valid for this host; check that {base_url}{key}.txt is deployed and holds the key (submit --verify-key checks it)"
        }
        422 => {
            "unprocessable: a URL does not belong to the host, or the key does not match the key file; check base_url and the key"
        }
        _ => "unexpected answer; check the endpoint (indexnow_endpoint, --endpoint)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_a_meaning_that_says_what_to_do() {
        for status in [400, 403, 422, 418] {
            assert!(meaning(status).contains(';'), "{status}");
        }
        assert!(on_host("https://example.org/a", "example.org"));
        assert!(!on_host("https://www.example.org/a", "example.org"));
        assert!(!on_host("not a url", "example.org"));
    }
}
