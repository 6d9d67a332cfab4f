//! `llms-full.txt`: the main content of each page `llms.txt` lists, in its order, as
//! Markdown: `# Title`, `Source: URL`, then the content. Pages are read one at a time,
//! each at most [`markdown::PAGE_LIMIT`] bytes, and streamed out, so memory stays that
//! of one page however large the site.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::llms::{MARK, header, text, url};
use super::{Page, SiteFacts, markdown};
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
            match read(&real_root, &path) {
                Ok(html) => {
                    let full = format!("{}{}", site.base_url, page.rest);
                    let title = text(page.title().unwrap_or(&full));
                    writeln!(out, "\n---\n\n# {title}\n\nSource: {}", url(&full))?;
                    let body = converter.page(&html);
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
/// most [`markdown::PAGE_LIMIT`] bytes; `Err` says why it is passed over.
fn read(real_root: &Path, path: &Path) -> Result<Vec<u8>, String> {
    let real = match fsutil::place_in(real_root, path) {
        Ok(Place::Inside(real)) => real,
        Ok(Place::Outside(real)) => {
            return Err(format!("leads outside the site, to {}", real.display()));
        }
        Err(e) => return Err(e.to_string()),
    };
    let file = fsutil::open_regular(&real).map_err(|e| e.to_string())?;
    match markdown::read_page(file) {
        Ok(Some(html)) if markdown::nests_too_deep(&html) => Err(format!(
            "nests elements more than {} deep",
            markdown::MAX_NESTING
        )),
        Ok(Some(html)) => Ok(html),
        Ok(None) => Err(format!(
            "is larger than {}",
            crate::text::bytes(markdown::PAGE_LIMIT)
        )),
        Err(e) => Err(e.to_string()),
    }
}
