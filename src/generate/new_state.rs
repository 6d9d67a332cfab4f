//! This run's pages as the state file records them, taken from the sitemap's entries:
//! each entry's URL and date, with its fingerprint kept beside it. No URL is copied: at
//! a million pages the copy was 45 MB.

use crate::lastmod::state::{PageState, Prepared, State, Url};
use crate::page::Fingerprint;
use crate::sitemap::{Entries, EntryRef};

/// What a run saves: a fingerprint per sitemap entry, and what it keeps of the previous
/// state.
#[derive(Debug, Default)]
pub struct NewState {
    /// Each entry's fingerprint, in the entries' order (`None`: it has none).
    fingerprints: Vec<Option<Fingerprint>>,
    /// How many entries each section holds, in the entries' order (each sorted by URL);
    /// empty without sections (all of them sorted).
    sections: Vec<usize>,
    /// The previous run's pages outside this run's base URL, and what its file was.
    previous: State,
    /// The state file, as read, holds this run's pages already: nothing is written.
    unchanged: bool,
}

impl NewState {
    /// The state of the entries `fingerprints` are of, section by section (`sections`:
    /// their sizes, none without sections), and `previous`, the previous run's state
    /// (which only its pages outside the run's base URL need be); `unchanged` when the
    /// state file as read holds these pages already (see
    /// [`crate::lastmod::state::merge::Merged::holds`]).
    pub(crate) fn new(
        fingerprints: Vec<Option<Fingerprint>>,
        sections: Vec<usize>,
        previous: State,
        unchanged: bool,
    ) -> NewState {
        NewState {
            fingerprints,
            sections,
            previous,
            unchanged,
        }
    }

    /// This run's pages in URL order, from `entries` (those the fingerprints are of).
    /// Sections are merged by looking at each one's next URL: sections are few.
    fn pages<'e>(
        &'e self,
        entries: &'e Entries,
    ) -> impl Iterator<Item = (Url<'e>, PageState)> + 'e {
        let mut sizes = self.sections.clone();
        if sizes.is_empty() {
            sizes.push(entries.len());
        }
        let (mut rest, mut fingerprints) = (entries.as_slice(), &self.fingerprints[..]);
        let mut heads = Vec::with_capacity(sizes.len());
        for size in sizes {
            let size = size.min(rest.len()).min(fingerprints.len());
            let (span, after) = rest.split_at(size);
            let (prints, after_prints) = fingerprints.split_at(size);
            (rest, fingerprints) = (after, after_prints);
            heads.push(span.iter().zip(prints.iter().copied()).peekable());
        }
        std::iter::from_fn(move || {
            let (_, first) = heads
                .iter_mut()
                .enumerate()
                .filter_map(|(i, head)| head.peek().map(|(entry, _)| (entry.loc().rest(), i)))
                .min()?;
            heads[first].next()
        })
        .filter_map(|(entry, fingerprint)| Some(page(entry, fingerprint?)))
    }

    /// Saves it (see [`crate::lastmod::state::save`]); `entries` are those the fingerprints
    /// are of.
    pub(crate) fn save(
        &self,
        path: &std::path::Path,
        owned: &str,
        entries: &Entries,
    ) -> Result<(), crate::lastmod::state::StateError> {
        if self.unchanged {
            return Prepared::unchanged().commit(path, owned, self.pages(entries), &self.previous);
        }
        crate::lastmod::state::save(path, owned, self.pages(entries), &self.previous)
    }

    /// Writes it into its temporary file (see [`crate::lastmod::state::prepare`]).
    pub(crate) fn prepare(
        &self,
        path: &std::path::Path,
        owned: &str,
        entries: &Entries,
    ) -> Result<Prepared, crate::lastmod::state::StateError> {
        if self.unchanged {
            return Ok(Prepared::unchanged());
        }
        crate::lastmod::state::prepare(path, owned, self.pages(entries), &self.previous)
    }

    /// Puts what [`Self::prepare`] wrote in place (see [`Prepared::commit`]).
    pub(crate) fn commit(
        &self,
        prepared: Prepared,
        path: &std::path::Path,
        owned: &str,
        entries: &Entries,
    ) -> Result<(), crate::lastmod::state::StateError> {
        prepared.commit(path, owned, self.pages(entries), &self.previous)
    }
}

fn page(entry: EntryRef, fingerprint: Fingerprint) -> (Url, PageState) {
    let page = PageState {
        fingerprint,
        lastmod: entry.lastmod(),
    };
    let loc = entry.loc();
    (Url(loc.base(), loc.rest()), page)
}
