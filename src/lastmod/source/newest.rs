//! The newest date of the pages below a directory, for an index page no source of its
//! own dates.
//!
//! The dated output paths are kept sorted, so the pages below a directory are one run of
//! them, and a segment tree over their dates gives the newest of any run in a few
//! steps. A map from every ancestor directory to its newest date held a string per
//! ancestor: one front-matter `url` 32,000 levels deep (64 KB) took 1 GB. This holds
//! each path once. Written by hand: a range maximum is a dozen lines, not a crate.

use jiff::Timestamp;

/// Dated output paths (`/`-separated), sorted, and their newest dates per run.
#[derive(Debug, Default)]
pub(super) struct Newest {
    paths: Vec<String>,
    /// A segment tree: leaf `i` at `n + i`, each node the newer of its two children.
    tree: Vec<Timestamp>,
}

impl Newest {
    /// Over the dated pages given as (output path, date).
    pub(super) fn new(mut dated: Vec<(String, Timestamp)>) -> Newest {
        dated.sort_unstable();
        let n = dated.len();
        let mut tree = vec![Timestamp::MIN; 2 * n];
        for (i, (_, ts)) in dated.iter().enumerate() {
            tree[n + i] = *ts;
        }
        for i in (1..n).rev() {
            tree[i] = tree[2 * i].max(tree[2 * i + 1]);
        }
        let paths = dated.into_iter().map(|(path, _)| path).collect();
        Newest { paths, tree }
    }

    /// The newest date of a page below `dir` (`""` for the root), if one is dated.
    pub(super) fn below(&self, dir: &str) -> Option<Timestamp> {
        let (lo, hi) = match dir {
            "" => (0, self.paths.len()),
            // Paths from `dir/` up to (not including) `dir0`, `0` following `/`: exactly
            // those that start with `dir/`.
            _ => {
                let (from, to) = (format!("{dir}/"), format!("{dir}0"));
                let lo = self.paths.partition_point(|p| *p < from);
                let hi = self.paths.partition_point(|p| *p < to);
                (lo, hi)
            }
        };
        (lo < hi).then(|| self.newest(lo, hi))
    }

    /// The newest date of leaves `lo..hi`, walking up from both ends.
    fn newest(&self, lo: usize, hi: usize) -> Timestamp {
        let n = self.paths.len();
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
            let dated: Vec<(String, Timestamp)> = (paths.iter().enumerate())
                .map(|(i, p)| (p.to_string(), ts(((i + shift) % paths.len()) as i64 * 100)))
                .collect();
            let newest = Newest::new(dated.clone());
            for dir in ["", "a", "a/b", "a-b", "a0", "ab", "b", "c", "a/b/c.html"] {
                let prefix = format!("{dir}/");
                let want = (dated.iter())
                    .filter(|(p, _)| dir.is_empty() || p.starts_with(&prefix))
                    .map(|(_, t)| *t)
                    .max();
                assert_eq!(newest.below(dir), want, "{dir} (shift {shift})");
            }
        }
        assert_eq!(Newest::new(Vec::new()).below(""), None);
    }
}
