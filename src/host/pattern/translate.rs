//! The hosts' pattern languages, each translated to the regular expression its host
//! builds from it (Netlify's `@netlify/headers-parser`, Cloudflare's rules engine,
//! Vercel's `path-to-regexp`, Firebase's globs).
//!
//! The translations are written by hand: each host defines its small language itself,
//! and no crate implements them.

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
pub(super) fn netlify(pattern: &str, ignore_case: bool) -> String {
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
pub(super) fn cloudflare(pattern: &str) -> String {
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

/// As `path-to-regexp` 6 with the options Vercel compiles every `source` with
/// (`@vercel/routing-utils`' `sourceToRegex`: `strict`): a trailing slash is not
/// optional. Case is ignored: the routes it becomes are matched so unless one says
/// `caseSensitive` (the Build Output API), and none made from `vercel.json` does. A
/// parameter after a `/` takes the slash with it when optional or repeated.
pub(super) fn path_to_regexp(pattern: &str) -> Result<String, String> {
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
    out.push('$');
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
/// `@(a|b)` alternatives, with `names` `:name` a segment and `:name*` the rest (without,
/// the text `:name`); matched exactly but
/// for a trailing slash on the path, which `minimatch` (superstatic's matcher) lets
/// any pattern match (`/a` matches `/a/`).
pub(super) fn glob(pattern: &str, names: bool) -> Result<String, String> {
    let mut used = Vec::new();
    let mut out = String::from("^");
    let chars: Vec<char> = pattern.chars().collect();
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            // `**/` is any folders, none too (`/docs/**/*.html` matches `/docs/a.html`).
            '*' if next == Some('*') && chars.get(i + 2) == Some(&'/') => {
                out.push_str("(?:.*/)?");
                i += 2;
            }
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
            ':' if names && out.ends_with('/') => {
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
    out.push_str("/?$");
    Ok(out)
}
