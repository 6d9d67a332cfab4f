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

/// How far into a view its mark is looked for: each writes it in its first lines.
const MARKER_WITHIN: u64 = 8 * 1024;

/// How a file of ours is told from the site's own: by a whole line of the exact form its
/// view writes, where it writes it, never by the words anywhere in the file (a page that
/// quotes them is the site's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    /// A Markdown twin: its first line.
    Twin,
    /// `llms.txt` (the site's or a section's): the line naming the sitemap, before the
    /// first part (`## `).
    Llms,
    /// `llms-full.txt`: the line after its header, before the first page (`---`).
    Full,
    /// `sitemap.html`: the generator's `<meta>` line, in its `<head>`.
    Html,
}

impl Mark {
    /// Whether `start`, a file's first bytes, is ours.
    fn proven_by(self, start: &[u8]) -> bool {
        let text = String::from_utf8_lossy(start);
        let mut lines = text.split('\n');
        let llms = super::llms::MARK;
        match self {
            Mark::Twin => lines.next().is_some_and(|first| {
                let url = first.strip_prefix(super::twins::MARK);
                let url = url.and_then(|l| l.strip_prefix(" the main content of "));
                let url = url.and_then(|l| l.strip_suffix(" as Markdown -->"));
                url.is_some_and(|u| !u.is_empty() && !u.contains(char::is_whitespace))
            }),
            Mark::Llms => (lines.take_while(|l| !l.starts_with("## "))).any(|l| {
                l.strip_prefix("Every page is in the sitemap: ")
                    .and_then(|l| l.strip_suffix(&format!(". {llms}.")))
                    .is_some_and(|url| !url.is_empty() && !url.contains(char::is_whitespace))
            }),
            Mark::Full => (lines.take_while(|l| *l != "---")).any(|l| l == full_line()),
            Mark::Html => (lines.take_while(|l| *l != "</head>")).any(|l| l == super::html::MARK),
        }
    }
}

/// The line that marks `llms-full.txt` as ours.
pub(super) fn full_line() -> String {
    format!(
        "The main content of the pages listed in llms.txt, as Markdown. {} (sitemapgen).",
        super::llms::MARK
    )
}

/// Refuses when `path` is there but is not a regular file `mark` proves ours: a file of
/// the site's own, which `key` would have written over.
pub(super) fn check_ours(path: &Path, mark: Mark, key: &'static str) -> Result<(), ViewError> {
    let io_err = |source| ViewError::Io {
        path: path.to_path_buf(),
        source,
    };
    if fsutil::replaceable(path).map_err(io_err)?.is_none() {
        return Ok(());
    }
    if !is_ours(path, mark).map_err(io_err)? {
        return Err(ViewError::Foreign {
            path: path.to_path_buf(),
            key,
        });
    }
    Ok(())
}

/// Whether the regular file at `path` is ours, as `mark` proves it.
pub(super) fn is_ours(path: &Path, mark: Mark) -> io::Result<bool> {
    let mut start = Vec::new();
    fsutil::open_regular(path)?
        .take(MARKER_WITHIN)
        .read_to_end(&mut start)?;
    Ok(mark.proven_by(&start))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each view's file is proven ours by its line in its exact form where the view
    /// writes it; the words quoted anywhere else prove nothing.
    #[test]
    fn marks_are_whole_lines_where_each_view_writes_them() {
        let twin = "<!-- Generated by sitemapgen from the built site: the main content of https://example.org/a/ as Markdown -->";
        let llms = "Every page is in the sitemap: https://example.org/sitemap.xml. Generated by sitemapgen from the built site.";
        let html = "<meta name=\"generator\" content=\"sitemapgen\">";
        let full = full_line();
        let table: &[(Mark, String, bool)] = &[
            (Mark::Twin, format!("{twin}\n# A\n"), true),
            (Mark::Twin, format!("# How twins look\n\n{twin}\n"), false),
            (Mark::Twin, format!(" {twin}\n"), false),
            (
                Mark::Twin,
                twin.replace("https://example.org/a/", "a b"),
                false,
            ),
            (
                Mark::Llms,
                format!("# Site\n\n> About\n\n{llms}\n\n## Docs\n"),
                true,
            ),
            (Mark::Llms, format!("# Site\n\n## Docs\n\n{llms}\n"), false),
            (
                Mark::Llms,
                "# Docs\n\nGenerated by sitemapgen from the built site, then edited.\n".into(),
                false,
            ),
            (Mark::Full, format!("# Site\n\n{full}\n\n---\n"), true),
            (Mark::Full, format!("# Site\n\n---\n\n{full}\n"), false),
            (
                Mark::Html,
                format!("<!DOCTYPE html>\n<head>\n{html}\n</head>\n"),
                true,
            ),
            (Mark::Html, format!("<head>\n</head>\n{html}\n"), false),
            (
                Mark::Html,
                format!("<head><!-- {html} -->\n</head>\n"),
                false,
            ),
        ];
        for (mark, text, ours) in table {
            assert_eq!(mark.proven_by(text.as_bytes()), *ours, "{mark:?}: {text}");
        }
    }
}
