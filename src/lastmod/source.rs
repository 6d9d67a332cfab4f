//! `lastmod` from each page's source: the file the generator built the page from, dated
//! by its explicit "updated" front-matter key, else by the committer date of the last
//! commit that touched it. A layout or template commit dates no page, since only source
//! files are looked at. A directory's index page that has no source of its own (the
//! home page, a tag's or a pagination page) is given the newest date of the pages below
//! it, as it lists them; the others have no source date.
//!
//! Beside the walk of the site, the content directories are walked once on every core,
//! each source's front matter read (at most [`front_matter::FRONT_MATTER_LIMIT`] bytes)
//! and its output paths worked out by the generator's routing (`crate::generators`),
//! while its history is read by one `git log` per content directory in the project's
//! repository, left as soon as every source has its date ([`super::git`]). A page is
//! then looked up by its path. Where
//! no source maps to a page with confidence (none, or two), it falls through to the
//! next source in `lastmod`.

pub mod front_matter;
mod newest;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::git::{self, GitUnavailable};
use crate::fsutil::dir::Dir;
use crate::generators::{Context, Generator, Pattern, Prepared};
use front_matter::FrontMatter;

/// Directories of a project that hold no sources, whatever the generator.
const NOT_SOURCES: [&str; 8] = [
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
const MAX_SOURCES: usize = 2_000_000;

/// `[source]`: how pages map to their sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSettings {
    /// The generator, whose routing maps sources to pages; none for one sitemapgen does
    /// not know, described by `routes` alone.
    pub generator: Option<&'static Generator>,
    /// Routes given in `[[source.route]]`: a source one matches is routed by the first.
    pub routes: Vec<Pattern>,
    /// The project directory (the config file's).
    pub project: PathBuf,
    /// Content directories, relative to the project.
    pub content: Vec<PathBuf>,
    /// Front-matter keys of an explicit modified date, first present wins.
    pub updated: Vec<String>,
    /// The generator's `permalink` pattern for posts (Jekyll, Hexo).
    pub permalink: Option<String>,
    /// The language whose pages are at the root of a multilingual site.
    pub default_language: Option<String>,
    /// The public directory, which is never read as sources.
    pub public_dir: PathBuf,
    /// Threads that read the sources (at least 1).
    pub threads: usize,
}

/// Why source dates cannot be used this run; the next `lastmod` source is used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceUnavailable {
    /// None of the content directories exists.
    #[error("lastmod source \"source\": no content directory found ({}); set [source] content to where the pages' sources are", .dirs.join(", "))]
    NoContent {
        /// The directories looked for.
        dirs: Vec<String>,
    },
    /// git could not be read (the explicit front-matter dates still count).
    #[error("lastmod source \"source\": {}; only front-matter dates count", history(.0))]
    Git(GitUnavailable),
}

/// Why the sources' history could not be read, in the words of `"source"`.
fn history(why: &GitUnavailable) -> String {
    match why {
        GitUnavailable::NoGit => "the sources' history needs git, which is not on PATH".into(),
        GitUnavailable::NotAWorkTree { dir, .. } => format!(
            "{} is not in a git work tree (build from a clone of the project)",
            dir.display()
        ),
        GitUnavailable::Failed { command, message } => format!("`git {command}` failed: {message}"),
        GitUnavailable::Nested { dir, repo } => format!(
            "{} is in a git repository of its own ({}), not the project's, and git runs only in the project's",
            dir.display(),
            repo.display()
        ),
    }
}

/// How a page's source date was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// The source's explicit "updated" key.
    Key,
    /// The last commit that touched the source.
    Commit,
    /// The newest date of the pages below a directory's index page.
    Below,
}

/// Why a page has no source date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No source maps to it (and no dated page is below it).
    NoSource,
    /// Its source has no explicit date and no clean, committed history.
    Uncommitted(PathBuf),
    /// Two sources map to it.
    Ambiguous,
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Miss::NoSource => f.write_str("no source file maps to it"),
            Miss::Uncommitted(source) => write!(
                f,
                "its source {} has no updated key and no clean committed history",
                source.display()
            ),
            Miss::Ambiguous => f.write_str("two source files map to it"),
        }
    }
}

