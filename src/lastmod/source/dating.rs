//! The sources as the walk files them, then dated: each output path and each source
//! with what dates it, its explicit key at once, its last commit once git's log is read
//! ([`Mapped::Committed`] until then).

use std::path::PathBuf;

use super::table::{Rows, Table};
use super::walk::Found;
use super::{How, Mapped, SourceDates, cache, newest};
use crate::lastmod::git::{self, GitUnavailable, Oid};

/// The sources read so far, dated where they say their date; the others wait for their
/// history ([`Mapped::Committed`]), which is read beside them.
#[derive(Default)]
pub(super) struct Dating<'a> {
    dates: SourceDates,
    /// Each output path and what dates it, unsorted.
    pages: Rows<Mapped>,
    /// The same, sorted once the walk is done.
    sorted: Table<Mapped>,
    /// The sources to be dated by their last commit: git's file, and the source's place
    /// in `by_source`.
    /// A source with a file beside it that holds its metadata is dated by the later of
    /// the two commits.
    committed: Vec<(&'a git::File, Option<&'a git::File>, u32)>,
    /// Each source by its path in the project, and what dates it.
    by_source: Rows<Mapped>,
    /// Each output path and its source's row in `by_source`: what a content match
    /// needs to tell the sources that built no page of the site.
    owners: Rows<u32>,
    /// Each source's blob id, by its row in `by_source` (all zeros when git has it
    /// changed or not at all): what the match keeps what it read of a source by.
    blobs: Vec<Oid>,
}

impl<'a> Dating<'a> {
    /// Room for as many sources as the last run read, each with one output (its bytes
    /// within the rest of its line: room not filled is never touched).
    pub(super) fn make_room(&mut self, sizes: cache::Sizes) {
        let n = sizes.lines;
        self.pages = Rows::with_capacity(n, sizes.rest_bytes);
        self.by_source = Rows::with_capacity(n, sizes.path_bytes);
        self.owners = Rows::with_capacity(n, sizes.rest_bytes);
        self.committed.reserve(n);
        self.blobs.reserve(n);
    }

    /// Sorts the output paths; a path two sources are built to is dated by neither.
    pub(super) fn sort(&mut self) {
        self.sorted = std::mem::take(&mut self.pages).sorted(|_| true, Mapped::twice);
    }

    /// Files one source under each output path it is built to: dated by its explicit
    /// key, else to be dated by its last commit.
    pub(super) fn date(&mut self, source: Found<'a>) {
        let dates = &mut self.dates;
        let in_project = || source.dir.join(&source.rel);
        let read = source.read;
        if let Some(value) = read.unparseable {
            dates.unparseable.push((in_project(), value));
        }
        if let Some(why) = read.refused {
            dates.refused.push((in_project(), why));
            return;
        }
        let mapped = match (read.updated, source.git) {
            (Some(ts), _) => Mapped::dated(ts, How::Key),
            (None, Some(file)) => {
                let place = |n: usize| u32::try_from(n).expect("at most MAX_SOURCES");
                let i = place(self.committed.len());
                let beside = source.sidecar_git;
                self.committed
                    .push((file, beside, place(self.by_source.len())));
                Mapped::Committed(i)
            }
            // Not committed as it is: no history dates it.
            (None, None) => dates.undated(in_project()),
        };
        let row = u32::try_from(self.by_source.len()).expect("at most MAX_SOURCES");
        for output in read.outputs {
            self.pages.push(&output, mapped);
            self.owners.push(&output, row);
        }
        self.by_source.push(&source.key, mapped);
        self.blobs.push(source.git.map_or([0; 20], |f| *f.oid()));
    }

    /// The dates of the sources read, once their history is: each source left to its
    /// last commit dated by it, the output paths sorted (`fills_translations`: see
    /// [`SourceDates`]).
    pub(super) fn settle(
        self,
        fills_translations: bool,
        (shallow, error): (bool, Option<GitUnavailable>),
    ) -> SourceDates {
        let Dating {
            mut dates,
            sorted: mut pages,
            committed,
            mut by_source,
            mut owners,
            blobs,
            ..
        } = self;
        let mapped: Vec<Mapped> = (committed.into_iter())
            .map(|(file, beside, at)| {
                let beside = beside.and_then(git::File::date);
                match file.date().map(|ts| beside.map_or(ts, |b| b.max(ts))) {
                    Some(ts) => Mapped::dated(ts, How::Commit),
                    None => {
                        let key = String::from_utf8_lossy(by_source.path(at as usize));
                        dates.undated(PathBuf::from(key.as_ref()))
                    }
                }
            })
            .collect();
        let settled = |m: &mut Mapped| {
            if let Mapped::Committed(i) = *m {
                *m = mapped[i as usize];
            }
        };
        pages.values_mut().for_each(settled);
        for (key, m) in by_source.iter_mut() {
            settled(m);
            if let Mapped::Dated { .. } = m {
                let depth = key.split(|b| *b == b'/').count();
                dates.deepest = dates.deepest.max(depth);
            }
        }
        // Every source, dated or not: a source two paths name is no worry (a path is one file).
        let (by_source, places) = by_source.sorted_placed(|_| true, |_| {});
        for (_, row) in owners.iter_mut() {
            *row = places[*row as usize];
        }
        dates.blobs = vec![[0; 20]; by_source.len()];
        for (oid, &place) in blobs.into_iter().zip(&places) {
            if let Some(kept) = dates.blobs.get_mut(place as usize) {
                *kept = oid;
            }
        }
        dates.by_source = by_source;
        dates.owners = owners;
        dates.fills_translations = fills_translations;
        dates.shallow = shallow;
        dates.git_error = error;
        dates.pages = newest::ByPath::new(pages, Mapped::date);
        dates
    }
}
