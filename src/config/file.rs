//! `sitemap.toml` as written: the serde shape of the file, with spans for messages.

use std::fmt;
use std::path::PathBuf;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use toml::Spanned;

use super::ConfigError;
use crate::robots::RobotsTxt;
use crate::rules::Changefreq;
use crate::sitemap::Format;
use crate::w3c::LastmodFormat;

/// `sitemap.toml` as written: every key optional here, checked in `Config::from_parts`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub(super) base_url: Option<Spanned<String>>,
    pub(super) public_dir: Option<PathBuf>,
    pub(super) output: Option<Spanned<PathBuf>>,
    pub(super) format: Option<Format>,
    pub(super) gzip: Option<bool>,
    pub(super) extensions: Option<Spanned<Vec<String>>>,
    pub(super) documents: Option<Spanned<Vec<String>>>,
    pub(super) error_pages: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub(super) exclude: Option<Spanned<Globs>>,
    pub(super) trailing_slash: Option<bool>,
    pub(super) clean_urls: Option<bool>,
    pub(super) follow_symlinks: Option<bool>,
    pub(super) max_urls_per_file: Option<Spanned<i64>>,
    pub(super) lastmod: Option<Spanned<toml::Value>>,
    pub(super) lastmod_format: Option<LastmodFormat>,
    pub(super) respect_noindex: Option<bool>,
    pub(super) noindex_agents: Option<Spanned<Vec<String>>>,
    pub(super) skip_redirects: Option<bool>,
    pub(super) respect_canonical: Option<bool>,
    pub(super) alternates: Option<bool>,
    pub(super) images: Option<bool>,
    pub(super) stylesheet: Option<Spanned<String>>,
    pub(super) html_sitemap: Option<bool>,
    pub(super) html_sitemap_dates: Option<bool>,
    pub(super) llms_txt: Option<bool>,
    pub(super) llms_txt_max_pages: Option<Spanned<i64>>,
    pub(super) llms_full_txt: Option<bool>,
    pub(super) llms_markdown: Option<bool>,
    pub(super) llms_links: Option<LlmsLinks>,
    pub(super) llms_txt_per_section: Option<bool>,
    pub(super) site_name: Option<Spanned<String>>,
    pub(super) split: Option<Spanned<String>>,
    pub(super) default_language: Option<Spanned<String>>,
    pub(super) state_file: Option<PathBuf>,
    pub(super) changes: Option<bool>,
    pub(super) indexnow_key: Option<Spanned<String>>,
    pub(super) indexnow_key_file: Option<bool>,
    pub(super) indexnow_endpoint: Option<Spanned<String>>,
    pub(super) respect_robots: Option<bool>,
    pub(super) robots_agent: Option<Spanned<String>>,
    pub(super) robots_txt: Option<Spanned<RobotsTxt>>,
    pub(super) shard: Option<Spanned<String>>,
    pub(super) host_config: Option<bool>,
    pub(super) hosting: Option<crate::host::Hosting>,
    pub(super) host_headers: Option<bool>,
    #[serde(default)]
    pub(super) defaults: Defaults,
    #[serde(default, rename = "rule")]
    pub(super) rules: Vec<FileRule>,
    #[serde(default, rename = "section")]
    pub(super) sections: Vec<FileSection>,
    #[serde(default)]
    pub(super) shards: Vec<FileShard>,
    pub(super) source: Option<Spanned<FileSource>>,
    pub(super) google: Option<FileGoogle>,
    pub(super) bing: Option<FileBing>,
}

/// `[google]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileGoogle {
    pub(super) property: Option<Spanned<String>>,
    pub(super) service_account: Option<Spanned<String>>,
    pub(super) workload_identity_provider: Option<Spanned<String>>,
    pub(super) api_endpoint: Option<Spanned<String>>,
    pub(super) sts_endpoint: Option<Spanned<String>>,
    pub(super) iam_endpoint: Option<Spanned<String>>,
}

/// `[bing]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileBing {
    pub(super) site_url: Option<Spanned<String>>,
    pub(super) api_endpoint: Option<Spanned<String>>,
}

/// Where the credentials of the engine whose table is `header` come from, when it is
/// one: what to do instead of writing them in the file.
fn credentials_env(header: &str) -> Option<&'static str> {
    match header {
        "[google]" => Some(
            "set SITEMAPGEN_GOOGLE_CREDENTIALS (a service account key's JSON, from a CI secret) or GOOGLE_APPLICATION_CREDENTIALS (its file's path), or go keyless with service_account and workload_identity_provider",
        ),
        "[bing]" => Some("set BING_WEBMASTER_API_KEY in the environment (from a CI secret)"),
        _ => None,
    }
}

/// `llms_links`: what `llms.txt` links, each page or its Markdown twin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum LlmsLinks {
    Page,
    Markdown,
}

/// `[source]`: how pages map to the files they were built from.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileSource {
    pub(super) generator: Option<Spanned<String>>,
    pub(super) content: Option<Vec<Spanned<PathBuf>>>,
    pub(super) updated: Option<Vec<String>>,
    pub(super) permalink: Option<String>,
    pub(super) default_language: Option<String>,
    pub(super) route: Option<Vec<FileRoute>>,
}

