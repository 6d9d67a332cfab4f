//! `sitemapgen submit` against a recording HTTP server on 127.0.0.1 started by each test
//! (never any other address).

use predicates::prelude::*;

use crate::fake::Server;
use crate::util::{Site, slashed};

const KEY: &str = "0123456789abcdef0123456789abcdef";

/// A site whose change list (as `build` writes it) names `urls` as added.
fn site_with_changes(base: &str, urls: &[String]) -> Site {
    let site = Site::new(&["index.html"]);
    site.config(&format!(
        "base_url = '{base}'\nchanges = true\nindexnow_key = '{KEY}'\n"
    ));
    let list = serde_json::json!({
        "sitemapgen_changes": 1,
        "base_url": base,
        "built_at": "2026-11-22T10:00:00Z",
        "first_run": false,
        "added": urls,
        "updated": [],
        "removed": [],
    });
    std::fs::write(site.root().join(".sitemap-changes.json"), list.to_string()).unwrap();
    site
}

fn submit(site: &Site, server: &Server) -> assert_cmd::Command {
    let mut cmd = site.cmd();
    cmd.args(["submit", "--backoff-ms", "10", "--endpoint"])
        .arg(server.url("/indexnow"))
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

fn urls(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("https://example.org/p{i}/"))
        .collect()
}

/// The exact JSON IndexNow takes, 10,000 URLs a request, and a second run sends nothing.
#[test]
fn batches_of_10000_exact_json_and_no_second_sending() {
    let all = urls(25_000);
    let site = site_with_changes("https://example.org/", &all);
    let server = Server::start(&[]);
    submit(&site, &server)
        .assert()
        .success()
        .stderr(predicate::str::contains("submitted 25,000 URLs"))
        .stderr(predicate::str::contains("in 3 requests"));
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    for (request, chunk) in seen.iter().zip(all.chunks(10_000)) {
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("POST", "/indexnow")
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "host": "example.org",
                "key": KEY,
                "keyLocation": format!("https://example.org/{KEY}.txt"),
                "urlList": chunk,
            })
        );
    }
    submit(&site, &server)
        .assert()
        .success()
        .stderr(predicate::str::contains("already submitted"));
    assert_eq!(server.seen().len(), 3);
}

/// 429 and 503 are retried; a server that keeps failing is given up on (exit 1); 403 is
/// one line that says what to fix; a dry run sends nothing.
#[test]
fn retries_give_up_refusals_and_dry_runs() {
    let site = site_with_changes("https://example.org/", &urls(2));
    let server = Server::start(&[(429, ""), (503, "")]);
    submit(&site, &server)
        .arg("--dry-run")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "POST {}",
            server.url("/indexnow")
        )));
    assert!(server.seen().is_empty(), "a dry run sent a request");
    submit(&site, &server).assert().success();
    assert_eq!(server.seen().len(), 3);

    let site = site_with_changes("https://example.org/", &urls(2));
    let server = Server::start(&[(503, ""), (503, ""), (503, "")]);
    submit(&site, &server)
        .args(["--retries", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("HTTP 503 after 3 tries"));
    assert_eq!(server.seen().len(), 3);

    let server = Server::start(&[(403, "")]);
    submit(&site, &server)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "answered HTTP 403: forbidden: the key is not valid",
        ));
    assert_eq!(server.seen().len(), 1);
}

/// `--verify-key` fetches {base_url}{key}.txt first: the key there lets the submission go,
/// anything else stops it before it is sent. `build` with `indexnow_key_file = true`
/// writes that file.
#[test]
fn the_key_file_is_written_by_build_and_verified_by_submit() {
    let server = Server::start(&[(200, "not the key"), (200, KEY)]);
    let base = server.url("/");
    let url = format!("{base}a/");
    let site = site_with_changes(&base, std::slice::from_ref(&url));
    submit(&site, &server)
        .arg("--verify-key")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("does not hold the key"));
    submit(&site, &server)
        .arg("--verify-key")
        .assert()
        .success();
    let seen = server.seen();
    let paths: Vec<(&str, &str)> = seen
        .iter()
        .map(|s| (s.method.as_str(), s.path.as_str()))
        .collect();
    let key_path = format!("/{KEY}.txt");
    assert_eq!(
        paths,
        [
            ("GET", key_path.as_str()),
            ("GET", key_path.as_str()),
            ("POST", "/indexnow")
        ]
    );

    let site = Site::new(&["index.html"]);
    site.config(&format!(
        "base_url = 'https://example.org/'\nindexnow_key = '{KEY}'\nindexnow_key_file = true\n"
    ));
    site.cmd().assert().success();
    assert_eq!(site.read(&format!("{KEY}.txt")), KEY);
}

/// A build's change list, submitted: the URLs of the second build's changes, and a
/// first build's list (nothing changed) sends nothing.
#[test]
fn a_builds_change_list_is_what_is_submitted() {
    let site = Site::new(&["index.html", "a.html"]);
    site.config(&format!(
        "base_url = 'https://example.org/'\nchanges = true\nindexnow_key = '{KEY}'\n"
    ));
    let server = Server::start(&[]);
    site.cmd().assert().success();
    submit(&site, &server)
        .assert()
        .success()
        .stderr(predicate::str::contains("lists nothing"));
    site.page("b.html");
    std::fs::remove_file(site.public().join("a.html")).unwrap();
    site.cmd().assert().success();
    submit(&site, &server).assert().success();
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    let body: serde_json::Value = serde_json::from_str(&seen[0].body).unwrap();
    assert_eq!(
        body["urlList"],
        serde_json::json!(["https://example.org/b.html", "https://example.org/a.html"])
    );
}

