//! The dates the previous run's state decides, settled once the walk is done: a page
//! whose sources before `"content"` gave no date waits (see [`crate::lastmod::Pending`]),
//! so the state is read on its own thread while the pages are. The pages sorted by URL
//! then go through the one walk down the state ([`Merge`]), which settles each waiting
//! page's date and yields the change list, whether the state file holds the run's pages
//! and what a save keeps; here each settled page is counted and reported.

use std::path::PathBuf;

use jiff::Timestamp;

use super::Collection;
use super::workers::{Listed, Waiting};
use crate::config::Config;
use crate::error::Warning;
use crate::lastmod::state::State;
use crate::lastmod::state::merge::{Merge, Merged, Page};
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
    /// Whether each page's dating source is kept ([`Collection::dated_by`]).
    pub details: bool,
}

/// Meets every page of `listed` (sorted by URL, duplicates still there, the first of
/// each URL the one kept) in the one walk down the previous state: each waiting page's
/// date set in its entry, counted among the dated, with what it reports.
pub(super) fn settle(
    settling: Settling,
    listed: &mut [Listed],
    mut waiting: Waiting,
    collection: &mut Collection,
) -> Merged {
    let config = settling.config;
    waiting.sort();
    let base = config.base_url.as_str();
    let mut merge = Merge::new(settling.previous, base, config.all_changed, settling.now);
    let path = |page: u32| -> PathBuf {
        let rel = settling.pages.get(page as usize);
        config.public_dir.join(rel)
    };
    for l in listed.iter_mut() {
        let page = Page {
            rest: l.item.rest(settling.text),
            fingerprint: settling
                .fingerprints
                .get(l.page as usize)
                .copied()
                .flatten(),
            lastmod: l.item.lastmod(),
            pending: l.pending.take(),
        };
        let Some(settled) = merge.page(page) else {
            continue;
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
        if settling.details {
            let rel = settling.pages.get(l.page as usize).to_path_buf();
            collection.dated_by.push((rel, settled.from));
        }
        if let Some(miss) = waiting.missed(l.page) {
            let rel = settling.pages.get(l.page as usize).to_path_buf();
            collection.undated.push((rel, miss, settled.from));
        }
    }
    merge.finish()
}