/// What one output path is dated by.
#[derive(Debug, Clone)]
enum Mapped {
    Dated(Timestamp, How),
    Undated(PathBuf),
    Ambiguous,
}

/// The source dates of the pages of a site.
#[derive(Debug, Default)]
pub struct SourceDates {
    /// By output path (`/`-separated, under the public directory).
    pages: HashMap<String, Mapped>,
    /// The newest date of the dated pages below each directory.
    below: newest::Newest,
    /// The dated sources by their path in the project (`/`-separated), for pages that
    /// name their source (see [`SourceDates::get_by_link`]).
    by_source: HashMap<String, (Timestamp, How)>,
    /// The most segments of a path in `by_source`.
    deepest: usize,
    /// The generator builds a page a language lacks from the default language's source.
    fills_translations: bool,
    /// The clone is shallow: sources last touched before its boundary fall through.
    pub shallow: bool,
    /// Sources whose explicit date does not parse, with the value.
    pub unparseable: Vec<(PathBuf, String)>,
    /// Sources whose front matter breaks a bound, with why; they date no page.
    pub refused: Vec<(PathBuf, String)>,
    /// git could not be read: only explicit dates count.
    pub git_error: Option<GitUnavailable>,
}

impl SourceDates {
    /// The source date of the page at `rel` (relative to the public directory).
    pub fn get(&self, rel: &Path) -> Result<(Timestamp, How), Miss> {
        let key = crate::slash::joined(rel);
        let key = String::from_utf8_lossy(&key);
        let own = self
            .pages
            .get(key.as_ref())
            .or_else(|| self.filled_translation(&key));
        // A page its own source dates needs no look below it.
        if let Some(Mapped::Dated(ts, how)) = own {
            return Ok((*ts, *how));
        }
        let is_index = rel
            .file_name()
            .is_some_and(|n| crate::urls::is_directory_index(n.as_encoded_bytes()));
        let below = is_index
            .then(|| key.rsplit_once('/').map_or("", |(dir, _)| dir))
            .and_then(|dir| self.below.below(dir));
        match (own, below) {
            (Some(Mapped::Dated(ts, how)), _) => Ok((*ts, *how)),
            (_, Some(b)) => Ok((b, How::Below)),
            (Some(Mapped::Undated(source)), None) => Err(Miss::Uncommitted(source.clone())),
            (Some(Mapped::Ambiguous), None) => Err(Miss::Ambiguous),
            (None, None) => Err(Miss::NoSource),
        }
    }
}

impl SourceDates {
    /// The default language's page, for a page under a language folder (`fr/x/`) that
    /// no source of its own maps to, where the generator fills translations so.
    fn filled_translation(&self, key: &str) -> Option<&Mapped> {
        let (lang, rest) = key.split_once('/')?;
        let code = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_lowercase());
        let is_language = match lang.split_once('-') {
            Some((l, region)) => code(l) && (2..=4).contains(&region.len()),
            None => code(lang),
        };
        (self.fills_translations && is_language)
            .then(|| self.pages.get(rest))
            .flatten()
    }
}

/// Where built pages name their source: an "edit this page" link into the repository
/// (GitHub's `.../edit/main/docs/intro.md`, GitLab's `.../-/edit/...`), or Sphinx's
/// `_sources/x.rst.txt`. (Not `/blob/`: posts link to other repositories' files so.)
pub const SOURCE_LINK_MARKERS: [&str; 2] = ["/edit/", "_sources/"];

