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
/// `&` (memchr's), then told prose or not here, once for every reader of it.
#[inline]
pub(crate) fn piece(rest: &[u8]) -> Piece {
    let (len, lt, amp) = match lt_or_amp(rest) {
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
        prose: !amp && is_prose(&rest[..len]),
    }
}

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// Where the first `<` or `&` of `rest` is. Most text between tags is a line break or
/// some indentation: its first eight bytes are looked at as one word before memchr's
/// search is called (that call, for a byte or two, was most of the search's time).
fn lt_or_amp(rest: &[u8]) -> Option<usize> {
    let Some(word) = rest.first_chunk::<8>() else {
        return rest.iter().position(|&b| b == b'<' || b == b'&');
    };
    let w = u64::from_le_bytes(*word);
    let (lt, amp) = (w ^ (u64::from(b'<') * ONES), w ^ (u64::from(b'&') * ONES));
    // The high bit of each byte that is `<` or `&`; a borrow may flag bytes above one,
    // never one below, so the lowest flag is exact.
    let found = (lt.wrapping_sub(ONES) & !lt | amp.wrapping_sub(ONES) & !amp) & HIGHS;
    if found != 0 {
        return Some(found.trailing_zeros() as usize / 8);
    }
    memchr2(b'<', b'&', &rest[8..]).map(|i| i + 8)
}

/// Whether `text` is prose: 32 bytes at a time where the CPU has AVX2, else eight.
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
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_testz_si256,
    };

    /// [`super::is_prose`], 32 bytes at a time. Each block is compared with the same block
    /// one byte back (an overlapping load) for spaces running, so blocks are looked at
    /// apart and what they flag is gathered without leaving the vector registers; the
    /// last block overlaps the one before it rather than going past the end.
    #[target_feature(enable = "avx2")]
    pub(super) fn is_prose(text: &[u8]) -> bool {
        // At least one block: shorter text is looked at eight bytes at a time.
        if text.len() < 32 {
            return super::is_prose_by_words(text);
        }
        let spaces = _mm256_set1_epi8(b' ' as i8);
        let thirteen = _mm256_set1_epi8(13);
        // Bytes up to 13: tab, line feed, form feed and carriage return among them.
        let low = |v: __m256i| _mm256_cmpeq_epi8(_mm256_min_epu8(v, thirteen), v);
        let load = |at: usize| {
            let block = &text[at..at + 32];
            // SAFETY: 32 bytes are there to read; an unaligned load needs no alignment.
            unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) }
        };
        // The first block has no byte before it: its runs of spaces from its own bits.
        let v = load(0);
        let sp = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, spaces)) as u32;
        if _mm256_movemask_epi8(low(v)) != 0 || sp & (sp << 1) != 0 {
            return false;
        }
        let mut bad = _mm256_setzero_si256();
        let mut at = 32;
        while at < text.len() {
            let at_block = at.min(text.len() - 32);
            let (v, before) = (load(at_block), load(at_block - 1));
            let runs = _mm256_and_si256(
                _mm256_cmpeq_epi8(v, spaces),
                _mm256_cmpeq_epi8(before, spaces),
            );
            bad = _mm256_or_si256(bad, _mm256_or_si256(low(v), runs));
            at += 32;
        }
        _mm256_testz_si256(bad, bad) == 1
    }
}

#[cfg(test)]
mod tests;
