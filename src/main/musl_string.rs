//! `memcpy` and `memcmp` for the static x86-64 musl build, which the release ships.
//!
//! musl's x86-64 `memcpy` copies with `rep movsq` plus single `movsb`s for the
//! unaligned head and the tail, and its `memcmp` compares a byte at a time. A run copies
//! and compares many short pieces (names, attribute values, URLs, XML text): `memcpy`
//! alone was 22 % of the release build's own time on a default run, which took 1.35x the
//! syscall floor against 1.18x with these (BENCHMARKS.md, "As shipped").
//!
//! The linker sends every call of `memcpy` and `memcmp` in the binary, musl's own
//! included, here (`-Wl,--wrap`, set by `build.rs` for this target only); the copy
//! hands long copies back to musl (`__real_memcpy`), where `rep movsq` is at its best.
//! The crate is `#![no_builtins]` so that the compiler cannot turn the loops below back
//! into calls of the functions they stand in for.
//!
//! Written by hand: the crates that provide these functions are for `no_std` targets,
//! where they are the only ones, not for standing in front of a libc's.
//!
//! Built and tested on every target (the tests run on the host); exported only for
//! x86-64 musl.

use core::ptr::{read_unaligned as load, write_unaligned as store};

/// From this length on, a copy is musl's: `rep movsq` has paid for its start.
const LONG_COPY: usize = 4096;

/// Copies `n` bytes from `src` to `dest`, which do not overlap, as `memcpy` does.
///
/// Up to 128 bytes, two loads and two stores of a width that covers the piece from both
/// ends (they may overlap in the middle); longer, 64 bytes at a time and the last 64
/// from the end.
///
/// # Safety
/// As `memcpy`: `src` readable and `dest` writable for `n` bytes, not overlapping.
#[cfg_attr(
    all(target_env = "musl", target_arch = "x86_64"),
    unsafe(export_name = "__wrap_memcpy")
)]
pub unsafe extern "C" fn copy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: every load is inside `src[..n]` and every store inside `dest[..n]`.
    unsafe {
        match n {
            0 => {}
            1..=3 => {
                let (a, b, c) = (*src, *src.add(n / 2), *src.add(n - 1));
                *dest = a;
                *dest.add(n / 2) = b;
                *dest.add(n - 1) = c;
            }
            4..=7 => ends::<u32>(dest, src, n),
            8..=15 => ends::<u64>(dest, src, n),
            16..=32 => ends::<u128>(dest, src, n),
            33..=64 => ends::<[u128; 2]>(dest, src, n),
            65..=128 => ends::<[u128; 4]>(dest, src, n),
            _ if n < LONG_COPY => {
                let mut at = 0;
                while at + 64 < n {
                    store(dest.add(at).cast(), load::<[u128; 4]>(src.add(at).cast()));
                    at += 64;
                }
                let last = n - 64;
                store(
                    dest.add(last).cast(),
                    load::<[u128; 4]>(src.add(last).cast()),
                );
            }
            _ => return long_copy(dest, src, n),
        }
    }
    dest
}

/// Copies the first and the last `size_of::<T>()` bytes of `n`, which together cover
/// them all (`size_of::<T>() <= n <= 2 * size_of::<T>()`).
///
/// # Safety
/// As [`copy`], with `n` in that range.
#[inline(always)]
unsafe fn ends<T>(dest: *mut u8, src: *const u8, n: usize) {
    let last = n - size_of::<T>();
    // SAFETY: both pieces lie inside `src[..n]` and `dest[..n]`, which do not overlap
    // (so the first store cannot change what the second load reads).
    unsafe {
        store(dest.cast(), load::<T>(src.cast()));
        store(dest.add(last).cast(), load::<T>(src.add(last).cast()));
    }
}

#[cfg(all(target_env = "musl", target_arch = "x86_64"))]
unsafe extern "C" {
    /// musl's own `memcpy`, as `--wrap` names it.
    #[link_name = "__real_memcpy"]
    fn long_copy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8;
}

