//! Properties over random site trees with hostile names: the real binary's sitemap
//! against the guide's mapping rules ("How files become URLs"), restated here apart
//! from `sitemapgen::urls`.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use proptest::prelude::*;

use crate::util::{Site, locs, slashed};

const BASE: &str = "https://example.org/b/";

/// Pieces of names: every class of character the URL mapping treats differently.
const PIECES: &[&str] = &[
    "a", "Z", "0", " ", "&", "<", ">", "\"", "'", "%", "%41", "#", "?", "+", "=", ";", ":", "@",
    "!", "$", "(", ")", "*", ",", "-", "_", "~", "[", "]", "ü", "e\u{301}", "日本", "😀", "index",
    ".",
];

/// The pieces a name may hold here: Windows refuses `<>:"|?*` in a file name.
fn pieces() -> Vec<&'static str> {
    let refused = |p: &str| cfg!(windows) && p.contains(['<', '>', ':', '"', '|', '?', '*']);
    PIECES.iter().copied().filter(|p| !refused(p)).collect()
}

fn segment() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(pieces()), 1..6).prop_map(|p| p.concat())
}

fn page_path() -> impl Strategy<Value = PathBuf> {
    (
        prop::collection::vec(segment(), 0..3),
        segment(),
        any::<bool>(),
    )
        .prop_map(|(dirs, name, index)| {
            let mut path = PathBuf::new();
            for dir in dirs {
                // Directories never end like pages, and nothing is a dot-file.
                path.push(format!("d{dir}d"));
            }
            path.push(if index {
                "index.html".to_string()
            } else {
                format!("p{name}.html")
            });
            path
        })
}

/// The URL of a generated page path (`/`-separated, every directory `d...d`, every page
/// `index.html` or `p....html`) under `BASE`, by the guide's rules: `index.html` is its
/// directory (with a trailing slash, or without one except at the root), other pages keep
/// their name or, with clean URLs, lose their `.html`; each segment percent-encoded.
fn expected_url(path: &str, trailing_slash: bool, clean_urls: bool) -> String {
    let mut dirs: Vec<&str> = path.split('/').collect();
    let file = dirs.pop().unwrap();
    let mut url = String::from(BASE);
    for dir in &dirs {
        url.push_str(&encoded(dir));
        url.push('/');
    }
    if file == "index.html" {
        if !trailing_slash && !dirs.is_empty() {
            url.pop();
        }
    } else if clean_urls {
        url.push_str(&encoded(file.strip_suffix(".html").unwrap()));
    } else {
        url.push_str(&encoded(file));
    }
    url
}

/// RFC 3986's `pchar`: unreserved characters, sub-delims, `:` and `@` stay; every other
/// byte of the name's UTF-8 becomes `%XX`, upper-case hex (no Unicode normalisation).
fn encoded(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_sitemap_lists_exactly_the_mapped_urls(
        paths in prop::collection::btree_set(page_path(), 1..25),
        trailing_slash in any::<bool>(),
        clean_urls in any::<bool>(),
    ) {
        let site = Site::new(&[]);
        for path in &paths {
            site.page(path);
        }
        site.config(&format!(
            "base_url = '{BASE}'\nlastmod = 'none'\ntrailing_slash = {trailing_slash}\nclean_urls = {clean_urls}\n"
        ));
        site.cmd().arg("-q").assert().success();

        let url = |p: &PathBuf| expected_url(&slashed(p), trailing_slash, clean_urls);
        let want: BTreeSet<String> = paths.iter().map(url).collect();
        let got = locs(&site.public().join("sitemap.xml"));
        let unique: BTreeSet<String> = got.iter().cloned().collect();
        prop_assert_eq!(unique.len(), got.len(), "duplicate locs");
        prop_assert_eq!(&unique, &want);
        for loc in &got {
            prop_assert!(loc.is_ascii() && loc.len() < 2048, "{}", loc);
            prop_assert!(!loc.contains(' ') && !loc.contains('<') && !loc.contains('"'), "{}", loc);
        }
        // Without clean URLs each page's URL decodes back to its path's bytes.
        if !clean_urls && trailing_slash {
            for path in &paths {
                let decoded = percent_encoding::percent_decode_str(&url(path)[BASE.len()..]).collect::<Vec<u8>>();
                let rel = slashed(path);
                let is_index = path.file_name().is_some_and(|n| n == "index.html");
                let want = if is_index { rel.strip_suffix("index.html").unwrap() } else { &rel };
                prop_assert_eq!(decoded, want.as_bytes().to_vec());
            }
        }
        fs::remove_dir_all(site.public()).unwrap();
    }
}
