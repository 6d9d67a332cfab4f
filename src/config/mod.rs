//! The configuration: `sitemap.toml` and the command-line flags, merged and checked
//! into one [`Config`]. Nothing past this module sees a raw value.

mod discover;
mod engines;
mod error;
mod file;
mod layout;
mod pages;
mod source;
mod unused;
mod validate;

use std::path::{Path, PathBuf};

pub use discover::{Found, find};
pub use engines::{Bing, Engines, Google, is_property, is_provider};
pub use error::{ConfigError, Unused};
pub use file::FileConfig;
pub use validate::{MAX_THREADS, READ_THREADS};
// For `sitemapgen submit`'s flags, which are checked as the config's keys are.
#[cfg(feature = "cli")]
pub(crate) use validate::{KEY_RULE, indexnow_endpoint, is_indexnow_key};

use crate::fsutil::At;
use crate::lastmod::LastmodSource;
use crate::robots::RobotsTxt;
use crate::rules::Rules;
use crate::sections::Sections;
pub use crate::sitemap::Format;
/// The protocol's limit of URLs in one sitemap file (defined by the sitemap writer).
pub use crate::sitemap::PROTOCOL_MAX_ENTRIES as PROTOCOL_MAX_URLS;
use crate::stylesheet::Stylesheet;
use crate::urls::{BaseUrl, UrlStyle};
use crate::w3c::LastmodFormat;

/// The largest config file read; real ones are a few KiB.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The default config file, looked up in the current directory.
pub const DEFAULT_CONFIG_FILE: &str = "sitemap.toml";

/// Where the sitemap goes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Output {
    /// To standard output (`--output -`); a single sitemap only.
    Stdout,
    /// To this file; split sitemaps are written beside it.
    File(PathBuf),
}

/// Values given on the command line, applied over the file.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Overrides {
    /// `DIR`: the public directory, relative to the current directory.
    pub public_dir: Option<PathBuf>,
    /// `--base-url`.
    pub base_url: Option<String>,
    /// `--output`: a path relative to the current directory, or `-` for stdout.
    pub output: Option<PathBuf>,
    /// `--threads`: threads for walking and reading pages; 0 or none for one per core (and at
    /// least [`READ_THREADS`] to read).
    pub threads: Option<usize>,
    /// `--gzip`: gzip every file written.
    pub gzip: bool,
    /// `--format`.
    pub format: Option<Format>,
    /// `--all-changed`: every URL counts as changed in the change list.
    pub all_changed: bool,
    /// `--shard`: build one part of a site, merged later (`sitemapgen merge`).
    pub shard: Option<String>,
}

