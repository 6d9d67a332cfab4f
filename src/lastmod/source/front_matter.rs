//! A source file's front matter: the YAML (`---`) or TOML (`+++`) block that opens a
//! Markdown page, or the `:field:` list of reStructuredText and Pelican's `Key: value`
//! lines. A flat block is read by a line scan for the keys wanted (`flat.rs`); any other
//! is parsed whole with `yaml-rust2` and `toml`. Only string values are looked at.

mod flat;

use jiff::Timestamp;

/// The most bytes of a source file read for its front matter.
pub const FRONT_MATTER_LIMIT: usize = 64 * 1024;

pub use crate::generators::FrontMatter;

/// The top-level keys [`parse`] reads (and the first segment of each updated key): a
/// flat block is scanned for these alone.
const READ: [&str; 13] = [
    "date",
    "pubDate",
    "slug",
    "url",
    "permalink",
    "path",
    "title",
    "id",
    "categories",
    "category",
    "draft",
    "published",
    "status",
];

/// A value of a flat block, as the parsers would type it.
#[derive(Debug, Clone, PartialEq)]
enum Scalar {
    /// A string, or what [`Block::get`] shows as one (a date-time, a number in YAML).
    Text(String),
    Flag(bool),
    /// Anything else (a YAML null).
    Other,
}

/// One parsed front-matter block.
enum Block {
    /// A flat block's wanted keys and their values ([`flat`]).
    Flat(Vec<(String, Scalar)>),
    Yaml(yaml_rust2::Yaml),
    Toml(toml::Table),
    /// `key: value` lines (reStructuredText field lists, Pelican metadata).
    Fields(Vec<(String, String)>),
}

impl Block {
    /// A boolean at the top level.
    fn flag(&self, key: &str) -> Option<bool> {
        match self {
            Block::Yaml(doc) => doc[key].as_bool(),
            Block::Toml(table) => table.get(key)?.as_bool(),
            Block::Flat(found) => match found.iter().find(|(k, _)| k == key)? {
                (_, Scalar::Flag(flag)) => Some(*flag),
                _ => None,
            },
            Block::Fields(_) => None,
        }
    }

    /// A top-level list of strings, or a string of words (`categories: [a, b]`,
    /// `categories: a b`).
    fn words(&self, key: &str) -> Vec<String> {
        let listed = match self {
            Block::Yaml(doc) => doc[key].as_vec().map(|v| {
                v.iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect()
            }),
            Block::Toml(table) => table.get(key).and_then(|v| v.as_array()).map(|v| {
                v.iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect()
            }),
            Block::Flat(_) | Block::Fields(_) => None,
        };
        listed.unwrap_or_else(|| {
            let text = self.get(key).unwrap_or_default();
            text.split_whitespace().map(str::to_string).collect()
        })
    }

    /// The string at a dotted path (`last_update.date`), keys compared exactly.
    fn get(&self, path: &str) -> Option<String> {
        match self {
            Block::Yaml(doc) => {
                let mut at = doc;
                for key in path.split('.') {
                    at = at
                        .as_hash()?
                        .get(&yaml_rust2::Yaml::String(key.to_string()))?;
                }
                match at {
                    yaml_rust2::Yaml::String(s) | yaml_rust2::Yaml::Real(s) => Some(s.clone()),
                    yaml_rust2::Yaml::Integer(i) => Some(i.to_string()),
                    _ => None,
                }
            }
            Block::Toml(table) => {
                let (last, parents) = path.rsplit_once('.').map_or((path, ""), |(p, l)| (l, p));
                let mut at = table;
                for key in parents.split('.').filter(|k| !k.is_empty()) {
                    at = at.get(key)?.as_table()?;
                }
                match at.get(last)? {
                    toml::Value::String(s) => Some(s.clone()),
                    toml::Value::Datetime(d) => Some(d.to_string()),
                    _ => None,
                }
            }
            // A flat block has no nested keys.
            Block::Flat(found) => match found.iter().find(|(k, _)| k == path)? {
                (_, Scalar::Text(text)) => Some(text.clone()),
                _ => None,
            },
            Block::Fields(fields) => fields
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(path))
                .map(|(_, v)| v.clone()),
        }
    }
}

