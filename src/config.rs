//! The configuration: `sitemap.toml` and the command-line flags, merged and checked
//! into one [`Config`]. Nothing past this module sees a raw value.

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use toml::Spanned;

use crate::lastmod::{LastmodFormat, LastmodSource};
use crate::robots::RobotsTxt;
use crate::rules::{Changefreq, GlobError, Priority, RuleFields, RuleSpec, Rules};
pub use crate::sitemap::Format;
use crate::url::{BaseUrl, BaseUrlError, UrlStyle};

/// The protocol's limit of URLs in one sitemap file.
pub const PROTOCOL_MAX_URLS: usize = 50_000;

/// The default config file, looked up in the current directory.
pub const DEFAULT_CONFIG_FILE: &str = "sitemap.toml";

/// A configuration problem; the message names the file (with line and column where
/// known), the key or value, and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The config file cannot be read.
    #[error("cannot read config file {}: {source}", path.display())]
    Read {
        /// The config file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// TOML that does not parse, or that does not fit the expected keys and types.
    #[error("{origin}: {message}")]
    Syntax {
        /// `file:line:column`.
        origin: String,
        /// What the parser said, on one line.
        message: String,
    },
    /// A key whose value is out of range or otherwise wrong.
    #[error("{origin}: {key}: {message}")]
    Value {
        /// `file:line:column`, `file`, or `command line`.
        origin: String,
        /// The key, e.g. `max_urls_per_file` or `[[rule]] #2 priority`.
        key: String,
        /// What is wrong and what to write instead.
        message: String,
    },
    /// A glob that does not compile.
    #[error("{origin}: {source}")]
    Glob {
        /// `file:line:column` or `file`.
        origin: String,
        /// The glob and the rule it belongs to.
        source: GlobError,
    },
    /// A base URL that is not usable.
    #[error("{origin}: {source}")]
    BaseUrl {
        /// `file:line:column` or `command line`.
        origin: String,
        /// What is wrong with it.
        source: BaseUrlError,
    },
    /// The public directory is missing or not a directory.
    #[error("public_dir '{}' {problem}", crate::one_line(&path.display().to_string()))]
    PublicDir {
        /// The directory as resolved.
        path: PathBuf,
        /// What is wrong, with a suggestion.
        problem: String,
    },
    /// A required setting given neither in the file nor by a flag.
    #[error("{key} is not set: {hint}")]
    Missing {
        /// The setting.
        key: &'static str,
        /// How to give it.
        hint: &'static str,
    },
}

/// Where the sitemap goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// To standard output (`--output -`); a single sitemap only.
    Stdout,
    /// To this file; split sitemaps are written beside it.
    File(PathBuf),
}

/// Values given on the command line, applied over the file.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `DIR`: the public directory, relative to the current directory.
    pub public_dir: Option<PathBuf>,
    /// `--base-url`.
    pub base_url: Option<String>,
    /// `--output`: a path relative to the current directory, or `-` for stdout.
    pub output: Option<PathBuf>,
    /// `--threads`: threads for walking and reading pages; 0 or none for one per core.
    pub threads: Option<usize>,
    /// `--gzip`: gzip every file written.
    pub gzip: bool,
    /// `--format`.
    pub format: Option<Format>,
}

/// The validated configuration of a run.
#[derive(Debug)]
pub struct Config {
    /// The site's normalised base URL.
    pub base_url: BaseUrl,
    /// The built site's directory.
    pub public_dir: PathBuf,
    /// Where the sitemap goes.
    pub output: Output,
    /// XML or text.
    pub format: Format,
    /// Gzip every file written: `gzip = true`, `--gzip`, or an output name ending `.gz`.
    pub gzip: bool,
    /// Page extensions, lower-case, without the dot.
    pub extensions: Vec<String>,
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
    /// Exclusion and changefreq/priority rules, compiled.
    pub rules: Rules,
    /// What of each page's head is obeyed.
    pub head: HeadRules,
    /// The `"content"` source's state file.
    pub state_file: PathBuf,
    /// Leave out URLs the site's robots.txt disallows (base URL at the host root only).
    pub respect_robots: bool,
    /// The user agent whose robots.txt group is obeyed, lower-case.
    pub robots_agent: String,
    /// What to do with robots.txt after writing.
    pub robots_txt: RobotsTxt,
    /// Threads for walking and reading pages (at least 1).
    pub threads: usize,
}

