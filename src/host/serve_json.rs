//! `vercel.json`'s `headers`, when the user asks (`host_headers = true` on Vercel): an
//! entry of ours for each of `llms.txt` and `llms-full.txt`. Ours carry a header of our
//! own ([`MARK_KEY`]) that no one else writes, and an entry is ours only if it is, as
//! JSON, exactly the entry we write for its `source`; any other entry is the user's, and
//! is never replaced or removed, even one that says what ours says. (Vercel refuses a
//! key it does not know in an entry, so the mark cannot be a key of its own.)
//!
//! The file is edited where serde_json's own parse of it places its values (borrowed
//! [`RawValue`]s, whose text is a slice of the file): the top-level object's `headers`
//! array, and each of its elements. Only our elements, and the separator before each,
//! are added or taken away; every other byte is kept (a JSON writer would reformat the
//! whole file), and the result must parse to the user's same JSON.

use std::collections::HashSet;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::rules::offset_in;
use super::serve::{ServeError, Served};
use crate::fsutil::At;

/// The largest `vercel.json` edited.
const EDIT_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The header that marks an entry of ours: sent with `llms.txt`, harmless, and named so
/// that a reader of `vercel.json` knows whose the entry is.
const MARK_KEY: &str = "X-Sitemapgen";
/// Its value.
const MARK_VALUE: &str = "entry rewritten on every build";

/// The key of the array edited.
const HEADERS: &str = "headers";

/// Our entry for the URL path `path`, as written: on one line.
fn entry(path: &str) -> String {
    let source = serde_json::to_string(path).unwrap_or_default();
    format!(
        r#"{{ "source": {source}, "headers": [{{ "key": "X-Robots-Tag", "value": "noindex" }}, {{ "key": "{MARK_KEY}", "value": "{MARK_VALUE}" }}] }}"#
    )
}

/// Puts our entries for the URL paths `paths` into `file`'s `headers` (none: takes ours
/// away). The file must exist and be read as every host file is ([`super::read_file`]);
/// the result must be valid JSON. With nothing due, a file that cannot be read or parsed
/// is left as it is (reading the host's rules has said why).
pub fn serve_noindex_json(file: &Path, paths: &[String]) -> Result<Served, ServeError> {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let held = crate::fsutil::lock_dir(dir).at(file)?;
    let read = super::read_file(file, EDIT_MAX_BYTES).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidData, crate::fsutil::Refused::NotUtf8)
        })
    });
    let invalid = |why: String| ServeError::Json {
        path: file.to_path_buf(),
        why,
    };
    let edited = (read.at(file).map_err(ServeError::from))
        .and_then(|old| Ok((with_entries(&old, paths).map_err(invalid)?, old)));
    let (new, old) = match edited {
        Ok(both) => both,
        Err(_) if paths.is_empty() => return Ok(Served::Unchanged),
        Err(e) => return Err(e),
    };
    if new == old {
        return Ok(Served::Unchanged);
    }
    let named = PathBuf::from(file);
    // A link that stays in the project is written through to its file, as robots.txt
    // and `_headers` are (the read above refused one leading out).
    let name = file.file_name().unwrap_or_default();
    held.write(Path::new(name), new.as_bytes()).at(file)?;
    Ok(match paths.is_empty() {
        true => Served::Removed(named),
        false => Served::Written(named),
    })
}

/// `text` with our entries for `paths`, and no other entries of ours, in its `headers`;
/// a byte order mark kept first. `Err` says why the file cannot be edited.
fn with_entries(text: &str, paths: &[String]) -> Result<String, String> {
    let (bom, body) = match text.strip_prefix(crate::text::BOM) {
        Some(body) => (crate::text::BOM, body),
        None => ("", text),
    };
    let new = with_missing(&without_stale(body, paths)?, paths)?;
    // The proof that nothing of the user's changed: the same JSON, ours set aside.
    let users = |text: &str| users_part(text).map_err(|e| one_line(&e));
    if users(&new)? != users(body)? {
        return Err("the edit would change entries of yours; please report this".to_string());
    }
    Ok(format!("{bom}{new}"))
}

