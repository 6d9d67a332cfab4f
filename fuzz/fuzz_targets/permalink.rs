//! Arbitrary permalink patterns and values: filling one is a single pass, so the output
//! path is never longer than the pattern with each of its characters replaced by the
//! longest value (a value is never read for placeholders again), plus `/index.html`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::generators::route::expand;

fuzz_target!(|input: (&str, &str, &str)| {
    let (pattern, title, slug) = input;
    let fields = [(":title", title.to_string()), (":slug", slug.to_string()), (":year", "2024".to_string())];
    let out = expand(pattern, &fields);
    // Each character of the pattern gives at most the longest value; then the output
    // file's `/index.html`. Percent-decoding only shortens.
    let longest = title.len().max(slug.len()).max(4);
    assert!(out.len() <= pattern.len() * longest + "/index.html".len(), "{pattern:?} -> {out:?}");
});
