//! What the values a page holds mean: a refresh's target, and the modified dates a page
//! keeps outside its head's meta tags (in JSON-LD, and in the body of generators that
//! put them there).

/// The most bytes of a page searched for a body date.
pub const BODY_DATE_LIMIT: usize = 1024 * 1024;

/// The `datetime` (or `content`) of the first element in `html` whose `itemprop` is
/// `dateModified`: how Docusaurus dates a doc in its body.
///
/// Written by hand: a search for one attribute in a minified page, where a tokenizer
/// pass over a whole page would cost more than the rest of the run's work on it.
pub fn body_date_modified(html: &[u8]) -> Option<String> {
    let finder = memchr::memmem::Finder::new(b"dateModified");
    for at in finder.find_iter(html) {
        let start = memchr::memrchr(b'<', &html[..at])?;
        if memchr::memchr(b'>', &html[start..at]).is_some() {
            continue;
        }
        let end = at + memchr::memchr(b'>', &html[at..])?;
        let tag = &html[start..end];
        if let Some(value) = ["datetime", "content"]
            .iter()
            .find_map(|a| attribute(tag, a))
        {
            return Some(value);
        }
    }
    None
}

/// The value of attribute `name` in a tag's text (`<time datetime=x itemprop=y`), quoted
/// or not, when the tag also says `itemprop` is `dateModified`.
fn attribute(tag: &[u8], name: &str) -> Option<String> {
    let tag = crate::html::lossy(tag);
    let lower = tag.to_ascii_lowercase();
    let value_of = |attr: &str| {
        let mut from = 0;
        while let Some(i) = lower[from..].find(attr) {
            let at = from + i;
            from = at + attr.len();
            let before = lower[..at].chars().next_back();
            if !before.is_some_and(char::is_whitespace) {
                continue;
            }
            let rest = tag[at + attr.len()..].trim_start();
            let rest = rest.strip_prefix('=')?.trim_start();
            let value = match rest.chars().next()? {
                q @ ('"' | '\'') => rest[1..].split(q).next()?,
                _ => rest.split(|c: char| c.is_whitespace() || c == '>').next()?,
            };
            return Some(value.trim().to_string());
        }
        None
    };
    let itemprop = value_of("itemprop")?;
    if !itemprop.split_whitespace().any(|p| p == "dateModified") {
        return None;
    }
    value_of(name).filter(|v| !v.is_empty())
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
/// [`super::LANG_LIMIT`] bytes, starting with a letter.
pub(super) fn language_tag(value: &[u8]) -> Option<String> {
    let value = value.trim_ascii();
    let fits = (1..=super::LANG_LIMIT).contains(&value.len())
        && value[0].is_ascii_alphabetic()
        && value
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-');
    fits.then(|| crate::html::lossy(value).into_owned())
}