/// Values of a date key that name a time rather than give one.
const DATE_KEYWORDS: [&str; 3] = ["last-modified", "today", "now"];

/// Reads the front matter at the start of `text`; `updated_keys` name the explicit
/// modified date, first present wins.
pub fn parse(text: &str, updated_keys: &[String]) -> FrontMatter {
    let kept = |key: &str| {
        READ.contains(&key) || (updated_keys.iter()).any(|k| k.split('.').next() == Some(key))
    };
    let flat = fenced(text).and_then(|(yaml, body)| flat::block(body, yaml, &kept));
    match flat {
        Some(found) => read(text, Ok(Some(Block::Flat(found))), updated_keys),
        None => read(text, block(text), updated_keys),
    }
}

/// [`parse`], every block parsed whole: what the scan of a flat block must agree with.
#[cfg(test)]
fn parse_whole(text: &str, updated_keys: &[String]) -> FrontMatter {
    read(text, block(text), updated_keys)
}

/// What `block` (the front matter of `text`, as [`block`] gives it) says.
fn read(
    text: &str,
    block: Result<Option<Block>, crate::generators::read::YamlRefused>,
    updated_keys: &[String],
) -> FrontMatter {
    let block = match block {
        Ok(Some(block)) => block,
        Ok(None) => {
            return FrontMatter {
                title: heading(text),
                ..FrontMatter::default()
            };
        }
        Err(refused) => {
            return FrontMatter {
                refused: Some(refused.to_string()),
                ..FrontMatter::default()
            };
        }
    };
    let mut fm = FrontMatter::default();
    for key in updated_keys {
        if let Some(value) = block.get(key) {
            // Quarto's `date-modified: last-modified` (or `today`, `now`) asks for the
            // file's time: no date written, so the history dates it.
            if DATE_KEYWORDS.contains(&value.trim()) {
                break;
            }
            match parse_date(&value) {
                Some(ts) => fm.updated = Some(ts),
                None => fm.unparseable = Some(value),
            }
            break;
        }
    }
    let date = ["date", "date.created", "pubDate"]
        .iter()
        .find_map(|k| block.get(k));
    fm.date = date.as_deref().and_then(parse_date);
    fm.day = date.and_then(|d| d.trim().trim_matches(['"', '\'']).get(..10)?.parse().ok());
    let text_of = |key: &str| {
        block
            .get(key)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    fm.slug = text_of("slug");
    fm.url = text_of("url")
        .or_else(|| text_of("permalink"))
        .or_else(|| text_of("path"));
    fm.title = text_of("title").or_else(|| heading(text));
    fm.id = text_of("id");
    fm.lang = text_of("lang");
    fm.categories = block.words("categories");
    if fm.categories.is_empty() {
        fm.categories = text_of("category").into_iter().collect();
    }
    fm.draft = block.flag("draft") == Some(true)
        || block.flag("published") == Some(false)
        || text_of("status").is_some_and(|s| s.eq_ignore_ascii_case("draft"));
    fm
}

/// The first Markdown heading (`# Title`), which stands for a title the front matter
/// does not give (MkDocs).
fn heading(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
}

/// The fenced block `text` opens with: whether it is YAML (`---`, else TOML, `+++`),
/// and its text between the fences.
fn fenced(text: &str) -> Option<(bool, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fence = match text.lines().next()?.trim_end() {
        "---" => "---",
        "+++" => "+++",
        _ => return None,
    };
    let rest = text.split_once('\n')?.1;
    let end = rest
        .match_indices(fence)
        .find(|(i, _)| *i == 0 || rest.as_bytes()[i - 1] == b'\n')?
        .0;
    Some((fence == "---", &rest[..end]))
}

/// The front-matter block `text` opens with, parsed; `Err` when it breaks a bound.
fn block(text: &str) -> Result<Option<Block>, crate::generators::read::YamlRefused> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first) = text.lines().next() else {
        return Ok(None);
    };
    Ok(match (first.trim_end(), fenced(text)) {
        ("---" | "+++", None) => None,
        (_, Some((true, body))) => crate::generators::read::yaml_first(body)?.map(Block::Yaml),
        (_, Some((false, body))) => body.parse::<toml::Table>().ok().map(Block::Toml),
        _ => fields(text),
    })
}

