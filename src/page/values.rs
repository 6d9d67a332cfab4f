//! What the values a head holds mean: a refresh's target, a JSON-LD modified date, a
//! title or description as the views show it, a language tag.

/// The most bytes of a language tag: BCP 47's longest common forms fit in 35.
pub const LANG_LIMIT: usize = 35;

/// `dateModified` anywhere in a JSON-LD document (top level, in `@graph`, nested).
pub(super) fn json_ld_date_modified(bytes: &[u8]) -> Option<String> {
    fn find(v: &serde_json::Value) -> Option<String> {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::String(s)) = map.get("dateModified") {
                    return Some(s.trim().to_string());
                }
                map.values().find_map(find)
            }
            serde_json::Value::Array(items) => items.iter().find_map(find),
            _ => None,
        }
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    find(&value)
}

/// The URL a refresh `content` redirects to, if it names one: `0; url=/new/`,
/// `5,URL='x'`, `0;/new/`. A plain delay (`30`) reloads the page itself: no redirect.
///
/// Written by hand: this is the HTML spec's "shared declarative refresh steps", which no
/// crate implements on its own.
pub fn refresh_target(content: &str) -> Option<String> {
    let rest = content.trim_start();
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let rest = rest.trim_start();
    let rest = rest.strip_prefix([';', ','])?.trim_start();
    let rest = match rest.get(..3) {
        Some(u) if u.eq_ignore_ascii_case("url") => {
            let after = rest[3..].trim_start();
            match after.strip_prefix('=') {
                Some(v) => v.trim_start(),
                None => rest,
            }
        }
        _ => rest,
    };
    let target = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
        _ => rest,
    };
    let target = target.trim();
    (!target.is_empty()).then(|| target.to_string())
}

/// A value read from the head (`<title>`, a meta `content`) as the views show it: on
/// one line, runs of whitespace one space, control characters dropped, trimmed, and at
/// most `limit` characters (a longer one ends in `…`); `None` when nothing is left.
pub(super) fn collapsed(bytes: &[u8], limit: usize) -> Option<String> {
    let text = crate::html::lossy(bytes);
    let mut out = String::new();
    let mut chars = 0;
    for word in text.split(|c: char| c.is_whitespace() || c.is_control()) {
        if word.is_empty() {
            continue;
        }
        if chars > 0 {
            out.push(' ');
            chars += 1;
        }
        out.push_str(word);
        chars += word.chars().count();
        if chars > limit {
            break;
        }
    }
    if chars > limit {
        let cut: String = out.chars().take(limit - 1).collect();
        out = format!("{}…", cut.trim_end());
    }
    (!out.is_empty()).then_some(out)
}

/// A `lang` value when it is a language tag: letters, digits and `-`, at most
/// [`LANG_LIMIT`] bytes, starting with a letter.
pub(super) fn language_tag(value: &[u8]) -> Option<String> {
    let value = value.trim_ascii();
    let fits = (1..=LANG_LIMIT).contains(&value.len())
        && value[0].is_ascii_alphabetic()
        && value
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-');
    fits.then(|| crate::html::lossy(value).into_owned())
}
