//! sitemapgen: writes `sitemap.xml` for a built static site.
//!
//! The pipeline, one module per stage, data flowing one way:
//! [`config`] (file + flags into one [`Config`]) → [`scan`] (walk the public directory)
//! → [`rules`] (exclude / changefreq / priority) → [`url`] (path → absolute URL) →
//! [`lastmod`] (date each page) → [`sitemap`] (XML, splitting, index, atomic writes).
//!
//! ```no_run
//! use sitemapgen::config::{Config, Overrides};
//!
//! let config = Config::load(Some("sitemap.toml".as_ref()), &Overrides::default())?;
//! let collection = sitemapgen::collect(&config, false)?;
//! let written = sitemapgen::write(&config, &collection, &mut std::io::stdout())?;
//! # Ok::<(), sitemapgen::Error>(())
//! ```
#![deny(missing_docs)]

pub mod cli;
pub mod config;
pub mod lastmod;
pub mod rules;
pub mod scan;
pub mod sitemap;
pub mod url;

use std::fmt;
use std::path::{Path, PathBuf};

pub use config::Config;
use config::{ConfigError, Output};
use lastmod::PageFacts;
use rules::ExcludedBy;
use scan::{ScanOptions, ScanWarning, Skipped};
use sitemap::{Children, Entry, Limits, WriteError, Written};

/// A failed run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad configuration or flags.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The public directory holds no pages at all.
    #[error("no pages found under {} - was the site built?", dir.display())]
    NoPages {
        /// The public directory.
        dir: PathBuf,
    },
    /// Every page was excluded, and a sitemap may not be empty.
    #[error(
        "all {excluded} pages under {} were excluded by rules; a sitemap needs at least one URL - check exclude and the [[rule]] globs",
        dir.display()
    )]
    AllExcluded {
        /// The public directory.
        dir: PathBuf,
        /// How many pages the rules excluded.
        excluded: usize,
    },
    /// Writing failed; the previous sitemap is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl Error {
    /// The process exit code: 2 for bad usage or configuration, 1 for the rest.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Config(_) | Error::Write(WriteError::NeedsIndex { .. }) => 2,
            _ => 1,
        }
    }
}

/// A problem that leaves a file out or degrades it; the run goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The walk could not read something.
    Scan(ScanWarning),
    /// A page whose URL reaches the protocol's 2,048-character limit.
    UrlTooLong {
        /// The page's path, public directory included.
        path: PathBuf,
        /// The URL's length.
        len: usize,
    },
    /// Two files that map to one URL; the first in byte order of the path is kept.
    DuplicateUrl {
        /// The URL.
        url: String,
        /// The file listed.
        kept: PathBuf,
        /// The file left out.
        dropped: PathBuf,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Scan(w) => w.fmt(f),
            Warning::UrlTooLong { path, len } => write!(
                f,
                "{}: skipped, its URL is {len} characters (the protocol allows fewer than 2,048); shorten the path",
                path.display()
            ),
            Warning::DuplicateUrl { url, kept, dropped } => write!(
                f,
                "{}: skipped, it maps to {url} like {} (check clean_urls and trailing_slash)",
                dropped.display(),
                kept.display()
            ),
        }
    }
}

/// The sitemap's entries and what was left out on the way.
#[derive(Debug, Default)]
pub struct Collection {
    /// Entries sorted by URL (byte order), each URL once.
    pub entries: Vec<Entry>,
    /// Pages the rules excluded, sorted by path (only when details were asked for).
    pub excluded: Vec<(PathBuf, ExcludedBy)>,
    /// How many pages the rules excluded.
    pub excluded_count: usize,
    /// Files the walk passed over, sorted by path (only when details were asked for).
    pub skipped: Vec<Skipped>,
    /// How many files and directories the walk passed over.
    pub skipped_count: usize,
    /// Problems met, in path order.
    pub warnings: Vec<Warning>,
}