/// `text` without our entries that are not due: those for paths not in `paths`, and a
/// second one for the same path.
fn without_stale(text: &str, paths: &[String]) -> Result<String, String> {
    let Some(array) = headers_array(text)? else {
        return Ok(text.to_string());
    };
    let mut seen = HashSet::new();
    let keep: Vec<bool> = (array.items.iter())
        .map(|&(from, to)| match ours(&text[from..to]) {
            Some(source) => paths.contains(&source) && seen.insert(source),
            None => true,
        })
        .collect();
    if keep.iter().all(|&k| k) {
        return Ok(text.to_string());
    }
    // Each element kept with the separator before it; the first kept takes the array's
    // opening one, so ours at the head go without a trace.
    let mut inner = String::new();
    let mut before = array.open + 1;
    for (&(from, to), keep) in array.items.iter().zip(keep) {
        if keep {
            let lead = match inner.is_empty() {
                true => &text[array.open + 1..array.first_item()],
                false => &text[before..from],
            };
            inner.push_str(lead);
            inner.push_str(&text[from..to]);
        }
        before = to;
    }
    inner.push_str(&text[array.last_end()..array.close]);
    Ok(format!(
        "{}{inner}{}",
        &text[..=array.open],
        &text[array.close..]
    ))
}

/// `text` with our entries for the paths of `paths` it lacks, at the head of `headers`
/// (the array made, at the head of the object, when there is none).
fn with_missing(text: &str, paths: &[String]) -> Result<String, String> {
    let array = headers_array(text)?;
    let present: HashSet<String> = (array.iter().flat_map(|a| a.items.iter()))
        .filter_map(|&(from, to)| ours(&text[from..to]))
        .collect();
    let mut missing: Vec<&String> = paths.iter().filter(|p| !present.contains(*p)).collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(text.to_string());
    }
    let joined = |lead: &str| -> String {
        let entries: Vec<String> = missing
            .iter()
            .map(|p| format!("{lead}{}", entry(p)))
            .collect();
        entries.join(",")
    };
    let (at, insert) = match array {
        // Aligned with the user's first element, and before it.
        Some(array) if !array.items.is_empty() => {
            let lead = &text[array.open + 1..array.first_item()];
            (array.open + 1, format!("{},", joined(lead)))
        }
        Some(array) => {
            let (indent, eol) = (indent_at(text, array.open), eol(text));
            let inner = &text[array.open + 1..array.close];
            let close = match inner.contains('\n') {
                true => inner.to_string(),
                false => format!("{eol}{indent}"),
            };
            let lead = format!("{eol}{indent}{}", unit(indent));
            let insert = format!("{}{close}", joined(&lead));
            return Ok(splice(text, array.open + 1..array.close, &insert));
        }
        None => new_headers_key(text, &joined)?,
    };
    Ok(splice(text, at..at, &insert))
}

/// Where a new `"headers"` key goes (just inside the top-level object's `{`), and the
/// key with its array of our entries (`joined`, given the lead of each), in the
/// object's own indentation.
fn new_headers_key(text: &str, joined: &dyn Fn(&str) -> String) -> Result<(usize, String), String> {
    let open = text.len() - text.trim_start().len();
    if !text[open..].starts_with('{') {
        return Err("the file is not a JSON object".to_string());
    }
    let after = &text[open + 1..];
    let empty = after.trim_start().starts_with('}');
    let eol = eol(text);
    // The whitespace before the object's first key, or a line of our own.
    let first_lead = &after[..after.len() - after.trim_start().len()];
    let key_lead = match first_lead.is_empty() || empty {
        true => format!("{eol}  "),
        false => first_lead.to_string(),
    };
    let indent = match key_lead.rsplit_once('\n') {
        Some((_, indent)) => indent,
        None => "",
    };
    let lead = format!("{eol}{indent}{}", unit(indent));
    let tail = match (empty, first_lead.contains('\n')) {
        (false, _) => ",",
        (true, true) => "",
        (true, false) => eol,
    };
    let key = format!(
        "{key_lead}\"{HEADERS}\": [{}{eol}{indent}]{tail}",
        joined(&lead)
    );
    Ok((open + 1, key))
}