/// Which of the page's own statements are obeyed; all on by default.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// `sitemap.toml` as written: every key optional here, checked in [`Config::from_parts`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    base_url: Option<Spanned<String>>,
    public_dir: Option<PathBuf>,
    output: Option<Spanned<PathBuf>>,
    format: Option<Format>,
    gzip: Option<bool>,
    extensions: Option<Spanned<Vec<String>>>,
    error_pages: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    exclude: Option<Spanned<Globs>>,
    trailing_slash: Option<bool>,
    clean_urls: Option<bool>,
    follow_symlinks: Option<bool>,
    max_urls_per_file: Option<Spanned<i64>>,
    lastmod: Option<OneOrMany<LastmodSource>>,
    lastmod_format: Option<LastmodFormat>,
    respect_noindex: Option<bool>,
    noindex_agents: Option<Spanned<Vec<String>>>,
    skip_redirects: Option<bool>,
    respect_canonical: Option<bool>,
    alternates: Option<bool>,
    state_file: Option<PathBuf>,
    respect_robots: Option<bool>,
    robots_agent: Option<Spanned<String>>,
    robots_txt: Option<Spanned<RobotsTxt>>,
    #[serde(default)]
    defaults: Defaults,
    #[serde(default, rename = "rule")]
    rules: Vec<FileRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    changefreq: Option<Changefreq>,
    priority: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRule {
    #[serde(rename = "match")]
    globs: Spanned<Globs>,
    changefreq: Option<Changefreq>,
    priority: Option<Spanned<f64>>,
    exclude: Option<bool>,
}

/// A glob or a list of globs.
#[derive(Debug, Default)]
struct Globs(Vec<String>);

impl<'de> Deserialize<'de> for Globs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct GlobsVisitor;
        impl<'de> Visitor<'de> for GlobsVisitor {
            type Value = Globs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a glob or a list of globs, e.g. \"blog/**\" or [\"a/**\", \"b/*.html\"]",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Globs, E> {
                Ok(Globs(vec![v.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Globs, A::Error> {
                let mut globs = Vec::new();
                while let Some(glob) = seq.next_element::<String>()? {
                    globs.push(glob);
                }
                Ok(Globs(globs))
            }
        }
        deserializer.deserialize_any(GlobsVisitor)
    }
}

/// One value or a list of them (`lastmod = "mtime"` or `lastmod = ["mtime"]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

/// Turns a byte span into `file:line:column` (both 1-based; columns count characters).
fn locate(origin: &str, text: &str, span: std::ops::Range<usize>) -> String {
    let start = span.start.min(text.len());
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    format!("{origin}:{line}:{column}")
}

impl FileConfig {
    /// Parses the text of a config file; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<FileConfig, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Syntax {
            origin: match e.span() {
                Some(span) => locate(origin, text, span),
                None => origin.to_string(),
            },
            message: e.message().trim().replace('\n', " "),
        })
    }
}

/// A parsed config file with what is needed to report errors in it.
struct Source<'a> {
    /// The file's name for messages.
    origin: String,
    /// Its text, to turn spans into line and column.
    text: &'a str,
}

impl Source<'_> {
    fn at(&self, span: std::ops::Range<usize>) -> String {
        if self.text.is_empty() {
            self.origin.clone()
        } else {
            locate(&self.origin, self.text, span)
        }
    }
}

fn priority(
    value: &Option<Spanned<f64>>,
    key: &str,
    src: &Source,
) -> Result<Option<Priority>, ConfigError> {
    let Some(value) = value else { return Ok(None) };
    Priority::new(*value.get_ref())
        .map(Some)
        .ok_or_else(|| ConfigError::Value {
            origin: src.at(value.span()),
            key: key.to_string(),
            message: format!(
                "priority {} is outside 0.0-1.0; use a value such as 0.5",
                value.get_ref()
            ),
        })
}