impl SourceDates {
    /// The date of the source a page's link names (one of [`SOURCE_LINK_MARKERS`]): the
    /// path after the branch of an edit link, matched against the sources by its last
    /// segments (the project may be a folder of the repository); a Sphinx source link,
    /// by its path below `_sources/`.
    pub fn get_by_link(&self, href: &str) -> Option<(Timestamp, How)> {
        let href = href.split(['?', '#']).next().unwrap_or_default();
        let path = if let Some((_, rest)) = href.split_once("_sources/") {
            rest.strip_suffix(".txt").unwrap_or(rest).to_string()
        } else {
            let rest = href.split_once("/edit/")?.1;
            let (_branch, path) = rest.split_once('/')?;
            path.to_string()
        };
        let path = percent_encoding::percent_decode_str(&path).decode_utf8_lossy();
        // Only the last segments, as many as the deepest source has, can name one.
        let mut tail: &str = &path;
        for _ in self.deepest..path.split('/').count() {
            tail = tail.split_once('/')?.1;
        }
        loop {
            if let Some(found) = self.by_source.get(tail) {
                return Some(*found);
            }
            tail = tail.split_once('/')?.1;
        }
    }
}

/// One source file read and routed.
struct Found {
    /// The content directory, relative to the project.
    dir: PathBuf,
    /// Its path below it.
    rel: PathBuf,
    fm: FrontMatter,
    /// Its path in the project (`/`-separated).
    key: String,
    /// The output files it is built to.
    outputs: Vec<String>,
}

/// A project's sources, ready to be read: the routes it declares and the content
/// directories there are, found before the walk (a few small files), so that a run whose
/// sources are missing says so at once and the reading itself goes beside the walk.
#[derive(Debug)]
pub struct Sources {
    /// The settings, the project's own routes after the user's.
    settings: SourceSettings,
    prepared: Prepared,
    /// The content directories that exist, relative to the project.
    dirs: Vec<PathBuf>,
}

/// Finds the sources of the project: an error when none of its content directories
/// exists.
pub fn find(settings: &SourceSettings) -> Result<Sources, SourceUnavailable> {
    // The routes the project declares in its own files come after the user's.
    let prepared = settings
        .generator
        .map(|g| (g.prepare)(&settings.project))
        .unwrap_or_default();
    let settings = SourceSettings {
        routes: settings
            .routes
            .iter()
            .chain(&prepared.routes)
            .cloned()
            .collect(),
        ..settings.clone()
    };
    let dirs: Vec<PathBuf> = (settings.content.iter())
        .filter(|d| settings.project.join(d).is_dir())
        .cloned()
        .collect();
    if dirs.is_empty() {
        let dirs = settings
            .content
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        return Err(SourceUnavailable::NoContent { dirs });
    }
    Ok(Sources {
        settings,
        prepared,
        dirs,
    })
}

impl Sources {
    /// Reads the sources and dates the pages they build, by their history in the
    /// project's `repository` (as found, or why not): the history is read by git while
    /// the sources are walked, read and routed on every core.
    pub fn read(&self, repository: Result<git::Repository, GitUnavailable>) -> SourceDates {
        let (settings, prepared) = (&self.settings, &self.prepared);
        let dirs: Vec<&PathBuf> = self.dirs.iter().collect();
        let cx = Context {
            permalink: settings.permalink.as_deref(),
            default_language: (settings.default_language.as_ref())
                .or(prepared.default_language.as_ref())
                .map(String::as_str),
            served: &prepared.served,
            default_in_subdir: prepared.default_in_subdir,
        };
        let (history, found) = std::thread::scope(|s| {
            let history = s.spawn(|| commit_dates(settings, &dirs, repository));
            let found = walk(settings, &cx, &dirs);
            (history.join().expect("the git thread panicked"), found)
        });
        let mut dates = SourceDates {
            fills_translations: settings.generator.is_some_and(|g| g.fills_translations),
            shallow: history.shallow,
            git_error: history.error,
            ..SourceDates::default()
        };
        for source in found {
            date(&mut dates, &history.dates, source);
        }
        dates.below = newest_below(&dates.pages);
        dates
    }
}

/// Finds and reads the sources of the project at once (see [`find`], [`Sources::read`]).
pub fn read(
    settings: &SourceSettings,
    repository: Result<git::Repository, GitUnavailable>,
) -> Result<SourceDates, SourceUnavailable> {
    Ok(find(settings)?.read(repository))
}

