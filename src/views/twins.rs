//! Markdown twins (`llms_markdown = true`): each page `llms.txt` lists, as Markdown, at
//! its URL with `.md` appended (`index.html.md` for a URL ending in `/`), as the
//! llmstxt.org proposal asks, so an agent reads a page's text by adding `.md` to its
//! URL. Made by the converter `llms-full.txt` uses, the same bytes as the page's part
//! there, under a first line naming the page and sealed as ours ([`super::seal`]): a
//! file at a twin's place without our seal stops the run, and twins no page has any
//! more are found by it and removed ([`super::stale`]).

use std::io;
use std::path::{Path, PathBuf};

use super::view::{TwinsWritten, View, ViewError};
use super::{Page, SiteFacts, TWINS};
use crate::fsutil::{self, At};

/// The prefix of a twin's temporary file, beside it.
const TEMP_PREFIX: &str = ".sitemapgen-twin.";

/// Where the twin of `page` goes, relative to the public directory: its URL's path,
/// decoded, with `.md` appended (`index.html.md` after a `/`), when that is in the folder
/// of the page's file (so no folder is ever made); else why not.
pub(super) fn place(page: &Page) -> Result<PathBuf, &'static str> {
    let file = page.path.ok_or("it has no file")?;
    if page.rest.contains(['?', '#']) {
        return Err("its URL has a query or fragment");
    }
    let (dir, name) = page.rest.rsplit_once('/').unwrap_or(("", page.rest));
    let decode = |s| percent_encoding::percent_decode_str(s).decode_utf8().ok();
    let (Some(dir), Some(name)) = (decode(dir), decode(name)) else {
        return Err("its URL's path is not UTF-8");
    };
    let name = match name.is_empty() {
        true => format!("index.html{}", TWINS.name),
        false => format!("{name}{}", TWINS.name),
    };
    let parent = file.parent().unwrap_or(Path::new(""));
    let fits = Path::new(&*dir) == parent
        && !name.contains(['/', '\\'])
        && name != format!("..{}", TWINS.name);
    if !fits {
        return Err("its URL's .md would be outside its file's folder");
    }
    Ok(parent.join(name))
}

/// The twins of one run, as they are written.
pub(super) struct Twins<'a> {
    public_dir: &'a Path,
    facts: &'a SiteFacts,
    held: &'a fsutil::DirLock,
    /// The folder of the last twin written, held open, by its path below the site.
    folder: Option<(PathBuf, std::sync::Arc<fsutil::dir::Dir>)>,
    written: usize,
    /// For each page, whether it has a twin.
    has: Vec<bool>,
    passed_over: Vec<(PathBuf, String)>,
    failed: Option<ViewError>,
}

impl<'a> Twins<'a> {
    pub(super) fn new(view: &View<'a>) -> Twins<'a> {
        Twins {
            public_dir: view.public_dir,
            facts: view.facts,
            held: view.held,
            folder: None,
            written: 0,
            has: vec![false; view.pages.len()],
            passed_over: Vec::new(),
            failed: None,
        }
    }

    /// Writes the twin of page `i`, whose Markdown is `body`. An error is kept (see
    /// [`Twins::failed`]) and stops the conversion.
    pub(super) fn write(&mut self, i: usize, page: &Page, body: &str) -> io::Result<()> {
        let rel = match place(page) {
            Ok(rel) => rel,
            Err(why) => {
                let path = self.public_dir.join(page.path.unwrap_or(Path::new("")));
                self.passed_over.push((path, why.to_string()));
                return Ok(());
            }
        };
        let result = self.save(&rel, page, body);
        if let Err(e) = result {
            self.failed = Some(e);
            return Err(io::Error::other("a Markdown twin could not be written"));
        }
        self.written += 1;
        self.has[i] = true;
        Ok(())
    }

    /// Writes one twin all or nothing at `rel` below the site, in its folder held open
    /// ([`fsutil::Root::folder`], kept for the next twin: pages come folder by folder): a
    /// folder that leads out of the site is refused, and one swapped for a link as it is
    /// written is not followed. A file there that is not a twin of ours stops the run; a
    /// twin that would not change is left as it is, its date that of its content.
    fn save(&mut self, rel: &Path, page: &Page, body: &str) -> Result<(), ViewError> {
        let path = self.public_dir.join(rel);
        let parent = rel.parent().unwrap_or(Path::new(""));
        let name = rel.file_name().unwrap_or_default();
        if self.folder.as_ref().is_none_or(|(at, _)| at != parent) {
            let folder = self.held.folder(parent).at(&path)?;
            self.folder = Some((parent.to_path_buf(), folder));
        }
        let (_, folder) = self.folder.as_ref().expect("set above");
        if let Some(file) = folder.open_regular(name).at(&path)?
            && !super::seal::proves(&file).at(&path)?
        {
            let key = TWINS.key;
            return Err(ViewError::Foreign { path, key });
        }
        // The first line names the page it is the content of.
        let url = super::llms::url(&format!("{}{}", self.facts.base_url, page.rest));
        let mark = TWINS.mark;
        let twin = format!("<!-- {mark}: the main content of {url} as Markdown -->\n");
        let mut twin = twin.into_bytes();
        let header = twin.len();
        super::llms::entry(&mut twin, self.facts, page, body).at(&path)?;
        super::seal::insert(&mut twin, TWINS.seal, header);
        folder.write_changed(name, TEMP_PREFIX, &twin).at(&path)?;
        Ok(())
    }

    /// The error that stopped the twins, once.
    pub(super) fn failed(&mut self) -> Option<ViewError> {
        self.failed.take()
    }

    /// Which pages have a twin, and what was done.
    pub(super) fn finish(self) -> (Vec<bool>, TwinsWritten) {
        let done = TwinsWritten {
            written: self.written,
            passed_over: self.passed_over,
        };
        (self.has, done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_is_the_url_with_md_in_the_page_folder() {
        let table = [
            ("", "index.html", Ok("index.html.md")),
            ("docs/", "docs/index.html", Ok("docs/index.html.md")),
            ("docs/a.html", "docs/a.html", Ok("docs/a.html.md")),
            // Clean URLs: `docs/a` is served from `docs/a.html`.
            ("docs/a", "docs/a.html", Ok("docs/a.md")),
            ("caf%C3%A9/", "café/index.html", Ok("café/index.html.md")),
            // `about.html` served at `/about/`: no folder is made for its twin.
            (
                "about/",
                "about.html",
                Err("its URL's .md would be outside its file's folder"),
            ),
            (
                "a%2Fb",
                "a/b.html",
                Err("its URL's .md would be outside its file's folder"),
            ),
            ("a?x=1", "a.html", Err("its URL has a query or fragment")),
            ("%FF", "x.html", Err("its URL's path is not UTF-8")),
        ];
        for (rest, file, want) in table {
            let page = Page {
                path: Some(Path::new(file)),
                ..Page::bare(rest)
            };
            assert_eq!(place(&page), want.map(PathBuf::from), "{rest}");
        }
    }
}
