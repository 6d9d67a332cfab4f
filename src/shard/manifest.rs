//! A shard's manifest: what `build --shard` wrote, for `merge` to check and list.

use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::changes::UrlList;
use crate::sitemap::ChildFile;

/// The manifest format this version writes and reads.
pub const VERSION: u32 = 1;

/// The largest manifest read (its change list can list every URL of a first run).
const MAX_BYTES: u64 = 1 << 30;

/// An XXH3-128 checksum as a manifest records it: 32 hex digits.
pub fn checksum_hex(check: u128) -> String {
    format!("{check:032x}")
}

/// A shard's manifest; `C` is its change list (as written, or as read).
#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest<C> {
    /// The format version ([`VERSION`]).
    pub sitemapgen_shard: u32,
    /// The shard's name.
    pub name: String,
    /// The base URL the shard was built for.
    pub base_url: String,
    /// The root sitemap's file name the merge writes (`sitemap.xml`, `sitemap.xml.gz`).
    pub sitemap: String,
    /// How many URLs its children list.
    pub urls: u64,
    /// Its child sitemaps, in order.
    pub children: Vec<ManifestChild>,
    /// The side file of its URLs' sorted 64-bit hashes ([`super::url_hash`]).
    pub url_hashes: SideFile,
    /// Its change list, when the build keeps one.
    pub changes: Option<C>,
    /// What the views show of its pages, when the build writes views: the merge makes
    /// the site's views from these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<ManifestViews>,
}

/// What the views need of a shard's pages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestViews {
    /// The home page's language, when the shard has the home page.
    pub lang: Option<String>,
    /// Its sections, in the order of its pages; empty without sections.
    pub sections: Vec<ManifestSection>,
    /// Its listed pages, in its sitemaps' order.
    pub pages: Vec<ManifestPage>,
}

/// A section of a shard, as its pages are ordered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestSection {
    /// Its name; `None` for the pages in no section.
    pub name: Option<String>,
    /// How many of the pages, from where the previous section ended.
    pub urls: usize,
}

/// One listed page, as the views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestPage {
    /// Its URL.
    pub loc: String,
    /// Its title.
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Its file under the shard's directory, for `llms-full.txt`.
    pub path: Option<String>,
}

/// One child sitemap a manifest names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestChild {
    /// Its file name, beside the manifest.
    pub file: String,
    /// Its published URL.
    pub loc: String,
    /// How many URLs it lists.
    pub urls: u64,
    /// Its newest `lastmod`, which the index gives it.
    pub lastmod: Option<Timestamp>,
    /// The XXH3-128 checksum of its bytes, in hex.
    pub xxh3: String,
}

impl ManifestChild {
    /// The manifest's record of a child as written.
    pub fn of(child: &ChildFile) -> ManifestChild {
        ManifestChild {
            file: child.name.clone(),
            loc: child.loc.clone(),
            urls: child.urls as u64,
            lastmod: child.newest,
            xxh3: checksum_hex(child.check),
        }
    }
}

/// A file beside the manifest, by name and checksum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideFile {
    /// Its file name, beside the manifest.
    pub file: String,
    /// The XXH3-128 checksum of its bytes, in hex.
    pub xxh3: String,
}

/// A change list as a manifest read holds it: its lists packed ([`UrlList`]).
#[derive(Debug, Default, Deserialize)]
pub struct ReadChanges {
    /// The shard had no previous state.
    pub first_run: bool,
    /// URLs new in the shard's build.
    pub added: UrlList,
    /// URLs whose content changed.
    pub updated: UrlList,
    /// URLs the shard listed before and lists no more.
    pub removed: UrlList,
}

/// Only the version, read first: a manifest of another version may have another shape.
#[derive(Deserialize)]
struct Version {
    sitemapgen_shard: Option<u32>,
}

/// Why a manifest cannot be read, said after its path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestProblem {
    /// Unreadable: missing, not a regular file, too large.
    #[error("cannot be read ({0})")]
    Read(String),
    /// Not JSON of a manifest's shape.
    #[error(
        "is not a shard manifest ({0}); pass the sitemap-NAME.manifest.json a `build --shard` wrote"
    )]
    Shape(String),
    /// Written by another format version.
    #[error(
        "is a manifest of format version {0}, and this sitemapgen reads version {VERSION}; build the shard again with this version"
    )]
    Version(u32),
}

/// Reads the manifest at `path`: a regular file of at most 1 GiB, of this version.
pub fn read(path: &Path) -> Result<Manifest<ReadChanges>, ManifestProblem> {
    let bytes = crate::fsutil::read_regular(path, MAX_BYTES)
        .map_err(|e| ManifestProblem::Read(crate::text::one_line(&e.to_string())))?;
    let shape =
        |e: serde_json::Error| ManifestProblem::Shape(crate::text::one_line(&e.to_string()));
    match serde_json::from_slice::<Version>(&bytes).map_err(shape)? {
        Version {
            sitemapgen_shard: Some(VERSION),
        } => serde_json::from_slice(&bytes).map_err(shape),
        Version {
            sitemapgen_shard: Some(other),
        } => Err(ManifestProblem::Version(other)),
        Version {
            sitemapgen_shard: None,
        } => Err(ManifestProblem::Shape(
            "it has no sitemapgen_shard version".to_string(),
        )),
    }
}