/// The validated configuration of a run.
#[derive(Debug)]
#[non_exhaustive]
pub struct Config {
    /// The site's normalised base URL.
    pub base_url: BaseUrl,
    /// The built site's directory.
    pub public_dir: PathBuf,
    /// The project: the config file's directory, or the current directory (empty) when
    /// there is no file. The `"git"` source trusts its repository, not the site's.
    pub project: PathBuf,
    /// Where the sitemap goes.
    pub output: Output,
    /// The output comes from the config file (or is the default), so its real directory
    /// (symbolic links resolved) must be inside `public_dir`'s; `--output` goes anywhere.
    pub output_in_site: bool,
    /// XML or text.
    pub format: Format,
    /// Gzip every file written: `gzip = true`, `--gzip`, or an output name ending `.gz`.
    pub gzip: bool,
    /// Page extensions, lower-case, without the dot.
    pub extensions: Vec<String>,
    /// Document extensions (`documents`: `pdf`), lower-case, without the dot: such files
    /// are listed as they are, their heads unread.
    pub documents: Vec<String>,
    /// Error pages, skipped at any depth: file names, or `dir/index.html`.
    pub error_pages: Vec<String>,
    /// How paths become URLs.
    pub url_style: UrlStyle,
    /// Follow symbolic links inside the public directory.
    pub follow_symlinks: bool,
    /// URLs per sitemap file before splitting (1 to 50,000).
    pub max_urls_per_file: usize,
    /// `lastmod` sources, in order.
    pub lastmod: Vec<LastmodSource>,
    /// How `lastmod` is written.
    pub lastmod_format: LastmodFormat,
    /// How pages map to their sources (`[source]`), for the `"source"` lastmod source.
    pub source: Option<crate::lastmod::source::SourceSettings>,
    /// Exclusion and changefreq/priority rules, compiled.
    pub rules: Rules,
    /// The stylesheet every sitemap written links to for browsers (`stylesheet`).
    pub stylesheet: Option<Stylesheet>,
    /// List each page's images as `<image:image>` entries (`images = true`).
    pub images: bool,
    /// The views written beside the sitemap: `sitemap.html`, `llms.txt`.
    pub views: crate::views::ViewSettings,
    /// Named sections, each written to child sitemaps of its own; empty for none.
    pub sections: Sections,
    /// One set of child sitemaps per language (`split = "language"`).
    pub split_language: Option<crate::sections::LanguageSplit>,
    /// What of each page's head is obeyed.
    pub head: HeadRules,
    /// The state file of the `"content"` source and the change list.
    pub state_file: PathBuf,
    /// Keep state and write a change list (`changes = true`, or the `"content"` source).
    pub changes: bool,
    /// Every URL counts as changed (`--all-changed`): a first run lists them all as added.
    pub all_changed: bool,
    /// IndexNow: the key, endpoint, and whether `build` writes `public_dir/{key}.txt`.
    pub indexnow: IndexNow,
    /// The engines `submit` tells besides IndexNow: `[google]`, `[bing]`.
    pub engines: Engines,
    /// Leave out URLs the site's robots.txt disallows (base URL at the host root only).
    pub respect_robots: bool,
    /// Obey the host's own files (`_headers`, `_redirects`, `netlify.toml`,
    /// `vercel.json`, `firebase.json`): `host_config`.
    pub host_config: bool,
    /// Audit the site across its pages (`build --check`, `check --site`): their titles
    /// and sizes are kept. Set by the command, never by the file.
    pub audit: bool,
    /// The host that serves the site (`hosting`); `None` to tell from the project's files.
    pub hosting: Option<crate::host::Hosting>,
    /// The host's files, read once when the config is loaded (with `host_config`): the
    /// URL form above came from them, and the walk's host rules do.
    pub host_files: Option<crate::host::HostFiles>,
    /// Serve `llms.txt` and `llms-full.txt` with `X-Robots-Tag: noindex` through
    /// `_headers` (`host_headers`); `None`: when the host reads one.
    pub host_headers: Option<bool>,
    /// The user agent whose robots.txt group is obeyed, lower-case.
    pub robots_agent: String,
    /// What to do with robots.txt after writing (at the merge, for a shard).
    pub robots_txt: RobotsTxt,
    /// The part of a sharded site this build maps (`shard`, `--shard`): its children and
    /// manifest are written, never the root index; `sitemapgen merge` joins the parts.
    pub shard: Option<String>,
    /// The `[[shards]]`: which pages each shard lists; none declared, a shard lists
    /// every page of its directory.
    pub shards: crate::shard::Parts,
    /// Threads for walking and reading pages and sources (at least 1; see
    /// [`READ_THREADS`]).
    pub threads: usize,
    /// Threads for the work that reads no files, such as sorting (at least 1): one per
    /// core unless `--threads` says.
    pub cpu_threads: usize,
    /// The file's settings that do nothing this run, each a warning of the build.
    pub unused: Vec<Unused>,
}

/// The IndexNow settings `submit` (and, for the key file, `build`) use.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexNow {
    /// The key: `indexnow_key`, else the `INDEXNOW_KEY` environment variable.
    pub key: Option<String>,
    /// Write `public_dir/{key}.txt` holding the key, so the deploy publishes it.
    pub key_file: bool,
    /// Where submissions go (`indexnow_endpoint`).
    pub endpoint: String,
}

/// IndexNow's shared endpoint, which passes submissions on to every engine taking part.
pub const INDEXNOW_ENDPOINT: &str = "https://api.indexnow.org/indexnow";

/// The environment variable holding the IndexNow key (a CI secret).
pub const INDEXNOW_KEY_ENV: &str = "INDEXNOW_KEY";

/// Which of the page's own statements are obeyed; all on by default.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeadRules {
    /// Leave out pages whose robots meta tag says `noindex` or `none`.
    pub respect_noindex: bool,
    /// Which `<meta name>` values count as robots tags (lower-case).
    pub noindex_agents: Vec<String>,
    /// Leave out `<meta http-equiv="refresh">` redirect stubs.
    pub skip_redirects: bool,
    /// Leave out pages whose canonical URL is another page.
    pub respect_canonical: bool,
    /// Write hreflang alternates as `<xhtml:link>`.
    pub alternates: bool,
}

impl HeadRules {
    /// Whether anything needs the head read.
    pub fn any(&self) -> bool {
        self.respect_noindex || self.skip_redirects || self.respect_canonical || self.alternates
    }
}

impl Config {
    /// Where the host's files are looked for.
    pub fn host_places(&self) -> crate::host::Places<'_> {
        crate::host::Places {
            public_dir: &self.public_dir,
            project: &self.project,
            hosting: self.hosting,
        }
    }

    /// Loads the config file (if any) and applies the command-line overrides.
    ///
    /// Relative paths in the file are relative to the file's own directory; paths on
    /// the command line are relative to the current directory.
    pub fn load(path: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        let Some(path) = path else {
            return Config::from_parts(FileConfig::default(), None, "", overrides);
        };
        let text = crate::fsutil::read_regular_string(path, MAX_FILE_BYTES)
            .at(path)
            .map_err(ConfigError::Read)?;
        let origin = crate::text::slashed(path);
        let file = FileConfig::parse(&text, &origin)?;
        let dir = path.parent().unwrap_or(Path::new(""));
        Config::from_parts(file, Some((dir, &origin)), &text, overrides)
    }
}

#[cfg(test)]
mod tests;
