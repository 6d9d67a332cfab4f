//! Bing Webmaster Tools: telling it of the sitemap and the changed URLs, and reading
//! back what it thinks.
//!
//! Bing's Webmaster JSON API (`{api_endpoint}{Method}?apikey=KEY`): `SubmitFeed` for
//! each sitemap, `GetUrlSubmissionQuota` then `SubmitUrlBatch` for the change list's
//! URLs (no more than the quota left, [`URL_BATCH`] a request), and `GetFeeds` for what
//! Bing says of the sitemaps. Answers wrap their value in `{"d": ...}`; refusals come as
//! HTTP 400 with `{"ErrorCode": N, "Message": "..."}` (the `ApiErrorCode` enum of
//! Microsoft's `Microsoft.Bing.Webmaster.Api.Interfaces`).
//!
//! The API key is read from the environment only ([`KEY_VAR`]), held in a newtype that
//! prints as [`REDACTED`], and replaced by it in every URL shown and every error.
//! Building the requests and reading the answers needs no network; only the functions
//! that send are built with the `net` feature (`bing/send.rs`).

use jiff::Timestamp;

use super::{Env, REDACTED, Request};

// Only the `net` build reads answers; the other still compiles and tests the reading.
#[cfg_attr(not(feature = "net"), allow(dead_code))]
mod answer;
#[cfg(feature = "net")]
mod send;
#[cfg(test)]
mod tests;

/// Where Bing's Webmaster JSON API is, unless `api_endpoint` says otherwise.
pub const DEFAULT_ENDPOINT: &str = "https://ssl.bing.com/webmaster/api.svc/json/";

/// The environment variable holding the API key.
pub const KEY_VAR: &str = "BING_WEBMASTER_API_KEY";

/// `SubmitUrlBatch` takes at most this many URLs a request.
pub const URL_BATCH: usize = 500;

/// How Bing is reached, from `sitemap.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BingSettings {
    /// The site as verified in Bing Webmaster Tools (`siteUrl`); `None`: the base URL.
    pub site_url: Option<String>,
    /// The API's base URL, each method's name appended ([`DEFAULT_ENDPOINT`]).
    pub api_endpoint: String,
}

impl Default for BingSettings {
    fn default() -> Self {
        BingSettings {
            site_url: None,
            api_endpoint: DEFAULT_ENDPOINT.to_string(),
        }
    }
}

/// The API key: shown nowhere, its `Debug` and `Display` print [`REDACTED`].
struct ApiKey(String);

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

impl std::fmt::Display for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Bing Webmaster Tools for one site, with its API key.
#[derive(Debug)]
pub struct Bing {
    key: ApiKey,
    site_url: String,
    /// Ends with `/`, so that a method's name is appended.
    endpoint: String,
}

/// What `submit_urls` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlsSent {
    /// URLs Bing accepted.
    pub sent: usize,
    /// URLs not sent: past the quota left, or refused for it (IndexNow still carries them).
    pub left: usize,
    /// The URLs Bing would take today when asked (before this run's), if it was asked.
    pub daily_quota: Option<u64>,
    /// Bing's own words when it refused a batch for the quota (not an error: the rest
    /// waits for another day).
    pub over_quota: Option<String>,
}

/// What Bing says of one sitemap asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedStatus {
    /// The sitemap's URL, as asked.
    pub url: String,
    /// What `GetFeeds` lists for it; `None`: Bing does not list it (never submitted, or
    /// a child of an index it lists).
    pub feed: Option<Feed>,
}

/// A sitemap as `GetFeeds` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// Bing's word for how its last reading went (`Status`), as it gave it.
    pub status: Option<String>,
    /// When it was submitted (`Submitted`).
    pub submitted: Option<Timestamp>,
    /// When Bing last read it (`LastCrawled`); `None`: not yet.
    pub last_crawled: Option<Timestamp>,
    /// The URLs Bing found in it (`UrlCount`).
    pub url_count: Option<u64>,
}

