//! Writes a sharded site's output for `bench/shards.sh`: URLS entries (default
//! 10,000,000, with lastmod, changefreq and priority) in SHARDS shards (default 10), each
//! written by the shard writer `build --shard` uses (children, side file, manifest) into
//! DIR. No HTML: the merge reads only what the shards wrote.
//!
//! ```text
//! cargo run --release --example bench-shards -- DIR [URLS] [SHARDS]
//! ```

use std::path::PathBuf;

use jiff::Timestamp;
use sitemapgen::rules::{Changefreq, Priority};
use sitemapgen::shard::{self, ShardBuild};
use sitemapgen::sitemap::{ChildPrefix, Entries, Entry, Form, Group, Limits};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .expect("usage: bench-shards DIR [URLS] [SHARDS]"),
    );
    let number = |arg: Option<String>, default: usize| {
        arg.and_then(|a| a.replace('_', "").parse().ok())
            .unwrap_or(default)
    };
    let urls = number(args.next(), 10_000_000);
    let shards = number(args.next(), 10).max(1);
    std::fs::create_dir_all(&dir).expect("the output directory can be created");
    let output = dir.join("sitemap.xml");
    let prefix = ChildPrefix {
        loc_prefix: "https://example.org/".to_string(),
    };
    let per_shard = urls.div_ceil(shards);
    for s in 0..shards {
        let first = s * per_shard;
        let last = (first + per_shard).min(urls);
        let entries: Entries = (first..last)
            .map(|i| Entry {
                loc: format!("https://example.org/part-{s}/post-{i}/").into(),
                lastmod: Timestamp::from_second(1_700_000_000 + i as i64).ok(),
                changefreq: Some(Changefreq::Weekly),
                priority: Priority::new(0.5),
                extras: None,
            })
            .collect();
        let name = format!("part-{s}");
        let build = ShardBuild {
            name: &name,
            output: &output,
            base_url: "https://example.org/",
            url_form: shard::UrlForm {
                trailing_slash: true,
                clean_urls: false,
                clean_slash: false,
                dotted_bare: false,
            },
            prefix: &prefix,
            changes: None,
            about: None,
            sections: &[],
        };
        let groups = [Group {
            section: None,
            entries: entries.as_slice(),
        }];
        let written = shard::write(&build, &groups, Limits::default(), Form::default())
            .expect("the shard is written");
        println!(
            "{}: {} URLs in {} sitemaps",
            written.path.display(),
            last - first,
            written.children.len()
        );
    }
}
