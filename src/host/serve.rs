//! Our own files served as they should be: `llms.txt` and `llms-full.txt` are for
//! language models, not search results, so `_headers` gets `X-Robots-Tag: noindex` lines
//! for them (Google's advice), between two marker lines of ours. Only those lines are
//! ever rewritten or removed; every other byte of the file is kept, whatever its
//! encoding, with its byte order mark and its line ending.
//!
//! Written by hand: the header crates parse `_headers`; none edits one byte for byte.

use std::path::{Path, PathBuf};

use super::HEADERS_FILE;
use crate::fsutil::{At, IoError};

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
    #[error("cannot update {0}")]
    Io(#[from] IoError),
    /// A JSON file (`vercel.json`) could not be edited: it is not as JSON has it.
    #[error(
        "{}: {why}; sitemapgen adds its headers entries only to a valid file (fix it, or set host_headers = false)",
        crate::text::path(path)
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
        crate::text::path(path)
    )]
    Unclosed {
        /// The file.
        path: PathBuf,
        /// The begin line, 1-based.
        line: usize,
    },
}

/// Puts our `X-Robots-Tag: noindex` lines for the URL paths `paths` into `dir/_headers`
/// (none: takes ours away). The file is created only when `create`; it is read as every
/// host file is ([`super::read_file`]: through a link only one that stays in `dir`),
/// replaced only if regular, and written atomically under the site's lock. With nothing
/// due, a file that cannot be read is left as it is (reading the host's rules has said
/// why).
pub fn serve_noindex(dir: &Path, paths: &[String], create: bool) -> Result<Served, ServeError> {
    let named = dir.join(HEADERS_FILE);
    let held = crate::fsutil::lock_dir(dir).at(&named)?;
    let rel = Path::new(HEADERS_FILE);
    let old = match held.read(rel, EDIT_MAX_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) if !create || paths.is_empty() => return Ok(Served::Unchanged),
        Ok(None) => Vec::new(),
        // Nothing due: a file that cannot be read is left to the warning its rules gave.
        Err(_) if paths.is_empty() => return Ok(Served::Unchanged),
        Err(source) => return Err(IoError::new(&named, source).into()),
    };
    let new = with_block(&old, paths).map_err(|line| ServeError::Unclosed {
        path: named.clone(),
        line,
    })?;
    if new == old {
        return Ok(Served::Unchanged);
    }
    held.write(rel, &new).at(&named)?;
    Ok(match paths.is_empty() {
        true => Served::Removed(named),
        false => Served::Written(named),
    })
}

/// `old` with our block for `paths` in place of the one it has (or appended; or, with
/// no paths, without it), in the file's own line ending. `Err` is the line of a begin
/// marker without its end.
///
/// Edited as bytes: every byte outside our block is kept whatever the file's encoding
/// (a Latin-1 `é` stays one byte, where a lossy UTF-8 read made it U+FFFD), and a
/// byte order mark stays first.
fn with_block(old: &[u8], paths: &[String]) -> Result<Vec<u8>, usize> {
    let bom = crate::text::BOM.as_bytes();
    let (head, body) = match old.strip_prefix(bom) {
        Some(body) => (bom, body),
        None => (&[][..], old),
    };
    let eol: &[u8] = match body.windows(2).any(|w| w == b"\r\n") {
        true => b"\r\n",
        false => b"\n",
    };
    let block = block(paths, eol);
    let mut new = head.to_vec();
    let lines: Vec<&[u8]> = body.split_inclusive(|&b| b == b'\n').collect();
    let is = |line: &[u8], marker: &str| line.trim_ascii_end() == marker.as_bytes();
    let Some(begin) = lines.iter().position(|l| is(l, BEGIN)) else {
        new.extend_from_slice(body);
        if !block.is_empty() && !body.is_empty() {
            if !body.ends_with(b"\n") {
                new.extend_from_slice(eol);
            }
            new.extend_from_slice(eol);
        }
        new.extend_from_slice(&block);
        return Ok(new);
    };
    let end = (lines[begin..].iter())
        .position(|l| is(l, END))
        .ok_or(begin + 1)?;
    // Taken away, our block leaves no blank line of ours before it.
    let blank_before = begin > 0 && lines[begin - 1].trim_ascii().is_empty();
    let keep = match block.is_empty() && blank_before {
        true => begin - 1,
        false => begin,
    };
    new.extend(lines[..keep].concat());
    new.extend_from_slice(&block);
    new.extend(lines[begin + end + 1..].concat());
    Ok(new)
}

/// Our block for `paths`, its lines ended with `eol`; empty for none.
fn block(paths: &[String], eol: &[u8]) -> Vec<u8> {
    let mut block = Vec::new();
    if paths.is_empty() {
        return block;
    }
    let mut line = |text: &str| {
        block.extend_from_slice(text.as_bytes());
        block.extend_from_slice(eol);
    };
    line(BEGIN);
    for path in paths {
        line(path);
        line("  X-Robots-Tag: noindex");
    }
    line(END);
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`with_block`] of a text, as text.
    fn with_block(old: &str, paths: &[String]) -> Result<String, usize> {
        super::with_block(old.as_bytes(), paths).map(|new| String::from_utf8(new).unwrap())
    }

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

    /// Every byte not ours is kept, whatever the encoding: added, then taken away again,
    /// the file is byte for byte what it was.
    #[test]
    fn bytes_boms_and_line_endings_of_the_users_survive_the_edit() {
        let ours = vec!["/llms.txt".to_string()];
        let table: [&[u8]; 6] = [
            b"/*\n  X-Note: caf\xe9\n",
            b"\xef\xbb\xbf/*\r\n  X-Frame-Options: DENY\r\n",
            b"\xef\xbb\xbf",
            b"\xff\xfe/\x00*\x00\n\x00",
            b"/a\r\n  X-A: \x80\x81",
            b"/a\n\n\n",
        ];
        for old in table {
            let added = super::with_block(old, &ours).unwrap();
            assert!(added.starts_with(old), "{old:?}: {added:?}");
            let eol = if old.windows(2).any(|w| w == b"\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            let tail = format!("{BEGIN}{eol}/llms.txt{eol}  X-Robots-Tag: noindex{eol}{END}{eol}");
            assert!(added.ends_with(tail.as_bytes()), "{old:?}: {added:?}");
            assert_eq!(super::with_block(&added, &ours).unwrap(), added);
            let removed = super::with_block(&added, &[]).unwrap();
            let unterminated = !old.ends_with(b"\n") && old.len() > 3;
            match unterminated {
                // The line end put after the user's last line stays.
                true => assert_eq!(removed, [old, eol.as_bytes()].concat(), "{old:?}"),
                false => assert_eq!(removed, old, "{old:?}"),
            }
        }
        // A BOM before our begin line: still ours, the BOM kept.
        let bommed = [
            crate::text::BOM.as_bytes(),
            &super::with_block(b"", &ours).unwrap(),
        ]
        .concat();
        assert_eq!(
            super::with_block(&bommed, &[]).unwrap(),
            crate::text::BOM.as_bytes()
        );
    }
}
