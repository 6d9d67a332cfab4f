//! The walk of the content directories: each source file found (on every core, through
//! no link), its front matter read, and the output paths it is built to worked out by the
//! first route given that matches it, else by its generator's routing.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Git;
use super::SourceSettings;
use super::cache::{self, Cache};
use super::front_matter::{self, FrontMatter};
use crate::fsutil::dir::{Dir, Opener};

use crate::generators::Context;

/// Directories of a project that hold no sources, whatever the generator.
pub const NOT_SOURCES: [&str; 8] = [
    "node_modules",
    "_site",
    "vendor",
    "public",
    "dist",
    "build",
    "_build",
    "site",
];

/// The most source files read: far past any site, and a bound on a run's memory.
pub(super) const MAX_SOURCES: usize = 2_000_000;

/// One source file read and routed (not a draft): what dating it takes, and no more (a
/// run holds one for every source until the history is read).
pub(super) struct Found<'a> {
    /// The content directory, relative to the project.
    pub(super) dir: &'a Path,
    /// Its path below it.
    pub(super) rel: PathBuf,
    /// Its path in the project (`/`-separated).
    pub(super) key: String,
    /// What reading it found: its output files, its explicit modified date, its updated
    /// key's value when that is no date, and why its front matter was refused (it then
    /// dates no page).
    pub(super) read: cache::Read,
    /// The file git has committed as it is, if it has.
    pub(super) git: Option<&'a crate::lastmod::git::File>,
    /// The file beside it that holds its metadata (Nikola's `.meta`), as git has it
    /// committed: the page is rebuilt when either changes, so the later commit dates it.
    pub(super) sidecar_git: Option<&'a crate::lastmod::git::File>,
}

/// The sources the last run read ([`cache`]), the cache this run writes, if any, and
/// the files git has (set once `ls-tree` and `status` have run), by whose blob ids the
/// cache is looked up.
pub(super) struct Memo<'c, 'g> {
    pub(super) cache: &'c Cache,
    pub(super) writer: Option<&'c cache::Writer>,
    pub(super) git: &'g Git,
}

