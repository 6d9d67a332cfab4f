//! The shapes of pattern that need no regular expression: a literal path, and a literal
//! path with all that follows it. Each is matched exactly as its host's regular
//! expression ([`super::translate`]) matches: the tests compare the two.

use super::Syntax;

/// How a pattern is matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::host) enum Shape {
    /// One path: `key` (its [`super::fold`] when `fold`), alone or with one of `trail`
    /// after it (Netlify's and Firebase's optional slash). No groups.
    Exact {
        key: String,
        fold: bool,
        trail: &'static [char],
    },
    /// The paths that start with `prefix` (folded when `fold`) and have no line break
    /// after it (the regular expression's `.*`).
    Prefix { prefix: String, fold: bool },
    /// Anything else: its regular expression, which every path it matches starts with
    /// `lead` (folded when `fold`; see `Pattern::new`).
    Regex { lead: String, fold: bool },
}

/// A pattern that needs its regular expression; its lead is found from it.
const REGEX: Shape = Shape::Regex {
    lead: String::new(),
    fold: false,
};

/// Netlify's and Firebase's optional trailing slash.
const SLASH: &[char] = &['/'];

/// The shape of `pattern`, written in `syntax`.
pub(super) fn of(pattern: &str, syntax: Syntax) -> Shape {
    match syntax {
        Syntax::Netlify { ignore_case } => netlify(pattern, ignore_case),
        Syntax::Cloudflare => cloudflare(pattern),
        Syntax::PathToRegexp => path_to_regexp(pattern),
        Syntax::Glob { .. } => glob(pattern),
        Syntax::Regex => REGEX,
    }
}

fn key(text: &str, fold: bool) -> String {
    if fold {
        super::fold(text)
    } else {
        text.to_string()
    }
}

/// As `translate::netlify`: the parts between slashes (trimmed, empty ones dropped);
/// literal ones, the last perhaps `*` or ending in `*`.
fn netlify(pattern: &str, fold: bool) -> Shape {
    let parts: Vec<&str> = (pattern.split('/').map(str::trim_end))
        .filter(|p| !p.is_empty())
        .collect();
    let plain = |p: &&str| !p.starts_with(':') && !p.contains('*');
    let Some((last, before)) = parts.split_last() else {
        return exact("/", fold, SLASH);
    };
    if !before.iter().all(plain) || last.starts_with(':') {
        return REGEX;
    }
    let head: String = before.iter().map(|p| format!("/{p}")).collect();
    match last.strip_suffix('*') {
        None if last.contains('*') => REGEX,
        None => exact(&format!("{head}/{last}"), fold, SLASH),
        Some(_) if last.matches('*').count() > 1 => REGEX,
        // `^/a/?(?P<splat>.*)/?$`: the paths that start with `/a`.
        Some("") => prefix(&head, fold),
        // `^/a/b(.*)/?$`.
        Some(stem) => prefix(&format!("{head}/{stem}"), fold),
    }
}

/// As `translate::cloudflare`: no `:name`, and no `*` but perhaps one at the end.
fn cloudflare(pattern: &str) -> Shape {
    let names = pattern
        .split(':')
        .skip(1)
        .any(|after| after.starts_with(|c: char| c.is_ascii_alphabetic()));
    let (stem, star) = match pattern.strip_suffix('*') {
        Some(stem) => (stem, true),
        None => (pattern, false),
    };
    match (names || stem.contains('*'), star) {
        (true, _) => REGEX,
        (false, false) => exact(stem, false, &[]),
        (false, true) => prefix(stem, false),
    }
}

/// As `translate::path_to_regexp`: none of its special characters, but perhaps a `(.*)`
/// at the end; case ignored, a trailing slash not.
fn path_to_regexp(pattern: &str) -> Shape {
    let special = |s: &str| s.contains([':', '(', ')', '{', '}', '\\']);
    match pattern.strip_suffix("(.*)") {
        _ if !special(pattern) => exact(pattern, true, &[]),
        Some(stem) if !special(stem) => prefix(stem, true),
        _ => REGEX,
    }
}

/// As `translate::glob`: none of its special characters, but perhaps a `**` at the end;
/// a trailing slash on the path allowed.
fn glob(pattern: &str) -> Shape {
    let special = |s: &str| s.contains(['*', '?', '{', '}', '(', ')', ':', ',']);
    match pattern.strip_suffix("**") {
        _ if !special(pattern) => exact(pattern, false, SLASH),
        Some(stem) if !special(stem) => prefix(stem, false),
        _ => REGEX,
    }
}

fn exact(path: &str, fold: bool, trail: &'static [char]) -> Shape {
    Shape::Exact {
        key: key(path, fold),
        fold,
        trail,
    }
}

fn prefix(stem: &str, fold: bool) -> Shape {
    Shape::Prefix {
        prefix: key(stem, fold),
        fold,
    }
}
