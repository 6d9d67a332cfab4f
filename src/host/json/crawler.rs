//! Vercel's `has` and `missing`, read as a crawler's request for the site: its host is
//! the site's, its user agent Googlebot's, and it carries no cookie, no query and no
//! other header. A rule's conditions are met as Vercel meets them (each `value` a
//! regular expression of the whole value, `^value$`; no `value`, only that it is there),
//! so a rule that applies to every crawler's request applies, and one that never does
//! is passed over.

use serde_json::Value;

/// The user agent a crawler's request carries: Googlebot's.
const CRAWLER_AGENT: &str =
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// The most bytes of a condition's `value` read as a regular expression's automaton:
/// real ones are a host name or a few words.
const MAX_VALUE_NFA_BYTES: usize = 1 << 20;

/// Whether a crawler's request for `site_host` meets the conditions `has` (each holds)
/// and `missing` (none holds); `None` when they cannot be told (a condition of a shape
/// Vercel does not document, a `value` that is not a string or does not parse).
pub(super) fn meets(has: Option<&Value>, missing: Option<&Value>, site_host: &str) -> Option<bool> {
    let list = |conditions: Option<&Value>| -> Option<Vec<bool>> {
        match conditions {
            None => Some(Vec::new()),
            Some(Value::Array(items)) => items.iter().map(|c| holds(c, site_host)).collect(),
            Some(_) => None,
        }
    };
    let (has, missing) = (list(has)?, list(missing)?);
    Some(has.iter().all(|&h| h) && !missing.iter().any(|&m| m))
}

/// Whether one condition holds for a crawler's request.
fn holds(condition: &Value, site_host: &str) -> Option<bool> {
    let kind = condition.get("type")?.as_str()?;
    let key = condition.get("key").and_then(Value::as_str);
    let sent = match (kind, key.map(str::to_ascii_lowercase).as_deref()) {
        ("host", _) | ("header", Some("host")) => Some(site_host),
        ("header", Some("user-agent")) => Some(CRAWLER_AGENT),
        ("header" | "cookie" | "query", Some(_)) => None,
        _ => return None,
    };
    let Some(sent) = sent else {
        return Some(false);
    };
    match condition.get("value") {
        None => Some(true),
        Some(Value::String(value)) => {
            let regex = regex::RegexBuilder::new(&format!("^{value}$"))
                .size_limit(MAX_VALUE_NFA_BYTES)
                .build()
                .ok()?;
            Some(regex.is_match(sent))
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_met_as_by_a_crawlers_request() {
        let site = "example.org";
        let table = [
            // The site's host, written or as a pattern; another host.
            (
                r#"[{"type":"host","value":"example.org"}]"#,
                "null",
                Some(true),
            ),
            (
                r#"[{"type":"host","value":"(www\\.)?example\\.org"}]"#,
                "null",
                Some(true),
            ),
            (
                r#"[{"type":"host","value":"preview.example.org"}]"#,
                "null",
                Some(false),
            ),
            (
                r#"[{"type":"header","key":"Host","value":"example.org"}]"#,
                "null",
                Some(true),
            ),
            // Googlebot's user agent.
            (
                r#"[{"type":"header","key":"user-agent","value":".*Googlebot.*"}]"#,
                "null",
                Some(true),
            ),
            (
                r#"[{"type":"header","key":"User-Agent","value":"curl.*"}]"#,
                "null",
                Some(false),
            ),
            // No cookie, query or other header.
            (r#"[{"type":"cookie","key":"beta"}]"#, "null", Some(false)),
            (r#"[{"type":"query","key":"preview"}]"#, "null", Some(false)),
            (
                "null",
                r#"[{"type":"header","key":"x-preview"}]"#,
                Some(true),
            ),
            ("null", r#"[{"type":"cookie","key":"session"}]"#, Some(true)),
            (
                "null",
                r#"[{"type":"host","value":"example.org"}]"#,
                Some(false),
            ),
            // Every `has` must hold.
            (
                r#"[{"type":"host","value":"example.org"},{"type":"cookie","key":"a"}]"#,
                "null",
                Some(false),
            ),
            // What cannot be told.
            (
                r#"[{"type":"host","value":{"eq":"example.org"}}]"#,
                "null",
                None,
            ),
            (r#"[{"type":"geo","key":"country"}]"#, "null", None),
            (r#"[{"type":"host","value":"(unclosed"}]"#, "null", None),
            (r#"{"type":"host"}"#, "null", None),
        ];
        for (has, missing, want) in table {
            let has: Value = serde_json::from_str(has).unwrap();
            let missing: Value = serde_json::from_str(missing).unwrap();
            let got = meets(
                (!has.is_null()).then_some(&has),
                (!missing.is_null()).then_some(&missing),
                site,
            );
            assert_eq!(got, want, "has {has} missing {missing}");
        }
    }
}
