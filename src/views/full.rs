//! `llms-full.txt`: the main content of each page `llms.txt` lists, in its order, as
//! Markdown: `# Title`, `Source: URL`, then the content. Pages are read one at a time,
//! each at most [`markdown::PAGE_LIMIT`] bytes, and streamed out, so memory stays that
//! of one page however large the site.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::llms::{MARK, header, text, url};
use super::{Page, SiteFacts, markdown};
use crate::fsutil::dir::{Dir, is_refused_link};
use crate::fsutil::{self, Place};

/// Writes the full text into `out`; returns how many pages it holds and those passed
/// over (unreadable, too large, or no longer inside the site), with why.
pub(super) fn render(
    out: &mut dyn Write,
    site: &SiteFacts,
    pages: &[Page],
    groups: &[Group],
    chosen: &[bool],
    public_dir: &Path,
) -> io::Result<(usize, Vec<(PathBuf, String)>)> {
    header(out, site)?;
    writeln!(
        out,
        "The main content of the pages listed in llms.txt, as Markdown. {MARK} (sitemapgen)."
    )?;
    let real_root = std::fs::canonicalize(public_dir)?;
    let root = Dir::open_root(&real_root)?;
    let converter = markdown::Converter::new();
    let mut written = 0;
    let mut passed = Vec::new();
    for group in groups {
        for &i in group.pages.iter().filter(|&&i| chosen[i]) {
            let page = &pages[i];
            let Some(rel) = page.path else {
                continue;
            };
            let path = public_dir.join(rel);
            let body = read(&root, &real_root, &path)
                .and_then(|html| converter.page(&html).map_err(|why| why.to_string()));
            match body {
                Ok(body) => {
                    let full = format!("{}{}", site.base_url, page.rest);
                    let title = text(page.title().unwrap_or(&full));
                    writeln!(out, "\n---\n\n# {title}\n\nSource: {}", url(&full))?;
                    if !body.is_empty() {
                        writeln!(out, "\n{body}")?;
                    }
                    written += 1;
                }
                Err(why) => passed.push((path, why)),
            }
        }
    }
    Ok((written, passed))
}

/// The page at `path`, which must still be a regular file inside the site, read to at
/// most [`markdown::PAGE_LIMIT`] bytes; `Err` says why it is passed over. Opened as the
/// walk opens a page a followed link leads to: from the site's root along the real path
/// it was checked to have, one name at a time through no link, so a page swapped for a
/// link after the check is refused rather than followed out of the site.
fn read(root: &Dir, real_root: &Path, path: &Path) -> Result<Vec<u8>, String> {
    read_checked(root, &checked(real_root, path)?)
}

/// Where the page at `path` really is, relative to the site's real root `real_root`;
/// `Err` when it is not inside.
fn checked(real_root: &Path, path: &Path) -> Result<PathBuf, String> {
    match fsutil::place_in(real_root, path) {
        Ok(Place::Inside(real)) => Ok(real.strip_prefix(real_root).unwrap_or(&real).into()),
        Ok(Place::Outside(real)) => Err(format!("leads outside the site, to {}", real.display())),
        Err(e) => Err(e.to_string()),
    }
}

/// The page at `rel` below `root`, opened one name at a time through no link.
fn read_checked(root: &Dir, rel: &Path) -> Result<Vec<u8>, String> {
    let file = match root.open_file_below(rel) {
        Ok(file) => file,
        Err(e) if is_refused_link(&e) => return Err("became a symbolic link".to_string()),
        Err(e) => return Err(e.to_string()),
    };
    let kind = file.metadata().map_err(|e| e.to_string())?.file_type();
    if !kind.is_file() {
        return Err(format!(
            "is {}, not a regular file",
            fsutil::kind_name(&kind)
        ));
    }
    match markdown::read_page(file) {
        Ok(Some(html)) => Ok(html),
        Ok(None) => Err(format!(
            "is larger than {}",
            crate::text::bytes(markdown::PAGE_LIMIT)
        )),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    /// A page, or a directory above it, swapped for a link out of the site after it was
    /// checked is refused when it is opened, not followed.
    #[test]
    fn what_is_swapped_after_the_check_is_not_followed() {
        let temp = tempfile::tempdir().unwrap();
        let site = temp.path().join("site");
        std::fs::create_dir_all(site.join("d")).unwrap();
        std::fs::create_dir_all(temp.path().join("out")).unwrap();
        std::fs::write(temp.path().join("out/a.html"), "outside").unwrap();
        let real_root = std::fs::canonicalize(&site).unwrap();
        let root = Dir::open_root(&real_root).unwrap();
        for rel in ["a.html", "d/a.html"] {
            std::fs::write(site.join(rel), "inside").unwrap();
            let checked = checked(&real_root, &site.join(rel)).unwrap();
            assert_eq!(read_checked(&root, &checked).unwrap(), b"inside");
            // The swap, between the check and the open.
            let (swapped, to) = match rel {
                "a.html" => (site.join(rel), temp.path().join("out/a.html")),
                _ => (site.join("d"), temp.path().join("out")),
            };
            std::fs::rename(&swapped, temp.path().join("moved")).unwrap();
            symlink(&to, &swapped).unwrap();
            // A page: a link (`ELOOP`); a directory: not one (`ENOTDIR`).
            assert!(read_checked(&root, &checked).is_err(), "{rel}");
            std::fs::remove_file(&swapped).unwrap();
            std::fs::rename(temp.path().join("moved"), &swapped).unwrap();
        }
    }
}