/// The source files under the content directories, their front matter read and each
/// routed on every core, handed to `found` as they are read (`ignore`'s parallel walker). Hidden files, what `.gitignore` ignores, drafts,
/// the public directory and [`NOT_SOURCES`] are passed over; links are not followed. The
/// order found varies; nothing that follows depends on it.
pub(super) fn walk<'a>(
    settings: &SourceSettings,
    cx: &Context,
    dirs: &[&'a PathBuf],
    memo: &Memo<'_, 'a>,
    found: &(dyn Fn(&mut Vec<Found<'a>>) + Sync),
) {
    let public = std::fs::canonicalize(&settings.public_dir).ok();
    let count = std::sync::atomic::AtomicUsize::new(0);
    for dir in dirs {
        let root = settings.project.join(dir);
        // Sources are opened in it one name at a time, through no link (as the walk of
        // the site opens pages), so a source swapped for a link is not read.
        let Ok(held) = Dir::open_root(&root) else {
            continue;
        };
        let public = public.clone();
        let walker = ignore::WalkBuilder::new(&root)
            .follow_links(false)
            .require_git(false)
            .threads(settings.threads)
            .filter_entry(move |e| {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if !is_dir {
                    return true;
                }
                let name = e.file_name().to_string_lossy();
                let not_sources = e.depth() > 0 && NOT_SOURCES.contains(&name.as_ref());
                let public = public.as_deref().is_some_and(|p| e.path() == p);
                !not_sources && !public
            })
            .build_parallel();
        walker.run(|| {
            let (root, count) = (&root, &count);
            let mut opener = Opener::new(&held);
            let mut batch = Batch {
                found: Vec::new(),
                lines: String::new(),
                memo,
                sink: found,
            };
            Box::new(move |entry| {
                use std::sync::atomic::Ordering;
                let Ok(entry) = entry else {
                    return ignore::WalkState::Continue;
                };
                if count.load(Ordering::Relaxed) >= MAX_SOURCES {
                    return ignore::WalkState::Quit;
                }
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    return ignore::WalkState::Continue;
                }
                let (opened, batch) = ((root.as_path(), &mut opener), &mut batch);
                if let Some(source) = read_source((settings, cx), dir, opened, &entry, batch) {
                    count.fetch_add(1, Ordering::Relaxed);
                    batch.push(source);
                }
                ignore::WalkState::Continue
            })
        });
    }
}

/// The source `entry`, a file under the content directory `dir` (at `root`, held open),
/// read and routed, or as the last run read it where git has it unchanged; none for
/// what is no source file, or a draft.
fn read_source<'a>(
    (settings, cx): (&SourceSettings, &Context),
    dir: &'a Path,
    (root, opener): (&Path, &mut Opener),
    entry: &ignore::DirEntry,
    batch: &mut Batch<'a, '_>,
) -> Option<Found<'a>> {
    let memo = batch.memo;
    let rel = entry.path().strip_prefix(root).ok()?;
    let key = project_key(&dir.join(rel));
    if !is_source(settings, || key.clone(), rel) {
        return None;
    }
    let git = memo.git.clean(dir, rel);
    // Metadata in a file beside it (Nikola's `.meta`): read from there, and never from
    // the cache, which knows the source's own text only.
    let sidecar_rel =
        (settings.generator.and_then(|g| g.sidecar)).map(|ext| rel.with_extension(ext));
    let sidecar = (sidecar_rel.as_deref())
        .map(|path| head_text(opener, path))
        .filter(|text| !text.is_empty());
    let sidecar_git = (sidecar_rel.as_deref())
        .filter(|_| sidecar.is_some())
        .and_then(|path| memo.git.clean(dir, path));
    let oid = git
        .map(crate::lastmod::git::File::oid)
        .filter(|_| sidecar.is_none());
    let kept = oid.and_then(|oid| memo.cache.get(&key, oid));
    let read = match kept {
        Some((read, line)) => {
            batch.lines.push_str(line);
            batch.lines.push('\n');
            read
        }
        None => {
            let text = sidecar.unwrap_or_else(|| head_text(opener, rel));
            let read = read_text(settings, cx, (dir, rel, &key), &text);
            if let (Some(w), Some(oid)) = (memo.writer, oid) {
                w.keep(&mut batch.lines, &key, oid, &read);
            }
            read
        }
    };
    (!read.draft).then(|| Found {
        dir,
        rel: rel.to_path_buf(),
        key,
        read,
        git,
        sidecar_git,
    })
}

/// What the text of the source at `rel` in `dir` (at `key` in the project) says: its
/// front matter and the output paths it is built to.
fn read_text(
    settings: &SourceSettings,
    cx: &Context,
    (dir, rel, key): (&Path, &Path, &str),
    text: &str,
) -> cache::Read {
    let mut fm = front_matter::parse(text, &settings.updated);
    if let Some(generator) = settings.generator {
        (generator.page_meta)(text, &mut fm);
    }
    if fm.draft {
        return cache::Read {
            draft: true,
            ..cache::Read::default()
        };
    }
    let outputs = match fm.refused {
        None => outputs(settings, cx, (dir, rel, &fm), key),
        Some(_) => Vec::new(),
    };
    cache::Read {
        draft: false,
        updated: fm.updated,
        unparseable: fm.unparseable,
        refused: fm.refused,
        outputs,
    }
}

/// What one walking thread found and has not handed on yet: sources and cache lines go
/// on in batches, so the threads seldom wait for each other's locks.
struct Batch<'a, 'm> {
    found: Vec<Found<'a>>,
    lines: String,
    memo: &'m Memo<'m, 'a>,
    sink: &'m (dyn Fn(&mut Vec<Found<'a>>) + Sync),
}

