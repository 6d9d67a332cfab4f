//! What the values a head holds mean: a refresh's target, a JSON-LD modified date, a
//! title or description as the views show it, a language tag.

/// The most bytes of a language tag: BCP 47's longest common forms fit in 35.
pub const LANG_LIMIT: usize = 35;

/// The directives of `X-Robots-Tag` that take a value after a colon
/// (`max-snippet: 20`): what comes before their colon is not an agent's name.
const VALUED_DIRECTIVES: [&str; 4] = [
    "unavailable_after",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
];

/// Whether an `X-Robots-Tag` value says noindex for the robots names that count
/// (`noindex_agents`): `noindex` or `none`, alone (for `robots`) or after the name of an
/// agent that counts (`googlebot: noindex, nofollow`: the name holds for what follows;
/// `max-snippet: 20` names none). The one reading of the header: the host's rules and
/// `check --live` both use it.
pub fn robots_tag_says_noindex(value: &str, agents: &[String]) -> bool {
    let mut agent: Option<String> = None;
    for directive in value.split(',') {
        let mut directive = directive.trim().to_lowercase();
        if let Some((name, rest)) = directive.split_once(':')
            && !VALUED_DIRECTIVES.contains(&name.trim())
        {
            agent = Some(name.trim().to_string());
            directive = rest.trim().to_string();
        }
        let counts = match &agent {
            None => agents.iter().any(|a| a == "robots"),
            Some(name) => agents.iter().any(|a| a == name),
        };
        if counts && matches!(directive.as_str(), "noindex" | "none") {
            return true;
        }
    }
    false
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_x_robots_tag_is_noindex_for_the_agents_that_count() {
        let robots = vec!["robots".to_string()];
        let both = vec!["robots".to_string(), "googlebot".to_string()];
        let cases: &[(&str, &[String], bool)] = &[
            ("noindex", &robots, true),
            ("NoIndex, nofollow", &robots, true),
            ("none", &robots, true),
            ("nofollow", &robots, false),
            ("googlebot: noindex", &robots, false),
            ("googlebot: noindex", &both, true),
            ("bingbot: noindex, googlebot: nofollow", &both, false),
            // A directive with a value names no agent.
            ("max-snippet: 20, noindex", &robots, true),
            ("unavailable_after: 2030-01-01, noindex", &robots, true),
            ("", &robots, false),
        ];
        for (value, agents, want) in cases {
            assert_eq!(robots_tag_says_noindex(value, agents), *want, "{value:?}");
        }
    }
}