impl Config {
    /// Loads the config file (if any) and applies the command-line overrides.
    ///
    /// Relative paths in the file are relative to the file's own directory; paths on
    /// the command line are relative to the current directory.
    pub fn load(path: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        let Some(path) = path else {
            return Config::from_parts(FileConfig::default(), None, "", overrides);
        };
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let origin = path.display().to_string();
        let file = FileConfig::parse(&text, &origin)?;
        let dir = path.parent().unwrap_or(Path::new(""));
        Config::from_parts(file, Some((dir, &origin)), &text, overrides)
    }

    /// Checks a parsed file (or none) together with the overrides. `file_at` is the
    /// config file's directory and name, when there is a file.
    pub fn from_parts(
        file: FileConfig,
        file_at: Option<(&Path, &str)>,
        text: &str,
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        let src = Source {
            origin: file_at.map_or("command line", |(_, o)| o).to_string(),
            text,
        };

        let base_url = match (&overrides.base_url, &file.base_url) {
            (Some(url), _) => BaseUrl::parse(url).map_err(|source| ConfigError::BaseUrl {
                origin: "--base-url".to_string(),
                source,
            })?,
            (None, Some(url)) => {
                BaseUrl::parse(url.get_ref()).map_err(|source| ConfigError::BaseUrl {
                    origin: src.at(url.span()),
                    source,
                })?
            }
            (None, None) => {
                return Err(ConfigError::Missing {
                    key: "base_url",
                    hint: "pass --base-url https://example.org/ or set base_url in sitemap.toml",
                });
            }
        };

        let public_dir = match (&overrides.public_dir, &file.public_dir, file_at) {
            (Some(dir), _, _) => dir.clone(),
            (None, Some(dir), Some((base, _))) => base.join(dir),
            (None, None, Some((base, _))) => base.join("public"),
            (None, _, None) => {
                return Err(ConfigError::Missing {
                    key: "public_dir",
                    hint: "pass the built site's directory (sitemapgen build public) or set public_dir in sitemap.toml",
                });
            }
        };
        match std::fs::metadata(&public_dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(ConfigError::PublicDir {
                    path: public_dir,
                    problem:
                        "is not a directory; point public_dir at the built site's output directory"
                            .to_string(),
                });
            }
            Err(e) => {
                return Err(ConfigError::PublicDir {
                    path: public_dir,
                    problem: format!(
                        "cannot be read ({e}); build the site first, or fix public_dir / DIR"
                    ),
                });
            }
        }

        let format = overrides.format.or(file.format).unwrap_or_default();
        let output = match (&overrides.output, &file.output) {
            (Some(p), _) if p.as_os_str() == "-" => Output::Stdout,
            (Some(p), _) => Output::File(p.clone()),
            (None, Some(p)) => {
                let rel = p.get_ref();
                let inside = !rel.as_os_str().is_empty()
                    && rel.components().all(|c| matches!(c, Component::Normal(_)));
                if !inside {
                    return Err(ConfigError::Value {
                        origin: src.at(p.span()),
                        key: "output".to_string(),
                        message: format!(
                            "'{}' must be a file path inside public_dir, such as \"sitemap.xml\" (use --output to write elsewhere)",
                            crate::one_line(&rel.display().to_string())
                        ),
                    });
                }
                Output::File(public_dir.join(rel))
            }
            (None, None) => Output::File(public_dir.join(match format {
                Format::Xml => "sitemap.xml",
                Format::Txt => "sitemap.txt",
            })),
        };
        let gzip = match &output {
            Output::File(path) if path.extension().is_some_and(|e| e == "gz") => true,
            _ => overrides.gzip || file.gzip.unwrap_or(false),
        };
        // With gzip on, the name says so: sitemap.xml becomes sitemap.xml.gz.
        let output = match output {
            Output::File(path) if gzip && path.extension().is_none_or(|e| e != "gz") => {
                let mut name = path.clone().into_os_string();
                name.push(".gz");
                Output::File(PathBuf::from(name))
            }
            other => other,
        };

