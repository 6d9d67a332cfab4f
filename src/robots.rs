//! robots.txt both ways: URLs it disallows are left out of the sitemap, and the
//! sitemap's address can be announced in it.
//!
//! Matching is ours, RFC 9309 as Google reads it: the groups naming the user agent
//! (case-insensitively) or else `*`'s, the rule with the longest pattern wins, `Allow`
//! beats an equally long `Disallow`, `*` matches any run and a final `$` the end. One
//! matcher both decides and names the rule it went by ([`Robots::deciding`]), so what
//! `explain` shows is what left the URL out.

use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::fsutil::{At, IoError};

/// RFC 9309: crawlers must read at least this much of a robots.txt; we read no more.
pub const MAX_BYTES: u64 = 500 * 1024;

/// The largest robots.txt [`announce`] edits: it must hold all of it to write it back.
pub const EDIT_MAX_BYTES: u64 = 8 * 1024 * 1024;

/// What to do with the site's robots.txt after writing the sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RobotsTxt {
    /// Leave it alone (the default).
    #[default]
    Leave,
    /// Add or replace our `Sitemap:` line in an existing robots.txt.
    Update,
    /// As `Update`, and write a minimal robots.txt when there is none.
    Create,
}

/// A robots.txt that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RobotsError {
    /// Reading failed.
    #[error("cannot read {0}")]
    Read(IoError),
    /// The site's address cannot be parsed (to tell our `Sitemap:` lines from others').
    #[error(
        "{} cannot be parsed ({message}); fix it or set respect_robots = false",
        crate::text::path(path)
    )]
    Parse {
        /// What could not be parsed.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// Writing failed; the previous robots.txt is untouched.
    #[error("cannot write {0}")]
    Write(IoError),
}

/// The rules of one robots.txt for one user agent.
#[derive(Debug)]
pub struct Robots {
    /// The `Allow` and `Disallow` rules of the agent's groups, in the file's order.
    rules: Vec<Rule>,
    /// The agent's `Crawl-delay`, in seconds.
    delay: Option<f32>,
    /// Where it was read from.
    pub path: PathBuf,
}

/// One `Allow` or `Disallow` line of a robots.txt.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Its line number, from 1.
    pub line: usize,
    /// `Allow` rather than `Disallow`.
    pub allow: bool,
    /// The path pattern as written.
    pub written: String,
    /// The pattern matched: `written` percent-encoded outside printable ASCII, as URLs are.
    pattern: String,
}

