//! `sitemapgen check --live` against a real HTTP server on 127.0.0.1 started by each test
//! (never any other address), serving a site with planted problems.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::util::{Site, validate};

/// How the server answers a path.
#[derive(Clone)]
enum Answer {
    /// Status, extra header lines (`Name: value\r\n`), body.
    Plain(u16, String, Vec<u8>),
    /// Waits this long, then answers 200.
    Slow(Duration),
    /// 429 with `Retry-After: 1` the first time, then the page.
    BusyOnce(Vec<u8>),
    /// The connection reset, the request unread.
    Reset,
}

/// A local server (see [`Server::start_shared`]).
struct Server {
    port: u16,
    hits: Arc<Mutex<Vec<(String, Instant)>>>,
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self, path: &str) -> Vec<Instant> {
        let hits = self.hits.lock().unwrap();
        hits.iter()
            .filter(|(p, _)| p == path)
            .map(|(_, at)| *at)
            .collect()
    }
}

fn serve(
    mut stream: TcpStream,
    routes: &HashMap<String, Answer>,
    log: &Mutex<Vec<(String, Instant)>>,
) {
    let mut peek = [0u8; 2048];
    let Ok(n) = stream.peek(&mut peek) else {
        return;
    };
    let first = String::from_utf8_lossy(&peek[..n]).into_owned();
    let path = first.split_whitespace().nth(1).unwrap_or("").to_string();
    let seen_before = log.lock().unwrap().iter().any(|(p, _)| *p == path);
    log.lock().unwrap().push((path.clone(), Instant::now()));
    let answer = routes.get(&path).cloned();
    if let Some(Answer::Reset) = answer {
        // Closed with the request unread: the kernel answers with a reset.
        std::thread::sleep(Duration::from_millis(50));
        return;
    }
    let mut reader = BufReader::new(&mut stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
    }
    let (status, headers, body) = match answer {
        None => (404, String::new(), b"not here".to_vec()),
        Some(Answer::Plain(s, h, b)) => (s, h, b),
        Some(Answer::Slow(wait)) => {
            std::thread::sleep(wait);
            (200, String::new(), page("", "").into_bytes())
        }
        Some(Answer::BusyOnce(_)) if !seen_before => (429, "Retry-After: 1\r\n".into(), Vec::new()),
        Some(Answer::BusyOnce(body)) => (200, String::new(), body),
        Some(Answer::Reset) => unreachable!(),
    };
    let head = format!(
        "HTTP/1.1 {status} X\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

/// A page with `head` in its head.
fn page(head: &str, title: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{title}</title>{head}</head><body><p>text</p></body></html>"
    )
}

fn html(status: u16, headers: &str, head: &str) -> Answer {
    let headers = format!("Content-Type: text/html; charset=utf-8\r\n{headers}");
    Answer::Plain(status, headers, page(head, "t").into_bytes())
}

/// A urlset of `(loc, lastmod)`.
fn urlset(urls: &[(String, Option<&str>)]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (loc, lastmod) in urls {
        xml.push_str(&format!("<url><loc>{loc}</loc>"));
        if let Some(lastmod) = lastmod {
            xml.push_str(&format!("<lastmod>{lastmod}</lastmod>"));
        }
        xml.push_str("</url>\n");
    }
    xml + "</urlset>\n"
}

fn index(children: &[String]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for loc in children {
        xml.push_str(&format!("<sitemap><loc>{loc}</loc></sitemap>\n"));
    }
    xml + "</sitemapindex>\n"
}

/// Writes `text` to `dir/name` and validates it against `schema`.
fn validated(dir: &Path, name: &str, text: &str, schema: &str) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    validate(&path, schema);
}

fn gzip(text: &str) -> Vec<u8> {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap()
}

