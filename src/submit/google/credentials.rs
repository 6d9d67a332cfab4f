//! The credentials, read from the environment: a service account key, or a federated
//! identity (an `external_account` file, or GitHub's OIDC token named by the keyless
//! settings). Every secret in them is a [`Secret`].

use serde_json::Value;

use super::{
    APPLICATION_CREDENTIALS_VAR, CREDENTIALS_VAR, GoogleError, GoogleSettings, OIDC_TOKEN_VAR,
    OIDC_URL_VAR, REDACTED, Request, SCOPE,
};
use crate::fsutil::At;
use crate::submit::Env;

/// A credential (a key, a token, a header carrying one): it prints as [`REDACTED`],
/// `{:?}` included, so no error, log or dry run can show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps `value`.
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value, for the one place it is sent.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Where a token comes from.
#[derive(Debug)]
pub(crate) enum Credentials {
    /// A service account key: a signed JWT traded for a token.
    ServiceAccount(ServiceAccountKey),
    /// A federated identity: an outside token exchanged at STS (then, usually, traded
    /// at IAM for a service account's token).
    Federation(Federation),
}

/// The fields of a service account key that are used.
#[derive(Debug)]
pub(crate) struct ServiceAccountKey {
    /// Where the key came from, for errors.
    // Read only when sending (the `net` feature); a dry run never sees it.
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    pub origin: String,
    /// The account, the JWT's issuer.
    pub client_email: String,
    /// The PKCS#8 PEM private key.
    // Read only when sending (the `net` feature); a dry run never sees it.
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    pub private_key: Secret,
    /// Where the JWT is traded for a token.
    pub token_uri: String,
}

/// A federated identity, as an `external_account` file describes it.
#[derive(Debug)]
pub(crate) struct Federation {
    /// The outside token's URL (GitHub's OIDC endpoint, with the audience).
    pub source_url: String,
    /// The headers it takes (GitHub's bearer token).
    pub source_headers: Vec<(String, Secret)>,
    /// The JSON field holding the token in its answer.
    // Read only when sending (the `net` feature); a dry run never sees it.
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    pub source_field: String,
    /// `//iam.googleapis.com/projects/.../providers/...`.
    pub audience: String,
    /// The outside token's type (a JWT).
    pub subject_token_type: String,
    /// The STS endpoint.
    pub token_url: String,
    /// IAM Credentials' `generateAccessToken` for the service account, if one is
    /// impersonated.
    pub impersonation_url: Option<String>,
}

impl Credentials {
    /// The service account acting, when known.
    pub fn email(&self) -> Option<&str> {
        match self {
            Credentials::ServiceAccount(key) => Some(&key.client_email),
            Credentials::Federation(f) => f.impersonation_url.as_deref().and_then(account_of),
        }
    }

    /// The requests fetching a token, as a dry run shows them.
    pub fn token_requests(&self) -> Vec<Request> {
        let form = "Content-Type: application/x-www-form-urlencoded".to_string();
        match self {
            Credentials::ServiceAccount(key) => vec![Request {
                method: "POST",
                url: key.token_uri.clone(),
                headers: vec![form],
                body: Some(format!("{}&assertion={REDACTED}", jwt_grant())),
            }],
            Credentials::Federation(f) => f.token_requests(),
        }
    }
}

impl Federation {
    fn token_requests(&self) -> Vec<Request> {
        let mut requests = vec![
            Request {
                method: "GET",
                url: self.source_url.clone(),
                headers: (self.source_headers.iter())
                    .map(|(name, value)| shown_header(name, value))
                    .collect(),
                body: None,
            },
            Request {
                method: "POST",
                url: self.token_url.clone(),
                headers: vec!["Content-Type: application/x-www-form-urlencoded".to_string()],
                body: Some(self.sts_form(REDACTED)),
            },
        ];
        if let Some(url) = &self.impersonation_url {
            requests.push(Request {
                method: "POST",
                url: url.clone(),
                headers: vec![
                    format!("Authorization: Bearer {REDACTED}"),
                    "Content-Type: application/json".to_string(),
                ],
                body: Some(iam_body()),
            });
        }
        requests
    }

