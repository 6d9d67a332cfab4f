//! Many short byte strings in one buffer: a list of 200,000 paths held as a `String`
//! each costs a heap block and a 24-byte header per path (about 70 bytes a path beside
//! its own 30 or 40). Held so, by the walk's list of pages and the sources' tables; and
//! found by their hash ([`Places`]), where a binary search over 200,000 paths misses
//! the cache at each of its 18 steps.

use hashbrown::HashTable;

/// Byte strings, one after the other in one buffer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Packed {
    bytes: Vec<u8>,
    /// Where each string ends in `bytes`; it starts where the one before ends.
    ends: Vec<usize>,
}

impl Packed {
    /// Room for `n` strings of `bytes` bytes in all.
    pub(crate) fn with_capacity(n: usize, bytes: usize) -> Packed {
        Packed {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(n),
        }
    }

    /// Adds a string after the others.
    pub(crate) fn push(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        self.ends.push(self.bytes.len());
    }

    /// String `i`.
    pub(crate) fn get(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    /// How many strings.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Every string, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Gives back the room reserved beyond what is held (a list kept long).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// Moves `other`'s strings after these, leaving it empty.
    pub(crate) fn append(&mut self, other: &mut Packed) {
        let offset = self.bytes.len();
        self.bytes.append(&mut other.bytes);
        self.ends
            .extend(other.ends.drain(..).map(|end| end + offset));
    }

    /// The place of the first string not before `s` in a sorted list (`len()` if none):
    /// where `s` is, if it is there at all.
    pub(crate) fn partition_point(&self, before: impl Fn(&[u8]) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if before(self.get(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The place of `s` in a sorted list, if it is there.
    pub(crate) fn find(&self, s: &[u8]) -> Option<usize> {
        let i = self.partition_point(|p| p < s);
        (i < self.len() && self.get(i) == s).then_some(i)
    }
}

/// Where each string of a list is, by the string's hash: only the places are held (4
/// bytes each), and a string looked up is compared with the list's own, given by the
/// caller (`string_at`).
#[derive(Debug, Default)]
pub(crate) struct Places(HashTable<u32>);

impl Places {
    pub(crate) fn with_capacity(n: usize) -> Places {
        Places(HashTable::with_capacity(n))
    }

    /// Records that `s` is at `at` (below `u32::MAX`), unless it is at a place already
    /// (the first is kept).
    pub(crate) fn insert<'a>(
        &mut self,
        s: &[u8],
        at: usize,
        string_at: impl Fn(usize) -> &'a [u8],
    ) {
        let at = u32::try_from(at).expect("a list of fewer than u32::MAX strings");
        let hash = hash(s);
        let entry = self.0.entry(
            hash,
            |&other| string_at(other as usize) == s,
            |&other| self::hash(string_at(other as usize)),
        );
        if let hashbrown::hash_table::Entry::Vacant(vacant) = entry {
            vacant.insert(at);
        }
    }

    /// Where `s` is, if it is in the list.
    pub(crate) fn get<'a>(&self, s: &[u8], string_at: impl Fn(usize) -> &'a [u8]) -> Option<usize> {
        (self.0.find(hash(s), |&at| string_at(at as usize) == s)).map(|&at| at as usize)
    }
}

/// xxh3: several times faster than std's SipHash on paths, and spread enough.
fn hash(s: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_come_back_as_pushed_and_are_found_in_a_sorted_list() {
        let mut packed = Packed::with_capacity(3, 8);
        for s in ["", "a", "a/b"] {
            packed.push(s.as_bytes());
        }
        let mut more = Packed::default();
        more.push(b"b");
        packed.append(&mut more);
        assert_eq!(more.len(), 0);
        let all: Vec<&[u8]> = packed.iter().collect();
        assert_eq!(all, [&b""[..], b"a", b"a/b", b"b"]);
        let table = [
            ("", Some(0)),
            ("a", Some(1)),
            ("a/b", Some(2)),
            ("b", Some(3)),
        ];
        for (s, at) in table {
            assert_eq!(packed.find(s.as_bytes()), at, "{s}");
        }
        for s in ["a/", "c", "0"] {
            assert_eq!(packed.find(s.as_bytes()), None, "{s}");
        }
        assert_eq!(packed.partition_point(|p| p < &b"a0"[..]), 3);
    }

    #[test]
    fn a_string_is_found_at_its_first_place() {
        let mut packed = Packed::default();
        for s in ["a/index.html", "b/index.html", "a/index.html"] {
            packed.push(s.as_bytes());
        }
        let mut places = Places::with_capacity(1);
        for (i, s) in packed.iter().enumerate() {
            places.insert(s, i, |at| packed.get(at));
        }
        let get = |s: &str| places.get(s.as_bytes(), |at| packed.get(at));
        assert_eq!(get("a/index.html"), Some(0));
        assert_eq!(get("b/index.html"), Some(1));
        assert_eq!(get("c/index.html"), None);
    }
}
