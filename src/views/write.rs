//! Writing the views: each all or nothing, under the site directory's lock, replacing
//! only a regular file that is ours.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::groups::{Group, groups};
use super::llms::Index;
use super::parts::OwnFile;
use super::view::{View, ViewError, Written, check_ours};
use super::{Abouts, HTML, LLMS, Page, SECTION_LLMS, SiteFacts, TWINS, ViewSettings};
use crate::fsutil::{self, At};
use crate::sections::SectionUrls;
use crate::sitemap::EntrySlice;

/// What the views are made from: the listed pages as the sitemap has them, and where
/// they go.
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
    /// The files the page walk kept that a view may have written
    /// ([`crate::Collection::view_files`]): only those are where a twin could be in the
    /// way. `None` where nothing walked the site (a merge of shards), so it is looked at
    /// when needed.
    pub view_files: Option<&'a [PathBuf]>,
}

/// Refuses, before anything is written, when a view's file at the top of the site is
/// there but is not ours (a hand-written `sitemap.html` or `llms.txt`), or is not a
/// regular file. For a merge, which knows its pages only once it reads its shards.
pub fn refuse_foreign_at_top(settings: &ViewSettings, public_dir: &Path) -> Result<(), ViewError> {
    let site = fsutil::Root::at(public_dir).at(public_dir)?;
    refuse_at_top(settings, &site, public_dir)
}

/// [`refuse_foreign_at_top`] in the site held open at `site`.
fn refuse_at_top(
    settings: &ViewSettings,
    site: &fsutil::Root,
    public_dir: &Path,
) -> Result<(), ViewError> {
    for view in settings.on().filter(|v| v.place == super::Place::Top) {
        check_ours(site, public_dir, Path::new(view.name), view.key)?;
    }
    Ok(())
}

