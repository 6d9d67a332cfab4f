//! Removing what an earlier run wrote that no page needs now: Markdown twins of pages
//! that are gone, and the `llms.txt` of a section that is gone or moved. The page walk
//! keeps the files of those names it meets ([`crate::scan::ScanOptions`]); a merge of
//! shards, which walks nothing, walks the site here (links not followed, hidden folders
//! passed over, as the page walk does). Each is told from the site's own files by its
//! seal alone ([`super::seal`]): one edited since is the user's and stays.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::view::{ViewError, is_ours};
use super::{ALL, Place};
use crate::fsutil::dir::{Bounds, EntryKind};
use crate::fsutil::{At, Root};

/// Removes each file below `public_dir` (but a view's at the top) that a view below the
/// top may have written (a twin, a section's `llms.txt`), carries our seal and is not
/// in `keep` (paths below `public_dir`); `found` are the candidates the page walk kept,
/// else the site is walked for them. Returns those removed, sorted.
pub(super) fn sweep(
    site: &Root,
    public_dir: &Path,
    keep: &HashSet<PathBuf>,
    found: Option<&[PathBuf]>,
) -> Result<Vec<PathBuf>, ViewError> {
    let walked;
    let found = match found {
        Some(found) => found,
        None => {
            walked = walk(site);
            &walked
        }
    };
    let mut removed = Vec::new();
    for rel in found {
        let name = rel.file_name().unwrap_or_default().as_encoded_bytes();
        if !may_be_view(name) {
            continue;
        }
        // The root llms.txt is rewritten by every run that has llms_txt.
        let at_top = ALL
            .iter()
            .any(|v| v.place == Place::Top && rel == Path::new(v.name));
        if keep.contains(rel) || at_top {
            continue;
        }
        if is_ours(site, rel).ok().flatten() != Some(true) {
            continue;
        }
        let path = public_dir.join(rel);
        site.remove(rel).at(&path)?;
        removed.push(path);
    }
    removed.sort();
    Ok(removed)
}

/// The files below the site that a view may have written, relative to it (hidden
/// folders passed over, as the page walk passes them).
fn walk(site: &Root) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let _ = site.dir().walk(Bounds::WHOLE, |rel, kind| {
        let name = rel.file_name().unwrap_or_default().as_encoded_bytes();
        let hidden = name.starts_with(b".");
        if !hidden && kind == EntryKind::File && may_be_view(name) {
            found.push(rel.to_path_buf());
        }
        !hidden
    });
    found
}

/// Whether a view may have written a file of this name below the top of the site.
fn may_be_view(name: &[u8]) -> bool {
    ALL.iter().any(|view| view.may_be(name))
}
