//! Single values out of the generators' own config files.
//!
//! Those configs are TOML, YAML, JSON, JavaScript or Python. TOML, YAML and JSON are
//! parsed with their crates; of JavaScript and Python `init` needs only a few top-level
//! string or boolean values, so they are picked out by hand here rather than pulling in
//! a JavaScript engine or a Python interpreter. A value not found is left for the user.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::{Yaml, YamlLoader};

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

/// A YAML config's top-level document, parsed with yaml-rust2. A value under a tag
/// of its own (MkDocs' `!ENV SITE_URL`, `!!python/name:...`) is read as null: the
/// program that reads the file computes it, so the text does not say it. When the whole
/// file does not parse (a duplicated key, which PyYAML and Ruby's Psych accept; a block
/// yaml-rust2 refuses), each top-level key's block is parsed on its own and a later key
/// wins, as in those parsers, so one bad block costs only its own values (or, when its
/// first line parses alone, only those under it).
pub fn yaml(text: &str) -> Yaml {
    match yaml_first(text) {
        Ok(Some(doc)) => return doc,
        // Not read in parts either: each part would take the bound's time again.
        Err(_) => return Yaml::Hash(yaml_rust2::yaml::Hash::new()),
        Ok(None) => {}
    }
    let mut top = yaml_rust2::yaml::Hash::new();
    for block in yaml_blocks(text) {
        // A block that does not parse may still have its key's own line right.
        let first = block.lines().next().unwrap_or_default();
        if let Some(Yaml::Hash(hash)) = yaml_document(&block).or_else(|| yaml_document(first)) {
            top.extend(hash);
        }
    }
    Yaml::Hash(top)
}

/// The deepest a YAML document may nest. yaml-rust2 builds and drops a document by
/// recursion, and 10,000 levels of `- ` (20 KB) overflowed the stack; configs and front
/// matter nest a few levels (serde_json stops at 128 too).
pub const YAML_MAX_DEPTH: usize = 128;

/// How much larger than its text a YAML document may be, its aliases expanded, counting
/// one per node plus its scalars' bytes. yaml-rust2 copies an anchored value at each
/// alias, so six levels of aliases in 400 bytes took 2.2 GB; without aliases a document
/// is at most about twice its text.
pub const YAML_MAX_EXPANSION: usize = 8;

/// The size any YAML document may reach, however short its text.
const YAML_MIN_SIZE: usize = 64 * 1024;

/// Why a YAML document is not read: it breaks a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum YamlRefused {
    /// It nests deeper than [`YAML_MAX_DEPTH`].
    #[error("its YAML nests more than {YAML_MAX_DEPTH} levels deep")]
    TooDeep,
    /// Its aliases expand it to more than [`YAML_MAX_EXPANSION`] times its text.
    #[error("its YAML aliases expand it to more than {YAML_MAX_EXPANSION} times its size")]
    TooLarge,
}

/// The first document of `text`, `None` when the text does not parse; a document that
/// breaks a bound is refused as soon as it does, before it is built.
///
/// The parser's events are fed to yaml-rust2's loader one at a time rather than through
/// `Parser::load`, which recurses once per level.
pub fn yaml_first(text: &str) -> Result<Option<Yaml>, YamlRefused> {
    let mut parser = Parser::new_from_str(text);
    let mut loader = Bounded {
        limit: YAML_MIN_SIZE.max(text.len().saturating_mul(YAML_MAX_EXPANSION)),
        ..Bounded::default()
    };
    loop {
        let Ok((event, mark)) = parser.next_token() else {
            return Ok(None);
        };
        let last = matches!(event, Event::DocumentEnd | Event::StreamEnd);
        loader.on_event(event, mark)?;
        if last {
            break;
        }
    }
    // A loader that met an error (a duplicated key) ends no document.
    Ok(loader.loader.0.documents().first().cloned())
}

/// The first document of `text`, `None` when it does not parse or breaks a bound.
fn yaml_document(text: &str) -> Option<Yaml> {
    yaml_first(text).ok().flatten()
}

/// yaml-rust2's loader behind the bounds: the depth of the open collections, and the
/// size built so far, each alias counted at the size of the value it copies.
#[derive(Default)]
struct Bounded {
    loader: Untagged,
    /// Per open collection: its anchor and the size when it opened.
    open: Vec<(usize, usize)>,
    /// The size of each anchored value, by anchor.
    anchored: std::collections::HashMap<usize, usize>,
    size: usize,
    limit: usize,
}

