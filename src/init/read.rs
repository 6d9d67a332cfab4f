//! Single values out of the generators' own config files.
//!
//! Those configs are TOML, YAML, JSON, JavaScript or Python. TOML and JSON are parsed
//! with their crates; for the others `init` needs only a few top-level string or boolean
//! values, so they are picked out by hand here rather than pulling in a YAML parser, a
//! JavaScript engine or a Python interpreter. A value not found is left for the user.

/// A top-level string of a TOML document, the first of `keys` present.
pub fn toml_value(text: &str, keys: &[&str]) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    keys.iter()
        .find_map(|k| table.get(*k)?.as_str().map(str::to_string))
}

/// A string at a dotted path of a TOML document (`["build", "build-dir"]`).
pub fn toml_path(text: &str, path: &[&str]) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    let (last, parents) = path.split_last()?;
    let mut at = &table;
    for key in parents {
        at = at.get(*key)?.as_table()?;
    }
    at.get(*last)?.as_str().map(str::to_string)
}

/// A top-level string of a JSON document.
pub fn json_value(text: &str, key: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get(key)?.as_str().map(str::to_string)
}

/// A top-level `key: value` of a YAML file (no indentation), unquoted.
pub fn yaml_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.trim_start().strip_prefix(':')?;
        let value = rest.split(" #").next()?.trim();
        let value = unquote(value).unwrap_or(value);
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// A `key: value` one level under the top-level `parent:` of a YAML file (`project:`
/// then `  output-dir: _out`), unquoted.
pub fn yaml_nested(text: &str, parent: &str, key: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|line| {
        line.strip_prefix(parent)
            .is_none_or(|rest| !rest.trim_start().starts_with(':'))
    });
    lines.next()?;
    let block: Vec<&str> = lines
        .take_while(|l| l.trim().is_empty() || l.starts_with([' ', '\t']) || l.starts_with('#'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let indent = block.first()?.len() - block.first()?.trim_start().len();
    let children: String = block
        .iter()
        .filter(|l| l.len() - l.trim_start().len() == indent)
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    yaml_value(&children, key)
}

/// Whether a YAML file has the top-level key `key`, whatever its value.
pub fn yaml_has_key(text: &str, key: &str) -> bool {
    text.lines().any(|line| {
        line.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

/// A top-level YAML boolean (`true`/`false`, `yes`/`no`).
pub fn yaml_bool(text: &str, key: &str) -> Option<bool> {
    parse_bool(&yaml_value(text, key)?)
}

/// The first `key: 'string'` (or `"string"`, or `` `string` ``) in a JavaScript config,
/// or the literal fallback of `key: process.env.X || 'string'` (also `??`), as
/// next-sitemap's documentation writes `siteUrl`.
pub fn js_value(text: &str, key: &str) -> Option<String> {
    js_values(text, key).find_map(|value| {
        unquote_prefix(value)
            .or_else(|| {
                let line = value.lines().next()?;
                let (_, fallback) = line.split_once("||").or_else(|| line.split_once("??"))?;
                unquote_prefix(fallback.trim_start())
            })
            .map(str::to_string)
    })
}

/// The first `key: 'string'` inside the value of the first `scope:` (`site: { url: ... }`),
/// so a `url` elsewhere in the config is not taken for the site's.
pub fn js_value_in(text: &str, scope: &str, key: &str) -> Option<String> {
    js_values(text, scope)
        .filter(|value| value.starts_with('{'))
        .find_map(|value| js_value(value, key))
}

/// The string a module exports as `name` (`export const trailingSlash = 'always';`).
pub fn read_export(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("export")?.trim_start();
        let rest = ["const", "let", "var"]
            .iter()
            .find_map(|k| rest.strip_prefix(k))?
            .trim_start()
            .strip_prefix(name)?
            .trim_start();
        let rest = rest.strip_prefix(':').map_or(rest, |typed| {
            typed.split_once('=').map_or("", |(_, v)| v).trim_start()
        });
        let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
        unquote_prefix(rest).map(str::to_string)
    })
}

/// The first `key: true` or `key: false` in a JavaScript config.
pub fn js_bool(text: &str, key: &str) -> Option<bool> {
    js_values(text, key).find_map(|value| {
        let word: String = value
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        parse_bool(&word)
    })
}

/// What follows each `key:` (or `'key':`, `"key":`) that is a whole key.
fn js_values<'t>(text: &'t str, key: &'t str) -> impl Iterator<Item = &'t str> + 't {
    let mut rest = text;
    std::iter::from_fn(move || {
        while let Some(at) = rest.find(key) {
            let before = rest[..at].chars().next_back();
            let after = rest[at + key.len()..].trim_start();
            rest = &rest[at + key.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let after = after
                .strip_prefix(['\'', '"'])
                .and_then(|a| a.trim_start().strip_prefix(':'))
                .or_else(|| after.strip_prefix(':'));
            if let Some(value) = after {
                return Some(value.trim_start());
            }
        }
        None
    })
}

/// The last top-level `KEY = 'string'` of a Python config (`conf.py`, `pelicanconf.py`):
/// later assignments win, as when Python runs the file.
pub fn py_value(text: &str, key: &str) -> Option<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
            let rest = rest.trim_start();
            let rest = rest.strip_prefix(['r', 'u']).unwrap_or(rest);
            unquote_prefix(rest).map(str::to_string)
        })
        .next_back()
}

