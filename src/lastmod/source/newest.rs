//! The pages the sources build, by output path, and the newest date of the pages below a
//! directory, for an index page no source of its own dates.
//!
//! The output paths are kept sorted, so the pages below a directory are one run of
//! them, and a segment tree over their dates gives the newest of any run in a few
//! steps. A map from every ancestor directory to its newest date held a string per
//! ancestor: one front-matter `url` 32,000 levels deep (64 KB) took 1 GB. This holds
//! each path once. Written by hand: a range maximum is a dozen lines, not a crate.

use jiff::Timestamp;

use super::table::Table;
use crate::packed::Places;

/// Output paths (`/`-separated), sorted, each once with what it is dated by, and the
/// newest date of every run of them. Held instead of a map: a path is found by its hash,
/// and the pages below a directory are a run, so no path is held twice.
#[derive(Debug)]
pub(super) struct ByPath<T> {
    table: Table<T>,
    /// Each entry's place by its path's hash.
    index: Places,
    /// A segment tree: leaf `i` at `n + i`, each node the place of the newer entry of
    /// its two children's, [`NONE`] where neither is dated. Places, not dates: a date
    /// takes 16 bytes, a place 4.
    tree: Vec<u32>,
    date: fn(&T) -> Option<Timestamp>,
}

/// No dated entry, in [`ByPath::tree`].
const NONE: u32 = u32::MAX;

impl<T> Default for ByPath<T> {
    fn default() -> Self {
        ByPath {
            table: Table::default(),
            index: Places::default(),
            tree: Vec::new(),
            date: |_| None,
        }
    }
}

impl<T> ByPath<T> {
    /// Over `table`, dated by `date`.
    pub(super) fn new(table: Table<T>, date: fn(&T) -> Option<Timestamp>) -> ByPath<T> {
        let n = table.len();
        assert!(n < NONE as usize, "more entries than places");
        let mut by_path = ByPath {
            index: Places::with_capacity(n),
            tree: vec![NONE; 2 * n],
            table,
            date,
        };
        for i in 0..n {
            let dated = date(by_path.table.value(i)).is_some();
            by_path.tree[n + i] = if dated { i as u32 } else { NONE };
        }
        for i in (1..n).rev() {
            by_path.tree[i] = by_path.newer(by_path.tree[2 * i], by_path.tree[2 * i + 1]);
        }
        let table = &by_path.table;
        for (i, (path, _)) in table.iter().enumerate() {
            by_path.index.insert(path, i, |at| table.path(at));
        }
        by_path
    }

    /// What the page at `path` is dated by.
    pub(super) fn get(&self, path: &str) -> Option<&T> {
        let i = (self.index).get(path.as_bytes(), |at| self.table.path(at))?;
        Some(self.table.value(i))
    }

    /// The newest date of a page below `dir` (`""` for the root), if one is dated.
    pub(super) fn below(&self, dir: &str) -> Option<Timestamp> {
        let (lo, hi) = match dir {
            "" => (0, self.table.len()),
            // Paths from `dir/` up to (not including) `dir0`, `0` following `/`: exactly
            // those that start with `dir/`.
            _ => {
                let lo = self.table.first_from(&format!("{dir}/"));
                let hi = self.table.first_from(&format!("{dir}0"));
                (lo, hi)
            }
        };
        (lo < hi).then(|| self.newest(lo, hi)).flatten()
    }

    /// The date of entry `at` (none for [`NONE`]).
    fn date_at(&self, at: u32) -> Option<Timestamp> {
        (at != NONE).then(|| (self.date)(self.table.value(at as usize)))?
    }

    /// Of two places, the one of the newer date (the first of equal dates).
    fn newer(&self, a: u32, b: u32) -> u32 {
        match (self.date_at(a), self.date_at(b)) {
            (Some(x), Some(y)) if y > x => b,
            (None, _) => b,
            _ => a,
        }
    }

    /// The newest date of leaves `lo..hi`, walking up from both ends.
    fn newest(&self, lo: usize, hi: usize) -> Option<Timestamp> {
        let n = self.table.len();
        let (mut lo, mut hi, mut best) = (lo + n, hi + n, NONE);
        while lo < hi {
            if lo % 2 == 1 {
                best = self.newer(best, self.tree[lo]);
                lo += 1;
            }
            if hi % 2 == 1 {
                hi -= 1;
                best = self.newer(best, self.tree[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        self.date_at(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lastmod::source::table::Rows;

    /// Every directory's newest date is that of the newest page below it, compared with
    /// a plain scan over many layouts.
    #[test]
    fn below_is_the_newest_of_the_pages_under_a_directory() {
        let ts = |secs: i64| Timestamp::from_second(secs).unwrap();
        let paths = [
            "a/index.html",
            "a/b/index.html",
            "a/b/c.html",
            "a-b/index.html",
            "a0/x.html",
            "ab/index.html",
            "b/index.html",
            "index.html",
        ];
        for shift in 0..paths.len() {
            // Every third page undated, and each path given twice.
            let dated: Vec<(String, Option<Timestamp>)> = (paths.iter().enumerate())
                .map(|(i, p)| {
                    let date = (i % 3 != 1).then(|| ts(((i + shift) % paths.len()) as i64 * 100));
                    (p.to_string(), date)
                })
                .collect();
            let twice = std::cell::Cell::new(0);
            let mut both = Rows::default();
            for (path, date) in dated.iter().chain(&dated) {
                both.push(path, *date);
            }
            let both = both.sorted(|_| true, |_| twice.set(twice.get() + 1));
            let newest = ByPath::new(both, |t| *t);
            assert_eq!(twice.get(), paths.len());
            for dir in ["", "a", "a/b", "a-b", "a0", "ab", "b", "c", "a/b/c.html"] {
                let prefix = format!("{dir}/");
                let want = (dated.iter())
                    .filter(|(p, _)| dir.is_empty() || p.starts_with(&prefix))
                    .filter_map(|(_, t)| *t)
                    .max();
                assert_eq!(newest.below(dir), want, "{dir} (shift {shift})");
                let own = dated.iter().find(|(p, _)| p == dir).map(|(_, t)| t);
                assert_eq!(newest.get(dir), own, "{dir}");
            }
        }
        let none: ByPath<Option<Timestamp>> = ByPath::new(Table::default(), |t| *t);
        assert_eq!(none.below(""), None);
    }
}