        let extensions = match &file.extensions {
            None => vec!["html".to_string(), "htm".to_string()],
            Some(list) => {
                let exts: Vec<String> = list
                    .get_ref()
                    .iter()
                    .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
                    .collect();
                if exts.is_empty() || exts.iter().any(|e| e.is_empty() || e.contains(['/', '\\'])) {
                    return Err(ConfigError::Value {
                        origin: src.at(list.span()),
                        key: "extensions".to_string(),
                        message:
                            "must be a non-empty list of extensions such as [\"html\", \"htm\"]"
                                .to_string(),
                    });
                }
                exts
            }
        };

        let error_pages = match &file.error_pages {
            None => crate::scan::DEFAULT_ERROR_PAGES.map(String::from).to_vec(),
            Some(list) => {
                let bad = list
                    .get_ref()
                    .iter()
                    .find(|p| !crate::scan::is_error_page_pattern(p));
                if let Some(bad) = bad {
                    return Err(ConfigError::Value {
                        origin: src.at(list.span()),
                        key: "error_pages".to_string(),
                        message: format!(
                            "'{}' is not a file name or dir/file such as \"404.html\" or \"404/index.html\" (no globs, no leading /)",
                            crate::one_line(bad)
                        ),
                    });
                }
                list.get_ref().clone()
            }
        };

        let max_urls_per_file = match &file.max_urls_per_file {
            None => PROTOCOL_MAX_URLS,
            Some(n) => match usize::try_from(*n.get_ref()) {
                Ok(v) if (1..=PROTOCOL_MAX_URLS).contains(&v) => v,
                _ => {
                    return Err(ConfigError::Value {
                        origin: src.at(n.span()),
                        key: "max_urls_per_file".to_string(),
                        message: format!(
                            "{} is outside 1-50000 (the protocol allows at most 50,000 URLs per file)",
                            n.get_ref()
                        ),
                    });
                }
            },
        };

        let lastmod = match file.lastmod {
            None => vec![LastmodSource::Meta, LastmodSource::Mtime],
            Some(OneOrMany::One(s)) => vec![s],
            Some(OneOrMany::Many(list)) if list.is_empty() => vec![LastmodSource::None],
            Some(OneOrMany::Many(list)) => list,
        };