/// `[[source.route]]`: sources matching `from` are built to the URL `to`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileRoute {
    pub(super) from: Spanned<String>,
    pub(super) to: Spanned<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Defaults {
    pub(super) changefreq: Option<Changefreq>,
    pub(super) priority: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileRule {
    #[serde(rename = "match")]
    pub(super) globs: Spanned<Globs>,
    pub(super) changefreq: Option<Changefreq>,
    pub(super) priority: Option<Spanned<f64>>,
    pub(super) exclude: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileSection {
    pub(super) name: Spanned<String>,
    #[serde(rename = "match")]
    pub(super) globs: Spanned<Globs>,
}

/// `[[shards]]`: a part of a sharded site, and the pages it lists (none: the pages no
/// other shard's `match` takes).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileShard {
    pub(super) name: Spanned<String>,
    #[serde(rename = "match")]
    pub(super) globs: Option<Spanned<Globs>>,
}

/// A glob or a list of globs.
#[derive(Debug, Default)]
pub(super) struct Globs(pub(super) Vec<String>);

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct GlobsVisitor;
        impl<'de> Visitor<'de> for GlobsVisitor {
            type Value = Globs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a glob or a list of globs, e.g. \"blog/**\" or [\"a/**\", \"b/*.html\"]",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Globs, E> {
                Ok(Globs(vec![v.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Globs, A::Error> {
                let mut globs = Vec::new();
                while let Some(glob) = seq.next_element::<String>()? {
                    globs.push(glob);
                }
                Ok(Globs(globs))
            }
        }
        deserializer.deserialize_any(GlobsVisitor)
    }
}

/// Turns a byte span into `file:line:column` (both 1-based; columns count characters).
fn locate(origin: &str, text: &str, span: std::ops::Range<usize>) -> String {
    let start = span.start.min(text.len());
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    format!("{origin}:{line}:{column}")
}

impl FileConfig {
    /// Parses the text of a config file; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<FileConfig, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let message = e.message().trim().replace('\n', " ");
            let Some(span) = e.span() else {
                return ConfigError::Syntax {
                    origin: origin.to_string(),
                    message,
                };
            };
            ConfigError::Syntax {
                origin: locate(origin, text, span.clone()),
                message: explain(&message, text, span.start),
            }
        })
    }
}

/// Keys other tools use for what sitemapgen calls by another name: consulted before
/// any did-you-mean, which would match them to a key of another meaning (`site_url` is
/// close to `site_name`, `url` to `rule`).
const FOREIGN_KEYS: &[(&str, &str)] = &[
    ("site_url", "base_url"),
    ("siteurl", "base_url"),
    ("baseurl", "base_url"),
    ("base", "base_url"),
    ("hostname", "base_url"),
    ("url", "base_url"),
    ("domain", "base_url"),
    ("site", "base_url"),
    ("outdir", "public_dir"),
    ("out_dir", "public_dir"),
    ("output_dir", "public_dir"),
    ("publish", "public_dir"),
    ("publishdir", "public_dir"),
    ("publish_dir", "public_dir"),
    ("destination", "public_dir"),
    ("dist", "public_dir"),
    ("changefreq", "[defaults] changefreq"),
    ("priority", "[defaults] priority"),
];

/// serde's message at `at` in `text`, said so that it names the fix: an unknown key or
/// value with the one meant, a value of the wrong type with the right form. Other
/// messages pass unchanged.
fn explain(message: &str, text: &str, at: usize) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        return wrong_type(rest, text, at).unwrap_or_else(|| message.to_string());
    }
    let kind = if message.starts_with("unknown field `") {
        "key"
    } else if message.starts_with("unknown variant `") {
        "value"
    } else {
        return message.to_string();
    };
    // Every name is between backticks: the wrong one first, then the expected ones.
    let mut names = message.split('`').skip(1).step_by(2);
    let Some(wrong) = names.next() else {
        return message.to_string();
    };
    let expected: Vec<&str> = names.collect();
    if kind == "key" {
        return unknown_key(wrong, &expected, text, at).unwrap_or_else(|| message.to_string());
    }
    match closest(wrong, &expected) {
        Some(meant) => {
            let all = expected.iter().map(|e| format!("`{e}`"));
            let all = all.collect::<Vec<_>>().join(", ");
            format!("unknown value `{wrong}`; did you mean `{meant}`? (one of {all})")
        }
        None => message.to_string(),
    }
}

