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

mod error;
mod input;
mod joined;
mod manifest;
mod merge;
#[cfg(test)]
mod tests;
mod verify;

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

pub use error::{FileProblem, MergeError};
pub use input::MergeOptions;
pub use manifest::{
    MAX_TOTAL_BYTES, Manifest, ManifestChild, ManifestPage, ManifestSection, ManifestViews,
    SideFile, UrlForm, VERSION,
};
pub use merge::{Checked, Merged, check, write_merged};

use crate::changes::Changes;
use crate::rules::GlobError;
use crate::sections::{SectionSpec, SectionUrls, Sections};
use crate::sitemap::{
    self, ChildFile, ChildPrefix, Form, Group, Limits, ShardSet, WriteError, Written, split_name,
};
use crate::views::Abouts;

/// The most indexes a merge writes: the most Search Console reads for one site.
pub const MAX_INDEXES: usize = 500;

/// The ending of a shard's manifest file name.
pub const MANIFEST_SUFFIX: &str = ".manifest.json";

/// The ending of a shard's side file of URL hashes.
const SIDE_SUFFIX: &str = ".hashes";

/// Where shard `name` of `output` writes: `sitemap.xml` gives `sitemap-docs.xml`, whose
/// children are the shard's (`sitemap-docs.1-….xml`, [`sitemap::shard_child_name`]). No
/// file of that name is written.
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

/// What a shard build writes besides its sitemaps' entries.
pub struct ShardBuild<'a> {
    /// The shard's name.
    pub name: &'a str,
    /// The configured output (`public/sitemap.xml`): the shard writes beside it.
    pub output: &'a Path,
    /// The site's base URL, as the manifest records it.
    pub base_url: &'a str,
    /// The form of its URLs, as the manifest records it.
    pub url_form: UrlForm,
    /// Where its children are published.
    pub prefix: &'a ChildPrefix,
    /// The shard's change list, when changes are kept.
    pub changes: Option<&'a Changes>,
    /// What its pages say of themselves, in the entries' order, when views are written;
    /// recorded for the merge to make the site's views.
    pub about: Option<&'a Abouts>,
    /// Its sections, as [`crate::Collection::sections`].
    pub sections: &'a [SectionUrls],
}

/// What the views need of the shard's pages, from its entries and what they say.
fn views_of(shard: &ShardBuild, groups: &[Group]) -> Option<ManifestViews> {
    let about = shard.about?;
    let entries = groups.iter().flat_map(|g| g.entries.iter());
    let pages = (entries.enumerate())
        .map(|(i, entry)| {
            let (title, description) = if i < about.len() {
                about.get(i)
            } else {
                (None, None)
            };
            ManifestPage {
                loc: entry.loc().to_string(),
                title: title.map(str::to_string),
                description: description.map(str::to_string),
                path: about
                    .path(i)
                    .map(|p| String::from_utf8_lossy(&crate::slash::joined(p)).into_owned()),
            }
        })
        .collect();
    let sections = (shard.sections.iter())
        .map(|s| ManifestSection {
            name: s.name.clone(),
            urls: s.urls,
        })
        .collect();
    Some(ManifestViews {
        lang: about.lang().map(str::to_string),
        sections,
        pages,
    })
}

/// Writes a shard: its children ([`sitemap::write_shard`]), its side file of URL
/// hashes, and its manifest, renamed last.
pub fn write(
    shard: &ShardBuild,
    groups: &[Group],
    limits: Limits,
    form: Form,
) -> Result<Written, WriteError> {
    let output = output_of(shard.output, shard.name);
    let manifest_path = manifest_of(shard.output, shard.name);
    let mut url = String::new();
    let mut hashes: Vec<u64> = (groups.iter())
        .flat_map(|g| g.entries.iter())
        .map(|e| {
            url.clear();
            e.loc().write_into(&mut url);
            url_hash(&url)
        })
        .collect();
    hashes.sort_unstable();
    let side: Vec<u8> = hashes.iter().flat_map(|h| h.to_le_bytes()).collect();
    let side_check = manifest::checksum_hex(xxhash_rust::xxh3::xxh3_128(&side));
    let (stem, _) = split_name(&output);
    let side_name = format!("{stem}.{}{SIDE_SUFFIX}", &side_check[..12]);
    let previous = previous_files(&manifest_path);
    let views = views_of(shard, groups);
    let (_, ext) = split_name(shard.output);
    let render = |children: &[ChildFile]| -> io::Result<Vec<u8>> {
        let manifest = Manifest::<&Changes> {
            sitemapgen_shard: VERSION,
            name: shard.name.to_string(),
            base_url: shard.base_url.to_string(),
            sitemap: format!("{}{ext}", split_name(shard.output).0),
            urls: hashes.len() as u64,
            url_form: shard.url_form,
            children: children.iter().map(ManifestChild::of).collect(),
            url_hashes: SideFile {
                file: side_name.clone(),
                xxh3: side_check.clone(),
            },
            changes: shard.changes,
            views: views.clone(),
        };
        let mut bytes = serde_json::to_vec_pretty(&manifest).map_err(io::Error::other)?;
        bytes.push(b'\n');
        Ok(bytes)
    };
    let set = ShardSet {
        manifest: &manifest_path,
        previous: &previous,
        side: (&side_name, &side),
        render: &render,
    };
    sitemap::write_shard(&output, shard.prefix, groups, limits, form, &set)
}

/// The files the manifest at `path` names (children and side file), when it is one of
/// ours, of this format version or an earlier (whose files the new set replaces); none
/// when it is missing or unreadable.
fn previous_files(path: &Path) -> HashSet<String> {
    manifest::named_files(path).into_iter().collect()
}

/// Whether `file` is named as a child of shard `name` of the root sitemap `root`
/// (`sitemap-docs.1-3f2a9c1b0d4e.xml` for `docs` of `sitemap.xml`): the children a shard
/// owns, which no other shard's name gives.
pub(crate) fn owns_child(root: &Path, name: &str, file: &str) -> bool {
    sitemap::shard_child_shape(&output_of(root, name), file).is_some()
}
