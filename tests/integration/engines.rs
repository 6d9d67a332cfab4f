//! `submit` and `status` with Google and Bing set up, through the binary, against one
//! fake server on 127.0.0.1 that answers each engine's paths as its API documents (never
//! any other address): what each is sent, what the summary says, that one engine
//! failing stops none of the others, and that no credential reaches any output. Google's
//! key is made by openssl for each run; none is committed.

use predicates::prelude::*;

use crate::fake::Server;
use crate::util::Site;

const BING_KEY: &str = "bing-key-0123456789-SECRET";

/// A built site (its sitemap written) whose change list names two added URLs, set up
/// for Bing at `server`.
fn bing_site(server: &Server) -> Site {
    let site = Site::new(&["index.html", "a/index.html"]);
    site.config(&format!(
        "base_url = 'https://example.org/'\nchanges = true\n[bing]\napi_endpoint = '{}'\n",
        server.url("/bing/")
    ));
    site.cmd().arg("--all-changed").assert().success();
    site
}

fn run(site: &Site, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = site.cmd();
    cmd.args(args)
        .args(["--backoff-ms", "10"])
        .env(BING_KEY_VAR, BING_KEY)
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

const BING_KEY_VAR: &str = "BING_WEBMASTER_API_KEY";

/// Every output of a run, none holding a credential.
fn no_secret(output: &std::process::Output, secrets: &[&str]) {
    let all = [&output.stdout[..], &output.stderr[..]].concat();
    let all = String::from_utf8_lossy(&all);
    for secret in secrets {
        assert!(!all.contains(secret), "{secret} in {all}");
    }
}

#[test]
fn bing_is_told_of_the_sitemap_and_the_changed_urls_within_its_quota() {
    let server = Server::routed(vec![
        ("/bing/SubmitFeed", 200, r#"{"d":null}"#.to_string()),
        (
            "/bing/GetUrlSubmissionQuota",
            200,
            r#"{"d":{"DailyQuota":1,"MonthlyQuota":100}}"#.to_string(),
        ),
        ("/bing/SubmitUrlBatch", 200, r#"{"d":null}"#.to_string()),
    ]);
    let site = bing_site(&server);
    let out = run(&site, &["submit"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "bing: submitted https://example.org/sitemap.xml; 1 URL changed, 1 URL left past the day's quota of 1 (an IndexNow key would carry them)",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    let seen = server.seen();
    let paths: Vec<&str> = seen
        .iter()
        .map(|s| s.path.split('?').next().unwrap())
        .map(|p| p.trim_start_matches("/bing/"))
        .collect();
    assert_eq!(
        paths,
        ["SubmitFeed", "GetUrlSubmissionQuota", "SubmitUrlBatch"]
    );
    let feed: serde_json::Value = serde_json::from_str(&seen[0].body).unwrap();
    assert_eq!(
        feed,
        serde_json::json!({"siteUrl": "https://example.org/", "feedUrl": "https://example.org/sitemap.xml"})
    );
    assert!(
        seen[0].path.ends_with(&format!("apikey={BING_KEY}")),
        "{}",
        seen[0].path
    );

    // A dry run prints the requests, the key redacted, and sends nothing.
    let out = run(&site, &["submit", "--dry-run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("SubmitFeed?apikey=<redacted>"))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    assert_eq!(server.seen().len(), 3);
}

/// A key Bing refuses fails Bing alone: IndexNow is still told, the run exits 1 and the
/// last line names the engine that failed; the key is in no output.
#[test]
fn one_engine_failing_stops_none_of_the_others() {
    let server = Server::routed(vec![
        (
            "/bing/",
            400,
            r#"{"ErrorCode":3,"Message":"Invalid API key"}"#.to_string(),
        ),
        ("/indexnow", 200, String::new()),
    ]);
    let site = bing_site(&server);
    let config = std::fs::read_to_string(site.root().join("sitemap.toml")).unwrap();
    site.config(&format!("indexnow_key = '0123456789abcdef'\n{config}"));
    let out = run(&site, &["submit", "--endpoint", &server.url("/indexnow")])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("submitted 2 URLs to"))
        .stderr(predicate::str::contains("error: bing: "))
        .stderr(predicate::str::contains(
            "submit: told indexnow; bing failed",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    // --engine tells one engine only.
    run(&site, &["submit", "--engine", "bing"]).assert().code(1);
    let after = server.seen();
    assert!(
        after.last().unwrap().path.starts_with("/bing/"),
        "{after:?}"
    );
}

#[test]
fn status_says_what_bing_says_beside_our_count() {
    let feeds = r#"{"d":[{"Url":"https://example.org/sitemap.xml","Status":"Success","Submitted":"/Date(1764900000000)/","LastCrawled":"/Date(1764986400000)/","UrlCount":2,"Type":"Sitemap","FileSize":300,"Compressed":false}]}"#;
    let server = Server::routed(vec![("/bing/GetFeeds", 200, feeds.to_string())]);
    let site = bing_site(&server);
    let out = run(&site, &["status"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "bing: https://example.org/sitemap.xml: read 2025-12-06T02:00:00Z, Success, 0 errors, 0 warnings, 2 URLs, ours lists 2 URLs",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    let out = run(&site, &["status", "--json"])
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ours"], 2);
    assert_eq!(json["engines"]["bing"]["sitemaps"][0]["state"], "Success");
    // No engine set up: said, exit 2.
    site.config("base_url = 'https://example.org/'\n");
    site.cmd()
        .arg("status")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no engine to ask: add [google] or [bing]",
        ));
}

const TOKEN: &str = "ya29.access-token-SECRET";

/// A service account key's JSON, its private key made by openssl for this run, its token
/// endpoint at `server`; `None` without openssl. Also the key's PEM, which no output may
/// hold.
fn service_account(server: &Server) -> Option<(String, String)> {
    if !crate::tools::OPENSSL.present() {
        return None;
    }
    let made = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
        ])
        .output()
        .unwrap();
    let pem = String::from_utf8(made.stdout).unwrap();
    let key = serde_json::json!({
        "type": "service_account",
        "project_id": "p",
        "private_key_id": "k1",
        "private_key": pem,
        "client_email": "sitemaps@p.iam.gserviceaccount.com",
        "token_uri": server.url("/token"),
    });
    Some((key.to_string(), pem))
}

/// A built site set up for Google at `server` (a domain property).
fn google_site(server: &Server) -> Site {
    let site = Site::new(&["index.html", "a/index.html"]);
    site.config(&format!(
        "base_url = 'https://example.org/'\n[google]\nproperty = 'sc-domain:example.org'\napi_endpoint = '{}'\n",
        server.url("/webmasters/v3/")
    ));
    site.cmd().assert().success();
    site
}

fn token_answer() -> String {
    serde_json::json!({"access_token": TOKEN, "expires_in": 3600, "token_type": "Bearer"})
        .to_string()
}

#[test]
fn google_is_told_of_the_sitemap_with_a_signed_token_and_no_secret_shown() {
    let server = Server::routed(vec![
        ("/token", 200, token_answer()),
        ("/webmasters/v3/sites/", 200, String::new()),
    ]);
    let Some((key, pem)) = service_account(&server) else {
        return;
    };
    let site = google_site(&server);
    let secret_line = pem.lines().nth(3).unwrap().to_string();
    let out = run(&site, &["submit"])
        .env("SITEMAPGEN_GOOGLE_CREDENTIALS", &key)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "google: submitted https://example.org/sitemap.xml",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[TOKEN, &secret_line]);
    let seen = server.seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(
        (seen[0].method.as_str(), seen[0].path.as_str()),
        ("POST", "/token")
    );
    assert!(
        seen[0]
            .body
            .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"),
        "{}",
        seen[0].body
    );
    assert_eq!(
        (seen[1].method.as_str(), seen[1].path.as_str()),
        (
            "PUT",
            "/webmasters/v3/sites/sc-domain%3Aexample.org/sitemaps/https%3A%2F%2Fexample.org%2Fsitemap.xml"
        )
    );
    // A dry run: the requests, every credential redacted, nothing sent.
    let out = run(&site, &["submit", "--dry-run"])
        .env("SITEMAPGEN_GOOGLE_CREDENTIALS", &key)
        .assert()
        .success()
        .stdout(predicate::str::contains("Authorization: Bearer <redacted>"))
        .get_output()
        .clone();
    no_secret(&out, &[TOKEN, &secret_line]);
    assert_eq!(server.seen().len(), 2);
    // No credentials: one line naming the ways to give them, exit 1.
    run(&site, &["submit"])
        .env_remove("SITEMAPGEN_GOOGLE_CREDENTIALS")
        .env_remove("GOOGLE_APPLICATION_CREDENTIALS")
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("error: google: ")
                .and(predicate::str::contains("SITEMAPGEN_GOOGLE_CREDENTIALS")),
        );
}

/// A property the service account cannot manage: one line saying whom to add where.
#[test]
fn a_property_the_account_cannot_manage_says_whom_to_add() {
    let denied = r#"{"error":{"code":403,"message":"User does not have sufficient permission for site 'sc-domain:example.org'.","status":"PERMISSION_DENIED"}}"#;
    let server = Server::routed(vec![
        ("/token", 200, token_answer()),
        ("/webmasters/v3/sites/", 403, denied.to_string()),
    ]);
    let Some((key, _)) = service_account(&server) else {
        return;
    };
    let site = google_site(&server);
    let out = run(&site, &["submit"])
        .env("SITEMAPGEN_GOOGLE_CREDENTIALS", &key)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "sitemaps@p.iam.gserviceaccount.com",
        ))
        .stderr(predicate::str::contains("Owner"))
        .get_output()
        .clone();
    no_secret(&out, &[TOKEN]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("error: google:"))
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn status_says_what_google_says_and_fails_on_its_errors() {
    let said = serde_json::json!({
        "path": "https://example.org/sitemap.xml",
        "lastSubmitted": "2026-12-01T10:00:00.000Z",
        "isPending": false,
        "isSitemapsIndex": false,
        "lastDownloaded": "2026-12-02T10:00:00.000Z",
        "warnings": "0",
        "errors": "1",
        "contents": [{"type": "web", "submitted": "2", "indexed": "1"}],
    });
    let server = Server::routed(vec![
        ("/token", 200, token_answer()),
        ("/webmasters/v3/sites/", 200, said.to_string()),
    ]);
    let Some((key, _)) = service_account(&server) else {
        return;
    };
    let site = google_site(&server);
    run(&site, &["status"])
        .env("SITEMAPGEN_GOOGLE_CREDENTIALS", &key)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "google: https://example.org/sitemap.xml: read 2026-12-02T10:00:00Z, 1 error, 0 warnings, 2 URLs submitted, 1 indexed, ours lists 2 URLs",
        ));
    assert_eq!(server.seen().last().unwrap().method, "GET");
}

/// Keyless, as in GitHub Actions: the job's OIDC token, exchanged at STS, then the service
/// account's token from IAM Credentials; nothing secret stored, none shown.
#[test]
fn keyless_google_exchanges_the_jobs_oidc_token() {
    const GITHUB: &str = "gh-request-token-SECRET";
    let server = Server::routed(vec![
        (
            "/oidc",
            200,
            r#"{"count":1,"value":"oidc-jwt-SECRET"}"#.to_string(),
        ),
        (
            "/sts/",
            200,
            r#"{"access_token":"federated-SECRET","token_type":"Bearer","expires_in":3600}"#
                .to_string(),
        ),
        (
            "/iam/",
            200,
            r#"{"accessToken":"ya29.keyless-SECRET","expireTime":"2026-12-05T11:00:00Z"}"#
                .to_string(),
        ),
        ("/webmasters/v3/sites/", 200, String::new()),
    ]);
    let site = Site::new(&["index.html"]);
    let provider =
        "projects/123456789/locations/global/workloadIdentityPools/github/providers/repo";
    site.config(&format!(
        "base_url = 'https://example.org/'\n[google]\nservice_account = 'sitemaps@p.iam.gserviceaccount.com'\nworkload_identity_provider = '{provider}'\napi_endpoint = '{}'\nsts_endpoint = '{}'\niam_endpoint = '{}'\n",
        server.url("/webmasters/v3/"),
        server.url("/sts/v1/token"),
        server.url("/iam"),
    ));
    site.cmd().assert().success();
    let out = run(&site, &["submit"])
        .env(
            "ACTIONS_ID_TOKEN_REQUEST_URL",
            server.url("/oidc?api-version=2.0"),
        )
        .env("ACTIONS_ID_TOKEN_REQUEST_TOKEN", GITHUB)
        .env_remove("SITEMAPGEN_GOOGLE_CREDENTIALS")
        .env_remove("GOOGLE_APPLICATION_CREDENTIALS")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "google: submitted https://example.org/sitemap.xml",
        ))
        .get_output()
        .clone();
    no_secret(
        &out,
        &[
            GITHUB,
            "oidc-jwt-SECRET",
            "federated-SECRET",
            "ya29.keyless-SECRET",
        ],
    );
    let seen = server.seen();
    let steps: Vec<(&str, &str)> = (seen.iter())
        .map(|s| (s.method.as_str(), s.path.split(['?', '%']).next().unwrap()))
        .collect();
    assert_eq!(
        steps,
        [
            ("GET", "/oidc"),
            ("POST", "/sts/v1/token"),
            (
                "POST",
                "/iam/v1/projects/-/serviceAccounts/sitemaps@p.iam.gserviceaccount.com:generateAccessToken"
            ),
            ("PUT", "/webmasters/v3/sites/https"),
        ]
    );
    let audience = format!(
        "audience=%2F%2Fiam.googleapis.com%2F{}",
        provider.replace('/', "%2F")
    );
    assert!(seen[0].path.contains(&audience), "{}", seen[0].path);
    // Outside a job allowed an OIDC token: one line saying which permission to give.
    run(&site, &["submit"])
        .env_remove("ACTIONS_ID_TOKEN_REQUEST_URL")
        .env_remove("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
        .env_remove("SITEMAPGEN_GOOGLE_CREDENTIALS")
        .env_remove("GOOGLE_APPLICATION_CREDENTIALS")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("id-token: write"));
}
