//! `[google]` and `[bing]`: the search engines `submit` tells besides IndexNow, and
//! `status` asks. Only what is not secret is here; credentials come from the environment
//! (`submit`'s engines read them), never from `sitemap.toml`.

use toml::Spanned;

use super::error::ConfigError;
use super::file::{FileBing, FileConfig, FileGoogle, Source, bad_value};

/// The engines `submit` tells besides IndexNow: each on when its table is there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Engines {
    /// `[google]`: Google Search Console.
    pub google: Option<Google>,
    /// `[bing]`: Bing Webmaster Tools.
    pub bing: Option<Bing>,
}

/// `[google]`, checked. Endpoints left out are the engine's defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Google {
    /// The Search Console property: `https://example.org/` (URL-prefix) or
    /// `sc-domain:example.org` (domain); the base URL when not set.
    pub property: String,
    /// The service account to act as, with `workload_identity_provider` (keyless, from
    /// GitHub Actions).
    pub service_account: Option<String>,
    /// The Workload Identity Federation provider that trusts the repository's OIDC
    /// tokens: `projects/NUMBER/locations/global/workloadIdentityPools/POOL/providers/ID`.
    pub workload_identity_provider: Option<String>,
    /// The Search Console API's base URL.
    pub api_endpoint: Option<String>,
    /// Google's Security Token Service, for the keyless route.
    pub sts_endpoint: Option<String>,
    /// The IAM Credentials API, for the keyless route.
    pub iam_endpoint: Option<String>,
}

/// `[bing]`, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bing {
    /// The site as Bing Webmaster Tools knows it; the base URL when not set.
    pub site_url: String,
    /// The Webmaster API's base URL, when not Bing's.
    pub api_endpoint: Option<String>,
}

/// `[google]` and `[bing]`, checked against `base_url`.
pub(super) fn engines(
    file: &FileConfig,
    src: &Source,
    base_url: &str,
) -> Result<Engines, ConfigError> {
    let google = file
        .google
        .as_ref()
        .map(|g| google(g, src, base_url))
        .transpose()?;
    let bing = file
        .bing
        .as_ref()
        .map(|b| bing(b, src, base_url))
        .transpose()?;
    Ok(Engines { google, bing })
}

fn google(file: &FileGoogle, src: &Source, base_url: &str) -> Result<Google, ConfigError> {
    let property = match &file.property {
        Some(p) => {
            let value = p.get_ref().trim();
            property_problem(value).map_or(Ok(()), |m| {
                Err(bad_value(src, p.span(), "[google] property", m))
            })?;
            value.to_string()
        }
        None => base_url.to_string(),
    };
    let (account, provider) = (&file.service_account, &file.workload_identity_provider);
    let keyless = match (account, provider) {
        (Some(a), Some(p)) => Some((checked_account(a, src)?, checked_provider(p, src)?)),
        (None, None) => None,
        (Some(s), None) | (None, Some(s)) => {
            let (has, lacks) = match account {
                Some(_) => ("service_account", "workload_identity_provider"),
                None => ("workload_identity_provider", "service_account"),
            };
            let message = format!(
                "is set, and {lacks} is not: the keyless route from GitHub Actions needs both (or neither, with a key in SITEMAPGEN_GOOGLE_CREDENTIALS or GOOGLE_APPLICATION_CREDENTIALS)"
            );
            return Err(bad_value(
                src,
                s.span(),
                &format!("[google] {has}"),
                message,
            ));
        }
    };
    let (service_account, workload_identity_provider) = keyless.unzip();
    Ok(Google {
        property,
        service_account,
        workload_identity_provider,
        api_endpoint: endpoint(&file.api_endpoint, src, "[google] api_endpoint")?,
        sts_endpoint: endpoint(&file.sts_endpoint, src, "[google] sts_endpoint")?,
        iam_endpoint: endpoint(&file.iam_endpoint, src, "[google] iam_endpoint")?,
    })
}

