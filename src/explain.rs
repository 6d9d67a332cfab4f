//! `sitemapgen explain`: for each page asked about, by path or URL, what the build
//! decided and why. It reads the build's own collection, kept with its details
//! ([`crate::Details::Keep`]): the same decisions, made by the same code, never a copy.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::config::Config;
use crate::error::LeftOut;
use crate::generate::Collection;
use crate::lastmod::LastmodSource;
use crate::scan::SkipReason;
use crate::sitemap::EntryRef;
use crate::urls::{self, BaseUrl, NoFile, SitePath};
use crate::{slash, text};

mod source;

pub use source::{Found, SourceOf};

/// What the build made of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Explained {
    /// The path or URL as asked.
    pub asked: String,
    /// The page's file, relative to the public directory, when one was found.
    pub path: Option<PathBuf>,
    /// The robots.txt line that blocks it, when robots.txt left it out: its line and text.
    pub robots_line: Option<(usize, String)>,
    /// Its URL in the form the build lists (`trailing_slash`, `clean_urls`).
    pub url: Option<String>,
    /// What was decided.
    pub verdict: Verdict,
}

/// Whether a page is listed, and why or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Listed.
    Listed(Box<Listed>),
    /// Left out, and why (the rule, head tag, host file line, robots.txt).
    LeftOut(LeftOut),
    /// Not a page: the walk passed over the file, and why.
    Skipped(SkipReason),
    /// No page of the site: why the path or URL names none.
    NotFound(String),
    /// A folder without an index page: the pages the build met under it.
    Folder(Under),
}

/// The pages the build met under a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Under {
    /// Pages the build met there, listed or left out.
    pub pages: usize,
    /// Of them, those left out.
    pub left_out: usize,
}

/// A listed page's entry and how it was dated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Listed {
    /// The URL listed: the URL the host serves, or the file's own path its canonical
    /// names (a directory index, as Sphinx names it).
    pub loc: String,
    /// Its `<lastmod>`.
    pub lastmod: Option<Timestamp>,
    /// The source that gave it (`None`: no source in `lastmod` dated the page).
    pub dated_by: Option<LastmodSource>,
    /// The sources tried before, each with why it gave no date.
    pub tried: Vec<(LastmodSource, String)>,
    /// Its alternates, `(hreflang, href)`.
    pub alternates: Vec<(String, String)>,
    /// How many images are listed with it.
    pub images: usize,
    /// The source file that dated it, how it was found and what of it gave the date,
    /// when `"source"` dated it.
    pub source: Option<SourceOf>,
}

/// Explains each of `asked` (a path, from the current directory or the public
/// directory; an absolute URL under the base URL; or a URL path, `/about/`) from a
/// collection made with details. A folder is its index page, else the count of pages
/// under it.
pub fn explain(config: &Config, collection: &Collection, asked: &[String]) -> Vec<Explained> {
    let entries: Vec<EntryRef> = collection.entries.iter().collect();
    // Each listed URL (after the base) to its entry: a sitemap of many URLs is
    // explained in one pass.
    let by_rest: HashMap<&str, usize> = (entries.iter().enumerate())
        .map(|(i, e)| (e.loc().rest(), i))
        .collect();
    let listed = Entries {
        all: &entries,
        by_rest: &by_rest,
    };
    asked
        .iter()
        .map(|arg| {
            let explained = |path, url: Option<String>, verdict| {
                let robots_line = match (&verdict, &url) {
                    (Verdict::LeftOut(LeftOut::Robots), Some(url)) => {
                        crate::robots::blocking_line(&config.public_dir, &config.robots_agent, url)
                    }
                    _ => None,
                };
                Explained {
                    asked: arg.clone(),
                    path,
                    robots_line,
                    url,
                    verdict,
                }
            };
            let rel = match resolve(config, arg) {
                Ok(rel) => rel,
                Err(why) => return explained(None, None, Verdict::NotFound(why)),
            };
            if is_dir(&config.public_dir, &rel) {
                let url = urls::file_url(config.base_url.as_str(), &rel);
                let url = if url.ends_with('/') { url } else { url + "/" };
                return explained(Some(rel.clone()), Some(url), under(collection, &rel));
            }
            let url = urls::page_url(&config.base_url, &rel, &config.url_style);
            let verdict = verdict(config, collection, &listed, &rel, &url);
            explained(Some(rel), Some(url), verdict)
        })
        .collect()
}