fn parse_bool(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some(true),
        "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn unquote(value: &str) -> Option<&str> {
    let quote = value.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    value.strip_prefix(quote)?.strip_suffix(quote)
}

/// The string literal `value` starts with.
fn unquote_prefix(value: &str) -> Option<&str> {
    let quote = value
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"' | '`'))?;
    let body = &value[1..];
    body.find(quote).map(|end| &body[..end])
}

/// `https://example.org` + `/blog/` → `https://example.org/blog/`.
pub fn join(url: &str, path: &str) -> String {
    let path = path.trim().trim_matches('/');
    let url = url.trim().trim_end_matches('/');
    if path.is_empty() {
        format!("{url}/")
    } else {
        format!("{url}/{path}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_values_are_whole_keys_only() {
        let text = "const baseUrlPrefix = 'x'; module.exports = { siteUrl: 'no', url: `https://x.example`, trailingSlash: false }";
        assert_eq!(js_value(text, "url").as_deref(), Some("https://x.example"));
        assert_eq!(js_value(text, "baseUrl"), None);
        assert_eq!(js_bool(text, "trailingSlash"), Some(false));
        let env = "siteUrl: process.env.SITE_URL || 'https://n.example',\nother: process.env.X ?? \"y\",\nnone: process.env.Z,\nlater: 'z'";
        assert_eq!(
            js_value(env, "siteUrl").as_deref(),
            Some("https://n.example")
        );
        assert_eq!(js_value(env, "other").as_deref(), Some("y"));
        assert_eq!(js_value(env, "none"), None);
        assert_eq!(
            js_bool("{ trailingSlash: undefined }", "trailingSlash"),
            None
        );
    }

    #[test]
    fn python_values_take_the_last_assignment() {
        let text = "SITEURL = ''\nRELATIVE_URLS = True\nSITEURL = \"https://p.example\"\nSITEURL_X = 'no'\nhtml_baseurl = os.environ.get('X', '')\n";
        assert_eq!(
            py_value(text, "SITEURL").as_deref(),
            Some("https://p.example")
        );
        assert_eq!(py_value(text, "html_baseurl"), None);
        assert_eq!(
            py_value("OUTPUT_PATH = 'out/'", "OUTPUT_PATH").as_deref(),
            Some("out/")
        );
    }

    #[test]
    fn nested_and_scoped_values() {
        let quarto = "project:\n  type: website\n  # out\n  output-dir: docs\n  render:\n    site-url: no\nwebsite:\n  title: \"Q\"\n  site-url: https://q.example\n";
        assert_eq!(
            yaml_nested(quarto, "project", "output-dir").as_deref(),
            Some("docs")
        );
        assert_eq!(yaml_nested(quarto, "project", "site-url"), None);
        assert_eq!(
            yaml_nested(quarto, "website", "site-url").as_deref(),
            Some("https://q.example")
        );
        assert_eq!(yaml_nested(quarto, "book", "site-url"), None);
        let nuxt = "export default defineNuxtConfig({ app: { head: { link: [{ url: 'x' }] } }, site: { name: 'N', url: 'https://n.example' } })";
        assert_eq!(
            js_value_in(nuxt, "site", "url").as_deref(),
            Some("https://n.example")
        );
        assert_eq!(js_value_in("{ site: 'x' }", "site", "url"), None);
        for (text, want) in [
            ("export const trailingSlash = 'always';", Some("always")),
            (
                "export const prerender = true;\nexport const trailingSlash = \"never\"",
                Some("never"),
            ),
            (
                "export const trailingSlash: TrailingSlash = 'always';",
                Some("always"),
            ),
            ("// export const trailingSlashX = 'always'", None),
            ("export const trailingSlashes = 'always'", None),
        ] {
            assert_eq!(
                read_export(text, "trailingSlash").as_deref(),
                want,
                "{text}"
            );
        }
        let book = "[book]\ntitle = 'x'\n[build]\nbuild-dir = 'out'\n";
        assert_eq!(
            toml_path(book, &["build", "build-dir"]).as_deref(),
            Some("out")
        );
        assert_eq!(toml_path(book, &["output", "html", "cname"]), None);
    }

    #[test]
    fn yaml_values_and_booleans() {
        let text =
            "site_url: https://m.example/ # the host\nuse_directory_urls: false\n  nested: x\n";
        assert_eq!(
            yaml_value(text, "site_url").as_deref(),
            Some("https://m.example/")
        );
        assert_eq!(yaml_bool(text, "use_directory_urls"), Some(false));
        assert_eq!(yaml_value(text, "nested"), None);
    }
}