/// Why a Bing call failed; each says what to fix, with the key replaced by [`REDACTED`].
#[derive(Debug, thiserror::Error)]
pub enum BingError {
    /// No key in the environment.
    #[error(
        "{KEY_VAR} is not set; get an API key in Bing Webmaster Tools (Settings > API access > API key) and set it as a CI secret named {KEY_VAR}"
    )]
    MissingKey,
    /// A setting that is not a usable URL.
    #[error("{setting} = {value:?} is not an http(s) URL ({problem}); {fix}")]
    BadSetting {
        /// The setting's name.
        setting: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        problem: String,
        /// What to set instead.
        fix: &'static str,
    },
    /// The key was refused (401, 403, `InvalidApiKey`, `NotAuthorized`).
    #[error(
        "Bing refused the API key calling {method} ({answer}): the key in {KEY_VAR} is wrong or revoked, or its account does not manage {site_url}; make a new key in Bing Webmaster Tools (Settings > API access > API key) with the account that verified the site, and update the secret"
    )]
    KeyRefused {
        /// The API method called.
        method: &'static str,
        /// What Bing answered.
        answer: String,
        /// The site.
        site_url: String,
    },
    /// The site is not one this account verified, or a URL is not on it.
    #[error(
        "Bing does not take {site_url} or a URL sent as one of this account's verified sites calling {method} ({answer}); add and verify {site_url} in Bing Webmaster Tools, or set the Bing site_url to the form verified there (default: the base URL), with every URL sent on it"
    )]
    NotVerified {
        /// The API method called.
        method: &'static str,
        /// What Bing answered.
        answer: String,
        /// The site.
        site_url: String,
    },
    /// The URL submission quota is used up; `submit_urls` turns it into
    /// [`UrlsSent::over_quota`].
    #[error(
        "Bing's URL submission quota for {site_url} is used up ({answer}); the rest waits for tomorrow's quota (IndexNow still carries the URLs)"
    )]
    OverQuota {
        /// What Bing answered.
        answer: String,
        /// The site.
        site_url: String,
    },
    /// Any other refusal Bing explained, with what to do about it.
    #[error("Bing refused {method} ({answer}); {fix}")]
    Refused {
        /// The API method called.
        method: &'static str,
        /// What Bing answered: the status, and its `ErrorCode` and `Message` when given.
        answer: String,
        /// What to do about it.
        fix: &'static str,
    },
    /// A redirect, not followed (a followed POST becomes a GET without its body).
    #[error(
        "{url} answered HTTP {status}, a redirect to {location}; nothing was sent there (redirects are not followed): set the Bing api_endpoint to where it points"
    )]
    Redirected {
        /// The URL called, its key redacted.
        url: String,
        /// The status (3xx).
        status: u16,
        /// Where it points, or what stands for no `Location`.
        location: String,
    },
    /// No answer, or 429 / 5xx, after every retry.
    #[error("{url}: {problem} after {tries} tries; try again later")]
    GaveUp {
        /// The URL called, its key redacted.
        url: String,
        /// The last status or network error.
        problem: String,
        /// Tries made.
        tries: u32,
    },
    /// An answer of 200 that is not what the API documents.
    #[error(
        "Bing's answer to {method} is not what its API documents ({problem}); check the Bing api_endpoint (default {DEFAULT_ENDPOINT})"
    )]
    BadAnswer {
        /// The API method called.
        method: &'static str,
        /// What is wrong with it.
        problem: String,
    },
}

/// The API's methods we call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    SubmitFeed,
    GetUrlSubmissionQuota,
    SubmitUrlBatch,
    GetFeeds,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::SubmitFeed => "SubmitFeed",
            Method::GetUrlSubmissionQuota => "GetUrlSubmissionQuota",
            Method::SubmitUrlBatch => "SubmitUrlBatch",
            Method::GetFeeds => "GetFeeds",
        }
    }
}

/// A call made ready: its URL with the key (never shown, hence no `Debug`), and its
/// request as shown.
#[cfg_attr(not(feature = "net"), allow(dead_code))]
struct Call {
    method: Method,
    url: String,
    shown: Request,
}

