//! Index files written on their own: one ([`write_index_file`], for `index`), or several
//! with the surplus of an earlier, larger set removed ([`write_indexes`], for `merge`).

use std::borrow::Borrow;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::super::read::{Root, root_in};
use super::super::xml::{MaybeGzip, write_index};
use super::super::{Child, WriteError, split_name};
use super::{Replacement, RootFile, persist};
use crate::fsutil::At;
use crate::fsutil::dir::Dir;
use crate::w3c::LastmodFormat;

/// Writes a sitemap index naming `children` (their URL and newest lastmod) to `output`,
/// atomically, as [`write_files`](super::write_files) writes its own index.
pub fn write_index_file(
    output: &Path,
    children: &[impl Borrow<Child>],
    format: LastmodFormat,
    stylesheet: Option<&str>,
) -> Result<(), WriteError> {
    let replacement = Replacement::begin(output, &RootFile::index(output))?;
    let gzip = output.extension().is_some_and(|e| e == "gz");
    let index = replacement.write_temp(output, |out| {
        write_index(MaybeGzip::new(out, gzip), children, format, stylesheet)
            .and_then(MaybeGzip::finish)
            .map(drop)
    })?;
    persist(index, output)?;
    replacement.held.dir().sync();
    Ok(())
}

/// What [`write_indexes`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indexes {
    /// The indexes, the root first.
    pub indexes: Vec<PathBuf>,
    /// Further indexes of an earlier, longer set, removed.
    pub removed: Vec<PathBuf>,
}

/// Writes one index per chunk of children, each atomically: the first at `root`, the
/// `k`th beside it as `{stem}-index-{k}{ext}` (written before the root). Then removes
/// the further indexes of an earlier set that needed more: files of that shape, past
/// this set's count, holding a sitemap index.
pub fn write_indexes(
    root: &Path,
    chunks: &[&[impl Borrow<Child>]],
    format: LastmodFormat,
    stylesheet: Option<&str>,
) -> Result<Indexes, WriteError> {
    let dir = crate::fsutil::parent_dir(root);
    let (stem, ext) = split_name(root);
    let name_of = |k: usize| format!("{stem}-index-{k}{ext}");
    let mut indexes = vec![root.to_path_buf()];
    for (k, chunk) in chunks.iter().enumerate().skip(1) {
        let path = dir.join(name_of(k + 1));
        write_index_file(&path, chunk, format, stylesheet)?;
        indexes.push(path);
    }
    write_index_file(
        root,
        chunks.first().copied().unwrap_or_default(),
        format,
        stylesheet,
    )?;
    // Each index file takes the folder's lock as it is written; the removal takes it after.
    let held = crate::fsutil::lock_dir(dir).at(dir)?;
    let surplus = |name: &str| {
        let k = name
            .strip_prefix(&format!("{stem}-index-"))
            .and_then(|k| k.strip_suffix(ext.as_str()));
        k.and_then(|k| k.parse::<usize>().ok())
            .is_some_and(|k| k > chunks.len())
    };
    let holds_index = |dir: &Dir, name: &OsStr| root_in(dir, name) == Some(Root::Index);
    let removed = held.dir().remove_ours(surplus, holds_index).at(dir)?;
    let removed = removed.into_iter().map(|n| dir.join(n)).collect();
    Ok(Indexes { indexes, removed })
}
