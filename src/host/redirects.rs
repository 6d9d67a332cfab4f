//! `_redirects` in the output folder, as Netlify and Cloudflare Pages read it: one rule
//! a line, `from [query] to [status[!]] [conditions]` (Netlify's `line_parser.js`), the
//! first rule that matches a request deciding.
//!
//! A rule that applies to only some requests (a query, a `Country=`/`Language=`/`Role=`
//! condition) or that has no destination is passed over: a crawler asking for the page
//! is not redirected by it.

use std::path::Path;

use super::headers::split_url;
use super::pattern::{Pattern, Syntax};
use super::rules::{BadPattern, Origin, Redirect, Rule, shown};

/// The conditions that are not about the visitor (Netlify's signed proxies).
const NOT_CONDITIONS: [&str; 2] = ["sign", "signed"];

/// The redirect rules of a `_redirects` text, in file order, and the patterns that could
/// not be read. `default_status` is the host's status for a rule that gives none (301 on
/// Netlify, 302 on Cloudflare).
pub(super) fn parse(
    text: &str,
    file: &Path,
    syntax: Syntax,
    default_status: u16,
) -> (Vec<Rule<Redirect>>, Vec<BadPattern>) {
    let mut rules = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut parts: Vec<&str> = line.split_whitespace().collect();
        if let Some(comment) = parts.iter().position(|p| p.starts_with('#')) {
            parts.truncate(comment);
        }
        let Some((redirect, from)) = rule(&parts, default_status) else {
            continue;
        };
        let Some((host, path)) = split_url(from) else {
            continue;
        };
        let origin = Origin {
            file: file.to_path_buf(),
            line: i + 1,
            key: String::new(),
        };
        match Pattern::new(path, syntax) {
            Ok(pattern) => rules.push(Rule {
                origin,
                pattern,
                written: shown(path),
                host,
                what: redirect,
            }),
            Err(e) => bad.push(BadPattern::new(origin, path, e)),
        }
    }
    (rules, bad)
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
    let conditional = after.any(|condition| {
        let key = condition.split('=').next().unwrap_or_default();
        !NOT_CONDITIONS.contains(&key.to_ascii_lowercase().as_str())
    });
    if conditional {
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
    fn lines_give_their_rules_and_conditional_ones_are_passed_over() {
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
        let (rules, bad) = parse(text, Path::new("_redirects"), syntax, 301);
        assert!(bad.is_empty());
        let got: Vec<(usize, u16, bool, Option<&str>)> = rules
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
}
