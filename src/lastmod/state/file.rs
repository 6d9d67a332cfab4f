//! The state file's JSON, read and written streaming: pages go from the parser straight
//! into a [`State`] (no tree, no string per page), and the save writes the merge of two
//! sorted states as it goes, in exactly the bytes `serde_json`'s pretty printer gives.

mod parse;

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::SystemTime;

use jiff::Timestamp;

use super::{MAX_BYTES, PageState, State, StateError, Url, VERSION};
use crate::fsutil::{self, IoError};
use parse::{Seen, parse, what_is_wrong};

/// What a state file was when it was read: the save reads it again only if another run
/// replaced it since.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Default))]
pub(super) struct Identity {
    len: u64,
    modified: Option<SystemTime>,
    #[cfg(unix)]
    inode: (u64, u64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Identity {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: (meta.dev(), meta.ino()),
        }
    }

    /// The file at `path` now; `None` when there is none.
    fn now(path: &Path) -> io::Result<Option<Identity>> {
        match std::fs::metadata(path) {
            Ok(meta) => Ok(Some(Identity::of(&meta))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The largest state file read whole before it is parsed (some 400,000 pages): parsing
/// bytes in memory is twice as fast as through a reader, and this is a wait before the
/// walk. Larger ones are read streaming, so memory stays bounded by the pages.
const READ_WHOLE: u64 = 64 << 20;

/// Reads the state file at `path` (none there: an empty state), in the tree of `site`
/// when given ([`fsutil::Root::open`]).
pub(super) fn load(path: &Path, site: Option<&Path>) -> Result<State, StateError> {
    load_reading_whole(path, site, READ_WHOLE)
}

/// [`load`], reading the file whole when it is at most `whole_up_to` bytes long.
pub(super) fn load_reading_whole(
    path: &Path,
    site: Option<&Path>,
    whole_up_to: u64,
) -> Result<State, StateError> {
    let read_err = |source| StateError::Read(IoError::new(path, source));
    let opened = match site {
        Some(site) => fsutil::Root::at(site)
            .and_then(|root| root.open(path.strip_prefix(site).unwrap_or(path)))
            .and_then(|file| file.ok_or_else(|| io::ErrorKind::NotFound.into())),
        None => fsutil::open_regular(path),
    };
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(State::default()),
        Err(e) => return Err(read_err(e)),
    };
    let meta = file.metadata().map_err(read_err)?;
    if meta.len() > MAX_BYTES {
        let too_large = format!("is larger than {}", crate::text::bytes(MAX_BYTES));
        return Err(read_err(io::Error::new(
            io::ErrorKind::InvalidData,
            too_large,
        )));
    }
    let identity = Identity::of(&meta);
    let (mut state, mut seen) = (State::default(), Seen::default());
    // A file grown since is cut a byte past the limit: its JSON ends early.
    let mut file = file.take(MAX_BYTES + 1);
    let read = if meta.len() <= whole_up_to {
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0) + 1);
        file.read_to_end(&mut bytes).map_err(read_err)?;
        parse(
            serde_json::Deserializer::from_slice(&bytes),
            &mut state,
            &mut seen,
        )
    } else {
        let reader = io::BufReader::with_capacity(64 * 1024, file);
        parse(
            serde_json::Deserializer::from_reader(reader),
            &mut state,
            &mut seen,
        )
    };
    match read {
        Ok(()) => {
            let mut state = state.sorted();
            state.file = Some(identity);
            Ok(state)
        }
        Err(e) if e.is_io() => Err(read_err(e.into())),
        Err(e) => Err(StateError::Invalid {
            path: path.to_path_buf(),
            problem: what_is_wrong(&e, &seen),
        }),
    }
}

/// The prefix of a state's temporary files (swept when a killed run left them).
const TEMP_PREFIX: &str = ".sitemap-state.";

/// See [`super::save`].
pub(super) fn save<'a>(
    path: &Path,
    owned: &str,
    current: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
) -> Result<(), StateError> {
    let held = fsutil::lock_dir(fsutil::parent_dir(path)).map_err(write_error(path))?;
    save_locked(path, owned, current, previous, &held)
}

/// [`save`] under the lock `held` of the file's directory.
fn save_locked<'a>(
    path: &Path,
    owned: &str,
    current: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
    held: &fsutil::DirLock,
) -> Result<(), StateError> {
    let reread;
    let others = match Identity::now(path) {
        Ok(now) if now == previous.file => previous,
        _ => {
            reread = load(path, None)?;
            &reread
        }
    };
    let pages = merged(others, owned, current);
    (held
        .dir()
        .write_atomic(file_name(path)?, TEMP_PREFIX, |out| write(out, pages)))
    .map_err(write_error(path))
}

/// The state file's name, which its folder's held directory writes it by.
fn file_name(path: &Path) -> Result<&std::ffi::OsStr, StateError> {
    let no_name = || io::Error::new(io::ErrorKind::InvalidInput, "no file name");
    path.file_name()
        .ok_or_else(no_name)
        .map_err(write_error(path))
}

/// An error writing the state file at `path`, for `map_err`.
fn write_error(path: &Path) -> impl Fn(io::Error) -> StateError + '_ {
    move |source| StateError::Write(IoError::new(path, source))
}

/// See [`super::Prepared`].
#[derive(Debug)]
pub(super) struct Prepared {
    /// `None`: nothing was written, the file as the run read it holds the run's state.
    temp: Option<fsutil::dir::Temp>,
}

/// See [`super::Prepared::unchanged`].
pub(super) fn unchanged() -> Prepared {
    Prepared { temp: None }
}

