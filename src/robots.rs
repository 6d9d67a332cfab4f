//! robots.txt both ways: URLs it disallows are left out of the sitemap, and the
//! sitemap's address can be announced in it.
//!
//! Matching is texting_robots', which follows RFC 9309 and Google's reading: the group
//! for the most specific user agent (case-insensitive), the longest matching rule wins,
//! `Allow` beats an equally long `Disallow`, `*` and `$` wildcards.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The robots.txt.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The parser gave up on it.
    #[error("{} cannot be parsed ({message}); fix it or set respect_robots = false", path.display())]
    Parse {
        /// The robots.txt.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// Writing failed; the previous robots.txt is untouched.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The robots.txt.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

/// The rules of one robots.txt for one user agent.
pub struct Robots {
    robot: texting_robots::Robot,
    /// Where it was read from.
    pub path: PathBuf,
}

impl fmt::Debug for Robots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Robots").field("path", &self.path).finish()
    }
}

impl Robots {
    /// Reads `robots.txt` from `dir` for `agent`; `None` when there is none.
    pub fn load(dir: &Path, agent: &str) -> Result<Option<Robots>, RobotsError> {
        let path = dir.join("robots.txt");
        let bytes = match read_limited(dir) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(RobotsError::Read { path, source }),
        };
        Robots::parse(&bytes, agent, path).map(Some)
    }

    /// Parses robots.txt content for `agent`; `path` names it in errors.
    pub fn parse(bytes: &[u8], agent: &str, path: PathBuf) -> Result<Robots, RobotsError> {
        let robot = texting_robots::Robot::new(agent, bytes).map_err(|e| RobotsError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        Ok(Robots { robot, path })
    }

    /// Whether the rules let the agent crawl `url` (absolute, or a path).
    pub fn allows(&self, url: &str) -> bool {
        self.robot.allowed(url)
    }

    /// The agent's `Crawl-delay`, in seconds, when the file sets one (`check --live`).
    #[cfg_attr(not(feature = "net"), allow(dead_code))]
    pub fn delay(&self) -> Option<f32> {
        self.robot.delay
    }
}

/// The `Disallow` line of `dir/robots.txt` that blocks `url` for `agent`, to name it
/// (`explain`): its line and text. Whether the URL is blocked is texting_robots' answer
/// ([`Robots::allows`]); this finds the line it most likely went by, as Google picks a
/// rule: the longest `Disallow` that matches, in the agent's group, else in `*`'s.
pub fn blocking_line(dir: &Path, agent: &str, url: &str) -> Option<(usize, String)> {
    let bytes = read_limited(dir).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let target = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    // Each group: its agents, and its Disallow lines.
    let mut groups: Vec<Group> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        match key.as_str() {
            "user-agent" => match groups.last_mut() {
                Some((agents, rules)) if rules.is_empty() => {
                    agents.push(value.to_ascii_lowercase())
                }
                _ => groups.push((vec![value.to_ascii_lowercase()], Vec::new())),
            },
            "disallow" if !value.is_empty() => {
                if let Some((_, rules)) = groups.last_mut() {
                    rules.push((i + 1, value));
                }
            }
            _ => {}
        }
    }
    let agent = agent.to_ascii_lowercase();
    let group = (groups.iter().find(|(agents, _)| agents.contains(&agent))).or_else(|| {
        groups
            .iter()
            .find(|(agents, _)| agents.iter().any(|a| a == "*"))
    })?;
    (group.1.iter())
        .filter(|(_, rule)| rule_matches(rule, target))
        .max_by_key(|(_, rule)| rule.len())
        .map(|(line, rule)| (*line, format!("Disallow: {rule}")))
}

/// A group of robots.txt: its user agents (lower-case), and its `Disallow` rules with
/// their lines.
type Group<'t> = (Vec<String>, Vec<(usize, &'t str)>);

/// Whether a robots.txt path rule (`*` any characters, a final `$` the end) matches.
fn rule_matches(rule: &str, path: &str) -> bool {
    let (rule, anchored) = match rule.strip_suffix('$') {
        Some(rule) => (rule, true),
        None => (rule, false),
    };
    let pieces: Vec<String> = rule.split('*').map(regex::escape).collect();
    let end = if anchored { "$" } else { "" };
    regex::Regex::new(&format!("^{}{end}", pieces.join(".*"))).is_ok_and(|re| re.is_match(path))
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
    let read_err = |source| RobotsError::Read {
        path: named.clone(),
        source,
    };
    let held = crate::fsutil::lock_dir(dir).map_err(read_err)?;
    let rel = Path::new("robots.txt");
    let write = |bytes: &[u8]| {
        held.write(rel, bytes).map_err(|source| RobotsError::Write {
            path: named.clone(),
            source,
        })
    };
    let Some(old) = held.read(rel, EDIT_MAX_BYTES).map_err(read_err)? else {
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
        let star = Robots::parse(txt, "*", "robots.txt".into()).unwrap();
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
        let bot = Robots::parse(txt, "sitemapbot", "robots.txt".into()).unwrap();
        assert!(!bot.allows("https://example.org/private/public/x.html"));
        assert!(bot.allows("https://example.org/blog/post/"));
    }
}
