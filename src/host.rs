//! What the host serving the site does with its paths, from the host's own files in the
//! output folder, read once before the walk: `_headers` (Netlify, Cloudflare Pages), where
//! a path served with `X-Robots-Tag: noindex` is one search engines drop, so it is left
//! out of the sitemap.

mod headers;
mod pattern;

use std::io;
use std::path::{Path, PathBuf};

/// The host's headers file, in the output folder.
pub const HEADERS_FILE: &str = "_headers";

/// The largest host file read; real ones are a few KiB.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The host's rules that leave pages out.
#[derive(Debug)]
pub struct Host {
    /// The site's host, lower-case: a rule for another host's URL does not apply.
    host: String,
    /// `_headers`, when it sets or takes away `X-Robots-Tag`.
    headers: Option<(PathBuf, Vec<headers::Rule>)>,
}

/// Why the host leaves a page out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostLeftOut {
    /// Served with `X-Robots-Tag: noindex` by the rule at `file:line`.
    Noindex {
        /// The host's file.
        file: PathBuf,
        /// The header's line, 1-based.
        line: usize,
    },
}

impl std::fmt::Display for HostLeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostLeftOut::Noindex { file, line } => {
                write!(f, "noindex (host headers: {}:{line})", file.display())
            }
        }
    }
}

impl Host {
    /// Reads the host's files in `public_dir` (regular files inside it only): `None`
    /// when there are none, or none says anything of the pages. `agents` are the robots
    /// names whose `noindex` counts (`noindex_agents`).
    pub fn load(public_dir: &Path, base: &url::Url, agents: &[String]) -> io::Result<Option<Host>> {
        let path = public_dir.join(HEADERS_FILE);
        let text = match crate::fsutil::read_below_string(
            public_dir,
            Path::new(HEADERS_FILE),
            MAX_FILE_BYTES,
        ) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        };
        let rules = headers::parse(&text, agents);
        if rules.is_empty() {
            return Ok(None);
        }
        Ok(Some(Host {
            host: base.host_str().unwrap_or_default().to_lowercase(),
            headers: Some((path, rules)),
        }))
    }

    /// What the host does to the page at the absolute URL `url`, when it leaves it out.
    pub fn verdict(&self, url: &str) -> Option<HostLeftOut> {
        let path = url_path(url);
        let (file, rules) = self.headers.as_ref()?;
        let line = headers::noindex(rules, &self.host, &path)?;
        Some(HostLeftOut::Noindex {
            file: file.clone(),
            line,
        })
    }
}

/// The decoded path of an absolute URL (`https://example.org/caf%C3%A9/` → `/café/`),
/// as the hosts match their patterns against it.
fn url_path(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned()
}
