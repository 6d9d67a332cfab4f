//! Reading what Bing answers: the values in `{"d": ...}`, its dates, and its refusals
//! turned into errors that name the fix (with the key scrubbed from all it says).
//! Only the `net` build sends, but all of this is plain values, tested without it.

use jiff::Timestamp;
use serde::Deserialize;

use super::{Bing, BingError, Feed, FeedStatus, Method, REDACTED};

/// The longest answer read: `GetFeeds` lists every top-level sitemap of the site, each
/// in a few hundred bytes; the other answers are a few dozen.
pub(super) const ANSWER_LIMIT: u64 = 4 * 1024 * 1024;

impl Bing {
    /// `text` made fit for an error: anything of a server's or the HTTP client's, with
    /// the key (as given or as sent in a query) replaced by [`REDACTED`], and one line
    /// ([`crate::text::one_line`]).
    pub(super) fn scrub(&self, text: &str) -> String {
        let key = &self.key.0;
        let sent: String = url::form_urlencoded::byte_serialize(key.as_bytes()).collect();
        let text = text
            .replace(key.as_str(), REDACTED)
            .replace(sent.as_str(), REDACTED);
        crate::text::one_line(&text)
    }

    /// The error for an answer of `status` (not 2xx, 3xx, nor retryable) with `body`.
    pub(super) fn refusal(&self, method: Method, status: u16, body: &str) -> BingError {
        let fault = serde_json::from_str::<Fault>(body).ok();
        let answer = self.scrub(&match &fault {
            Some(f) => format!(
                "HTTP {status}, ErrorCode {} {}: {}",
                f.code,
                code_name(f.code),
                cut(f.message.as_deref().unwrap_or(""))
            ),
            None => format!("HTTP {status}"),
        });
        let code = fault.as_ref().map_or(-1, |f| f.code);
        let message = fault.and_then(|f| f.message).unwrap_or_default();
        let message = message.to_ascii_lowercase();
        let site_url = self.site_url.clone();
        let method = method.name();
        if message.contains("quota") {
            return BingError::OverQuota { answer, site_url };
        }
        if status == 401 || status == 403 || code == 3 || code == 14 {
            return BingError::KeyRefused {
                method,
                answer,
                site_url,
            };
        }
        if code == 7 || message.contains("not verified") {
            return BingError::NotVerified {
                method,
                answer,
                site_url,
            };
        }
        BingError::Refused {
            method,
            answer,
            fix: fix(code),
        }
    }
}

/// The longest part of Bing's `Message` kept in an error.
const MESSAGE_LIMIT: usize = 300;

/// Bing's `Message`, cut at [`MESSAGE_LIMIT`] characters (made one line by `scrub`).
fn cut(message: &str) -> String {
    match message.char_indices().nth(MESSAGE_LIMIT) {
        Some((at, _)) => format!("{}…", &message[..at]),
        None => message.to_string(),
    }
}

/// A refusal's body (the API's `ApiFault`).
#[derive(Debug, Deserialize)]
pub(super) struct Fault {
    #[serde(rename = "ErrorCode")]
    code: i64,
    #[serde(rename = "Message")]
    message: Option<String>,
}

/// The names of `ApiErrorCode` (Microsoft.Bing.Webmaster.Api.Interfaces, 0 to 16).
const CODES: [&str; 17] = [
    "None",
    "InternalError",
    "UnknownError",
    "InvalidApiKey",
    "ThrottleUser",
    "ThrottleHost",
    "UserBlocked",
    "InvalidUrl",
    "InvalidParameter",
    "TooManySites",
    "UserNotFound",
    "NotFound",
    "AlreadyExists",
    "NotAllowed",
    "NotAuthorized",
    "UnexpectedState",
    "Deprecated",
];

fn code_name(code: i64) -> &'static str {
    usize::try_from(code)
        .ok()
        .and_then(|i| CODES.get(i))
        .copied()
        .unwrap_or("(unknown code)")
}

/// What to do about an `ErrorCode` not handled on its own (the key's, the site's and
/// the quota's are).
fn fix(code: i64) -> &'static str {
    match code {
        1 | 2 | 15 => "Bing failed on its side; try again later",
        4 | 5 => "Bing is throttling this account or site; try again later, less often",
        6 => {
            "Bing has blocked this account; sign in to Bing Webmaster Tools to see why, or ask Bing's support"
        }
        8 => {
            "a parameter was refused; check the sitemap URLs are absolute http(s) URLs on the site, else report this as a sitemapgen bug"
        }
        9 => "the account has too many sites; remove one in Bing Webmaster Tools",
        10 => {
            "Bing knows no user for this key; make a new key in Bing Webmaster Tools (Settings > API access > API key)"
        }
        11 => {
            "Bing does not know the site or sitemap; add and verify the site in Bing Webmaster Tools"
        }
        13 => "Bing does not allow this for the site; see the site in Bing Webmaster Tools",
        16 => {
            "this API method is deprecated; report it as a sitemapgen bug (and use IndexNow meanwhile)"
        }
        _ => "check the Bing site_url and api_endpoint settings, or report it as a sitemapgen bug",
    }
}

