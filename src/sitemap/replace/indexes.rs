//! Index files written on their own: one ([`write_index_file`], for `index`), or several
//! with the surplus of an earlier, larger set removed ([`write_indexes`], for `merge`).

use std::fs;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::super::read::{Root, root_of};
use super::super::xml::{MaybeGzip, write_index};
use super::super::{WriteError, split_name};
use super::{Replacement, io_at, persist};
use crate::w3c::LastmodFormat;

/// Writes a sitemap index naming `children` (absolute URL, newest lastmod) to `output`,
/// atomically, as [`write_files`](super::write_files) writes its own index.
pub fn write_index_file(
    output: &Path,
    children: &[(String, Option<Timestamp>)],
    format: LastmodFormat,
    stylesheet: Option<&str>,
) -> Result<(), WriteError> {
    let replacement = Replacement::begin(output)?;
    let dir = &replacement.dir;
    let temp = replacement.temp().map_err(io_at(dir))?;
    let gzip = output.extension().is_some_and(|e| e == "gz");
    let index = write_index(MaybeGzip::new(temp, gzip), children, format, stylesheet)
        .and_then(MaybeGzip::finish)
        .map_err(io_at(dir))?;
    index.as_file().sync_all().map_err(io_at(index.path()))?;
    persist(index, output)?;
    crate::fsutil::sync_dir(dir);
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
    chunks: &[&[(String, Option<Timestamp>)]],
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
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(k) = name.to_str().and_then(|n| {
            let k = n
                .strip_prefix(&format!("{stem}-index-"))?
                .strip_suffix(ext.as_str())?;
            k.parse::<usize>().ok()
        }) else {
            continue;
        };
        let path = entry.path();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if k > chunks.len() && is_file && root_of(&path) == Some(Root::Index) {
            fs::remove_file(&path).map_err(io_at(&path))?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(Indexes { indexes, removed })
}
