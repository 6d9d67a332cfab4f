//! What is read and built without the network: credentials, properties, URLs, claims,
//! answers, dry runs; and that no secret shows in any of them. Sending is tested in
//! `tests/net.rs` against a fake Google on 127.0.0.1.

use std::collections::HashMap;

use super::credentials::{self, Credentials};
use super::property::Property;
use super::*;

#[cfg(feature = "net")]
mod net;

/// A PEM-looking private key: parsing checks only its marker (signing is tested with a
/// real key, generated, in `net`).
pub(super) const FAKE_PEM: &str =
    "-----BEGIN PRIVATE KEY-----\nMIIEsecretsecretsecret\n-----END PRIVATE KEY-----\n";
pub(super) const GITHUB_TOKEN: &str = "ghs-request-token-secret";
pub(super) const EMAIL: &str = "sitemap@proj.iam.gserviceaccount.com";
pub(super) const PROVIDER: &str =
    "projects/123456/locations/global/workloadIdentityPools/github/providers/repo";

/// A service account key's JSON, as Google gives it.
pub(super) fn key_json(pem: &str, token_uri: &str) -> String {
    serde_json::json!({
        "type": "service_account",
        "project_id": "proj",
        "private_key_id": "abc",
        "private_key": pem,
        "client_email": EMAIL,
        "client_id": "1",
        "token_uri": token_uri,
    })
    .to_string()
}

/// The `external_account` file google-github-actions/auth writes.
pub(super) fn external_json(oidc_url: &str, sts: &str, iam: Option<&str>) -> String {
    let mut value = serde_json::json!({
        "type": "external_account",
        "audience": format!("//iam.googleapis.com/{PROVIDER}"),
        "subject_token_type": "urn:ietf:params:oauth:token-type:jwt",
        "token_url": sts,
        "credential_source": {
            "url": oidc_url,
            "headers": {"Authorization": format!("Bearer {GITHUB_TOKEN}")},
            "format": {"type": "json", "subject_token_field_name": "value"},
        },
    });
    if let Some(iam) = iam {
        value["service_account_impersonation_url"] =
            format!("{iam}/v1/projects/-/serviceAccounts/{EMAIL}:generateAccessToken").into();
    }
    value.to_string()
}

/// An environment of `vars`.
pub(super) fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: HashMap<String, String> = (vars.iter())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name: &str| map.get(name).cloned()
}

/// The keyless settings.
pub(super) fn keyless_settings() -> GoogleSettings {
    GoogleSettings {
        workload_identity_provider: Some(PROVIDER.to_string()),
        service_account: Some(EMAIL.to_string()),
        ..GoogleSettings::default()
    }
}

/// GitHub's OIDC variables, as a job with `id-token: write` has them.
pub(super) fn oidc_vars(url: &str) -> Vec<(&'static str, String)> {
    vec![
        (OIDC_URL_VAR, url.to_string()),
        (OIDC_TOKEN_VAR, GITHUB_TOKEN.to_string()),
    ]
}

/// Fails when any of `secrets` (or a long piece of one) shows in `text`.
pub(super) fn assert_no_secret(text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!text.contains(secret), "a secret shows in: {text}");
        if secret.len() > 24 {
            assert!(!text.contains(&secret[8..24]), "a secret shows in: {text}");
        }
    }
}

fn google(settings: &GoogleSettings, vars: &[(&str, &str)]) -> Result<Google, GoogleError> {
    let env = env_of(vars);
    Google::from_env(settings, "https://example.org/", &env)
}