impl Robots {
    /// Reads `robots.txt` from `dir` for `agent`; `None` when there is none.
    pub fn load(dir: &Path, agent: &str) -> Result<Option<Robots>, RobotsError> {
        let path = dir.join("robots.txt");
        match read_limited(dir) {
            Ok(bytes) => Ok(Some(Robots::parse(&bytes, agent, path))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(RobotsError::Read(IoError::new(path, e))),
        }
    }

    /// Parses robots.txt content for `agent`; `path` names it. Every line it cannot read
    /// is ignored, as RFC 9309 asks, so parsing cannot fail.
    pub fn parse(bytes: &[u8], agent: &str, path: PathBuf) -> Robots {
        let text = String::from_utf8_lossy(bytes);
        let lines = lines(&text);
        let uas = || lines.iter().filter_map(|(_, l)| l.agent());
        let agent = match uas().any(|ua| ua.eq_ignore_ascii_case(agent)) {
            true => agent,
            false => "*",
        };
        // Rules before any User-agent line count only when there is none at all.
        let mut capturing = uas().next().is_none();
        let (mut rules, mut delay, mut after_agent) = (Vec::new(), None, false);
        for (line, parsed) in &lines {
            match parsed {
                Line::Agent(ua) => {
                    // Consecutive User-agent lines open one group.
                    capturing = (capturing && after_agent) || ua.eq_ignore_ascii_case(agent);
                    after_agent = true;
                    continue;
                }
                _ if !capturing => {}
                Line::Rule(allow, written) => rules.push(Rule::new(*line, *allow, written)),
                Line::Delay(d) => delay = delay.or(Some(*d)),
            }
            after_agent = false;
        }
        // A Crawl-delay above every group applies to all agents.
        let before_groups = lines
            .iter()
            .map(|(_, l)| l)
            .take_while(|l| l.agent().is_none());
        let preamble = before_groups.filter_map(|l| l.delay()).last();
        let delay = delay.or(preamble);
        Robots { rules, delay, path }
    }

    /// Whether the rules let the agent crawl `url` (absolute, or a path).
    pub fn allows(&self, url: &str) -> bool {
        self.deciding(url).is_none_or(|rule| rule.allow)
    }

    /// The rule that decides whether the agent may crawl `url`: of those matching its
    /// path, the longest pattern, an `Allow` before an equally long `Disallow`, else the
    /// first in the file. `None` when none matches (or for robots.txt itself): allowed.
    pub fn deciding(&self, url: &str) -> Option<&Rule> {
        let target = target(url);
        if target == "/robots.txt" {
            return None;
        }
        let matching = self
            .rules
            .iter()
            .filter(|r| pattern_matches(&r.pattern, &target));
        // min_by_key keeps the first of equals: the file's order breaks the last ties.
        matching.min_by_key(|r| (std::cmp::Reverse(r.pattern.len()), !r.allow))
    }

    /// The agent's `Crawl-delay`, in seconds, when the file sets one (`check --live`).
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    pub fn delay(&self) -> Option<f32> {
        self.delay
    }
}

impl Rule {
    fn new(line: usize, allow: bool, written: &str) -> Rule {
        Rule {
            line,
            allow,
            written: written.to_string(),
            pattern: percent_encoding::utf8_percent_encode(written, ENCODED).to_string(),
        }
    }
}

/// What is percent-encoded in a pattern or a URL that is not already: non-ASCII,
/// controls, and the characters a URL may not hold raw.
const ENCODED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'`');

/// The line of robots.txt `dir/robots.txt` that blocks `url` for `agent`, to name it
/// (`explain`): its number and text; `None` when the URL is not blocked.
pub fn blocking_line(dir: &Path, agent: &str, url: &str) -> Option<(usize, String)> {
    let robots = Robots::load(dir, agent).ok()??;
    let rule = robots.deciding(url).filter(|rule| !rule.allow)?;
    Some((rule.line, format!("Disallow: {}", rule.written)))
}

/// A line of robots.txt that matters to matching.
#[derive(Debug)]
enum Line<'t> {
    /// `User-agent`.
    Agent(&'t str),
    /// `Allow` (true) or `Disallow`, and the pattern. An empty `Disallow` allows all.
    Rule(bool, &'t str),
    /// A valid `Crawl-delay`.
    Delay(f32),
}

impl<'t> Line<'t> {
    fn agent(&self) -> Option<&'t str> {
        match self {
            Line::Agent(ua) => Some(ua),
            _ => None,
        }
    }

    fn delay(&self) -> Option<f32> {
        match self {
            Line::Delay(d) => Some(*d),
            _ => None,
        }
    }
}

/// The keys we read, with the spellings (and common misspellings) crawlers accept.
const KEYS: &[(&str, &[&str])] = &[
    ("user-agent", &["user-agent", "user agent", "useragent"]),
    ("allow", &["allow"]),
    (
        "disallow",
        &[
            "disallow",
            "dissallow",
            "dissalow",
            "disalow",
            "diasllow",
            "disallaw",
        ],
    ),
    ("crawl-delay", &["crawl-delay", "crawl delay", "crawldelay"]),
];

/// The lines of a robots.txt that matter, with their numbers (a line ends at `\n`; a
/// lone `\r` or a NUL byte also ends one, as old files use them).
fn lines(text: &str) -> Vec<(usize, Line<'_>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let numbered = text.split('\n').enumerate();
    let pieces = numbered.flat_map(|(i, l)| l.split(['\r', '\0']).map(move |p| (i + 1, p)));
    pieces
        .filter_map(|(i, piece)| Some((i, line(piece)?)))
        .collect()
}

