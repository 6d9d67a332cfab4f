//! The pages the sources build, by output path, and the newest date of the pages below a
//! directory, for an index page no source of its own dates.
//!
//! The output paths are kept sorted, so the pages below a directory are one run of
//! them, and a segment tree over their dates gives the newest of any run in a few
//! steps. A map from every ancestor directory to its newest date held a string per
//! ancestor: one front-matter `url` 32,000 levels deep (64 KB) took 1 GB. This holds
//! each path once. Written by hand: a range maximum is a dozen lines, not a crate.

use jiff::Timestamp;

use super::places::{Place, Places};

/// Output paths (`/`-separated), sorted, each once with what it is dated by, and the
/// newest date of every run of them. Held instead of a map: a path is found by a binary
/// search, and the pages below a directory are a run, so no path is held twice.
#[derive(Debug)]
pub(super) struct ByPath<T> {
    entries: Vec<(String, T)>,
    /// Each entry's place by its path's hash.
    index: Places,
    /// A segment tree: leaf `i` at `n + i`, each node the newer of its two children;
    /// [`Timestamp::MIN`] for an undated entry.
    tree: Vec<Timestamp>,
}

impl<T> Default for ByPath<T> {
    fn default() -> Self {
        ByPath {
            entries: Vec::new(),
            index: Places::default(),
            tree: Vec::new(),
        }
    }
}

impl<T> ByPath<T> {
    /// Over `entries`, dated by `date`; of the entries of one path one is kept, `twice`
    /// applied to it for each other.
    pub(super) fn new(
        mut entries: Vec<(String, T)>,
        date: impl Fn(&T) -> Option<Timestamp>,
        twice: impl Fn(&mut T),
    ) -> ByPath<T> {
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                twice(&mut kept.1);
            }
            same
        });
        entries.shrink_to_fit();
        let n = entries.len();
        let mut tree = vec![Timestamp::MIN; 2 * n];
        for (i, (_, t)) in entries.iter().enumerate() {
            tree[n + i] = date(t).unwrap_or(Timestamp::MIN);
        }
        for i in (1..n).rev() {
            tree[i] = tree[2 * i].max(tree[2 * i + 1]);
        }
        let mut index = Places::with_capacity(entries.len());
        for (i, (path, _)) in entries.iter().enumerate() {
            index.insert(path, i);
        }
        ByPath {
            entries,
            index,
            tree,
        }
    }

    /// What the page at `path` is dated by.
    pub(super) fn get(&self, path: &str) -> Option<&T> {
        let i = match self.index.get(path)? {
            Place::Shared => (self.entries)
                .binary_search_by(|(p, _)| p.as_str().cmp(path))
                .ok()?,
            Place::At(i) => i,
        };
        let (p, t) = &self.entries[i];
        (p == path).then_some(t)
    }

    /// The newest date of a page below `dir` (`""` for the root), if one is dated.
    pub(super) fn below(&self, dir: &str) -> Option<Timestamp> {
        let (lo, hi) = match dir {
            "" => (0, self.entries.len()),
            // Paths from `dir/` up to (not including) `dir0`, `0` following `/`: exactly
            // those that start with `dir/`.
            _ => {
                let (from, to) = (format!("{dir}/"), format!("{dir}0"));
                let lo = self.entries.partition_point(|(p, _)| *p < from);
                let hi = self.entries.partition_point(|(p, _)| *p < to);
                (lo, hi)
            }
        };
        (lo < hi)
            .then(|| self.newest(lo, hi))
            .filter(|t| *t != Timestamp::MIN)
    }

    /// The newest date of leaves `lo..hi`, walking up from both ends.
    fn newest(&self, lo: usize, hi: usize) -> Timestamp {
        let n = self.entries.len();
        let (mut lo, mut hi, mut best) = (lo + n, hi + n, Timestamp::MIN);
        while lo < hi {
            if lo % 2 == 1 {
                best = best.max(self.tree[lo]);
                lo += 1;
            }
            if hi % 2 == 1 {
                hi -= 1;
                best = best.max(self.tree[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let both = dated.iter().chain(&dated).cloned().collect();
            let newest = ByPath::new(both, |t| *t, |_| twice.set(twice.get() + 1));
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
        let none: ByPath<Option<Timestamp>> = ByPath::new(Vec::new(), |t| *t, |_| {});
        assert_eq!(none.below(""), None);
    }
}
