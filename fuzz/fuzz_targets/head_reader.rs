//! Arbitrary bytes as a page: no reader panics, and every reader makes of it, read by
//! the fast scan whole or in parts, what it makes of it read by html5gum alone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::page::{HeadOptions, Wants, read_by_html5gum, read_held, read_in_parts};

/// Source links as a run ranks them.
fn ranks(href: &str) -> Option<usize> {
    ["/edit/", "_sources/"].iter().position(|m| href.contains(m))
}

fuzz_target!(|data: &[u8]| {
    let wants = Wants {
        head: Some(HeadOptions {
            about: true,
            ..HeadOptions::default()
        }),
        images: true,
        fingerprint: true,
        body_date: true,
        text: true,
    };
    let read = read_held(data, &wants, Some(&ranks));
    if let Some(date) = &read.head.modified {
        let _ = sitemapgen::lastmod::parse_date(date);
    }
    if let Some(refresh) = &read.head.refresh {
        assert!(!refresh.is_empty());
    }
    assert_eq!(read.fingerprint.map(|fp| fp.to_string().len()), Some(32));
    let want = read_by_html5gum(data, &wants, Some(&ranks));
    assert_eq!(read, want);
    for first in [1, 7] {
        assert_eq!(read_in_parts(data, &wants, Some(&ranks), first), want);
    }
});
