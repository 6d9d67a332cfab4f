//! A fake API for the engines' tests: one server on 127.0.0.1 (never any other
//! address) answering a script in order and recording each request.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// A request the server read.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub method: String,
    /// The path with its query.
    pub path: String,
    /// Header values by lower-case name.
    pub headers: HashMap<String, String>,
    pub body: String,
}

impl Seen {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(String::as_str)
            .unwrap_or_default()
    }

    /// The body as a form.
    pub fn form(&self) -> HashMap<String, String> {
        url::form_urlencoded::parse(self.body.as_bytes())
            .into_owned()
            .collect()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// An answer: status, header lines (`Name: value\r\n`), JSON body.
pub(crate) type Reply = (u16, &'static str, String);

/// A reply of `status` with `body` and no other header.
pub(crate) fn reply(status: u16, body: &str) -> Reply {
    (status, "", body.to_string())
}

pub(crate) struct Fake {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Fake {
    /// Answers `script` in order, then 500 to every request.
    pub fn start(script: Vec<Reply>) -> Fake {
        Fake::start_then(script, reply(500, ""))
    }

    /// Answers `script` in order, then `after` to every request.
    pub fn start_then(script: Vec<Reply>, after: Reply) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let mut script = script.into_iter();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let Some(request) = read(&mut stream) else {
                    continue;
                };
                log.lock().unwrap().push(request);
                let (status, headers, body) = script.next().unwrap_or_else(|| after.clone());
                let answer = format!(
                    "HTTP/1.1 {status} X\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes());
            }
        });
        Fake { port, seen }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn read(stream: &mut std::net::TcpStream) -> Option<Seen> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut headers = HashMap::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let Some((name, value)) = header.trim_end().split_once(':') else {
            break;
        };
        headers.insert(name.to_ascii_lowercase(), value.trim().to_string());
    }
    let length = (headers.get("content-length"))
        .map_or(Ok(0), |l| l.parse())
        .ok()?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = String::from_utf8(body).ok()?;
    Some(Seen {
        method,
        path,
        headers,
        body,
    })
}