/// The listed entries, and where each URL (after the base) is among them.
struct Entries<'a> {
    all: &'a [EntryRef<'a>],
    by_rest: &'a HashMap<&'a str, usize>,
}

impl Entries<'_> {
    /// The entry listing the page at `rel`: at its URL `url`, else in a form its
    /// canonical names ([`urls::own_forms`]).
    fn find(&self, base: &BaseUrl, rel: &Path, url: &str) -> Option<EntryRef<'_>> {
        let (own, folder) = urls::own_forms(base, rel);
        let forms = [Some(url), Some(own.as_str()), folder.as_deref()];
        let after_base = base.as_str().len();
        (forms.into_iter().flatten())
            .find_map(|form| self.by_rest.get(form.get(after_base..)?))
            .map(|&i| self.all[i])
    }
}

/// What was decided for the page at `rel`, listed at `url` in the build's form.
fn verdict(
    config: &Config,
    collection: &Collection,
    listed: &Entries,
    rel: &Path,
    url: &str,
) -> Verdict {
    if let Ok(i) = collection
        .skipped
        .binary_search_by(|s| s.rel.as_path().cmp(rel))
    {
        return Verdict::Skipped(collection.skipped[i].reason.clone());
    }
    if let Ok(i) = collection
        .left_out
        .binary_search_by(|(p, _)| p.as_path().cmp(rel))
    {
        return Verdict::LeftOut(collection.left_out[i].1.clone());
    }
    let dated = collection
        .dated_by
        .binary_search_by(|(p, _)| p.as_path().cmp(rel));
    let Ok(dated) = dated else {
        return Verdict::NotFound(format!(
            "the build did not meet it (not a page of {}, or a duplicate of another page's URL)",
            text::path(&config.public_dir)
        ));
    };
    let dated_by = collection.dated_by[dated].1;
    let Some(entry) = listed.find(&config.base_url, rel, url) else {
        return Verdict::NotFound("listed under no URL the build made for it".to_string());
    };
    let miss = (collection
        .undated
        .binary_search_by(|(p, _, _)| p.as_path().cmp(rel))
        .ok())
    .map(|i| &collection.undated[i]);
    let tried = (config.lastmod.iter())
        .take_while(|&&source| Some(source) != dated_by)
        .map(|&source| {
            let why = match (source, miss) {
                (LastmodSource::Source, Some((_, miss, _))) => miss.to_string(),
                _ => "no date".to_string(),
            };
            (source, why)
        })
        .collect();
    Verdict::Listed(Box::new(Listed {
        loc: format!("{}{}", entry.loc().base(), entry.loc().rest()),
        lastmod: entry.lastmod(),
        dated_by,
        tried,
        alternates: (entry.alternates())
            .map(|(lang, href)| (lang.to_string(), href.to_string()))
            .collect(),
        images: entry.images().count(),
        source: (dated_by == Some(LastmodSource::Source))
            .then(|| source::source_of(config, collection, rel))
            .flatten(),
    }))
}

/// The pages the build met under the folder `dir`.
fn under(collection: &Collection, dir: &Path) -> Verdict {
    let count =
        |paths: &mut dyn Iterator<Item = &PathBuf>| paths.filter(|p| p.starts_with(dir)).count();
    let left_out = count(&mut collection.left_out.iter().map(|(p, _)| p));
    let met = count(&mut collection.dated_by.iter().map(|(p, _)| p));
    Verdict::Folder(Under {
        pages: met + left_out,
        left_out,
    })
}

