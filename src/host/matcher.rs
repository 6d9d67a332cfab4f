//! The patterns of one kind of the hosts' rules (headers, or redirects), matched
//! together, so that a page costs about as much against 10,000 rules as against 10, and
//! the rules take memory within fixed caps whatever they say.
//!
//! A literal path is a hash lookup; a literal path and all that follows it (`/docs/*`),
//! a lookup of each prefix of the page's path as long as one of them; the other patterns
//! are measured one at a time (an automaton of at most [`MAX_PATTERN_NFA_BYTES`]) and
//! compiled together into one automaton of at most [`MAX_SET_NFA_BYTES`]. A pattern
//! past either cap is refused, and the others still apply.
//!
//! A page is matched against those whose literal lead its path starts with (found as
//! the prefixes are), each alone in the one automaton; when there are more than
//! [`MAX_CANDIDATES`], against all of them in one pass. Searching all of them for every
//! page took a millisecond a page for 5,000 patterns `/old<i>/:slug`: the lazy DFA of
//! so many patterns overflows its cache.

use std::collections::HashMap;

use regex_automata::meta::{self, Regex};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Anchored, Input, MatchKind, PatternID, PatternSet};

use super::pattern::{self, Pattern, Shape};

/// The most one pattern's automaton may take: real patterns take a few KiB (`\w{20}`,
/// Unicode, 350 KiB).
pub(super) const MAX_PATTERN_NFA_BYTES: usize = 1 << 20;
/// The most the automaton of all the patterns of one kind that need a regular
/// expression may take: some 12,000 patterns of `/a/:name`, or 35 of `\w{20}`
/// (Unicode).
pub(super) const MAX_SET_NFA_BYTES: usize = 16 << 20;

/// The most patterns a page is matched against one by one; past it, all in one pass.
const MAX_CANDIDATES: usize = 32;

/// Why a pattern is not matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Its automaton alone passes [`MAX_PATTERN_NFA_BYTES`].
    #[error(
        "its automaton would take more than {} KiB; write a simpler pattern",
        MAX_PATTERN_NFA_BYTES >> 10
    )]
    TooLarge,
    /// The automata of the patterns before it took [`MAX_SET_NFA_BYTES`].
    #[error(
        "the patterns before it that need a regular expression took the {} MiB they are \
         given; write literal paths or `/path/*` patterns",
        MAX_SET_NFA_BYTES >> 20
    )]
    SetFull,
}

/// The patterns refused, by their places, and why.
type Refused = Vec<(usize, Refusal)>;

/// The rules of one shape, by their literal path or prefix.
#[derive(Debug, Default)]
struct Lookup {
    /// The rules, and the characters each allows after its literal path.
    by: HashMap<String, Vec<(usize, &'static [char])>>,
    /// The lengths of the keys, in bytes, in order: the prefixes of a path looked up.
    lengths: Vec<usize>,
}

/// The patterns of one kind, matched together.
#[derive(Debug)]
pub(super) struct Matcher {
    /// Literal paths, prefixes, and the leads of the patterns in `set` (by their place
    /// there); each as written and folded (case ignored).
    exact: [Lookup; 2],
    prefix: [Lookup; 2],
    leads: [Lookup; 2],
    set: Option<Regex>,
    /// The rule of each pattern of `set`.
    set_rules: Vec<usize>,
}

impl Matcher {
    /// The patterns of the rules of one kind, in order, and the ones refused (by index).
    pub fn new(patterns: &[&Pattern]) -> (Matcher, Refused) {
        let mut exact: [Lookup; 2] = Default::default();
        let mut prefix: [Lookup; 2] = Default::default();
        let mut regexes = Vec::new();
        for (i, pattern) in patterns.iter().enumerate() {
            match pattern.shape() {
                Shape::Exact { key, fold, trail } => exact[usize::from(*fold)].add(key, i, trail),
                Shape::Prefix {
                    prefix: p, fold, ..
                } => prefix[usize::from(*fold)].add(p, i, &[]),
                Shape::Regex { .. } => regexes.push((i, pattern.regex())),
            }
        }
        let (set, set_rules, refused) = build_set(&regexes);
        let mut leads: [Lookup; 2] = Default::default();
        for (at, &i) in set_rules.iter().enumerate() {
            if let Shape::Regex { lead, fold } = patterns[i].shape() {
                leads[usize::from(*fold)].add(lead, at, &[]);
            }
        }
        for lookup in exact.iter_mut().chain(&mut prefix).chain(&mut leads) {
            lookup.lengths.sort_unstable();
            lookup.lengths.dedup();
        }
        let matcher = Matcher {
            exact,
            prefix,
            leads,
            set,
            set_rules,
        };
        (matcher, refused)
    }

    /// The indices of the patterns that match `path`, in order.
    pub fn matches(&self, path: &str) -> Vec<usize> {
        let mut found = Vec::new();
        let folds = [&self.exact[1], &self.prefix[1], &self.leads[1]];
        let folded = folds
            .iter()
            .any(|l| !l.by.is_empty())
            .then(|| pattern::fold(path));
        let mut candidates = Vec::new();
        for (fold, text) in [(0, Some(path)), (1, folded.as_deref())] {
            let Some(text) = text else { continue };
            self.exact[fold].exact(text, &mut found);
            self.prefix[fold].prefixes(text, true, &mut found);
            self.leads[fold].prefixes(text, false, &mut candidates);
        }
        if let Some(set) = &self.set {
            found.extend(self.search(set, path, &candidates));
        }
        found.sort_unstable();
        found
    }

