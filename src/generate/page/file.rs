//! The page's file: opened once (its modification time from the open file), and read for
//! what the run wants of it.

use std::io;

use super::{Opened, Outcome, Page};
use crate::error::{LeftOut, Warning};
use crate::lastmod::source::{Miss, SOURCE_LINK_MARKERS};
use crate::page::{self, PageRead, Reader};
use crate::scan::ScanWarning;

/// Opens the page and reads its modification time, as far as anything needs them: the
/// file is kept only when something reads it, opened by name in its held directory.
pub(super) fn open(page: &mut Page) -> Result<Opened, Outcome> {
    let shared = page.shared;
    let reads = !page.document && (shared.wants.reads() || page.source_link_wanted());
    let mut opened = Opened {
        file: None,
        size: None,
        modified: None,
        fingerprint: None,
        text: None,
        source: Err(Miss::NoSource),
    };
    if !reads && !shared.uses_mtime && !page.may_be_our_view() {
        return Ok(opened);
    }
    // Non-blocking: a FIFO that replaced the page after the walk must not hang us.
    let (file, meta) = match page.at.open() {
        Ok(file) => {
            let meta = file.metadata();
            (Some(file), meta)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(page.vanished(e.to_string())),
        // Not followed (O_NOFOLLOW): a link put in the page's place since the walk, or
        // on the real path a followed link was checked to have.
        Err(e) if crate::fsutil::dir::is_refused_link(&e) => {
            return Err(page.vanished("now a symbolic link".to_string()));
        }
        Err(e) => {
            if reads {
                let path = page.path();
                let message = e.to_string();
                page.warnings
                    .push(Warning::HeadUnreadable { path, message });
            }
            (None, Err(e))
        }
    };
    match &meta {
        Ok(m) if m.is_dir() => return Err(page.vanished("now a directory".to_string())),
        Ok(m) if !m.is_file() => {
            let what = crate::fsutil::kind_name(&m.file_type());
            return Err(page.vanished(format!("now {what}")));
        }
        Ok(m) => opened.size = reads.then_some(m.len()),
        Err(_) => {}
    }
    // Our own view (sitemap.html) is never a page of the site, whatever the rules say.
    if let Some(file) = &file
        && page.may_be_our_view()
        && crate::views::is_ours(file).unwrap_or(false)
    {
        return Err(Outcome::LeftOut(LeftOut::View));
    }
    opened.file = file.filter(|_| reads);
    if shared.uses_mtime {
        match meta.and_then(|m| m.modified()) {
            Ok(time) => opened.modified = Some(time),
            Err(e) => {
                let path = page.path();
                page.warnings.push(Warning::Scan(ScanWarning {
                    path,
                    message: format!("cannot read modification time: {e}"),
                }));
            }
        }
    }
    Ok(opened)
}

/// Reads the open page for what the run wants, and for the link naming its source
/// when its route did not find one.
pub(super) fn read(page: &mut Page, opened: &Opened, reader: &mut Option<Reader>) -> PageRead {
    let Some(file) = &opened.file else {
        return PageRead::default();
    };
    let shared = page.shared;
    let dates = shared.lookups.source.as_ref();
    let links = |href: &str| {
        let rank = SOURCE_LINK_MARKERS.iter().position(|m| href.contains(m))?;
        dates?.get_by_link(href).map(|_| rank)
    };
    let links: Option<page::SourceLinks> = page.source_link_wanted().then_some(&links);
    let reader = reader.get_or_insert_with(|| Reader::new(&shared.wants));
    if !reader.reads() && links.is_none() {
        return PageRead::default();
    }
    let read = reader.read(file, opened.size, links);
    read.unwrap_or_else(|e| {
        unreadable(page, &e);
        PageRead::default()
    })
}

/// The warnings of a page that was opened and could not be read through, one for each
/// thing it was read for.
fn unreadable(page: &mut Page, e: &io::Error) {
    let (path, message) = (page.path(), e.to_string());
    let wants = &page.shared.wants;
    let warnings = &mut page.warnings;
    if wants.head.is_some() || wants.body_date {
        let (path, message) = (path.clone(), message.clone());
        warnings.push(Warning::HeadUnreadable { path, message });
    }
    if wants.images {
        let (path, message) = (path.clone(), message.clone());
        warnings.push(Warning::ImagesUnreadable { path, message });
    }
    if wants.fingerprint {
        warnings.push(Warning::ContentUnreadable { path, message });
    }
}
