//! For the static (musl) builds only: compiles `src/main/mimalloc_options.c`, which sets
//! mimalloc's options by their names, against the mimalloc.h that libmimalloc-sys builds
//! the allocator from.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/main/mimalloc_options.c");
    if std::env::var("CARGO_CFG_TARGET_ENV").as_deref() != Ok("musl") {
        return;
    }
    let Ok(include) = std::env::var("DEP_MIMALLOC_INCLUDE_DIR") else {
        panic!(
            "libmimalloc-sys gave no include directory (DEP_MIMALLOC_INCLUDE_DIR): it must stay a direct dependency of musl builds"
        );
    };
    cc::Build::new()
        .file("src/main/mimalloc_options.c")
        .include(include)
        .compile("sitemapgen_mimalloc_options");
}
