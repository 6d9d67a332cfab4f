//! Prose: text of words and single spaces (no tab, line feed, form feed or carriage
//! return, no two spaces running), which a reader that collapses whitespace can take as
//! it is. Told here once, both for text alone ([`is_prose`]) and, in the fast scan's one
//! look at the text between two tags, beside where it ends and whether it holds a
//! character reference ([`piece`]): the scan's search for `<` and `&` and a second pass
//! over the same bytes for prose were a tenth of a run with every feature on.
//!
//! Either may say no to prose (a byte below 15, or a space then `!`), which only sends
//! that text the slow way; neither ever says yes to anything else.
//!
//! Written by hand: no crate looks for two bytes and a rule about spaces in one pass.

use memchr::{memchr, memchr2};

/// The text at the start of a page's rest, up to its first `<`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece {
    /// Its length: to the first `<`, else to the end.
    pub len: usize,
    /// A `<` ends it (else the page does).
    pub lt: bool,
    /// It holds an `&`.
    pub amp: bool,
    /// It is prose (never when it holds an `&`: its decoded text is another).
    pub prose: bool,
}

/// The text at the start of `rest`, up to its first `<`, looked at once.
pub(crate) fn piece(rest: &[u8]) -> Piece {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { avx2::piece(rest) };
    }
    let (len, lt, amp) = match memchr2(b'<', b'&', rest) {
        Some(i) if rest[i] == b'&' => match memchr(b'<', &rest[i..]) {
            Some(j) => (i + j, true, true),
            None => (rest.len(), false, true),
        },
        Some(i) => (i, true, false),
        None => (rest.len(), false, false),
    };
    Piece {
        len,
        lt,
        amp,
        prose: !amp && is_prose_from(&rest[..len], false),
    }
}

/// Whether `text` is prose: 32 bytes at a time where the CPU has AVX2, else eight.
pub(crate) fn is_prose(text: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { avx2::is_prose(text) };
    }
    is_prose_from(text, false)
}

/// [`is_prose`] eight bytes at a time, `space_before` saying the byte before `text` was a
/// space.
fn is_prose_from(text: &[u8], space_before: bool) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let mut words = text.chunks_exact(8);
    // The flag of the byte before the word (a space, or a false alarm), at bit 7.
    let mut space_before = u64::from(space_before) << 7;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // The high bit of each byte below 14 (exact for "any"; a 14 above one of them
        // is flagged too), and of each space (a `!` above one too).
        let low = w.wrapping_sub(14 * ONES) & !w & HIGHS;
        let xor = w ^ (0x20 * ONES);
        let spaces = xor.wrapping_sub(ONES) & !xor & HIGHS;
        // Little-endian: the next byte's flag is 8 bits up.
        let pairs = spaces & (spaces << 8 | space_before);
        if low | pairs != 0 {
            return false;
        }
        space_before = spaces >> 56;
    }
    let mut after_space = space_before != 0;
    for &b in words.remainder() {
        if matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r') || (b == b' ' && after_space) {
            return false;
        }
        after_space = b == b' ';
    }
    true
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_set1_epi8,
    };

    use super::Piece;

    /// A block's bytes to look at: 32 of the text, or its last ones after a word byte
    /// (`a`, which is neither a space, a `<` nor an `&`, and ends no pair).
    struct Blocks<'t> {
        text: &'t [u8],
        at: usize,
    }

    impl Blocks<'_> {
        /// The next block and where it starts; `None` past the end.
        #[target_feature(enable = "avx2")]
        fn next(&mut self) -> Option<(__m256i, usize)> {
            let at = self.at;
            let rest = self.text.get(at..).filter(|r| !r.is_empty())?;
            self.at += 32;
            let v = match rest.get(..32) {
                // SAFETY: 32 bytes are there to read; an unaligned load needs no alignment.
                Some(block) => unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) },
                None => {
                    let mut last = [b'a'; 32];
                    last[..rest.len()].copy_from_slice(rest);
                    // SAFETY: as above, from the copy.
                    unsafe { _mm256_loadu_si256(last.as_ptr().cast::<__m256i>()) }
                }
            };
            Some((v, at))
        }
    }

    /// The bytes of a block that end prose: each below 14 (tab, line feed, form feed and
    /// carriage return among them), and each space after a space (`carry`: the bit of
    /// the last byte before the block, a space); and the block's spaces.
    #[target_feature(enable = "avx2")]
    fn not_prose(v: __m256i, carry: u32) -> (u32, u32) {
        let spaces = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b' ' as i8)));
        let thirteen = _mm256_set1_epi8(13);
        let low = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, thirteen), v));
        let (spaces, low) = (spaces as u32, low as u32);
        (low | (spaces & (spaces << 1 | carry)), spaces)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn is_prose(text: &[u8]) -> bool {
        let mut blocks = Blocks { text, at: 0 };
        let mut carry = 0;
        while let Some((v, _)) = blocks.next() {
            let (bad, spaces) = not_prose(v, carry);
            if bad != 0 {
                return false;
            }
            carry = spaces >> 31;
        }
        true
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn piece(rest: &[u8]) -> Piece {
        let (lts, amps) = (_mm256_set1_epi8(b'<' as i8), _mm256_set1_epi8(b'&' as i8));
        let mut blocks = Blocks { text: rest, at: 0 };
        let (mut carry, mut bad) = (0, 0);
        while let Some((v, at)) = blocks.next() {
            let lt = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lts)) as u32;
            let amp = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, amps)) as u32;
            let (flagged, spaces) = not_prose(v, carry);
            let first = (lt | amp).trailing_zeros();
            if first == 32 {
                bad |= flagged;
                carry = spaces >> 31;
                continue;
            }
            if amp & (1 << first) != 0 {
                // A reference first: the text is decoded, not taken as it is.
                let end = memchr::memchr(b'<', &rest[at + first as usize..]);
                let len = end.map_or(rest.len(), |j| at + first as usize + j);
                return Piece {
                    len,
                    lt: end.is_some(),
                    amp: true,
                    prose: false,
                };
            }
            let below = (1 << first) - 1;
            return Piece {
                len: at + first as usize,
                lt: true,
                amp: false,
                prose: (bad | flagged & below) == 0,
            };
        }
        Piece {
            len: rest.len(),
            lt: false,
            amp: false,
            prose: bad == 0,
        }
    }
}

#[cfg(test)]
mod tests;