/// [`refuse_foreign_at_top`], and the same for each section's own `llms.txt` and each
/// listed page's twin.
pub fn refuse_foreign(site: &Site) -> Result<(), ViewError> {
    let (settings, public_dir) = (site.settings, site.public_dir);
    let held = fsutil::Root::at(public_dir).at(public_dir)?;
    refuse_at_top(settings, &held, public_dir)?;
    let per_section = SECTION_LLMS.is_on(settings);
    if !per_section && !TWINS.is_on(settings) {
        return Ok(());
    }
    let pages = pages(site);
    if per_section {
        let groups = groups(&pages, site.sections);
        let own = super::parts::own_files(public_dir, site.base_url, &pages, &groups);
        for file in own.iter().flatten() {
            check_ours(&held, public_dir, &file.rel, SECTION_LLMS.key)?;
        }
    }
    // Every listed page's twin place, not only those llms.txt will list: a site that
    // publishes Markdown of its own where twins go is told before anything is written.
    #[cfg(feature = "markdown")]
    if TWINS.is_on(settings) {
        let there: Option<HashSet<&Path>> =
            (site.view_files).map(|files| files.iter().map(PathBuf::as_path).collect());
        for page in &pages {
            match super::twins::place(page) {
                Ok(rel) if there.as_ref().is_none_or(|t| t.contains(rel.as_path())) => {
                    check_ours(&held, public_dir, &rel, TWINS.key)?;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Writes the views `site.settings` asks for, under the site directory's lock; they
/// point to the sitemap at `sitemap_url`. Then what an earlier run's views wrote that
/// this run's do not (a view turned off, a page gone) is removed.
pub fn write(site: &Site, sitemap_url: &str) -> Result<Written, ViewError> {
    let mut written = Written::default();
    let held = fsutil::lock_dir(site.public_dir).at(site.public_dir)?;
    let keep = match site.settings.any() {
        true => write_on(site, &held, sitemap_url, &mut written)?,
        false => HashSet::new(),
    };
    let sweep = super::stale::Sweep {
        settings: site.settings,
        keep: &keep,
        found: site.view_files,
    };
    written.removed = super::stale::sweep(&held, site.public_dir, &sweep)?;
    Ok(written)
}

/// Writes the views that are on, in the site held at `held`; returns the files below
/// its top that they wrote (sections' `llms.txt`, twins).
fn write_on(
    site: &Site,
    held: &fsutil::DirLock,
    sitemap_url: &str,
    written: &mut Written,
) -> Result<HashSet<PathBuf>, ViewError> {
    let settings = site.settings;
    // Under the lock: a file put there since the run began is not overwritten either.
    // (Each twin is checked again as it is written.)
    refuse_at_top(settings, held, site.public_dir)?;
    let mut pages = pages(site);
    // The site's name that the theme puts on every title, dropped from each: found per
    // language where there are several ("Über | Lumen Notizen", "About | Lumen Notes").
    let site_name = settings.site_name.as_deref();
    let affix = super::titles::shared_affix(pages.iter().filter_map(|p| p.title), site_name);
    let titled =
        (pages.iter().enumerate()).filter_map(|(i, p)| Some((site.about.language(i)?, p.title?)));
    let by_language = super::titles::by_language(titled, site_name);
    for (i, page) in pages.iter_mut().enumerate() {
        let language = site.about.language(i).filter(|_| !by_language.is_empty());
        let own = language.and_then(|l| by_language.get(&super::titles::primary(l)));
        let affix = own.or(affix.as_ref());
        page.title = page.title.map(|t| super::titles::clean(t, affix));
    }
    let facts = facts(site, sitemap_url, &pages, affix.as_ref());
    let groups = groups(&pages, site.sections);
    let own = match SECTION_LLMS.is_on(settings) {
        true => super::parts::own_files(site.public_dir, site.base_url, &pages, &groups),
        false => vec![None; groups.len()],
    };
    // Under the lock, before the first view is written: a section's llms.txt put
    // there since the run began is not overwritten either.
    for file in own.iter().flatten() {
        check_ours(held, site.public_dir, &file.rel, SECTION_LLMS.key)?;
    }
    let view = View {
        settings,
        facts: &facts,
        pages: &pages,
        groups: &groups,
        public_dir: site.public_dir,
        held,
    };
    // The views that add to llms.txt are written by its writer, in the same pass.
    if HTML.is_on(settings) {
        super::html::write(&view, written)?;
    }
    match LLMS.is_on(settings) {
        true => llms(&view, &own, written),
        false => Ok(HashSet::new()),
    }
}

/// `llms.txt`, the sections' own, `llms-full.txt` and the twins, as asked; returns the
/// files below the top written.
fn llms(
    view: &View,
    own: &[Option<OwnFile>],
    written: &mut Written,
) -> Result<HashSet<PathBuf>, ViewError> {
    let settings = view.settings;
    let chosen = super::parts::choose(view.pages, view.groups, own, settings.llms_txt_max_pages);
    // The twins before the index that may link them.
    let has_twin = converted(view, &chosen, written)?;
    let twins = settings.llms_links_markdown.then_some(has_twin.as_slice());
    let urls: Vec<Option<String>> = own
        .iter()
        .map(|o| o.as_ref().map(|o| o.url.clone()))
        .collect();
    let all: Vec<usize> = (0..view.groups.len()).collect();
    let root = Index {
        section: None,
        groups: &all,
        own: &urls,
        twins,
    };
    let (text, header) = super::llms::render(view, &chosen, &root);
    let path = view.save_whole(&LLMS, Path::new(LLMS.name), text, header)?;
    let listed = |groups: &mut dyn Iterator<Item = &Group>| {
        let pages = groups.flat_map(|g| g.pages.iter());
        pages.filter(|&&i| chosen[i]).count()
    };
    let at_root = view.groups.iter().zip(own).filter(|(_, o)| o.is_none());
    written.llms = Some((path, listed(&mut at_root.map(|(g, _)| g))));
    let mut keep: HashSet<PathBuf> = HashSet::new();
    for (g, file) in own.iter().enumerate() {
        let Some(file) = file else { continue };
        let index = Index {
            section: Some(&view.groups[g].name),
            groups: &[g],
            own: &[],
            twins,
        };
        let (text, header) = super::llms::render(view, &chosen, &index);
        let path = view.save_whole(&SECTION_LLMS, &file.rel, text, header)?;
        let count = listed(&mut std::iter::once(&view.groups[g]));
        written.llms_sections.push((path, count));
        keep.insert(file.rel.clone());
    }
    keep.extend(twin_places(view, &has_twin));
    Ok(keep)
}

/// Where the pages that have a twin have it.
#[cfg(feature = "markdown")]
fn twin_places(view: &View, has_twin: &[bool]) -> Vec<PathBuf> {
    (view.pages.iter().zip(has_twin))
        .filter(|(_, has)| **has)
        .filter_map(|(page, _)| super::twins::place(page).ok())
        .collect()
}

#[cfg(not(feature = "markdown"))]
fn twin_places(_: &View, _: &[bool]) -> Vec<PathBuf> {
    Vec::new()
}

/// `llms-full.txt` and the twins, as asked; which pages have a twin.
#[cfg(feature = "markdown")]
fn converted(view: &View, chosen: &[bool], written: &mut Written) -> Result<Vec<bool>, ViewError> {
    if !view.settings.needs_paths() {
        return Ok(Vec::new());
    }
    super::full::write(view, chosen, written)
}

/// Without the `markdown` feature the configuration refuses `llms_full_txt` and
/// `llms_markdown`.
#[cfg(not(feature = "markdown"))]
fn converted(_: &View, _: &[bool], _: &mut Written) -> Result<Vec<bool>, ViewError> {
    Ok(Vec::new())
}

/// The listed pages as the views show them, titles as the pages give them.
fn pages<'a>(site: &Site<'a>) -> Vec<Page<'a>> {
    let about = site.about;
    (site.entries.iter())
        .enumerate()
        .map(|(i, entry)| {
            let (title, description) = about.get(i);
            Page {
                rest: entry.loc().rest(),
                title,
                description,
                lastmod: entry.lastmod(),
                path: about.path(i),
            }
        })
        .collect()
}

/// What the views say of the site as a whole.
fn facts(
    site: &Site,
    sitemap_url: &str,
    pages: &[Page],
    affix: Option<&super::titles::Affix>,
) -> SiteFacts {
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
        sitemap_url: sitemap_url.to_string(),
    }
}
