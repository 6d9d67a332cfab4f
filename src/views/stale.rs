//! Removing what an earlier run wrote that no page needs now: Markdown twins of pages
//! that are gone, and the `llms.txt` of a section that is gone or moved. Found by walking
//! the site (links not followed, hidden folders passed over, as the page walk does) and
//! told from the site's own files by their mark alone.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::write::{ViewError, has_mark};

/// Removes each file below `public_dir` (but its own `llms.txt`) that is a twin (`*.md`) or an
/// `llms.txt` carrying our mark and is not in `keep` (paths below `public_dir`);
/// returns those removed, sorted.
pub(super) fn sweep(public_dir: &Path, keep: &HashSet<PathBuf>) -> Result<Vec<PathBuf>, ViewError> {
    let mut removed = Vec::new();
    let walk = ignore::WalkBuilder::new(public_dir)
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .build();
    for entry in walk.flatten() {
        let Some(mark) = mark_of(entry.file_name().as_encoded_bytes()) else {
            continue;
        };
        let path = entry.path();
        let rel = path.strip_prefix(public_dir).unwrap_or(path);
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        // The root llms.txt is rewritten by every run that has llms_txt.
        if !is_file || keep.contains(rel) || rel == Path::new(super::LLMS_FILE) {
            continue;
        }
        if !has_mark(path, mark).unwrap_or(false) {
            continue;
        }
        std::fs::remove_file(path).map_err(|source| ViewError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        removed.push(path.to_path_buf());
    }
    removed.sort();
    Ok(removed)
}

/// The mark a file of this name carries when it is ours.
fn mark_of(name: &[u8]) -> Option<&'static str> {
    if name == super::LLMS_FILE.as_bytes() {
        return Some(super::llms::MARK);
    }
    #[cfg(feature = "markdown")]
    if name.ends_with(b".md") {
        return Some(super::twins::MARK);
    }
    None
}