#[test]
fn credentials_come_from_the_key_variable_then_the_file_then_keyless() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("creds.json");
    let ext = external_json("https://oidc.example/?api-version=2.0", STS_ENDPOINT, None);
    std::fs::write(&file, &ext).unwrap();
    let file = file.to_str().unwrap();
    let key = key_json(FAKE_PEM, "https://oauth2.googleapis.com/token");
    let oidc = "https://oidc.example/token?api-version=2.0";
    let (var, app) = (CREDENTIALS_VAR, APPLICATION_CREDENTIALS_VAR);
    type Vars<'a> = &'a [(&'a str, &'a str)];
    let cases: &[(Vars, bool, &str)] = &[
        // (environment, keyless settings given, what is used)
        (&[(var, &key), (app, file)], true, "key"),
        (&[(var, " "), (app, file)], true, "federation"),
        (&[(app, file)], false, "federation"),
        (
            &[(OIDC_URL_VAR, oidc), (OIDC_TOKEN_VAR, GITHUB_TOKEN)],
            true,
            "keyless",
        ),
        (&[], false, "none"),
    ];
    for (vars, keyless, want) in cases {
        let settings = match keyless {
            true => keyless_settings(),
            false => GoogleSettings::default(),
        };
        let got = match google(&settings, vars).map(|g| g.credentials) {
            Ok(Credentials::ServiceAccount(_)) => "key",
            Ok(Credentials::Federation(f)) if f.impersonation_url.is_some() => "keyless",
            Ok(Credentials::Federation(_)) => "federation",
            Err(GoogleError::NoCredentials) => "none",
            Err(e) => panic!("{e}"),
        };
        assert_eq!(got, *want, "{vars:?}");
    }
    let none = GoogleError::NoCredentials.to_string();
    for way in [
        CREDENTIALS_VAR,
        APPLICATION_CREDENTIALS_VAR,
        "workload_identity_provider",
    ] {
        assert!(none.contains(way), "{none}");
    }
}

#[test]
fn a_bad_key_names_the_field_and_never_the_key() {
    let good: serde_json::Value = serde_json::from_str(&key_json(FAKE_PEM, "https://t/")).unwrap();
    let with = |field: &str, value: serde_json::Value| {
        let mut json = good.clone();
        json[field] = value;
        json.to_string()
    };
    let without = |field: &str| {
        let mut json = good.clone();
        json.as_object_mut().unwrap().remove(field);
        json.to_string()
    };
    let cases = [
        (without("client_email"), "has no client_email"),
        (without("private_key"), "has no private_key"),
        (
            with("private_key", 5.into()),
            "private_key that is not a string",
        ),
        (
            with("private_key", "MIIEsecret".into()),
            "not a PKCS#8 PEM key",
        ),
        (
            with("type", "authorized_user".into()),
            "\"authorized_user\"",
        ),
        (without("type"), "has no type"),
        (
            format!("{{\"private_key\": \"{}", "MIIEsecret"),
            "is not JSON (line 1",
        ),
    ];
    for (json, want) in cases {
        let err = credentials::parse(&json, CREDENTIALS_VAR).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with(CREDENTIALS_VAR), "{text}");
        assert!(text.contains(want), "{want}: {text}");
        assert!(text.contains("Add key > JSON"), "{text}");
        assert_no_secret(&format!("{text} {err:?}"), &["MIIEsecret"]);
    }
}

#[test]
fn a_missing_credentials_file_is_named() {
    let vars = [(APPLICATION_CREDENTIALS_VAR, "/nowhere/creds.json")];
    let err = google(&GoogleSettings::default(), &vars).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, GoogleError::CredentialsFile(_)), "{text}");
    assert!(
        text.contains("/nowhere/creds.json") && text.contains("GOOGLE_APPLICATION_CREDENTIALS")
    );
}