/// One line read as `key: value` (or `key value`), the value up to a `#` comment.
fn line(text: &str) -> Option<Line<'_>> {
    let text = text.trim_start_matches([' ', '\t']);
    let (key, rest) = KEYS.iter().find_map(|(key, spellings)| {
        let rest = spellings
            .iter()
            .find_map(|s| strip_prefix_ignore_case(text, s))?;
        let after = rest.trim_start_matches([' ', '\t']);
        let value = match after.strip_prefix(':') {
            Some(value) => value,
            None if after.len() < rest.len() => after,
            None => return None,
        };
        Some((*key, value))
    })?;
    let value = rest.split('#').next().unwrap_or_default().trim();
    Some(match key {
        "user-agent" => Line::Agent(value),
        "allow" => Line::Rule(true, value),
        "disallow" if value.is_empty() => Line::Rule(true, "/"),
        "disallow" => Line::Rule(false, value),
        _ => Line::Delay(value.parse().ok().filter(|d: &f32| *d >= 0.0)?),
    })
}

fn strip_prefix_ignore_case<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The path and query of `url` (absolute, or a path), percent-encoded as rules are.
fn target(url: &str) -> String {
    if url.is_empty() {
        return "/".to_string();
    }
    match url::Url::parse(url) {
        Ok(url) => url[url::Position::BeforePath..].to_string(),
        Err(_) => percent_encoding::utf8_percent_encode(url, ENCODED).to_string(),
    }
}