/// The message for the key `wrong` where `expected` are the keys allowed: another
/// tool's name for one of ours, a top-level key written inside a table, or a near miss.
fn unknown_key(wrong: &str, expected: &[&str], text: &str, at: usize) -> Option<String> {
    let top_level = top_level_keys();
    let inside = table_at(text, at);
    let move_up = || match first_table(text) {
        Some((line, header)) => format!("move it above the first table ({header}, line {line})"),
        None => "move it out of the table".to_string(),
    };
    let foreign = FOREIGN_KEYS
        .iter()
        .find(|(theirs, _)| theirs.eq_ignore_ascii_case(wrong));
    if let Some((_, ours)) = foreign {
        let (ours, fix) = match ours.strip_prefix("[defaults] ") {
            Some(key) => (
                format!(
                    "`{key}` of [defaults] (every page) or of a [[rule]] (the pages its match takes)"
                ),
                format!("write it as `{key}` in one of those tables"),
            ),
            None if inside.is_some() => (format!("`{ours}`, a top-level key"), move_up()),
            None => (format!("`{ours}`"), format!("rename it to {ours}")),
        };
        return Some(format!(
            "unknown key `{wrong}`: sitemapgen's is {ours}; {fix}"
        ));
    }
    // A credential where the engines' settings are: never read from a file in the
    // repository.
    let secret = ["key", "secret", "token", "credential", "password"];
    if let Some(fix) = inside.and_then(credentials_env)
        && secret
            .iter()
            .any(|s| wrong.to_ascii_lowercase().contains(s))
    {
        return Some(format!(
            "unknown key `{wrong}`: credentials are never read from sitemap.toml; remove this line and {fix}"
        ));
    }
    if let Some(table) = inside
        && !expected.contains(&"base_url")
        && top_level.iter().any(|k| k == wrong)
    {
        return Some(format!(
            "`{wrong}` is a top-level key, but here it is inside {table}; {}",
            move_up()
        ));
    }
    let meant = closest(wrong, expected)?;
    Some(format!("unknown key `{wrong}`; did you mean `{meant}`?"))
}

/// The one of `candidates` meant by `wrong`: close by [`crate::text::closest`], and
/// only a few edits away, so a key of another meaning that merely looks alike
/// (`hostname` and `hosting`) is never offered.
fn closest<'c>(wrong: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let meant = crate::text::closest(wrong, candidates.iter().copied())?;
    let edits = strsim::osa_distance(&wrong.to_ascii_lowercase(), &meant.to_ascii_lowercase());
    (edits <= (wrong.chars().count() / 4).max(1)).then_some(meant)
}

/// The keys of the file's top level, as serde's derive lists them (the list is not
/// public, so it is read from the error a key of none gives).
fn top_level_keys() -> Vec<String> {
    let Err(e) = toml::from_str::<FileConfig>("\"?\" = 0") else {
        return Vec::new();
    };
    let message = e.message().to_string();
    let names = message.split('`').skip(1).step_by(2).skip(1);
    names.map(str::to_string).collect()
}

/// The header of the table (`[source]`, `[[rule]]`) that holds byte `at` of `text`.
fn table_at(text: &str, at: usize) -> Option<&str> {
    let before = &text[..at.min(text.len())];
    before.lines().rev().find_map(header)
}

/// The first table's header and its line (1-based).
fn first_table(text: &str) -> Option<(usize, &str)> {
    let mut lines = text.lines().enumerate();
    lines.find_map(|(i, line)| Some((i + 1, header(line)?)))
}

/// `line`'s table header (`[source]`, `[[rule]]`), without a comment after it.
fn header(line: &str) -> Option<&str> {
    let line = line.trim();
    if !line.starts_with('[') {
        return None;
    }
    line.get(..=line.rfind(']')?)
}

/// The message for a value of the wrong type (`rest` is serde's `string "x", expected
/// a sequence`), with the form to write: `content = ["content"]`.
fn wrong_type(rest: &str, text: &str, at: usize) -> Option<String> {
    let (found, expected) = rest.rsplit_once(", expected ")?;
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next()?;
    let key = line.split_once('=')?.0.trim();
    let value = line[at - line_start..].split('#').next()?.trim();
    let (kind, fix) = match expected {
        "a sequence" => ("a list", format!("[{value}]")),
        "a boolean" => ("a boolean", "true (or false)".to_string()),
        // A number quoted is the string meant; for anything else, the form alone.
        "a string" if found.starts_with("integer") || found.starts_with("float") => {
            ("a string", format!("\"{value}\""))
        }
        "a string" => ("a string", "\"...\"".to_string()),
        _ => return None,
    };
    Some(format!(
        "`{key}` expected {kind}, found {found}; write {key} = {fix}"
    ))
}

/// A parsed config file with what is needed to report errors in it.
pub(super) struct Source<'a> {
    /// The file's name for messages.
    pub(super) origin: String,
    /// Its text, to turn spans into line and column.
    pub(super) text: &'a str,
}

impl Source<'_> {
    pub(super) fn at(&self, span: std::ops::Range<usize>) -> String {
        if self.text.is_empty() {
            self.origin.clone()
        } else {
            locate(&self.origin, self.text, span)
        }
    }
}

/// A bad value of `key`, at `span` of the file.
pub(super) fn bad_value(
    src: &Source,
    span: std::ops::Range<usize>,
    key: &str,
    message: String,
) -> ConfigError {
    ConfigError::Value {
        origin: src.at(span),
        key: key.to_string(),
        message,
    }
}