fn bing(file: &FileBing, src: &Source, base_url: &str) -> Result<Bing, ConfigError> {
    let site_url = match &file.site_url {
        Some(s) => {
            let value = s.get_ref().trim();
            if !is_http_url(value) {
                let message = format!(
                    "'{}' is not an http(s) URL; write the site as Bing Webmaster Tools shows it, e.g. \"{base_url}\"",
                    crate::text::one_line(value)
                );
                return Err(bad_value(src, s.span(), "[bing] site_url", message));
            }
            value.to_string()
        }
        None => base_url.to_string(),
    };
    Ok(Bing {
        site_url,
        api_endpoint: endpoint(&file.api_endpoint, src, "[bing] api_endpoint")?,
    })
}

/// What is wrong with a Search Console property as written, if anything.
fn property_problem(value: &str) -> Option<String> {
    let shown = crate::text::one_line(value);
    let fix = "write \"sc-domain:example.org\" (a domain property) or \"https://example.org/\" (a URL-prefix property), as Search Console shows it";
    match value.strip_prefix("sc-domain:") {
        Some("") => Some(format!("'{shown}' names no domain after sc-domain:; {fix}")),
        _ if is_property(value) => None,
        None if is_http_url(value) && !value.ends_with('/') => Some(format!(
            "'{shown}' is a URL-prefix property without its final '/'; write \"{shown}/\""
        )),
        _ => Some(format!("'{shown}' is not a Search Console property; {fix}")),
    }
}

fn checked_account(a: &Spanned<String>, src: &Source) -> Result<String, ConfigError> {
    let value = a.get_ref().trim();
    match value.split_once('@') {
        Some((name, domain)) if !name.is_empty() && domain.contains('.') => Ok(value.to_string()),
        _ => Err(bad_value(
            src,
            a.span(),
            "[google] service_account",
            format!(
                "'{}' is not a service account's email; write it as the Google Cloud console shows it, e.g. \"sitemaps@my-project.iam.gserviceaccount.com\"",
                crate::text::one_line(value)
            ),
        )),
    }
}

/// Whether `text` names a Search Console property in either form: a URL prefix
/// (`https://example.org/`, ending in `/`, no query or fragment) or a domain
/// (`sc-domain:example.org`, the host alone).
pub fn is_property(text: &str) -> bool {
    if let Some(host) = text.strip_prefix("sc-domain:") {
        let url = url::Url::parse(&format!("https://{host}/")).ok();
        // The host must be all there is: no path, port or user.
        return url.and_then(|u| u.host_str().map(|h| h.eq_ignore_ascii_case(host))) == Some(true);
    }
    url::Url::parse(text).is_ok_and(|url| {
        matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some()
            && text.ends_with('/')
            && url.query().is_none()
            && url.fragment().is_none()
    })
}

/// Whether `provider` is a Workload Identity provider's full name, as IAM gives it:
/// `projects/NUMBER/locations/global/workloadIdentityPools/POOL/providers/ID`.
pub fn is_provider(provider: &str) -> bool {
    let parts: Vec<&str> = provider.split('/').collect();
    let fixed = [
        (0, "projects"),
        (2, "locations"),
        (4, "workloadIdentityPools"),
        (6, "providers"),
    ];
    parts.len() == 8
        && fixed.iter().all(|(i, word)| parts[*i] == *word)
        && parts[1].bytes().all(|b| b.is_ascii_digit())
        && parts.iter().all(|p| !p.is_empty())
}

fn checked_provider(p: &Spanned<String>, src: &Source) -> Result<String, ConfigError> {
    let value = p.get_ref().trim();
    match is_provider(value) {
        true => Ok(value.to_string()),
        false => Err(bad_value(
            src,
            p.span(),
            "[google] workload_identity_provider",
            format!(
                "'{}' is not a provider's full name; write projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/providers/PROVIDER (gcloud iam workload-identity-pools providers describe shows it)",
                crate::text::one_line(value)
            ),
        )),
    }
}

fn endpoint(
    e: &Option<Spanned<String>>,
    src: &Source,
    key: &str,
) -> Result<Option<String>, ConfigError> {
    let Some(e) = e else { return Ok(None) };
    let value = e.get_ref().trim();
    match is_http_url(value) {
        true => Ok(Some(value.to_string())),
        false => Err(bad_value(
            src,
            e.span(),
            key,
            format!(
                "'{}' is not an http(s) URL; leave it out for the engine's own",
                crate::text::one_line(value)
            ),
        )),
    }
}

fn is_http_url(value: &str) -> bool {
    url::Url::parse(value)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}