impl<'a> Batch<'a, '_> {
    /// Sources handed on at once.
    const SOURCES: usize = 256;
    /// Bytes of cache lines written at once.
    const LINES: usize = 64 * 1024;

    fn push(&mut self, source: Found<'a>) {
        self.found.push(source);
        if self.found.len() >= Self::SOURCES {
            (self.sink)(&mut self.found);
        }
        if self.lines.len() >= Self::LINES {
            self.flush_lines();
        }
    }

    fn flush_lines(&mut self) {
        match self.memo.writer {
            Some(w) => w.write(&mut self.lines),
            None => self.lines.clear(),
        }
    }
}

impl Drop for Batch<'_, '_> {
    fn drop(&mut self) {
        if !self.found.is_empty() {
            (self.sink)(&mut self.found);
        }
        self.flush_lines();
    }
}

/// A path in the project as sources are keyed: `/`-separated, with no leading `./`.
pub(super) fn project_key(in_project: &Path) -> String {
    let key = crate::slash::joined(in_project);
    let key = String::from_utf8_lossy(&key);
    key.trim_start_matches("./").to_string()
}

/// Whether [`walk`] can find the file at `rel` below a content directory: not hidden,
/// nor under a hidden directory or one of [`NOT_SOURCES`] (its history is not wanted).
pub(super) fn may_be_walked(rel: &Path) -> bool {
    let mut names = rel.iter().rev();
    let file = names.next();
    let hidden = |name: &std::ffi::OsStr| name.as_encoded_bytes().starts_with(b".");
    !file.is_some_and(hidden)
        && names.all(|dir| !hidden(dir) && !NOT_SOURCES.iter().any(|n| dir == *n))
}

/// Whether the file at `path` (at `key()` in the project, see [`project_key`], made only
/// where a route is given) is a page source: one a route given matches, or one with an
/// extension of the generator's sources.
pub(super) fn is_source(
    settings: &SourceSettings,
    key: impl FnOnce() -> String,
    path: &Path,
) -> bool {
    if !settings.routes.is_empty() {
        let key = key();
        if settings.routes.iter().any(|r| r.matches(&key)) {
            return true;
        }
    }
    // With no generator and no routes, the markup files of the content folders, whose
    // pages are found by their text.
    let extensions = match (settings.generator, settings.routes.is_empty()) {
        (Some(generator), _) => generator.extensions,
        (None, true) => crate::generators::route::MARKUP,
        (None, false) => return false,
    };
    let ext = path.extension().map(|e| e.to_string_lossy());
    ext.is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(&e)))
}

/// The start of the source at `rel`, as text (lossy), at most the front-matter limit;
/// empty when it is no longer a regular file.
fn head_text(opener: &mut Opener, rel: &Path) -> String {
    let mut bytes = Vec::new();
    if let Ok(mut file) = opener.open(rel)
        && let Ok(meta) = file.metadata()
        && meta.is_file()
    {
        // Sized by the file, so one read takes it: `read_to_end` probes for the end.
        let want = meta.len().min(front_matter::FRONT_MATTER_LIMIT as u64) as usize;
        bytes.resize(want, 0);
        let mut got = 0;
        while got < want {
            match file.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        bytes.truncate(got);
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The output files the source at `rel` in `dir` (at `key` in the project), its front
/// matter `fm`, is built to: by the first route given that matches it, else by its
/// generator's routing.
fn outputs(
    settings: &SourceSettings,
    cx: &Context,
    (dir, rel, fm): (&Path, &Path, &FrontMatter),
    key: &str,
) -> Vec<String> {
    if let Some(found) = settings.routes.iter().find_map(|r| r.outputs(key, fm)) {
        return found;
    }
    let Some(generator) = settings.generator else {
        return Vec::new();
    };
    let dir = dir.to_string_lossy();
    let route = crate::generators::Source { dir: &dir, rel, fm };
    (generator.route)(cx, route)
}