/// Elsewhere (the tests on the host), the libc's own `memcpy`.
///
/// # Safety
/// As [`copy`].
#[cfg(not(all(target_env = "musl", target_arch = "x86_64")))]
unsafe fn long_copy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: as the caller promises.
    unsafe { core::ptr::copy_nonoverlapping(src, dest, n) };
    dest
}

/// Compares `n` bytes as `memcmp` does (as unsigned bytes: negative, zero or positive),
/// eight at a time; `bcmp`, which musl builds on `memcmp`, comes here too.
///
/// # Safety
/// As `memcmp`: both readable for `n` bytes.
#[cfg_attr(
    all(target_env = "musl", target_arch = "x86_64"),
    unsafe(export_name = "__wrap_memcmp")
)]
pub unsafe extern "C" fn compare(left: *const u8, right: *const u8, n: usize) -> i32 {
    let mut at = 0;
    // SAFETY: every load is inside `left[..n]` and `right[..n]`.
    unsafe {
        while at + 8 <= n {
            // Big-endian: the first byte that differs decides, as it does byte by byte.
            let a = u64::from_be(load::<u64>(left.add(at).cast()));
            let b = u64::from_be(load::<u64>(right.add(at).cast()));
            if a != b {
                return if a < b { -1 } else { 1 };
            }
            at += 8;
        }
        while at < n {
            let (a, b) = (*left.add(at), *right.add(at));
            if a != b {
                return i32::from(a) - i32::from(b);
            }
            at += 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::{compare, copy};

    /// Every length up to past [`super::LONG_COPY`], from every alignment of source and
    /// destination mod 16, copies exactly its bytes and touches nothing around them.
    #[test]
    fn copies_exactly_the_bytes_asked() {
        let source: Vec<u8> = (0..5000u32).map(|i| (i * 7 + 3) as u8).collect();
        let lengths = (0..=300).chain([511, 512, 513, 4095, 4096, 4097, 4500]);
        for n in lengths {
            for (from, to) in [(0, 0), (1, 3), (7, 0), (0, 9), (15, 15), (5, 12)] {
                let mut dest = vec![0xAAu8; n + 32];
                // SAFETY: both ranges are inside their vectors and apart.
                let back = unsafe { copy(dest.as_mut_ptr().add(to), source.as_ptr().add(from), n) };
                assert_eq!(back, dest[to..].as_mut_ptr(), "length {n}");
                assert_eq!(&dest[to..to + n], &source[from..from + n], "length {n}");
                assert!(dest[..to].iter().all(|&b| b == 0xAA), "before, length {n}");
                assert!(
                    dest[to + n..].iter().all(|&b| b == 0xAA),
                    "after, length {n}"
                );
            }
        }
    }

    /// The sign of every comparison is `Ord`'s on byte slices, for equal pieces, pieces
    /// that differ at each place (high bytes included), and every length to 40.
    #[test]
    fn compares_as_ordered_bytes() {
        for n in 0..=40 {
            let base: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            // SAFETY: both are `n` bytes long.
            assert_eq!(
                unsafe { compare(base.as_ptr(), base.clone().as_ptr(), n) },
                0
            );
            for at in 0..n {
                for other in [0u8, 1, 0x7f, 0x80, 0xfe, 0xff] {
                    let mut changed = base.clone();
                    changed[at] = other;
                    // SAFETY: both are `n` bytes long.
                    let got = unsafe { compare(base.as_ptr(), changed.as_ptr(), n) };
                    assert_eq!(got.signum(), base.cmp(&changed) as i32, "n {n} at {at}");
                    // SAFETY: as above.
                    let back = unsafe { compare(changed.as_ptr(), base.as_ptr(), n) };
                    assert_eq!(back.signum(), changed.cmp(&base) as i32, "n {n} at {at}");
                }
            }
        }
    }
}
