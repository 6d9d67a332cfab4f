//! The hosts' rules, whatever file they came from: where each was written, the paths it
//! matches, and what it does. Each kind is matched as one set of regular expressions, so
//! a page costs one pass over its path however many rules there are.

use std::fmt;
use std::path::PathBuf;

use regex::{RegexSet, RegexSetBuilder};

use super::pattern::Pattern;

/// The largest set of compiled patterns, for thousands of rules.
const MAX_SET_BYTES: usize = 64 << 20;

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

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}", self.file.display(), self.line)
        } else {
            write!(f, "{} {}", self.file.display(), self.key)
        }
    }
}

/// One rule: where it is written, the paths it applies to, and what it does (`T`).
#[derive(Debug, Clone)]
pub(super) struct Rule<T> {
    pub origin: Origin,
    pub pattern: Pattern,
    /// The host a URL pattern names (lower-case); `None` for a path.
    pub host: Option<String>,
    pub what: T,
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
    set: RegexSet,
    rules: Vec<Rule<T>>,
}

impl<T> Rules<T> {
    /// The rules as one set; `None` when there are none.
    pub fn new(rules: Vec<Rule<T>>) -> Result<Option<Rules<T>>, regex::Error> {
        if rules.is_empty() {
            return Ok(None);
        }
        let set = RegexSetBuilder::new(rules.iter().map(|r| r.pattern.as_str()))
            .size_limit(MAX_SET_BYTES)
            .build()?;
        Ok(Some(Rules { set, rules }))
    }

    /// The rules that apply to `path` on `host`, in order.
    pub fn matching<'a>(&'a self, host: &'a str, path: &str) -> impl Iterator<Item = &'a Rule<T>> {
        (self.set.matches(path).into_iter())
            .map(|i| &self.rules[i])
            .filter(move |r| r.host.as_deref().is_none_or(|h| h == host))
    }
}

/// What an `X-Robots-Tag` value says: `noindex`, `none`, or either after the name of an
/// agent that counts (`googlebot: noindex`), is noindex. `agents` are the robots names
/// that count (`noindex_agents`: `robots` for an unnamed value, `googlebot`, ...).
pub(super) fn robots_effect(value: &str, agents: &[String]) -> Effect {
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

/// The rule that leaves the path noindex, when one does. Where values `add_up` (Netlify,
/// Cloudflare: a header set twice is joined), another rule's `nofollow` leaves an earlier
/// `noindex`; elsewhere (Vercel, Firebase) the last rule that sets the header decides.
pub(super) fn noindex<'a>(
    rules: impl Iterator<Item = &'a Rule<Effect>>,
    add_up: bool,
) -> Option<&'a Origin> {
    let mut decided = None;
    for rule in rules {
        decided = match rule.what {
            Effect::Noindex => Some(&rule.origin),
            Effect::Other if add_up => decided,
            Effect::Other | Effect::Detach => None,
        };
    }
    decided
}

/// Whether `status` keeps the page from being served as itself: a redirect, or (forced)
/// an error status. A 200 is a rewrite, served under the page's URL.
pub(super) fn leaves_out(status: u16) -> bool {
    (300..600).contains(&status)
}

/// What one host file says: its rules, the URL form it sets, and the patterns that
/// could not be read.
#[derive(Debug, Default)]
pub(super) struct Parsed {
    pub headers: Vec<Rule<Effect>>,
    pub redirects: Vec<Rule<Redirect>>,
    pub form: super::UrlForm,
    pub bad: Vec<super::pattern::BadPattern>,
}

impl Parsed {
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
/// searched in its own text and the lines are counted on ([`Lines`]), so naming every
/// rule is linear in the file (a search of the whole rest of the file for each rule,
/// and a count of its lines from the start, took minutes for a 4 MiB file). 0 for a
/// rule whose text is unknown.
pub(super) fn json_line(text: &str, rule: &str, value: &str, lines: &mut Lines<'_>) -> usize {
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

/// The lines of a text at byte offsets asked for mostly in increasing order: each line
/// break is counted once while they increase (an offset before the last starts again).
#[derive(Debug)]
pub(super) struct Lines<'t> {
    text: &'t str,
    at: usize,
    line: usize,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            at: 0,
            line: 1,
        }
    }

    /// The 1-based line of byte `offset`.
    pub(super) fn of(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        if offset < self.at {
            (self.at, self.line) = (0, 1);
        }
        let between = &self.text.as_bytes()[self.at..offset];
        self.line += between.iter().filter(|&&b| b == b'\n').count();
        self.at = offset;
        self.line
    }
}