/// Whether a robots.txt pattern matches from the start of `path`: `*` matches any run,
/// a final `$` the end; otherwise the pattern need only be a prefix.
fn pattern_matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(pattern) => (pattern.as_bytes(), true),
        None => (pattern.as_bytes(), false),
    };
    let path = path.as_bytes();
    let (mut p, mut s) = (0, 0);
    // After a `*`: where the pattern resumes, and where in the path it was last tried.
    let mut star: Option<(usize, usize)> = None;
    loop {
        if p == pattern.len() && (!anchored || s == path.len()) {
            return true;
        }
        if pattern.get(p) == Some(&b'*') {
            p += 1;
            star = Some((p, s));
            continue;
        }
        if p < pattern.len() && path.get(s) == Some(&pattern[p]) {
            (p, s) = (p + 1, s + 1);
            continue;
        }
        // A mismatch: let the last `*` take one more byte, if there is one.
        match star {
            Some((resume, tried)) if tried < path.len() => {
                star = Some((resume, tried + 1));
                (p, s) = (resume, tried + 1);
            }
            _ => return false,
        }
    }
}
/// The first [`MAX_BYTES`] of `dir/robots.txt`, a regular file in `dir`'s tree (a link
/// inside followed along its real path, [`crate::fsutil::Root::open`]).
fn read_limited(dir: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let root = crate::fsutil::Root::at(dir)?;
    let file = root.open(Path::new("robots.txt"))?;
    let file = file.ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What [`announce`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Announced {
    /// The robots.txt already named the sitemap.
    Unchanged,
    /// An existing `Sitemap:` line was replaced.
    Replaced(String),
    /// The line was added.
    Added,
    /// A new robots.txt was written.
    Created,
    /// There is no robots.txt and `Update` does not create one.
    NoFile,
}

/// Adds `Sitemap: {sitemap_url}` to `dir/robots.txt`, keeping every other byte.
///
/// A `Sitemap:` line for the same host that names a file no longer on disk is taken to
/// be an earlier announcement of ours and replaced in place; other sitemaps of the site
/// are left alone. With [`RobotsTxt::Create`], a missing robots.txt is written as
/// `User-agent: *`, `Allow: /` and the `Sitemap:` line.
///
/// The read and the atomic write are one turn under the lock of `dir`, so concurrent runs
/// announcing different sitemaps keep each other's lines. Only a regular file in `dir`'s
/// tree is read or replaced (a link inside is written through to its target).
pub fn announce(
    dir: &Path,
    sitemap_url: &str,
    host_root: &url::Url,
    mode: RobotsTxt,
) -> Result<Announced, RobotsError> {
    let named = dir.join("robots.txt");
    let held = (crate::fsutil::lock_dir(dir).at(&named)).map_err(RobotsError::Read)?;
    let rel = Path::new("robots.txt");
    let write = |bytes: &[u8]| {
        held.write(rel, bytes)
            .at(&named)
            .map_err(RobotsError::Write)
    };
    let read = held.read(rel, EDIT_MAX_BYTES).at(&named);
    let Some(old) = read.map_err(RobotsError::Read)? else {
        if mode != RobotsTxt::Create {
            return Ok(Announced::NoFile);
        }
        let text = format!("User-agent: *\nAllow: /\n\nSitemap: {sitemap_url}\n");
        write(text.as_bytes())?;
        return Ok(Announced::Created);
    };
    let (new, what) =
        with_sitemap_line(&old, sitemap_url, |url| is_stale_ours(url, host_root, dir));
    if what != Announced::Unchanged {
        write(&new)?;
    }
    Ok(what)
}

/// Whether a `Sitemap:` URL is on our host and names a file that is not on disk.
fn is_stale_ours(url: &str, host_root: &url::Url, dir: &Path) -> bool {
    let Ok(url) = url::Url::parse(url) else {
        return false;
    };
    if url.origin() != host_root.origin() {
        return false;
    }
    let rel = percent_encoding::percent_decode_str(url.path().trim_start_matches('/'))
        .decode_utf8_lossy()
        .into_owned();
    !dir.join(rel).exists()
}

/// The robots.txt `old` with our `Sitemap:` line: unchanged if present, else replacing
/// the first line `replaceable` accepts, else appended (in the file's own line ending).
///
/// Written by hand: robots.txt crates parse rules; none edits a file byte for byte.
fn with_sitemap_line(
    old: &[u8],
    sitemap_url: &str,
    replaceable: impl Fn(&str) -> bool,
) -> (Vec<u8>, Announced) {
    let eol: &[u8] = if old.windows(2).any(|w| w == b"\r\n") {
        b"\r\n"
    } else {
        b"\n"
    };
    let mut lines: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let value_of = |line: &[u8]| -> Option<String> {
        let text = String::from_utf8_lossy(line);
        let (key, value) = text.split_once(':')?;
        let value = value.split('#').next().unwrap_or("").trim();
        key.trim()
            .eq_ignore_ascii_case("sitemap")
            .then(|| value.to_string())
    };
    if lines
        .iter()
        .any(|l| value_of(l).as_deref() == Some(sitemap_url))
    {
        return (old.to_vec(), Announced::Unchanged);
    }
    let ours: Vec<u8> = [format!("Sitemap: {sitemap_url}").as_bytes(), eol].concat();
    if let Some(i) = lines
        .iter()
        .position(|l| value_of(l).is_some_and(|v| replaceable(&v)))
    {
        let replaced = value_of(lines[i]).unwrap_or_default();
        let keep_eol = lines[i].ends_with(b"\n");
        let line: &[u8] = if keep_eol {
            &ours
        } else {
            &ours[..ours.len() - eol.len()]
        };
        lines[i] = line;
        return (lines.concat(), Announced::Replaced(replaced));
    }
    let mut new = old.to_vec();
    if !new.is_empty() && !new.ends_with(b"\n") {
        new.extend_from_slice(eol);
    }
    new.extend_from_slice(&ours);
    (new, Announced::Added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_that_blocks_a_url_is_the_longest_that_matches_in_the_agents_group() {
        let dir = tempfile::tempdir().unwrap();
        let text = "User-agent: other\nDisallow: /\n\nUser-agent: *\nUser-agent: sitemapgen\nDisallow: /a\nDisallow: /a/*.pdf$ # PDFs\nDisallow: /b$\n";
        std::fs::write(dir.path().join("robots.txt"), text).unwrap();
        let table = [
            ("https://e.org/a/x.pdf", Some((7, "Disallow: /a/*.pdf$"))),
            ("https://e.org/a/x.pdf?q", Some((6, "Disallow: /a"))),
            ("https://e.org/b", Some((8, "Disallow: /b$"))),
            ("https://e.org/b/c", None),
        ];
        for (url, want) in table {
            let got = blocking_line(dir.path(), "sitemapgen", url);
            assert_eq!(got, want.map(|(l, r)| (l, r.to_string())), "{url}");
        }
    }

    #[test]
    fn the_rule_that_decides_is_the_rule_named() {
        let txt = b"User-agent: *\nDisallow: /private/\nAllow: /private/public/\nDisallow: /page\nallow /page\nDisallow: /x*y$\nDisallow:\n";
        let robots = Robots::parse(txt, "bot", "robots.txt".into());
        let table = [
            ("https://e.org/private/a", Some((2, false))),
            ("https://e.org/private/public/a", Some((3, true))),
            ("https://e.org/page", Some((5, true))),
            ("https://e.org/x/a/y", Some((6, false))),
            ("https://e.org/x/a/y/z", Some((7, true))),
            ("https://e.org/robots.txt", None),
        ];
        for (url, want) in table {
            let got = robots.deciding(url).map(|r| (r.line, r.allow));
            assert_eq!(got, want, "{url}");
        }
    }

    const URL: &str = "https://example.org/sitemap.xml";

    fn edit(old: &str, replaceable: impl Fn(&str) -> bool) -> (String, Announced) {
        let (new, what) = with_sitemap_line(old.as_bytes(), URL, replaceable);
        (String::from_utf8(new).unwrap(), what)
    }

    #[test]
    fn the_sitemap_line_is_added_replaced_or_left_keeping_every_other_byte() {
        let never = |_: &str| false;
        let table: &[(&str, &str, Announced)] = &[
            (
                "User-agent: *\nDisallow: /tmp/\n",
                "User-agent: *\nDisallow: /tmp/\nSitemap: https://example.org/sitemap.xml\n",
                Announced::Added,
            ),
            (
                "# no newline at end\nUser-agent: *",
                "# no newline at end\nUser-agent: *\nSitemap: https://example.org/sitemap.xml\n",
                Announced::Added,
            ),
            (
                "User-agent: *\r\nAllow: /\r\n",
                "User-agent: *\r\nAllow: /\r\nSitemap: https://example.org/sitemap.xml\r\n",
                Announced::Added,
            ),
            (
                "",
                "Sitemap: https://example.org/sitemap.xml\n",
                Announced::Added,
            ),
            (
                "User-agent: *\nsitemap:   https://example.org/sitemap.xml # ours\n",
                "User-agent: *\nsitemap:   https://example.org/sitemap.xml # ours\n",
                Announced::Unchanged,
            ),
        ];
        for (old, want, what) in table {
            assert_eq!(
                edit(old, never),
                (want.to_string(), what.clone()),
                "{old:?}"
            );
        }
        let stale = |u: &str| u.ends_with("/old-sitemap.xml");
        let (new, what) = edit(
            "User-agent: *\r\nSitemap: https://example.org/news.xml\r\nSITEMAP: https://example.org/old-sitemap.xml\r\n# end",
            stale,
        );
        assert_eq!(
            new,
            "User-agent: *\r\nSitemap: https://example.org/news.xml\r\nSitemap: https://example.org/sitemap.xml\r\n# end"
        );
        assert_eq!(
            what,
            Announced::Replaced("https://example.org/old-sitemap.xml".into())
        );
    }

    #[test]
    fn matching_follows_google_precedence() {
        let txt = b"User-agent: *\nDisallow: /private/\nAllow: /private/public/\nDisallow: /*.pdf$\nDisallow: /page\nAllow: /page\n\nUser-Agent: SitemapBot\nDisallow: /\nAllow: /blog/\n";
        let star = Robots::parse(txt, "*", "robots.txt".into());
        let table = [
            ("https://example.org/", true),
            ("https://example.org/private/x.html", false),
            ("https://example.org/private/public/x.html", true),
            ("https://example.org/files/a.pdf", false),
            ("https://example.org/files/a.pdf.html", true),
            ("https://example.org/page", true),
        ];
        for (url, want) in table {
            assert_eq!(star.allows(url), want, "* {url}");
        }
        let bot = Robots::parse(txt, "sitemapbot", "robots.txt".into());
        assert!(!bot.allows("https://example.org/private/public/x.html"));
        assert!(bot.allows("https://example.org/blog/post/"));
    }
}
