//! A shard's set ([`write_shard`]): its children, a side file, and its manifest in the
//! index's place; of the files beside it, only those its previous manifest named are
//! ever removed.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::super::read::{Root, root_in};
use super::super::split::Part;
use super::super::{
    ChildPrefix, ChildShape, Form, Group, Limits, WriteError, Written, child_shape,
    shard_child_shape, split_name,
};
use super::{Closed, Set, child_paths, io_at, persist, write_set};
use crate::fsutil::dir::{Dir, Temp};

/// [`write_files`](super::write_files) for a shard of a site: the children of `output`'s name (never a single
/// file, never the index), then the shard's side file, then its manifest, renamed last:
/// the one moment the shard's published set changes. Of the files beside it, only those
/// the previous manifest named and this one does not are removed, so the other shards'
/// files stay as they are.
pub fn write_shard(
    output: &Path,
    prefix: &ChildPrefix,
    groups: &[Group],
    limits: Limits,
    form: Form,
    shard: &ShardSet,
) -> Result<Written, WriteError> {
    write_set(output, prefix, groups, limits, form, Some(shard))
}

/// A shard's files beside its children: what [`write_shard`] writes after them.
pub struct ShardSet<'a> {
    /// The manifest, written last.
    pub manifest: &'a Path,
    /// The file names the previous manifest named: removed when this one does not.
    pub previous: &'a HashSet<String>,
    /// A file written beside the children before the manifest: its name and bytes.
    pub side: (&'a str, &'a [u8]),
    /// The manifest's bytes, given the children as written.
    pub render: &'a dyn Fn(&[ChildFile]) -> io::Result<Vec<u8>>,
}

/// A child sitemap as a shard wrote it, for its manifest.
#[derive(Debug, Clone)]
pub struct ChildFile {
    /// Its file name, beside the manifest.
    pub name: String,
    /// Its published URL.
    pub loc: String,
    /// How many URLs it lists.
    pub urls: usize,
    /// Its newest `lastmod`.
    pub newest: Option<Timestamp>,
    /// The XXH3-128 checksum of its bytes as written (gzipped, when it is).
    pub check: u128,
}

/// [`write_indexed`] for a shard: the children, the side file, then the manifest in the
/// index's place; then what the previous manifest named and this one does not is removed.
pub(super) fn write_sharded(
    set: &Set,
    parts: Vec<(Option<&str>, Part<Closed>)>,
    shard: &ShardSet,
) -> Result<Written, WriteError> {
    let dir = &set.replacement.dir;
    let paths = child_paths(set, &parts);
    let children: Vec<ChildFile> = (paths.iter().zip(&parts))
        .map(|(path, (_, part))| ChildFile {
            name: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            loc: set.prefix.url_of(path),
            urls: part.urls,
            newest: part.newest,
            check: part.written.check.unwrap_or_default(),
        })
        .collect();
    let manifest = (shard.render)(&children).map_err(io_at(shard.manifest))?;
    let (side_name, side_bytes) = shard.side;
    let side_path = dir.join(side_name);
    let write_temp = |bytes: &[u8], to: &Path| -> Result<Temp, WriteError> {
        let mut temp = set.replacement.temp().map_err(io_at(dir))?;
        temp.fill(|out| out.write_all(bytes)).map_err(io_at(to))?;
        Ok(temp)
    };
    let side = write_temp(side_bytes, &side_path)?;
    let manifest_temp = write_temp(&manifest, shard.manifest)?;
    for ((_, part), path) in parts.into_iter().zip(&paths) {
        persist(part.written.temp, path)?;
    }
    persist(side, &side_path)?;
    let held = set.replacement.held.dir();
    held.sync();
    persist(manifest_temp, shard.manifest)?;
    held.sync();
    let mut kept: HashSet<&str> = children.iter().map(|c| c.name.as_str()).collect();
    kept.insert(side_name);
    let removed = remove_unnamed(set, shard.previous, &kept)?;
    Ok(Written {
        path: shard.manifest.to_path_buf(),
        children: paths,
        indexed: false,
        removed,
    })
}

/// Removes the files a shard's previous manifest named and its new one does not: regular
/// files beside `output`, shaped as its children and holding a sitemap, or its side files
/// (`{stem}.….hashes`). A manifest names files only, and only these shapes are ever
/// removed, whatever it says: the shard's own (`{stem}.…`, which no other shard's name
/// starts with), and its children as format-1 shards named them without a section
/// (`{stem}-{n}-{hash}{ext}`, which no other shard's are). Their children of a
/// section (`{stem}-{section}-…`) are left: shard `blog`'s `news` has the name shard
/// `blog-news` would give its own.
fn remove_unnamed(
    set: &Set,
    previous: &HashSet<String>,
    kept: &HashSet<&str>,
) -> Result<Vec<PathBuf>, WriteError> {
    let (output, dir) = (set.output, &set.replacement.dir);
    let (stem, _) = split_name(output);
    let named = |name: &str| previous.contains(name) && !kept.contains(name);
    let proven = |folder: &Dir, name: &OsStr| {
        let name = name.to_str().unwrap_or_default();
        let side = name
            .strip_prefix(&format!("{stem}."))
            .is_some_and(|r| r.ends_with(".hashes"));
        let shaped = shard_child_shape(output, name).is_some()
            || child_shape(output, name) == Some(ChildShape::Hashed);
        side || (shaped && root_in(folder, name.as_ref()) == Some(Root::Urlset))
    };
    let removed = set.replacement.held.dir().remove_ours(named, proven);
    let removed = removed.map_err(io_at(dir))?;
    Ok(removed.into_iter().map(|n| dir.join(n)).collect())
}