/// Walks the site and builds the sorted, de-duplicated entries. With `details`, the
/// files skipped and excluded are listed too (for `--verbose`).
pub fn collect(config: &Config, details: bool) -> Result<Collection, Error> {
    let scanned = scan::scan(
        &config.public_dir,
        &ScanOptions {
            extensions: config.extensions.clone(),
            follow_symlinks: config.follow_symlinks,
            read_mtime: lastmod::needs_mtime(&config.lastmod),
            keep_skipped: details,
        },
    );
    let mut collection = Collection {
        skipped: scanned.skipped,
        skipped_count: scanned.skipped_count,
        warnings: scanned.warnings.into_iter().map(Warning::Scan).collect(),
        ..Collection::default()
    };

    // (path, entry): the path decides which file is kept when two share a URL.
    let mut pages: Vec<(PathBuf, Entry)> = Vec::with_capacity(scanned.pages.len());
    let mut matched = Vec::new();
    for found in scanned.pages {
        let verdict = config.rules.apply(&found.rel, &mut matched);
        if let Some(by) = verdict.excluded {
            collection.excluded_count += 1;
            if details {
                collection.excluded.push((found.rel, by));
            }
            continue;
        }
        let loc = url::page_url(&config.base_url, &found.rel, &config.url_style);
        if loc.len() >= url::MAX_URL_LEN {
            collection.warnings.push(Warning::UrlTooLong {
                path: config.public_dir.join(&found.rel),
                len: loc.len(),
            });
            continue;
        }
        let facts = PageFacts {
            modified: found.modified,
        };
        let entry = Entry {
            loc,
            lastmod: lastmod::resolve(&config.lastmod, &facts),
            changefreq: verdict.changefreq,
            priority: verdict.priority,
        };
        pages.push((found.rel, entry));
    }

    fn bytes(p: &Path) -> &[u8] {
        p.as_os_str().as_encoded_bytes()
    }
    pages.sort_unstable_by(|(pa, a), (pb, b)| {
        a.loc.cmp(&b.loc).then_with(|| bytes(pa).cmp(bytes(pb)))
    });
    let mut entries: Vec<Entry> = Vec::with_capacity(pages.len());
    let mut last_path: Option<PathBuf> = None;
    for (path, entry) in pages {
        if let (Some(prev), Some(kept)) = (entries.last(), &last_path)
            && prev.loc == entry.loc
        {
            collection.warnings.push(Warning::DuplicateUrl {
                url: entry.loc,
                kept: config.public_dir.join(kept),
                dropped: config.public_dir.join(&path),
            });
            continue;
        }
        entries.push(entry);
        last_path = Some(path);
    }

    collection.entries = entries;
    collection.skipped.sort_by(|a, b| a.rel.cmp(&b.rel));
    collection.excluded.sort_by(|a, b| a.0.cmp(&b.0));
    collection.warnings.sort_by_key(|w| w.to_string());
    if collection.entries.is_empty() {
        if collection.excluded_count > 0 {
            return Err(Error::AllExcluded {
                dir: config.public_dir.clone(),
                excluded: collection.excluded_count,
            });
        }
        return Err(Error::NoPages {
            dir: config.public_dir.clone(),
        });
    }
    Ok(collection)
}

/// The URL of the directory `output` is published in: its place under the public
/// directory, or the base URL when it is written elsewhere.
fn children_of(config: &Config, output: &Path) -> Children {
    let parent = output.parent().unwrap_or(Path::new(""));
    let real = |p: &Path| {
        std::fs::canonicalize(if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        })
        .ok()
    };
    let rel = match (real(parent), real(&config.public_dir)) {
        (Some(parent), Some(public)) => parent.strip_prefix(&public).ok().map(Path::to_path_buf),
        _ => None,
    };
    let mut loc_prefix = config.base_url.as_str().to_string();
    if let Some(rel) = rel.filter(|r| !r.as_os_str().is_empty()) {
        loc_prefix.push_str(&url::encode_path(&rel));
        loc_prefix.push('/');
    }
    Children { loc_prefix }
}

/// Writes the collection where the configuration says. Returns what was written, or
/// `None` when it went to standard output (`out`).
pub fn write(
    config: &Config,
    collection: &Collection,
    out: &mut dyn std::io::Write,
) -> Result<Option<Written>, Error> {
    let limits = Limits {
        max_urls: config.max_urls_per_file,
        max_bytes: sitemap::PROTOCOL_MAX_BYTES,
    };
    match &config.output {
        Output::Stdout => {
            sitemap::write_single(out, &collection.entries, limits, config.lastmod_format)?;
            Ok(None)
        }
        Output::File(path) => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|source| WriteError::Io {
                    path: parent.to_path_buf(),
                    source,
                })?;
            }
            let children = children_of(config, path);
            let written = sitemap::write_files(
                path,
                &children,
                &collection.entries,
                limits,
                config.lastmod_format,
            )?;
            Ok(Some(written))
        }
    }
}
