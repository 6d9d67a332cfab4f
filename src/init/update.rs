//! `sitemapgen init --update`: what `init` would propose now that a `sitemap.toml` does
//! not mention, added to it commented, every byte of the user's own lines kept.

use super::{Detected, Proposal, proposals};

/// The file with the proposals it lacked, and those proposals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Updated {
    /// The new text: the old one with the proposals inserted.
    pub text: String,
    /// The proposals added, in the order they were written.
    pub added: Vec<Proposal>,
}

/// Why a file was not updated: it is not TOML.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}:{line}: not valid TOML ({why}); fix it, then run `sitemapgen init --update` again",
    crate::text::path(path)
)]
pub struct Unparsed {
    /// The file.
    pub path: std::path::PathBuf,
    /// The line of the fault, from 1.
    pub line: usize,
    /// What the parser said, on one line.
    pub why: String,
}

/// `text` (the file at `path`) with every proposal for `found` whose key it neither sets
/// nor mentions in a comment (`# documents = ...`), inserted before its first table so
/// that each key, uncommented, is a top-level key.
pub fn update(path: &std::path::Path, text: &str, found: &Detected) -> Result<Updated, Unparsed> {
    let doc = toml_edit::Document::parse(text).map_err(|e| Unparsed {
        path: path.to_path_buf(),
        line: 1
            + (e.span()
                .map_or(&[][..], |s| &text.as_bytes()[..s.start.min(text.len())]))
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        why: crate::text::one_line(e.message().trim_end()),
    })?;
    let root = doc.as_table();
    let added: Vec<Proposal> = (proposals(found).into_iter())
        .filter(|p| !root.contains_key(p.key) && !mentioned(text, p.key))
        .collect();
    if added.is_empty() {
        return Ok(Updated {
            text: text.to_string(),
            added,
        });
    }
    let block: String = (added.iter()).map(|p| format!("\n{}", p.text)).collect();
    let at = first_table(root).map(|header| line_start(text, header));
    let text = match at {
        Some(at) => format!("{}{}\n{}", &text[..at], &block[1..], &text[at..]),
        None if text.is_empty() || text.ends_with('\n') => format!("{text}{block}"),
        None => format!("{text}\n{block}"),
    };
    Ok(Updated { text, added })
}

/// Whether a comment line of `text` names `key` as a key: `# key = ...`.
fn mentioned(text: &str, key: &str) -> bool {
    text.lines().any(|line| {
        let rest = line.trim_start().strip_prefix('#').map(str::trim_start);
        rest.and_then(|r| r.strip_prefix(key))
            .is_some_and(|r| r.trim_start().starts_with('='))
    })
}

/// Where the first table header (`[x]`, `[[x]]`, at any depth) starts in the text.
fn first_table(table: &toml_edit::Table) -> Option<usize> {
    let headers = table.iter().flat_map(|(_, item)| match item {
        toml_edit::Item::Table(t) => vec![t],
        toml_edit::Item::ArrayOfTables(a) => a.iter().collect(),
        _ => Vec::new(),
    });
    headers
        .filter_map(|t| {
            let own = (!t.is_implicit() && !t.is_dotted())
                .then(|| t.span().map(|s| s.start))
                .flatten();
            own.into_iter().chain(first_table(t)).min()
        })
        .min()
}

/// The start of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |n| n + 1)
}