/// A redirect is not followed and not taken for acceptance: a 302 to another server, a
/// 301 from http to https and a 307 each fail at once (exit 1, one request, no retry),
/// naming the Location; the change list is left as it was and sent in full next time.
#[test]
fn a_redirect_fails_once_naming_where_it_points() {
    let elsewhere = Server::start(&[]);
    let cases = [
        (302, elsewhere.url("/indexnow")),
        (301, "https://127.0.0.1:1/indexnow".to_string()),
        (307, "/v2/indexnow".to_string()),
    ];
    for (status, location) in cases {
        let site = site_with_changes("https://example.org/", &urls(2));
        let list = site.root().join(".sitemap-changes.json");
        let before = std::fs::read(&list).unwrap();
        let header = format!("Location: {location}\r\n");
        let server = Server::start_with_headers(&[(status, "", &header)]);
        submit(&site, &server)
            .args(["--retries", "3"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "answered HTTP {status}, a redirect to {location}; nothing was submitted"
            )))
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
        assert_eq!(server.seen().len(), 1, "HTTP {status} was retried");
        assert_eq!(std::fs::read(&list).unwrap(), before, "HTTP {status}");
        submit(&site, &server)
            .assert()
            .success()
            .stderr(predicate::str::contains("submitted 2 URLs"));
        let seen = server.seen();
        assert_eq!(seen.len(), 2);
        assert_eq!(
            (seen[1].method.as_str(), seen[1].path.as_str()),
            ("POST", "/indexnow")
        );
    }
    assert!(elsewhere.seen().is_empty(), "the redirect was followed");
}

/// `--verify-key` does not follow a redirect either: the key must be served at the very
/// URL sent as keyLocation. Nothing is submitted.
#[test]
fn a_redirected_key_file_is_not_served() {
    let server =
        Server::start_with_headers(&[(301, "", "Location: https://example.org/k.txt\r\n")]);
    let base = server.url("/");
    let site = site_with_changes(&base, &[format!("{base}a/")]);
    submit(&site, &server)
        .arg("--verify-key")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "answered HTTP 301, a redirect to https://example.org/k.txt (not followed",
        ));
    assert_eq!(server.seen().len(), 1);
}

/// `--key-file` is checked as `indexnow_key` is: a private key given by mistake is
/// refused naming the file (exit 2), its content neither printed nor sent.
#[test]
fn a_key_file_that_holds_no_key_is_refused_unprinted() {
    let site = site_with_changes("https://example.org/", &urls(2));
    let secret = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";
    let file = site.root().join("id_rsa");
    std::fs::write(&file, secret).unwrap();
    let server = Server::start(&[]);
    for dry_run in [true, false] {
        let mut cmd = submit(&site, &server);
        cmd.arg("--key-file").arg(&file);
        if dry_run {
            cmd.arg("--dry-run");
        }
        let out = cmd.assert().code(2).get_output().clone();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "--key-file {}: does not hold an IndexNow key",
                slashed(&file)
            )),
            "{stderr}"
        );
        assert!(
            !stderr.contains("PRIVATE") && !stderr.contains("MIIE"),
            "{stderr}"
        );
    }
    assert!(server.seen().is_empty());
    std::fs::write(&file, format!("{KEY}\n")).unwrap();
    submit(&site, &server)
        .arg("--key-file")
        .arg(&file)
        .assert()
        .success();
    assert_eq!(server.seen().len(), 1);
}

/// `--endpoint` is checked as `indexnow_endpoint` is: a file URL is refused at once.
#[test]
fn an_endpoint_that_is_not_http_is_refused_at_once() {
    let site = site_with_changes("https://example.org/", &urls(2));
    for dry_run in [false, true] {
        let mut cmd = site.cmd();
        cmd.args([
            "submit",
            "--backoff-ms",
            "10000",
            "--endpoint",
            "file:///etc/passwd",
        ]);
        if dry_run {
            cmd.arg("--dry-run");
        }
        cmd.timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                "error: --endpoint: indexnow_endpoint: 'file:///etc/passwd' is not an http(s) URL; use e.g. \"https://api.indexnow.org/indexnow\"\n",
            );
    }
}

/// A dry run prints every value through the one escape: an ESC sequence and a forged
/// line in the endpoint, and control characters in a change list's URL, reach the
/// terminal as text.
#[test]
fn a_dry_run_prints_escaped() {
    let url = "https://example.org/a\u{9b}31m\u{7f}/";
    let site = site_with_changes("https://example.org/", &[url.to_string()]);
    let endpoint = "http://127.0.0.1:9/x\u{1b}[31m\nerror: forged";
    let out = site
        .cmd()
        .args(["submit", "--dry-run", "--endpoint", endpoint])
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{stdout:?}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(
        lines[0],
        "POST http://127.0.0.1:9/x\\u{1b}[31m\\nerror: forged"
    );
    assert!(
        lines[1].contains("https://example.org/a\\u{9b}31m\\u{7f}/"),
        "{}",
        lines[1]
    );
}
