//! What reading each source found, kept from one run to the next in the project's git
//! directory, so a run opens only the sources that changed since.
//!
//! A source is taken from the cache when git has it committed and unchanged (HEAD has
//! it, and `status`, which already looks at every file, lists no change) as the same blob
//! it was when it was read, and the settings that route and date sources are the same
//! (the cache's fingerprint). Sources git does not have, or has changed, are read each
//! run. Kept in the git directory: the ids are the repository's, nothing appears in the
//! work tree, and the cache is good in any clone of the repository that has it.
//!
//! One line a source, tab-separated: its path in the project, its blob id, whether it is
//! a draft, its explicit date, the values it found wrong, and its output paths. A source
//! with a tab or a line break in any of them is not kept (it is read each run). Written
//! by hand: a few lines of text, not worth a format crate, and read without parsing the
//! lines not looked up.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jiff::Timestamp;

use super::SourceSettings;
use super::walk::MAX_SOURCES;
use crate::fsutil;
use crate::generators::Prepared;
use crate::lastmod::git::{self, Oid};
use crate::packed::Places;

/// The most output paths a cached source may have; a line with more is not trusted.
const MAX_OUTPUTS: usize = 4096;

/// What the cache file starts with, before the fingerprint: it says what the file is.
const MAGIC: &str = "sitemapgen sources cache 1";

/// The largest cache file read: far past any site's (about 150 bytes a source), and a
/// bound on what a run holds of it.
const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// What reading a source found: all that dating it takes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Read {
    /// A draft: it builds no page.
    pub(super) draft: bool,
    pub(super) updated: Option<Timestamp>,
    pub(super) unparseable: Option<String>,
    pub(super) refused: Option<String>,
    pub(super) outputs: Vec<String>,
}

/// The cache as the last run left it: its lines, found by their path's hash.
#[derive(Debug, Default)]
pub(super) struct Cache {
    text: String,
    /// Where each line starts, by its path.
    index: Places,
    /// How many lines, and the bytes of their paths and of the rest.
    pub(super) sizes: Sizes,
}

/// How much the last run read: what this run's sources will take, near enough to make
/// room for them at once (a list grown by doubling under a lock, on whichever thread
/// holds it, leaves its old copies to threads that may not free them soon).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Sizes {
    pub(super) lines: usize,
    pub(super) path_bytes: usize,
    pub(super) rest_bytes: usize,
}

/// Where the cache of the sources of a project is kept, and what it must have been
/// written under.
#[derive(Debug, Clone)]
pub(super) struct Store {
    /// The cache file, in the git directory.
    pub(super) path: PathBuf,
    /// The settings that route and date sources, hashed.
    fingerprint: String,
}

impl Store {
    /// The cache of `settings`' project in the git directory `git_dir`: one file for each
    /// project directory, so two sites of one repository keep theirs apart.
    pub(super) fn new(git_dir: &Path, settings: &SourceSettings, prepared: &Prepared) -> Store {
        let project =
            std::fs::canonicalize(&settings.project).unwrap_or_else(|_| settings.project.clone());
        let name = blake3::hash(project.as_os_str().as_encoded_bytes()).to_hex();
        let path = git_dir.join(format!("sitemapgen-sources-{}", &name[..16]));
        Store {
            path,
            fingerprint: fingerprint(settings, prepared),
        }
    }

    /// The cache the last run left, if it was written under the same settings; an empty
    /// one when there is none, or it cannot be read.
    pub(super) fn load(&self) -> Cache {
        let (dir, name) = (fsutil::parent_dir(&self.path), self.path.file_name());
        let Some(name) = name else {
            return Cache::default();
        };
        let Ok(bytes) = fsutil::read_below(dir, Path::new(name), MAX_BYTES) else {
            return Cache::default();
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return Cache::default();
        };
        let header = format!("{MAGIC} {}\n", self.fingerprint);
        if !text.starts_with(&header) {
            return Cache::default();
        }
        let mut index = Places::with_capacity((text.len() / 128).min(MAX_SOURCES));
        let mut at = header.len();
        // No more lines than a walk finds sources: a bound on the index.
        let mut sizes = Sizes::default();
        for line in text[at..].split_inclusive('\n').take(MAX_SOURCES) {
            let key = key_of(line);
            index.insert(key, at, |at| key_of(&text[at..]));
            sizes.lines += 1;
            sizes.path_bytes += key.len();
            sizes.rest_bytes += line.len() - key.len();
            at += line.len();
        }
        Cache { text, index, sizes }
    }
}

/// The settings a source's outputs and dates depend on, besides its path and text, and
/// the version that read it.
fn fingerprint(settings: &SourceSettings, prepared: &Prepared) -> String {
    let routes: Vec<(&str, &str)> = (settings.routes.iter())
        .map(|r| (r.from.as_str(), r.to.as_str()))
        .collect();
    let prepared_routes: Vec<(&str, &str)> = (prepared.routes.iter())
        .map(|r| (r.from.as_str(), r.to.as_str()))
        .collect();
    let all = format!(
        "{} {:?} {routes:?} {:?} {:?} {:?} {:?} {prepared_routes:?} {:?} {:?} {} {:?} {:?} {:?} {:?} {:?}",
        env!("CARGO_PKG_VERSION"),
        settings.generator.map(|g| g.name),
        settings.content,
        settings.updated,
        settings.permalink,
        settings.default_language,
        prepared.served,
        prepared.default_language,
        prepared.default_in_subdir,
        prepared.post_name,
        prepared.content_languages,
        prepared.permalinks,
        prepared.collections_dir,
        prepared.translations,
    );
    blake3::hash(all.as_bytes()).to_hex()[..32].to_string()
}

