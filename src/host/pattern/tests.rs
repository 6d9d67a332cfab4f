use super::*;
use crate::host::matcher::Matcher;

impl Pattern {
    /// Whether the pattern matches `path`, as matched among rules; it must be as its
    /// regular expression matches.
    fn matches(&self, path: &str) -> bool {
        let (matcher, refused) = Matcher::new(&[self]);
        assert!(refused.is_empty());
        let got = !matcher.matches(path).is_empty();
        let re = regex::Regex::new(self.regex()).unwrap();
        assert_eq!(got, re.is_match(path), "{self:?} against {path:?}");
        got
    }
}

fn check(syntax: Syntax, table: &[(&str, &str, bool)]) {
    for &(pattern, path, want) in table {
        let compiled = Pattern::new(pattern, syntax).unwrap();
        assert_eq!(compiled.matches(path), want, "{syntax:?} {pattern} {path}");
    }
}

#[test]
fn netlify_patterns_match_as_netlify_matches_them() {
    let headers = Syntax::Netlify { ignore_case: true };
    check(
        headers,
        &[
            ("/*", "/", true),
            ("/*", "/docs/a/b/", true),
            ("/docs/*", "/docs", true),
            ("/docs/*", "/docs/", true),
            ("/docs/*", "/docs/a/b.html", true),
            // As Netlify's own parser matches (`^/docs/?(.*)/?$`).
            ("/docs/*", "/docsx/a", true),
            ("/docs/*", "/doc", false),
            ("/docs", "/docs/", true),
            ("/docs/", "/docs", true),
            ("/Docs/", "/docs/", true),
            ("/blog/:year/*", "/blog/2024/post/", true),
            ("/blog/:year/*", "/blog//post/", false),
            ("/blog/:year", "/blog/2024/post/", false),
            ("/*.pdf", "/files/a.pdf", true),
            ("/drafts-*", "/drafts-2024/", true),
            ("/drafts-*", "/draft", false),
            ("/a.b", "/axb", false),
            ("/", "/", true),
            ("/", "/a", false),
        ],
    );
    // Redirects are matched with case.
    check(
        Syntax::Netlify { ignore_case: false },
        &[("/Docs/*", "/docs/a", false), ("/Docs/*", "/Docs/a", true)],
    );
}

#[test]
fn other_hosts_patterns_match_as_their_hosts_match_them() {
    check(
        Syntax::Cloudflare,
        &[
            ("/docs/*", "/docs/a/b", true),
            ("/docs/*", "/docs", false),
            ("/docs", "/docs/", false),
            ("/blog/:year/:slug", "/blog/2024/x", true),
            ("/blog/:year/:slug", "/blog/2024/x/y", false),
            ("/a.b", "/axb", false),
        ],
    );
    check(
        Syntax::PathToRegexp,
        &[
            ("/old/:path*", "/old", true),
            ("/old/:path*", "/old/a/b", true),
            ("/old/:path*", "/older", false),
            ("/old/:path+", "/old", false),
            ("/old/:path+", "/old/a", true),
            // Strict, as Vercel compiles its sources; case ignored, as its routes match.
            ("/blog/:slug", "/blog/x/", false),
            ("/blog/:slug", "/BLOG/x", true),
            ("/legal/:path*", "/legal/faq/", false),
            ("/legal/:path*", "/legal/faq", true),
            ("/docs", "/docs/", false),
            ("/docs/", "/docs/", true),
            ("/private/(.*)", "/Private/a", true),
            ("/blog/:slug?", "/blog", true),
            ("/private/(.*)", "/private/a/b", true),
            ("/private/(.*)", "/public/a", false),
            ("/post/:id(\\d+)", "/post/12", true),
            ("/post/:id(\\d+)", "/post/ab", false),
            ("/a{-b}?", "/a-b", true),
        ],
    );
    check(
        Syntax::Glob { names: true },
        &[
            ("/**", "/", true),
            ("/blog/**", "/blog/a/b", true),
            ("/blog/*", "/blog/a/b", false),
            ("**/*.@(jpg|png)", "/img/a.png", true),
            ("/{a,b}/x", "/b/x", true),
            ("/users/:id", "/users/7", true),
            ("/users/:rest*", "/users/7/x", true),
            // `**/` stands for any folders, none too.
            ("/docs/**/*.html", "/docs/guide.html", true),
            ("/docs/**/*.html", "/docs/a/b/guide.html", true),
            ("/docs/**/*.html", "/docsx/guide.html", false),
            // minimatch lets a pattern match the path with a trailing slash.
            ("/a", "/a/", true),
            ("/a/", "/a", false),
            ("/blog/*", "/blog/a/", true),
        ],
    );
    check(
        Syntax::Glob { names: false },
        &[
            ("/old/:rest*", "/old/page.html", false),
            ("/old/:rest*", "/old/:rest", true),
            ("/docs/**", "/docs/a", true),
        ],
    );
    check(
        Syntax::Regex,
        &[
            ("/blog/[0-9]{4}/.*", "/blog/2024/x", true),
            ("/blog", "/blog/x", false),
        ],
    );
}

#[test]
fn patterns_the_hosts_refuse_or_we_cannot_read_are_errors() {
    for (pattern, syntax) in [
        ("/a/(b", Syntax::PathToRegexp),
        ("/a/:", Syntax::PathToRegexp),
        ("/a/+(b)", Syntax::Glob { names: true }),
        ("/{a,b", Syntax::Glob { names: true }),
        ("(", Syntax::Regex),
    ] {
        assert!(Pattern::new(pattern, syntax).is_err(), "{pattern}");
    }
}

#[test]
fn a_pattern_of_many_stars_against_a_long_path_is_quick() {
    // Backtracking would take exponential time; the regex crate's is linear.
    let pattern = format!("{}b", "/*a".repeat(40));
    let p = Pattern::new(&pattern, Syntax::Netlify { ignore_case: true }).unwrap();
    assert!(!p.matches(&format!("/{}", "a".repeat(4000))));
}

/// Found by fuzzing (`host_vercel_json`, `host_firebase_json`): a pattern whose regular
/// expression does not parse was named with the regex crate's message, which draws the
/// expression over three lines; a warning is one line, the pattern's own control
/// characters escaped.
#[test]
fn fuzz_crash_a_bad_regular_expression_is_named_on_one_line() {
    let table = [
        ("/te}porary", Syntax::PathToRegexp),
        ("^/r/(\r/(\\d+)$", Syntax::Regex),
        ("(", Syntax::Regex),
        ("/a/**\n(", Syntax::Glob { names: true }),
    ];
    for (pattern, syntax) in table {
        let Err(why) = Pattern::new(pattern, syntax) else {
            continue;
        };
        let origin = crate::host::rules::Origin::new("vercel.json".as_ref(), 6, "");
        let warning = crate::host::rules::BadPattern::new(origin, pattern, why).to_string();
        assert!(!warning.contains(['\n', '\r']), "{warning}");
        assert!(
            warning.starts_with("vercel.json:6: cannot use the pattern "),
            "{warning}"
        );
    }
    let why = Pattern::new("(", Syntax::Regex).unwrap_err().to_string();
    assert_eq!(
        why,
        "not a regular expression the host reads (unclosed group)"
    );
}
