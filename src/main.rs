//! The `sitemapgen` binary: all of it lives in the library; see [`sitemapgen::cli`].
//! What is here is how the binary is built: its allocator and, for the static x86-64
//! musl build, faster string functions than musl's.

// The loops in `musl_string` must not be turned back into the calls they replace.
#![no_builtins]

#[cfg(any(test, all(target_env = "musl", target_arch = "x86_64")))]
#[path = "main/musl_string.rs"]
mod musl_string;

/// musl's own allocator serves the static release binaries badly: it hands freed memory
/// back to the system at once and takes a lock per call, and a run of many threads
/// allocating per page spent twice glibc's system time in it (BENCHMARKS.md, "As
/// shipped"). mimalloc keeps per-thread heaps.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    fixed_mmap_threshold();
    prompt_purging();
    std::process::exit(sitemapgen::cli::main());
}

/// Keeps glibc's allocator mapping every block over 128 KiB apart, as it does at first.
/// Left to itself it raises that threshold as big blocks are freed (the walk's lists,
/// when they are merged), then serves the next big ones from its heap, where each
/// doubling of a growing list leaves the old copy behind; mapped apart, a list grows by
/// remapping, and what is freed goes back to the system. On a million pages the peak is
/// 20 MB lower.
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; no thread has started yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// mimalloc's options, by their place in `mi_option_e` (mimalloc.h, v2 and v3 alike).
#[cfg(target_env = "musl")]
mod mi {
    /// Commit an arena's memory at once (default 2: on overcommitting systems).
    pub const ARENA_EAGER_COMMIT: i32 = 4;
    /// How long freed memory waits before it goes back to the system.
    pub const PURGE_DELAY: i32 = 15;
    /// `PURGE_DELAY`'s defaults (10 ms in mimalloc 2, 1,000 ms in 3), which tell that
    /// the place is right.
    pub const PURGE_DELAY_DEFAULTS: [std::ffi::c_long; 2] = [10, 1000];
}

/// Makes mimalloc give freed memory back at once and commit arenas as they are used:
/// left to its defaults, the peak of a default run on 200,000 pages was 80 MB against
/// 28 MB for musl's own allocator; with these, 35 MB, at the same speed.
fn prompt_purging() {
    #[cfg(target_env = "musl")]
    // SAFETY: mi_option_get and mi_option_set only read and write mimalloc's option
    // table; no other thread has started yet.
    unsafe {
        use libmimalloc_sys::{mi_option_get, mi_option_set};
        // Only where the option's place holds its default: a renumbered enum must not
        // set another option.
        if mi::PURGE_DELAY_DEFAULTS.contains(&mi_option_get(mi::PURGE_DELAY)) {
            mi_option_set(mi::PURGE_DELAY, 0);
            mi_option_set(mi::ARENA_EAGER_COMMIT, 0);
        }
    }
}
