//! Generates a synthetic built site for benchmarks, deterministic from a seed.
//!
//! ```text
//! cargo run --release --example gen-site -- --pages 200000 [--seed 42] DIR
//! ```
//!
//! Hugo-like output: 50 sections with `post-N/index.html` pages and pagination
//! directories, 10% of pages in en/de hreflang pairs, 2% noindex, 1% redirect stubs,
//! pages of 4-8 KiB with a full `<head>` (canonical to self, stylesheet, script), a cover
//! image beside every 50th page, and CSS at the root. Files are written by one thread
//! per core.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

const WORDS: &[&str] = &[
    "static", "site", "sitemap", "search", "engine", "crawl", "index", "page", "content", "build",
    "deploy", "rust", "fast", "exact", "archive", "section", "release", "notes", "guide",
];

struct Args {
    pages: usize,
    seed: u64,
    dir: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut pages = None;
    let mut seed = 42;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pages" => pages = args.next().and_then(|v| v.replace('_', "").parse().ok()),
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--seed takes a number")?
            }
            "-h" | "--help" => return Err(String::new()),
            other if dir.is_none() && !other.starts_with('-') => dir = Some(PathBuf::from(other)),
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    Ok(Args {
        pages: pages.ok_or("--pages N is required")?,
        seed,
        dir: dir.ok_or("the output directory is required")?,
    })
}

/// Where page `i` goes, and what its head adds.
fn layout(i: usize, rng: &mut fastrand::Rng) -> (String, String) {
    let section = format!("section-{}", i % 50);
    let rel = if i % 10 == 9 {
        format!("{section}/page/{}/index.html", i / 10 + 2)
    } else if i % 10 == 3 {
        // Pages 20k+3 and 20k+13 are one post in German and English.
        let base = i - i % 20;
        let lang = if i % 20 == 3 { "de" } else { "en" };
        format!("{lang}/section-{}/post-{base}/index.html", base % 50)
    } else {
        format!("{section}/post-{i}/index.html")
    };
    let url = format!("/{}", rel.trim_end_matches("index.html"));
    let mut extra = String::new();
    let r = rng.f64();
    if r < 0.02 {
        extra.push_str("<meta name=\"robots\" content=\"noindex\">\n");
    } else if r < 0.03 {
        extra.push_str("<meta http-equiv=\"refresh\" content=\"0; url=/\">\n");
    }
    if let Some(rest) = url
        .strip_prefix("/en/")
        .or_else(|| url.strip_prefix("/de/"))
    {
        let (lang, other) = if url.starts_with("/en/") {
            ("en", "de")
        } else {
            ("de", "en")
        };
        let _ = writeln!(
            extra,
            "<link rel=\"alternate\" hreflang=\"{lang}\" href=\"https://example.org{url}\">"
        );
        let _ = writeln!(
            extra,
            "<link rel=\"alternate\" hreflang=\"{other}\" href=\"https://example.org/{other}/{rest}\">"
        );
    }
    (rel, extra)
}

fn page(url: &str, extra: &str, size: usize, rng: &mut fastrand::Rng) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{url}</title>\n<meta name=\"description\" content=\"A generated page for benchmarks.\">\n\
         <link rel=\"canonical\" href=\"https://example.org{url}\">\n\
         <link rel=\"stylesheet\" href=\"/css/main.3f2a9c.css\">\n\
         <script src=\"/js/app.8b1d.js\" defer></script>\n{extra}</head>\n<body>\n\
         <header><nav><a href=\"/\">Home</a></nav></header>\n<main>\n<h1>{url}</h1>\n"
    );
    while html.len() < size {
        html.push_str("<p>");
        for w in 0..40 {
            if w > 0 {
                html.push(' ');
            }
            html.push_str(WORDS[rng.usize(..WORDS.len())]);
        }
        html.push_str("</p>\n");
    }
    html.push_str("</main>\n<footer>footer</footer>\n</body>\n</html>\n");
    html
}

/// Writes pages `i` with `i % workers == worker`; each page's randomness comes from its
/// own seed, so the output does not depend on the number of workers.
fn write_pages(
    dir: &Path,
    pages: usize,
    seed: u64,
    worker: usize,
    workers: usize,
) -> std::io::Result<()> {
    for i in (worker..pages).step_by(workers) {
        let mut rng =
            fastrand::Rng::with_seed(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (rel, extra) = layout(i, &mut rng);
        let path = dir.join(&rel);
        let url = format!("/{}", rel.trim_end_matches("index.html"));
        let size = 3500 + rng.usize(..4000);
        fs::create_dir_all(path.parent().expect("pages are in directories"))?;
        fs::write(&path, page(&url, &extra, size, &mut rng))?;
        if i % 50 == 0 {
            let mut cover = vec![0xff, 0xd8, 0xff];
            cover.extend((0..512).map(|_| rng.u8(..)));
            fs::write(path.with_file_name("cover.jpg"), cover)?;
        }
    }
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("gen-site: {e}");
            }
            eprintln!("usage: cargo run --release --example gen-site -- --pages N [--seed S] DIR");
            std::process::exit(2);
        }
    };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let result = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let dir = &args.dir;
                scope.spawn(move || write_pages(dir, args.pages, args.seed, w, workers))
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("a writer panicked"))
    });
    let css = fs::create_dir_all(args.dir.join("css")).and_then(|()| {
        fs::write(
            args.dir.join("css/main.3f2a9c.css"),
            "body { font-family: sans-serif; }\n",
        )
    });
    if let Err(e) = result.and(css) {
        eprintln!("gen-site: cannot write under {}: {e}", args.dir.display());
        std::process::exit(1);
    }
}
