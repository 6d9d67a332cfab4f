//! The front matter most sources have, read without parsing it whole: a flat block of
//! `key: value` (YAML) or `key = value` (TOML) lines, one key each, of which only the
//! keys [`super::parse`] reads are kept.
//!
//! A line scan can tell a value only where its form leaves no doubt, and must be sure the
//! block is one the parser takes (a block it refuses gives no dates at all). So anything
//! else gives up ([`block`] is `None`) and the block is parsed whole: a nested map, a
//! value the kept keys have that is not a one-line string or boolean (a list, a number,
//! a string with escapes), a quoted or dotted key, a key twice, a TOML table, tabs, CR,
//! control characters. The lists and block scalars other keys often have (`tags: [a,
//! b]`, `tags:` with `- a` lines, `summary: |` with indented lines) are passed over.

use super::Scalar;

/// The most keys a flat block is scanned for: past it, the block is parsed whole.
const MAX_KEYS: usize = 64;

/// The kept keys' values of a flat front-matter block (`yaml`: YAML, else TOML), or
/// `None` when the block must be parsed whole. `kept` tells the keys to keep.
pub(super) fn block(
    body: &str,
    yaml: bool,
    kept: &dyn Fn(&str) -> bool,
) -> Option<Vec<(String, Scalar)>> {
    if body.bytes().any(|b| (b < 0x20 && b != b'\n') || b == 0x7f) {
        return None;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut found = Vec::new();
    let mut lines = body.split('\n').peekable();
    while let Some(line) = lines.next() {
        let text = line.trim_start_matches(' ');
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let (key, value) = match yaml {
            true => yaml_pair(line)?,
            false => toml_pair(line)?,
        };
        if seen.contains(&key) || seen.len() == MAX_KEYS {
            return None;
        }
        seen.push(key);
        if kept(key) {
            let scalar = match yaml {
                true => yaml_scalar(value)?,
                false => toml_scalar(value)?,
            };
            found.push((key.to_string(), scalar));
            continue;
        }
        let valid = match yaml {
            true => yaml_skipped(value, &mut lines),
            false => toml_skipped(value),
        };
        if !valid {
            return None;
        }
    }
    (!seen.is_empty()).then_some(found)
}

/// Whether `key` is a key the scan takes as written: a bare TOML key without dots, which
/// YAML reads the same as a plain scalar.
fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 256
        && (key.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && !key.starts_with('-')
}

/// A top-level `key: value` line at column 0, its key one YAML reads as a string.
fn yaml_pair(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let string = matches!(yaml_rust2::Yaml::from_str(key), yaml_rust2::Yaml::String(_));
    if !is_bare_key(key) || !string || !(value.is_empty() || value.starts_with(' ')) {
        return None;
    }
    Some((key, value.trim_start_matches(' ')))
}

/// A top-level `key = value` line.
fn toml_pair(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.trim_start_matches(' ').split_once('=')?;
    let key = key.trim_end_matches(' ');
    is_bare_key(key).then(|| (key, value.trim_start_matches(' ')))
}

/// What follows a value on its line: nothing, or spaces and a comment.
fn ends(rest: &str) -> bool {
    let rest = rest.trim_start_matches(' ');
    rest.is_empty() || rest.starts_with('#')
}

/// A one-line quoted string at the start of `value` (no escapes, closed on the line, only
/// a comment after it) and its text: `'it''s'` in single quotes (YAML), the text as
/// written otherwise.
fn quoted(value: &str, yaml: bool) -> Option<String> {
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &value[1..];
    if quote == '"' || !yaml {
        let end = inner.find(quote)?;
        let text = &inner[..end];
        let after = &inner[end + 1..];
        // A TOML `"""` or `'''` string may span lines.
        let opens_multiline = !yaml && text.is_empty() && after.starts_with(quote);
        return (!text.contains('\\') && !opens_multiline && ends_after_value(after))
            .then(|| text.to_string());
    }
    // YAML single quotes: `''` is one quote; the string ends at a lone quote.
    let mut text = String::new();
    let mut rest = inner;
    loop {
        let end = rest.find('\'')?;
        text.push_str(&rest[..end]);
        rest = &rest[end + 1..];
        match rest.strip_prefix('\'') {
            Some(after) => {
                text.push('\'');
                rest = after;
            }
            None => return ends_after_value(rest).then_some(text),
        }
    }
}

/// After a quoted value: nothing, or at least one space and a comment.
fn ends_after_value(after: &str) -> bool {
    after.is_empty() || (after.starts_with(' ') && ends(after))
}

/// A plain YAML scalar as written, without its comment: none for what is no valid
/// one-line plain scalar (an indicator first, `: ` or a `:` at its end, nothing).
fn yaml_plain(value: &str) -> Option<&str> {
    // A comment starts at ` #`.
    let text = value.split(" #").next().unwrap_or_default();
    let text = text.trim_end_matches(' ');
    let first = text.chars().next()?;
    let valid =
        !"-?:,[]{}#&*!|>'\"%@`".contains(first) && !text.contains(": ") && !text.ends_with(':');
    valid.then_some(text)
}

/// The value of a kept YAML key, when the scan can tell it: a one-line quoted string,
/// or a plain scalar typed as yaml-rust2 types it (and shown as [`super::parse`] shows
/// each type).
fn yaml_scalar(value: &str) -> Option<Scalar> {
    use yaml_rust2::Yaml;
    if value.starts_with(['"', '\'']) {
        return quoted(value, true).map(Scalar::Text);
    }
    Some(match Yaml::from_str(yaml_plain(value)?) {
        Yaml::String(s) | Yaml::Real(s) => Scalar::Text(s),
        Yaml::Integer(i) => Scalar::Text(i.to_string()),
        Yaml::Boolean(b) => Scalar::Flag(b),
        _ => Scalar::Other,
    })
}

/// The value of a kept TOML key, when the scan can tell it.
fn toml_scalar(value: &str) -> Option<Scalar> {
    if value.starts_with(['"', '\'']) {
        return quoted(value, false).map(Scalar::Text);
    }
    let (word, rest) = value.split_once(' ').unwrap_or((value, ""));
    if !ends(rest) {
        return None;
    }
    match word {
        "true" => return Some(Scalar::Flag(true)),
        "false" => return Some(Scalar::Flag(false)),
        _ => {}
    }
    // An offset or local date-time, read by the toml crate itself and shown as it
    // shows it. (A date and a time with a space between are two words: parsed whole.)
    let datetime: toml::value::Datetime = word.parse().ok()?;
    Some(Scalar::Text(datetime.to_string()))
}

/// Whether the value of a YAML key the scan passes over is one it knows to be valid:
/// a plain or one-line quoted scalar, a one-line list of such, nothing followed by `- `
/// items, or a block scalar with its indented lines (which it takes from `lines`).
fn yaml_skipped(value: &str, lines: &mut Lines) -> bool {
    let bare = value
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim_end_matches(' ');
    if bare.is_empty() {
        return yaml_items(lines);
    }
    if matches!(bare, "|" | "|-" | "|+" | ">" | ">-" | ">+") {
        return block_scalar(lines);
    }
    if value.starts_with(['"', '\'']) {
        return quoted(value, true).is_some();
    }
    if let Some(list) = bare.strip_prefix('[') {
        let Some(items) = list.strip_suffix(']') else {
            return false;
        };
        return items.trim().is_empty()
            || items
                .split(',')
                .all(|item| simple_word(item.trim_matches(' ')));
    }
    yaml_plain(value).is_some()
}

/// The lines of a block, looked at one ahead.
type Lines<'a> = std::iter::Peekable<std::str::Split<'a, char>>;

/// A word a flow list or a `- ` item may hold as is: letters, digits, `_`, `-`, `.`,
/// `/` and inner spaces, starting with a letter or digit.
fn simple_word(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && (word.bytes()).all(|b| b.is_ascii_alphanumeric() || b" _-./".contains(&b))
        && !word.ends_with(' ')
}

/// The `- item` lines after a key with no value, all at one indent: each a simple word.
/// None at all is a null value, also valid.
fn yaml_items(lines: &mut Lines) -> bool {
    let mut indent = None;
    while let Some(line) = lines.peek() {
        let item = line.trim_start_matches(' ');
        if !item.starts_with('-') || item.starts_with("---") {
            break;
        }
        let at = line.len() - item.len();
        if *indent.get_or_insert(at) != at {
            return false;
        }
        let Some(word) = item.strip_prefix("- ") else {
            return false;
        };
        if !simple_word(word.trim_start_matches(' ')) {
            return false;
        }
        lines.next();
    }
    // Anything else indented under the key (a nested map) is parsed whole.
    lines.peek().is_none_or(|line| !line.starts_with(' '))
}

/// A block scalar's lines: every one indented at least as much as its first, and blank
/// lines no longer than that; it ends at the first line at column 0.
fn block_scalar(lines: &mut Lines) -> bool {
    let mut indent = None;
    while let Some(line) = lines.peek() {
        let text = line.trim_start_matches(' ');
        let at = line.len() - text.len();
        if at == 0 && !text.is_empty() {
            break;
        }
        match (text.is_empty(), indent) {
            (true, Some(i)) if at > i => return false,
            (true, None) if at > 0 => return false,
            (true, _) => {}
            (false, None) => indent = Some(at),
            (false, Some(i)) if at < i => return false,
            (false, Some(_)) => {}
        }
        lines.next();
    }
    indent.is_some()
}

/// Whether the value of a TOML key the scan passes over is one it knows to be valid: a
/// one-line string, a boolean, a plain integer, a date-time, or a one-line list of
/// strings.
fn toml_skipped(value: &str) -> bool {
    if let Some(list) = value.strip_prefix('[') {
        let Some((items, rest)) = list.split_once(']') else {
            return false;
        };
        let items = items.trim_matches(' ');
        return ends(rest)
            && (items.is_empty()
                || (items.strip_suffix(',').unwrap_or(items).split(','))
                    .all(|item| quoted(item.trim_matches(' '), false).is_some()));
    }
    if toml_scalar(value).is_some() {
        return true;
    }
    let (word, rest) = value.split_once(' ').unwrap_or((value, ""));
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    let integer = digits == "0"
        || (digits.bytes().all(|b| b.is_ascii_digit())
            && !digits.is_empty()
            && !digits.starts_with('0'));
    integer && ends(rest)
}
