//! The path patterns of the hosts' rules, each compiled to the regular expression its
//! host builds from it (Netlify's `@netlify/headers-parser`, Cloudflare's rules engine,
//! Vercel's `path-to-regexp`, Firebase's globs and RE2 expressions all do so), matched
//! by the `regex` crate: in linear time, whatever the pattern.
//!
//! The translations are written by hand: each host defines its small language itself,
//! and no crate implements them.

use regex::Regex;

/// The largest compiled pattern: a rule cannot make the run use much memory.
const MAX_COMPILED_BYTES: usize = 1 << 20;

/// A compiled path pattern, and its source as written.
#[derive(Debug, Clone)]
pub struct Pattern {
    re: Regex,
}

/// The pattern languages the hosts use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Netlify: `:name` is one segment, a `*` segment is the rest of the path (the slash
    /// before it optional), a trailing slash is optional. Headers ignore case; redirects
    /// do not.
    Netlify {
        /// Whether case is ignored (headers).
        ignore_case: bool,
    },
    /// Cloudflare Pages: `*` is any characters, `:name` one segment, matched exactly.
    Cloudflare,
    /// Vercel's `path-to-regexp`: `:name`, `:name*`, `:name+`, `:name?`, `(regex)`,
    /// `{group}`; case ignored and a trailing slash optional.
    PathToRegexp,
    /// Firebase `source` globs: `**`, `*`, `?`, `{a,b}`, `@(a|b)`, and `:name` segments.
    Glob,
    /// Firebase `regex`: an RE2 expression, matched against the whole path.
    Regex,
}

/// A pattern the host's language allows that cannot be read here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the pattern {pattern:?}: {why}")]
pub struct BadPattern {
    /// The pattern as written.
    pub pattern: String,
    /// What is wrong.
    pub why: String,
}

impl Pattern {
    /// Compiles `pattern`, written in `syntax`.
    pub fn new(pattern: &str, syntax: Syntax) -> Result<Pattern, BadPattern> {
        let bad = |why: String| BadPattern {
            pattern: pattern.to_string(),
            why,
        };
        let source = match syntax {
            Syntax::Netlify { ignore_case } => netlify(pattern, ignore_case),
            Syntax::Cloudflare => cloudflare(pattern),
            Syntax::PathToRegexp => path_to_regexp(pattern).map_err(bad)?,
            Syntax::Glob => glob(pattern).map_err(bad)?,
            Syntax::Regex => format!("^(?:{pattern})$"),
        };
        let re = regex::RegexBuilder::new(&source)
            .size_limit(MAX_COMPILED_BYTES)
            .build()
            .map_err(|e| bad(e.to_string()))?;
        Ok(Pattern { re })
    }

    /// The regular expression, for a set of many.
    pub fn as_str(&self) -> &str {
        self.re.as_str()
    }

    /// Whether the path (decoded, starting with `/`) matches.
    #[cfg(test)]
    pub fn matches(&self, path: &str) -> bool {
        self.re.is_match(path)
    }

