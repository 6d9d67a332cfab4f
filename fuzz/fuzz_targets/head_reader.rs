//! Arbitrary bytes as a page: the head reader and the content fingerprint never panic,
//! a page held in memory (read by the fast scan) gives what it gives streamed, and its
//! head and body read in one pass are what the two passes give.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::page::{
    BodyWants, HeadBuffers, HeadOptions, read_body, read_body_held, read_head, read_page_held,
};

fuzz_target!(|data: &[u8]| {
    let options = HeadOptions {
        about: true,
        ..HeadOptions::default()
    };
    let head = read_head(data, &options, None, &mut HeadBuffers::default()).unwrap();
    if let Some(date) = &head.modified {
        let _ = sitemapgen::lastmod::parse_date(date);
    }
    if let Some(refresh) = &head.refresh {
        assert!(!refresh.is_empty());
    }
    let wants = BodyWants {
        images: true,
        fingerprint: true,
    };
    let body = read_body(data, wants).unwrap();
    assert_eq!(body.fingerprint.map(|fp| fp.to_string().len()), Some(32));
    assert_eq!(read_body_held(data, wants), body);
    assert_eq!(read_page_held(data, &options, wants), (head, body));
});
