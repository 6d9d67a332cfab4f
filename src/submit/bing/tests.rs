use super::answer::{parse_date, parse_feeds, parse_quota};
use super::*;

const KEY: &str = "S3CRETbingKEY0123456789abcdef+/=";
/// The key as it goes in a query (`+`, `/` and `=` escaped).
const KEY_SENT: &str = "S3CRETbingKEY0123456789abcdef%2B%2F%3D";
const BASE: &str = "https://example.org/";

fn env_with(key: Option<&'static str>) -> impl Fn(&str) -> Option<String> {
    move |name| (name == KEY_VAR).then(|| key.map(str::to_string)).flatten()
}

fn bing_at(endpoint: &str) -> Bing {
    let settings = BingSettings {
        site_url: None,
        api_endpoint: endpoint.to_string(),
    };
    Bing::from_env(&settings, BASE, &env_with(Some(KEY))).unwrap()
}

/// Fails when `text` shows the key in any form.
fn assert_no_key(text: &str) {
    assert!(!text.contains(KEY), "{text}");
    assert!(!text.contains(KEY_SENT), "{text}");
    assert!(!text.contains("S3CRET"), "{text}");
}

#[test]
fn the_key_comes_from_the_environment_and_a_missing_one_says_where_to_get_one() {
    let settings = BingSettings::default();
    for key in [None, Some(""), Some("  \n")] {
        let err = Bing::from_env(&settings, BASE, &env_with(key)).unwrap_err();
        assert!(matches!(err, BingError::MissingKey), "{key:?}");
        let text = err.to_string();
        assert!(text.contains("BING_WEBMASTER_API_KEY is not set"), "{text}");
        assert!(text.contains("Settings > API access > API key"), "{text}");
        assert!(text.contains("CI secret"), "{text}");
    }
    // A secret pasted with its newline still works.
    let bing = Bing::from_env(&settings, BASE, &env_with(Some(" k\n"))).unwrap();
    assert_eq!(bing.key.0, "k");
    assert_eq!(bing.site_url(), BASE);
}

#[test]
fn settings_that_are_not_http_urls_are_named_with_their_fix() {
    let cases = [
        (Some("example.org"), DEFAULT_ENDPOINT, "site_url"),
        (Some("ftp://example.org/"), DEFAULT_ENDPOINT, "site_url"),
        (None, "ssl.bing.com/webmaster", "api_endpoint"),
    ];
    for (site_url, endpoint, setting) in cases {
        let settings = BingSettings {
            site_url: site_url.map(str::to_string),
            api_endpoint: endpoint.to_string(),
        };
        let err = Bing::from_env(&settings, BASE, &env_with(Some(KEY))).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with(&format!("{setting} = ")), "{text}");
        assert!(text.contains("; "), "{text}");
        assert_no_key(&text);
    }
    let settings = BingSettings {
        site_url: Some("https://www.example.org/".to_string()),
        ..BingSettings::default()
    };
    let bing = Bing::from_env(&settings, BASE, &env_with(Some(KEY))).unwrap();
    assert_eq!(bing.site_url(), "https://www.example.org/");
}

#[test]
fn a_dry_run_shows_every_request_with_the_key_redacted() {
    let bing = bing_at("https://ssl.bing.com/webmaster/api.svc/json");
    let urls: Vec<String> = (0..1_200)
        .map(|i| format!("https://example.org/p{i}/"))
        .collect();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let requests = bing.dry_run(&["https://example.org/sitemap.xml"], &urls);
    let api = "https://ssl.bing.com/webmaster/api.svc/json/";
    let lines: Vec<(&str, String)> = requests.iter().map(|r| (r.method, r.url.clone())).collect();
    assert_eq!(
        lines,
        [
            ("POST", format!("{api}SubmitFeed?apikey=<redacted>")),
            (
                "GET",
                format!(
                    "{api}GetUrlSubmissionQuota?siteUrl=https%3A%2F%2Fexample.org%2F&apikey=<redacted>"
                )
            ),
            ("POST", format!("{api}SubmitUrlBatch?apikey=<redacted>")),
            ("POST", format!("{api}SubmitUrlBatch?apikey=<redacted>")),
            ("POST", format!("{api}SubmitUrlBatch?apikey=<redacted>")),
        ]
    );
    let body = |i: usize| -> serde_json::Value {
        serde_json::from_str(requests[i].body.as_deref().unwrap()).unwrap()
    };
    assert_eq!(
        body(0),
        serde_json::json!({"siteUrl": BASE, "feedUrl": "https://example.org/sitemap.xml"})
    );
    assert_eq!(requests[1].body, None);
    assert_eq!(requests[0].headers, [CONTENT_TYPE]);
    for (i, chunk) in [(2, &urls[..500]), (3, &urls[500..1000]), (4, &urls[1000..])] {
        assert_eq!(
            body(i),
            serde_json::json!({"siteUrl": BASE, "urlList": chunk})
        );
    }
    assert_no_key(&format!("{requests:?}"));
    // No URLs: the quota is not asked.
    assert_eq!(bing.dry_run(&[], &[]), []);
    let status = bing.dry_run_status();
    assert_eq!(
        status.url,
        format!("{api}GetFeeds?siteUrl=https%3A%2F%2Fexample.org%2F&apikey=<redacted>")
    );
}

