/* mimalloc's options for the static (musl) builds, set by their names.
 *
 * libmimalloc-sys names only some of mimalloc's options; these two it leaves out, and
 * from Rust they could only be set by their place in `mi_option_e`, which mimalloc
 * renumbers between versions. Compiled against the very mimalloc.h the allocator is
 * built from (build.rs), a renamed option fails the build and a renumbered one moves
 * with it. src/main.rs says why these values. */
#include <mimalloc.h>

void sitemapgen_mimalloc_purge_promptly(void) {
  mi_option_set(mi_option_purge_delay, 0);
  mi_option_set(mi_option_arena_eager_commit, 0);
}