impl Bounded {
    fn on_event(&mut self, event: Event, mark: Marker) -> Result<(), YamlRefused> {
        match &event {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.open.len() >= YAML_MAX_DEPTH {
                    return Err(YamlRefused::TooDeep);
                }
                self.open.push((*anchor, self.size));
                self.size += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, start)) = self.open.pop() {
                    self.anchor(anchor, self.size - start);
                }
            }
            Event::Scalar(value, _, anchor, _) => {
                self.size += 1 + value.len();
                self.anchor(*anchor, 1 + value.len());
            }
            Event::Alias(anchor) => {
                self.size += self.anchored.get(anchor).copied().unwrap_or(1);
            }
            _ => {}
        }
        if self.size > self.limit {
            return Err(YamlRefused::TooLarge);
        }
        self.loader.on_event(event, mark);
        Ok(())
    }

    /// Notes an anchored value's size; the loader copies it once more to keep it.
    fn anchor(&mut self, anchor: usize, size: usize) {
        if anchor > 0 {
            self.anchored.insert(anchor, size);
            self.size += size;
        }
    }
}

/// yaml-rust2's loader, handed each scalar with a tag other than YAML's own types as
/// null.
#[derive(Default)]
struct Untagged(YamlLoader);

impl MarkedEventReceiver for Untagged {
    fn on_event(&mut self, event: Event, mark: Marker) {
        const CORE: [&str; 5] = ["str", "int", "float", "bool", "null"];
        let event = match event {
            Event::Scalar(_, _, anchor, Some(tag))
                if tag.handle != "tag:yaml.org,2002:" || !CORE.contains(&tag.suffix.as_str()) =>
            {
                Event::Scalar("~".to_string(), TScalarStyle::Plain, anchor, None)
            }
            event => event,
        };
        self.0.on_event(event, mark);
    }
}
/// The first document's top-level keys, each with the lines under it: a block starts
/// at each line that begins with neither a space, a tab, `#` nor `-` (a sequence may sit
/// at its key's indentation).
fn yaml_blocks(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in text.lines() {
        if line == "---" && blocks.is_empty() {
            continue;
        }
        if line == "---" || line == "..." {
            break;
        }
        let starts = !line.is_empty() && !line.starts_with([' ', '\t', '#', '-']);
        match blocks.last_mut() {
            Some(block) if !starts => {
                block.push_str(line);
                block.push('\n');
            }
            _ if starts => blocks.push(format!("{line}\n")),
            _ => {}
        }
    }
    blocks
}

/// A YAML scalar as text (`4000`, `true`), when it is one and not empty.
fn yaml_scalar(value: &Yaml) -> Option<String> {
    let text = match value {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

/// A top-level `key: value` of a YAML file, as text.
pub fn yaml_value(text: &str, key: &str) -> Option<String> {
    yaml_scalar(&yaml(text)[key])
}

/// A `key: value` under the top-level `parent:` of a YAML file (`project:` then
/// `  output-dir: _out`), as text.
pub fn yaml_nested(text: &str, parent: &str, key: &str) -> Option<String> {
    yaml_scalar(&yaml(text)[parent][key])
}

/// Whether a YAML file has the top-level key `key`, whatever its value.
pub fn yaml_has_key(text: &str, key: &str) -> bool {
    yaml(text)
        .as_hash()
        .is_some_and(|top| top.contains_key(&Yaml::String(key.to_string())))
}

/// A top-level YAML boolean (`true`/`false`, and YAML 1.1's `yes`/`no`, `on`/`off`,
/// which PyYAML and Psych still read as booleans).
pub fn yaml_bool(text: &str, key: &str) -> Option<bool> {
    match &yaml(text)[key] {
        Yaml::Boolean(b) => Some(*b),
        Yaml::String(s) => parse_bool(s),
        _ => None,
    }
}

/// The first `key: 'string'` (or `"string"`, or `` `string` ``) in a JavaScript config,
/// or the literal fallback of `key: process.env.X || 'string'` (also `??`), as
/// next-sitemap's documentation writes `siteUrl`.
pub fn js_value(text: &str, key: &str) -> Option<String> {
    first_js_value(&without_comments(text), key)
}

/// [`js_value`] of text without comments.
///
/// Linear in `text` (a hostile config repeats `key:x ` a hundred thousand times): what
/// is read after each `key:` ends before the next `key:` ([`env_fallback`]), and a
/// string's closing quote is searched for past it only once per kind of quote, as a
/// quote found ends the search and one not found is found nowhere later.
fn first_js_value(text: &str, key: &str) -> Option<String> {
    js_values(text, key).find_map(|value| {
        unquote_prefix(value)
            .or_else(|| env_fallback(value))
            .map(str::to_string)
    })
}

/// The string after `||` or `??` in a value such as `process.env.X || 'string'`. The
/// operand before it is read only up to a character no such operand holds (`,`, `;`,
/// `:`, a brace, a line's end), so the look ends before the next `key:`.
fn env_fallback(value: &str) -> Option<&str> {
    let end = value
        .find(['\n', ',', ';', ':', '{', '}', '|', '?'])
        .unwrap_or(value.len());
    let rest = &value[end..];
    let rest = rest
        .strip_prefix("||")
        .or_else(|| rest.strip_prefix("??"))?;
    unquote_prefix(rest.trim_start())
}

/// The first `key: 'string'` inside the object literal of a `scope:` (`site: { url: ... }`),
/// so a `url` elsewhere in the config is not taken for the site's.
pub fn js_value_in(text: &str, scope: &str, key: &str) -> Option<String> {
    let text = &without_comments(text);
    let mut from = 0;
    loop {
        let rest = &text[from..];
        let object = js_values(rest, scope).find_map(object_literal)?;
        if let Some(value) = first_js_value(object, key) {
            return Some(value);
        }
        // A `scope:` nested in this object holds no `key:` this one did not: the next
        // is looked for past it, so no text is read twice.
        from += text_offset(rest, object) + object.len();
    }
}

/// Where `part`, a slice of `whole`, starts in it.
fn text_offset(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// The object literal `value` starts with (`{ ... }`, braces in strings not counted); to
/// the end of `value` when it is not closed.
fn object_literal(value: &str) -> Option<&str> {
    if !value.starts_with('{') {
        return None;
    }
    let (mut depth, mut quote, mut escaped) = (0usize, None, false);
    for (i, c) in value.char_indices() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '\'' | '"' | '`') => quote = Some(c),
            None if c == '{' => depth += 1,
            None if c == '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&value[..=i]);
                }
            }
            None => {}
        }
    }
    Some(value)
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
    let text = &without_comments(text);
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

