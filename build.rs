//! Links the static x86-64 musl binary's `memcpy` and `memcmp` calls to its own
//! (`src/main/musl_string.rs` says why).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if env == "musl" && arch == "x86_64" {
        for function in ["memcpy", "memcmp"] {
            println!("cargo::rustc-link-arg-bins=-Wl,--wrap={function}");
        }
    }
}
