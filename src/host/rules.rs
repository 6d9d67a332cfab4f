//! The hosts' rules, whatever file they came from: where each was written, the paths it
//! matches, and what it does. Each kind is matched together (`matcher`), so a page costs
//! a few lookups and one pass over its path however many rules there are.

use std::fmt;
use std::path::{Path, PathBuf};

use super::matcher::{Matcher, Refusal};
use super::pattern::{Pattern, PatternError, Syntax};

/// Where a rule was written: its file, and its line (1-based) when it has one, else
/// the key that holds it (`redirects[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The host's file.
    pub file: PathBuf,
    /// The rule's line, 1-based; 0 when it could not be found.
    pub line: usize,
    /// The key that holds the rule, in a JSON file.
    pub key: String,
}

impl Origin {
    /// The place of a rule: `line` of `file` (0 when unknown), and the key that holds it
    /// in a JSON file (empty in a file of lines).
    pub(super) fn new(file: &Path, line: usize, key: impl Into<String>) -> Origin {
        Origin {
            file: file.to_path_buf(),
            line,
            key: key.into(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}", crate::text::path(&self.file), self.line)
        } else {
            write!(f, "{} {}", crate::text::path(&self.file), self.key)
        }
    }
}

/// One rule: where it is written, the paths it applies to, and what it does (`T`).
#[derive(Debug, Clone)]
pub(super) struct Rule<T> {
    pub origin: Origin,
    pub pattern: Pattern,
    /// The pattern as written, [`shown`], for a message.
    pub written: String,
    /// The host a URL pattern names (lower-case); `None` for a path.
    pub host: Option<String>,
    pub what: T,
}

impl<T> Rule<T> {
    /// The rule at `origin` for the paths of `target` (the host a URL names, and the
    /// pattern as written in `syntax`) doing `what`; or why its pattern is not read.
    pub fn new(
        origin: Origin,
        (host, written): (Option<String>, &str),
        syntax: Syntax,
        what: T,
    ) -> Result<Rule<T>, BadPattern> {
        match Pattern::new(written, syntax) {
            Ok(pattern) => Ok(Rule {
                origin,
                pattern,
                written: shown(written),
                host,
                what,
            }),
            Err(e) => Err(BadPattern::new(origin, written, e)),
        }
    }

    /// A rule for the same paths, at `origin`, doing `what` (each header of a path).
    pub fn doing<U>(&self, origin: Origin, what: U) -> Rule<U> {
        Rule {
            origin,
            pattern: self.pattern.clone(),
            written: self.written.clone(),
            host: self.host.clone(),
            what,
        }
    }
}

/// What a header rule does to a page's `X-Robots-Tag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// Sets it to a value that says noindex (for the agents that count).
    Noindex,
    /// Sets it to something else (`nofollow`, another agent's `noindex`).
    Other,
    /// Takes it away (`! X-Robots-Tag`, Cloudflare).
    Detach,
}

/// What a redirect rule does: answers with `status` (and `to`), unless the page's own
/// file shadows it and it is not forced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Redirect {
    pub status: u16,
    pub force: bool,
    pub to: String,
}

/// Rules of one kind, in the order the host tries them.
#[derive(Debug)]
pub(super) struct Rules<T> {
    matcher: Matcher,
    rules: Vec<Rule<T>>,
}

impl<T> Rules<T> {
    /// The rules as one set (`None` when there are none), and the ones whose patterns
    /// are refused (they never match).
    pub fn new(rules: Vec<Rule<T>>) -> (Option<Rules<T>>, Vec<BadPattern>) {
        if rules.is_empty() {
            return (None, Vec::new());
        }
        let patterns: Vec<&Pattern> = rules.iter().map(|r| &r.pattern).collect();
        let (matcher, refused) = Matcher::new(&patterns);
        let bad = (refused.into_iter())
            .map(|(i, why)| BadPattern {
                origin: rules[i].origin.clone(),
                pattern: rules[i].written.clone(),
                why: Why::Refused(why),
            })
            .collect();
        (Some(Rules { matcher, rules }), bad)
    }

    /// The rules that apply to `path` on `host`, in order, with their places.
    pub fn matching<'a>(
        &'a self,
        host: &'a str,
        path: &str,
    ) -> impl Iterator<Item = (usize, &'a Rule<T>)> {
        (self.matcher.matches(path).into_iter())
            .map(|i| (i, &self.rules[i]))
            .filter(move |(_, r)| r.host.as_deref().is_none_or(|h| h == host))
    }
}

/// A rule whose pattern is not applied: where it is written, the pattern as written
/// (shortened for the message), and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: cannot use the pattern {pattern:?}: {why}")]
pub struct BadPattern {
    /// Where it is written.
    pub origin: Origin,
    /// The pattern, shortened and escaped for a message.
    pub pattern: String,
    /// Why.
    pub why: Why,
}

/// Why a rule's pattern is not applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Why {
    /// It cannot be read.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// It does not fit.
    #[error(transparent)]
    Refused(#[from] Refusal),
}

impl BadPattern {
    /// A pattern of the rule at `origin` that cannot be read.
    pub fn new(origin: Origin, pattern: &str, why: PatternError) -> BadPattern {
        BadPattern {
            origin,
            pattern: shown(pattern),
            why: Why::Pattern(why),
        }
    }
}

