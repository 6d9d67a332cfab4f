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
        toml::from_str(text).map_err(|e| ConfigError::Syntax {
            origin: match e.span() {
                Some(span) => locate(origin, text, span),
                None => origin.to_string(),
            },
            message: suggest(&e.message().trim().replace('\n', " ")),
        })
    }
}

/// serde's "unknown field `x`, expected one of ..." (every key of the table) and
/// "unknown variant `x`, expected ..." with the one most likely meant, when one is close:
/// `unknown key `publc_dir`; did you mean `public_dir`?`. Other messages pass unchanged.
fn suggest(message: &str) -> String {
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
    match crate::text::closest(wrong, expected.iter().copied()) {
        Some(meant) if kind == "key" => format!("unknown key `{wrong}`; did you mean `{meant}`?"),
        Some(meant) => {
            let all = expected
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>();
            format!(
                "unknown value `{wrong}`; did you mean `{meant}`? (one of {})",
                all.join(", ")
            )
        }
        None => message.to_string(),
    }
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