/// The page file `arg` names, relative to the public directory: a path (from the
/// current directory, else from the public directory), a URL under the base URL or a
/// URL path from the host's root (`/about/`), mapped to the file a static host serves
/// there. A folder is its index page, else itself.
fn resolve(config: &Config, arg: &str) -> Result<PathBuf, String> {
    let public_dir = &config.public_dir;
    if arg.contains("://") {
        return resolve_url(config, arg);
    }
    let given = Path::new(arg);
    let rel = match std::fs::symlink_metadata(given) {
        Ok(_) => in_site(public_dir, given),
        Err(_) => Ok(given
            .strip_prefix(public_dir)
            .unwrap_or(given)
            .to_path_buf()),
    };
    match rel {
        Ok(rel) if rel.is_relative() && is_file(public_dir, &rel) => Ok(rel),
        Ok(rel) if rel.is_relative() && is_dir(public_dir, &rel) => Ok(folder(public_dir, rel)),
        // Not a path of the site: a path as links and browsers show it (`/about/`).
        _ if arg.starts_with('/') => {
            let url = (config.base_url.url().join(arg)).map_err(|e| format!("{arg}: {e}"))?;
            resolve_url(config, url.as_str()).map_err(|why| match rel {
                Err(not_in_site) => format!("{not_in_site}, nor a URL path: {why}"),
                Ok(_) => why,
            })
        }
        Err(why) => Err(why),
        Ok(_) => Err(format!(
            "no such file, here or in {}",
            text::path(public_dir)
        )),
    }
}

/// The path of `given`, which exists, relative to the public directory.
fn in_site(public_dir: &Path, given: &Path) -> Result<PathBuf, String> {
    let (Ok(real), Ok(root)) = (
        std::fs::canonicalize(given),
        std::fs::canonicalize(public_dir),
    ) else {
        return Err(format!("cannot resolve {}", text::path(given)));
    };
    match real.strip_prefix(&root) {
        Ok(rel) => Ok(rel.to_path_buf()),
        Err(_) => Err(format!(
            "not in the site's folder {}",
            text::path(public_dir)
        )),
    }
}

/// The folder `dir`'s index page, else the folder itself.
fn folder(public_dir: &Path, dir: PathBuf) -> PathBuf {
    (urls::DIRECTORY_INDEXES.iter())
        .map(|index| dir.join(index))
        .find(|index| is_file(public_dir, index))
        .unwrap_or(dir)
}

/// The file a static host serves at `url`: the first of [`SitePath::files`] that exists;
/// else the folder it names, when there is one (without an index page).
fn resolve_url(config: &Config, url: &str) -> Result<PathBuf, String> {
    let base = &config.base_url;
    let site = match SitePath::of_url(base, url) {
        Ok(site) => site,
        Err(NoFile::Outside) => return Err(format!("not under the base URL {}", base.as_str())),
        Err(NoFile::DotDot) => return Err("a URL with '..' names no file".to_string()),
        Err(NoFile::BadName) => return Err(format!("no file of the site is served at {url}")),
    };
    let dir = slash::path(&site.names().collect::<Vec<_>>().join(&b'/')).into_owned();
    (site.files().iter().map(|file| slash::path(file)))
        .find(|rel| is_file(&config.public_dir, rel))
        .map(Cow::into_owned)
        .or_else(|| is_dir(&config.public_dir, &dir).then_some(dir))
        .ok_or_else(|| format!("no file of the site is served at {url}"))
}

/// Whether `rel` below `root` is a file (not through a link at its end).
fn is_file(root: &Path, rel: &Path) -> bool {
    std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.is_file())
}

/// Whether `rel` below `root` is a folder (not through a link at its end).
fn is_dir(root: &Path, rel: &Path) -> bool {
    std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests;
