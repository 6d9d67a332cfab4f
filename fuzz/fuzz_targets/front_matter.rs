//! Arbitrary text as a source file's front matter (YAML, TOML, field lists): the reader
//! never panics, overflows its stack or takes memory past its bounds (libFuzzer's
//! `-rss_limit_mb` and `-timeout` catch the last two), and a YAML document it refuses
//! is refused alike by the config reader `init` uses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::generators::read::{yaml, yaml_first};
use sitemapgen::lastmod::source::front_matter::parse;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let keys = ["lastmod".to_string(), "last_update.date".to_string()];
    let fm = parse(&text, &keys);
    if fm.refused.is_some() {
        assert!(fm.updated.is_none() && fm.url.is_none());
    }
    let first = yaml_first(&text);
    if first.is_err() {
        assert!(yaml(&text).as_hash().is_some_and(|h| h.is_empty()));
    }
});
