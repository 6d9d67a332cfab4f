//! `_headers` in the output folder, as Netlify and Cloudflare Pages read it: a rule is a
//! path pattern (or a URL) on a line of its own, then its headers indented below it,
//! `Name: value`; every rule whose pattern matches a request applies, in order, and on
//! Cloudflare `! Name` takes a header a rule before it set away again.
//!
//! Only `X-Robots-Tag` is kept: a page served with `noindex` (or `none`) is left out.

use std::path::Path;

use super::pattern::Syntax;
use super::rules::{Effect, Origin, Parsed, Rule, robots_effect};

/// The header kept.
pub(super) const ROBOTS_TAG: &str = "x-robots-tag";

/// The rules of a `_headers` text that touch `X-Robots-Tag`, in file order, with the
/// patterns that could not be read. Lines that are no rule, no header and no comment are
/// ignored, as the hosts ignore them.
pub(super) fn parse(text: &str, file: &Path, syntax: Syntax, agents: &[String]) -> Parsed {
    let mut parsed = Parsed::default();
    // The path line the headers below it apply to, when its pattern could be read.
    let mut current: Option<Rule<()>> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let origin = || Origin::new(file, i + 1, "");
        if !line.starts_with([' ', '\t']) {
            current = match split_url(trimmed).map(|t| Rule::new(origin(), t, syntax, ())) {
                Some(Ok(rule)) => Some(rule),
                Some(Err(bad)) => {
                    parsed.bad.push(bad);
                    None
                }
                None => None,
            };
            continue;
        }
        if let (Some(path), Some(effect)) = (&current, header_effect(trimmed, agents)) {
            parsed.headers.push(path.doing(origin(), effect));
        }
    }
    parsed
}

/// What a header line (`X-Robots-Tag: noindex`, `! X-Robots-Tag`) does, when it is
/// `X-Robots-Tag`.
fn header_effect(line: &str, agents: &[String]) -> Option<Effect> {
    if let Some(name) = line.strip_prefix('!') {
        return (name.trim().eq_ignore_ascii_case(ROBOTS_TAG)).then_some(Effect::Detach);
    }
    let (name, value) = line.split_once(':')?;
    (name.trim().eq_ignore_ascii_case(ROBOTS_TAG)).then(|| robots_effect(value, agents))
}

/// A rule's path (`/docs/*`), or a URL (`https://preview.example.org/*`) split into the
/// host it applies to alone (lower-case, no port) and its path. `None` for neither.
pub(super) fn split_url(text: &str) -> Option<(Option<String>, &str)> {
    if text.starts_with('/') {
        return Some((None, text));
    }
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let (host, path) = rest
        .find('/')
        .map_or((rest, "/"), |i| (&rest[..i], &rest[i..]));
    let host = host.split(':').next().unwrap_or(host).to_lowercase();
    Some((Some(host), path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::rules::{Joined, Rules, noindex};

    #[test]
    fn noindex_comes_from_the_rules_that_match_in_order() {
        let text = "\
# previews are not for search engines
https://preview.example.org/*
  X-Robots-Tag: noindex

/drafts/*
  Cache-Control: no-store
  X-Robots-Tag: noindex, nofollow
/drafts/public/*
  ! X-Robots-Tag
/old/*
  x-robots-tag: googlebot: noindex
/other/*
  X-Robots-Tag: bingbot: noindex
/both/*
  X-Robots-Tag: nofollow
/both/*
  X-Robots-Tag: none
not a rule
  X-Robots-Tag: noindex
";
        let agents = ["robots".to_string(), "googlebot".to_string()];
        let syntax = Syntax::Netlify { ignore_case: true };
        let parsed = parse(text, Path::new("_headers"), syntax, &agents);
        assert!(parsed.bad.is_empty());
        let rules = Rules::new(parsed.headers).0.unwrap();
        let table = [
            ("example.org", "/", None),
            ("preview.example.org", "/", Some(3)),
            ("example.org", "/drafts/a/", Some(7)),
            ("example.org", "/drafts/public/a/", None),
            ("example.org", "/old/x.html", Some(11)),
            ("example.org", "/other/x.html", None),
            ("example.org", "/both/", Some(17)),
        ];
        for (host, path, want) in table {
            let matching = rules.matching(host, path).map(|(_, r)| r);
            let got = noindex(matching, Joined::ByPattern).map(|o| o.line);
            assert_eq!(got, want, "{host}{path}");
        }
    }

    /// Netlify keeps the last value set (netlify-cli, `@netlify/headers-parser`);
    /// Cloudflare joins the values of different patterns and replaces a pattern's own.
    #[test]
    fn values_of_several_rules_are_joined_as_each_host_joins_them() {
        let text = "/legal/*\n  X-Robots-Tag: noindex\n/legal/*\n  X-Robots-Tag: nofollow\n\
                    /docs/guide\n  X-Robots-Tag: noindex\n/docs/*\n  X-Robots-Tag: nofollow\n";
        let agents = ["robots".to_string()];
        let syntax = Syntax::Cloudflare;
        let parsed = parse(text, Path::new("_headers"), syntax, &agents);
        let rules = Rules::new(parsed.headers).0.unwrap();
        let table = [
            ("/legal/a", Joined::ByPattern, None),
            ("/legal/a", Joined::Last, None),
            ("/docs/guide", Joined::ByPattern, Some(6)),
            ("/docs/guide", Joined::Last, None),
        ];
        for (path, joined, want) in table {
            let matching = rules.matching("example.org", path).map(|(_, r)| r);
            let got = noindex(matching, joined).map(|o| o.line);
            assert_eq!(got, want, "{path} {joined:?}");
        }
    }
}
