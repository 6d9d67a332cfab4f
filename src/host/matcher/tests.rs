use super::*;
use crate::host::pattern::Syntax;

const SYNTAXES: [Syntax; 6] = [
    Syntax::Netlify { ignore_case: true },
    Syntax::Netlify { ignore_case: false },
    Syntax::Cloudflare,
    Syntax::PathToRegexp,
    Syntax::Glob { names: true },
    Syntax::Regex,
];

/// Patterns of every shape in every language, and paths at their edges: case (the Kelvin
/// sign is a `k` without case, `ſ` an `s`), trailing characters, line breaks.
const PATTERNS: [&str; 24] = [
    "/",
    "/docs",
    "/docs/",
    "/Docs/A.html",
    "/docs/*",
    "/docs*",
    "/*",
    "*",
    "/drafts-*",
    "/a//b",
    "/private/(.*)",
    "/docs/**",
    "**",
    "/k",
    "/s/*",
    "/a:b",
    "/a b",
    "/a.b",
    "/a?",
    "/a#",
    "/x/:id",
    "/x/*/y",
    "/ß/*",
    "/a/*",
];
const PATHS: [&str; 30] = [
    "/",
    "//",
    "",
    "/docs",
    "/docs/",
    "/DOCS",
    "/docs/a",
    "/docs/a/",
    "/docsx",
    "/doc",
    "/docs/a\nb",
    "/docs\n",
    "/Docs/A.html",
    "/docs/a.html",
    "/drafts-1/",
    "/a/b",
    "/a//b",
    "/private/x/y",
    "/private/",
    "/K",
    "/\u{212a}",
    "/\u{17f}/x",
    "/S/x",
    "/a:b",
    "/a#",
    "/a?",
    "/a/",
    "/x/7",
    "/x/7/y",
    "/ẞ/x",
];

#[test]
fn every_shape_matches_as_its_regular_expression() {
    for syntax in SYNTAXES {
        for written in PATTERNS {
            let Ok(pattern) = Pattern::new(written, syntax) else {
                continue;
            };
            let (matcher, refused) = Matcher::new(&[&pattern]);
            assert!(refused.is_empty());
            let re = regex::Regex::new(pattern.regex()).unwrap();
            for path in PATHS {
                let got = !matcher.matches(path).is_empty();
                let want = re.is_match(path);
                assert_eq!(got, want, "{syntax:?} {written:?} {path:?} ({pattern:?})");
            }
        }
    }
}

#[test]
fn literal_and_prefix_patterns_need_no_regular_expression() {
    let table = [
        ("/docs", Syntax::Netlify { ignore_case: true }, "exact"),
        ("/docs/*", Syntax::Netlify { ignore_case: false }, "prefix"),
        (
            "/docs/:slug",
            Syntax::Netlify { ignore_case: false },
            "regex",
        ),
        ("/docs/*", Syntax::Cloudflare, "prefix"),
        ("/private/(.*)", Syntax::PathToRegexp, "prefix"),
        ("/old/:path*", Syntax::PathToRegexp, "regex"),
        ("/blog/**", Syntax::Glob { names: true }, "prefix"),
        ("/blog", Syntax::Glob { names: true }, "exact"),
        ("/blog", Syntax::Regex, "regex"),
    ];
    for (written, syntax, want) in table {
        let got = match Pattern::new(written, syntax).unwrap().shape() {
            Shape::Exact { .. } => "exact",
            Shape::Prefix { .. } => "prefix",
            Shape::Regex { .. } => "regex",
        };
        assert_eq!(got, want, "{written} {syntax:?}");
    }
}

#[test]
fn a_pattern_too_large_alone_or_past_the_set_is_refused_and_the_others_match() {
    // `\w{20}` is 350 KiB of automaton (Unicode): a few dozen fit, not thousands.
    let mut written: Vec<String> = (0..200).map(|i| format!("/p{i}/\\w{{20}}")).collect();
    written.insert(0, "/big/\\w{100}".to_string());
    let mut patterns: Vec<Pattern> = (written.iter())
        .map(|w| Pattern::new(w, Syntax::Regex).unwrap())
        .collect();
    patterns.push(Pattern::new("/p1/*", Syntax::Cloudflare).unwrap());
    let refs: Vec<&Pattern> = patterns.iter().collect();
    let (matcher, refused) = Matcher::new(&refs);
    assert_eq!(refused[0], (0, Refusal::TooLarge));
    let full: Vec<usize> = (refused.iter().filter(|(_, why)| *why == Refusal::SetFull))
        .map(|(i, _)| *i)
        .collect();
    let kept = 201 - refused.len();
    assert!((20..50).contains(&kept), "{kept} kept");
    // The first refused for the set's cap, and all after it that need an automaton.
    assert_eq!(full, (kept + 1..=200).collect::<Vec<_>>());
    let word = "w".repeat(20);
    assert_eq!(matcher.matches(&format!("/p1/{word}")), [2, 201]);
    assert_eq!(
        matcher.matches(&format!("/p150/{word}")),
        Vec::<usize>::new()
    );
}

#[test]
fn many_rules_of_every_shape_match_in_order() {
    let mut patterns = Vec::new();
    for i in 0..3_000 {
        patterns.push(Pattern::new(&format!("/e{i}"), Syntax::Cloudflare).unwrap());
        patterns.push(Pattern::new(&format!("/p{i}/*"), Syntax::Cloudflare).unwrap());
        patterns.push(Pattern::new(&format!("/r{i}/:x"), Syntax::Cloudflare).unwrap());
    }
    patterns.push(Pattern::new("/*", Syntax::Cloudflare).unwrap());
    let refs: Vec<&Pattern> = patterns.iter().collect();
    let (matcher, refused) = Matcher::new(&refs);
    assert!(refused.is_empty());
    assert_eq!(matcher.matches("/e7"), [21, 9_000]);
    assert_eq!(matcher.matches("/p7/a/b"), [22, 9_000]);
    assert_eq!(matcher.matches("/r7/a"), [23, 9_000]);
    assert_eq!(matcher.matches("/r7/a/b"), [9_000]);
    // More patterns than are tried one by one start with what a path does: one pass.
    let patterns: Vec<Pattern> = (0..MAX_CANDIDATES * 2)
        .map(|i| Pattern::new(&format!("/:x/a{}", i % 3), Syntax::Cloudflare).unwrap())
        .collect();
    let refs: Vec<&Pattern> = patterns.iter().collect();
    let (matcher, _) = Matcher::new(&refs);
    let want: Vec<usize> = (0..MAX_CANDIDATES * 2).filter(|i| i % 3 == 1).collect();
    assert_eq!(matcher.matches("/x/a1"), want);
}
