//! Requests, politely: one client for the run, at most a few connections, a pace shared
//! by every thread, and retries as `crate::http` has them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ureq::Body;
use ureq::http::Response;

use super::{LiveError, LiveOptions};
use crate::http::{self, Retry};
use crate::robots::Robots;

/// The longest `Crawl-delay` obeyed: a longer one is waited this long instead, and
/// reported (a day's delay would keep a check of 100 URLs running for months).
pub(super) const MAX_CRAWL_DELAY: Duration = Duration::from_secs(60);

/// The run's client.
pub(super) struct Fetcher {
    agent: ureq::Agent,
    retry: Retry,
    /// The least time between two requests' starts.
    interval: Duration,
    /// When the next request may start.
    next: Mutex<Instant>,
    /// Tries after the first, over the run.
    retried: AtomicUsize,
}

impl Fetcher {
    pub(super) fn new(options: &LiveOptions) -> Fetcher {
        let interval = if options.rate > 0.0 {
            Duration::from_secs_f64(1.0 / options.rate)
        } else {
            Duration::ZERO
        };
        Fetcher {
            agent: http::agent(&options.timeouts, options.connections),
            retry: options.retry,
            interval,
            next: Mutex::new(Instant::now()),
            retried: AtomicUsize::new(0),
        }
    }

    /// The same, no faster than robots.txt's `Crawl-delay` asks, up to
    /// [`MAX_CRAWL_DELAY`].
    pub(super) fn paced(mut self, robots: Option<&Robots>) -> Fetcher {
        if let Some(delay) = robots.and_then(Robots::delay)
            && delay.is_finite()
            && delay > 0.0
        {
            let delay = Duration::from_secs_f32(delay).min(MAX_CRAWL_DELAY);
            self.interval = self.interval.max(delay);
        }
        self
    }

    /// The least time between two requests' starts.
    #[cfg(test)]
    pub(super) fn interval(&self) -> Duration {
        self.interval
    }

    /// Requests tried again so far.
    pub(super) fn retried(&self) -> usize {
        self.retried.load(Ordering::Relaxed)
    }

    /// GETs `url` (its redirects not followed), paced, retried.
    pub(super) fn get(&self, url: &str) -> http::Tried {
        let tried = http::send_with_retries(&self.retry, || {
            self.wait_turn();
            self.agent.get(url).call()
        });
        let again = tried.tries.saturating_sub(1) as usize;
        self.retried.fetch_add(again, Ordering::Relaxed);
        tried
    }

    /// Sleeps until this request's turn: turns are handed out `interval` apart.
    fn wait_turn(&self) {
        if self.interval.is_zero() {
            return;
        }
        let turn = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let turn = (*next).max(Instant::now());
            *next = turn + self.interval;
            turn
        };
        let now = Instant::now();
        if turn > now {
            std::thread::sleep(turn - now);
        }
    }

    /// The site's robots.txt for our agent: `None` when there is none (4xx). Its
    /// redirects are followed (up to five, as RFC 9309 asks).
    pub(super) fn robots(&self, sitemap: &url::Url) -> Result<Option<Robots>, LiveError> {
        let url = sitemap
            .join("/robots.txt")
            .expect("a path joins an http URL");
        let url = url.as_str();
        let unavailable = |problem: String| LiveError::Robots {
            url: url.to_string(),
            problem,
        };
        let tried = http::send_with_retries(&self.retry, || {
            self.agent.get(url).config().max_redirects(5).build().call()
        });
        let mut response = tried
            .result
            .map_err(|e| unavailable(format!("was not answered ({e})")))?;
        let status = response.status().as_u16();
        match status {
            200 => {}
            400..=499 => return Ok(None),
            _ => return Err(unavailable(format!("answered HTTP {status}"))),
        }
        let bytes = read_limited(&mut response, crate::robots::MAX_BYTES)
            .map_err(|e| unavailable(format!("cannot be read ({e})")))?;
        Ok(Some(Robots::parse(&bytes, http::ROBOTS_AGENT, url.into())))
    }
}

/// The first `limit` bytes of a body (robots.txt: RFC 9309 has crawlers read at least
/// 500 KiB and allows them to stop there).
fn read_limited(response: &mut Response<Body>, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    response
        .body_mut()
        .as_reader()
        .take(limit)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A failure to get an answer, in words: a timeout, a reset, a refusal.
pub(super) fn unanswered(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(_) => "timed out".to_string(),
        ureq::Error::Io(io) => match io.kind() {
            std::io::ErrorKind::ConnectionReset => "connection reset".to_string(),
            std::io::ErrorKind::ConnectionRefused => "connection refused".to_string(),
            std::io::ErrorKind::UnexpectedEof => "connection closed early".to_string(),
            _ => io.to_string(),
        },
        other => other.to_string(),
    }
}
