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
//! unless git has it committed as the last run read it (`source/cache.rs`). Meanwhile git lists
//! the files and reads their history, one `git log` per content directory in the
//! project's repository, left as soon as every source has its date ([`super::git`]);
//! each source is dated once the walk and the log are done (`source/history.rs` is the git
//! side, `source/dating.rs` the filing and dating). A page is then looked up by
//! its path. Where no source maps to a page with confidence (none, or two), it falls
//! through to the next source in `lastmod`.

mod cache;
mod dating;
pub mod front_matter;
mod history;
pub mod matching;
mod newest;
mod table;
mod walk;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jiff::Timestamp;

use super::git::{self, GitUnavailable};
use crate::generators::{Context, Generator, Pattern, Prepared};
use dating::Dating;
use history::{Git, GitDone, read_history};
use table::Table;
pub use walk::NOT_SOURCES;
use walk::{Memo, walk};

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
    /// Where the run's public directory is in the generator's output, `/`-terminated
    /// (`docs/`), when the run maps a folder of it (a shard, a part); empty when it maps
    /// the whole output. The sources route to paths in the whole output.
    pub within: String,
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
            crate::text::path(dir)
        ),
        GitUnavailable::Failed { command, message } => format!("`git {command}` failed: {message}"),
        GitUnavailable::Nested { dir, repo } => format!(
            "{} is in a git repository of its own ({}), not the project's, and git runs only in the project's",
            crate::text::path(dir),
            crate::text::path(repo)
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
    /// No route reaches it, and no source's text was found on it with confidence.
    Unmatched(Box<matching::ByText>),
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Miss::NoSource => f.write_str("no source file maps to it"),
            Miss::Uncommitted(source) => write!(
                f,
                "its source {} has no updated key and no clean committed history",
                crate::text::path(source)
            ),
            Miss::Ambiguous => f.write_str("two source files map to it"),
            Miss::Unmatched(why) => write!(f, "no source file maps to it, and {why}"),
        }
    }
}

/// What one output path (or source) is dated by: 16 bytes, one for each source.
#[derive(Debug, Clone, Copy)]
enum Mapped {
    /// Its date as its second and nanosecond: a `Timestamp` beside the tag would take
    /// 24 bytes.
    Dated {
        second: i64,
        nanosecond: i32,
        how: How,
    },
    /// Not dated by its source, at this place in [`SourceDates::undated`].
    Undated(u32),
    Ambiguous,
    /// By the last commit of the source at this place in [`Dating::committed`], once the
    /// history is read.
    Committed(u32),
}

// One for each source and output path: kept small.
const _: () = assert!(size_of::<Mapped>() == 16);

impl Mapped {
    fn dated(ts: Timestamp, how: How) -> Mapped {
        let (second, nanosecond) = (ts.as_second(), ts.subsec_nanosecond());
        Mapped::Dated {
            second,
            nanosecond,
            how,
        }
    }

    /// Its date and how it was found, if dated.
    fn dated_by(&self) -> Option<(Timestamp, How)> {
        match *self {
            Mapped::Dated {
                second,
                nanosecond,
                how,
            } => Some((Timestamp::new(second, nanosecond).ok()?, how)),
            _ => None,
        }
    }

    fn date(&self) -> Option<Timestamp> {
        self.dated_by().map(|(ts, _)| ts)
    }

    /// What a path two sources are built to is dated by.
    fn twice(&mut self) {
        *self = Mapped::Ambiguous;
    }
}

/// The source dates of the pages of a site.
#[derive(Debug, Default)]
pub struct SourceDates {
    /// By output path (`/`-separated, under the public directory), with the newest date
    /// of the dated pages below each directory.
    pages: newest::ByPath<Mapped>,
    /// The sources by their path in the project (`/`-separated), for pages that name
    /// their source (see [`SourceDates::get_by_link`]) and pages matched by their text
    /// ([`matching`]).
    by_source: Table<Mapped>,
    /// Each output path a source is built to, and that source's place in `by_source`.
    owners: table::Rows<u32>,
    /// The sources that date no page, with no explicit date and no clean committed
    /// history ([`Mapped::Undated`]).
    undated: Vec<PathBuf>,
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
    /// The sources' cache could not be written: the file, and why.
    pub cache_error: Option<(PathBuf, std::io::Error)>,
    /// Each source's blob id, by its place in `by_source` (all zeros when git has it
    /// changed or not at all).
    blobs: Vec<git::Oid>,
    /// Where the match keeps what it read of the sources, by their blob ids
    /// (`matching/kept.rs`), when the project is in git.
    kept: Option<PathBuf>,
    /// [`SourceSettings::within`].
    within: String,
}

impl SourceDates {
    /// The source date of the page at `rel` (relative to the public directory).
    pub fn get(&self, rel: &Path) -> Result<(Timestamp, How), Miss> {
        let key = self.key(rel);
        let own = self
            .pages
            .get(key.as_ref())
            .or_else(|| self.filled_translation(&key));
        // A page its own source dates needs no look below it.
        if let Some(dated) = own.and_then(Mapped::dated_by) {
            return Ok(dated);
        }
        let is_index = rel
            .file_name()
            .is_some_and(|n| crate::urls::is_directory_index(n.as_encoded_bytes()));
        let below = is_index
            .then(|| key.rsplit_once('/').map_or("", |(dir, _)| dir))
            .and_then(|dir| self.pages.below(dir));
        match (own, below) {
            (_, Some(b)) => Ok((b, How::Below)),
            (Some(Mapped::Undated(at)), None) => {
                Err(Miss::Uncommitted(self.undated[*at as usize].clone()))
            }
            (Some(Mapped::Ambiguous), None) => Err(Miss::Ambiguous),
            // (Each is settled before any look-up.)
            (None | Some(Mapped::Committed(_) | Mapped::Dated { .. }), None) => Err(Miss::NoSource),
        }
    }
}

