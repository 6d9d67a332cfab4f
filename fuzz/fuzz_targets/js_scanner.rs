//! Arbitrary text as a JavaScript or Python config: `init`'s scanners never panic, and
//! each takes time linear in the text (libFuzzer's `-timeout` catches one that does not).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemapgen::generators::read::{js_bool, js_string_pairs, js_value, js_value_in, py_value, read_export};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for key in ["site", "base", "outDir", "trailingSlash"] {
        let _ = js_value(&text, key);
        let _ = js_bool(&text, key);
        let _ = js_value_in(&text, "build", key);
        let _ = py_value(&text, key);
    }
    let _ = js_string_pairs(&text, "rewrites");
    let _ = read_export(&text, "default");
});
