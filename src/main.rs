//! The `sitemapgen` binary: all of it lives in the library; see [`sitemapgen::cli`].

fn main() {
    std::process::exit(sitemapgen::cli::main());
}