#[test]
fn the_external_account_file_is_read_as_google_github_actions_auth_writes_it() {
    let json = external_json(
        "https://oidc.example/t?api-version=2.0&audience=x",
        "https://sts.example/v1/token",
        Some("https://iam.example"),
    );
    let Credentials::Federation(f) = credentials::parse(&json, "file").unwrap() else {
        panic!("not a federation");
    };
    assert_eq!(
        f.source_url,
        "https://oidc.example/t?api-version=2.0&audience=x"
    );
    assert_eq!(f.source_field, "value");
    assert_eq!(f.audience, format!("//iam.googleapis.com/{PROVIDER}"));
    assert_eq!(f.token_url, "https://sts.example/v1/token");
    let creds = Credentials::Federation(f);
    assert_eq!(creds.email(), Some(EMAIL));
    assert_no_secret(&format!("{creds:?}"), &[GITHUB_TOKEN]);

    let mut bad: serde_json::Value = serde_json::from_str(&json).unwrap();
    bad["credential_source"]["format"]["type"] = "text".into();
    let err = credentials::parse(&bad.to_string(), "file").unwrap_err();
    assert!(
        err.to_string().contains("credential_source.format"),
        "{err}"
    );
    bad["credential_source"] = serde_json::json!({"file": "/tmp/token"});
    assert!(credentials::parse(&bad.to_string(), "file").is_err());
}

#[test]
fn keyless_needs_both_settings_a_full_provider_name_and_the_oidc_variables() {
    let oidc = oidc_vars("https://oidc.example/?api-version=2.0");
    let vars: Vec<(&str, &str)> = oidc.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut settings = keyless_settings();
    let google = google(&settings, &vars).unwrap();
    let Credentials::Federation(f) = &google.credentials else {
        panic!("not keyless");
    };
    let audience = format!("//iam.googleapis.com/{PROVIDER}");
    let source = url::Url::parse(&f.source_url).unwrap();
    let query: HashMap<_, _> = source.query_pairs().collect();
    assert_eq!(query["api-version"], "2.0");
    assert_eq!(query["audience"], audience.as_str());
    assert_eq!(
        f.impersonation_url.as_deref(),
        Some(
            format!("{IAM_ENDPOINT}/v1/projects/-/serviceAccounts/{EMAIL}:generateAccessToken")
                .as_str()
        )
    );

    let err = self::google(&settings, &[]).unwrap_err();
    assert!(matches!(err, GoogleError::NoOidc));
    assert!(
        err.to_string().contains("permissions: id-token: write"),
        "{err}"
    );

    settings.workload_identity_provider = Some("projects/p/pools/x".to_string());
    let err = self::google(&settings, &vars).unwrap_err().to_string();
    assert!(
        err.contains("projects/PROJECT_NUMBER/locations/global"),
        "{err}"
    );
    settings.workload_identity_provider = None;
    let err = self::google(&settings, &vars).unwrap_err().to_string();
    assert!(
        err.contains("needs both workload_identity_provider"),
        "{err}"
    );
    let settings = GoogleSettings {
        service_account: Some("not-an-email".to_string()),
        ..keyless_settings()
    };
    let err = self::google(&settings, &vars).unwrap_err().to_string();
    assert!(err.contains("is not an email"), "{err}");
}

#[test]
fn properties_are_a_url_prefix_or_a_domain_and_cover_what_search_console_says() {
    let bad = [
        "example.org",
        "https://example.org",
        "ftp://example.org/",
        "sc-domain:",
        "sc-domain:a/b",
        "https://example.org/?q=1",
    ];
    for text in bad {
        let err = Property::parse(text).unwrap_err().to_string();
        assert!(err.contains("sc-domain:example.org"), "{text}: {err}");
    }
    let cases = [
        (
            "https://example.org/",
            "https://example.org/sitemap.xml",
            true,
        ),
        (
            "https://example.org/",
            "https://example.org/a/sitemap.xml",
            true,
        ),
        (
            "https://example.org/",
            "http://example.org/sitemap.xml",
            false,
        ),
        (
            "https://example.org/",
            "https://www.example.org/sitemap.xml",
            false,
        ),
        (
            "https://example.org/docs/",
            "https://example.org/sitemap.xml",
            false,
        ),
        (
            "sc-domain:example.org",
            "http://example.org/sitemap.xml",
            true,
        ),
        (
            "sc-domain:example.org",
            "https://blog.example.org/sitemap.xml",
            true,
        ),
        (
            "sc-domain:example.org",
            "https://badexample.org/sitemap.xml",
            false,
        ),
        (
            "sc-domain:example.org",
            "ftp://example.org/sitemap.xml",
            false,
        ),
        ("sc-domain:example.org", "sitemap.xml", false),
    ];
    for (property, sitemap, want) in cases {
        let got = Property::parse(property).unwrap().covers(sitemap);
        assert_eq!(got.is_ok(), want, "{property} {sitemap}");
        if let Err(e) = got {
            let text = e.to_string();
            assert!(text.contains(property) && text.contains(sitemap), "{text}");
            assert!(
                text.contains("sc-domain:") || text.contains("full URL"),
                "{text}"
            );
        }
    }
}

