//! Arbitrary bytes as a page: the head reader and the content fingerprint never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::lastmod::content::fingerprint_bytes;
use sitemapgen::page::{HeadOptions, parse_head};

fuzz_target!(|data: &[u8]| {
    let (head, _) = parse_head(data, &HeadOptions::default());
    if let Some(date) = &head.modified {
        let _ = sitemapgen::lastmod::parse_date(date);
    }
    if let Some(refresh) = &head.refresh {
        assert!(!refresh.is_empty());
    }
    let fp = fingerprint_bytes(data);
    assert_eq!(fp.len(), 32);
});