/// A site on a real server: an index of a plain and a gzipped sitemap, and a page of
/// each planted problem; the routes are made once the port is known.
fn planted(dir: &Path) -> Server {
    let routes = Arc::new(Mutex::new(HashMap::new()));
    let server = Server::start_shared(Arc::clone(&routes));
    let u = |p: &str| server.url(p);
    let alternates = |me: &str, others: &[&str]| {
        let mut links = format!("<link rel=\"alternate\" hreflang=\"{me}\" href=\"/{me}/\">");
        for o in others {
            links.push_str(&format!(
                "<link rel=\"alternate\" hreflang=\"{o}\" href=\"/{o}/\">"
            ));
        }
        links
    };
    let first = urlset(&[
        (u("/ok/"), Some("2026-01-01")),
        (u("/moved/"), None),
        (u("/gone/"), None),
        (u("/header-noindex/"), None),
        (u("/meta-noindex/"), None),
        (u("/canonical/"), None),
        (u("/en/"), None),
        (u("/de/"), None),
        (u("/dated/"), Some("2026-03-01")),
    ]);
    let second = urlset(&[
        ("https://elsewhere.example/x/".to_string(), None),
        (u("/slow/"), None),
        (u("/busy/"), None),
        (u("/reset/"), None),
        (u("/private/p/"), None),
    ]);
    let top = index(&[u("/sitemap-1.xml"), u("/sitemap-2.xml.gz")]);
    validated(dir, "sitemap.xml", &top, "siteindex.xsd");
    validated(dir, "sitemap-1.xml", &first, "sitemap.xsd");
    validated(dir, "sitemap-2.xml", &second, "sitemap.xsd");
    let xml = |text: &str| {
        Answer::Plain(
            200,
            "Content-Type: application/xml\r\n".into(),
            text.as_bytes().to_vec(),
        )
    };
    let mut r = routes.lock().unwrap();
    r.insert(
        "/robots.txt".into(),
        Answer::Plain(
            200,
            String::new(),
            b"User-agent: *\nDisallow: /private/\n".to_vec(),
        ),
    );
    r.insert("/sitemap.xml".into(), xml(&top));
    r.insert("/sitemap-1.xml".into(), xml(&first));
    r.insert(
        "/sitemap-2.xml.gz".into(),
        Answer::Plain(200, String::new(), gzip(&second)),
    );
    let self_canonical = |p: &str| format!("<link rel=\"canonical\" href=\"{}\">", u(p));
    r.insert(
        "/ok/".into(),
        html(
            200,
            "",
            &format!(
                "{}<meta property=\"article:modified_time\" content=\"2026-01-02T00:00:00Z\">",
                self_canonical("/ok/")
            ),
        ),
    );
    r.insert(
        "/moved/".into(),
        Answer::Plain(301, "Location: /ok/\r\n".into(), Vec::new()),
    );
    r.insert(
        "/header-noindex/".into(),
        html(200, "X-Robots-Tag: noindex\r\n", ""),
    );
    r.insert(
        "/meta-noindex/".into(),
        html(
            200,
            "",
            "<meta name=\"robots\" content=\"noindex, follow\">",
        ),
    );
    r.insert("/canonical/".into(), html(200, "", &self_canonical("/ok/")));
    r.insert("/en/".into(), html(200, "", &alternates("en", &["de"])));
    r.insert("/de/".into(), html(200, "", &alternates("de", &[])));
    r.insert(
        "/dated/".into(),
        html(
            200,
            "",
            "<meta property=\"article:modified_time\" content=\"2026-02-01T00:00:00Z\">",
        ),
    );
    r.insert("/slow/".into(), Answer::Slow(Duration::from_secs(4)));
    r.insert(
        "/busy/".into(),
        Answer::BusyOnce(page("", "busy").into_bytes()),
    );
    r.insert("/reset/".into(), Answer::Reset);
    r.insert("/private/p/".into(), html(200, "", ""));
    drop(r);
    server
}

