//! A sorted table of paths (`/`-separated) and what each is dated by, the paths in one
//! buffer ([`Packed`]): the sources' tables hold one entry per source.

use crate::packed::Packed;

/// A row [`Rows::sorted_placed`] did not keep.
pub(super) const NOT_KEPT: u32 = u32::MAX;

/// Paths, sorted, each once, with a value each.
#[derive(Debug)]
pub(super) struct Table<T> {
    paths: Packed,
    values: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            paths: Packed::default(),
            values: Vec::new(),
        }
    }
}

/// Paths with a value each, in the order they came: a [`Table`] once sorted.
#[derive(Debug)]
pub(super) struct Rows<T> {
    paths: Packed,
    values: Vec<T>,
}

impl<T> Default for Rows<T> {
    fn default() -> Self {
        Rows {
            paths: Packed::default(),
            values: Vec::new(),
        }
    }
}

impl<T: Copy> Rows<T> {
    /// Room for `n` rows of `bytes` bytes of paths in all.
    pub(super) fn with_capacity(n: usize, bytes: usize) -> Rows<T> {
        Rows {
            paths: Packed::with_capacity(n, bytes),
            values: Vec::with_capacity(n),
        }
    }

    pub(super) fn push(&mut self, path: &str, value: T) {
        self.paths.push(path.as_bytes());
        self.values.push(value);
    }

    /// How many rows.
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// Path `i`.
    pub(super) fn path(&self, i: usize) -> &[u8] {
        self.paths.get(i)
    }

    /// Every row's path and value.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u8], &T)> {
        self.paths.iter().zip(&self.values)
    }

    /// Every row's path and value, to be changed in place.
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = (&[u8], &mut T)> {
        self.paths.iter().zip(&mut self.values)
    }

    /// The rows `keep` keeps, sorted by path; of the rows of one path one is kept,
    /// `twice` applied to it for each other.
    pub(super) fn sorted(self, keep: impl Fn(&T) -> bool, twice: impl Fn(&mut T)) -> Table<T> {
        self.sorted_placed(keep, twice).0
    }

    /// [`Rows::sorted`], with each row's place in the table ([`NOT_KEPT`] for a row
    /// `keep` dropped).
    pub(super) fn sorted_placed(
        self,
        keep: impl Fn(&T) -> bool,
        twice: impl Fn(&mut T),
    ) -> (Table<T>, Vec<u32>) {
        let Rows { paths, values } = self;
        let mut places = vec![NOT_KEPT; values.len()];
        let mut order: Vec<u32> = (0..values.len())
            .filter(|&i| keep(&values[i]))
            .map(|i| u32::try_from(i).expect("at most MAX_SOURCES rows"))
            .collect();
        order.sort_unstable_by(|&a, &b| paths.get(a as usize).cmp(paths.get(b as usize)));
        let bytes = order.iter().map(|&i| paths.get(i as usize).len()).sum();
        let mut table = Table {
            paths: Packed::with_capacity(order.len(), bytes),
            values: Vec::with_capacity(order.len()),
        };
        for i in order {
            let (path, value) = (paths.get(i as usize), values[i as usize]);
            match table.values.last_mut() {
                Some(kept) if table.paths.get(table.paths.len() - 1) == path => twice(kept),
                _ => {
                    table.paths.push(path);
                    table.values.push(value);
                }
            }
            places[i as usize] = (table.values.len() - 1) as u32;
        }
        (table, places)
    }
}

impl<T> Table<T> {
    /// How many paths.
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// Path `i`.
    pub(super) fn path(&self, i: usize) -> &[u8] {
        self.paths.get(i)
    }

    /// Every value, to be changed in place.
    pub(super) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.values.iter_mut()
    }

    /// The value of path `i`.
    pub(super) fn value(&self, i: usize) -> &T {
        &self.values[i]
    }

    /// Every path with its value, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u8], &T)> {
        self.paths.iter().zip(&self.values)
    }

    /// The place of `path`, if it is there.
    pub(super) fn find(&self, path: &str) -> Option<usize> {
        self.paths.find(path.as_bytes())
    }

    /// The place of the first path not before `path` (`len()` if none).
    pub(super) fn first_from(&self, path: &str) -> usize {
        self.paths.partition_point(|p| p < path.as_bytes())
    }
}