/// See [`super::prepare`]: what [`save`] writes, merged with `previous` as the run read
/// it, written into a temporary file beside `path` (synced) without the directory's lock.
pub(super) fn prepare<'a>(
    path: &Path,
    owned: &str,
    current: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
) -> Result<Prepared, StateError> {
    let name = file_name(path)?;
    let dir = fsutil::dir::Dir::open_root(fsutil::parent_dir(path)).map_err(write_error(path))?;
    let dir = std::sync::Arc::new(dir);
    // Refused before anything is written, as `save` refuses it.
    dir.replaceable(name).map_err(write_error(path))?;
    let pages = merged(previous, owned, current);
    let mut temp = dir.temp(TEMP_PREFIX).map_err(write_error(path))?;
    temp.fill(|out| write(out, pages))
        .map_err(write_error(path))?;
    Ok(Prepared { temp: Some(temp) })
}

/// See [`super::Prepared::commit`]: under the directory's lock, `prepared` is renamed into
/// place (unchanged, nothing is done) if the file is still the one the run read; else
/// (another run saved since, or swept the temporary file while it was written unlocked)
/// the state is saved as [`save`] saves it, `current` read again.
pub(super) fn commit<'a>(
    prepared: Prepared,
    path: &Path,
    owned: &str,
    current: impl Iterator<Item = (Url<'a>, PageState)>,
    previous: &State,
) -> Result<(), StateError> {
    let dir = fsutil::parent_dir(path);
    let held = fsutil::lock_dir(dir).map_err(write_error(path))?;
    if matches!(Identity::now(path), Ok(now) if now == previous.file) {
        let Some(temp) = prepared.temp else {
            return Ok(());
        };
        match temp.persist(file_name(path)?) {
            Ok(()) => {
                held.dir().sync();
                // After the rename: this run's own temporary file is not among them.
                held.dir().sweep_temporaries(TEMP_PREFIX);
                return Ok(());
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_error(path)(e)),
        }
    }
    save_locked(path, owned, current, previous, &held)
}

/// The pages of `others` outside `owned`, and all of `current` (in URL order), in URL
/// order (a URL in both: `current`'s).
fn merged<'o, 'c: 'o>(
    others: &'o State,
    owned: &'o str,
    current: impl Iterator<Item = (Url<'c>, PageState)> + 'o,
) -> impl Iterator<Item = (Url<'o>, PageState)> + 'o {
    let mut kept = others
        .pages()
        .filter(move |(url, _)| !url.starts_with(owned))
        .map(|(url, page)| (Url("", url), page))
        .peekable();
    let mut ours = current.map(|(url, page)| (url as Url<'o>, page)).peekable();
    std::iter::from_fn(move || match (kept.peek(), ours.peek()) {
        (Some(a), Some(b)) => match b.0.cmp_str(a.0.1) {
            std::cmp::Ordering::Greater => kept.next(),
            std::cmp::Ordering::Less => ours.next(),
            std::cmp::Ordering::Equal => {
                kept.next();
                ours.next()
            }
        },
        (Some(_), None) => kept.next(),
        (None, _) => ours.next(),
    })
}

/// `text` as a JSON string, as serde_json writes it, appended to `out`: most URLs need no
/// escape, and are copied between quotes without serde_json's byte-by-byte look.
fn json_string(out: &mut Vec<u8>, text: &str) -> io::Result<()> {
    let plain = text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
    if plain {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        return Ok(());
    }
    serde_json::to_writer(out, text).map_err(io::Error::from)
}

/// Writes a state file of `pages` (in URL order), as `serde_json::to_vec_pretty` of the
/// file's object would, and a newline.
pub(super) fn write<'a>(
    out: &mut dyn Write,
    pages: impl Iterator<Item = (Url<'a>, PageState)>,
) -> io::Result<()> {
    write!(
        out,
        "{{\n  \"sitemapgen_state\": {VERSION},\n  \"pages\": {{"
    )?;
    let mut any = false;
    // The last date's JSON: pages mostly share their dates with their neighbours.
    let mut last: Option<(Timestamp, Vec<u8>)> = None;
    // Each URL joined in one buffer, to be escaped.
    let mut text = String::new();
    // Each record made whole before it is written: one call through `dyn Write` a page,
    // not seven.
    let mut record = Vec::new();
    for (url, page) in pages {
        record.clear();
        record.extend_from_slice(if any { b",\n    " } else { b"\n    " });
        url.write_into(&mut text);
        json_string(&mut record, &text)?;
        record.extend_from_slice(b": {\n      \"fingerprint\": \"");
        record.extend_from_slice(&page.fingerprint.hex());
        record.extend_from_slice(b"\"");
        if let Some(lastmod) = page.lastmod {
            record.extend_from_slice(b",\n      \"lastmod\": ");
            if last.as_ref().is_none_or(|(ts, _)| *ts != lastmod) {
                last = Some((lastmod, serde_json::to_vec(&lastmod)?));
            }
            if let Some((_, json)) = &last {
                record.extend_from_slice(json);
            }
        }
        record.extend_from_slice(b"\n    }");
        out.write_all(&record)?;
        any = true;
    }
    out.write_all(if any { b"\n  }\n}\n" } else { b"}\n}\n" })
}

#[cfg(test)]
mod tests {
    /// The fast path writes what serde_json writes, for strings that need escapes or not.
    #[test]
    fn json_strings_are_serde_jsons() {
        let table = [
            "https://example.org/a/b/",
            "",
            "quote\"d",
            "back\\slash",
            "tab\there",
            "nul\0",
            "del\u{7f}",
            "unicode é ☃ \u{2028}",
            "\u{1f}",
            " ",
        ];
        for text in table {
            let mut out = Vec::new();
            super::json_string(&mut out, text).unwrap();
            assert_eq!(out, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
    }
}
