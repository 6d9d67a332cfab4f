//! `sitemapgen merge`: the shards' manifests checked and joined into the root index.
//!
//! Everything is checked before anything is written: every manifest (its version, name
//! and base URL), every child (beside its manifest, where its URL says, with the bytes
//! its hash names), and every URL against the other shards' (by the side files' sorted
//! hashes, merged as they stream, a URL read back only when two hashes meet).

use std::path::{Path, PathBuf};

use super::MAX_INDEXES;
use super::error::MergeError;
use super::input::{MergeOptions, Shard, read_shards};
use super::joined::{check_views, join_changes, save_changes, write_views};
use crate::changes::Changes;
use crate::robots::{Announced, RobotsTxt};
use crate::sitemap::{self, Child, PROTOCOL_MAX_ENTRIES};
use crate::views;

/// What a merge wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Merged {
    /// The indexes, the root sitemap first.
    pub indexes: Vec<PathBuf>,
    /// Their URLs.
    pub index_urls: Vec<String>,
    /// Indexes of an earlier merge no longer needed, removed.
    pub removed: Vec<PathBuf>,
    /// Shards joined.
    pub shards: usize,
    /// Child sitemaps listed.
    pub children: usize,
    /// URLs they list.
    pub urls: u64,
    /// What was done to robots.txt for each index, when `robots_txt` asks.
    pub robots: Vec<Announced>,
    /// The joined change list and what it lists, when any shard keeps one.
    pub changes: Option<(PathBuf, Changes)>,
    /// The views written, when any is asked for.
    pub views: Option<views::Written>,
}

/// Shards checked and ready to merge ([`check`]), nothing written yet.
pub struct Checked {
    shards: Vec<Shard>,
    changes: Option<Changes>,
}

/// Checks the shards' manifests and files: everything [`write_merged`] needs, before
/// anything is written.
pub fn check(options: &MergeOptions) -> Result<Checked, MergeError> {
    let shards = read_shards(options)?;
    if shards.iter().all(|s| s.manifest.children.is_empty()) {
        return Err(MergeError::Empty);
    }
    super::verify::check_files(&shards, options)?;
    let children: usize = shards.iter().map(|s| s.manifest.children.len()).sum();
    let indexes = children.div_ceil(PROTOCOL_MAX_ENTRIES);
    if indexes > MAX_INDEXES {
        return Err(MergeError::TooManyIndexes { children, indexes });
    }
    if options.views.any() {
        check_views(&shards, options)?;
        crate::views::refuse_foreign_at_top(options.views, options.dir)?;
    }
    let changes = join_changes(&shards);
    Ok(Checked { shards, changes })
}

/// Writes the root index of checked shards (or several, past 50,000 children),
/// announces each in robots.txt if asked, and writes the joined change list.
pub fn write_merged(options: &MergeOptions, checked: Checked) -> Result<Merged, MergeError> {
    let Checked { shards, changes } = checked;
    let root = options.dir.join(options.root);
    // The index's entries, in shard order: each child as its manifest records it.
    let listed: Vec<&Child> = shards.iter().flat_map(|s| &s.manifest.children).collect();
    let chunks: Vec<_> = listed.chunks(PROTOCOL_MAX_ENTRIES).collect();
    let written =
        sitemap::write_indexes(&root, &chunks, options.lastmod_format, options.stylesheet)?;
    let index_urls: Vec<String> = (written.indexes.iter())
        .map(|index| {
            let name = Path::new(index.file_name().unwrap_or_default());
            crate::urls::file_url(options.base_url.as_str(), name)
        })
        .collect();
    // With none on, an earlier merge's views are removed.
    let views = write_views(options, &shards, &index_urls[0])?;
    let views = (options.views.any() || !views.removed.is_empty()).then_some(views);
    let robots = announce(options, &index_urls)?;
    let changes = match changes {
        Some(changes) => Some(save_changes(options, changes)?),
        None => None,
    };
    Ok(Merged {
        indexes: written.indexes,
        index_urls,
        removed: written.removed,
        shards: shards.len(),
        children: listed.len(),
        urls: shards.iter().map(|s| s.manifest.urls).sum(),
        robots,
        changes,
        views,
    })
}

/// Announces each index in robots.txt, as `robots_txt` asks.
fn announce(options: &MergeOptions, urls: &[String]) -> Result<Vec<Announced>, MergeError> {
    if options.robots_txt == RobotsTxt::Leave {
        return Ok(Vec::new());
    }
    let host_root = options.base_url.url();
    let mut announced = Vec::with_capacity(urls.len());
    for url in urls {
        announced.push(crate::robots::announce(
            options.dir,
            url,
            host_root,
            options.robots_txt,
        )?);
    }
    Ok(announced)
}
