//! Prose: text of words and single spaces (no tab, line feed, form feed or carriage
//! return, no two spaces running), which a reader that collapses whitespace can take as
//! it is. Told here once, both for text alone ([`is_prose`]) and for the text between two
//! tags as the fast scan finds it ([`piece`]), so the collectors it is handed to need not
//! look again (that look, a call per piece, was a tenth of a run with every feature on).
//!
//! Either may say no to prose (a byte below 15, or a space then `!`), which only sends
//! that text the slow way; neither ever says yes to anything else.
//!
//! Written by hand: no crate checks a rule about runs of bytes 32 at a time.

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

/// The text at the start of `rest`, up to its first `<`: found by one search for `<` and
/// `&`, then told prose or not here, once for every reader of it.
#[inline]
pub(crate) fn piece(rest: &[u8]) -> Piece {
    // Most text between tags is a line break or some indentation: the first eight bytes
    // are looked at as one word, which tells such text all at once, with no call.
    let Some(word) = rest.first_chunk::<8>() else {
        return longer_piece(rest, 0);
    };
    let w = u64::from_le_bytes(*word);
    let found = (has_byte(w, b'<') | has_byte(w, b'&')) & HIGHS;
    let len = found.trailing_zeros() as usize / 8;
    if found == 0 || rest[len] == b'&' {
        return longer_piece(rest, len);
    }
    // The bytes before the `<`: under eight, so the shift stays in the word.
    let before = (1u64 << (8 * len)) - 1;
    Piece::plain(len, true, not_prose(w, 0) & before == 0)
}

/// [`piece`] of text with no `<` or `&` before `from`: where that is past the first word
/// (the text runs on), 32 bytes at a time where the CPU has AVX2, else by memchr's search
/// and then the prose check.
// Calling AVX2 code after a run-time check needs `unsafe`; safe_arch wants AVX2 at build time.
#[allow(unsafe_code)]
fn longer_piece(rest: &[u8], from: usize) -> Piece {
    #[cfg(target_arch = "x86_64")]
    if from == 8 && rest.len() >= 32 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        let (stop, prose) = unsafe { avx2::stop_and_prose(rest) };
        return match stop {
            Some(i) if rest[i] == b'&' => amp_piece(rest, i),
            Some(i) => Piece::plain(i, true, prose),
            None => Piece::plain(rest.len(), false, prose),
        };
    }
    match memchr2(b'<', b'&', &rest[from..]).map(|i| i + from) {
        Some(i) if rest[i] == b'&' => amp_piece(rest, i),
        Some(i) => Piece::plain(i, true, is_prose(&rest[..i])),
        None => Piece::plain(rest.len(), false, is_prose(rest)),
    }
}

impl Piece {
    /// A piece without an `&`.
    fn plain(len: usize, lt: bool, prose: bool) -> Piece {
        Piece {
            len,
            lt,
            amp: false,
            prose,
        }
    }
}

/// [`piece`] of text whose first `<` or `&` is an `&`, at `amp`.
fn amp_piece(rest: &[u8], amp: usize) -> Piece {
    let (len, lt) = match memchr(b'<', &rest[amp..]) {
        Some(j) => (amp + j, true),
        None => (rest.len(), false),
    };
    Piece {
        len,
        lt,
        amp: true,
        prose: false,
    }
}

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each byte of `w` that is `b` (with [`HIGHS`]); a borrow may flag
/// bytes above one, never one below, so the lowest flag is exact.
fn has_byte(w: u64, b: u8) -> u64 {
    let x = w ^ (u64::from(b) * ONES);
    x.wrapping_sub(ONES) & !x
}

/// The high bit of each byte of `w` that says it is not prose: a byte below 14 (exact
/// for "any"; a 14 above one of them is flagged too), and a space after a space (a `!`
/// after a space too); `space_before` is the flag of the byte before the word, at bit 7.
fn not_prose(w: u64, space_before: u64) -> u64 {
    let low = w.wrapping_sub(14 * ONES) & !w & HIGHS;
    let spaces = has_byte(w, b' ') & HIGHS;
    // Little-endian: the next byte's flag is 8 bits up.
    low | spaces & (spaces << 8 | space_before)
}

/// Whether `text` is prose: 32 bytes at a time where the CPU has AVX2, else eight.
// Calling AVX2 code after a run-time check needs `unsafe`; safe_arch wants AVX2 at build time.
#[allow(unsafe_code)]
pub(crate) fn is_prose(text: &[u8]) -> bool {
    // Most text between tags is a line break or some indentation: no call for it.
    if text.len() < 32 {
        return is_prose_by_words(text);
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { avx2::is_prose(text) };
    }
    is_prose_by_words(text)
}