impl Server {
    /// A server of the routes in `routes`, filled in after it starts (404 elsewhere): a
    /// thread per connection, one request each, each request's path and time recorded.
    fn start_shared(routes: Arc<Mutex<HashMap<String, Answer>>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&hits);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (routes, log) = (Arc::clone(&routes), Arc::clone(&log));
                std::thread::spawn(move || {
                    let routes = routes.lock().unwrap().clone();
                    serve(stream, &routes, &log)
                });
            }
        });
        Server { port, hits }
    }
}

fn live(site: &Site, server: &Server, extra: &[&str]) -> assert_cmd::assert::Assert {
    site.cmd()
        .args(["check", "--live"])
        .arg(server.url("/sitemap.xml"))
        .args([
            "--rate",
            "0",
            "--timeout",
            "1",
            "--retries",
            "1",
            "--backoff-ms",
            "10",
        ])
        .args(extra)
        .timeout(Duration::from_secs(60))
        .assert()
}

/// Every planted problem is reported once, exactly; the clean pages, the 429 answered
/// after its Retry-After, and the URL robots.txt disallows (never fetched) are as they
/// should be.
#[test]
fn each_planted_problem_is_reported_once() {
    let site = Site::new(&[]);
    let server = planted(site.root());
    let out = live(&site, &server, &["--json"])
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let port = format!("http://127.0.0.1:{}", server.port);
    let found: BTreeSet<(String, String)> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap().replace(&port, "");
            (url, p["kind"].as_str().unwrap().to_string())
        })
        .collect();
    let want: BTreeSet<(String, String)> = [
        ("/moved/", "status"),
        ("/gone/", "status"),
        ("/header-noindex/", "noindex"),
        ("/meta-noindex/", "noindex"),
        ("/canonical/", "canonical"),
        ("/en/", "hreflang_return"),
        ("/dated/", "lastmod_newer"),
        ("https://elsewhere.example/x/", "other_host"),
        ("/slow/", "unanswered"),
        ("/reset/", "unanswered"),
        ("/private/p/", "robots_disallowed"),
    ]
    .iter()
    .map(|(u, k)| (u.to_string(), k.to_string()))
    .collect();
    assert_eq!(found, want, "{report:#}");
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), want.len(), "each once: {report:#}");
    assert_eq!(
        (report["errors"].as_u64(), report["warnings"].as_u64()),
        (Some(8), Some(3))
    );
    assert_eq!(
        (report["files"].as_u64(), report["urls"].as_u64()),
        (Some(3), Some(14))
    );
    let message = |url: &str| {
        let p = problems
            .iter()
            .find(|p| p["url"].as_str().unwrap().ends_with(url))
            .unwrap();
        p["message"].as_str().unwrap().to_string()
    };
    let moved = format!("HTTP 301, a redirect to {}:", server.url("/ok/"));
    assert!(message("/moved/").contains(&moved), "{report:#}");
    assert!(message("/slow/").contains("timed out"), "{report:#}");
    assert!(message("/reset/").contains("reset"), "{report:#}");
    // robots.txt first, the disallowed page never; the 429 tried again after a second.
    assert!(server.hits("/private/p/").is_empty());
    let robots = server.hits("/robots.txt")[0];
    assert!(server.hits("/sitemap.xml")[0] > robots);
    let busy = server.hits("/busy/");
    assert_eq!(busy.len(), 2);
    assert!(
        busy[1] - busy[0] >= Duration::from_millis(950),
        "{:?}",
        busy[1] - busy[0]
    );
    // The slow page and the reset one were tried twice (--retries 1), the pages once.
    assert_eq!(
        (server.hits("/slow/").len(), server.hits("/reset/").len()),
        (2, 2)
    );
    assert_eq!(server.hits("/ok/").len(), 1);
}

