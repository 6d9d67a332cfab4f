//! `vercel.json`'s `headers`, when the user asks (`host_headers = true` on Vercel): an
//! entry of ours for each of `llms.txt` and `llms-full.txt`, each written on one line in
//! one exact form, which is how they are told from the user's. Only those entries are
//! ever added or removed; every other byte of the file is kept (the file is edited as
//! text, where a JSON writer would reformat it), and the result must still parse.
//!
//! Written by hand: JSON crates parse and write whole documents; none edits one in place.

use std::io;
use std::path::{Path, PathBuf};

use super::serve::{ServeError, Served};

/// The largest `vercel.json` edited.
const EDIT_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// How each entry of ours ends, after its `source`.
const ENTRY_TAIL: &str = r#", "headers": [{ "key": "X-Robots-Tag", "value": "noindex" }] }"#;

/// Our entry for the URL path `path`, as written.
fn entry(path: &str) -> String {
    let source = serde_json::to_string(path).unwrap_or_default();
    format!(r#"{{ "source": {source}{ENTRY_TAIL}"#)
}

/// Puts our entries for the URL paths `paths` into `file`'s `headers` (none: takes ours
/// away). The file must exist, be a regular file and stay valid JSON.
pub fn serve_noindex_json(file: &Path, paths: &[String]) -> Result<Served, ServeError> {
    let io_err = |source| ServeError::Io {
        path: file.to_path_buf(),
        source,
    };
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let held = crate::fsutil::lock_dir(dir).map_err(io_err)?;
    let bytes = crate::fsutil::read_regular(file, EDIT_MAX_BYTES).map_err(io_err)?;
    let old = String::from_utf8(bytes)
        .map_err(|_| io_err(io::Error::new(io::ErrorKind::InvalidData, "not UTF-8")))?;
    // Nothing of ours there and nothing due: the file is not even scanned.
    if paths.is_empty() && !old.contains(ENTRY_TAIL) {
        return Ok(Served::Unchanged);
    }
    let invalid = |why: &str| ServeError::Json {
        path: file.to_path_buf(),
        why: why.to_string(),
    };
    let new = with_entries(&old, paths).map_err(invalid)?;
    if new == old {
        return Ok(Served::Unchanged);
    }
    serde_json::from_str::<serde_json::Value>(&new)
        .map_err(|_| invalid("the edit would not parse"))?;
    let name = file.file_name().unwrap_or_default();
    held.write(Path::new(name), new.as_bytes())
        .map_err(io_err)?;
    Ok(match paths.is_empty() {
        true => Served::Removed(PathBuf::from(file)),
        false => Served::Written(PathBuf::from(file)),
    })
}

/// `text` with our entries for `paths`, and no other entries of ours, in its `headers`.
fn with_entries(text: &str, paths: &[String]) -> Result<String, &'static str> {
    let wanted: Vec<String> = paths.iter().map(|p| entry(p)).collect();
    let mut text = text.to_string();
    // Ours that are no longer due go, last first so the places found stay right.
    if let Some(array) = top_level_array(&text, "headers")? {
        let items = elements(&text, array)?;
        for (i, &(start, end)) in items.iter().enumerate().rev() {
            let item = &text[start..end];
            if is_ours(item) && !wanted.iter().any(|w| w == item) {
                // The item and the comma after it, or before it when it is the last.
                let (from, to) = match items.get(i + 1) {
                    Some(&(next, _)) => (start, next),
                    None if i > 0 => (items[i - 1].1, end),
                    None => (start, end),
                };
                text.replace_range(from..to, "");
            }
        }
    }
    let present = |text: &str, w: &str| text.contains(w);
    let missing: Vec<&String> = wanted.iter().filter(|w| !present(&text, w)).collect();
    if missing.is_empty() {
        return Ok(text);
    }
    let lines: Vec<String> = missing.iter().map(|w| format!("\n    {w}")).collect();
    match top_level_array(&text, "headers")? {
        Some(open) => {
            let empty = elements(&text, open)?.is_empty();
            let insert = lines.join(",") + if empty { "\n  " } else { "," };
            text.insert_str(open + 1, &insert);
        }
        None => {
            let open = text.find('{').ok_or("no top-level object")?;
            let rest_empty = text[open + 1..].trim_start().starts_with('}');
            let comma = if rest_empty { "\n" } else { "," };
            let insert = format!("\n  \"headers\": [{}\n  ]{comma}", lines.join(","));
            text.insert_str(open + 1, &insert);
        }
    }
    Ok(text)
}

