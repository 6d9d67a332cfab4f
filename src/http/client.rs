//! The client (ureq, with rustls), and requests tried again by [`super::Retry`].

use ureq::Body;
use ureq::http::Response;

use super::{Retry, Timeouts, USER_AGENT, parse_retry_after, retryable};

/// A blocking client keeping up to `connections` connections per host, with
/// `timeouts`. Statuses are read, not turned into errors, and redirects are returned,
/// not followed: `submit` must not turn a POST into a GET, and `check --live` reports
/// where a listed URL goes rather than what is there.
pub fn agent(timeouts: &Timeouts, connections: usize) -> ureq::Agent {
    ureq::Agent::config_builder()
        .max_redirects(0)
        .timeout_connect(Some(timeouts.connect))
        .timeout_recv_response(Some(timeouts.response))
        .timeout_global(Some(timeouts.overall))
        .max_idle_connections_per_host(connections.max(1))
        .max_idle_connections(connections.max(1))
        // ureq's 128 KiB each way, made anew for every connection, were most of a run's
        // time against a server that closes each one (BENCHMARKS.md, "Checking the live
        // site"): the answer's head fits ureq's own 64 KiB limit, and what is sent
        // (a GET, a batch of URLs) goes out in parts.
        .input_buffer_size(64 * 1024)
        .output_buffer_size(16 * 1024)
        .http_status_as_error(false)
        .user_agent(USER_AGENT)
        .build()
        .into()
}

/// A request's last answer, and how many tries it took.
#[derive(Debug)]
pub struct Tried {
    /// The last answer (a retryable status when the retries ran out), or the last
    /// failure to get one.
    pub result: Result<Response<Body>, ureq::Error>,
    /// Tries made, the first included.
    pub tries: u32,
}

/// Sends the request `send` makes, again while it is answered 429 or 5xx, or not
/// answered (a timeout, a connection refused or reset), up to `retry.retries` more times,
/// waiting as [`Retry::wait`] says.
pub fn send_with_retries(
    retry: &Retry,
    mut send: impl FnMut() -> Result<Response<Body>, ureq::Error>,
) -> Tried {
    let mut tries = 0;
    loop {
        tries += 1;
        let result = send();
        let retry_after = match &result {
            Ok(response) if retryable(response.status().as_u16()) => retry_after(response),
            Ok(_) => return Tried { result, tries },
            Err(e) if unanswered(e) => None,
            Err(_) => return Tried { result, tries },
        };
        if tries > retry.retries {
            return Tried { result, tries };
        }
        match retry.wait(tries, retry_after) {
            Some(wait) => std::thread::sleep(wait),
            None => return Tried { result, tries },
        }
    }
}

/// Whether a request failed for want of an answer (worth trying again), not for being
/// wrong (a bad URL, a TLS certificate refused).
fn unanswered(e: &ureq::Error) -> bool {
    matches!(
        e,
        ureq::Error::Io(_) | ureq::Error::Timeout(_) | ureq::Error::ConnectionFailed
    )
}

/// The wait a response's `Retry-After` asks for.
fn retry_after<B>(response: &Response<B>) -> Option<std::time::Duration> {
    let value = response.headers().get(ureq::http::header::RETRY_AFTER)?;
    parse_retry_after(value.to_str().ok()?, jiff::Timestamp::now())
}

/// Where a redirect points: its `Location` header as sent (escaped when printed).
pub fn location<B>(response: &Response<B>) -> Option<String> {
    let value = response.headers().get(ureq::http::header::LOCATION)?;
    Some(String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// What a redirect without a `Location` header is said to point to.
pub const NO_LOCATION: &str = "nowhere (no Location header)";

/// A request's last answer, read: not a redirect, not a status worth retrying.
#[derive(Debug)]
pub struct Answer {
    /// Its status.
    pub status: u16,
    /// Its body, at most the limit asked for.
    pub body: String,
}

/// Why a request has no [`Answer`]: the caller's error names its URL.
#[derive(Debug)]
pub enum Unanswered {
    /// No answer, or only 429 and 5xx, after every try; or a body that could not be read.
    GaveUp {
        /// The last status or failure.
        problem: String,
        /// Tries made.
        tries: u32,
    },
    /// A redirect, which is not followed.
    Redirected {
        /// The status (3xx).
        status: u16,
        /// Its `Location` header as sent, or [`NO_LOCATION`].
        location: String,
    },
}

/// Sends the request `send` makes as [`send_with_retries`] does, and reads the answer's
/// body (at most `limit` bytes): the one way engines' requests are made.
pub fn answer(
    retry: &Retry,
    limit: u64,
    send: impl FnMut() -> Result<Response<Body>, ureq::Error>,
) -> Result<Answer, Unanswered> {
    let tried = send_with_retries(retry, send);
    let tries = tried.tries;
    let gave_up = |problem: String| Unanswered::GaveUp { problem, tries };
    let mut response = tried
        .result
        .map_err(|e| gave_up(format!("no answer ({e})")))?;
    let status = response.status().as_u16();
    if response.status().is_redirection() {
        let location = location(&response).unwrap_or_else(|| NO_LOCATION.to_string());
        return Err(Unanswered::Redirected { status, location });
    }
    if retryable(status) {
        return Err(gave_up(format!("HTTP {status}")));
    }
    let body = (response.body_mut().with_config().limit(limit))
        .read_to_string()
        .map_err(|e| gave_up(format!("HTTP {status} with a body not read ({e})")))?;
    Ok(Answer { status, body })
}