    /// The rules of the patterns of `set` that match `path`: of the `candidates` (their
    /// places), each alone, or all in one pass when there are many.
    fn search(&self, set: &Regex, path: &str, candidates: &[usize]) -> Vec<usize> {
        let matched: Vec<usize> = if candidates.len() <= MAX_CANDIDATES {
            (candidates.iter().copied())
                .filter(|&at| {
                    let pattern = Anchored::Pattern(PatternID::new_unchecked(at));
                    set.is_match(Input::new(path).anchored(pattern))
                })
                .collect()
        } else {
            let mut all = PatternSet::new(set.pattern_len());
            set.which_overlapping_matches(&Input::new(path), &mut all);
            all.iter().map(|id| id.as_usize()).collect()
        };
        matched.into_iter().map(|at| self.set_rules[at]).collect()
    }
}

impl Lookup {
    fn add(&mut self, key: &str, rule: usize, trail: &'static [char]) {
        self.lengths.push(key.len());
        self.by
            .entry(key.to_string())
            .or_default()
            .push((rule, trail));
    }

    /// The literal paths `path` is, or is with one character its pattern allows after.
    fn exact(&self, path: &str, found: &mut Vec<usize>) {
        found.extend(self.by.get(path).into_iter().flatten().map(|(i, _)| i));
        let Some(last) = path.chars().next_back() else {
            return;
        };
        let stem = &path[..path.len() - last.len_utf8()];
        let rules = self.by.get(stem).into_iter().flatten();
        found.extend(
            rules
                .filter(|(_, trail)| trail.contains(&last))
                .map(|(i, _)| i),
        );
    }

    /// The keys `path` starts with; with `dot`, only where no line break follows (a
    /// `.*`).
    fn prefixes(&self, path: &str, dot: bool, found: &mut Vec<usize>) {
        let last_break = path.rfind('\n').filter(|_| dot);
        for &len in &self.lengths {
            if len > path.len() {
                break;
            }
            if last_break.is_some_and(|at| at >= len) {
                continue;
            }
            if let Some(rules) = path.get(..len).and_then(|stem| self.by.get(stem)) {
                found.extend(rules.iter().map(|(i, _)| i));
            }
        }
    }
}

/// The patterns that need a regular expression as one set, the rules of its patterns,
/// and the ones refused (in order).
fn build_set(regexes: &[(usize, &str)]) -> (Option<Regex>, Vec<usize>, Refused) {
    let (mut kept, mut refused) = measure(regexes);
    // As the regex crate's `RegexSet` builds it, with the PikeVM alone: a page is
    // searched for one pattern at a time, anchored, in time of that pattern's size. A
    // lazy DFA needs the patterns' automaton reversed (as large again, as long to build)
    // and the bounded backtracker clears a table of all the set's states each search.
    let config = meta::Config::new()
        .match_kind(MatchKind::All)
        .which_captures(WhichCaptures::None)
        .nfa_size_limit(Some(MAX_SET_NFA_BYTES))
        .hybrid(false)
        .dfa(false)
        .onepass(false)
        .backtrack(false)
        .auto_prefilter(false);
    let set = loop {
        if kept.is_empty() {
            break None;
        }
        let sources: Vec<&str> = kept.iter().map(|(_, regex)| *regex).collect();
        let set = Regex::builder()
            .configure(config.clone())
            .build_many(&sources);
        match set {
            Ok(set) => break Some(set),
            // Measured apart, they did not fit together (not seen): the later half out.
            Err(_) => {
                let half = kept.len() / 2;
                refused.extend(kept.drain(half..).map(|(i, _)| (i, Refusal::SetFull)));
            }
        }
    };
    refused.sort_unstable_by_key(|(i, _)| *i);
    (set, kept.iter().map(|(i, _)| *i).collect(), refused)
}

/// The patterns that fit, each measured alone: those whose automaton fits in
/// [`MAX_PATTERN_NFA_BYTES`], in order, until they take the set's.
fn measure<'r>(regexes: &[(usize, &'r str)]) -> (Vec<(usize, &'r str)>, Refused) {
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    // Building takes more than what is built (a fifth more for Unicode classes).
    let budget = MAX_SET_NFA_BYTES / 4 * 3;
    let mut spent = 0;
    let config = thompson::Config::new()
        .nfa_size_limit(Some(MAX_PATTERN_NFA_BYTES))
        .which_captures(WhichCaptures::None);
    // One compiler for all: each new one allocates and fills its tables for Unicode
    // classes (400 KiB), which took most of the time.
    let mut compiler = thompson::Compiler::new();
    compiler.configure(config);
    for &(i, regex) in regexes {
        if spent >= budget {
            // Full: the rest are not built at all (10,000 rules of `\w{20}` took 40 s).
            refused.push((i, Refusal::SetFull));
            continue;
        }
        match compiler.build(regex) {
            Ok(nfa) if spent + nfa.memory_usage() <= budget => {
                spent += nfa.memory_usage();
                kept.push((i, regex));
            }
            Ok(_) => {
                spent = budget;
                refused.push((i, Refusal::SetFull));
            }
            Err(_) => refused.push((i, Refusal::TooLarge)),
        }
    }
    (kept, refused)
}

#[cfg(test)]
mod tests;