/// A pattern as a message shows it: its first characters, escaped.
pub(super) fn shown(pattern: &str) -> String {
    let head: String = pattern.chars().take(200).collect();
    crate::text::shorten(&head)
}

/// What an `X-Robots-Tag` value does, as [`crate::page::robots_tag_says_noindex`]
/// reads it for the robots names that count (`noindex_agents`).
pub(super) fn robots_effect(value: &str, agents: &[String]) -> Effect {
    match crate::page::robots_tag_says_noindex(value, agents) {
        true => Effect::Noindex,
        false => Effect::Other,
    }
}

/// How a host joins the `X-Robots-Tag` of several rules that match one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Joined {
    /// The last rule that sets it decides (Netlify, as netlify-cli and
    /// `@netlify/headers-parser` merge them; Vercel; Firebase).
    Last,
    /// Rules of different patterns add up (a `nofollow` leaves an earlier `noindex`),
    /// a rule of the same pattern replaces its earlier value, and `! X-Robots-Tag`
    /// takes them all away (Cloudflare's asset server).
    ByPattern,
}

/// The rule that leaves the path noindex, when one does, the rules that match it joined
/// as the host joins them.
pub(super) fn noindex<'a>(
    rules: impl Iterator<Item = &'a Rule<Effect>>,
    joined: Joined,
) -> Option<&'a Origin> {
    // The patterns whose value says noindex, with the rule that set it last.
    let mut noindex: Vec<&'a Rule<Effect>> = Vec::new();
    for rule in rules {
        match (rule.what, joined) {
            (Effect::Detach, _) => noindex.clear(),
            (_, Joined::Last) => noindex.clear(),
            (_, Joined::ByPattern) => noindex.retain(|r| r.written != rule.written),
        }
        if rule.what == Effect::Noindex {
            noindex.push(rule);
        }
    }
    noindex.last().map(|rule| &rule.origin)
}

/// Whether `status` keeps the page from being served as itself: a redirect, or (forced)
/// an error status. A 200 is a rewrite, served under the page's URL.
pub(super) fn leaves_out(status: u16) -> bool {
    (300..600).contains(&status)
}

/// What one host file says: its rules, the URL form it sets, and the patterns that
/// could not be read.
#[derive(Debug, Clone, Default)]
pub(super) struct Parsed {
    pub headers: Vec<Rule<Effect>>,
    pub redirects: Vec<Rule<Redirect>>,
    pub form: super::UrlForm,
    pub bad: Vec<BadPattern>,
}

/// The kinds of rule a file holds: where [`Parsed`] keeps each.
pub(super) trait Kind: Sized {
    fn kept(parsed: &mut Parsed) -> &mut Vec<Rule<Self>>;
}

impl Kind for Effect {
    fn kept(parsed: &mut Parsed) -> &mut Vec<Rule<Effect>> {
        &mut parsed.headers
    }
}

impl Kind for Redirect {
    fn kept(parsed: &mut Parsed) -> &mut Vec<Rule<Redirect>> {
        &mut parsed.redirects
    }
}

impl Parsed {
    /// Keeps a rule read ([`Rule::new`]) with its kind, or why its pattern is not read.
    pub fn keep<T: Kind>(&mut self, rule: Result<Rule<T>, BadPattern>) {
        match rule {
            Ok(rule) => T::kept(self).push(rule),
            Err(bad) => self.bad.push(bad),
        }
    }

    pub fn extend(&mut self, other: Parsed) {
        self.headers.extend(other.headers);
        self.redirects.extend(other.redirects);
        self.form = std::mem::take(&mut self.form).or(other.form);
        self.bad.extend(other.bad);
    }
}

/// The line of a JSON file's rule, to name it: where, in the rule's own text (`rule`, a
/// slice of `text` from serde_json's parse of it, empty when unknown), `value` (its
/// pattern) is written as a JSON string, else where the rule starts. Each rule is
/// searched in its own text and its line found by a binary search ([`Lines`]), so naming every
/// rule is linear in the file (a search of the whole rest of the file for each rule,
/// and a count of its lines from the start, took minutes for a 4 MiB file). 0 for a
/// rule whose text is unknown.
pub(super) fn json_line(text: &str, rule: &str, value: &str, lines: &Lines) -> usize {
    if rule.is_empty() {
        return 0;
    }
    let within = (serde_json::to_string(value).ok())
        .and_then(|needle| rule.find(&needle))
        .unwrap_or(0);
    lines.of(offset_in(text, rule) + within)
}

/// Where `part`, a slice of `text` (as serde_json's borrowed `RawValue`s are), starts in it.
pub(super) fn offset_in(text: &str, part: &str) -> usize {
    let at = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    debug_assert!(at + part.len() <= text.len(), "not a slice of the text");
    at.min(text.len())
}

/// The lines of a host file, to name the line of a place in it: found in a step of
/// binary search (counting from the start each time took time in the square of the
/// rules).
#[derive(Debug)]
pub(super) struct Lines {
    /// Where each line break is.
    breaks: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        Lines {
            breaks: memchr::memchr_iter(b'\n', text.as_bytes()).collect(),
        }
    }

    /// The line (1-based) of the byte at `at`.
    pub fn of(&self, at: usize) -> usize {
        self.breaks.partition_point(|&b| b < at) + 1
    }
}
