//! Sending, against a fake Google (OIDC, STS, IAM, token and Search Console endpoints in
//! one server on 127.0.0.1 answering a script in order): the requests' shapes, the JWT's
//! signature, the token's renewal, Google's refusals, and no secret in any error.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::*;
use crate::http::{Retry, Timeouts};
use crate::submit::fake::{Fake, Reply, reply};

const OIDC_JWT: &str = "gh-oidc-jwt-secret";
const FEDERATED: &str = "federated-token-secret";
const ACCESS: &str = "ya29.access-token-secret";
const SECRETS: &[&str] = &[GITHUB_TOKEN, OIDC_JWT, FEDERATED, ACCESS];
const SITEMAP: &str = "https://example.org/sitemap.xml";
const PUT_PATH: &str = "/webmasters/v3/sites/https%3A%2F%2Fexample.org%2F/sitemaps/https%3A%2F%2Fexample.org%2Fsitemap.xml";

/// The keyless route's three answers, the last giving `access`.
fn token_replies(access: &str) -> Vec<Reply> {
    vec![
        reply(200, &format!(r#"{{"count": 1, "value": "{OIDC_JWT}"}}"#)),
        reply(
            200,
            &format!(
                r#"{{"access_token": "{FEDERATED}", "token_type": "Bearer", "expires_in": 3600}}"#
            ),
        ),
        reply(
            200,
            &format!(r#"{{"accessToken": "{access}", "expireTime": "2026-12-05T11:00:00Z"}}"#),
        ),
    ]
}

/// A keyless client of `fake` (every endpoint on it).
fn keyless(fake: &Fake) -> Google {
    let settings = GoogleSettings {
        api_endpoint: fake.url("/webmasters/v3/"),
        sts_endpoint: fake.url("/sts"),
        iam_endpoint: fake.url("/iam"),
        ..keyless_settings()
    };
    let vars = oidc_vars(&fake.url("/oidc?api-version=2.0"));
    let env = env_of(
        &vars
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect::<Vec<_>>(),
    );
    Google::from_env(&settings, "https://example.org/", &env).unwrap()
}

/// Submits [`SITEMAP`] with the credentials of `vars`, the API on `fake` (its base
/// given without the final `/`, which is added).
fn submit_with(fake: &Fake, vars: &[(&str, &str)]) -> Result<Vec<String>, GoogleError> {
    let settings = GoogleSettings {
        api_endpoint: fake.url("/webmasters/v3"),
        ..GoogleSettings::default()
    };
    let env = env_of(vars);
    let mut google = Google::from_env(&settings, "https://example.org/", &env)?;
    google.submit(&agent(), &quick(), &sitemaps(&[SITEMAP]))
}

fn quick() -> Retry {
    Retry {
        retries: 2,
        backoff: Duration::from_millis(10),
    }
}

fn agent() -> ureq::Agent {
    crate::http::agent(&Timeouts::within(Duration::from_secs(20)), 1)
}

fn sitemaps(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn keyless_asks_github_then_sts_then_iam_once_and_submits_each_sitemap() {
    let mut script = token_replies(ACCESS);
    script.extend([reply(204, ""), reply(200, "{}")]);
    let fake = Fake::start(script);
    let mut google = keyless(&fake);
    let list = sitemaps(&[SITEMAP, "https://example.org/blog/sitemap.xml"]);
    assert_eq!(google.submit(&agent(), &quick(), &list).unwrap(), list);

    let seen = fake.seen();
    assert_eq!(seen.len(), 5, "one token for the run: {seen:?}");
    let audience = format!("//iam.googleapis.com/{PROVIDER}");
    let oidc = &seen[0];
    assert_eq!(oidc.method, "GET");
    let query = url::Url::parse(&fake.url(&oidc.path)).unwrap();
    let query: HashMap<_, _> = query.query_pairs().into_owned().collect();
    assert_eq!(
        (query["api-version"].as_str(), query["audience"].as_str()),
        ("2.0", audience.as_str())
    );
    assert_eq!(
        oidc.header("authorization"),
        format!("bearer {GITHUB_TOKEN}")
    );

    let sts = &seen[1];
    assert_eq!((sts.method.as_str(), sts.path.as_str()), ("POST", "/sts"));
    assert_eq!(
        sts.header("content-type"),
        "application/x-www-form-urlencoded"
    );
    let want: HashMap<String, String> = [
        (
            "grant_type",
            "urn:ietf:params:oauth:grant-type:token-exchange",
        ),
        ("audience", audience.as_str()),
        ("scope", "https://www.googleapis.com/auth/cloud-platform"),
        (
            "requested_token_type",
            "urn:ietf:params:oauth:token-type:access_token",
        ),
        ("subject_token_type", "urn:ietf:params:oauth:token-type:jwt"),
        ("subject_token", OIDC_JWT),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(sts.form(), want);

    let iam = &seen[2];
    assert_eq!(iam.method, "POST");
    assert_eq!(
        iam.path,
        format!("/iam/v1/projects/-/serviceAccounts/{EMAIL}:generateAccessToken")
    );
    assert_eq!(iam.header("authorization"), format!("Bearer {FEDERATED}"));
    let body: serde_json::Value = serde_json::from_str(&iam.body).unwrap();
    assert_eq!(body, serde_json::json!({"scope": [SCOPE]}));

    assert_eq!(
        (seen[3].method.as_str(), seen[3].path.as_str()),
        ("PUT", PUT_PATH)
    );
    assert!(
        seen[4]
            .path
            .ends_with("/sitemaps/https%3A%2F%2Fexample.org%2Fblog%2Fsitemap.xml")
    );
    for put in &seen[3..] {
        assert_eq!(put.header("authorization"), format!("Bearer {ACCESS}"));
        assert_eq!(put.body, "");
    }
}

#[test]
fn an_external_account_without_impersonation_uses_the_federated_token_itself() {
    let mut script = token_replies(ACCESS);
    script.truncate(2);
    script.push(reply(204, ""));
    let fake = Fake::start(script);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gha-creds.json");
    std::fs::write(
        &file,
        external_json(
            &fake.url("/oidc?api-version=2.0&audience=a"),
            &fake.url("/sts"),
            None,
        ),
    )
    .unwrap();
    let vars = [(APPLICATION_CREDENTIALS_VAR, file.to_str().unwrap())];
    submit_with(&fake, &vars).unwrap();
    let seen = fake.seen();
    assert_eq!(seen[0].path, "/oidc?api-version=2.0&audience=a");
    assert_eq!(
        seen[0].header("authorization"),
        format!("Bearer {GITHUB_TOKEN}")
    );
    assert_eq!(seen[1].form()["scope"], SCOPE);
    assert_eq!(
        (seen[2].path.as_str(), seen[2].header("authorization")),
        (PUT_PATH, format!("Bearer {FEDERATED}").as_str())
    );
}

#[test]
fn a_refused_token_is_fetched_anew_once() {
    let mut script = token_replies("first-token");
    script.push(reply(
        401,
        r#"{"error": {"code": 401, "message": "Request had invalid authentication credentials."}}"#,
    ));
    script.extend(token_replies(ACCESS));
    script.push(reply(204, ""));
    let fake = Fake::start(script.clone());
    keyless(&fake)
        .submit(&agent(), &quick(), &sitemaps(&[SITEMAP]))
        .unwrap();
    let puts: Vec<String> = (fake.seen().iter())
        .filter(|s| s.method == "PUT")
        .map(|s| s.header("authorization").to_string())
        .collect();
    assert_eq!(
        puts,
        ["Bearer first-token".to_string(), format!("Bearer {ACCESS}")]
    );

    // Refused again, fresh as it is: one line, no third token.
    script[7] = script[3].clone();
    let fake = Fake::start(script);
    let err = keyless(&fake)
        .submit(&agent(), &quick(), &sitemaps(&[SITEMAP]))
        .unwrap_err();
    assert!(matches!(err, GoogleError::Unauthorized { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("invalid authentication credentials"),
        "{err}"
    );
    assert_eq!(fake.seen().len(), 8);
}

/// Submits keyless against `script`: the error must say `want`, in one line, with no
/// secret in it (`{:?}` included).
fn refused(script: Vec<Reply>, want: &str) -> Fake {
    let fake = Fake::start(script);
    let err = keyless(&fake)
        .submit(&agent(), &quick(), &sitemaps(&[SITEMAP]))
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains(want), "{want}: {text}");
    assert!(!text.contains('\n'), "{text}");
    assert_no_secret(&format!("{text} {err:?}"), SECRETS);
    fake
}

#[test]
fn search_console_s_refusals_name_the_fix_and_no_secret() {
    let denied = format!(
        r#"{{"error": {{"code": 403, "message": "User does not have sufficient permission for site 'https://example.org/'. Token {ACCESS}", "status": "PERMISSION_DENIED"}}}}"#
    );
    let cases: Vec<(Reply, &str)> = vec![
        (
            (403, "", denied),
            "add sitemap@proj.iam.gserviceaccount.com as an Owner or Full user of https://example.org/ in Search Console (Settings > Users and permissions)",
        ),
        (
            reply(404, r#"{"error": {"message": "Not found."}}"#),
            "is not a verified property of this account",
        ),
        (
            reply(400, r#"{"error": {"message": "Invalid sitemap."}}"#),
            "answered HTTP 400 (Invalid sitemap.)",
        ),
        (
            (
                301,
                "Location: https://elsewhere.example/\r\n",
                String::new(),
            ),
            "a redirect to https://elsewhere.example/",
        ),
        (reply(503, ""), "HTTP 503 after 3 tries"),
    ];
    for (answer, want) in cases {
        let mut script = token_replies(ACCESS);
        script.extend([answer.clone(), answer.clone(), answer]);
        refused(script, want);
    }
}

#[test]
fn a_token_step_refused_says_which_and_why_and_no_secret() {
    let echo = format!(
        r#"{{"error": "invalid_grant", "error_description": "The given credential is rejected by the attribute condition: {OIDC_JWT}"}}"#
    );
    let cases: Vec<(usize, Reply, &str)> = vec![
        (
            0,
            reply(403, "{}"),
            "give the job `permissions: id-token: write`",
        ),
        (
            1,
            (400, "", echo),
            "attribute condition may not admit this repository",
        ),
        (
            2,
            reply(
                403,
                r#"{"error": {"message": "Permission 'iam.serviceAccounts.getAccessToken' denied"}}"#,
            ),
            "roles/iam.workloadIdentityUser",
        ),
        (
            2,
            reply(404, "{}"),
            "there is no service account sitemap@proj.iam.gserviceaccount.com",
        ),
        (
            2,
            reply(200, r#"{"expireTime": "x"}"#),
            "HTTP 200 without accessToken",
        ),
    ];
    for (step, answer, want) in cases {
        let mut script = token_replies(ACCESS);
        script.truncate(step);
        script.push(answer);
        let fake = refused(script, want);
        assert_eq!(
            fake.seen().len(),
            step + 1,
            "nothing sent after the refusal"
        );
    }
}

#[test]
fn too_many_requests_waits_as_retry_after_says() {
    let mut script = token_replies(ACCESS);
    script.extend([(429, "Retry-After: 1\r\n", String::new()), reply(204, "")]);
    let fake = Fake::start(script);
    // A backoff of a minute: finishing in seconds means the server's wait was taken.
    let retry = Retry {
        retries: 1,
        backoff: Duration::from_secs(60),
    };
    let start = Instant::now();
    keyless(&fake)
        .submit(&agent(), &retry, &sitemaps(&[SITEMAP]))
        .unwrap();
    let took = start.elapsed();
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(30),
        "{took:?}"
    );
    assert_eq!(fake.seen().len(), 5);
}

#[test]
fn status_reads_sitemaps_get() {
    let mut script = token_replies(ACCESS);
    script.push(reply(200, r#"{"path": "https://example.org/sitemap.xml", "lastDownloaded": "2026-12-02T11:30:00Z", "errors": "3", "warnings": "0", "contents": [{"type": "web", "submitted": "10"}]}"#));
    let fake = Fake::start(script);
    let status = keyless(&fake).status(&agent(), &quick(), SITEMAP).unwrap();
    assert_eq!((status.errors, status.contents[0].submitted), (3, 10));
    let get = &fake.seen()[3];
    assert_eq!((get.method.as_str(), get.path.as_str()), ("GET", PUT_PATH));
    assert_eq!(get.header("authorization"), format!("Bearer {ACCESS}"));

    let fake = Fake::start(vec![]);
    let err = keyless(&fake)
        .status(&agent(), &quick(), "https://other.org/sitemap.xml")
        .unwrap_err();
    assert!(matches!(err, GoogleError::OutsideProperty { .. }), "{err}");
    assert!(fake.seen().is_empty(), "refused before sending");
}

/// A 2048-bit RSA key made by openssl for this run (PKCS#8 PEM, and the public half as
/// PKCS#1 DER), never committed; `None`, said, when openssl is missing (a failure in CI).
fn test_key() -> Option<&'static (String, Vec<u8>)> {
    static KEY: OnceLock<Option<(String, Vec<u8>)>> = OnceLock::new();
    KEY.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let pem = dir.path().join("key.pem");
        let public = dir.path().join("public.der");
        let openssl = |args: &[&std::ffi::OsStr]| {
            std::process::Command::new("openssl")
                .args(args)
                .output()
                .is_ok_and(|o| o.status.success())
        };
        let made = openssl(&[
            "genpkey".as_ref(),
            "-algorithm".as_ref(),
            "RSA".as_ref(),
            "-pkeyopt".as_ref(),
            "rsa_keygen_bits:2048".as_ref(),
            "-out".as_ref(),
            pem.as_os_str(),
        ]) && openssl(&[
            "rsa".as_ref(),
            "-in".as_ref(),
            pem.as_os_str(),
            "-RSAPublicKey_out".as_ref(),
            "-outform".as_ref(),
            "DER".as_ref(),
            "-out".as_ref(),
            public.as_os_str(),
        ]);
        if !made {
            assert!(
                std::env::var_os("CI").is_none(),
                "openssl is needed to test the JWT's signature"
            );
            eprintln!("skipped: openssl is not on PATH, so the JWT's signature is not tested");
            return None;
        }
        Some((
            std::fs::read_to_string(&pem).unwrap(),
            std::fs::read(&public).unwrap(),
        ))
    })
    .as_ref()
}

#[test]
fn a_service_account_signs_its_jwt_with_its_key_and_google_can_verify_it() {
    let Some((pem, public)) = test_key() else {
        return;
    };
    let fake = Fake::start(vec![
        reply(
            200,
            r#"{"access_token": "ya29.sa-token-secret", "expires_in": 3599, "token_type": "Bearer"}"#,
        ),
        reply(204, ""),
    ]);
    let token_uri = fake.url("/token");
    submit_with(&fake, &[(CREDENTIALS_VAR, &key_json(pem, &token_uri))]).unwrap();
    let seen = fake.seen();
    assert_eq!(
        (seen[0].method.as_str(), seen[0].path.as_str()),
        ("POST", "/token")
    );
    let form = seen[0].form();
    assert_eq!(
        form["grant_type"],
        "urn:ietf:params:oauth:grant-type:jwt-bearer"
    );
    assert_eq!(form.len(), 2);
    let jwt = &form["assertion"];

    let parts: Vec<&str> = jwt.split('.').collect();
    let decode = |part: &str| URL_SAFE_NO_PAD.decode(part).unwrap();
    let header: serde_json::Value = serde_json::from_slice(&decode(parts[0])).unwrap();
    assert_eq!(header, serde_json::json!({"alg": "RS256", "typ": "JWT"}));
    let claims: serde_json::Value = serde_json::from_slice(&decode(parts[1])).unwrap();
    let now = jiff::Timestamp::now().as_second();
    let iat = claims["iat"].as_i64().unwrap();
    assert!((iat - now).abs() < 60, "{claims}");
    assert_eq!(
        claims,
        serde_json::json!({"iss": EMAIL, "scope": SCOPE, "aud": token_uri, "iat": iat, "exp": iat + 3600})
    );
    let key = ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        public,
    );
    let signed = format!("{}.{}", parts[0], parts[1]);
    key.verify(signed.as_bytes(), &decode(parts[2]))
        .expect("the signature verifies");
    let mut forged = decode(parts[2]);
    forged[0] ^= 1;
    assert!(key.verify(signed.as_bytes(), &forged).is_err());

    assert_eq!(
        seen[1].header("authorization"),
        "Bearer ya29.sa-token-secret"
    );
}

#[test]
fn a_refused_or_unusable_key_says_so_and_shows_neither_key_nor_jwt() {
    let Some((pem, _)) = test_key() else { return };
    let fake = Fake::start(vec![reply(
        400,
        r#"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#,
    )]);
    let env = env_of(&[(CREDENTIALS_VAR, &key_json(pem, &fake.url("/token")))]);
    let mut google =
        Google::from_env(&GoogleSettings::default(), "https://example.org/", &env).unwrap();
    let err = google
        .submit(&agent(), &quick(), &sitemaps(&[SITEMAP]))
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("Invalid JWT Signature") && text.contains("make a new key for sitemap@"),
        "{text}"
    );
    let jwt = fake.seen()[0].form()["assertion"].clone();
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    assert_no_secret(&format!("{text} {err:?} {google:?}"), &[&jwt, &body]);

    // A PEM that is not a key ring can read is refused before anything is sent.
    let broken = "-----BEGIN PRIVATE KEY-----\nMIIBbroken\n-----END PRIVATE KEY-----\n";
    let fake = Fake::start(vec![]);
    let vars = [(CREDENTIALS_VAR, key_json(broken, &fake.url("/token")))];
    let err = submit_with(&fake, &[(vars[0].0, &vars[0].1)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("private_key") && !err.contains("MIIBbroken"),
        "{err}"
    );
    assert!(fake.seen().is_empty());
}