#[test]
fn the_property_and_the_sitemap_are_each_percent_encoded_whole() {
    let prefix = Property::parse("https://example.org/").unwrap();
    let domain = Property::parse("sc-domain:example.org").unwrap();
    let api = "https://www.googleapis.com/webmasters/v3/";
    assert_eq!(
        api::sitemap_url(api, &prefix, "https://example.org/sitemap.xml?x=1&y=é"),
        "https://www.googleapis.com/webmasters/v3/sites/https%3A%2F%2Fexample.org%2F/sitemaps/https%3A%2F%2Fexample.org%2Fsitemap.xml%3Fx%3D1%26y%3D%C3%A9"
    );
    assert_eq!(
        api::sitemap_url(api, &domain, "https://example.org/s-m_1~.xml"),
        "https://www.googleapis.com/webmasters/v3/sites/sc-domain%3Aexample.org/sitemaps/https%3A%2F%2Fexample.org%2Fs-m_1~.xml"
    );
}

#[test]
fn sitemaps_get_is_read_with_its_counts_as_strings() {
    let json = r#"{
        "path": "https://example.org/sitemap.xml",
        "lastSubmitted": "2026-12-01T10:00:00.000Z",
        "lastDownloaded": "2026-12-02T11:30:00Z",
        "isPending": false, "isSitemapsIndex": true, "type": "sitemap",
        "warnings": "2", "errors": "1",
        "contents": [{"type": "web", "submitted": "120", "indexed": "0"}, {"type": "image", "submitted": 4}]
    }"#;
    let status = SitemapStatus::parse(json, "u").unwrap();
    assert_eq!(status.path, "https://example.org/sitemap.xml");
    assert_eq!(
        status.last_submitted,
        Some("2026-12-01T10:00:00Z".parse().unwrap())
    );
    assert_eq!(
        status.last_downloaded,
        Some("2026-12-02T11:30:00Z".parse().unwrap())
    );
    assert!(!status.is_pending && status.is_sitemaps_index);
    assert_eq!((status.errors, status.warnings), (1, 2));
    let contents: Vec<_> = (status.contents.iter())
        .map(|c| (c.kind.as_str(), c.submitted, c.indexed))
        .collect();
    assert_eq!(contents, [("web", 120, Some(0)), ("image", 4, None)]);

    let pending = SitemapStatus::parse(r#"{"path": "p", "isPending": true}"#, "u").unwrap();
    assert!(pending.is_pending && pending.last_downloaded.is_none() && pending.contents.is_empty());
    for (json, want) in [
        ("[]", "not a JSON object"),
        ("{\"errors\": \"many\"}", "errors that is not a count"),
        (
            "{\"lastSubmitted\": \"yesterday\"}",
            "lastSubmitted that is not an RFC 3339",
        ),
        ("{\"contents\": 3}", "contents that are not a list"),
        ("<html>", "not JSON"),
    ] {
        let err = SitemapStatus::parse(json, "https://api/x")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(want) && err.starts_with("https://api/x answered"),
            "{err}"
        );
    }
}

