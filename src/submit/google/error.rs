//! Why talking to Google failed: one line each, naming the setting or value and the fix.
//! No variant holds a credential; texts from answers are scrubbed of any sent.

use crate::fsutil::IoError;
use crate::submit::REDACTED;

/// Why reading the credentials, fetching a token or calling Search Console failed.
#[derive(Debug, thiserror::Error)]
pub enum GoogleError {
    /// No way to authenticate was found.
    #[error(
        "no Google credentials: set SITEMAPGEN_GOOGLE_CREDENTIALS to a service account key's JSON, or GOOGLE_APPLICATION_CREDENTIALS to a credentials file's path, or (keyless, in GitHub Actions) [google] workload_identity_provider and service_account in sitemap.toml"
    )]
    NoCredentials,
    /// The credentials file cannot be read.
    #[error(
        "cannot read the credentials file {0} (GOOGLE_APPLICATION_CREDENTIALS); point it at the JSON key or the file google-github-actions/auth wrote"
    )]
    CredentialsFile(#[source] IoError),
    /// The credentials' JSON is not what Google issues.
    #[error("{origin} {problem}; {fix}")]
    Credentials {
        /// Where they came from (the variable, or the file's path).
        origin: String,
        /// What is wrong (a field named, never its value).
        problem: String,
        /// What to do.
        fix: &'static str,
    },
    /// One of the keyless route's settings is set without the other, or malformed.
    #[error("{0}")]
    Keyless(String),
    /// The keyless route, outside a job allowed to ask GitHub for an OIDC token.
    #[error(
        "keyless Google authentication needs GitHub's OIDC token, but ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set: run in GitHub Actions and give the job `permissions: id-token: write`"
    )]
    NoOidc,
    /// The property setting is neither form Search Console takes.
    #[error(
        "the Google property {0:?} is neither a URL prefix (https://example.org/, ending in /) nor a domain property (sc-domain:example.org); use the exact form Search Console shows"
    )]
    PropertyForm(String),
    /// A sitemap the property does not cover: Search Console would refuse it.
    #[error("{sitemap} is outside the Search Console property {property}; {fix}")]
    OutsideProperty {
        /// The sitemap's URL.
        sitemap: String,
        /// The property.
        property: String,
        /// Which property form to use.
        fix: String,
    },
    /// The service account key cannot sign.
    #[error(
        "{origin}: private_key {problem}; use the key's JSON as Google gave it (IAM > Service accounts > Keys > Add key > JSON)"
    )]
    Key {
        /// Where the key came from.
        origin: String,
        /// What is wrong.
        problem: String,
    },
    /// A step of getting the access token was refused.
    #[error("{step}: {endpoint} answered HTTP {status}{detail}; {fix}")]
    Token {
        /// The step (the JWT grant, GitHub's OIDC token, the STS exchange, IAM).
        step: &'static str,
        /// Where the request went.
        endpoint: String,
        /// The status.
        status: u16,
        /// Google's own words (` (...)`), or nothing.
        detail: String,
        /// What to fix.
        fix: String,
    },
    /// An answer that is not what the API documents.
    #[error(
        "{endpoint} answered {problem}; check that [google] api_endpoint, sts_endpoint and iam_endpoint (if set) point at Google's APIs"
    )]
    Answer {
        /// Where the request went.
        endpoint: String,
        /// What came back.
        problem: String,
    },
    /// Search Console refused the account (HTTP 403).
    #[error(
        "Search Console refused {account} access to {property}{detail}: add {account} as an Owner or Full user of {property} in Search Console (Settings > Users and permissions)"
    )]
    Forbidden {
        /// The service account's email (or what stands for it).
        account: String,
        /// The property.
        property: String,
        /// Google's own words, or nothing.
        detail: String,
    },
    /// Search Console does not know the property, or the sitemap (HTTP 404).
    #[error("Search Console answered 404 for {url}{detail}: {fix}")]
    NotFound {
        /// The URL asked (no credential in it).
        url: String,
        /// Google's own words, or nothing.
        detail: String,
        /// What it means here.
        fix: &'static str,
    },
    /// Search Console refused a fresh token too.
    #[error(
        "Search Console refused the access token twice (HTTP 401), a fresh one included{detail}; check that the service account is enabled and the Search Console API is enabled in its project"
    )]
    Unauthorized {
        /// Google's own words, or nothing.
        detail: String,
    },
    /// Another refusal.
    #[error("{url} answered HTTP {status}{detail}; check [google] in sitemap.toml")]
    Refused {
        /// The URL (no credential in it).
        url: String,
        /// The status.
        status: u16,
        /// Google's own words, or nothing.
        detail: String,
    },
    /// A redirect, not followed: a credential is not sent on to another place.
    #[error(
        "{url} answered HTTP {status}, a redirect to {location}; not followed: set the [google] endpoint to where it points"
    )]
    Redirected {
        /// The URL.
        url: String,
        /// The status.
        status: u16,
        /// Where it points.
        location: String,
    },
    /// No answer, or only 429/5xx, after every retry.
    #[error("{url}: {problem} after {tries} tries; try again later")]
    GaveUp {
        /// The URL.
        url: String,
        /// The last status or network error.
        problem: String,
        /// Tries made.
        tries: u32,
    },
}

/// Google's own words in an error answer, as ` (...)` (or nothing): one line, short,
/// every secret sent in the request replaced by [`REDACTED`] in case it is echoed.
// Sending (the `net` feature) uses it; it is built without, so its redaction is
// tested in every build.
#[cfg_attr(not(feature = "net"), allow(dead_code))]
pub(crate) fn detail(body: &str, secrets: &[&str]) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let error = &value["error"];
    let words = [
        &error["message"],
        &value["error_description"],
        error,
        &value["message"],
    ]
    .into_iter()
    .find_map(|v| v.as_str())
    .unwrap_or_default();
    let mut words: String = words.split_whitespace().collect::<Vec<_>>().join(" ");
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        words = words.replace(secret, REDACTED);
    }
    if words.chars().count() > 300 {
        words = words.chars().take(300).collect::<String>() + "...";
    }
    match words.is_empty() {
        true => String::new(),
        false => format!(" ({words})"),
    }
}
