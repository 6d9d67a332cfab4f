//! Google Search Console: telling it of the sitemap, and reading back what it thinks.
//!
//! Google has no ping: the Search Console API's `sitemaps.submit` is the one way to make
//! it re-read a sitemap, and only for a verified property whose users include the
//! account calling. The account is a service account, authenticated by one of (in this
//! order, all from the environment, never from `sitemap.toml`):
//!
//! 1. [`CREDENTIALS_VAR`]: the JSON of a service account key (a CI secret);
//! 2. [`APPLICATION_CREDENTIALS_VAR`]: the path of a credentials file, a service account
//!    key or the `external_account` file `google-github-actions/auth` writes;
//! 3. in GitHub Actions, no key at all: [`GoogleSettings::workload_identity_provider`]
//!    and [`GoogleSettings::service_account`], with GitHub's OIDC token exchanged through
//!    Workload Identity Federation for the service account's access token.
//!
//! Tokens are fetched once per run, held in memory only, and never shown: every
//! credential is a [`Secret`], which prints as [`REDACTED`]. Building requests, claims and
//! answers needs no network; only `Google::submit` and `Google::status` send (the
//! `net` feature).

use super::{Env, REDACTED, Request};

mod api;
mod credentials;
mod error;
mod jwt;
#[cfg(feature = "net")]
mod net;
mod property;
#[cfg(test)]
mod tests;
#[cfg(feature = "net")]
mod token;

pub use api::{SitemapContent, SitemapStatus};
pub use credentials::Secret;
pub use error::GoogleError;

use credentials::Credentials;
use property::Property;

/// The environment variable holding a service account key's JSON.
pub const CREDENTIALS_VAR: &str = "SITEMAPGEN_GOOGLE_CREDENTIALS";

/// The environment variable naming a credentials file (Google's own convention).
pub const APPLICATION_CREDENTIALS_VAR: &str = "GOOGLE_APPLICATION_CREDENTIALS";

/// GitHub Actions' OIDC token endpoint, set in a job with `permissions: id-token: write`.
pub const OIDC_URL_VAR: &str = "ACTIONS_ID_TOKEN_REQUEST_URL";

/// The bearer token for [`OIDC_URL_VAR`], set beside it.
pub const OIDC_TOKEN_VAR: &str = "ACTIONS_ID_TOKEN_REQUEST_TOKEN";

/// The OAuth scope of the Search Console API (read and write).
pub const SCOPE: &str = "https://www.googleapis.com/auth/webmasters";

/// The default Search Console API base.
pub const API_ENDPOINT: &str = "https://www.googleapis.com/webmasters/v3/";

/// The default Security Token Service (Workload Identity Federation's exchange).
pub const STS_ENDPOINT: &str = "https://sts.googleapis.com/v1/token";

/// The default IAM Credentials API base (a service account's token for a federated one).
pub const IAM_ENDPOINT: &str = "https://iamcredentials.googleapis.com";

/// What `submit` and `status` need to know of Google beyond the credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleSettings {
    /// The Search Console property: a URL prefix (`https://example.org/`) or a domain
    /// (`sc-domain:example.org`); `None` is the base URL, as a URL prefix.
    pub property: Option<String>,
    /// The service account's email, for the keyless route.
    pub service_account: Option<String>,
    /// The Workload Identity provider, for the keyless route:
    /// `projects/NUM/locations/global/workloadIdentityPools/POOL/providers/PROVIDER`.
    pub workload_identity_provider: Option<String>,
    /// The Search Console API base ([`API_ENDPOINT`]).
    pub api_endpoint: String,
    /// The token exchange of the keyless route ([`STS_ENDPOINT`]).
    pub sts_endpoint: String,
    /// The IAM Credentials API base of the keyless route ([`IAM_ENDPOINT`]).
    pub iam_endpoint: String,
}

impl Default for GoogleSettings {
    fn default() -> Self {
        GoogleSettings {
            property: None,
            service_account: None,
            workload_identity_provider: None,
            api_endpoint: API_ENDPOINT.to_string(),
            sts_endpoint: STS_ENDPOINT.to_string(),
            iam_endpoint: IAM_ENDPOINT.to_string(),
        }
    }
}

/// A Search Console client for one property, its credentials read and (once sending)
/// its access token held in memory.
#[derive(Debug)]
pub struct Google {
    credentials: Credentials,
    property: Property,
    /// The API base, ending in `/`.
    api: String,
    /// The access token, fetched on first use; dropped when the API refuses it.
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    token: Option<Secret>,
}

impl Google {
    /// Reads the credentials from `env` (see the module's docs for the order) and the
    /// property from `settings` (or `base_url`). Reads a credentials file if one is
    /// named; sends nothing.
    pub fn from_env(
        settings: &GoogleSettings,
        base_url: &str,
        env: Env,
    ) -> Result<Google, GoogleError> {
        let property = Property::parse(settings.property.as_deref().unwrap_or(base_url))?;
        let credentials = credentials::from_env(settings, env)?;
        let mut api = settings.api_endpoint.clone();
        if !api.ends_with('/') {
            api.push('/');
        }
        Ok(Google {
            credentials,
            property,
            api,
            token: None,
        })
    }

    /// The property requests are made for, as the API takes it.
    pub fn property(&self) -> &str {
        self.property.as_str()
    }

    /// The service account acting, when the credentials name it (a direct federated
    /// identity has none).
    pub fn account(&self) -> Option<&str> {
        self.credentials.email()
    }

    /// The requests `submit` would send for `sitemaps`, credentials redacted: those
    /// fetching the access token, then one `sitemaps.submit` each. Fetches nothing; a
    /// sitemap outside the property is refused as `submit` refuses it.
    pub fn dry_run(&self, sitemaps: &[String]) -> Result<Vec<Request>, GoogleError> {
        self.check(sitemaps)?;
        let mut requests = self.credentials.token_requests();
        let bearer = format!("Authorization: Bearer {REDACTED}");
        requests.extend(sitemaps.iter().map(|sitemap| Request {
            method: "PUT",
            url: api::sitemap_url(&self.api, &self.property, sitemap),
            headers: vec![bearer.clone()],
            body: None,
        }));
        Ok(requests)
    }

    /// Refuses the first sitemap the property does not cover.
    fn check(&self, sitemaps: &[String]) -> Result<(), GoogleError> {
        sitemaps.iter().try_for_each(|s| self.property.covers(s))
    }
}