/// Files one source's date under each output path it is built to: its explicit key's,
/// else its last commit's from `history`.
fn date(dates: &mut SourceDates, history: &HashMap<PathBuf, git::GitDates>, source: Found) {
    let in_project = || source.dir.join(&source.rel);
    if let Some(value) = &source.fm.unparseable {
        dates.unparseable.push((in_project(), value.clone()));
    }
    if let Some(why) = &source.fm.refused {
        dates.refused.push((in_project(), why.clone()));
        return;
    }
    let when = source.fm.updated.map(|ts| (ts, How::Key)).or_else(|| {
        let committed = history.get(&source.dir)?.get(&source.rel)?;
        Some((committed, How::Commit))
    });
    let mapped = match when {
        Some((ts, how)) => Mapped::Dated(ts, how),
        None => Mapped::Undated(in_project()),
    };
    for output in source.outputs {
        dates
            .pages
            .entry(output)
            .and_modify(|m| *m = Mapped::Ambiguous)
            .or_insert_with(|| mapped.clone());
    }
    if let Some(when) = when {
        dates.deepest = dates.deepest.max(source.key.split('/').count());
        dates.by_source.insert(source.key, when);
    }
}

/// The sources' history: each content directory's, and what stopped git.
#[derive(Default)]
struct History {
    dates: HashMap<PathBuf, git::GitDates>,
    shallow: bool,
    error: Option<GitUnavailable>,
}

/// The history of each content directory in the project's `repository`, of the files
/// that can be sources.
fn commit_dates(
    settings: &SourceSettings,
    dirs: &[&PathBuf],
    repository: Result<git::Repository, GitUnavailable>,
) -> History {
    let mut history = History::default();
    let repository = match repository {
        Ok(repository) => repository,
        Err(e) => {
            history.error = Some(e);
            return history;
        }
    };
    for dir in dirs {
        let sources = |rel: &Path| may_be_walked(rel) && is_source(settings, &dir.join(rel), rel);
        match repository.dates(&settings.project.join(dir), &sources) {
            Ok(found) => {
                history.shallow |= found.shallow;
                history.dates.insert((*dir).clone(), found);
            }
            Err(e) => history.error = Some(e),
        }
    }
    history
}

/// The output files `source` (at `key` in the project) is built to: by the first route
/// given that matches it, else by its generator's routing.
fn outputs(settings: &SourceSettings, cx: &Context, source: &Found, key: &str) -> Vec<String> {
    if let Some(found) = settings
        .routes
        .iter()
        .find_map(|r| r.outputs(key, &source.fm))
    {
        return found;
    }
    let Some(generator) = settings.generator else {
        return Vec::new();
    };
    let dir = source.dir.to_string_lossy();
    let route = crate::generators::Source {
        dir: &dir,
        rel: &source.rel,
        fm: &source.fm,
    };
    (generator.route)(cx, route)
}

/// The dated pages, for the newest date below each directory.
fn newest_below(pages: &HashMap<String, Mapped>) -> newest::Newest {
    let dated = pages.iter().filter_map(|(path, mapped)| match mapped {
        Mapped::Dated(ts, _) => Some((path.clone(), *ts)),
        _ => None,
    });
    newest::Newest::new(dated.collect())
}

/// The source files under the content directories, their front matter read and each
/// routed on every core (`ignore`'s parallel walker). Hidden files, what `.gitignore` ignores, drafts,
/// the public directory and [`NOT_SOURCES`] are passed over; links are not followed. The
/// order found varies; nothing that follows depends on it.
fn walk(settings: &SourceSettings, cx: &Context, dirs: &[&PathBuf]) -> Vec<Found> {
    let public = std::fs::canonicalize(&settings.public_dir).ok();
    let found = std::sync::Mutex::new(Vec::new());
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
            let (root, found, count) = (&root, &found, &count);
            let mut opener = Opener {
                held: &held,
                last: None,
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
                let read = read_source(settings, dir, (root, &mut opener), entry.path());
                if let Some(source) = read.map(|source| routed(settings, cx, source)) {
                    count.fetch_add(1, Ordering::Relaxed);
                    found.lock().expect("a walker thread panicked").push(source);
                }
                ignore::WalkState::Continue
            })
        });
    }
    found.into_inner().expect("a walker thread panicked")
}

