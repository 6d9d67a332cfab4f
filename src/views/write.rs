//! Writing the views: each all or nothing, under the site directory's lock, replacing
//! only a regular file that is ours.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::groups::{Group, groups};
use super::{Abouts, HTML_FILE, LLMS_FILE, Page, SiteFacts, ViewSettings};
use crate::fsutil::{self, Atomic, DirLock};
use crate::sections::SectionUrls;
use crate::sitemap::EntrySlice;

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

/// What the views are made from: the listed pages as the sitemap has them.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// Which views, and how.
    pub settings: &'a ViewSettings,
    /// The site, which the views are written into.
    pub public_dir: &'a Path,
    /// The base URL every listed URL starts with.
    pub base_url: &'a str,
    /// The sitemap's entries, in its order.
    pub entries: EntrySlice<'a>,
    /// What each entry's page says of itself, in the same order.
    pub about: &'a Abouts,
    /// The sections, as [`crate::Collection::sections`].
    pub sections: &'a [SectionUrls],
    /// The sitemap's URL, which the views point to.
    pub sitemap_url: &'a str,
}

/// What [`write()`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// `sitemap.html`, with `html_sitemap = true`.
    pub html: Option<PathBuf>,
    /// `llms.txt`, with `llms_txt = true`, and how many pages it lists.
    pub llms: Option<(PathBuf, usize)>,
    /// `llms-full.txt`, with `llms_full_txt = true`.
    pub llms_full: Option<FullText>,
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

/// The marker each view carries, by file name: what tells our file from a hand-written
/// one.
fn marker(name: &str) -> &'static str {
    if name == HTML_FILE {
        super::html::MARK
    } else {
        super::llms::MARK
    }
}

/// The key that asks for the view of file name `name`.
fn key(name: &str) -> &'static str {
    match name {
        HTML_FILE => "html_sitemap",
        LLMS_FILE => "llms_txt",
        _ => "llms_full_txt",
    }
}

/// How far into a view its marker is looked for: each writes it near its top.
const MARKER_WITHIN: u64 = 8 * 1024;

/// Refuses, before anything is written, when a view's file is there but is not ours
/// (a hand-written `sitemap.html` or `llms.txt`), or is not a regular file.
pub fn refuse_foreign(settings: &ViewSettings, public_dir: &Path) -> Result<(), ViewError> {
    for name in settings.files() {
        let path = super::path_of(public_dir, name);
        let io_err = |source| ViewError::Io {
            path: path.clone(),
            source,
        };
        if fsutil::replaceable(&path).map_err(io_err)?.is_none() {
            continue;
        }
        let mut start = Vec::new();
        fsutil::open_regular(&path)
            .and_then(|f| f.take(MARKER_WITHIN).read_to_end(&mut start))
            .map_err(io_err)?;
        let mark = marker(name).as_bytes();
        if !start.windows(mark.len()).any(|w| w == mark) {
            return Err(ViewError::Foreign {
                path,
                key: key(name),
            });
        }
    }
    Ok(())
}

/// Writes the views `site.settings` asks for, under the site directory's lock.
pub fn write(site: &Site) -> Result<Written, ViewError> {
    let settings = site.settings;
    let mut written = Written::default();
    if !settings.any() {
        return Ok(written);
    }
    let lock_err = |source| ViewError::Io {
        path: site.public_dir.to_path_buf(),
        source,
    };
    let held = fsutil::lock_dir(site.public_dir).map_err(lock_err)?;
    // Under the lock: a file put there since the run began is not overwritten either.
    refuse_foreign(settings, site.public_dir)?;
    let mut pages: Vec<Page> = site
        .entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let (title, description) = site.about.get(i);
            Page {
                rest: entry.loc().rest(),
                title,
                description,
                path: site.about.path(i),
            }
        })
        .collect();
    // The site's name that the theme puts on every title, dropped from each.
    let titles = pages.iter().filter_map(|p| p.title);
    let affix = super::titles::shared_affix(titles, settings.site_name.as_deref());
    for page in &mut pages {
        page.title = page.title.map(|t| super::titles::clean(t, affix.as_ref()));
    }
    let facts = facts(site, &pages, affix.as_ref());
    let groups = groups(&pages, site.sections);
    let view = View {
        facts: &facts,
        pages: &pages,
        groups: &groups,
        public_dir: site.public_dir,
        held: &held,
    };
    if settings.html_sitemap {
        written.html = Some(view.save(HTML_FILE, |out| {
            super::html::render(out, view.facts, view.pages, view.groups)
        })?);
    }
    if settings.llms_txt {
        let chosen = super::llms::select(&pages, settings.llms_txt_max_pages);
        let listed = chosen.iter().filter(|&&c| c).count();
        let path = view.save(LLMS_FILE, |out| {
            super::llms::render(out, view.facts, view.pages, view.groups, &chosen)
        })?;
        written.llms = Some((path, listed));
        if settings.llms_full_txt {
            written.llms_full = Some(full_text(&view, &chosen)?);
        }
    }
    Ok(written)
}

/// The listed pages and how they are shown, for writing each view.
struct View<'a> {
    facts: &'a SiteFacts,
    pages: &'a [Page<'a>],
    groups: &'a [Group],
    public_dir: &'a Path,
    held: &'a DirLock,
}

impl View<'_> {
    /// Writes the view `name` all or nothing from what `fill` writes.
    fn save(
        &self,
        name: &str,
        fill: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    ) -> Result<PathBuf, ViewError> {
        let path = super::path_of(self.public_dir, name);
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

#[cfg(feature = "markdown")]
fn full_text(view: &View, chosen: &[bool]) -> Result<FullText, ViewError> {
    let mut counts = (0, Vec::new());
    let path = view.save(super::LLMS_FULL_FILE, |out| {
        counts = super::full::render(
            out,
            view.facts,
            view.pages,
            view.groups,
            chosen,
            view.public_dir,
        )?;
        Ok(())
    })?;
    Ok(FullText {
        path,
        pages: counts.0,
        passed_over: counts.1,
    })
}

/// Without the `markdown` feature the configuration refuses `llms_full_txt = true`.
#[cfg(not(feature = "markdown"))]
fn full_text(_view: &View, _chosen: &[bool]) -> Result<FullText, ViewError> {
    unreachable!("llms_full_txt is refused without the markdown feature")
}

/// What the views say of the site as a whole.
fn facts(site: &Site, pages: &[Page], affix: Option<&super::titles::Affix>) -> SiteFacts {
    let home = pages.iter().find(|p| p.rest.is_empty());
    let parsed = url::Url::parse(site.base_url).ok();
    let host = parsed
        .as_ref()
        .and_then(|u| u.host_str())
        .unwrap_or(site.base_url);
    let base_path = parsed.as_ref().map_or("/", |u| u.path()).to_string();
    let name = site
        .settings
        .site_name
        .clone()
        .or_else(|| affix.map(|a| a.phrase().to_string()))
        .or_else(|| home.and_then(|h| h.title).map(str::to_string))
        .unwrap_or_else(|| host.to_string());
    SiteFacts {
        name,
        description: home.and_then(|h| h.description).map(str::to_string),
        lang: site.about.lang().map(str::to_string),
        base_path,
        base_url: site.base_url.to_string(),
        sitemap_url: site.sitemap_url.to_string(),
    }
}
