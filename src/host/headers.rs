//! `_headers` in the output folder, as Netlify and Cloudflare Pages read it: a rule is a
//! path pattern (or a URL, on Cloudflare) on a line of its own, then its headers indented
//! below it, `Name: value`; every rule whose pattern matches a request applies, in order,
//! and on Cloudflare `! Name` takes a header a rule before it set away again.
//!
//! Only `X-Robots-Tag` is kept: a page served with `noindex` (or `none`) is left out.

use super::pattern::Pattern;

/// The header kept.
const ROBOTS_TAG: &str = "x-robots-tag";

/// One rule that sets or takes away `X-Robots-Tag`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rule {
    /// The header's line, 1-based.
    pub line: usize,
    pattern: Pattern,
    /// The host a URL pattern names (lower-case); `None` for a path.
    host: Option<String>,
    /// What it does to `X-Robots-Tag`.
    pub effect: Effect,
}

/// What a rule does to a page's `X-Robots-Tag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// Sets it to a value that says noindex (for the agents that count).
    Noindex,
    /// Sets it to something else (`nofollow`, another agent's `noindex`).
    Other,
    /// Takes it away (`! X-Robots-Tag`).
    Detach,
}

impl Rule {
    fn applies(&self, host: &str, path: &str) -> bool {
        self.host.as_ref().is_none_or(|h| h == host) && self.pattern.matches(path)
    }
}

/// The rules of a `_headers` text that touch `X-Robots-Tag`, in file order. `agents`
/// are the robots names that count (`noindex_agents`: `robots` for an unnamed value,
/// `googlebot`, ...). Lines that are no rule, no header and no comment are ignored, as
/// the hosts ignore them.
pub(super) fn parse(text: &str, agents: &[String]) -> Vec<Rule> {
    let mut rules = Vec::new();
    let mut current: Option<(Pattern, Option<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            current = rule_head(trimmed);
            continue;
        }
        let Some((pattern, host)) = &current else {
            continue;
        };
        let effect = if let Some(name) = trimmed.strip_prefix('!') {
            (name.trim().eq_ignore_ascii_case(ROBOTS_TAG)).then_some(Effect::Detach)
        } else {
            match trimmed.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case(ROBOTS_TAG) => {
                    Some(robots_effect(value, agents))
                }
                _ => None,
            }
        };
        if let Some(effect) = effect {
            rules.push(Rule {
                line: i + 1,
                pattern: pattern.clone(),
                host: host.clone(),
                effect,
            });
        }
    }
    rules
}

/// A rule's first line: a path (`/docs/*`), or a URL (`https://preview.example.org/*`)
/// whose host it applies to alone.
fn rule_head(text: &str) -> Option<(Pattern, Option<String>)> {
    if text.starts_with('/') {
        return Some((Pattern::new(text), None));
    }
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/').map_or((rest, "/"), |(h, p)| (h, p));
    let host = host.split(':').next().unwrap_or(host).to_lowercase();
    Some((Pattern::new(&format!("/{path}")), Some(host)))
}

/// What an `X-Robots-Tag` value says: `noindex`, `none`, or either after the name of an
/// agent that counts (`googlebot: noindex`), is noindex.
fn robots_effect(value: &str, agents: &[String]) -> Effect {
    let mut agent: Option<String> = None;
    for directive in value.split(',') {
        let mut directive = directive.trim().to_lowercase();
        // `googlebot: noindex, nofollow`: the agent holds for what follows.
        if let Some((name, rest)) = directive.split_once(':') {
            agent = Some(name.trim().to_string());
            directive = rest.trim().to_string();
        }
        let counts = match &agent {
            None => agents.iter().any(|a| a == "robots"),
            Some(name) => agents.iter().any(|a| a == name),
        };
        if counts && matches!(directive.as_str(), "noindex" | "none") {
            return Effect::Noindex;
        }
    }
    Effect::Other
}

/// The line of the rule that leaves the path noindex, when one does: the last rule that
/// sets or takes away `X-Robots-Tag` decides.
pub(super) fn noindex(rules: &[Rule], host: &str, path: &str) -> Option<usize> {
    let mut decided = None;
    for rule in rules.iter().filter(|r| r.applies(host, path)) {
        decided = match rule.effect {
            Effect::Noindex => Some(rule.line),
            // Values add up: another rule's `nofollow` leaves an earlier `noindex`.
            Effect::Other => decided,
            Effect::Detach => None,
        };
    }
    decided
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agents() -> Vec<String> {
        vec!["robots".to_string(), "googlebot".to_string()]
    }

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
        let rules = parse(text, &agents());
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
            assert_eq!(noindex(&rules, host, path), want, "{host}{path}");
        }
    }
}