/// The source at `path`, a file under the content directory `dir` (at `root`, held
/// open), its front matter read; none for what is no source file, or a draft.
fn read_source(
    settings: &SourceSettings,
    dir: &Path,
    (root, opener): (&Path, &mut Opener),
    path: &Path,
) -> Option<Found> {
    let rel = path.strip_prefix(root).ok()?;
    if !is_source(settings, &dir.join(rel), path) {
        return None;
    }
    let text = head_text(opener, rel);
    let mut fm = front_matter::parse(&text, &settings.updated);
    if let Some(generator) = settings.generator {
        (generator.page_meta)(&text, &mut fm);
    }
    (!fm.draft).then(|| Found {
        dir: dir.to_path_buf(),
        rel: rel.to_path_buf(),
        fm,
        key: String::new(),
        outputs: Vec::new(),
    })
}

/// `source` with its path in the project and the output files it is built to (none for
/// one whose front matter was refused: it dates no page).
fn routed(settings: &SourceSettings, cx: &Context, mut source: Found) -> Found {
    let in_project = source.dir.join(&source.rel);
    let key = crate::slash::joined(&in_project);
    source.key = String::from_utf8_lossy(&key)
        .trim_start_matches("./")
        .to_string();
    if source.fm.refused.is_none() {
        source.outputs = outputs(settings, cx, &source, &source.key);
    }
    source
}

/// Whether [`walk`] can find the file at `rel` below a content directory: not hidden,
/// nor under a hidden directory or one of [`NOT_SOURCES`] (its history is not wanted).
fn may_be_walked(rel: &Path) -> bool {
    let mut names = rel.iter().rev();
    let file = names.next();
    let hidden = |name: &std::ffi::OsStr| name.as_encoded_bytes().starts_with(b".");
    !file.is_some_and(hidden)
        && names.all(|dir| !hidden(dir) && !NOT_SOURCES.iter().any(|n| dir == *n))
}

/// Whether the file at `path` (`in_project`, relative to the project) is a page source:
/// one a route given matches, or one with an extension of the generator's sources.
fn is_source(settings: &SourceSettings, in_project: &Path, path: &Path) -> bool {
    let key = crate::slash::joined(in_project);
    let key = String::from_utf8_lossy(&key);
    let key = key.trim_start_matches("./");
    if settings.routes.iter().any(|r| r.matches(key)) {
        return true;
    }
    let Some(generator) = settings.generator else {
        return false;
    };
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    ext.is_some_and(|e| {
        generator
            .extensions
            .iter()
            .any(|x| x.eq_ignore_ascii_case(&e))
    })
}

/// Opens sources below a held content directory, one name at a time through no link,
/// holding the directory of the last one: a walking thread meets a directory's files
/// together, so most sources cost one open.
struct Opener<'d> {
    held: &'d Dir,
    last: Option<(PathBuf, Dir)>,
}

impl Opener<'_> {
    fn open(&mut self, rel: &Path) -> std::io::Result<std::fs::File> {
        let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
            return self.held.open_file_below(rel);
        };
        if self.last.as_ref().is_none_or(|(dir, _)| dir != parent) {
            self.last = Some((parent.to_path_buf(), self.held.open_dir_below(parent)?));
        }
        let (_, dir) = self.last.as_ref().expect("set above");
        dir.open_file_below(Path::new(name))
    }
}

/// The start of the source at `rel`, as text (lossy), at most the front-matter limit;
/// empty when it is no longer a regular file.
fn head_text(opener: &mut Opener, rel: &Path) -> String {
    let mut bytes = Vec::new();
    if let Ok(file) = opener.open(rel)
        && file.metadata().is_ok_and(|m| m.is_file())
    {
        let _ = file
            .take(front_matter::FRONT_MATTER_LIMIT as u64)
            .read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests;
