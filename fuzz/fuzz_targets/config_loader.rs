//! Arbitrary TOML: the config loader gives a config or an error, never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sitemapgen::config::{Config, FileConfig, Overrides};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = FileConfig::parse(text, "fuzz.toml") else {
        return;
    };
    let dir = std::env::temp_dir();
    let mut overrides = Overrides::default();
    overrides.public_dir = Some(dir.clone());
    if let Err(e) = Config::from_parts(file, Some((Path::new(&dir), "fuzz.toml")), text, &overrides)
    {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
});