    /// `to` with the parts `path` matched put in: `:splat` and `:name` (Netlify,
    /// Cloudflare, Vercel, Firebase), `$1` (Vercel). `None` when `path` does not match.
    pub fn expand(&self, path: &str, to: &str) -> Option<String> {
        let caps = self.re.captures(path)?;
        let mut out = String::with_capacity(to.len());
        let mut at = 0;
        while let Some(found) = to[at..].find([':', '$']) {
            let sigil = at + found;
            out.push_str(&to[at..sigil]);
            let name_end = to[sigil + 1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(to.len(), |n| sigil + 1 + n);
            let name = &to[sigil + 1..name_end];
            let value = if to.as_bytes()[sigil] == b'$' {
                name.parse::<usize>().ok().and_then(|i| caps.get(i))
            } else {
                caps.name(name)
            };
            at = name_end;
            match value {
                Some(value) => {
                    out.push_str(value.as_str());
                    // `:path*` in a Vercel destination is the parameter, all of it.
                    if to[at..].starts_with(['*', '+', '?']) {
                        at += 1;
                    }
                }
                None => out.push_str(&to[sigil..name_end]),
            }
        }
        out.push_str(&to[at..]);
        Some(out)
    }
}

/// A named group, when the name is one the regex crate takes and not yet used.
fn group(name: &str, used: &mut Vec<String>, inner: &str) -> String {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid && !used.iter().any(|u| u == name) {
        used.push(name.to_string());
        format!("(?P<{name}>{inner})")
    } else {
        format!("({inner})")
    }
}

/// As `@netlify/headers-parser`'s `getForRegExp`: `^/part/part/?$`.
fn netlify(pattern: &str, ignore_case: bool) -> String {
    let mut used = Vec::new();
    let parts: Vec<String> = (pattern.split('/').map(str::trim_end))
        .filter(|p| !p.is_empty())
        .map(|part| {
            if let Some(name) = part.strip_prefix(':') {
                group(name, &mut used, "[^/]+")
            } else if part == "*" {
                format!("?{}", group("splat", &mut used, ".*"))
            } else {
                let pieces: Vec<String> = part.split('*').map(regex::escape).collect();
                pieces.join("(.*)")
            }
        })
        .collect();
    let flags = if ignore_case { "(?i)" } else { "" };
    format!("{flags}^/{}/?$", parts.join("/"))
}

/// As Cloudflare's rules engine: `*` is `(?<splat>.*)`, `:name` is `(?<name>[^/]+)`.
fn cloudflare(pattern: &str) -> String {
    let mut used = Vec::new();
    let mut out = String::from("^");
    for (i, piece) in pattern.split('*').enumerate() {
        if i > 0 {
            out.push_str(&group("splat", &mut used, ".*"));
        }
        let mut rest = piece;
        while let Some(at) = rest.find(':') {
            out.push_str(&regex::escape(&rest[..at]));
            let after = &rest[at + 1..];
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if len == 0 || !after.starts_with(|c: char| c.is_ascii_alphabetic()) {
                out.push(':');
            } else {
                out.push_str(&group(&after[..len], &mut used, "[^/]+"));
            }
            rest = &after[len..];
        }
        out.push_str(&regex::escape(rest));
    }
    out.push('$');
    out
}

/// As `path-to-regexp` 6 (Vercel), non-strict and case-insensitive: a parameter after a
/// `/` takes the slash with it when optional or repeated.
fn path_to_regexp(pattern: &str) -> Result<String, String> {
    let mut used = Vec::new();
    let mut out = String::from("(?i)^");
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                out.push_str(&regex::escape(&chars[i + 1].to_string()));
                i += 2;
                continue;
            }
            ':' | '(' => {
                let prefix = out.ends_with('/');
                let mut name = String::new();
                if c == ':' {
                    i += 1;
                    while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                        name.push(chars[i]);
                        i += 1;
                    }
                    if name.is_empty() {
                        return Err("a ':' names no parameter".to_string());
                    }
                }
                let mut inner = "[^/#?]+?".to_string();
                if chars.get(i) == Some(&'(') {
                    let end = balanced(&chars, i).ok_or("a '(' is not closed")?;
                    inner = chars[i + 1..end].iter().collect();
                    i = end + 1;
                }
                let modifier = chars
                    .get(i)
                    .copied()
                    .filter(|m| matches!(m, '?' | '*' | '+'));
                if modifier.is_some() {
                    i += 1;
                }
                if matches!(modifier, Some('*' | '+')) {
                    inner = format!("(?:{inner})(?:/(?:{inner}))*");
                }
                let param = group(&name, &mut used, &inner);
                if prefix && modifier.is_some() {
                    out.pop();
                }
                let slash = if prefix { "/" } else { "" };
                out.push_str(&match modifier {
                    None => param,
                    Some('?' | '*') => format!("(?:{slash}{param})?"),
                    _ => format!("(?:{slash}{param})"),
                });
                continue;
            }
            '{' => out.push_str("(?:"),
            '}' => {
                out.push(')');
                if let Some(m @ ('?' | '*' | '+')) = chars.get(i + 1) {
                    out.push(*m);
                    i += 1;
                }
            }
            _ => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    out.push_str("[/#?]?$");
    Ok(out)
}

/// The index of the `)` closing the `(` at `open`.
fn balanced(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Firebase's globs: `**` any characters, `*` and `?` within a segment, `{a,b}` and
/// `@(a|b)` alternatives, `:name` a segment and `:name*` the rest; matched exactly.
fn glob(pattern: &str) -> Result<String, String> {
    let mut used = Vec::new();
    let mut out = String::from("^");
    let chars: Vec<char> = pattern.chars().collect();
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '*' if next == Some('*') => {
                out.push_str(".*");
                i += 1;
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '{' => {
                braces += 1;
                out.push_str("(?:");
            }
            '}' if braces > 0 => {
                braces -= 1;
                out.push(')');
            }
            ',' if braces > 0 => out.push('|'),
            '@' if next == Some('(') => {
                let end = balanced(&chars, i + 1).ok_or("a '(' is not closed")?;
                let inner: String = chars[i + 2..end].iter().collect();
                let alternatives: Vec<String> = inner.split('|').map(regex::escape).collect();
                out.push_str(&format!("(?:{})", alternatives.join("|")));
                i = end;
            }
            '+' | '!' if next == Some('(') => {
                return Err(format!("the extended glob '{c}(...)' is not supported"));
            }
            ':' if out.ends_with('/') => {
                let mut name = String::new();
                while let Some(&n) = chars.get(i + 1)
                    && (n.is_ascii_alphanumeric() || n == '_')
                {
                    name.push(n);
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'*') {
                    out.push_str(&group(&name, &mut used, ".*"));
                    i += 1;
                } else {
                    out.push_str(&group(&name, &mut used, "[^/]+"));
                }
            }
            _ => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    if braces > 0 {
        return Err("a '{' is not closed".to_string());
    }
    out.push('$');
    Ok(out)
}

#[cfg(test)]
mod tests;
