//! What every view is written with: the listed pages as shown, the one atomic save,
//! and the check that a file in a view's place is ours.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::{Page, SiteFacts, ViewSettings};
use crate::fsutil::{self, Atomic, DirLock};

/// A view that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// A file of the view's name is there and was not written by us.
    #[error(
        "{}: not written by sitemapgen, so it is left alone; rename or remove it, or set {key} = false",
        crate::text::one_line(&path.display().to_string())
    )]
    Foreign {
        /// The file.
        path: PathBuf,
        /// The key that asks for the view.
        key: &'static str,
    },
    /// Reading or writing a view failed.
    #[error("cannot write {}: {source}", crate::text::one_line(&path.display().to_string()))]
    Io {
        /// The view's file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// What [`super::write()`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// `sitemap.html`, with `html_sitemap = true`.
    pub html: Option<PathBuf>,
    /// `llms.txt`, with `llms_txt = true`, and how many pages it lists.
    pub llms: Option<(PathBuf, usize)>,
    /// `llms-full.txt`, with `llms_full_txt = true`.
    pub llms_full: Option<FullText>,
    /// The sections' own `llms.txt`, with `llms_txt_per_section = true`, and how many
    /// pages each lists.
    pub llms_sections: Vec<(PathBuf, usize)>,
    /// The Markdown twins, with `llms_markdown = true`.
    pub twins: Option<TwinsWritten>,
    /// Twins and sections' `llms.txt` of an earlier run that no page needs now, removed.
    pub removed: Vec<PathBuf>,
}

/// What the Markdown twins came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TwinsWritten {
    /// How many were written.
    pub written: usize,
    /// Pages listed without a twin, with why.
    pub passed_over: Vec<(PathBuf, String)>,
}

/// What `llms-full.txt` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FullText {
    /// The file.
    pub path: PathBuf,
    /// How many pages it holds.
    pub pages: usize,
    /// The pages passed over (unreadable, too large, no longer in the site), with why.
    pub passed_over: Vec<(PathBuf, String)>,
}

/// How far into a view its marker is looked for: each writes it near its top.
const MARKER_WITHIN: u64 = 8 * 1024;

/// Refuses when `path` is there but is not a regular file carrying `mark`: a file of the
/// site's own, which `key` would have written over.
pub(super) fn check_ours(path: &Path, mark: &str, key: &'static str) -> Result<(), ViewError> {
    let io_err = |source| ViewError::Io {
        path: path.to_path_buf(),
        source,
    };
    if fsutil::replaceable(path).map_err(io_err)?.is_none() {
        return Ok(());
    }
    if !has_mark(path, mark).map_err(io_err)? {
        return Err(ViewError::Foreign {
            path: path.to_path_buf(),
            key,
        });
    }
    Ok(())
}

/// Whether the regular file at `path` holds `mark` near its top, where each view
/// writes it.
pub(super) fn has_mark(path: &Path, mark: &str) -> io::Result<bool> {
    let mut start = Vec::new();
    fsutil::open_regular(path)?
        .take(MARKER_WITHIN)
        .read_to_end(&mut start)?;
    let mark = mark.as_bytes();
    Ok(start.windows(mark.len()).any(|w| w == mark))
}

/// The listed pages and how they are shown, for writing each view.
pub(super) struct View<'a> {
    pub settings: &'a ViewSettings,
    pub facts: &'a SiteFacts,
    pub pages: &'a [Page<'a>],
    pub groups: &'a [Group],
    pub public_dir: &'a Path,
    pub held: &'a DirLock,
    pub view_files: Option<&'a [PathBuf]>,
}

impl View<'_> {
    /// Writes the view at `rel` below the site all or nothing from what `fill` writes.
    pub(super) fn save(
        &self,
        rel: &Path,
        fill: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    ) -> Result<PathBuf, ViewError> {
        let path = self.public_dir.join(rel);
        let name = rel.file_name().unwrap_or_default().to_string_lossy();
        let how = Atomic {
            prefix: &format!(".{name}."),
            clobber: true,
        };
        fsutil::write_atomic_with(&path, how, self.held, fill).map_err(|source| ViewError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }
}
