//! What the hosts' files (`_redirects`, `_headers`, `firebase.json`, `vercel.json`)
//! made the matching of their rules take (the fourth hardening round, issue 61), each
//! pinned through the real binary under the bounds of `hostile`: a rule that does not
//! fit is refused by its line, and the others still apply.

use std::fs;

use crate::hostile::{assert_survived, bounded};
use crate::util::{Site, locs};

/// The word `\w{20}` matches.
const WORD: &str = "abcdefghijabcdefghij";

/// A site of `pages` pages `p<i>/<WORD>/index.html`, `drafts/a/index.html` and
/// `kept/index.html`.
fn site(pages: usize) -> Site {
    let mut paths: Vec<String> = (0..pages)
        .map(|i| format!("p{i}/{WORD}/index.html"))
        .collect();
    paths.extend([
        "drafts/a/index.html".to_string(),
        "kept/index.html".to_string(),
    ]);
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let site = Site::new(&paths);
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site
}

/// A headers rule of `vercel.json` or `firebase.json` that sets noindex (written
/// otherwise than sitemapgen writes its own, which it would take away).
fn noindex(key: &str, pattern: &str) -> String {
    let pattern = serde_json::to_string(pattern).unwrap();
    format!(
        "    {{\"{key}\": {pattern}, \"headers\": [{{\"key\": \"X-Robots-Tag\", \"value\": \"noindex\"}}]}}"
    )
}

/// The line of the first warning that names `file` and a pattern it refuses.
fn refused_line(stderr: &str, file: &str) -> usize {
    let at = stderr
        .find(&format!("{file}:"))
        .unwrap_or_else(|| panic!("no warning names {file}: {stderr}"));
    let rest = &stderr[at + file.len() + 1..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    assert!(
        rest[digits.len()..].starts_with(": cannot use the pattern"),
        "{stderr}"
    );
    digits.parse().unwrap()
}

/// 10,000 headers rules of `\w{20}` (Unicode: 350 KiB of automaton each) in a 859 KB
/// `firebase.json` took 4 GB and 42 s, then aborted; in `vercel.json`'s form, 2 GB; 300
/// of them took 445 MB and then every rule was dropped ("too many to match"). Those
/// that fit are applied, the rest are refused by their line, and a literal rule after
/// them still applies.
#[test]
fn regular_expressions_past_the_cap_are_refused_and_the_rest_apply() {
    let cases = [
        ("firebase.json", "regex", "/p{i}/\\w{20}/?", "/drafts/**"),
        (
            "vercel.json",
            "source",
            "/p{i}/:id(\\w{20})/",
            "/drafts/(.*)",
        ),
    ];
    for (file, key, form, drafts) in cases {
        let site = site(3);
        let mut rules: Vec<String> = (0..2_000)
            .map(|i| noindex(key, &form.replace("{i}", &i.to_string())))
            .collect();
        rules.push(noindex("source", drafts));
        let rules = rules.join(",\n");
        let text = match file {
            "firebase.json" => format!(
                "{{\n  \"hosting\": {{\n  \"public\": \"public\",\n  \"headers\": [\n{rules}\n  ]\n}}}}\n"
            ),
            _ => format!("{{\n  \"headers\": [\n{rules}\n  ]\n}}\n"),
        };
        fs::write(site.root().join(file), text).unwrap();
        let run = bounded(site.root(), &["build"]);
        assert_survived(file, &run, "took the 16 MiB they are given");
        let more = "more of the host's rules are not applied";
        assert!(run.stderr.contains(more), "{}", run.stderr);
        // Rule i is on line i + 5 (firebase.json) or i + 3: one past those that fit.
        let line = refused_line(&run.stderr, file);
        assert!((15..100).contains(&line), "{file}: line {line}");
        // p0-p2 left out by the first rules, drafts by the last.
        assert_eq!(
            locs(&site.public().join("sitemap.xml")),
            ["https://example.org/kept/"],
            "{file}"
        );
    }
}

/// 10,000 `_redirects` and 10,000 `_headers` rules over 20,000 pages took 41.5 s and
/// 612 MB (0.18 s and 12.5 MB without them): 13 s to set them up, then 1.2-3 ms a
/// page. Literal and prefix rules are looked up and the others matched as one set.
#[test]
fn many_rules_over_many_pages_are_matched_together() {
    let site = site(2_000);
    let mut redirects = String::new();
    let mut headers = String::new();
    // 9,999 and the one for drafts: the most of each kind kept.
    for i in 0..9_999 {
        if i % 2 == 0 {
            redirects.push_str(&format!("/old{i}/:slug  /new/:slug  301!\n"));
            headers.push_str(&format!("/p{i}/{WORD}/*\n  X-Robots-Tag: noindex\n"));
        } else {
            redirects.push_str(&format!("/gone{i}/*  /new/:splat  301!\n"));
            headers.push_str(&format!("/r{i}/:x/*.html\n  X-Robots-Tag: noindex\n"));
        }
    }
    redirects.push_str("/drafts/*  /x/  301!\n");
    fs::write(site.public().join("_redirects"), redirects).unwrap();
    fs::write(site.public().join("_headers"), headers).unwrap();
    let run = bounded(site.root(), &["build", "-v"]);
    assert_survived(
        "20,000 rules",
        &run,
        "drafts/a/index.html: redirected (public/_redirects:10000)",
    );
    assert!(
        run.stderr
            .contains("noindex (host headers: public/_headers:2)"),
        "{}",
        run.stderr
    );
    // The odd pages, and kept/.
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), 1_001);
}

/// One 4 MiB pattern took 423 MB before it was refused. It is refused by its length
/// before anything is built of it, naming its line, and the next rule applies.
#[test]
fn a_pattern_past_the_longest_is_refused_by_its_line() {
    let long = format!("/{}", "a".repeat(4 * 1024 * 1024 - 100));
    let files = [
        (
            "_redirects",
            format!("{long}  /x  301!\n/drafts/*  /x/  301!\n"),
        ),
        (
            "_headers",
            format!("{long}\n  X-Robots-Tag: noindex\n/drafts/*\n  X-Robots-Tag: noindex\n"),
        ),
    ];
    for (file, text) in files {
        let site = site(1);
        fs::write(site.public().join(file), text).unwrap();
        let run = bounded(site.root(), &["build"]);
        assert_survived(
            file,
            &run,
            &format!("public/{file}:1: cannot use the pattern \"/aaaa"),
        );
        assert!(
            run.stderr
                .contains("it is 4,194,205 bytes long, and the most read is 1,024"),
            "{}",
            run.stderr
        );
        assert_eq!(
            locs(&site.public().join("sitemap.xml")),
            [
                "https://example.org/kept/".to_string(),
                format!("https://example.org/p0/{WORD}/"),
            ],
            "{file}"
        );
    }
}