    /// The STS token exchange's form, for the outside token `subject`. The federated
    /// token is only for IAM when a service account is impersonated: then it asks for
    /// `cloud-platform`, else for Search Console's scope itself.
    pub fn sts_form(&self, subject: &str) -> String {
        let scope = match self.impersonation_url {
            Some(_) => "https://www.googleapis.com/auth/cloud-platform",
            None => SCOPE,
        };
        url::form_urlencoded::Serializer::new(String::new())
            .append_pair(
                "grant_type",
                "urn:ietf:params:oauth:grant-type:token-exchange",
            )
            .append_pair("audience", &self.audience)
            .append_pair("scope", scope)
            .append_pair(
                "requested_token_type",
                "urn:ietf:params:oauth:token-type:access_token",
            )
            .append_pair("subject_token_type", &self.subject_token_type)
            .append_pair("subject_token", subject)
            .finish()
    }
}

/// A header as a dry run shows it: its value redacted, but for the scheme of an
/// `Authorization` (`bearer <redacted>`), which says what kind of credential is sent.
fn shown_header(name: &str, value: &Secret) -> String {
    match value.expose().split_once(' ') {
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("bearer") => {
            format!("{name}: {scheme} {REDACTED}")
        }
        _ => format!("{name}: {REDACTED}"),
    }
}

/// The IAM Credentials `generateAccessToken` body.
pub(crate) fn iam_body() -> String {
    serde_json::json!({ "scope": [SCOPE] }).to_string()
}

/// The JWT grant's form without its assertion.
pub(crate) fn jwt_grant() -> &'static str {
    "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"
}

/// The service account named in a `generateAccessToken` URL.
fn account_of(url: &str) -> Option<&str> {
    let (_, rest) = url.rsplit_once("/serviceAccounts/")?;
    rest.split(':').next().filter(|s| !s.is_empty())
}

/// The credentials, from the first of the three places that has them.
pub(crate) fn from_env(settings: &GoogleSettings, env: Env) -> Result<Credentials, GoogleError> {
    let set = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    if let Some(json) = set(CREDENTIALS_VAR) {
        return parse(&json, CREDENTIALS_VAR);
    }
    if let Some(path) = set(APPLICATION_CREDENTIALS_VAR) {
        let json = std::fs::read_to_string(&path)
            .at(&path)
            .map_err(GoogleError::CredentialsFile)?;
        return parse(&json, &format!("{APPLICATION_CREDENTIALS_VAR} file {path}"));
    }
    if settings.workload_identity_provider.is_some() || settings.service_account.is_some() {
        return keyless(settings, env).map(Credentials::Federation);
    }
    Err(GoogleError::NoCredentials)
}

const KEY_FIX: &str = "use the JSON key as Google gave it (IAM > Service accounts > Keys > Add key > JSON), or the file google-github-actions/auth wrote";

/// A credentials JSON (`origin` names where it came from), by its `type`.
pub(crate) fn parse(json: &str, origin: &str) -> Result<Credentials, GoogleError> {
    let bad = |problem: String| GoogleError::Credentials {
        origin: origin.to_string(),
        problem,
        fix: KEY_FIX,
    };
    // serde_json's own messages may quote a value (the key itself): only the place is said.
    let value: Value = serde_json::from_str(json).map_err(|e| {
        bad(format!(
            "is not JSON (line {}, column {})",
            e.line(),
            e.column()
        ))
    })?;
    let fields = Fields {
        value: &value,
        bad: &bad,
    };
    match fields.text("type")? {
        "service_account" => Ok(Credentials::ServiceAccount(service_account(
            &fields, origin,
        )?)),
        "external_account" => external_account(&fields).map(Credentials::Federation),
        other => Err(bad(format!(
            "has type {other:?}; sitemapgen reads \"service_account\" and \"external_account\""
        ))),
    }
}

/// A JSON object's fields, read with errors naming the field (never its value).
struct Fields<'a> {
    value: &'a Value,
    bad: &'a dyn Fn(String) -> GoogleError,
}

impl<'a> Fields<'a> {
    fn get(&self, path: &str) -> Option<&'a Value> {
        path.split('.').try_fold(self.value, |v, key| v.get(key))
    }

    fn text(&self, path: &str) -> Result<&'a str, GoogleError> {
        match self.get(path) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
            Some(Value::String(_)) => Err((self.bad)(format!("has an empty {path}"))),
            Some(_) => Err((self.bad)(format!("has a {path} that is not a string"))),
            None => Err((self.bad)(format!("has no {path}"))),
        }
    }

    fn optional(&self, path: &str) -> Result<Option<&'a str>, GoogleError> {
        match self.get(path) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.text(path).map(Some),
        }
    }
}

