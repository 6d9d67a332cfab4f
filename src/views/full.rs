//! `llms-full.txt` and the Markdown twins: the main content of each page `llms.txt`
//! lists, converted once, in its order. `llms-full.txt` holds them all (`# Title`,
//! `Source: URL`, then the content, each after a `---`); a twin holds one, the same
//! bytes under a line naming the page. Each is sealed as ours ([`super::seal`]). Pages are read one at a time, each at most
//! [`markdown::PAGE_LIMIT`] bytes, and streamed out, so memory stays that of one page
//! however large the site.

use std::io;
use std::path::{Path, PathBuf};

use super::llms::header;
use super::twins::Twins;
use super::view::{FullText, View, ViewError, Written};
use super::{LLMS_FULL, Page, TWINS, markdown};
use crate::fsutil::{self, At};

/// Converts the pages `chosen` for `llms.txt`, writing `llms-full.txt` and the twins as
/// `view.settings` asks; fills in `written`'s parts and says which pages have a twin.
pub(super) fn write(
    view: &View,
    chosen: &[bool],
    written: &mut Written,
) -> Result<Vec<bool>, ViewError> {
    let settings = view.settings;
    let mut twins = TWINS.is_on(settings).then(|| Twins::new(view));
    let mut twin = |i: usize, page: &Page, body: &str| match twins.as_mut() {
        Some(twins) => twins.write(i, page, body),
        None => Ok(()),
    };
    if LLMS_FULL.is_on(settings) {
        let mut pages = 0;
        let mut passed_over = Vec::new();
        let path = view.save(&LLMS_FULL, Path::new(LLMS_FULL.name), |out| {
            header(out, view.facts)?;
            // What it holds, and where it comes from.
            let what = "The main content of the pages listed in llms.txt, as Markdown.";
            writeln!(out, "{what} {}.", LLMS_FULL.mark)?;
            passed_over = convert_each(view, chosen, &mut |i, page, body| {
                out.write_all(b"\n---\n\n")?;
                super::llms::entry(out, view.facts, page, body)?;
                pages += 1;
                twin(i, page, body)
            })?;
            Ok(())
        });
        // A twin that failed stopped the full text; its error says why.
        if let Some(e) = twins.as_mut().and_then(Twins::failed) {
            return Err(e);
        }
        written.llms_full = Some(FullText {
            path: path?,
            pages,
            passed_over,
        });
    } else if TWINS.is_on(settings) {
        let converted = convert_each(view, chosen, &mut twin);
        if let Some(e) = twins.as_mut().and_then(Twins::failed) {
            return Err(e);
        }
        converted.at(view.public_dir)?;
    }
    Ok(match twins {
        Some(twins) => {
            let (has, done) = twins.finish();
            written.twins = Some(done);
            has
        }
        None => Vec::new(),
    })
}

/// Hands each page `chosen` (its place, itself, its Markdown) to `each`, group by group;
/// returns those passed over (unreadable, too large, no longer inside the site), with
/// why.
fn convert_each(
    view: &View,
    chosen: &[bool],
    each: &mut dyn FnMut(usize, &Page, &str) -> io::Result<()>,
) -> io::Result<Vec<(PathBuf, String)>> {
    let converter = markdown::Converter::new();
    let mut passed = Vec::new();
    for group in view.groups {
        for &i in group.pages.iter().filter(|&&i| chosen[i]) {
            let page = &view.pages[i];
            let Some(rel) = page.path else {
                continue;
            };
            let path = view.public_dir.join(rel);
            let body = read(view.held, rel)
                .and_then(|html| converter.page(&html).map_err(|why| why.to_string()));
            match body {
                Ok(body) => each(i, page, &body)?,
                Err(why) => passed.push((path, why)),
            }
        }
    }
    Ok(passed)
}

/// The page at `rel`, which must still be a regular file inside the site, read to at
/// most [`markdown::PAGE_LIMIT`] bytes; `Err` says why it is passed over. Opened as the
/// walk opens a page a followed link leads to ([`fsutil::Root::open`]), so a page
/// swapped for a link after the check is refused rather than followed out of the site.
fn read(site: &fsutil::Root, rel: &Path) -> Result<Vec<u8>, String> {
    let file = site.open(rel).map_err(|e| e.to_string())?;
    let file = file.ok_or("is no longer there")?;
    match markdown::read_page(file) {
        Ok(Some(html)) => Ok(html),
        Ok(None) => Err(format!(
            "is larger than {}",
            crate::text::bytes(markdown::PAGE_LIMIT)
        )),
        Err(e) => Err(e.to_string()),
    }
}