impl Cache {
    /// What reading the source at `key` found, if the cache has it as blob `oid`, and its
    /// line (to be kept again as it is).
    pub(super) fn get(&self, key: &str, oid: &Oid) -> Option<(Read, &str)> {
        let at = (self.index).get(key.as_bytes(), |at| key_of(&self.text[at..]))?;
        let line = self.line(at);
        Some((parse_line(line, oid)?, line))
    }

    fn line(&self, at: usize) -> &str {
        let rest = &self.text[at..];
        rest.split('\n').next().unwrap_or_default()
    }
}

/// The key of the line `text` starts with.
fn key_of(text: &str) -> &[u8] {
    let line = text.as_bytes();
    &line[..memchr::memchr2(b'\t', b'\n', line).unwrap_or(line.len())]
}

/// The [`Read`] a line holds, if its blob is `oid`.
fn parse_line(line: &str, oid: &Oid) -> Option<Read> {
    let mut fields = line.split('\t').skip(1);
    if git::oid_of(fields.next()?.as_bytes())? != *oid {
        return None;
    }
    let draft = match fields.next()? {
        "d" => true,
        "" => false,
        _ => return None,
    };
    let updated = match fields.next()? {
        "" => None,
        nanos => Some(Timestamp::from_nanosecond(nanos.parse().ok()?).ok()?),
    };
    let optional = |field: &str| field.strip_prefix('=').map(str::to_string);
    let unparseable = optional(fields.next()?);
    let refused = optional(fields.next()?);
    Some(Read {
        draft,
        updated,
        unparseable,
        refused,
        // A line no run could have written (more outputs than any source has) is read again.
        outputs: (fields.clone().count() <= MAX_OUTPUTS)
            .then(|| fields.map(str::to_string).collect())?,
    })
}

/// The line of a source (without its line break), none if one of its fields would break the format.
fn line_of(key: &str, oid: &Oid, read: &Read) -> Option<String> {
    let plain = |s: &str| !s.contains(['\t', '\n', '\r']);
    let texts = [key].into_iter().chain(read.unparseable.as_deref());
    let texts = texts.chain(read.refused.as_deref());
    if !texts
        .chain(read.outputs.iter().map(String::as_str))
        .all(plain)
    {
        return None;
    }
    let optional = |v: &Option<String>| v.as_ref().map_or(String::new(), |v| format!("={v}"));
    let mut line = format!(
        "{key}\t{}\t{}\t{}\t{}\t{}",
        hex(oid),
        if read.draft { "d" } else { "" },
        read.updated
            .map_or(String::new(), |t| t.as_nanosecond().to_string()),
        optional(&read.unparseable),
        optional(&read.refused),
    );
    for output in &read.outputs {
        line.push('\t');
        line.push_str(output);
    }
    Some(line)
}

/// The cache this run writes, a line as each source is read (or found in the last run's
/// cache), streamed to a temporary file that replaces the cache at the end. Runs take
/// turns: the git directory's lock is held from start to finish.
pub(super) struct Writer {
    out: Mutex<Option<io::BufWriter<fsutil::dir::Temp>>>,
    _held: fsutil::DirLock,
}

impl Writer {
    /// Starts the cache at `store`, first removing what a killed run left of its caches.
    pub(super) fn start(store: &Store) -> io::Result<Writer> {
        let dir = fsutil::parent_dir(&store.path);
        let held = fsutil::lock_dir(dir)?;
        // What a killed run left of its caches (this one's, and git's kept log).
        held.dir().sweep_temporaries(".sitemapgen-");
        let prefix = temp_prefix(store);
        let mut out = io::BufWriter::new(held.dir().temp(&prefix)?);
        writeln!(out, "{MAGIC} {}", store.fingerprint)?;
        Ok(Writer {
            out: Mutex::new(Some(out)),
            _held: held,
        })
    }

    /// The line that keeps what reading the source at `key`, blob `oid`, found, added to
    /// `lines`.
    pub(super) fn keep(&self, lines: &mut String, key: &str, oid: &Oid, read: &Read) {
        if let Some(line) = line_of(key, oid, read) {
            lines.push_str(&line);
            lines.push('\n');
        }
    }

    /// Writes `lines` (whole lines, from [`Writer::keep`] or the last run's cache) to the
    /// cache, and clears them.
    pub(super) fn write(&self, lines: &mut String) {
        let mut out = self.out.lock().expect("a walker thread panicked");
        // A write that fails drops the cache this run; the finish says so.
        if let Some(w) = out.as_mut()
            && w.write_all(lines.as_bytes()).is_err()
        {
            *out = None;
        }
        lines.clear();
    }

    /// Puts the cache in place; an error where it could not be written whole (the last
    /// run's then stays, and is still true where it says anything).
    pub(super) fn finish(self, store: &Store) -> io::Result<()> {
        let out = self.out.into_inner().expect("a walker thread panicked");
        let out = out.ok_or_else(|| io::Error::other("a write failed"))?;
        let temp = out.into_inner().map_err(|e| e.into_error())?;
        temp.persist(store.path.file_name().unwrap_or_default())
    }
}

/// A blob id in hex, as the cache writes it.
fn hex(oid: &Oid) -> String {
    oid.iter().map(|b| format!("{b:02x}")).collect()
}

/// The prefix of the cache's temporary files (`.sitemapgen-sources-....XXXXXX.tmp`).
fn temp_prefix(store: &Store) -> String {
    let name = store.path.file_name().unwrap_or_default();
    format!(".{}.", name.to_string_lossy())
}

#[cfg(test)]
mod tests;
