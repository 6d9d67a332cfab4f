//! Properties over random site trees with hostile names.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use proptest::prelude::*;
use sitemapgen::urls::{BaseUrl, UrlStyle, page_url};

use crate::util::{Site, locs};

/// Pieces of names: every class of character the URL mapping treats differently.
const PIECES: &[&str] = &[
    "a", "Z", "0", " ", "&", "<", ">", "\"", "'", "%", "%41", "#", "?", "+", "=", ";", ":", "@",
    "!", "$", "(", ")", "*", ",", "-", "_", "~", "[", "]", "ü", "e\u{301}", "日本", "😀", "index",
    ".",
];

fn segment() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 1..6).prop_map(|p| p.concat())
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
            "base_url = 'https://example.org/b/'\nlastmod = 'none'\ntrailing_slash = {trailing_slash}\nclean_urls = {clean_urls}\n"
        ));
        site.cmd().arg("-q").assert().success();

        let base = BaseUrl::parse("https://example.org/b/").unwrap();
        let style = UrlStyle { trailing_slash, clean_urls };
        let want: BTreeSet<String> = paths.iter().map(|p| page_url(&base, p, &style)).collect();
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
                let url = page_url(&base, path, &style);
                let decoded = percent_encoding::percent_decode_str(&url["https://example.org/b/".len()..]).collect::<Vec<u8>>();
                let rel = path.to_str().unwrap();
                let is_index = path.file_name().is_some_and(|n| n == "index.html");
                let want = if is_index { rel.strip_suffix("index.html").unwrap() } else { rel };
                prop_assert_eq!(decoded, want.as_bytes().to_vec());
            }
        }
        fs::remove_dir_all(site.public()).unwrap();
    }
}
