//! A recording HTTP server on 127.0.0.1 (never any other address), started by each test
//! that sends: answering from a script in order, or by path as an API would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request the server saw.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// The path with its query.
    pub path: String,
    pub body: String,
}

/// An answer: status, body, header lines (`Name: value\r\n`).
type Answer = (u16, String, String);

pub struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// Answers each request with the next scripted (status, body), then 200.
    #[cfg(feature = "net")]
    pub fn start(script: &[(u16, &str)]) -> Server {
        let script: Vec<(u16, &str, &str)> = script.iter().map(|(s, b)| (*s, *b, "")).collect();
        Server::start_with_headers(&script)
    }

    /// As [`Server::start`], each answer with its own header lines.
    #[cfg(feature = "net")]
    pub fn start_with_headers(script: &[(u16, &str, &str)]) -> Server {
        let mut script: Vec<Answer> = (script.iter())
            .map(|(s, b, h)| (*s, b.to_string(), h.to_string()))
            .collect();
        script.reverse();
        Server::answering(move |_| script.pop().unwrap_or((200, String::new(), String::new())))
    }

    /// Answers by the first rule whose path part the request's path contains: (status,
    /// JSON body); 404 otherwise.
    pub fn routed(rules: Vec<(&'static str, u16, String)>) -> Server {
        Server::answering(move |seen| {
            match rules.iter().find(|(part, ..)| seen.path.contains(part)) {
                Some((_, status, body)) => (
                    *status,
                    body.clone(),
                    "Content-Type: application/json\r\n".into(),
                ),
                None => (404, String::new(), String::new()),
            }
        })
    }

    fn answering(mut answer: impl FnMut(&Seen) -> Answer + Send + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let Some(request) = read_request(&mut stream) else {
                    continue;
                };
                let (status, body, headers) = answer(&request);
                log.lock().unwrap().push(request);
                let reply = format!(
                    "HTTP/1.1 {status} X\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Server { port, seen }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn read_request(stream: &mut std::net::TcpStream) -> Option<Seen> {
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
    Some(Seen {
        method,
        path,
        body: String::from_utf8(body).ok()?,
    })
}