fn service_account(fields: &Fields, origin: &str) -> Result<ServiceAccountKey, GoogleError> {
    let private_key = fields.text("private_key")?;
    if !private_key.contains("-----BEGIN PRIVATE KEY-----") {
        return Err((fields.bad)(
            "has a private_key that is not a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----)"
                .to_string(),
        ));
    }
    Ok(ServiceAccountKey {
        origin: origin.to_string(),
        client_email: fields.text("client_email")?.to_string(),
        private_key: Secret::new(private_key),
        token_uri: (fields.optional("token_uri")?)
            .unwrap_or("https://oauth2.googleapis.com/token")
            .to_string(),
    })
}

/// An `external_account` file with a URL-sourced token, as `google-github-actions/auth`
/// writes it.
fn external_account(fields: &Fields) -> Result<Federation, GoogleError> {
    let source_headers = match fields.get("credential_source.headers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) => (map.iter())
            .map(|(name, value)| match value {
                Value::String(v) => Ok((name.clone(), Secret::new(v.as_str()))),
                _ => Err((fields.bad)(format!(
                    "has a credential_source.headers.{name} that is not a string"
                ))),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err((fields.bad)(
                "has credential_source.headers that are not an object".to_string(),
            ));
        }
    };
    let source_field = match fields.optional("credential_source.format.type")? {
        Some("json") => fields.text("credential_source.format.subject_token_field_name")?,
        _ => {
            return Err((fields.bad)(
                "has no credential_source.format of type \"json\" (sitemapgen reads the token from a JSON answer, as GitHub gives it)"
                    .to_string(),
            ));
        }
    };
    Ok(Federation {
        source_url: fields.text("credential_source.url")?.to_string(),
        source_headers,
        source_field: source_field.to_string(),
        audience: fields.text("audience")?.to_string(),
        subject_token_type: fields.text("subject_token_type")?.to_string(),
        token_url: fields.text("token_url")?.to_string(),
        impersonation_url: (fields.optional("service_account_impersonation_url")?)
            .map(str::to_string),
    })
}

/// The keyless route: the provider and account from the settings, GitHub's OIDC
/// endpoint from the environment.
fn keyless(settings: &GoogleSettings, env: Env) -> Result<Federation, GoogleError> {
    let (Some(provider), Some(account)) = (
        settings.workload_identity_provider.as_deref(),
        settings.service_account.as_deref(),
    ) else {
        return Err(GoogleError::Keyless(
            "keyless Google authentication needs both workload_identity_provider and service_account in sitemap.toml's [google]; set the one missing".to_string(),
        ));
    };
    check_provider(provider)?;
    if !account.contains('@') {
        return Err(GoogleError::Keyless(format!(
            "[google] service_account {account:?} is not an email; use the service account's email (NAME@PROJECT.iam.gserviceaccount.com)"
        )));
    }
    let (Some(url), Some(token)) = (env(OIDC_URL_VAR), env(OIDC_TOKEN_VAR)) else {
        return Err(GoogleError::NoOidc);
    };
    let audience = format!("//iam.googleapis.com/{provider}");
    let mut source = url::Url::parse(&url).map_err(|_| GoogleError::NoOidc)?;
    source.query_pairs_mut().append_pair("audience", &audience);
    Ok(Federation {
        source_url: source.to_string(),
        source_headers: vec![(
            "Authorization".to_string(),
            Secret::new(format!("bearer {token}")),
        )],
        source_field: "value".to_string(),
        audience,
        subject_token_type: "urn:ietf:params:oauth:token-type:jwt".to_string(),
        token_url: settings.sts_endpoint.clone(),
        impersonation_url: Some(format!(
            "{}/v1/projects/-/serviceAccounts/{account}:generateAccessToken",
            settings.iam_endpoint.trim_end_matches('/')
        )),
    })
}

/// Refuses a provider name not of the form IAM gives it.
fn check_provider(provider: &str) -> Result<(), GoogleError> {
    if crate::config::is_provider(provider) {
        return Ok(());
    }
    Err(GoogleError::Keyless(format!(
        "[google] workload_identity_provider {provider:?} is not a provider's full name; use projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/providers/PROVIDER (gcloud iam workload-identity-pools providers describe ... --format='value(name)')"
    )))
}