#[test]
fn the_key_is_in_no_debug_output_and_is_scrubbed_from_what_servers_say() {
    let bing = bing_at(DEFAULT_ENDPOINT);
    assert_no_key(&format!("{bing:?}"));
    assert_eq!(format!("{}", bing.key), REDACTED);
    let call = bing.quota();
    assert!(
        call.url.ends_with(&format!("apikey={KEY_SENT}")),
        "{}",
        call.url
    );
    assert_eq!(
        bing.scrub(&format!("bad uri {} or {KEY}", call.url)),
        format!("bad uri {} or {REDACTED}", call.shown.url)
    );
}

#[test]
fn net_dates_read_as_utc_whatever_the_offset() {
    let cases: &[(&str, Option<&str>)] = &[
        ("/Date(1700000000000)/", Some("2023-11-14T22:13:20Z")),
        ("/Date(1700000000000-0700)/", Some("2023-11-14T22:13:20Z")),
        (
            "/Date(1700000000123+0530)/",
            Some("2023-11-14T22:13:20.123Z"),
        ),
        ("/Date(0)/", Some("1970-01-01T00:00:00Z")),
        ("/Date(-86400000)/", Some("1969-12-31T00:00:00Z")),
        ("/Date(-86400000+0100)/", Some("1969-12-31T00:00:00Z")),
        ("/Date(1700000000000-07)/", None),
        ("/Date(1700000000000-07x0)/", None),
        ("/Date()/", None),
        ("/Date(abc)/", None),
        ("Date(1700000000000)", None),
        ("2023-11-14T22:13:20Z", None),
        ("/Date(99999999999999999999)/", None),
    ];
    for (text, want) in cases {
        let got = parse_date(text).map(|t| t.to_string());
        assert_eq!(got.as_deref(), *want, "{text}");
    }
}

#[test]
fn get_feeds_answers_are_matched_to_the_sitemaps_asked() {
    let body = r#"{"d":[
        {"__type":"Feed:#Microsoft.Bing.Webmaster.Api","Compressed":false,"FileSize":2048,
         "LastCrawled":"/Date(1700000000000-0700)/","Status":"Success",
         "Submitted":"/Date(1690000000000)/","Type":"Sitemap",
         "Url":"https://EXAMPLE.org/sitemap.xml","UrlCount":42},
        {"Url":"https://example.org/other.xml","LastCrawled":"/Date(-62135596800000)/",
         "Submitted":null,"Status":"Pending"}
    ]}"#;
    let asked = [
        "https://example.org/sitemap.xml",
        "https://example.org/other.xml",
        "https://example.org/never.xml",
    ];
    let got = parse_feeds(body, &asked).unwrap();
    let feed = got[0].feed.as_ref().unwrap();
    assert_eq!(feed.status.as_deref(), Some("Success"));
    assert_eq!(feed.url_count, Some(42));
    assert_eq!(
        feed.last_crawled.unwrap().as_millisecond(),
        1_700_000_000_000
    );
    assert_eq!(feed.submitted.unwrap().as_millisecond(), 1_690_000_000_000);
    // .NET's DateTime.MinValue is "never".
    let other = got[1].feed.as_ref().unwrap();
    assert_eq!((other.last_crawled, other.submitted), (None, None));
    assert_eq!(got[2].url, asked[2]);
    assert_eq!(got[2].feed, None);
    let none = parse_feeds(r#"{"d":null}"#, &asked[..1]).unwrap();
    assert_eq!(none[0].feed, None);
    for bad in [r#"{"d":[{"Url":"u","Submitted":"yesterday"}]}"#, "[]", ""] {
        assert!(parse_feeds(bad, &asked).is_err(), "{bad}");
    }
}