#[test]
fn the_jwt_claims_are_google_s_for_a_service_account() {
    let claims = jwt::Claims::new(EMAIL, "https://oauth2.googleapis.com/token", 1_700_000_000);
    let json: serde_json::Value = serde_json::to_value(&claims).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "iss": EMAIL,
            "scope": "https://www.googleapis.com/auth/webmasters",
            "aud": "https://oauth2.googleapis.com/token",
            "iat": 1_700_000_000,
            "exp": 1_700_003_600,
        })
    );
    let header: serde_json::Value = serde_json::from_str(jwt::HEADER).unwrap();
    assert_eq!(header, serde_json::json!({"alg": "RS256", "typ": "JWT"}));
}

#[test]
fn a_dry_run_shows_every_request_with_no_credential_and_fetches_nothing() {
    let key = key_json(FAKE_PEM, "https://oauth2.googleapis.com/token");
    let oidc = oidc_vars("https://oidc.example/?api-version=2.0");
    let keyless: Vec<(&str, &str)> = oidc.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let sitemaps = ["https://example.org/sitemap.xml".to_string()];
    let runs = [
        (
            GoogleSettings::default(),
            vec![(CREDENTIALS_VAR, key.as_str())],
            vec!["POST", "PUT"],
        ),
        (
            keyless_settings(),
            keyless,
            vec!["GET", "POST", "POST", "PUT"],
        ),
    ];
    for (settings, vars, methods) in runs {
        let google = google(&settings, &vars).unwrap();
        let requests = google.dry_run(&sitemaps).unwrap();
        let got: Vec<_> = requests.iter().map(|r| r.method).collect();
        assert_eq!(got, methods);
        if requests[0].method == "GET" {
            assert_eq!(requests[0].headers, ["Authorization: bearer <redacted>"]);
        }
        let put = requests.last().unwrap();
        assert_eq!(put.headers, ["Authorization: Bearer <redacted>"]);
        assert!(put.url.ends_with(
            "/sites/https%3A%2F%2Fexample.org%2F/sitemaps/https%3A%2F%2Fexample.org%2Fsitemap.xml"
        ));
        let shown = format!("{requests:?} {google:?}");
        assert!(shown.contains(REDACTED));
        assert_no_secret(&shown, &[FAKE_PEM, "MIIEsecret", GITHUB_TOKEN]);
    }
    let google = google(&GoogleSettings::default(), &[(CREDENTIALS_VAR, &key)]).unwrap();
    let outside = ["https://other.org/sitemap.xml".to_string()];
    let err = google.dry_run(&outside).unwrap_err().to_string();
    assert!(
        err.contains("outside the Search Console property https://example.org/"),
        "{err}"
    );
}

#[test]
fn a_secret_prints_redacted_however_it_is_printed() {
    let secret = Secret::new("ya29.token");
    assert_eq!(
        format!("{secret} {secret:?} {secret:#?}"),
        "<redacted> <redacted> <redacted>"
    );
}

#[test]
fn google_s_words_in_a_refusal_are_one_short_line_with_no_secret_echoed() {
    let long = "x".repeat(400);
    let cases = [
        (
            r#"{"error": {"code": 403, "message": "No access\nfor ya29.t"}}"#,
            " (No access for <redacted>)",
        ),
        (
            r#"{"error": "invalid_grant", "error_description": "Bad ya29.t"}"#,
            " (Bad <redacted>)",
        ),
        (r#"{"error": "invalid_scope"}"#, " (invalid_scope)"),
        ("<html>ya29.t</html>", ""),
        ("", ""),
    ];
    for (body, want) in cases {
        assert_eq!(error::detail(body, &["ya29.t", ""]), want, "{body}");
    }
    let cut = error::detail(&format!(r#"{{"message": "{long}"}}"#), &[]);
    assert_eq!(cut.chars().count(), 300 + "...".len() + 3);
}
