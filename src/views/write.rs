//! Writing the views: each all or nothing, under the site directory's lock, replacing
//! only a regular file that is ours.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::groups::{Group, groups};
use super::llms::Index;
use super::parts::OwnFile;
use super::view::{View, ViewError, Written, check_ours};
use super::{Abouts, HTML_FILE, LLMS_FILE, Page, SiteFacts, ViewSettings};
use crate::fsutil;
use crate::sections::SectionUrls;
use crate::sitemap::EntrySlice;

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
    /// The files the page walk kept that a view may have written
    /// ([`crate::Collection::view_files`]); `None` where nothing walked the site (a
    /// merge of shards), so it is walked when needed.
    pub view_files: Option<&'a [PathBuf]>,
}

/// The key that asks for the view of file name `name`.
fn key(name: &str) -> &'static str {
    match name {
        HTML_FILE => "html_sitemap",
        LLMS_FILE => "llms_txt",
        _ => "llms_full_txt",
    }
}

/// The listed pages, for [`refuse_foreign`]: the sitemap's entries, what each page says
/// of itself (in the same order), and the sections.
#[derive(Debug, Clone, Copy)]
pub struct Listed<'a> {
    /// The sitemap's entries, in its order.
    pub entries: EntrySlice<'a>,
    /// What each entry's page says of itself.
    pub about: &'a Abouts,
    /// The sections, as [`crate::Collection::sections`].
    pub sections: &'a [SectionUrls],
    /// The files the page walk kept that a view may have written: only those are
    /// where a twin could be in the way.
    #[cfg_attr(not(feature = "markdown"), allow(dead_code))]
    pub view_files: &'a [PathBuf],
}

/// Refuses, before anything is written, when a view's file is there but is not ours
/// (a hand-written `sitemap.html` or `llms.txt`), or is not a regular file; with the
/// `listed` pages, the same for each section's own `llms.txt` and each page's twin.
pub fn refuse_foreign(
    settings: &ViewSettings,
    public_dir: &Path,
    listed: Option<Listed>,
) -> Result<(), ViewError> {
    let site = fsutil::Root::at(public_dir).map_err(|source| ViewError::Io {
        path: public_dir.to_path_buf(),
        source,
    })?;
    refuse_foreign_in(settings, &site, public_dir, listed)
}

/// [`refuse_foreign`] in the site held open at `site`.
fn refuse_foreign_in(
    settings: &ViewSettings,
    site: &fsutil::Root,
    public_dir: &Path,
    listed: Option<Listed>,
) -> Result<(), ViewError> {
    for name in settings.files() {
        check_ours(site, public_dir, Path::new(name), key(name))?;
    }
    let per_section = settings.llms_txt && settings.llms_txt_per_section;
    let (Some(listed), true) = (listed, per_section || settings.llms_markdown) else {
        return Ok(());
    };
    let pages = pages(listed.entries, listed.about);
    if per_section {
        let groups = groups(&pages, listed.sections);
        let base_url = listed.entries.iter().next().map_or("", |e| e.loc().base());
        let own = super::parts::own_files(public_dir, base_url, &pages, &groups);
        for file in own.iter().flatten() {
            check_ours(site, public_dir, &file.rel, "llms_txt_per_section")?;
        }
    }
    // Every listed page's twin place, not only those llms.txt will list: a site that
    // publishes Markdown of its own where twins go is told before anything is written.
    #[cfg(feature = "markdown")]
    if settings.llms_markdown {
        let there: HashSet<&Path> = listed.view_files.iter().map(PathBuf::as_path).collect();
        for page in &pages {
            match super::twins::place(page) {
                Ok(rel) if there.contains(rel.as_path()) => {
                    check_ours(site, public_dir, &rel, "llms_markdown")?;
                }
                _ => {}
            }
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
    // (Each twin is checked again as it is written.)
    refuse_foreign_in(settings, &held, site.public_dir, None)?;
    let mut pages = pages(site.entries, site.about);
    // The site's name that the theme puts on every title, dropped from each.
    let titles = pages.iter().filter_map(|p| p.title);
    let affix = super::titles::shared_affix(titles, settings.site_name.as_deref());
    for page in &mut pages {
        page.title = page.title.map(|t| super::titles::clean(t, affix.as_ref()));
    }
    let facts = facts(site, &pages, affix.as_ref());
    let groups = groups(&pages, site.sections);
    let own = match settings.llms_txt && settings.llms_txt_per_section {
        true => super::parts::own_files(site.public_dir, site.base_url, &pages, &groups),
        false => vec![None; groups.len()],
    };
    // Under the lock, before the first view is written: a section's llms.txt put
    // there since the run began is not overwritten either.
    for file in own.iter().flatten() {
        let key = "llms_txt_per_section";
        check_ours(&held, site.public_dir, &file.rel, key)?;
    }
    let view = View {
        settings,
        facts: &facts,
        pages: &pages,
        groups: &groups,
        public_dir: site.public_dir,
        held: &held,
        view_files: site.view_files,
    };
    if settings.html_sitemap {
        let shown = super::html::Shown {
            site: view.facts,
            pages: view.pages,
            groups: view.groups,
            dates: settings.html_sitemap_dates,
        };
        written.html =
            Some(view.save(Path::new(HTML_FILE), |out| super::html::render(out, &shown))?);
    }
    if settings.llms_txt {
        llms(&view, &own, &mut written)?;
    }
    Ok(written)
}

/// `llms.txt`, the sections' own, `llms-full.txt` and the twins, as asked; then what an
/// earlier run wrote that no page needs now is removed.
fn llms(view: &View, own: &[Option<OwnFile>], written: &mut Written) -> Result<(), ViewError> {
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
    let path = view.save_whole(Path::new(LLMS_FILE), text, header)?;
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
        let path = view.save_whole(&file.rel, text, header)?;
        let count = listed(&mut std::iter::once(&view.groups[g]));
        written.llms_sections.push((path, count));
        keep.insert(file.rel.clone());
    }
    if settings.llms_markdown || settings.llms_txt_per_section {
        keep.extend(twin_places(view, &has_twin));
        written.removed = super::stale::sweep(view.held, view.public_dir, &keep, view.view_files)?;
    }
    Ok(())
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
    if !view.settings.llms_full_txt && !view.settings.llms_markdown {
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
fn pages<'a>(entries: EntrySlice<'a>, about: &'a Abouts) -> Vec<Page<'a>> {
    entries
        .iter()
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