/// Whether an element is one of ours: our exact form, for any path.
fn is_ours(item: &str) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(item) else {
        return false;
    };
    (value.get("source").and_then(|s| s.as_str())).is_some_and(|source| entry(source) == item)
}

/// Where the array of the top-level object's key `key` opens (its `[`), if it has one.
fn top_level_array(text: &str, key: &str) -> Result<Option<usize>, &'static str> {
    let quoted = format!("\"{key}\"");
    let mut depth = 0usize;
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let end = string_end(bytes, at)?;
                if depth == 1 && text[at..end] == quoted {
                    let after = text[end..].trim_start();
                    let after = after
                        .strip_prefix(':')
                        .ok_or("a key without ':'")?
                        .trim_start();
                    return Ok(after.starts_with('[').then(|| text.len() - after.len()));
                }
                at = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1).ok_or("unbalanced")?,
            _ => {}
        }
        at += 1;
    }
    Ok(None)
}

/// The elements of the array opening at `open`: each one's bytes, trimmed.
fn elements(text: &str, open: usize) -> Result<Vec<(usize, usize)>, &'static str> {
    let bytes = text.as_bytes();
    let (mut items, mut depth, mut start) = (Vec::new(), 0usize, open + 1);
    let mut at = open + 1;
    let push = |from: usize, to: usize, items: &mut Vec<(usize, usize)>| {
        let item = &text[from..to];
        let lead = item.len() - item.trim_start().len();
        if !item.trim().is_empty() {
            items.push((from + lead, from + lead + item.trim().len()));
        }
    };
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                at = string_end(bytes, at)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth > 0 => depth -= 1,
            b']' => {
                push(start, at, &mut items);
                return Ok(items);
            }
            b',' if depth == 0 => {
                push(start, at, &mut items);
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    Err("an array is not closed")
}

/// The index just past the string opening at `at`.
fn string_end(bytes: &[u8], at: usize) -> Result<usize, &'static str> {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err("a string is not closed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_entries_go_in_and_out_and_no_other_byte_changes() {
        let ours = ["/llms.txt".to_string(), "/llms-full.txt".to_string()];
        let user = "{\n  \"cleanUrls\": true,\n  \"headers\": [\n    { \"source\": \"/(.*)\", \"headers\": [{ \"key\": \"X-Frame-Options\", \"value\": \"DENY\" }] }\n  ]\n}\n";
        let added = with_entries(user, &ours).unwrap();
        assert!(
            added.contains(&format!(
                "\"headers\": [\n    {},\n    {},\n    {{ \"source\": \"/(.*)\"",
                entry("/llms.txt"),
                entry("/llms-full.txt")
            )),
            "{added}"
        );
        serde_json::from_str::<serde_json::Value>(&added).unwrap();
        assert_eq!(with_entries(&added, &ours).unwrap(), added);
        // One less due, then none: the file comes back as it was.
        let one = with_entries(&added, &ours[..1]).unwrap();
        assert!(!one.contains("llms-full") && one.contains("/llms.txt"));
        assert_eq!(with_entries(&one, &[]).unwrap(), user);
        // No headers key, or an empty array, or an empty object.
        for text in ["{\n  \"cleanUrls\": true\n}\n", "{ \"headers\": [] }", "{}"] {
            let added = with_entries(text, &ours[..1]).unwrap();
            let value: serde_json::Value =
                serde_json::from_str(&added).unwrap_or_else(|e| panic!("{e}: {added}"));
            assert_eq!(value["headers"][0]["source"], "/llms.txt", "{added}");
        }
        // An entry the user wrote in another form is theirs.
        let theirs = "{ \"headers\": [{\"source\": \"/llms.txt\", \"headers\": [{\"key\": \"X-Robots-Tag\", \"value\": \"noindex\"}]}] }";
        assert_eq!(with_entries(theirs, &[]).unwrap(), theirs);
        assert!(with_entries("{ \"headers\": [ \"a ", &ours).is_err());
    }
}
