//! What every view is written with: the listed pages as shown, the one atomic save,
//! and the check that a file in a view's place is ours.

use std::io;
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::{Description, Page, Seal, SiteFacts, ViewSettings};
use crate::fsutil::{At, DirLock, IoError, Root};

/// A view that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// A file of the view's name is there and is not as we wrote it.
    #[error(
        "{}: not as sitemapgen wrote it (no seal of its bytes: written by hand, or edited since), so it is left alone; rename or remove it, or set {key} = false",
        crate::text::path(path)
    )]
    Foreign {
        /// The file.
        path: PathBuf,
        /// The key that asks for the view.
        key: &'static str,
    },
    /// Reading or writing a view failed.
    #[error("cannot write {0}")]
    Io(#[from] IoError),
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

/// Refuses when `rel` below the site is there but is not a regular file our seal
/// proves ours ([`super::seal`]): a file of the site's own, or one of ours edited since,
/// which `key` would have written over.
pub(super) fn check_ours(
    site: &Root,
    public_dir: &Path,
    rel: &Path,
    key: &'static str,
) -> Result<(), ViewError> {
    let path = public_dir.join(rel);
    match is_ours(site, rel).at(&path)? {
        None | Some(true) => Ok(()),
        Some(false) => Err(ViewError::Foreign { path, key }),
    }
}

/// Whether the regular file at `rel` below the site is ours, as its seal proves it;
/// `None` when nothing is there.
pub(super) fn is_ours(site: &Root, rel: &Path) -> io::Result<Option<bool>> {
    is_ours_in(site, rel, None)
}

/// [`is_ours`], the seal looked for only where `place` says, when given.
pub(super) fn is_ours_in(site: &Root, rel: &Path, place: Option<Seal>) -> io::Result<Option<bool>> {
    site.open(rel)?
        .map(|file| super::seal::proves_in(&file, place))
        .transpose()
}

/// The listed pages and how they are shown, for writing each view.
pub(super) struct View<'a> {
    pub settings: &'a ViewSettings,
    pub facts: &'a SiteFacts,
    pub pages: &'a [Page<'a>],
    pub groups: &'a [Group],
    pub public_dir: &'a Path,
    pub held: &'a DirLock,
}

impl View<'_> {
    /// Writes `view`'s file at `rel` below the site all or nothing from what `fill`
    /// writes, streamed, with its seal at the end.
    pub(super) fn save(
        &self,
        view: &Description,
        rel: &Path,
        fill: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    ) -> Result<PathBuf, ViewError> {
        debug_assert_eq!(view.seal, Seal::End, "only a view sealed last streams");
        let path = self.public_dir.join(rel);
        let streamed = self.held.write_streamed(rel, |out| {
            let mut sealing = super::seal::Sealing::new(out);
            fill(&mut sealing)?;
            sealing.end()
        });
        streamed.at(&path)?;
        Ok(path)
    }

    /// Writes `view`'s file at `rel` below the site all or nothing: `text`, whose header
    /// ends at byte `header`, sealed where `view` is (left alone when it would not
    /// change).
    pub(super) fn save_whole(
        &self,
        view: &Description,
        rel: &Path,
        mut text: Vec<u8>,
        header: usize,
    ) -> Result<PathBuf, ViewError> {
        super::seal::insert(&mut text, view.seal, header);
        let path = self.public_dir.join(rel);
        self.held.write(rel, &text).at(&path)?;
        Ok(path)
    }
}