/// An answer's value (`{"d": ...}`).
#[derive(Deserialize)]
struct Wrapped<T> {
    d: T,
}

/// `GetUrlSubmissionQuota`'s answer: URLs that may still be submitted today and this
/// month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(super) struct Quota {
    #[serde(rename = "DailyQuota")]
    pub(super) daily: u64,
    #[serde(rename = "MonthlyQuota")]
    pub(super) monthly: u64,
}

/// A feed of `GetFeeds`'s answer (its `Compressed`, `FileSize` and `Type` unused).
#[derive(Deserialize)]
struct FeedJson {
    #[serde(rename = "Url")]
    url: String,
    #[serde(rename = "Status", default)]
    status: Option<String>,
    #[serde(rename = "Submitted", default, deserialize_with = "net_date")]
    submitted: Option<Timestamp>,
    #[serde(rename = "LastCrawled", default, deserialize_with = "net_date")]
    last_crawled: Option<Timestamp>,
    #[serde(rename = "UrlCount", default)]
    url_count: Option<u64>,
}

pub(super) fn parse_quota(body: &str) -> Result<Quota, serde_json::Error> {
    Ok(serde_json::from_str::<Wrapped<Quota>>(body)?.d)
}

/// What `GetFeeds` says of each of `sitemaps` (matched as URLs, so that a host's case
/// or a default port written out do not hide one).
pub(super) fn parse_feeds(
    body: &str,
    sitemaps: &[&str],
) -> Result<Vec<FeedStatus>, serde_json::Error> {
    let feeds = serde_json::from_str::<Wrapped<Option<Vec<FeedJson>>>>(body)?.d;
    let feeds = feeds.unwrap_or_default();
    let same = |a: &str, b: &str| match (url::Url::parse(a), url::Url::parse(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    Ok(sitemaps
        .iter()
        .map(|asked| FeedStatus {
            url: asked.to_string(),
            feed: feeds.iter().find(|f| same(&f.url, asked)).map(|f| Feed {
                status: f.status.clone(),
                submitted: f.submitted,
                last_crawled: f.last_crawled,
                url_count: f.url_count,
            }),
        })
        .collect())
}

/// A date as .NET's JSON writes it (`/Date(1700000000000)/`, `/Date(1700000000000-0700)/`),
/// or null; `DateTime.MinValue` (year 1), Bing's "never", reads as `None`.
fn net_date<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(text) => match parse_date(&text) {
            Some(t) => Ok((t.as_second() > NET_MIN_SECONDS).then_some(t)),
            None => Err(serde::de::Error::custom(format!(
                "{text:?} is not a /Date(ms)/"
            ))),
        },
    }
}

/// `DateTime.MinValue` (0001-01-01T00:00:00Z) in Unix seconds.
const NET_MIN_SECONDS: i64 = -62_135_596_800;

/// Reads `/Date(ms)/` or `/Date(ms±hhmm)/`: the milliseconds are since the Unix epoch in
/// UTC whatever the offset, which only says where the writer was, so it is checked and
/// dropped. `None` for anything else.
pub(super) fn parse_date(text: &str) -> Option<Timestamp> {
    let inner = text.strip_prefix("/Date(")?.strip_suffix(")/")?;
    // The offset's sign is the last `+` or `-` after the first character (the first may
    // be the milliseconds' own minus).
    let (ms, offset) = match inner.get(1..)?.rfind(['+', '-']) {
        Some(at) => inner.split_at(at + 1),
        None => (inner, ""),
    };
    let offset_ok =
        offset.is_empty() || (offset.len() == 5 && offset[1..].bytes().all(|b| b.is_ascii_digit()));
    if !offset_ok {
        return None;
    }
    let ms = ms.parse::<i64>().ok()?;
    Timestamp::from_millisecond(ms).ok()
}

/// Whether a refusal of `SubmitFeed` says Bing has the sitemap already (`AlreadyExists`,
/// 12): what was asked is so.
pub(super) fn already_known(method: Method, body: &str) -> bool {
    method == Method::SubmitFeed && serde_json::from_str::<Fault>(body).is_ok_and(|f| f.code == 12)
}
