//! Removing what an earlier run wrote that this one does not: the file of a view
//! turned off (`llms-full.txt` once `llms_full_txt` is off), Markdown twins of pages
//! that are gone or of a view turned off, and the `llms.txt` of a section that is gone
//! or moved. The page walk keeps the files of those names it meets
//! ([`crate::scan::ScanOptions`]); a merge of shards, which walks nothing, walks the
//! site here when a view below the top is on (links not followed, hidden folders passed
//! over, as the page walk does). Each is told from the site's own files by its seal
//! alone ([`super::seal`]): one edited since is the user's and stays.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::view::{ViewError, is_ours_in};
use super::{ALL, LLMS, Place, ViewSettings, may_be_view};
use crate::fsutil::dir::{Bounds, EntryKind};
use crate::fsutil::{At, Root};

/// What an earlier run may have written below the site that this one may remove.
pub(super) struct Sweep<'a> {
    /// The views this run writes.
    pub settings: &'a ViewSettings,
    /// The files below the top this run wrote (twins, sections' `llms.txt`), relative
    /// to the site.
    pub keep: &'a HashSet<PathBuf>,
    /// The files the page walk kept that a view may have written, relative to the site;
    /// `None` where nothing walked it (a merge).
    pub found: Option<&'a [PathBuf]>,
}

/// Removes each file of ours (by its seal) that a view may have written and this run
/// did not: at the top, the files of the views that are off; below it, those not in
/// `keep`. Returns those removed, sorted.
pub(super) fn sweep(
    site: &Root,
    public_dir: &Path,
    sweep: &Sweep,
) -> Result<Vec<PathBuf>, ViewError> {
    let off_at_top = ALL
        .iter()
        .filter(|v| v.place == Place::Top && !v.is_on(sweep.settings))
        .map(|v| PathBuf::from(v.name));
    // The views below the top add to llms.txt: with none on now and no llms.txt of
    // ours left by an earlier run, none of their files can be there, and the site's own
    // Markdown is not opened (a site of 20,000 pages and as many .md files took three
    // times as long).
    let llms = Path::new(LLMS.name);
    let earlier = is_ours_in(site, llms, Some(LLMS.seal)).ok().flatten() == Some(true);
    let walked;
    let below = match sweep.found {
        _ if !sweep.settings.sweeps() && !earlier => &[],
        Some(found) => found,
        None => {
            walked = walk(site);
            &walked
        }
    };
    // A view's file at the top is the top's: kept or removed above.
    let at_top =
        |rel: &Path| (ALL.iter()).any(|v| v.place == Place::Top && rel == Path::new(v.name));
    let below = below.iter().filter(|rel| {
        let name = rel.file_name().unwrap_or_default().as_encoded_bytes();
        may_be_view(name) && !sweep.keep.contains(*rel) && !at_top(rel)
    });
    let mut removed = Vec::new();
    for rel in off_at_top.chain(below.cloned()) {
        // Only where the view of that name seals its files.
        let name = rel.file_name().unwrap_or_default().as_encoded_bytes();
        let view = ALL
            .iter()
            .find(|v| v.may_be(name) || Path::new(v.name) == rel);
        if is_ours_in(site, &rel, view.map(|v| v.seal)).ok().flatten() != Some(true) {
            continue;
        }
        let path = public_dir.join(&rel);
        site.remove(&rel).at(&path)?;
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
