//! Arbitrary bytes as file names: the URL is always absolute ASCII under the base, and
//! percent-decodes back to the path's bytes.
#![no_main]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use sitemapgen::urls::{BaseUrl, UrlStyle, page_url};

fuzz_target!(|data: &[u8]| {
    let base = BaseUrl::parse("https://example.org/base/").unwrap();
    let segments: Vec<&[u8]> = data
        .split(|&b| b == b'/' || b == 0)
        .filter(|s| !s.is_empty() && *s != b"." && *s != b"..")
        .collect();
    if segments.is_empty() {
        return;
    }
    let mut rel = PathBuf::new();
    for s in &segments {
        rel.push(OsStr::from_bytes(s));
    }
    let style = UrlStyle {
        trailing_slash: true,
        clean_urls: false,
        clean_slash: false,
        dotted_bare: false,
    };
    let url = page_url(&base, &rel, &style);
    assert!(url.is_ascii(), "{url}");
    assert!(url.starts_with(base.as_str()), "{url}");
    assert!(
        !url.bytes()
            .any(|b| b.is_ascii_whitespace() || b"<>\"{}|\\^`".contains(&b)),
        "{url}"
    );
    let decoded: Vec<u8> =
        percent_encoding::percent_decode_str(&url[base.as_str().len()..]).collect();
    let mut want = segments.join(&b'/');
    if segments.last() == Some(&&b"index.html"[..]) || segments.last() == Some(&&b"index.htm"[..]) {
        let name_len = segments.last().unwrap().len();
        want.truncate(want.len() - name_len);
    }
    assert_eq!(decoded, want, "{url}");
    // The other styles never panic either.
    for (trailing_slash, clean_urls) in [(false, false), (true, true), (false, true)] {
        let url = page_url(
            &base,
            &rel,
            &UrlStyle {
                trailing_slash,
                clean_urls,
                clean_slash: clean_urls && trailing_slash,
                dotted_bare: trailing_slash,
            },
        );
        assert!(url.is_ascii() && url.starts_with(base.as_str()));
    }
});