/// reStructuredText's docinfo (`:date: 2024-01-02`), Nikola's metadata comments
/// (`.. date: 2024-01-02`) or Pelican's Markdown metadata (`Date: 2024-01-02`): the
/// lines before the first blank one, when they all have the form.
fn fields(text: &str) -> Option<Block> {
    let mut fields = Vec::new();
    // Nikola's Markdown sources hold the lines in a comment (`<!--`, then `-->`).
    let (text, comment) = match text.strip_prefix("<!--") {
        Some(rest) => (rest.trim_start_matches([' ', '\t', '\r', '\n']), true),
        None => (text, false),
    };
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() || (comment && line.trim() == "-->") {
            break;
        }
        let line = line.strip_prefix(".. ").unwrap_or(line);
        let line = line.strip_prefix(':').unwrap_or(line);
        let (key, value) = line.split_once(':')?;
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return None;
        }
        fields.push((key.to_string(), value.trim().to_string()));
    }
    (!fields.is_empty()).then_some(Block::Fields(fields))
}

/// The text after the front matter `text` opens with (a fenced block, or the lines of
/// metadata lines up to the first blank one or the end of their comment): what the page
/// shows.
pub fn body(text: &str) -> &str {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some((_, inner)) = fenced(text) {
        // The fence after the block, and its line.
        let start = inner.as_ptr() as usize - text.as_ptr() as usize + inner.len();
        let rest = &text[start..];
        return rest.split_once('\n').map_or("", |(_, r)| r);
    }
    if fields(text).is_none() {
        return text;
    }
    let end = match text.starts_with("<!--") {
        true => text.find("-->").map(|i| i + 3),
        false => text.find("\n\n").or_else(|| text.find("\r\n\r\n")),
    };
    end.map_or("", |i| &text[i..])
}

/// A front-matter date: what [`crate::lastmod::parse_date`] reads, and the
/// `2024-03-05 10:20:30 +0200` of Jekyll and Hexo.
pub fn parse_date(text: &str) -> Option<Timestamp> {
    let text = text.trim().trim_matches(['"', '\'']);
    if let Some(ts) = crate::lastmod::parse_date(text) {
        return Some(ts);
    }
    // Nikola writes the offset after "UTC": `2025-01-04 12:00:00 UTC+02:00`.
    // ... or "UTC" alone: `2025-06-01 09:00:00 UTC`.
    let text = text.replacen(" UTC+", " +", 1).replacen(" UTC-", " -", 1);
    let text = match text
        .strip_suffix(" UTC")
        .or_else(|| text.strip_suffix(" GMT"))
    {
        Some(t) => format!("{t} +00:00"),
        None => text,
    };
    let text = text.as_str();
    [
        "%Y-%m-%d %H:%M:%S%:z",
        "%Y-%m-%d %H:%M:%S %z",
        "%Y-%m-%d %H:%M %z",
        "%Y-%m-%d %H:%M:%S%.f %z",
        "%Y-%m-%d %H:%M:%S %:z",
        "%Y-%m-%d %H:%M %:z",
    ]
    .iter()
    .find_map(|f| jiff::Zoned::strptime(f, text).ok())
    .and_then(|z| crate::lastmod::parse_date(&z.timestamp().to_string()))
}

#[cfg(test)]
mod tests;
