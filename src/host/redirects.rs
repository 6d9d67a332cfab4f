//! `_redirects` in the output folder, as Netlify and Cloudflare Pages read it: one rule
//! a line, `from [query] to [status[!]] [conditions]` (Netlify's `line_parser.js`), the
//! first rule that matches a request deciding.
//!
//! A rule's conditions are met as a crawler's request meets them ([`crawler_meets`]); a
//! rule that asks for a query, that a crawler's request does not meet, or that has no
//! destination is passed over: a crawler asking for the page is not redirected by it.

use std::path::Path;

use super::headers::split_url;
use super::pattern::Syntax;
use super::rules::{Origin, Parsed, Redirect, Rule};

/// The country a crawler's request comes from: Googlebot crawls from the US.
const CRAWLER_COUNTRY: &str = "us";

/// Whether a Netlify condition holds for a crawler's request: Googlebot's, from the US
/// (`Country`), with no `Accept-Language` (`Language`) and no role (`Role`); a signed
/// proxy's key (`Sign`) is no condition on the request. `None` for a key Netlify does
/// not document, whose rule is then passed over.
pub(super) fn crawler_meets(key: &str, values: &[&str]) -> Option<bool> {
    match key.to_ascii_lowercase().as_str() {
        "sign" | "signed" => Some(true),
        "country" => Some(
            values
                .iter()
                .any(|v| v.trim().eq_ignore_ascii_case(CRAWLER_COUNTRY)),
        ),
        "language" | "role" => Some(false),
        _ => None,
    }
}

/// The redirect rules of a `_redirects` text, in file order, with the patterns that
/// could not be read. `default_status` is the host's status for a rule that gives none (301 on
/// Netlify, 302 on Cloudflare).
pub(super) fn parse(text: &str, file: &Path, syntax: Syntax, default_status: u16) -> Parsed {
    let mut parsed = Parsed::default();
    for (i, line) in text.lines().enumerate() {
        let mut parts: Vec<&str> = line.split_whitespace().collect();
        if let Some(comment) = parts.iter().position(|p| p.starts_with('#')) {
            parts.truncate(comment);
        }
        let Some((redirect, from)) = rule(&parts, default_status) else {
            continue;
        };
        let Some(target) = split_url(from) else {
            continue;
        };
        let origin = Origin::new(file, i + 1, "");
        parsed.keep(Rule::new(origin, target, syntax, redirect));
    }
    parsed
}

/// A line's rule and its `from`, when it applies to every request for its paths.
fn rule<'a>(parts: &[&'a str], default_status: u16) -> Option<(Redirect, &'a str)> {
    let (&from, rest) = parts.split_first()?;
    // The first part that is a path or URL is the destination; parts before it are a
    // query the request must carry.
    let to_at = rest.iter().position(|p| is_destination(p))?;
    if to_at > 0 {
        return None;
    }
    let to = rest[to_at];
    let mut after = rest[to_at + 1..].iter();
    let (status, force) = match after.next() {
        Some(part) => status(part)?,
        None => (default_status, false),
    };
    let met = after.all(|condition| {
        let (key, values) = condition.split_once('=').unwrap_or((condition, ""));
        let values: Vec<&str> = values.split(',').collect();
        crawler_meets(key, &values) == Some(true)
    });
    if !met {
        return None;
    }
    let to = to.to_string();
    Some((Redirect { status, force, to }, from))
}

fn is_destination(part: &str) -> bool {
    part.starts_with('/') || part.starts_with("http://") || part.starts_with("https://")
}

/// `301`, `302!`: the status, and whether it is forced.
pub(super) fn status(part: &str) -> Option<(u16, bool)> {
    let (digits, force) = match part.strip_suffix('!') {
        Some(digits) => (digits, true),
        None => (part, false),
    };
    let status = digits
        .parse::<u16>()
        .ok()
        .filter(|s| (100..600).contains(s))?;
    Some((status, force))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_give_their_rules_and_those_a_crawler_does_not_meet_are_passed_over() {
        let text = "\
# old paths
/old/*      /new/:splat   301!
/home       /
/temp       /elsewhere    302   # moving
/store id=:id  /blog/:id  301
/fr/*       /fr/index.html  200
/de/*       /de/          302   Language=de
/signed     /api          200!  Sign=secret
/bad        nowhere       301
https://blog.example.org/*  https://example.org/blog/:splat  301!
/typo       /x            30x
";
        let syntax = Syntax::Netlify { ignore_case: false };
        let parsed = parse(text, Path::new("_redirects"), syntax, 301);
        assert!(parsed.bad.is_empty());
        let got: Vec<(usize, u16, bool, Option<&str>)> = (parsed.redirects)
            .iter()
            .map(|r| {
                (
                    r.origin.line,
                    r.what.status,
                    r.what.force,
                    r.host.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (2, 301, true, None),
                (3, 301, false, None),
                (4, 302, false, None),
                (6, 200, false, None),
                (8, 200, true, None),
                (10, 301, true, Some("blog.example.org")),
            ]
        );
    }

    /// A crawler's request is Googlebot's, from the US, with no language and no role.
    #[test]
    fn conditions_are_met_as_a_crawlers_request_meets_them() {
        let table: &[(&str, &[&str], Option<bool>)] = &[
            ("Country", &["us"], Some(true)),
            ("country", &["ca", "US"], Some(true)),
            ("Country", &["de"], Some(false)),
            ("Language", &["en"], Some(false)),
            ("Role", &["admin"], Some(false)),
            ("Sign", &["secret"], Some(true)),
            ("Cookie", &["x"], None),
        ];
        for (key, values, want) in table {
            assert_eq!(crawler_meets(key, values), *want, "{key}");
        }
        let text = "/us/*  /en/  302!  Country=us,ca\n/de/*  /de/  302!  Country=de\n";
        let syntax = Syntax::Netlify { ignore_case: false };
        let parsed = parse(text, Path::new("_redirects"), syntax, 301);
        let lines: Vec<usize> = parsed.redirects.iter().map(|r| r.origin.line).collect();
        assert_eq!(lines, [1]);
    }
}