/// The text report: a line per problem, `SITEMAP:LINE: severity: URL ...`, and the
/// summary line on stderr; exit 1.
#[test]
fn the_text_report_names_where_each_url_is_listed() {
    let site = Site::new(&[]);
    let server = planted(site.root());
    let assert = live(&site, &server, &[]).code(1);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(out.lines().count(), 11, "{out}");
    let gone = format!(
        "{}:5: error: {} answered HTTP 404",
        server.url("/sitemap-1.xml"),
        server.url("/gone/")
    );
    assert!(out.contains(&gone), "{out}");
    assert!(
        err.contains("checked 14 URLs in 3 sitemaps live (12 fetched, 3 retried)"),
        "{err}"
    );
    assert!(err.contains(": 8 errors, 3 warnings"), "{err}");
}

/// A clean site exits 0; noindex_agents from the config counts for X-Robots-Tag.
#[test]
fn a_clean_site_passes_and_the_configs_agents_count() {
    let site = Site::new(&[]);
    let routes = Arc::new(Mutex::new(HashMap::new()));
    let server = Server::start_shared(Arc::clone(&routes));
    let text = urlset(&[(server.url("/a/"), None)]);
    validated(site.root(), "sitemap.xml", &text, "sitemap.xsd");
    let mut r = routes.lock().unwrap();
    r.insert(
        "/sitemap.xml".into(),
        Answer::Plain(200, String::new(), text.into_bytes()),
    );
    r.insert(
        "/a/".into(),
        html(200, "X-Robots-Tag: googlebot: noindex\r\n", ""),
    );
    drop(r);
    live(&site, &server, &[])
        .code(0)
        .stderr(predicates::str::contains("checked 1 URL in 1 sitemap live"));
    site.config("base_url = 'https://example.org/'\nnoindex_agents = ['robots', 'googlebot']\n");
    live(&site, &server, &["-q"])
        .code(1)
        .stdout(predicates::str::contains(
            "X-Robots-Tag header (googlebot: noindex)",
        ));
}

/// A sitemap that is not there is an error naming it; a robots.txt answering 5xx stops
/// the check, since crawlers then take the whole site as disallowed.
#[test]
fn a_missing_sitemap_or_a_failing_robots_txt_stops_the_check() {
    let site = Site::new(&[]);
    let routes = Arc::new(Mutex::new(HashMap::new()));
    let server = Server::start_shared(Arc::clone(&routes));
    live(&site, &server, &[])
        .code(1)
        .stderr(predicates::str::contains("sitemap.xml answered HTTP 404"));
    routes.lock().unwrap().insert(
        "/robots.txt".into(),
        Answer::Plain(503, String::new(), Vec::new()),
    );
    live(&site, &server, &[])
        .code(1)
        .stderr(predicates::str::contains(
            "robots.txt answered HTTP 503: crawlers take the whole site as disallowed",
        ));
    site.cmd()
        .args(["check", "--live", "ftp://example.org/sitemap.xml"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not an http(s) URL"));
}

/// The Action's `check-live` command: each finding an annotation (`::error::` or
/// `::warning::`), the URL count an output, the step failed.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn the_actions_check_live_annotates_each_finding() {
    let site = Site::new(&[]);
    let server = planted(site.root());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin!("sitemapgen"),
        bin_dir.path().join("sitemapgen"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let github_output = site.root().join("github-output");
    let out = std::process::Command::new("bash")
        .arg(root.join("action/run.sh"))
        .current_dir(site.root())
        .env("PATH", path)
        .env("GITHUB_OUTPUT", &github_output)
        .env("INPUT_COMMAND", "check-live")
        .env("INPUT_BASE_URL", server.url("/"))
        .env(
            "INPUT_ARGS",
            "--rate 0 --timeout 1 --retries 1 --backoff-ms 10",
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let count = |prefix: &str| stdout.lines().filter(|l| l.starts_with(prefix)).count();
    // The 8 errors, and the line saying the step failed.
    assert_eq!(
        (count("::error::"), count("::warning::")),
        (9, 3),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error::sitemapgen: check-live of"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&github_output).unwrap(),
        "urls=14\n"
    );
}
