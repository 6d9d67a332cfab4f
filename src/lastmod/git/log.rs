//! `git log --format='%x00%ct %H' --name-only -z` read as it comes: a long history is
//! walked by git only as far as the files wanted need, and never held whole.

use std::collections::HashSet;
use std::io::{self, BufRead};

use jiff::Timestamp;

use super::tree::Tree;

/// The most of one field (a file name, a commit's header) kept: far past any path a
/// work tree can hold; a longer one is cut, and as no wanted file has it, not recorded.
const MAX_FIELD: usize = 64 * 1024;

/// What the next field of the log is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A commit's time and id.
    Header,
    /// Its first file name, after a newline; or an empty field before the next commit.
    FirstName,
    /// A file name, or an empty field before the next commit.
    Name,
}

/// Reads the log into `tree`: each commit is an empty field, its committer time and
/// hash, then its file names, the first preceded by a newline. A file's date is its
/// newest commit's among those read (git walks newest first, so with committer dates that
/// never go back from parent to child, its last commit's). Reading stops as soon as each
/// file of the tree has a date: the rest of the history cannot change what was found,
/// but git would walk all of it. Whether the log was read to its end (always, where HEAD
/// could not be listed: git then says why it fails).
pub(super) fn read(
    mut log: impl BufRead,
    boundary: &HashSet<String>,
    tree: &Tree,
) -> io::Result<bool> {
    let mut undated = if tree.listed { tree.len() } else { usize::MAX };
    let mut field = Vec::new();
    let mut current: Option<(i64, bool)> = None;
    // The log starts with an empty field, as before every commit.
    let mut next = Next::Name;
    while let Some(whole) = next_field(&mut log, &mut field)? {
        let name = match next {
            Next::Header => {
                current = header(&field, boundary);
                next = Next::FirstName;
                continue;
            }
            Next::FirstName if field.first() == Some(&b'\n') => &field[1..],
            _ if field.is_empty() => {
                next = Next::Header;
                continue;
            }
            _ => &field[..],
        };
        next = Next::Name;
        let Some(commit) = current else {
            continue;
        };
        if !whole || name.is_empty() {
            continue;
        }
        if tree.meet(name, commit) {
            undated -= 1;
            if undated == 0 {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A commit's `%ct %H`: its time in seconds (of a date a timestamp can hold), and
/// whether it is a boundary commit.
fn header(field: &[u8], boundary: &HashSet<String>) -> Option<(i64, bool)> {
    let (time, commit) = std::str::from_utf8(field).ok()?.trim().split_once(' ')?;
    let seconds = time.parse().ok()?;
    Timestamp::from_second(seconds).ok()?;
    Some((seconds, boundary.contains(commit)))
}

/// Reads the next NUL-terminated field into `field` (without the NUL), at most
/// [`MAX_FIELD`] bytes of it: whether it was whole, none at the end of the log.
fn next_field(log: &mut impl BufRead, field: &mut Vec<u8>) -> io::Result<Option<bool>> {
    field.clear();
    let (mut any, mut cut) = (false, false);
    loop {
        let buf = match log.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(!cut));
        }
        any = true;
        let end = memchr::memchr(0, buf);
        let part = &buf[..end.unwrap_or(buf.len())];
        let room = MAX_FIELD - field.len();
        cut |= part.len() > room;
        field.extend_from_slice(&part[..part.len().min(room)]);
        let used = end.map_or(buf.len(), |at| at + 1);
        log.consume(used);
        if end.is_some() {
            return Ok(Some(!cut));
        }
    }
}

#[cfg(test)]
mod tests;
