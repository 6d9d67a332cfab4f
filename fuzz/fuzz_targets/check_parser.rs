//! Arbitrary bytes as a sitemap (XML and text): the checker reports, never panics, and
//! every problem is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::check::{CheckOptions, check_bytes};

fuzz_target!(|data: &[u8]| {
    let options = CheckOptions {
        base_url: Some(sitemapgen::urls::BaseUrl::parse("https://example.org/").unwrap()),
        now: jiff::Timestamp::from_second(1_800_000_000).unwrap(),
        written_by_us: false,
    };
    for name in ["sitemap.xml", "sitemap.txt"] {
        let report = check_bytes(name, data, &options);
        for problem in &report.problems {
            assert!(!problem.to_string().contains('\n'), "{problem}");
        }
    }
});
