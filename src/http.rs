//! The HTTP plumbing of what goes out after a deploy (`submit`, `check --live`), in one
//! place: who we say we are, the client's timeouts and settings, and the retry policy
//! (429 and 5xx, and requests not answered, retried with doubling waits, a
//! `Retry-After` honoured in seconds or as an HTTP date).
//!
//! The policy is plain values and functions, so it is tested without a network; the
//! client itself is built only with the `net` feature.

use std::time::Duration;

use jiff::Timestamp;

/// Whether this build can send requests (the `net` feature).
pub const NETWORK: bool = cfg!(feature = "net");

/// The `User-Agent` every request sends: the product and version, and where to read
/// about it, as crawlers name themselves.
pub const USER_AGENT: &str = concat!(
    "sitemapgen/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/sitemapgen/sitemapgen)"
);

/// The name robots.txt groups are matched against for our requests (RFC 9309's product
/// token: the user agent's first word, without its version).
pub const ROBOTS_AGENT: &str = "sitemapgen";

/// The longest `Retry-After` waited for: a server asking for more is answered by giving
/// up on the request, and the answer is reported as it came.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);

/// How long a request may take, by phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// To connect (DNS, TCP, TLS).
    pub connect: Duration,
    /// From the request sent to the response's headers.
    pub response: Duration,
    /// The whole request, reading of the body included.
    pub overall: Duration,
}

impl Timeouts {
    /// Timeouts for requests of at most `overall` each: connecting and waiting for the
    /// headers take at most 10 s and 30 s of it.
    pub fn within(overall: Duration) -> Timeouts {
        Timeouts {
            connect: overall.min(Duration::from_secs(10)),
            response: overall.min(Duration::from_secs(30)),
            overall,
        }
    }
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts::within(Duration::from_secs(120))
    }
}

/// How often, and after how long, a request is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    /// Retries after the first try.
    pub retries: u32,
    /// The first retry's wait, doubled for each next one (when the server names none).
    pub backoff: Duration,
}

impl Retry {
    /// The wait before retry `n` (1 for the first): the server's `Retry-After` when it
    /// gave one, else the backoff doubled `n - 1` times. `None` when the server asks for
    /// more than [`MAX_RETRY_AFTER`]: it is not retried.
    pub fn wait(&self, n: u32, retry_after: Option<Duration>) -> Option<Duration> {
        match retry_after {
            Some(wait) if wait > MAX_RETRY_AFTER => None,
            Some(wait) => Some(wait),
            None => Some(
                self.backoff
                    .saturating_mul(2u32.saturating_pow(n.saturating_sub(1))),
            ),
        }
    }
}

/// Whether an answer with `status` is worth trying again: too many requests, or the
/// server failing.
pub fn retryable(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

/// A `Retry-After` value (RFC 9110, 10.2.3): a number of seconds, or an HTTP date (the
/// wait is from `now` to it; none for a date passed). `None` for anything else.
pub fn parse_retry_after(value: &str, now: Timestamp) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // More digits than a u64 holds is a very long wait.
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    // IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) is RFC 2822's form; jiff reads it
    // (and the obsolete forms HTTP still accepts are passed over: no server sends them).
    let at = jiff::fmt::rfc2822::parse(value).ok()?.timestamp();
    let wait = at.duration_since(now);
    Some(wait.try_into().unwrap_or(Duration::ZERO))
}

#[cfg(feature = "net")]
mod client;

#[cfg(feature = "net")]
pub use client::{
    Answer, NO_LOCATION, Tried, Unanswered, agent, answer, location, send_with_retries,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_seconds_or_an_http_date() {
        let now: Timestamp = "2026-12-05T10:00:00Z".parse().unwrap();
        let cases: &[(&str, Option<u64>)] = &[
            ("0", Some(0)),
            ("120", Some(120)),
            (" 3 ", Some(3)),
            ("99999999999999999999999", Some(u64::MAX)),
            ("Sat, 05 Dec 2026 10:00:30 GMT", Some(30)),
            ("Sat, 05 Dec 2026 09:00:00 GMT", Some(0)),
            ("-1", None),
            ("1.5", None),
            ("", None),
            ("soon", None),
        ];
        for (value, want) in cases {
            let got = parse_retry_after(value, now).map(|d| d.as_secs());
            assert_eq!(got, *want, "{value:?}");
        }
    }

    #[test]
    fn waits_double_unless_the_server_names_one_and_a_long_one_is_not_waited() {
        let retry = Retry {
            retries: 5,
            backoff: Duration::from_millis(100),
        };
        let ms = |n, after| retry.wait(n, after).map(|d: Duration| d.as_millis());
        assert_eq!(ms(1, None), Some(100));
        assert_eq!(ms(2, None), Some(200));
        assert_eq!(ms(4, None), Some(800));
        assert_eq!(ms(3, Some(Duration::from_secs(2))), Some(2000));
        assert_eq!(ms(1, Some(MAX_RETRY_AFTER)), Some(120_000));
        assert_eq!(ms(1, Some(MAX_RETRY_AFTER + Duration::from_secs(1))), None);
        // No overflow, however many retries.
        assert!(retry.wait(200, None).is_some());
    }

    #[test]
    fn only_too_many_requests_and_server_errors_are_retried() {
        for (status, want) in [(200, false), (301, false), (404, false), (429, true)] {
            assert_eq!(retryable(status), want, "{status}");
        }
        assert!(retryable(500) && retryable(503) && !retryable(600));
    }

    #[test]
    fn the_user_agent_names_the_robots_token_first() {
        assert!(USER_AGENT.starts_with(&format!("{ROBOTS_AGENT}/")));
        assert!(USER_AGENT.contains("(+https://"));
    }
}