impl Bing {
    /// Bing for the site at `base_url` (or `settings.site_url`), with the key from
    /// [`KEY_VAR`] in `env`.
    pub fn from_env(settings: &BingSettings, base_url: &str, env: Env) -> Result<Bing, BingError> {
        let key = env(KEY_VAR)
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .ok_or(BingError::MissingKey)?;
        let site_url = settings.site_url.as_deref().unwrap_or(base_url);
        check_url(
            "site_url",
            site_url,
            "set it to the site as verified in Bing Webmaster Tools (https://example.org/), or remove it to use the base URL",
        )?;
        let endpoint = &settings.api_endpoint;
        check_url(
            "api_endpoint",
            endpoint,
            "remove it to use https://ssl.bing.com/webmaster/api.svc/json/",
        )?;
        let endpoint = match endpoint.ends_with('/') {
            true => endpoint.clone(),
            false => format!("{endpoint}/"),
        };
        Ok(Bing {
            key: ApiKey(key),
            site_url: site_url.to_string(),
            endpoint,
        })
    }

    /// The site as sent to Bing (`siteUrl`).
    pub fn site_url(&self) -> &str {
        &self.site_url
    }

    /// The requests `submit` would send, nothing sent: `SubmitFeed` for each sitemap,
    /// then for `urls` the quota asked and `SubmitUrlBatch` in batches of [`URL_BATCH`]
    /// (when sent, no more than the quota left goes out).
    pub fn dry_run(&self, sitemaps: &[&str], urls: &[&str]) -> Vec<Request> {
        let feeds = sitemaps.iter().map(|s| self.submit_feed(s));
        let quota = (!urls.is_empty()).then(|| self.quota());
        let batches = urls.chunks(URL_BATCH).map(|b| self.url_batch(b));
        feeds.chain(quota).chain(batches).map(|c| c.shown).collect()
    }

    /// The request `status` would send, nothing sent.
    pub fn dry_run_status(&self) -> Request {
        self.feeds().shown
    }

    fn submit_feed(&self, feed: &str) -> Call {
        let body = serde_json::json!({"siteUrl": self.site_url, "feedUrl": feed});
        self.call(Method::SubmitFeed, false, Some(body))
    }

    fn quota(&self) -> Call {
        self.call(Method::GetUrlSubmissionQuota, true, None)
    }

    fn url_batch(&self, urls: &[&str]) -> Call {
        let body = serde_json::json!({"siteUrl": self.site_url, "urlList": urls});
        self.call(Method::SubmitUrlBatch, false, Some(body))
    }

    fn feeds(&self) -> Call {
        self.call(Method::GetFeeds, true, None)
    }

    /// A call of `method`: a GET with `siteUrl` in the query, or a POST of `body`; the
    /// key last in the query, so that the URL shown is the same with it redacted.
    fn call(&self, method: Method, site_in_query: bool, body: Option<serde_json::Value>) -> Call {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        if site_in_query {
            query.append_pair("siteUrl", &self.site_url);
        }
        let query = query.finish();
        let sep = if query.is_empty() { "" } else { "&" };
        let head = format!("{}{}?{query}{sep}apikey=", self.endpoint, method.name());
        let key: String = url::form_urlencoded::byte_serialize(self.key.0.as_bytes()).collect();
        let (verb, headers) = match body {
            Some(_) => ("POST", vec![CONTENT_TYPE.to_string()]),
            None => ("GET", Vec::new()),
        };
        Call {
            method,
            url: format!("{head}{key}"),
            shown: Request {
                method: verb,
                url: format!("{head}{REDACTED}"),
                headers,
                body: body.map(|b| b.to_string()),
            },
        }
    }
}

const CONTENT_TYPE: &str = "Content-Type: application/json; charset=utf-8";

/// Checks that `value` (the setting `setting`) is an http(s) URL.
fn check_url(setting: &'static str, value: &str, fix: &'static str) -> Result<(), BingError> {
    let bad = |problem: String| BingError::BadSetting {
        setting,
        value: value.to_string(),
        problem,
        fix,
    };
    let url = url::Url::parse(value).map_err(|e| bad(e.to_string()))?;
    match url.scheme() {
        "http" | "https" => Ok(()),
        other => Err(bad(format!("its scheme is {other}"))),
    }
}
