//! `llms-full.txt`: the main content of each page `llms.txt` lists, in its order, as
//! Markdown: `# Title`, `Source: URL`, then the content. Pages are read one at a time,
//! each at most [`markdown::PAGE_LIMIT`] bytes, and streamed out, so memory stays that
//! of one page however large the site.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::llms::{MARK, header, text, url};
use super::{Page, SiteFacts, markdown};
use crate::fsutil;

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
            let body = read(public_dir, &path)
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
/// walk opens a page a followed link leads to ([`fsutil::open_in_site`]), so a page
/// swapped for a link after the check is refused rather than followed out of the site.
fn read(public_dir: &Path, path: &Path) -> Result<Vec<u8>, String> {
    let file = fsutil::open_in_site(public_dir, path).map_err(|e| e.to_string())?;
    match markdown::read_page(file) {
        Ok(Some(html)) => Ok(html),
        Ok(None) => Err(format!(
            "is larger than {}",
            crate::text::bytes(markdown::PAGE_LIMIT)
        )),
        Err(e) => Err(e.to_string()),
    }
}
