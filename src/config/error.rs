//! What can be wrong with a configuration.

use std::path::PathBuf;

use crate::fsutil::IoError;
use crate::rules::GlobError;
use crate::urls::BaseUrlError;

/// A configuration problem; the message names the file (with line and column where
/// known), the key or value, and how to fix it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The config file cannot be read.
    #[error("cannot read config file {0}")]
    Read(#[source] IoError),
    /// TOML that does not parse, or that does not fit the expected keys and types.
    #[error("{origin}: {message}")]
    Syntax {
        /// `file:line:column`.
        origin: String,
        /// What the parser said, on one line.
        message: String,
    },
    /// A key whose value is out of range or otherwise wrong.
    #[error("{origin}: {key}: {message}")]
    Value {
        /// `file:line:column`, `file`, or `command line`.
        origin: String,
        /// The key, e.g. `max_urls_per_file` or `[[rule]] #2 priority`.
        key: String,
        /// What is wrong and what to write instead.
        message: String,
    },
    /// A glob that does not compile.
    #[error("{origin}: {source}")]
    Glob {
        /// `file:line:column` or `file`.
        origin: String,
        /// The glob and the rule it belongs to.
        source: GlobError,
    },
    /// A base URL that is not usable.
    #[error("{origin}: {source}")]
    BaseUrl {
        /// `file:line:column` or `command line`.
        origin: String,
        /// What is wrong with it.
        source: BaseUrlError,
    },
    /// The public directory is missing or not a directory.
    #[error("public_dir '{}' {problem}", crate::text::path(path))]
    PublicDir {
        /// The directory as resolved.
        path: PathBuf,
        /// What is wrong, with a suggestion.
        problem: String,
    },
    /// A required setting given neither in the file nor by a flag.
    #[error("{key} is not set: {hint}")]
    Missing {
        /// The setting.
        key: &'static str,
        /// How to give it.
        hint: &'static str,
    },
    /// A required setting given by no flag, and no config file found.
    #[error(
        "{key} is not set, and no sitemap.toml was found in {}: run sitemapgen in the project's folder or pass --config FILE (or {hint})",
        shown_folders(searched)
    )]
    NoFile {
        /// The setting.
        key: &'static str,
        /// How to give it.
        hint: &'static str,
        /// The folders looked in, nearest first.
        searched: Vec<PathBuf>,
    },
}

/// `., .., ../..`: the folders a config file was looked for in.
fn shown_folders(searched: &[PathBuf]) -> String {
    let shown: Vec<String> = searched.iter().map(|p| crate::text::path(p)).collect();
    shown.join(", ")
}

/// A setting of the file that does nothing this run (`[source]` with no `"source"` in
/// `lastmod`, a key a flag overrides, `[[shards]]` in a build of no shard); the run goes
/// on, and the message says how to make it count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {key} does nothing: {why}")]
pub struct Unused {
    /// `file:line:column`, or `file`.
    pub origin: String,
    /// The key or table, e.g. `[source]` or `base_url`.
    pub key: String,
    /// Why, and what to do.
    pub why: String,
}
