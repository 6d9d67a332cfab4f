//! The one walk down the previous state beside this run's pages sorted by URL. Each
//! page's record is found where the walk has got to (no search, no hash, no copy of the
//! URL), and in that same walk the dates waiting for the state are settled, the change
//! list is made, what the state file holds is compared with the run's pages, and the
//! other shards' pages (all a save keeps of the previous state) are set aside. Four walks
//! did this before, each of them over every record and every page.

use std::cmp::Ordering;

use jiff::Timestamp;

use super::{PageState, State, compare};
use crate::changes::Changes;
use crate::lastmod::{Pending, Settled};
use crate::page::Fingerprint;

/// One of this run's pages, as the merge meets it.
#[derive(Debug, Clone, Copy)]
pub struct Page<'p> {
    /// Its URL after the run's base URL.
    pub rest: &'p str,
    /// Its content fingerprint (none: not fingerprinted, or not read through).
    pub fingerprint: Option<Fingerprint>,
    /// Its date so far; for a page whose date waits, what the sources after `"content"`
    /// gave.
    pub lastmod: Option<Timestamp>,
    /// Its date waits for the previous state.
    pub pending: Option<Pending>,
}

/// What the walk yields once every page has been met.
#[derive(Debug)]
pub struct Merged {
    /// What changed since the previous run.
    pub changes: Changes,
    /// The state file, as read, holds exactly this run's pages under the base URL,
    /// fingerprints and dates alike: saving would write what it holds.
    pub holds: bool,
    /// The previous run's pages outside the base URL (another shard's), in order, and
    /// what its file was: all a save needs of the previous state.
    pub outside: State,
}

/// A walk down a [`State`] (sorted) beside this run's pages, met in URL order (pages
/// of one URL one after another: the first is the one listed, as the sort and
/// de-duplication after it keep it).
#[derive(Debug)]
pub struct Merge<'s, 'p> {
    previous: &'s State,
    /// The run's base URL: the records under it are the run's to compare.
    owned: &'s str,
    all_changed: bool,
    /// The run's start, the date of changed content nothing else dates.
    run_start: Option<Timestamp>,
    /// The first record the walk has not passed.
    at: usize,
    /// The record at `at` was met by a listed page with a fingerprint: not removed.
    met: bool,
    /// The last URL met (after the base) and its record: a page of the same URL after
    /// it is a duplicate, settled by that record and compared with nothing.
    last: Option<(&'p str, Option<PageState>)>,
    changes: Changes,
    holds: bool,
    outside: State,
}

impl<'s, 'p> Merge<'s, 'p> {
    /// Starts the walk down `previous` for a run whose base URL is `owned`; with
    /// `all_changed`, every page of the run is in the change list.
    pub fn new(
        previous: &'s State,
        owned: &'s str,
        all_changed: bool,
        run_start: Option<Timestamp>,
    ) -> Merge<'s, 'p> {
        Merge {
            previous,
            owned,
            all_changed,
            run_start,
            at: 0,
            met: false,
            last: None,
            changes: Changes {
                first_run: !previous.found(),
                ..Changes::default()
            },
            // A state no file was read from holds nothing, not even no pages.
            holds: previous.found(),
            outside: State {
                file: previous.file.clone(),
                ..State::default()
            },
        }
    }

    /// Meets the next page; a page whose date waits gets it here, settled by its record
    /// (or, with no fingerprint after all, by the sources after `"content"`).
    pub fn page(&mut self, page: Page<'p>) -> Option<Settled> {
        let first = self.last.is_none_or(|(last, _)| last != page.rest);
        let record = match self.last {
            Some((_, record)) if !first => record,
            _ => {
                let record = self.find(page.rest);
                self.last = Some((page.rest, record));
                record
            }
        };
        let settled = page.pending.map(|pending| match page.fingerprint {
            Some(now) => pending.settle(page.lastmod, now, record, self.run_start),
            None => pending.unread(page.lastmod),
        });
        // A page without a fingerprint is not in the new state: its record, if any,
        // counts as removed when the walk passes it.
        if let (true, Some(fingerprint)) = (first, page.fingerprint) {
            let lastmod = settled.map_or(page.lastmod, |s| s.lastmod);
            self.compare(
                page.rest,
                PageState {
                    fingerprint,
                    lastmod,
                },
                record,
            );
        }
        settled
    }

    /// The walk's yield, once every page has been met: the records left are removed
    /// (under the base URL) or another shard's.
    pub fn finish(mut self) -> Merged {
        let (previous, owned) = (self.previous, self.owned);
        while let Some(item) = previous.items.get(self.at) {
            let url = item.url(&previous.text);
            match url.starts_with(owned) {
                true => self.pass(url),
                false => self.outside.push(url, item.page()),
            }
            self.at += 1;
        }
        Merged {
            changes: self.changes,
            holds: self.holds,
            outside: self.outside,
        }
    }

    /// Walks down to the URL `owned` then `rest` (no earlier than the last asked for),
    /// passing the records before it; its record, if it has one.
    fn find(&mut self, rest: &str) -> Option<PageState> {
        let (previous, owned) = (self.previous, self.owned);
        while let Some(item) = previous.items.get(self.at) {
            let url = item.url(&previous.text);
            let order = match url.strip_prefix(owned) {
                Some(tail) => compare(tail, rest),
                // Not under the base: before all of its URLs, or after them all.
                None => match compare(url, owned) {
                    Ordering::Less => {
                        self.outside.push(url, item.page());
                        self.at += 1;
                        continue;
                    }
                    _ => return None,
                },
            };
            match order {
                Ordering::Less => {
                    self.pass(url);
                    self.at += 1;
                }
                Ordering::Equal => return Some(item.page()),
                Ordering::Greater => return None,
            }
        }
        None
    }

    /// Passes the record of `url` (under the base): removed, unless a page met it.
    fn pass(&mut self, url: &str) {
        if !std::mem::take(&mut self.met) {
            self.changes.removed.push(url.to_string());
            self.holds = false;
        }
    }

    /// Compares a listed page, `now`, with its record `before`, for the change list and
    /// whether the state file holds the run's pages. A URL is written out only when it
    /// is listed (one per page was most of the change list's time).
    fn compare(&mut self, rest: &str, now: PageState, before: Option<PageState>) {
        let url = || format!("{}{rest}", self.owned);
        let Some(before) = before else {
            self.holds = false;
            if !self.changes.first_run || self.all_changed {
                self.changes.added.push(url());
            }
            return;
        };
        self.met = true;
        self.holds &= before == now;
        if self.all_changed || before.fingerprint != now.fingerprint {
            self.changes.updated.push(url());
        }
    }
}

#[cfg(test)]
mod tests;
