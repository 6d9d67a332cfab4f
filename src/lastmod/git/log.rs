//! `git log --format='%x00%ct %H' --name-only -z` read as it comes: a long history is
//! walked by git only as far as the files wanted need, and never held whole.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead};
use std::path::PathBuf;

use jiff::Timestamp;

use super::path_of;

/// The most of one field (a file name, a commit's header) kept: far past any path a
/// work tree can hold; a longer one is cut, and as no wanted file has it, not recorded.
const MAX_FIELD: usize = 64 * 1024;

/// What was read of the log.
#[derive(Debug, Default)]
pub(super) struct Log {
    /// Each file's newest commit's date, and whether that commit is a shallow
    /// boundary: of the wanted files only, when they are known.
    pub dates: HashMap<PathBuf, (Timestamp, bool)>,
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
/// caller looks up), only those are kept, and reading stops as soon as each has a date:
/// the rest of the history cannot change what was found, but git would walk all of it.
pub(super) fn read(
    mut log: impl BufRead,
    boundary: &HashSet<String>,
    wanted: Option<&HashSet<PathBuf>>,
) -> io::Result<Log> {
    let mut dates: HashMap<PathBuf, (Timestamp, bool)> = HashMap::new();
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
        let Some((when, at_boundary)) = current else {
            continue;
        };
        if !whole || name.is_empty() {
            continue;
        }
        let path = path_of(name);
        if wanted.is_some_and(|w| !w.contains(&path)) {
            continue;
        }
        match dates.entry(path) {
            Entry::Occupied(mut date) if when > date.get().0 => {
                *date.get_mut() = (when, at_boundary);
            }
            Entry::Occupied(_) => {}
            Entry::Vacant(date) => {
                date.insert((when, at_boundary));
                if wanted.is_some_and(|w| w.len() == dates.len()) {
                    return Ok(Log {
                        dates,
                        whole: false,
                    });
                }
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