        let defaults = RuleFields {
            changefreq: file.defaults.changefreq,
            priority: priority(&file.defaults.priority, "[defaults] priority", &src)?,
            exclude: None,
        };
        let mut specs = Vec::with_capacity(file.rules.len());
        for (i, rule) in file.rules.iter().enumerate() {
            if rule.globs.get_ref().0.is_empty() {
                return Err(ConfigError::Value {
                    origin: src.at(rule.globs.span()),
                    key: format!("[[rule]] #{} match", i + 1),
                    message: "is an empty list; give at least one glob such as \"blog/**\""
                        .to_string(),
                });
            }
            specs.push(RuleSpec {
                globs: rule.globs.get_ref().0.clone(),
                fields: RuleFields {
                    changefreq: rule.changefreq,
                    priority: priority(
                        &rule.priority,
                        &format!("[[rule]] #{} priority", i + 1),
                        &src,
                    )?,
                    exclude: rule.exclude,
                },
            });
        }
        let exclude = file
            .exclude
            .as_ref()
            .map(|e| e.get_ref().0.clone())
            .unwrap_or_default();
        let rules = Rules::new(defaults, &exclude, &specs).map_err(|source| {
            let span = if source.rule == "exclude" {
                file.exclude.as_ref().map(Spanned::span)
            } else {
                source
                    .rule
                    .trim_start_matches("[[rule]] #")
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| file.rules.get(n - 1))
                    .map(|r| r.globs.span())
            };
            ConfigError::Glob {
                origin: span.map_or_else(|| src.origin.clone(), |s| src.at(s)),
                source,
            }
        })?;

        let noindex_agents = match &file.noindex_agents {
            None => vec!["robots".to_string()],
            Some(list) => {
                let agents: Vec<String> = list
                    .get_ref()
                    .iter()
                    .map(|a| a.trim().to_ascii_lowercase())
                    .collect();
                if agents.iter().any(String::is_empty) {
                    return Err(ConfigError::Value {
                        origin: src.at(list.span()),
                        key: "noindex_agents".to_string(),
                        message: "holds an empty name; list meta names such as [\"robots\", \"googlebot\"]".to_string(),
                    });
                }
                agents
            }
        };
        let head = HeadRules {
            respect_noindex: file.respect_noindex.unwrap_or(true),
            noindex_agents,
            skip_redirects: file.skip_redirects.unwrap_or(true),
            respect_canonical: file.respect_canonical.unwrap_or(true),
            alternates: file.alternates.unwrap_or(true),
        };

        // Beside the config file, or in the current directory when there is none.
        let base = file_at.map_or(Path::new(""), |(dir, _)| dir);
        let state_file = base.join(
            file.state_file
                .as_deref()
                .unwrap_or(Path::new(".sitemap-state.json")),
        );

        let robots_agent = match &file.robots_agent {
            None => "*".to_string(),
            Some(agent) if agent.get_ref().trim().is_empty() => {
                return Err(ConfigError::Value {
                    origin: src.at(agent.span()),
                    key: "robots_agent".to_string(),
                    message: "is empty; name a user agent such as \"*\" or \"Googlebot\""
                        .to_string(),
                });
            }
            Some(agent) => agent.get_ref().trim().to_ascii_lowercase(),
        };
        let robots_txt = match &file.robots_txt {
            Some(mode) if *mode.get_ref() != RobotsTxt::Leave && !base_url.is_host_root() => {
                return Err(ConfigError::Value {
                    origin: src.at(mode.span()),
                    key: "robots_txt".to_string(),
                    message: format!(
                        "needs base_url at the root of its host, but '{}' has a path: crawlers only read /robots.txt",
                        base_url.as_str()
                    ),
                });
            }
            Some(mode) => *mode.get_ref(),
            None => RobotsTxt::Leave,
        };

        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = match overrides.threads {
            Some(n) if n > 0 => n,
            _ => cores,
        };

        Ok(Config {
            threads,
            respect_robots: file.respect_robots.unwrap_or(true),
            robots_agent,
            robots_txt,
            state_file,
            head,
            base_url,
            public_dir,
            output,
            format,
            gzip,
            extensions,
            error_pages,
            url_style: UrlStyle {
                trailing_slash: file.trailing_slash.unwrap_or(true),
                clean_urls: file.clean_urls.unwrap_or(false),
            },
            follow_symlinks: file.follow_symlinks.unwrap_or(false),
            max_urls_per_file,
            lastmod,
            lastmod_format: file.lastmod_format.unwrap_or_default(),
            rules,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir = std::env::temp_dir();
        let file = FileConfig::parse(text, "sitemap.toml")?;
        let overrides = Overrides {
            public_dir: Some(dir.clone()),
            ..Overrides::default()
        };
        Config::from_parts(file, Some((&dir, "sitemap.toml")), text, &overrides)
    }

    fn error(text: &str) -> String {
        load(text).unwrap_err().to_string()
    }

    #[test]
    fn a_full_config_loads() {
        let c = load(
            r#"
base_url = "https://example.org/docs"
output = "maps/sitemap.xml"
extensions = [".HTML", "htm"]
exclude = ["drafts/**"]
trailing_slash = false
clean_urls = true
follow_symlinks = true
max_urls_per_file = 10
lastmod = "none"
lastmod_format = "date"
respect_noindex = false
noindex_agents = ["Robots", "googlebot"]
skip_redirects = false
respect_canonical = false
alternates = false
state_file = "cache/state.json"
respect_robots = false
robots_agent = "Googlebot"
robots_txt = "leave"
[defaults]
changefreq = "weekly"
priority = 1
[[rule]]
match = "blog/**"
changefreq = "daily"
priority = 0.8
[[rule]]
match = ["blog/page/**", "tags/**"]
exclude = true
"#,
        )
        .unwrap();
        assert_eq!(c.base_url.as_str(), "https://example.org/docs/");
        assert_eq!(
            c.output,
            Output::File(std::env::temp_dir().join("maps/sitemap.xml"))
        );
        assert_eq!(c.extensions, ["html", "htm"]);
        assert!(!c.url_style.trailing_slash && c.url_style.clean_urls && c.follow_symlinks);
        assert_eq!(c.max_urls_per_file, 10);
        assert_eq!(c.lastmod, [LastmodSource::None]);
        assert_eq!(c.lastmod_format, LastmodFormat::Date);
        assert!(!c.head.any());
        assert_eq!(c.head.noindex_agents, ["robots", "googlebot"]);
        assert_eq!(c.state_file, std::env::temp_dir().join("cache/state.json"));
        assert!(!c.respect_robots);
        assert_eq!(
            (c.robots_agent.as_str(), c.robots_txt),
            ("googlebot", RobotsTxt::Leave)
        );
        let v = c.rules.apply(Path::new("tags/x.html"), &mut Vec::new());
        assert!(v.excluded.is_some());
        assert_eq!(v.priority.map(Priority::get), Some(1.0));
        let c = load("base_url = 'https://example.org'\nrobots_txt = 'create'").unwrap();
        assert_eq!(c.robots_txt, RobotsTxt::Create);
    }

    #[test]
    fn defaults_apply_when_keys_are_absent() {
        let c = load("base_url = 'https://example.org'").unwrap();
        assert_eq!(
            c.output,
            Output::File(std::env::temp_dir().join("sitemap.xml"))
        );
        assert_eq!(c.extensions, ["html", "htm"]);
        assert!(c.url_style.trailing_slash && !c.url_style.clean_urls && !c.follow_symlinks);
        assert_eq!(c.max_urls_per_file, 50_000);
        assert_eq!(c.lastmod, [LastmodSource::Meta, LastmodSource::Mtime]);
        assert_eq!(c.lastmod_format, LastmodFormat::Datetime);
        let all_on = HeadRules {
            respect_noindex: true,
            noindex_agents: vec!["robots".into()],
            skip_redirects: true,
            respect_canonical: true,
            alternates: true,
        };
        assert_eq!(c.head, all_on);
        assert_eq!(
            c.state_file,
            std::env::temp_dir().join(".sitemap-state.json")
        );
    }

    #[test]
    fn bad_configs_get_one_line_errors_that_say_where_and_what() {
        let b = "base_url = 'https://example.org/'\n";
        let table: &[(String, &[&str])] = &[
            (
                "base_url = 'https://x.org/'\nbsae = 1".into(),
                &["sitemap.toml:2:1", "unknown field `bsae`"],
            ),
            ("base_url = ".into(), &["sitemap.toml:1:"]),
            (
                format!("{b}[defaults]\nchangefreq = 'dayly'"),
                &["sitemap.toml:3:14", "dayly", "always", "never"],
            ),
            (
                format!("{b}[defaults]\npriority = 1.5"),
                &["sitemap.toml:3:12", "[defaults] priority", "1.5", "0.0-1.0"],
            ),
            (
                format!("{b}[defaults]\npriority = nan"),
                &["priority NaN is outside 0.0-1.0"],
            ),
            (
                format!("{b}[[rule]]\nmatch = 'a/**'\npriority = -0.1"),
                &["sitemap.toml:4:12", "[[rule]] #1 priority"],
            ),
            (
                format!("{b}[[rule]]\nmatch = 'a/**'\n[[rule]]\nmatch = 'blog/[x'"),
                &["sitemap.toml:5:9", "invalid glob 'blog/[x' in [[rule]] #2"],
            ),
            (
                format!("{b}exclude = ['{{a']"),
                &["sitemap.toml:2:11", "invalid glob '{a' in exclude"],
            ),
            (
                format!("{b}[[rule]]\nmatch = 3"),
                &["sitemap.toml:3:9", "a glob or a list of globs"],
            ),
            (
                format!("{b}[[rule]]\nmatch = []"),
                &["[[rule]] #1 match", "empty list"],
            ),
            (
                format!("{b}[[rule]]\npriority = 0.5"),
                &["missing field `match`"],
            ),
            (
                format!("{b}[[rule]]\nmatch = 'x'\ncolour = 'red'"),
                &["sitemap.toml:4:1", "unknown field `colour`"],
            ),
            (
                format!("{b}max_urls_per_file = 50001"),
                &["max_urls_per_file", "50001", "50,000"],
            ),
            (
                format!("{b}max_urls_per_file = 0"),
                &["max_urls_per_file", "outside 1-50000"],
            ),
            (format!("{b}lastmod = 'git-blame'"), &["sitemap.toml:2:11"]),
            (
                format!("{b}output = '../sitemap.xml'"),
                &["output", "inside public_dir"],
            ),
            (
                format!("{b}output = '/tmp/sitemap.xml'"),
                &["output", "inside public_dir"],
            ),
            (format!("{b}extensions = []"), &["extensions", "non-empty"]),
            (
                format!("{b}noindex_agents = ['robots', ' ']"),
                &["noindex_agents", "empty name"],
            ),
            (
                format!("{b}respect_noindex = 'yes'"),
                &["sitemap.toml:2:19", "expected a boolean"],
            ),
            (
                format!("{b}lastmod = ['meta', 'gut-feeling']"),
                &["sitemap.toml:2:11"],
            ),
            (
                "base_url = 'ftp://example.org/'".into(),
                &["sitemap.toml:1:12", "http or https"],
            ),
            ("base_url = 'https://example.org/?q=1'".into(), &["query"]),
            (
                "public_dir = 'x'".into(),
                &["base_url is not set", "--base-url"],
            ),
        ];
        for (text, wants) in table {
            let err = error(text);
            assert!(!err.contains('\n'), "not one line: {err}");
            for want in *wants {
                assert!(
                    err.contains(want),
                    "config {text:?}\n  error {err:?}\n  lacks {want:?}"
                );
            }
        }
    }

    #[test]
    fn flags_override_the_file() {
        let dir = std::env::temp_dir();
        let text = "base_url = 'https://example.org/'\npublic_dir = 'nowhere'\noutput = 'x.xml'";
        let file = FileConfig::parse(text, "s.toml").unwrap();
        let overrides = Overrides {
            public_dir: Some(dir.clone()),
            base_url: Some("https://other.example/".into()),
            output: Some(PathBuf::from("-")),
            threads: Some(3),
            ..Overrides::default()
        };
        let c = Config::from_parts(file, Some((Path::new("conf"), "s.toml")), text, &overrides)
            .unwrap();
        assert_eq!(c.threads, 3);
        assert_eq!(c.base_url.as_str(), "https://other.example/");
        assert_eq!(c.public_dir, dir);
        assert_eq!(c.output, Output::Stdout);
    }

    #[test]
    fn public_dir_must_exist_and_be_a_directory() {
        let text = "base_url = 'https://example.org/'\npublic_dir = 'surely-not-here'";
        let file = FileConfig::parse(text, "s.toml").unwrap();
        let err = Config::from_parts(
            file,
            Some((Path::new(""), "s.toml")),
            text,
            &Overrides::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("public_dir 'surely-not-here' cannot be read"),
            "{err}"
        );
        assert!(err.contains("build the site first"), "{err}");
        let no_dir = Config::from_parts(
            FileConfig::default(),
            None,
            "",
            &Overrides {
                base_url: Some("https://example.org/".into()),
                ..Overrides::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert!(no_dir.starts_with("public_dir is not set"), "{no_dir}");
    }
}
