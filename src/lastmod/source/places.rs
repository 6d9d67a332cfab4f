//! Where each path of a list is, by the path's hash: a look-up in a step or two, where a
//! binary search over 200,000 paths (or their hashes) misses the cache at each of its 18
//! steps. The hash is hashed no further (xxh3 is spread already).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Each path's place in a list, by its hash.
#[derive(Debug, Default)]
pub(super) struct Places(HashMap<u64, u32, BuildHasherDefault<Identity>>);

/// Where a path is, as far as its hash tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// At this place, if it is there at all (the caller compares the path).
    At(usize),
    /// Two paths of the list share the hash: the caller looks another way.
    Shared,
}

/// In the map, for a hash two paths share.
const SHARED: u32 = u32::MAX;

impl Places {
    pub(super) fn with_capacity(n: usize) -> Places {
        Places(HashMap::with_capacity_and_hasher(n, Default::default()))
    }

    /// Records that `path` is at `at` (below `u32::MAX`).
    pub(super) fn insert(&mut self, path: &[u8], at: usize) {
        debug_assert!(at < SHARED as usize);
        (self.0.entry(hash(path)))
            .and_modify(|place| *place = SHARED)
            .or_insert(at as u32);
    }

    /// Where `path` would be.
    pub(super) fn get(&self, path: &[u8]) -> Option<Place> {
        match *self.0.get(&hash(path))? {
            SHARED => Some(Place::Shared),
            at => Some(Place::At(at as usize)),
        }
    }
}

fn hash(path: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(path)
}

/// A hasher that passes a `u64` through.
#[derive(Default)]
pub(super) struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 hashes are hashed");
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_found_at_its_place_and_a_shared_hash_says_so() {
        let mut places = Places::with_capacity(2);
        places.insert(b"a/index.html", 0);
        places.insert(b"b/index.html", 1);
        assert_eq!(places.get(b"b/index.html"), Some(Place::At(1)));
        assert_eq!(places.get(b"c/index.html"), None);
        places.insert(b"b/index.html", 2);
        assert_eq!(places.get(b"b/index.html"), Some(Place::Shared));
    }
}