impl SourceDates {
    /// The path in the generator's output (as routes give it) of the page at `rel`.
    pub fn key(&self, rel: &Path) -> String {
        let key = crate::slash::joined(rel);
        format!("{}{}", self.within, String::from_utf8_lossy(&key))
    }

    /// Files the path of a source that dates no page ([`Mapped::Undated`]).
    fn undated(&mut self, source: PathBuf) -> Mapped {
        self.undated.push(source);
        let at = self.undated.len() - 1;
        Mapped::Undated(u32::try_from(at).expect("at most MAX_SOURCES"))
    }

    /// The default language's page, for a page under a language folder (`fr/x/`) that
    /// no source of its own maps to, where the generator fills translations so.
    fn filled_translation(&self, key: &str) -> Option<&Mapped> {
        let (lang, rest) = key.split_once('/')?;
        let is_language = crate::generators::route::is_language_code(lang);
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
        let at = self.find_by_link(href)?;
        self.by_source.value(at).dated_by()
    }

    /// The source a page's link names (see [`SourceDates::get_by_link`]), its path in
    /// the project, for `explain`.
    pub fn source_by_link(&self, href: &str) -> Option<PathBuf> {
        let at = self.find_by_link(href)?;
        self.by_source.value(at).dated_by()?;
        Some(self.source_path(at))
    }

    /// The source whose route builds the page at `rel`, its path in the project, for
    /// `explain` (a look through every route's outputs: a few pages are explained).
    pub fn routed_source(&self, rel: &Path) -> Option<PathBuf> {
        let key = self.key(rel);
        let mut owners = self.owners.iter().filter(|(o, _)| *o == key.as_bytes());
        let (_, &place) = owners.next()?;
        owners
            .next()
            .is_none()
            .then(|| self.source_path(place as usize))
    }

    /// Source `at`'s path in the project.
    fn source_path(&self, at: usize) -> PathBuf {
        PathBuf::from(String::from_utf8_lossy(self.by_source.path(at)).into_owned())
    }

    /// Where in `by_source` the source a page's link names is.
    fn find_by_link(&self, href: &str) -> Option<usize> {
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
            if let Some(i) = self.by_source.find(tail) {
                return Some(i);
            }
            tail = tail.split_once('/')?.1;
        }
    }
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
            .map(|d| crate::text::slashed(d))
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
    /// the sources are walked, read and routed on every core. A source git has unchanged
    /// since the last run is taken from the cache that run left (`source/cache.rs`).
    pub fn read(&self, repository: Result<git::Repository, GitUnavailable>) -> SourceDates {
        let (settings, prepared) = (&self.settings, &self.prepared);
        let dirs: Vec<&PathBuf> = self.dirs.iter().collect();
        let cx = self.context();
        let store =
            (repository.as_ref().ok()).map(|r| cache::Store::new(r.git_dir(), settings, prepared));
        let writer = store.as_ref().map(cache::Writer::start);
        // git lists its files, then reads their history; the walk looks sources up in the
        // cache by the ids listed, and dates them once the history is read.
        let git = Git::default();
        let dating = Mutex::new(Dating::default());
        std::thread::scope(|s| {
            s.spawn(|| {
                let _done = GitDone(&git);
                read_history(settings, &dirs, repository, &git);
            });
            // Read while git lists, and let go once the walk is done.
            let cache = store.as_ref().map(cache::Store::load).unwrap_or_default();
            dating.lock().expect("no walker yet").make_room(cache.sizes);
            let memo = Memo {
                cache: &cache,
                writer: writer.as_ref().and_then(|w| w.as_ref().ok()),
                git: &git,
            };
            walk(settings, &cx, &dirs, &memo, &|sources| {
                let mut dating = dating.lock().expect("a walker thread panicked");
                sources.drain(..).for_each(|source| dating.date(source));
            });
            drop(cache);
            // Sorted while git may still read the log: the dates come after.
            dating.lock().expect("a walker thread panicked").sort();
        });
        let dating = dating.into_inner().expect("a walker thread panicked");
        // So does a translations plugin (mkdocs-static-i18n's `fallback_to_default`).
        let fills = self.prepared.translations.is_some()
            || self
                .settings
                .generator
                .is_some_and(|g| g.fills_translations);
        let mut dates = dating.settle(fills, git.outcome());
        dates.within = settings.within.clone();
        dates.kept = (store.as_ref()).map(|s| matching::kept::path_beside(&s.path));
        if let (Some(store), Some(written)) = (store, writer)
            && let Err(e) = written.and_then(|w| w.finish(&store))
        {
            dates.cache_error = Some((store.path, e));
        }
        dates
    }

    /// How the generator routes, from the settings and the project's own files.
    fn context(&self) -> Context<'_> {
        let (settings, prepared) = (&self.settings, &self.prepared);
        Context {
            permalink: settings.permalink.as_deref(),
            default_language: (settings.default_language.as_ref())
                .or(prepared.default_language.as_ref())
                .map(String::as_str),
            served: &prepared.served,
            default_in_subdir: prepared.default_in_subdir,
            post_name: prepared.post_name.as_deref(),
            content_languages: &prepared.content_languages,
            permalinks: &prepared.permalinks,
            collections_dir: prepared.collections_dir.as_deref(),
            translations: prepared.translations.as_deref(),
        }
    }
}

/// Finds and reads the sources of the project at once (see [`find`], [`Sources::read`]).
pub fn read(
    settings: &SourceSettings,
    repository: Result<git::Repository, GitUnavailable>,
) -> Result<SourceDates, SourceUnavailable> {
    Ok(find(settings)?.read(repository))
}

#[cfg(test)]
mod tests;
