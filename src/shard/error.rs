//! Why a merge writes nothing: one-line errors naming the manifest, file, shard or URL,
//! and the fix.

use std::path::PathBuf;

use super::MAX_INDEXES;
use super::manifest::ManifestProblem;
use crate::fsutil::IoError;
use crate::index::ChildProblem;
use crate::robots::RobotsError;
use crate::sitemap::WriteError;
use crate::views::ViewError;

/// Why a merge wrote nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// A manifest cannot be read, or is not of this version.
    #[error("{}: {problem}", crate::text::path(path))]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        problem: ManifestProblem,
    },
    /// A manifest outside the directory the index is written to.
    #[error(
        "{}: is outside {}, the directory published at the base URL; put every shard's files under it, or pass -o the directory that holds them",
        crate::text::path(path),
        crate::text::path(dir)
    )]
    Outside {
        /// The manifest.
        path: PathBuf,
        /// The merge's directory.
        dir: PathBuf,
    },
    /// Two manifests of one shard name.
    #[error(
        "shard '{name}' has two manifests, {} and {}; give each part its own --shard name, or remove the stale manifest",
        crate::text::path(a),
        crate::text::path(b)
    )]
    SameName {
        /// The name.
        name: String,
        /// The first manifest.
        a: PathBuf,
        /// The second.
        b: PathBuf,
    },
    /// A child sitemap two manifests name, or one twice: the index would list it twice.
    #[error(
        "{}: {file} is named by shard '{a}' and again by shard '{b}'; a child sitemap belongs to one shard, named once: build the shards again, each to its own name",
        crate::text::path(path)
    )]
    ChildTwice {
        /// The second manifest naming it.
        path: PathBuf,
        /// The child, as the second names it.
        file: String,
        /// The shard that named it first.
        a: String,
        /// The one that named it again.
        b: String,
    },
    /// Two shards built with their URLs in other forms.
    #[error(
        "shard '{a}' was built with {setting} = {a_value} and shard '{b}' with {setting} = {b_value}, so the site would list a URL in both forms (/about and /about/ or /about.html); build every shard with the same {setting}"
    )]
    UrlForm {
        /// One shard.
        a: String,
        /// The other.
        b: String,
        /// The setting they differ on.
        setting: &'static str,
        /// Its value in `a`.
        a_value: bool,
        /// In `b`.
        b_value: bool,
    },
    /// A shard built for a base URL outside the merge's.
    #[error(
        "{}: shard '{name}' was built for {shard_base}, not under --base-url {base}; build it with the site's base URL (or a path under it)",
        crate::text::path(path)
    )]
    BaseUrl {
        /// The manifest.
        path: PathBuf,
        /// The shard's name.
        name: String,
        /// Its base URL.
        shard_base: String,
        /// The merge's.
        base: String,
    },
    /// A shard the config's `[[shards]]` does not declare.
    #[error(
        "{}: shard '{name}' is not one of the [[shards]] of the config; declare it, or leave its manifest out",
        crate::text::path(path)
    )]
    Undeclared {
        /// The manifest.
        path: PathBuf,
        /// The shard's name.
        name: String,
    },
    /// A declared shard without a manifest.
    #[error(
        "shard '{name}' is declared in [[shards]] but no manifest of it is given; build it and pass sitemap-{name}.manifest.json, or remove its [[shards]] table to drop its pages"
    )]
    NotGiven {
        /// The shard's name.
        name: String,
    },
    /// A shard built to write another root sitemap than the merge's (gzipped and not,
    /// or renamed): the merge writes the name its config and flags give.
    #[error("shard '{shard}' was built to write {built}, and this merge writes {root}; {}", if built.ends_with(".gz") != root.ends_with(".gz") { "build every shard and merge with --gzip (or gzip = true), or none" } else { "build every shard and merge with the same output name (output in sitemap.toml)" })]
    OtherRoot {
        /// The shard.
        shard: String,
        /// The root sitemap its manifest names.
        built: String,
        /// The merge's.
        root: String,
    },
    /// A file a manifest names is missing, altered, misplaced or not listable.
    #[error(
        "{}: {} {problem}",
        crate::text::path(manifest),
        crate::text::one_line(file)
    )]
    File {
        /// The manifest.
        manifest: PathBuf,
        /// The file's name.
        file: String,
        /// What is wrong.
        problem: FileProblem,
    },
    /// A URL two shards list.
    #[error(
        "{} is listed by shard '{a}' and by shard '{b}'; a URL belongs to one shard: leave it out of one of them (exclude in its sitemap.toml)",
        crate::text::one_line(url)
    )]
    Duplicate {
        /// The URL.
        url: String,
        /// One shard.
        a: String,
        /// The other.
        b: String,
    },
    /// Views are asked for, and a shard was built without them.
    #[error(
        "{}: shard '{name}' was built without views, so the merge cannot show its pages; build it with the same html_sitemap and llms_txt settings",
        crate::text::path(path)
    )]
    NoViews {
        /// The manifest.
        path: PathBuf,
        /// The shard's name.
        name: String,
    },
    /// A page a manifest's views record is not under the base URL.
    #[error(
        "{}: {} is not under --base-url; build the shard again",
        crate::text::path(path),
        crate::text::one_line(loc)
    )]
    PageOutside {
        /// The manifest.
        path: PathBuf,
        /// The page's URL.
        loc: String,
    },
    /// A page a manifest's views record is not one its shard lists (or is recorded
    /// twice): the views show only the sitemap's pages.
    #[error(
        "{}: its views record {}, which its sitemaps do not list (or record it twice); build the shard again",
        crate::text::path(path),
        crate::text::one_line(loc)
    )]
    PageUnlisted {
        /// The manifest.
        path: PathBuf,
        /// The page's URL.
        loc: String,
    },
    /// No shard lists a URL: an index may not be empty.
    #[error(
        "the shards list no URL, and a sitemap index needs at least one sitemap; check that each shard's build found its pages"
    )]
    Empty,
    /// More children than [`MAX_INDEXES`] indexes can list.
    #[error("{children} child sitemaps need {indexes} indexes, more than the {MAX_INDEXES} Search Console reads for one site; raise max_urls_per_file in the shards, or merge fewer shards", children = crate::text::thousands(*children))]
    TooManyIndexes {
        /// Children to list.
        children: usize,
        /// Indexes they need.
        indexes: usize,
    },
    /// Writing an index failed; the earlier indexes are untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A view could not be written; the indexes were written.
    #[error(transparent)]
    View(#[from] ViewError),
    /// robots.txt could not be updated; the indexes were written.
    #[error(transparent)]
    Robots(#[from] RobotsError),
    /// The joined change list could not be written.
    #[error("cannot write {0}")]
    Changes(IoError),
}

impl MergeError {
    /// Bad input (exit 2) rather than a failure to write (exit 1).
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            MergeError::Write(_)
                | MergeError::Robots(_)
                | MergeError::Changes(_)
                | MergeError::View(_)
        )
    }
}

/// What is wrong with a file a manifest names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileProblem {
    /// Not a plain file name.
    #[error("is not a file name beside the manifest; build the shard again")]
    Name,
    /// Missing or unreadable.
    #[error("cannot be read ({0}); copy every file the shard's build wrote beside its manifest")]
    Missing(String),
    /// Its bytes are not those the manifest names.
    #[error(
        "does not match its manifest (changed since the shard was built); build the shard again"
    )]
    Altered,
    /// Where it lies is not where its URL says.
    #[error(
        "is published at {loc} by its manifest, but lies at {at}; merge in the directory published at the base URL"
    )]
    Misplaced {
        /// Its URL in the manifest.
        loc: String,
        /// The URL of where it lies.
        at: String,
    },
    /// Its URL cannot be listed.
    #[error("{0}")]
    Loc(ChildProblem),
    /// Not named as the shard's children are: a shard owns only the files named by its
    /// name and a separator no shard name holds.
    #[error(
        "is not named as a child of shard '{shard}' ({expected}); build the shard again with this version"
    )]
    NotOwned {
        /// The shard.
        shard: String,
        /// The shape of its children's names.
        expected: String,
    },
}
