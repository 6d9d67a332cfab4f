//! `git log --format='%x00%ct %H' --name-only -z` read as it comes: a long history is
//! walked by git only as far as the files wanted need, and never held whole.

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead};
use std::path::PathBuf;

use jiff::Timestamp;

use super::path_of;

/// The most of one field (a file name, a commit's header) kept: far past any path a
/// work tree can hold; a longer one is cut, and as no wanted file has it, not recorded.
const MAX_FIELD: usize = 64 * 1024;

/// Files by path, each with its newest commit's date and whether that commit is a
/// shallow boundary; none for a wanted file not met (yet).
pub(super) type Dates = HashMap<PathBuf, Option<(Timestamp, bool)>>;

/// What was read of the log.
#[derive(Debug, Default)]
pub(super) struct Log {
    /// Each file met: only the wanted files (all of them) when they are known.
    pub dates: Dates,
    /// The log was read to its end; else it was left once every wanted file was dated.
    pub whole: bool,
}

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

/// Reads the log: each commit is an empty field, its committer time and hash, then its
/// file names, the first preceded by a newline. A file's date is its newest commit's
/// among those read (git walks newest first, so with committer dates that never go back
/// from parent to child, its last commit's). With `wanted` (the files HEAD has that the
/// caller looks up, each undated), only those are kept, and reading stops as soon as
/// each has a date: the rest of the history cannot change what was found, but git would
/// walk all of it.
pub(super) fn read(
    mut log: impl BufRead,
    boundary: &HashSet<String>,
    wanted: Option<Dates>,
) -> io::Result<Log> {
    let only_wanted = wanted.is_some();
    let mut dates = wanted.unwrap_or_default();
    let mut undated = dates.len();
    let mut field = Vec::new();
    let mut current: Option<(Timestamp, bool)> = None;
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
        let path = path_of(name);
        match dates.get_mut(&path) {
            Some(Some(date)) if commit.0 > date.0 => *date = commit,
            Some(Some(_)) => {}
            Some(date @ None) => {
                *date = Some(commit);
                undated -= 1;
                if undated == 0 {
                    return Ok(Log {
                        dates,
                        whole: false,
                    });
                }
            }
            None if only_wanted => {}
            None => {
                dates.insert(path, Some(commit));
            }
        }
    }
    Ok(Log { dates, whole: true })
}

/// A commit's `%ct %H`: its time, and whether it is a boundary commit.
fn header(field: &[u8], boundary: &HashSet<String>) -> Option<(Timestamp, bool)> {
    let (time, commit) = std::str::from_utf8(field).ok()?.trim().split_once(' ')?;
    let when = Timestamp::from_second(time.parse().ok()?).ok()?;
    Some((when, boundary.contains(commit)))
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
