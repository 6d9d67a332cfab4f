//! The dates the previous run's state decides, settled once the walk is done: a page
//! whose sources before `"content"` gave no date waits (see [`crate::lastmod::Pending`]),
//! so the state is read on its own thread while the pages are, and each waiting page's
//! record is found in one walk down the state beside the pages sorted by URL, where a
//! lookup per page, as the walk found it, waited on memory.

use std::path::PathBuf;

use jiff::Timestamp;

use super::Collection;
use super::workers::{Listed, Waiting};
use crate::config::Config;
use crate::error::Warning;
use crate::lastmod::state::State;
use crate::page::Fingerprint;
use crate::scan::Pages;

/// What the waiting pages are settled with.
pub(super) struct Settling<'a> {
    pub config: &'a Config,
    pub pages: &'a Pages,
    pub previous: &'a State,
    /// The pages' fingerprints, at each page's place in the walk's list.
    pub fingerprints: &'a [Option<Fingerprint>],
    /// The run's start.
    pub now: Option<Timestamp>,
    /// The listed pages' URLs (see [`super::Urls`]).
    pub text: &'a str,
}

/// Settles the date of every waiting page of `listed` (sorted by URL, duplicates
/// still there): its entry's date, its count among the dated, and what it reports.
pub(super) fn settle(
    settling: Settling,
    listed: &mut [Listed],
    mut waiting: Waiting,
    collection: &mut Collection,
) {
    let base = settling.config.base_url.as_str();
    waiting.sort();
    let mut records = settling.previous.cursor();
    let path = |page: u32| -> PathBuf {
        let rel = settling.pages.get(page as usize);
        settling.config.public_dir.join(rel)
    };
    for l in listed.iter_mut() {
        let Some(pending) = l.pending.take() else {
            continue;
        };
        let after = l.item.lastmod();
        let fingerprint = settling
            .fingerprints
            .get(l.page as usize)
            .copied()
            .flatten();
        let settled = match fingerprint {
            Some(fingerprint) => {
                let before = records.find(base, l.item.rest(settling.text));
                pending.settle(after, fingerprint, before, settling.now)
            }
            // Never so (a page waits for the state only with its fingerprint), but
            // dated and counted all the same.
            None => pending.unread(after),
        };
        l.item.set_lastmod(settled.lastmod);
        collection.dated.add(settled.from);
        // Taken whether reported or not: each page's is looked for once.
        let unparseable = waiting.unparseable(l.page);
        if let (Some(value), true) = (unparseable, settled.after_used) {
            let path = path(l.page);
            collection
                .warnings
                .push(Warning::UnparseableDate { path, value });
        }
        if let Some(miss) = waiting.missed(l.page) {
            let rel = settling.pages.get(l.page as usize).to_path_buf();
            collection.undated.push((rel, miss, settled.from));
        }
    }
}