/// [`is_prose`] eight bytes at a time.
fn is_prose_by_words(text: &[u8]) -> bool {
    let mut words = text.chunks_exact(8);
    // The flag of the byte before the word (a space, or a false alarm), at bit 7.
    let mut space_before = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        if not_prose(w, space_before) != 0 {
            return false;
        }
        space_before = (has_byte(w, b' ') & HIGHS) >> 56;
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
    use memchr::memchr2;
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_testz_si256,
    };

    /// The 32 bytes of `text` from `at`.
    // std's unaligned AVX2 load takes a raw pointer; safe_arch's wants AVX2 at build time.
    #[allow(unsafe_code)]
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(text: &[u8], at: usize) -> __m256i {
        let block = &text[at..at + 32];
        // SAFETY: 32 bytes are there to read; an unaligned load needs no alignment.
        unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) }
    }

    /// The bytes of the block `v` that say it is not prose, `before` being the same
    /// block one byte back (an overlapping load): bytes up to 13 (tab, line feed, form
    /// feed and carriage return among them), and spaces after a space. The rule, once.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn not_prose(v: __m256i, before: __m256i) -> __m256i {
        let spaces = _mm256_set1_epi8(b' ' as i8);
        let low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(13)), v);
        let runs = _mm256_and_si256(
            _mm256_cmpeq_epi8(v, spaces),
            _mm256_cmpeq_epi8(before, spaces),
        );
        _mm256_or_si256(low, runs)
    }

    /// [`not_prose`] of a text's first block, which has no byte before it, as bits: its
    /// runs of spaces found from its own bits.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn first_not_prose(v: __m256i) -> u32 {
        let spaces = _mm256_set1_epi8(b' ' as i8);
        // A block one byte back with no space in it: the low bytes alone.
        let low = _mm256_movemask_epi8(not_prose(v, _mm256_setzero_si256())) as u32;
        let sp = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, spaces)) as u32;
        low | sp & (sp << 1)
    }

    /// Where the first `<` or `&` of `rest` (at least 32 bytes) is, and whether the text
    /// before it is prose, 32 bytes at a time: each block is looked at once for both,
    /// where memchr's search and then [`is_prose`] went over the text twice.
    #[target_feature(enable = "avx2")]
    pub(super) fn stop_and_prose(rest: &[u8]) -> (Option<usize>, bool) {
        let len = rest.len();
        assert!(len >= 32);
        let (lt, amp) = (_mm256_set1_epi8(b'<' as i8), _mm256_set1_epi8(b'&' as i8));
        let stops = |v: __m256i| {
            let either = _mm256_or_si256(_mm256_cmpeq_epi8(v, lt), _mm256_cmpeq_epi8(v, amp));
            _mm256_movemask_epi8(either) as u32
        };
        let v = load(rest, 0);
        let (mut stop, mut bad) = (stops(v), first_not_prose(v));
        let mut at = 0;
        while stop == 0 {
            if bad != 0 {
                // Not prose: what is left is the search.
                return (memchr2(b'<', b'&', &rest[at..]).map(|i| at + i), false);
            }
            at += 32;
            if at >= len {
                return (None, true);
            }
            // The last block overlaps the one before: the bytes seen already are masked.
            let block = at.min(len - 32);
            let fresh = u32::MAX << (at - block);
            let (v, before) = (load(rest, block), load(rest, block - 1));
            stop = stops(v) & fresh;
            bad = _mm256_movemask_epi8(not_prose(v, before)) as u32 & fresh;
            at = block;
        }
        let i = stop.trailing_zeros();
        // The bits below the stop: under 32 of them.
        let before_stop = (1u32 << i) - 1;
        (Some(at + i as usize), bad & before_stop == 0)
    }

    /// [`super::is_prose`], 32 bytes at a time. Each block is compared with the same block
    /// one byte back for spaces running, so blocks are looked at apart and what they flag
    /// is gathered without leaving the vector registers; the last block overlaps the one
    /// before it rather than going past the end.
    #[target_feature(enable = "avx2")]
    pub(super) fn is_prose(text: &[u8]) -> bool {
        // At least one block: shorter text is looked at eight bytes at a time.
        if text.len() < 32 {
            return super::is_prose_by_words(text);
        }
        if first_not_prose(load(text, 0)) != 0 {
            return false;
        }
        let mut bad = _mm256_setzero_si256();
        let mut at = 32;
        while at < text.len() {
            let block = at.min(text.len() - 32);
            let flags = not_prose(load(text, block), load(text, block - 1));
            bad = _mm256_or_si256(bad, flags);
            at += 32;
        }
        _mm256_testz_si256(bad, bad) == 1
    }
}

#[cfg(test)]
mod tests;
