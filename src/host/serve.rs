//! Our own files served as they should be: `llms.txt` and `llms-full.txt` are for
//! language models, not search results, so `_headers` gets `X-Robots-Tag: noindex` lines
//! for them (Google's advice), between two marker lines of ours. Only those lines are
//! ever rewritten or removed; every other byte of the file is kept.
//!
//! Written by hand: the header crates parse `_headers`; none edits one byte for byte.

use std::io;
use std::path::{Path, PathBuf};

use super::HEADERS_FILE;

/// The line our block begins with.
pub const BEGIN: &str = "# sitemapgen: begin (these lines are rewritten on every build)";
/// The line our block ends with.
pub const END: &str = "# sitemapgen: end";

/// The largest `_headers` edited.
const EDIT_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// What was done to `_headers`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// Our lines were already as they should be (or there were none, and none are due).
    Unchanged,
    /// Our lines were written (the file created, or our block added or replaced).
    Written(PathBuf),
    /// Our lines were removed: none are due any more.
    Removed(PathBuf),
}

/// `_headers` could not be edited; the sitemap and the views were written.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Reading or writing failed.
    #[error("cannot update {}: {source}", crate::text::one_line(&path.display().to_string()))]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A JSON file (`vercel.json`) could not be edited: it is not as JSON has it.
    #[error(
        "{}: {why}; sitemapgen adds its headers entries only to a valid file (fix it, or set host_headers = false)",
        crate::text::one_line(&path.display().to_string())
    )]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// Our begin line is there without our end line, so where our lines end is unknown.
    #[error(
        "{}:{line}: the line {BEGIN:?} has no {END:?} after it, so sitemapgen cannot tell its lines from yours; remove the begin line or add the end line",
        crate::text::one_line(&path.display().to_string())
    )]
    Unclosed {
        /// The file.
        path: PathBuf,
        /// The begin line, 1-based.
        line: usize,
    },
}

/// Puts our `X-Robots-Tag: noindex` lines for the URL paths `paths` into `dir/_headers`
/// (none: takes ours away). The file is created only when `create`; it is opened through
/// no link, replaced only if regular, and written atomically under the site's lock.
pub fn serve_noindex(dir: &Path, paths: &[String], create: bool) -> Result<Served, ServeError> {
    let named = dir.join(HEADERS_FILE);
    let io_err = |source| ServeError::Io {
        path: named.clone(),
        source,
    };
    let held = crate::fsutil::lock_dir(dir).map_err(io_err)?;
    let rel = Path::new(HEADERS_FILE);
    let old = match held.read(rel, EDIT_MAX_BYTES).map_err(io_err)? {
        Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        None if !create || paths.is_empty() => return Ok(Served::Unchanged),
        None => String::new(),
    };
    let new = with_block(&old, paths).map_err(|line| ServeError::Unclosed {
        path: named.clone(),
        line,
    })?;
    if new == old {
        return Ok(Served::Unchanged);
    }
    held.write(rel, new.as_bytes()).map_err(io_err)?;
    Ok(match paths.is_empty() {
        true => Served::Removed(named),
        false => Served::Written(named),
    })
}

/// `old` with our block for `paths` in place of the one it has (or appended; or, with
/// no paths, without it), in the file's own line ending. `Err` is the line of a begin
/// marker without its end.
fn with_block(old: &str, paths: &[String]) -> Result<String, usize> {
    let eol = if old.contains("\r\n") { "\r\n" } else { "\n" };
    let mut block = String::new();
    if !paths.is_empty() {
        block.push_str(BEGIN);
        block.push_str(eol);
        for path in paths {
            block.push_str(&format!("{path}{eol}  X-Robots-Tag: noindex{eol}"));
        }
        block.push_str(END);
        block.push_str(eol);
    }
    let lines: Vec<&str> = old.split_inclusive('\n').collect();
    let begin = lines.iter().position(|l| l.trim_end() == BEGIN);
    let Some(begin) = begin else {
        let mut new = old.to_string();
        if !block.is_empty() && !new.is_empty() {
            if !new.ends_with('\n') {
                new.push_str(eol);
            }
            new.push_str(eol);
        }
        new.push_str(&block);
        return Ok(new);
    };
    let end = (lines[begin..].iter())
        .position(|l| l.trim_end() == END)
        .ok_or(begin + 1)?;
    // Taken away, our block leaves no blank line of ours before it.
    let keep = match block.is_empty() && begin > 0 && lines[begin - 1].trim().is_empty() {
        true => begin - 1,
        false => begin,
    };
    let mut new: String = lines[..keep].concat();
    new.push_str(&block);
    new.push_str(&lines[begin + end + 1..].concat());
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_lines_are_added_replaced_and_removed_and_no_other_is_touched() {
        let ours = vec!["/llms.txt".to_string(), "/llms-full.txt".to_string()];
        let user = "/*\n  X-Frame-Options: DENY\n";
        let added = with_block(user, &ours).unwrap();
        assert_eq!(
            added,
            format!(
                "{user}\n{BEGIN}\n/llms.txt\n  X-Robots-Tag: noindex\n/llms-full.txt\n  X-Robots-Tag: noindex\n{END}\n"
            )
        );
        // Run again: the same; with fewer files: replaced in place, the user's lines kept.
        assert_eq!(with_block(&added, &ours).unwrap(), added);
        let edited = format!("{added}/after\n  X-Test: 1\n");
        let one = with_block(&edited, &ours[..1]).unwrap();
        assert!(one.starts_with(user) && one.ends_with("/after\n  X-Test: 1\n"));
        assert!(!one.contains("llms-full"));
        // None due: ours go, the user's stay.
        assert_eq!(
            with_block(&edited, &[]).unwrap(),
            format!("{user}/after\n  X-Test: 1\n")
        );
        assert_eq!(with_block(&added, &[]).unwrap(), user);
        // A new file; a file with CRLF and no final newline.
        assert!(with_block("", &ours).unwrap().starts_with(BEGIN));
        let crlf = with_block("/a\r\n  X-A: 1", &ours[..1]).unwrap();
        assert_eq!(
            crlf,
            format!(
                "/a\r\n  X-A: 1\r\n\r\n{BEGIN}\r\n/llms.txt\r\n  X-Robots-Tag: noindex\r\n{END}\r\n"
            )
        );
        // A begin line without its end: refused, naming the line.
        assert_eq!(with_block(&format!("/a\n{BEGIN}\n/b\n"), &ours), Err(2));
    }
}
