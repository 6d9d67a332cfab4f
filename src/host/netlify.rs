//! `netlify.toml`'s `[[redirects]]` and `[[headers]]` tables, as Netlify reads them
//! after `_redirects` and `_headers` (`@netlify/config`): the same patterns and the same
//! meaning, written as TOML.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::headers::{ROBOTS_TAG, split_url};
use super::pattern::Syntax;
use super::rules::{Lines, Origin, Parsed, Redirect, Rule, robots_effect};

/// The status of a `[[redirects]]` table without one.
const DEFAULT_STATUS: u16 = 301;

/// The parts of `netlify.toml` read; every other key is the build's.
#[derive(Debug, Deserialize)]
struct NetlifyToml {
    #[serde(default)]
    redirects: Vec<TomlRedirect>,
    #[serde(default)]
    headers: Vec<TomlHeaders>,
}

#[derive(Debug, Deserialize)]
struct TomlRedirect {
    from: Spanned<String>,
    to: Option<String>,
    status: Option<u16>,
    #[serde(default)]
    force: bool,
    #[serde(default)]
    query: toml::Table,
    #[serde(default)]
    conditions: toml::Table,
}

#[derive(Debug, Deserialize)]
struct TomlHeaders {
    #[serde(rename = "for")]
    path: Spanned<String>,
    #[serde(default)]
    values: BTreeMap<String, Spanned<toml::Value>>,
}

/// The rules of a `netlify.toml` text; an error names what TOML cannot read.
pub(super) fn parse(text: &str, file: &Path, agents: &[String]) -> Result<Parsed, toml::de::Error> {
    let config: NetlifyToml = toml::from_str(text)?;
    let lines = Lines::new(text);
    let origin = |at: usize, key: String| Origin::new(file, lines.of(at.min(text.len())), key);
    let mut parsed = Parsed::default();
    for (i, table) in config.redirects.iter().enumerate() {
        // Conditions as a crawler's request meets them; a query it never carries.
        let only_some = !table.conditions.iter().all(|(key, values)| {
            let values: Vec<&str> = match values {
                toml::Value::Array(items) => items.iter().filter_map(toml::Value::as_str).collect(),
                other => other.as_str().into_iter().collect(),
            };
            super::redirects::crawler_meets(key, &values) == Some(true)
        });
        let (Some(to), false, false) = (&table.to, only_some, !table.query.is_empty()) else {
            continue;
        };
        let Some(target) = split_url(table.from.get_ref()) else {
            continue;
        };
        let origin = origin(table.from.span().start, format!("redirects[{i}]"));
        let what = Redirect {
            status: table.status.unwrap_or(DEFAULT_STATUS),
            force: table.force,
            to: to.clone(),
        };
        let syntax = Syntax::Netlify { ignore_case: false };
        parsed.keep(Rule::new(origin, target, syntax, what));
    }
    for (i, table) in config.headers.iter().enumerate() {
        let Some((name, value)) =
            (table.values.iter()).find(|(k, _)| k.eq_ignore_ascii_case(ROBOTS_TAG))
        else {
            continue;
        };
        let value = match value.get_ref() {
            toml::Value::String(s) => s.clone(),
            toml::Value::Array(items) => {
                let items: Vec<&str> = items.iter().filter_map(toml::Value::as_str).collect();
                items.join(", ")
            }
            _ => continue,
        };
        let Some(target) = split_url(table.path.get_ref()) else {
            continue;
        };
        let origin = origin(value_at(table, name), format!("headers[{i}]"));
        let syntax = Syntax::Netlify { ignore_case: true };
        parsed.keep(Rule::new(
            origin,
            target,
            syntax,
            robots_effect(&value, agents),
        ));
    }
    Ok(parsed)
}

fn value_at(table: &TomlHeaders, name: &str) -> usize {
    table
        .values
        .get(name)
        .map_or(table.path.span().start, |v| v.span().start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::rules::Effect;

    #[test]
    fn tables_give_their_rules_with_their_lines() {
        let text = r#"[build]
publish = "public"

[[redirects]]
from = "/old/*"
to = "/new/:splat"
force = true

[[redirects]]
from = "/de/*"
to = "/de/"
status = 302
conditions = {Language = ["de"]}

[[redirects]]
from = "/app/*"
to = "/index.html"
status = 200

[[headers]]
for = "/internal/*"
[headers.values]
Cache-Control = "no-store"
X-Robots-Tag = "noindex"
"#;
        let agents = ["robots".to_string()];
        let parsed = parse(text, Path::new("netlify.toml"), &agents).unwrap();
        let redirects: Vec<(usize, u16, bool)> = (parsed.redirects.iter())
            .map(|r| (r.origin.line, r.what.status, r.what.force))
            .collect();
        assert_eq!(redirects, [(5, 301, true), (16, 200, false)]);
        assert_eq!(parsed.headers.len(), 1);
        assert_eq!(parsed.headers[0].origin.line, 24);
        assert_eq!(parsed.headers[0].what, Effect::Noindex);
        assert!(parse("[[redirects]]\nto = 1\n", Path::new("n"), &agents).is_err());
    }
}
