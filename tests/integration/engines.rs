//! `submit` and `status` with Google and Bing set up, through the binary, against one
//! fake server on 127.0.0.1 that answers each engine's paths as its API documents (never
//! any other address): what each is sent, what the summary says, that one engine
//! failing stops none of the others, and that no credential reaches any output.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use predicates::prelude::*;

use crate::util::Site;

const BING_KEY: &str = "bing-key-0123456789-SECRET";

/// One request the server saw: method, path with query, body.
type Seen = (String, String, String);

/// Answers by the first rule whose path part the request's path contains: (status,
/// body); 404 otherwise.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    fn start(rules: Vec<(&'static str, u16, String)>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let Some((method, path, body)) = read(&mut stream) else {
                    continue;
                };
                let rule = rules.iter().find(|(part, _, _)| path.contains(part));
                let (status, answer) =
                    rule.map_or((404, String::new()), |(_, s, b)| (*s, b.clone()));
                log.lock().unwrap().push((method, path, body));
                let reply = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Server { port, seen }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn read(stream: &mut std::net::TcpStream) -> Option<Seen> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        if header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((method, path, String::from_utf8(body).ok()?))
}

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
    let server = Server::start(vec![
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
            "bing: submitted https://example.org/sitemap.xml; 1 URL changed, 1 URL left past the day's quota of 1 (IndexNow carries them)",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    let seen = server.seen();
    let paths: Vec<&str> = seen
        .iter()
        .map(|(_, p, _)| p.split('?').next().unwrap())
        .map(|p| p.trim_start_matches("/bing/"))
        .collect();
    assert_eq!(
        paths,
        ["SubmitFeed", "GetUrlSubmissionQuota", "SubmitUrlBatch"]
    );
    let feed: serde_json::Value = serde_json::from_str(&seen[0].2).unwrap();
    assert_eq!(
        feed,
        serde_json::json!({"siteUrl": "https://example.org/", "feedUrl": "https://example.org/sitemap.xml"})
    );
    assert!(
        seen[0].1.ends_with(&format!("apikey={BING_KEY}")),
        "{}",
        seen[0].1
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
    let server = Server::start(vec![
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
            "submit: 1 of 2 engines failed (bing); the others were told",
        ))
        .get_output()
        .clone();
    no_secret(&out, &[BING_KEY]);
    // --engine tells one engine only.
    run(&site, &["submit", "--engine", "bing"]).assert().code(1);
    let after = server.seen();
    assert!(after.last().unwrap().1.starts_with("/bing/"), "{after:?}");
}

#[test]
fn status_says_what_bing_says_beside_our_count() {
    let feeds = r#"{"d":[{"Url":"https://example.org/sitemap.xml","Status":"Success","Submitted":"/Date(1764900000000)/","LastCrawled":"/Date(1764986400000)/","UrlCount":2,"Type":"Sitemap","FileSize":300,"Compressed":false}]}"#;
    let server = Server::start(vec![("/bing/GetFeeds", 200, feeds.to_string())]);
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
