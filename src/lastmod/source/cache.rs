//! What reading each source found, kept from one run to the next in the project's git
//! directory, so a run opens only the sources that changed since.
//!
//! A source is taken from the cache when its `stat` (size, modified and changed times,
//! inode) is what it was when it was read, as git's index takes a file as unchanged, and
//! when the settings that route and date sources are the same (the cache's fingerprint).
//! A file written within a moment of being read could change again without changing its
//! times ("racily clean", as git says), so only sources whose times are some seconds
//! older than the run are kept. Kept in the git directory: the sources are dated by its
//! history anyway, nothing appears in the work tree, and a clone starts without one.
//!
//! One line a source, tab-separated: its path in the project, its stat, whether it is a
//! draft, its explicit date, the values it found wrong, and its output paths. A source
//! with a tab or a line break in any of them is not kept (it is read each run). Written
//! by hand: a few lines of text, not worth a format crate, and read without parsing the
//! lines not looked up.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use jiff::Timestamp;

use super::SourceSettings;
use super::places::{Place, Places};
use crate::generators::Prepared;
use crate::fsutil;

/// What the cache file starts with, before the fingerprint: it says what the file is.
const MAGIC: &str = "sitemapgen sources cache 1";

/// The largest cache file read: far past any site's (about 150 bytes a source), and a
/// bound on what a run holds of it.
const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// How much older than the run a source's times must be for it to be kept: a file
/// changed within a tick of the clock after it was read would keep its times.
const SETTLED: Duration = Duration::from_secs(2);

/// A source file's `stat`, as far as it tells a changed file from an unchanged one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stat {
    len: u64,
    /// Modified and (on Unix) changed times, in nanoseconds since the epoch.
    modified: i128,
    changed: i128,
    /// The inode (0 off Unix).
    inode: u64,
}

impl Stat {
    /// The stat of a file's metadata; none where the OS gives no modified time.
    pub(super) fn of(meta: &std::fs::Metadata) -> Option<Stat> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let nanos = |s: i64, ns: i64| i128::from(s) * 1_000_000_000 + i128::from(ns);
            Some(Stat {
                len: meta.len(),
                modified: nanos(meta.mtime(), meta.mtime_nsec()),
                changed: nanos(meta.ctime(), meta.ctime_nsec()),
                inode: meta.ino(),
            })
        }
        #[cfg(not(unix))]
        {
            let since = meta.modified().ok()?.duration_since(SystemTime::UNIX_EPOCH);
            Some(Stat {
                len: meta.len(),
                modified: since.ok()?.as_nanos() as i128,
                changed: 0,
                inode: 0,
            })
        }
    }

    /// Whether the file was last changed long enough before `start` to be kept.
    fn settled(&self, start: SystemTime) -> bool {
        let Ok(start) = start.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let before = (start.saturating_sub(SETTLED)).as_nanos() as i128;
        self.modified < before && self.changed < before
    }

    fn parse(text: &str) -> Option<Stat> {
        let mut parts = text.split(' ');
        let mut next = || parts.next();
        Some(Stat {
            len: next()?.parse().ok()?,
            modified: next()?.parse().ok()?,
            changed: next()?.parse().ok()?,
            inode: next()?.parse().ok()?,
        })
    }
}

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
        let project = std::fs::canonicalize(&settings.project)
            .unwrap_or_else(|_| settings.project.clone());
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
        let mut index = Places::with_capacity(text.len() / 128);
        let mut at = header.len();
        for line in text[at..].split_inclusive('\n') {
            let key = line.split('\t').next().unwrap_or_default();
            index.insert(key, at);
            at += line.len();
        }
        Cache { text, index }
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
        "{} {:?} {routes:?} {:?} {:?} {:?} {:?} {prepared_routes:?} {:?} {:?} {}",
        env!("CARGO_PKG_VERSION"),
        settings.generator.map(|g| g.name),
        settings.content,
        settings.updated,
        settings.permalink,
        settings.default_language,
        prepared.served,
        prepared.default_language,
        prepared.default_in_subdir,
    );
    blake3::hash(all.as_bytes()).to_hex()[..32].to_string()
}

impl Cache {
    /// What reading the source at `key` found, if the cache has it at this `stat`, and
    /// its line (to be kept again as it is).
    pub(super) fn get(&self, key: &str, stat: Stat) -> Option<(Read, &str)> {
        // Two paths of one hash are read again (their lines are not sorted to search).
        let Place::At(at) = self.index.get(key)? else {
            return None;
        };
        let line = self.line(at);
        if line.split('\t').next() != Some(key) {
            return None;
        }
        Some((parse_line(line, stat)?, line))
    }

    /// Whether the cache has no source: there is nothing to look up.
    pub(super) fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    fn line(&self, at: usize) -> &str {
        let rest = &self.text[at..];
        rest.split('\n').next().unwrap_or_default()
    }
}

/// The [`Read`] a line holds, if its stat is `stat`.
fn parse_line(line: &str, stat: Stat) -> Option<Read> {
    let mut fields = line.split('\t').skip(1);
    if Stat::parse(fields.next()?)? != stat {
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
        outputs: fields.map(str::to_string).collect(),
    })
}

/// The line of a source (without its line break), none if one of its fields would break the format.
fn line_of(key: &str, stat: Stat, read: &Read) -> Option<String> {
    let plain = |s: &str| !s.contains(['\t', '\n', '\r']);
    let texts = [key].into_iter().chain(read.unparseable.as_deref());
    let texts = texts.chain(read.refused.as_deref());
    if !texts.chain(read.outputs.iter().map(String::as_str)).all(plain) {
        return None;
    }
    let optional = |v: &Option<String>| v.as_ref().map_or(String::new(), |v| format!("={v}"));
    let mut line = format!(
        "{key}\t{} {} {} {}\t{}\t{}\t{}\t{}",
        stat.len,
        stat.modified,
        stat.changed,
        stat.inode,
        if read.draft { "d" } else { "" },
        read.updated.map_or(String::new(), |t| t.as_nanosecond().to_string()),
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
    out: Mutex<Option<io::BufWriter<tempfile::NamedTempFile>>>,
    start: SystemTime,
    _held: fsutil::DirLock,
}

impl Writer {
    /// Starts the cache at `store`, first removing what a killed run left of its own.
    pub(super) fn start(store: &Store) -> io::Result<Writer> {
        let dir = fsutil::parent_dir(&store.path);
        let held = fsutil::lock_dir(dir)?;
        let prefix = temp_prefix(store);
        fsutil::sweep_temporaries(dir, &prefix);
        let mut out = io::BufWriter::new(fsutil::temp_file(dir, &prefix)?);
        writeln!(out, "{MAGIC} {}", store.fingerprint)?;
        Ok(Writer {
            out: Mutex::new(Some(out)),
            start: SystemTime::now(),
            _held: held,
        })
    }

    /// The line that keeps what reading the source at `key` found, added to `lines`, if
    /// its times have settled.
    pub(super) fn keep(&self, lines: &mut String, key: &str, stat: Stat, read: &Read) {
        if stat.settled(self.start)
            && let Some(line) = line_of(key, stat, read)
        {
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
        temp.as_file().sync_all()?;
        fsutil::rename_into_place(temp.into_temp_path(), &store.path, true)
    }
}

/// The prefix of the cache's temporary files (`.sitemapgen-sources-....XXXXXX.tmp`).
fn temp_prefix(store: &Store) -> String {
    let name = store.path.file_name().unwrap_or_default();
    format!(".{}.", name.to_string_lossy())
}

#[cfg(test)]
mod tests;
