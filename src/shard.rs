//! Sharded builds: a site mapped in parts (a CI matrix, Hugo's segments, several build
//! folders under one host), each part a `build --shard NAME`, joined by `merge`.
//!
//! A shard writes its children as any build does, under its own prefix
//! (`sitemap-docs.1-3f2a9c1b0d4e.xml`: its name, then a separator no shard name holds,
//! so no shard's files are named as another's), never the root index; in the index's place it
//! writes a manifest (`sitemap-docs.manifest.json`) naming them, with their counts,
//! newest `lastmod` and content hashes, the shard's change list, and a side file of its
//! URLs' sorted 64-bit hashes, by which the merge finds a URL two shards list without
//! reading their sitemaps. The manifest is renamed last, so a shard's set changes at
//! one moment, as an index's does.

mod build;
mod error;
mod input;
mod joined;
mod manifest;
mod merge;
#[cfg(test)]
mod tests;
mod verify;

use std::path::{Path, PathBuf};

pub use build::{ShardBuild, write};
pub use error::{FileProblem, MergeError};
pub use input::MergeOptions;
pub use manifest::{
    MAX_TOTAL_BYTES, Manifest, ManifestPage, ManifestSection, ManifestViews, SideFile, UrlForm,
    VERSION,
};
pub use merge::{Checked, Merged, check, write_merged};

use crate::rules::GlobError;
use crate::sections::{SectionSpec, Sections};
use crate::sitemap::{self, ChildShape, split_name};

/// The most indexes a merge writes: the most Search Console reads for one site.
pub const MAX_INDEXES: usize = 500;

/// The ending of a shard's manifest file name.
pub const MANIFEST_SUFFIX: &str = ".manifest.json";

/// Where shard `name` of `output` writes: `sitemap.xml` gives `sitemap-docs.xml`, whose
/// children are the shard's (`sitemap-docs.1-….xml`, joined by [`SEPARATOR`]). No file
/// of that name is written.
pub fn output_of(output: &Path, name: &str) -> PathBuf {
    let (stem, ext) = split_name(output);
    crate::fsutil::parent_dir(output).join(format!("{stem}-{name}{ext}"))
}

/// Shard `name`'s manifest beside `output`: `sitemap-docs.manifest.json`.
pub fn manifest_of(output: &Path, name: &str) -> PathBuf {
    let (stem, _) = split_name(output);
    crate::fsutil::parent_dir(output).join(format!("{stem}-{name}{MANIFEST_SUFFIX}"))
}

/// Shard `name`'s state file: `.sitemap-state.json` gives `.sitemap-state-docs.json`,
/// so shards sharing a project keep apart what each listed before.
pub fn state_file_of(state_file: &Path, name: &str) -> PathBuf {
    let file = state_file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let renamed = match file.rfind('.') {
        Some(dot) if dot > 0 => format!("{}-{name}{}", &file[..dot], &file[dot..]),
        _ => format!("{file}-{name}"),
    };
    state_file.with_file_name(renamed)
}

/// The 64-bit hash of a URL the merge compares: XXH3-64, a published algorithm, so every
/// version and platform gives the same.
pub fn url_hash(url: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes())
}

/// The `[[shards]]` of `sitemap.toml`: the parts of a sharded site and the pages each
/// lists, a page going to the first whose `match` takes it, else to the one with no
/// `match`.
#[derive(Debug, Default)]
pub struct Parts {
    shards: Sections,
}

impl Parts {
    /// Compiles the shards (names checked by the configuration); a spec with no globs is
    /// the shard of the pages no other takes.
    pub fn new(specs: &[SectionSpec]) -> Result<Parts, GlobError> {
        Ok(Parts {
            shards: Sections::new(specs)?,
        })
    }

    /// Whether no shard is declared.
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// The declared shards' names, in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.shards.specs().iter().map(|s| s.name.as_str())
    }

    /// The shard that lists the page at `rel` (relative to the public directory), when
    /// one does. `matched` is scratch space.
    pub fn owner(&self, rel: &Path, matched: &mut Vec<usize>) -> Option<&str> {
        let place = self.shards.of(rel, matched);
        match self.shards.name(place) {
            Some(name) => Some(name),
            None => (self.shards.specs().iter())
                .find(|s| s.globs.is_empty())
                .map(|s| s.name.as_str()),
        }
    }
}

/// What joins a shard's name to the rest of its files' names: no shard name holds it
/// (names are a-z, 0-9 and '-'), so the files a shard owns, all of whose names start
/// with `{stem}-{shard}.`, are never another shard's (`blog`'s never `blog-x`'s).
pub const SEPARATOR: char = '.';

/// The shape of `name` when it is shaped like a child of the shard whose output is
/// `output` ([`sitemap::child_name`] joined by [`SEPARATOR`]: `sitemap-blog.1-….xml`,
/// `sitemap-blog.news-1-….xml`): [`ChildShape::Hashed`] or [`ChildShape::Sectioned`].
fn child_shape(output: &Path, name: &str) -> Option<ChildShape> {
    sitemap::child_shape(output, SEPARATOR, name)
        .filter(|shape| !matches!(shape, ChildShape::Numbered(_)))
}

/// Whether `file` is named as a child of shard `name` of the root sitemap `root`
/// (`sitemap-docs.1-3f2a9c1b0d4e.xml` for `docs` of `sitemap.xml`): the children a shard
/// owns, which no other shard's name gives.
pub(crate) fn owns_child(root: &Path, name: &str, file: &str) -> bool {
    child_shape(&output_of(root, name), file).is_some()
}