/// The `'from': 'to'` pairs of the first object literal `key: { ... }` (VitePress'
/// `rewrites`), as far as they are string pairs; none when the value is code.
pub fn js_string_pairs(text: &str, key: &str) -> Vec<(String, String)> {
    let text = without_comments(text);
    let Some(object) = js_values(&text, key).find_map(|v| v.strip_prefix('{')) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    let mut rest = object.trim_start();
    while let Some(from) = unquote_prefix(rest) {
        let after = rest[from.len() + 2..].trim_start();
        let Some(value) = after.strip_prefix(':').map(str::trim_start) else {
            break;
        };
        let Some(to) = unquote_prefix(value) else {
            break;
        };
        pairs.push((from.to_string(), to.to_string()));
        rest = value[to.len() + 2..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    pairs
}

/// JavaScript text with its comments blanked out (`//` to the line's end, `/* */`),
/// strings and template literals kept: a comment that names a key is not its value.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' {
                out.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => while chars.next_if(|&n| n != '\n').is_some() {},
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for n in chars.by_ref() {
                    if last == '*' && n == '/' {
                        break;
                    }
                    last = n;
                }
                out.push(' ');
            }
            _ => {
                if matches!(c, '\'' | '"' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
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

/// Keeps a base URL only when it is absolute http(s), ending it in `/`.
pub fn absolute(url: Option<String>) -> Option<String> {
    let url = url?;
    let url = url.trim();
    (url.starts_with("http://") || url.starts_with("https://")).then(|| {
        if url.ends_with('/') {
            url.to_string()
        } else {
            format!("{url}/")
        }
    })
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

/// Whether `package.json` (in `p`'s project) names `dependency` among its dependencies or
/// devDependencies.
pub fn depends_on(p: &super::Project, dependency: &str) -> bool {
    let json = p.read("package.json");
    let json = json.and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    json.is_some_and(|v| {
        ["dependencies", "devDependencies"]
            .iter()
            .any(|k| v.get(k).and_then(|d| d.get(dependency)).is_some())
    })
}

/// The value of the command-line flag `flag` (`--input=src` or `--input src`) given to
/// `command` in one of the scripts of `package.json`'s text: the first script that
/// runs it with the flag.
pub fn script_flag(package_json: &str, command: &str, flag: &str) -> Option<String> {
    let json: serde_json::Value = serde_json::from_str(package_json).ok()?;
    let scripts = json.get("scripts")?.as_object()?;
    scripts
        .values()
        .filter_map(|v| v.as_str())
        .find_map(|script| {
            // Each command of the script (`a && b`) on its own.
            let mut commands = script.split(['&', ';', '|']);
            commands.find_map(|c| {
                let words: Vec<&str> = c.split_whitespace().collect();
                let at = words
                    .iter()
                    .position(|w| w.rsplit('/').next() == Some(command))?;
                let args = &words[at + 1..];
                args.iter()
                    .enumerate()
                    .find_map(|(i, w)| match w.strip_prefix(flag)? {
                        "" => args.get(i + 1).map(|v| v.to_string()),
                        v => v.strip_prefix('=').map(str::to_string),
                    })
            })
        })
        .map(|v| v.trim_matches(['"', '\'']).to_string())
}

/// A YAML value as JSON's: what the generators that read nested keys walk.
pub fn yaml_json(yaml: &Yaml) -> serde_json::Value {
    use serde_json::Value;
    match yaml {
        Yaml::String(s) | Yaml::Real(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(yaml_json).collect()),
        Yaml::Hash(h) => Value::Object(
            (h.iter())
                .filter_map(|(k, v)| Some((k.as_str()?.to_string(), yaml_json(v))))
                .collect(),
        ),
        _ => Value::Null,
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

    /// A comment that names a key is not its value; strings that hold `//` are kept.
    #[test]
    fn js_comments_are_not_values() {
        let text = "paths: {\n  // the origin: `url.origin` while prerendering\n  origin: 'https://s.example', /* url: 'no' */ base: \"//x\"\n}";
        assert_eq!(
            js_value_in(text, "paths", "origin").as_deref(),
            Some("https://s.example")
        );
        assert_eq!(js_value(text, "url"), None);
        assert_eq!(js_value(text, "base").as_deref(), Some("//x"));
        let rewrites = "rewrites: {\n  // a comment\n  'packages/:pkg/index.md': ':pkg/index.md',\n  \"a.md\": 'b.md'\n},";
        assert_eq!(
            js_string_pairs(rewrites, "rewrites"),
            [
                (
                    "packages/:pkg/index.md".to_string(),
                    ":pkg/index.md".to_string()
                ),
                ("a.md".to_string(), "b.md".to_string())
            ]
        );
        assert!(js_string_pairs("rewrites: (id) => id", "rewrites").is_empty());
    }

    /// A fallback is read only from an operand that ends at `||` or `??`, and a scoped
    /// key only inside its scope's object (nested objects included).
    #[test]
    fn fallbacks_and_scopes_end_where_their_value_does() {
        let table = [
            (
                "url: process.env['U'] || 'https://a.example'",
                Some("https://a.example"),
            ),
            ("url: a ?? `https://b.example`", Some("https://b.example")),
            ("url: a, other: b || 'no'", None),
            ("url: a\n|| 'no'", None),
            ("url: f({ x: 1 }) || 'no'", None),
            ("url: x ", None),
        ];
        for (text, want) in table {
            assert_eq!(js_value(text, "url").as_deref(), want, "{text}");
        }
        let table = [
            ("site: { name: 'N' }, url: 'no'", None),
            ("site: { a: { url: 'deep' } }", Some("deep")),
            ("site: { a: '}' , url: 'in' }", Some("in")),
            ("site: { x: 1 }, site: { url: 'second' }", Some("second")),
            (
                "site: { site: { x: 1 } }, site: { url: 'after' }",
                Some("after"),
            ),
            ("site: { url: 'open'", Some("open")),
        ];
        for (text, want) in table {
            assert_eq!(js_value_in(text, "site", "url").as_deref(), want, "{text}");
        }
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

    #[test]
    fn unusual_yaml_is_read_as_its_generator_reads_it() {
        // MkDocs' Python tags parse; a tagged value (`!ENV`) is the program's, not a path.
        let mkdocs = "site_url: https://m.example/\nsite_dir: !ENV SITE_DIR\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\nuse_directory_urls: false\n";
        assert_eq!(
            yaml_value(mkdocs, "site_url").as_deref(),
            Some("https://m.example/")
        );
        assert_eq!(yaml_value(mkdocs, "site_dir"), None);
        assert_eq!(yaml_bool(mkdocs, "use_directory_urls"), Some(false));
        assert!(yaml_has_key(mkdocs, "markdown_extensions"));
        // A duplicated key fails the whole parse: each block is read alone, the later
        // wins (as in PyYAML and Psych), and a block with a tab costs only what is under
        // its key.
        let broken =
            "url: https://a.example\nnav:\n\t- a.md\nbaseurl: /x\nurl: https://b.example\n";
        assert_eq!(
            yaml_value(broken, "url").as_deref(),
            Some("https://b.example")
        );
        assert_eq!(yaml_value(broken, "baseurl").as_deref(), Some("/x"));
        assert!(yaml_has_key(broken, "nav"));
        // `---` opens the document; what follows its end is not read.
        let doc = "---\nproject:\n  output-dir: \"_o\" # c\n...\nproject: no\n";
        assert_eq!(
            yaml_nested(doc, "project", "output-dir").as_deref(),
            Some("_o")
        );
        assert_eq!(
            yaml_value("port: 4000\nempty:\nnull: ~\n", "port").as_deref(),
            Some("4000")
        );
        assert_eq!(yaml_value("empty:\n", "empty"), None);
    }
}
