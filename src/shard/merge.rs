//! `sitemapgen merge`: the shards' manifests checked and joined into the root index.
//!
//! Everything is checked before anything is written: every manifest (its version, name
//! and base URL), every child (beside its manifest, where its URL says, with the bytes
//! its hash names), and every URL against the other shards' (by the side files' sorted
//! hashes, merged as they stream, a URL read back only when two hashes meet).

use std::path::{Path, PathBuf};

use super::error::{FileProblem, MergeError};
use super::joined::{check_views, join_changes, save_changes, write_views};
use super::manifest::{self, Manifest, ManifestProblem, ReadChanges};
use crate::changes::Changes;
use crate::fsutil::Place;
use crate::robots::{Announced, RobotsTxt};
use crate::sitemap::{self, PROTOCOL_MAX_ENTRIES};
use crate::urls::BaseUrl;
use crate::views::{self, ViewSettings};
use crate::w3c::LastmodFormat;

/// The most indexes a merge writes: the most Search Console takes for one site.
pub const MAX_INDEXES: usize = 500;

/// What a merge is given.
#[derive(Debug, Clone)]
pub struct MergeOptions<'a> {
    /// The shards' manifests.
    pub manifests: &'a [PathBuf],
    /// The URL `dir` is published at.
    pub base_url: &'a BaseUrl,
    /// The directory the root index is written to, holding every shard's files.
    pub dir: &'a Path,
    /// How the index writes `lastmod`.
    pub lastmod_format: LastmodFormat,
    /// The `href` of the stylesheet the indexes link, when one is.
    pub stylesheet: Option<&'a str>,
    /// What to do with `dir/robots.txt`: each index is announced.
    pub robots_txt: RobotsTxt,
    /// Where the shards' change lists go, joined (for `submit`).
    pub changes_file: &'a Path,
    /// The views to make from what the manifests say of their pages.
    pub views: &'a ViewSettings,
}

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

/// One shard: its manifest, where it lies, and what it says.
pub(super) struct Shard {
    pub path: PathBuf,
    /// The manifest's directory, symbolic links resolved.
    pub dir: PathBuf,
    /// That directory under the merge's.
    pub rel: PathBuf,
    pub manifest: Manifest<ReadChanges>,
}

impl Shard {
    /// The file `name` beside the manifest, when `name` is a plain file name.
    pub fn file(&self, name: &str) -> Result<PathBuf, MergeError> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\', '\0'])
            && Path::new(name).file_name() == Some(name.as_ref());
        if !plain {
            return Err(self.problem(name, FileProblem::Name));
        }
        Ok(self.dir.join(name))
    }

    pub fn problem(&self, file: &str, problem: FileProblem) -> MergeError {
        MergeError::File {
            manifest: self.path.clone(),
            file: file.to_string(),
            problem,
        }
    }
}

/// Shards checked and ready to merge ([`check`]), nothing written yet.
pub struct Checked {
    shards: Vec<Shard>,
    listed: Vec<(String, Option<jiff::Timestamp>)>,
    changes: Option<Changes>,
}

/// Checks the shards' manifests and files: everything [`write_merged`] needs, before
/// anything is written.
pub fn check(options: &MergeOptions) -> Result<Checked, MergeError> {
    let shards = read_shards(options)?;
    if shards.iter().all(|s| s.manifest.children.is_empty()) {
        return Err(MergeError::Empty);
    }
    let listed = super::verify::check_files(&shards, options)?;
    let indexes = listed.len().div_ceil(PROTOCOL_MAX_ENTRIES);
    if indexes > MAX_INDEXES {
        return Err(MergeError::TooManyIndexes {
            children: listed.len(),
            indexes,
        });
    }
    if options.views.any() {
        check_views(&shards, options)?;
        crate::views::refuse_foreign(options.views, options.dir)?;
    }
    let changes = join_changes(&shards);
    Ok(Checked {
        shards,
        listed,
        changes,
    })
}

/// Writes the root index of checked shards (or several, past 50,000 children),
/// announces each in robots.txt if asked, and writes the joined change list.
pub fn write_merged(options: &MergeOptions, checked: Checked) -> Result<Merged, MergeError> {
    let Checked {
        shards,
        listed,
        changes,
    } = checked;
    let root = options.dir.join(&shards[0].manifest.sitemap);
    let chunks: Vec<_> = listed.chunks(PROTOCOL_MAX_ENTRIES).collect();
    let written =
        sitemap::write_indexes(&root, &chunks, options.lastmod_format, options.stylesheet)?;
    let index_urls: Vec<String> = (written.indexes.iter())
        .map(|index| {
            let name = index.file_name().unwrap_or_default().to_string_lossy();
            format!(
                "{}{}",
                options.base_url.as_str(),
                crate::urls::encode_segment(&name)
            )
        })
        .collect();
    let views = if options.views.any() {
        Some(write_views(options, &shards, &index_urls[0])?)
    } else {
        None
    };
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

/// Reads every manifest, in name order: each of this version, under the merge's
/// directory and base URL, each name once, all writing the same root sitemap's name.
fn read_shards(options: &MergeOptions) -> Result<Vec<Shard>, MergeError> {
    let real_dir = std::fs::canonicalize(options.dir).map_err(|e| MergeError::Manifest {
        path: options.dir.to_path_buf(),
        problem: ManifestProblem::Read(crate::text::one_line(&e.to_string())),
    })?;
    let mut shards = Vec::with_capacity(options.manifests.len());
    for path in options.manifests {
        let manifest = manifest::read(path).map_err(|problem| MergeError::Manifest {
            path: path.clone(),
            problem,
        })?;
        let outside = || MergeError::Outside {
            path: path.clone(),
            dir: options.dir.to_path_buf(),
        };
        let Ok(Place::Inside(real)) = crate::fsutil::place_in(&real_dir, path) else {
            return Err(outside());
        };
        let dir = crate::fsutil::parent_dir(&real).to_path_buf();
        let rel = dir
            .strip_prefix(&real_dir)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let under = BaseUrl::parse(&manifest.base_url)
            .is_ok_and(|b| b.as_str().starts_with(options.base_url.as_str()));
        if !under {
            return Err(MergeError::BaseUrl {
                path: path.clone(),
                name: manifest.name.clone(),
                shard_base: crate::text::one_line(&manifest.base_url),
                base: options.base_url.as_str().to_string(),
            });
        }
        shards.push(Shard {
            path: path.clone(),
            dir,
            rel,
            manifest,
        });
    }
    shards.sort_by(|a, b| a.manifest.name.cmp(&b.manifest.name));
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.manifest.name == b.manifest.name {
            return Err(MergeError::SameName {
                name: crate::text::one_line(&a.manifest.name),
                a: a.path.clone(),
                b: b.path.clone(),
            });
        }
    }
    if let Some(odd) = shards
        .iter()
        .find(|s| s.manifest.sitemap != shards[0].manifest.sitemap)
    {
        return Err(MergeError::Mixed {
            a: crate::text::one_line(&shards[0].manifest.name),
            a_file: crate::text::one_line(&shards[0].manifest.sitemap),
            b: crate::text::one_line(&odd.manifest.name),
            b_file: crate::text::one_line(&odd.manifest.sitemap),
        });
    }
    if let Some(first) = shards.first() {
        first.file(&first.manifest.sitemap)?;
    }
    Ok(shards)
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