/// One level of the file's indentation, from a line's indentation: the same again, or
/// two spaces at the top.
fn unit(indent: &str) -> &str {
    if indent.is_empty() { "  " } else { indent }
}

/// The file's line ending, for the line breaks an edit adds: CRLF where it has one.
fn eol(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// The leading whitespace of the line that holds byte `at`.
fn indent_at(text: &str, at: usize) -> &str {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn splice(text: &str, range: std::ops::Range<usize>, with: &str) -> String {
    format!("{}{with}{}", &text[..range.start], &text[range.end..])
}

/// The source of an entry of ours: the element, as JSON, is exactly [`entry`] of its
/// `source`.
fn ours(element: &str) -> Option<String> {
    let value: Value = serde_json::from_str(element).ok()?;
    let source = value.get("source")?.as_str()?;
    let mine: Value = serde_json::from_str(&entry(source)).ok()?;
    (value == mine).then(|| source.to_string())
}

/// The top-level `headers` array, as serde_json's parse places it.
#[derive(Debug)]
struct Array {
    /// Its `[`.
    open: usize,
    /// Its `]`.
    close: usize,
    /// Each element's bytes.
    items: Vec<(usize, usize)>,
}

impl Array {
    fn first_item(&self) -> usize {
        self.items.first().map_or(self.close, |i| i.0)
    }

    fn last_end(&self) -> usize {
        self.items.last().map_or(self.open + 1, |i| i.1)
    }
}

/// The top-level object's `headers` array, `None` without one. The file must be a JSON
/// object, with `headers` once and an array.
fn headers_array(text: &str) -> Result<Option<Array>, String> {
    let members: Members<'_> = serde_json::from_str(text).map_err(|e| one_line(&e))?;
    let mut headers = members.0.iter().filter(|(key, _)| key == HEADERS);
    let Some((_, raw)) = headers.next() else {
        return Ok(None);
    };
    if headers.next().is_some() {
        return Err(format!("the key \"{HEADERS}\" is there twice"));
    }
    let items: Vec<&RawValue> = serde_json::from_str(raw.get()).map_err(|_| {
        format!("\"{HEADERS}\" is not an array; Vercel wants an array of {{ \"source\", \"headers\" }} entries")
    })?;
    let at = |raw: &RawValue| offset_in(text, raw.get());
    let open = at(raw);
    Ok(Some(Array {
        open,
        close: open + raw.get().len() - 1,
        items: (items.iter())
            .map(|item| (at(item), at(item) + item.get().len()))
            .collect(),
    }))
}

/// The top-level object's members in file order, each value where the parse found it
/// (a slice of the text parsed).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// The file as JSON without our entries (and without `headers` when nothing else is in
/// it): what must be the same before and after an edit.
fn users_part(text: &str) -> Result<Value, serde_json::Error> {
    let mut value: Value = serde_json::from_str(text)?;
    if let Some(object) = value.as_object_mut() {
        if let Some(Value::Array(items)) = object.get_mut(HEADERS) {
            items.retain(|item| ours(&item.to_string()).is_none());
        }
        if object
            .get(HEADERS)
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            object.remove(HEADERS);
        }
    }
    Ok(value)
}

/// A parser's message on one line.
fn one_line(e: &dyn fmt::Display) -> String {
    crate::text::one_line(&e.to_string())
}

#[cfg(test)]
mod tests;
