//! Times the sitemap writer alone on in-memory entries (no walk, no page reads).
//!
//! ```text
//! cargo run --release --example bench-writer -- [URLS] [DIR]
//! ```
//!
//! Serialises URLS entries (default 1,000,000, with lastmod, changefreq and priority)
//! to memory in 50,000-URL sitemaps, best of 5 runs; then, with DIR, writes them as real
//! files (index + children, synced and renamed) there, plain and gzipped. Prints URLs per
//! second.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use sitemapgen::rules::{Changefreq, Priority};
use sitemapgen::sitemap::Form;
use sitemapgen::sitemap::{self, ChildPrefix, Entries, Entry, Limits};

fn main() {
    let mut args = std::env::args().skip(1);
    let urls: usize = args
        .next()
        .and_then(|a| a.replace('_', "").parse().ok())
        .unwrap_or(1_000_000);
    let dir = args.next().map(PathBuf::from);
    let entries: Entries = (0..urls)
        .map(|i| Entry {
            loc: format!("https://example.org/section-{}/post-{i}/", i % 50).into(),
            lastmod: Timestamp::from_second(1_700_000_000 + i as i64).ok(),
            changefreq: Some(Changefreq::Weekly),
            priority: Priority::new(0.5),
            extras: None,
        })
        .collect();
    let limits = Limits::default();

    let mut best = Duration::MAX;
    let mut bytes = 0;
    for _ in 0..5 {
        let mut out = std::io::sink();
        let mut counted = Counting(&mut out, 0);
        let start = Instant::now();
        let mut rest = entries.as_slice();
        while !rest.is_empty() {
            let (part, after) = rest.split_at(limits.max_urls);
            rest = after;
            sitemap::write_single(&mut counted, part, limits, Form::default())
                .expect("writes to a sink");
        }
        best = best.min(start.elapsed());
        bytes = counted.1;
    }
    println!(
        "serialise: {urls} URLs ({:.1} MB) in {:.0} ms: {:.2} million URLs/s",
        bytes as f64 / 1e6,
        best.as_secs_f64() * 1e3,
        urls as f64 / best.as_secs_f64() / 1e6
    );

    if let Some(dir) = dir {
        std::fs::create_dir_all(&dir).expect("the output directory can be created");
        let prefix = ChildPrefix {
            loc_prefix: "https://example.org/".to_string(),
        };
        for gzip in [false, true] {
            let form = Form {
                gzip,
                ..Form::default()
            };
            let output = dir.join(if gzip {
                "sitemap.xml.gz"
            } else {
                "sitemap.xml"
            });
            let start = Instant::now();
            let written = sitemap::write_files(
                &output,
                &prefix,
                &[sitemap::Group {
                    section: None,
                    entries: entries.as_slice(),
                }],
                limits,
                form,
            )
            .expect("the sitemap files can be written");
            let took = start.elapsed();
            let size: u64 = std::iter::once(&written.path)
                .chain(&written.children)
                .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
                .sum();
            println!(
                "write files{}: {urls} URLs into {} sitemaps + index ({:.1} MB) in {:.0} ms: {:.2} million URLs/s",
                if gzip { " (gzip)" } else { "" },
                written.children.len(),
                size as f64 / 1e6,
                took.as_secs_f64() * 1e3,
                urls as f64 / took.as_secs_f64() / 1e6
            );
        }
    }
}

/// Counts the bytes written through it.
struct Counting<W>(W, usize);

impl<W: std::io::Write> std::io::Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        self.1 += n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