#[test]
fn a_long_message_is_cut() {
    let bing = bing_at(DEFAULT_ENDPOINT);
    let body = serde_json::json!({"ErrorCode": 2, "Message": "é".repeat(1_000)}).to_string();
    let text = bing.refusal(Method::GetFeeds, 400, &body).to_string();
    assert!(text.contains(&format!("{}…)", "é".repeat(300))), "{text}");
    assert!(!text.contains(&"é".repeat(301)), "{text}");
}

#[test]
fn quota_answers_are_read_from_d() {
    let body = r#"{"d":{"__type":"UrlSubmissionQuota:#Microsoft.Bing.Webmaster.Api","DailyQuota":5,"MonthlyQuota":24}}"#;
    let quota = parse_quota(body).unwrap();
    assert_eq!((quota.daily, quota.monthly), (5, 24));
    assert!(parse_quota(r#"{"DailyQuota":5,"MonthlyQuota":24}"#).is_err());
}

/// What each refusal becomes: (status, body, variant, words its message must hold).
#[test]
fn refusals_name_the_fix_and_never_the_key() {
    let bing = bing_at(DEFAULT_ENDPOINT);
    let fault = |code: i64, message: &str| {
        serde_json::json!({"ErrorCode": code, "Message": message}).to_string()
    };
    let cases: Vec<(u16, String, &str, &str)> = vec![
        (
            400,
            fault(14, "NotAuthorized"),
            "KeyRefused",
            "wrong or revoked",
        ),
        (
            400,
            fault(3, &format!("bad key {KEY}")),
            "KeyRefused",
            "InvalidApiKey",
        ),
        (
            401,
            String::new(),
            "KeyRefused",
            "Settings > API access > API key",
        ),
        (403, "<html>".to_string(), "KeyRefused", "HTTP 403"),
        (
            400,
            fault(7, "Invalid siteUrl"),
            "NotVerified",
            "add and verify https://example.org/",
        ),
        (
            400,
            fault(2, "ERROR!!! Site not verified"),
            "NotVerified",
            "verified there",
        ),
        (
            400,
            fault(2, "ERROR!!! Quota remaining for today: 0, Submitted: 3"),
            "OverQuota",
            "tomorrow",
        ),
        (400, fault(4, "slow down"), "Refused", "ThrottleUser"),
        (400, fault(6, "blocked"), "Refused", "Bing's support"),
        (400, fault(16, "gone"), "Refused", "Deprecated"),
        (400, fault(99, "what"), "Refused", "(unknown code)"),
        (
            400,
            fault(8, "line one\r\n\tline two"),
            "Refused",
            r"InvalidParameter: line one\r\n\tline two)",
        ),
        (404, "not json".to_string(), "Refused", "HTTP 404"),
    ];
    for (status, body, variant, words) in cases {
        let err = bing.refusal(Method::SubmitUrlBatch, status, &body);
        let debug = format!("{err:?}");
        assert!(debug.starts_with(variant), "{status} {body}: {debug}");
        let text = err.to_string();
        assert!(text.contains(words), "{status} {body}: {text}");
        assert!(text.contains("; "), "no fix named: {text}");
        assert!(!text.contains(['\n', '\r', '\t']), "{text}");
        assert_no_key(&text);
        assert_no_key(&debug);
    }
}

#[cfg(feature = "net")]
mod net {
    //! Against a fake Bing on 127.0.0.1 answering a script.

    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::http::{Retry, Timeouts, agent};
    use crate::submit::fake::{Fake, Seen, reply};

    /// The fake Bing: a script, then 200 with an empty `d`.
    struct Server(Fake);

    impl Server {
        fn start(script: &[(u16, &'static str, &str)]) -> Server {
            let script = script.iter().map(|(s, h, b)| (*s, *h, b.to_string()));
            Server(Fake::start_then(
                script.collect(),
                reply(200, r#"{"d":null}"#),
            ))
        }

        fn bing(&self) -> Bing {
            bing_at(&self.0.url("/webmaster/api.svc/json/"))
        }

        fn seen(&self) -> Vec<Seen> {
            self.0.seen()
        }
    }

    fn client() -> ureq::Agent {
        agent(&Timeouts::within(Duration::from_secs(20)), 1)
    }

    const RETRY: Retry = Retry {
        retries: 2,
        backoff: Duration::from_millis(1),
    };

    fn urls(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("https://example.org/p{i}/"))
            .collect()
    }

    fn quota(daily: u64, monthly: u64) -> String {
        format!(r#"{{"d":{{"DailyQuota":{daily},"MonthlyQuota":{monthly}}}}}"#)
    }

    /// Submits `n` URLs against a server answering the quota with `daily`, then
    /// `after` for the batches.
    fn submit_n(
        n: usize,
        daily: u64,
        after: &[(u16, &'static str, &str)],
    ) -> (UrlsSent, Vec<Seen>) {
        let answer = quota(daily, 10_000);
        let mut script = vec![(200, "", answer.as_str())];
        script.extend_from_slice(after);
        let server = Server::start(&script);
        let all = urls(n);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let sent = server.bing().submit_urls(&client(), &RETRY, &all).unwrap();
        (sent, server.seen())
    }

    /// `SubmitFeed` of the site's sitemap.
    fn submit_sitemap(server: &Server) -> Result<usize, BingError> {
        let maps = ["https://example.org/sitemap.xml"];
        server.bing().submit_feeds(&client(), &RETRY, &maps)
    }

    #[test]
    fn feeds_are_posted_with_the_key_in_the_query_and_json_bodies() {
        let server = Server::start(&[]);
        let maps = [
            "https://example.org/sitemap.xml",
            "https://example.org/news.xml",
        ];
        let done = server
            .bing()
            .submit_feeds(&client(), &RETRY, &maps)
            .unwrap();
        assert_eq!(done, 2);
        let seen = server.seen();
        assert_eq!(seen.len(), 2);
        for (request, map) in seen.iter().zip(maps) {
            assert_eq!(request.method, "POST");
            let want = format!("/webmaster/api.svc/json/SubmitFeed?apikey={KEY_SENT}");
            assert_eq!(request.path, want);
            assert_eq!(
                request.header("content-type"),
                "application/json; charset=utf-8"
            );
            assert_eq!(
                request.json(),
                serde_json::json!({"siteUrl": BASE, "feedUrl": map})
            );
        }
    }

    #[test]
    fn a_feed_bing_has_already_counts_as_submitted() {
        let exists = r#"{"ErrorCode":12,"Message":"AlreadyExists"}"#;
        let server = Server::start(&[(400, "", exists)]);
        assert_eq!(submit_sitemap(&server).unwrap(), 1);
    }

    #[test]
    fn urls_go_out_within_the_daily_quota_and_the_rest_is_counted() {
        let (sent, seen) = submit_n(5, 3, &[]);
        assert_eq!((sent.sent, sent.left, sent.daily_quota), (3, 2, Some(3)));
        assert_eq!(sent.over_quota, None);
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].method, "GET");
        assert_eq!(
            seen[0].path,
            format!(
                "/webmaster/api.svc/json/GetUrlSubmissionQuota?siteUrl=https%3A%2F%2Fexample.org%2F&apikey={KEY_SENT}"
            )
        );
        assert_eq!(
            seen[1].path,
            format!("/webmaster/api.svc/json/SubmitUrlBatch?apikey={KEY_SENT}")
        );
        assert_eq!(
            seen[1].json(),
            serde_json::json!({"siteUrl": BASE, "urlList": &urls(3)})
        );
    }

    #[test]
    fn a_quota_of_zero_sends_nothing_and_is_not_an_error() {
        let (sent, seen) = submit_n(4, 0, &[]);
        assert_eq!((sent.sent, sent.left, sent.daily_quota), (0, 4, Some(0)));
        assert_eq!(seen.len(), 1, "only the quota asked");
    }

    #[test]
    fn batches_hold_500_urls_at_most() {
        let (sent, seen) = submit_n(1_200, 10_000, &[]);
        assert_eq!((sent.sent, sent.left), (1_200, 0));
        let lengths: Vec<usize> = seen[1..]
            .iter()
            .map(|s| s.json()["urlList"].as_array().unwrap().len())
            .collect();
        assert_eq!(lengths, [500, 500, 200]);
        let all = urls(1_200);
        assert_eq!(seen[3].json()["urlList"], serde_json::json!(&all[1_000..]));
    }

    #[test]
    fn the_monthly_quota_caps_too_and_no_urls_ask_nothing() {
        let server = Server::start(&[(200, "", &quota(100, 2))]);
        let all = urls(5);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let sent = server.bing().submit_urls(&client(), &RETRY, &all).unwrap();
        assert_eq!((sent.sent, sent.left), (2, 3));
        let sent = server.bing().submit_urls(&client(), &RETRY, &[]).unwrap();
        assert_eq!((sent.sent, sent.left, sent.daily_quota), (0, 0, None));
        assert_eq!(server.seen().len(), 2);
    }

    #[test]
    fn a_batch_refused_for_the_quota_stops_the_rest_without_an_error() {
        let over = r#"{"ErrorCode":2,"Message":"ERROR!!! Quota remaining for today: 0"}"#;
        let (sent, seen) = submit_n(700, 10_000, &[(200, "", "{\"d\":null}"), (400, "", over)]);
        assert_eq!((sent.sent, sent.left), (500, 200));
        assert!(sent.over_quota.unwrap().contains("Quota remaining"));
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn errors_answered_are_typed_and_hold_no_key() {
        let cases = [
            (
                400,
                r#"{"ErrorCode":14,"Message":"NotAuthorized"}"#,
                "KeyRefused",
            ),
            (401, "", "KeyRefused"),
            (
                400,
                r#"{"ErrorCode":7,"Message":"InvalidUrl"}"#,
                "NotVerified",
            ),
            (
                400,
                r#"{"ErrorCode":8,"Message":"InvalidParameter"}"#,
                "Refused",
            ),
            (
                301,
                "Location: https://elsewhere.example/\r\n",
                "Redirected",
            ),
            (200, "", "BadAnswer"),
        ];
        for (status, text, variant) in cases {
            let (headers, body) = match status {
                301 => (text, ""),
                200 => ("", r#"{"d":{"Daily":1}}"#),
                _ => ("", text),
            };
            let server = Server::start(&[(status, headers, body)]);
            let err = server
                .bing()
                .submit_urls(&client(), &RETRY, &["https://example.org/a"])
                .unwrap_err();
            let debug = format!("{err:?}");
            assert!(debug.starts_with(variant), "{status}: {debug}");
            assert_no_key(&err.to_string());
            assert_no_key(&debug);
            assert_eq!(server.seen().len(), 1, "{status}: not retried");
        }
    }

    #[test]
    fn too_many_requests_waits_as_told_then_succeeds() {
        let server = Server::start(&[(429, "Retry-After: 1\r\n", ""), (200, "", "{\"d\":null}")]);
        let start = Instant::now();
        assert_eq!(submit_sitemap(&server).unwrap(), 1);
        assert!(
            start.elapsed() >= Duration::from_secs(1),
            "Retry-After not honoured"
        );
        assert_eq!(server.seen().len(), 2);
    }

    #[test]
    fn server_errors_are_retried_then_given_up_on_without_the_key() {
        let fail = (500, "", "");
        let server = Server::start(&[fail, fail, fail, (200, "", "{\"d\":null}")]);
        let err = server
            .bing()
            .status(&client(), &RETRY, &[BASE])
            .unwrap_err();
        assert!(matches!(err, BingError::GaveUp { tries: 3, .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains("HTTP 500 after 3 tries; try again later"),
            "{text}"
        );
        assert!(text.contains("apikey=<redacted>"), "{text}");
        assert_no_key(&text);
        assert_no_key(&format!("{err:?}"));
        assert_eq!(server.seen().len(), 3);
    }

    #[test]
    fn no_answer_at_all_is_given_up_on_without_the_key() {
        // A port nothing listens on (bound, then let go).
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let bing = bing_at(&format!("http://127.0.0.1:{port}/json/"));
        let retry = Retry {
            retries: 1,
            backoff: Duration::from_millis(1),
        };
        let err = bing.submit_feeds(&client(), &retry, &[BASE]).unwrap_err();
        assert!(matches!(err, BingError::GaveUp { tries: 2, .. }), "{err:?}");
        assert_no_key(&err.to_string());
        assert_no_key(&format!("{err:?}"));
    }

    #[test]
    fn status_reads_get_feeds_for_the_sitemaps_asked() {
        let feeds = r#"{"d":[{"Url":"https://example.org/sitemap.xml","Status":"Success",
            "Submitted":"/Date(1690000000000)/","LastCrawled":"/Date(1700000000000-0700)/",
            "UrlCount":7}]}"#;
        let server = Server::start(&[(200, "", feeds)]);
        let asked = [
            "https://example.org/sitemap.xml",
            "https://example.org/b.xml",
        ];
        let got = server.bing().status(&client(), &RETRY, &asked).unwrap();
        let seen = server.seen();
        assert_eq!(seen[0].method, "GET");
        assert_eq!(
            seen[0].path,
            format!(
                "/webmaster/api.svc/json/GetFeeds?siteUrl=https%3A%2F%2Fexample.org%2F&apikey={KEY_SENT}"
            )
        );
        let feed = got[0].feed.as_ref().unwrap();
        assert_eq!(
            (feed.status.as_deref(), feed.url_count),
            (Some("Success"), Some(7))
        );
        assert_eq!(
            feed.last_crawled.unwrap().to_string(),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(got[1].feed, None);
    }
}
