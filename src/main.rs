//! The `sitemapgen` binary: all of it lives in the library; see [`sitemapgen::cli`].
//! What is here is how the binary is built: its allocator, and how each allocator is told
//! to give memory back.

/// musl's own allocator serves the static (musl) builds badly: it hands freed memory back
/// to the system at once and takes a lock per call, so a run of many threads allocating
/// per page spends its time in the kernel and waiting (BENCHMARKS.md, "As shipped").
/// mimalloc keeps per-thread heaps. The glibc builds keep glibc's allocator.
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
/// remapping, and what is freed goes back to the system, which lowers the peak on large
/// sites (BENCHMARKS.md, "Memory at a million pages").
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; no thread has started yet.
    // (libc is the only crate that binds it; std has no allocator tuning.)
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Makes mimalloc give freed memory back at once and commit arenas as they are used: left
/// to its defaults, it keeps freed memory for a while and a run's peak is more than twice
/// as high, at the same speed (BENCHMARKS.md, "As shipped").
fn prompt_purging() {
    #[cfg(target_env = "musl")]
    {
        // Set in C by the options' names in mimalloc.h (src/main/mimalloc_options.c):
        // libmimalloc-sys does not name these two, and no other crate sets them safely.
        #[allow(unsafe_code)]
        unsafe extern "C" {
            fn sitemapgen_mimalloc_purge_promptly();
        }
        // SAFETY: the function only calls mi_option_set, which writes mimalloc's option
        // table; no other thread has started yet.
        #[allow(unsafe_code)]
        unsafe {
            sitemapgen_mimalloc_purge_promptly();
        }
    }
}
