//! Arbitrary bytes as a sitemap (XML and text): the checker reports, never panics, and
//! every problem is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::check::{CheckOptions, check_bytes};

fuzz_target!(|data: &[u8]| {
    let base_url = sitemapgen::urls::BaseUrl::parse("https://example.org/").unwrap();
    let mut options = CheckOptions::new(Some(base_url));
    options.now = jiff::Timestamp::from_second(1_800_000_000).unwrap();
    for name in ["sitemap.xml", "sitemap.txt"] {
        let report = check_bytes(name, data, &options);
        for problem in &report.problems {
            assert!(!problem.to_string().contains('\n'), "{problem}");
        }
    }
});
