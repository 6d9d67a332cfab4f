//! From what the file and the flags say to one checked [`Config`], one setting at a time.

use std::path::{Component, Path, PathBuf};

use toml::Spanned;

use super::file::{FileConfig, Source, bad_value};
use super::pages::{documents, error_pages, extensions, url_style};
use super::{
    Config, ConfigError, HeadRules, INDEXNOW_ENDPOINT, INDEXNOW_KEY_ENV, IndexNow, Output,
    Overrides,
};
use crate::lastmod::LastmodSource;
use crate::lastmod::source::SourceSettings;
use crate::robots::RobotsTxt;
use crate::rules::{Priority, RuleFields, RuleRef, RuleSpec, Rules};
use crate::sitemap::{Format, PROTOCOL_MAX_ENTRIES};
use crate::urls::BaseUrl;

impl Config {
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
        let base_url = base_url(&file, &src, overrides)?;
        let public_dir = public_dir(&file, file_at, overrides)?;
        let format = overrides.format.or(file.format).unwrap_or_default();
        let (output, gzip) = output(&file, &src, overrides, &public_dir, format)?;
        let sections = super::layout::sections(&file, &src, format, &output)?;
        let split_language = super::layout::split(&file, &src, format, &output)?;
        // Beside the config file, or in the current directory when there is none.
        let base = file_at.map_or(Path::new(""), |(dir, _)| dir);
        let shards = super::layout::shards(&file, &src)?;
        let shard = super::layout::shard(&file, &src, overrides, (format, &output, &shards))?;
        let state_file = base.join(
            file.state_file
                .as_deref()
                .unwrap_or(Path::new(".sitemap-state.json")),
        );
        // Each shard keeps its own state: one shard's pages are not another's removals.
        let state_file = match &shard {
            Some(name) => crate::shard::state_file_of(&state_file, name),
            None => state_file,
        };
        let (threads, cpu_threads) = threads(overrides)?;
        let lastmod = lastmod_sources(&file, &src)?;
        let uses = crate::lastmod::uses(&lastmod, LastmodSource::Source);
        let unused = super::unused::unused(&file, &src, overrides, &lastmod, shard.as_deref());
        let within = within_output(&file, file_at.map(|_| base), &public_dir);
        let source =
            super::source::source(&file, &src, base, &public_dir, uses)?.map(|s| SourceSettings {
                threads,
                within,
                ..s
            });
        // The host's files, read once for the run: the URL form it serves, where the
        // file sets none (`cleanUrls`, ...), and its rules for the walk.
        let host_config = file.host_config.unwrap_or(true);
        let head = head_rules(&file, &src)?;
        let host_places = crate::host::Places {
            public_dir: &public_dir,
            project: base,
            hosting: file.hosting,
        };
        let host_files = host_config
            .then(|| crate::host::read(host_places, base_url.url(), &head.noindex_agents))
            .flatten();
        let form = (host_files.as_ref()).map_or_else(Default::default, |f| f.form());
        Ok(Config {
            host_files,
            threads,
            cpu_threads,
            respect_robots: file.respect_robots.unwrap_or(true),
            host_config,
            hosting: file.hosting,
            audit: false,
            host_headers: file.host_headers,
            changes: changes(&file, &src)?,
            all_changed: overrides.all_changed,
            indexnow: indexnow(&file, &src)?,
            engines: super::engines::engines(&file, &src, base_url.as_str())?,
            robots_agent: robots_agent(&file, &src)?,
            robots_txt: robots_txt(&file, &src, &base_url)?,
            state_file,
            shard,
            shards,
            head,
            public_dir,
            project: base.to_path_buf(),
            output_in_site: overrides.output.is_none(),
            output,
            format,
            gzip,
            extensions: extensions(&file, &src)?,
            documents: documents(&file, &src)?,
            error_pages: error_pages(&file, &src)?,
            url_style: url_style(&file, &form),
            follow_symlinks: file.follow_symlinks.unwrap_or(false),
            max_urls_per_file: max_urls_per_file(&file, &src)?,
            source,
            lastmod,
            unused,
            lastmod_format: file.lastmod_format.unwrap_or_default(),
            rules: rules(&file, &src)?,
            split_language,
            sections,
            images: file.images.unwrap_or(false),
            stylesheet: super::layout::stylesheet(&file, &src, format, &base_url)?,
            views: super::layout::views(&file, &src)?,
            base_url,
        })
    }
}

/// The most threads a run may be given: far beyond any core count, and a bound on
/// what `--threads` can cost (each thread has a stack; the page workers are capped lower,
/// at `MAX_OPEN_FILES`).
pub const MAX_THREADS: usize = 1024;

/// The threads that read the site and the sources when `--threads` is not given: at
/// least this many, whatever the cores. A disk, a virtual one above all, answers many
/// reads at once far sooner than one at a time, so a cold cache wants many readers;
/// with a warm one the extra threads only wait their turn for a core.
pub const READ_THREADS: usize = 16;

/// `--threads`, for reading and for the work on the cores: given (not 0), both; not
/// given, at least [`READ_THREADS`] readers and one thread per core for the rest.
/// Refused past [`MAX_THREADS`].
fn threads(overrides: &Overrides) -> Result<(usize, usize), ConfigError> {
    match overrides.threads {
        Some(n) if n > MAX_THREADS => Err(ConfigError::Value {
            origin: "--threads".to_string(),
            key: "threads".to_string(),
            message: format!(
                "{n} is more than {MAX_THREADS}; give at most {MAX_THREADS}, or 0 for one per core"
            ),
        }),
        Some(n) if n > 0 => Ok((n, n)),
        _ => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Ok((cores.max(READ_THREADS), cores))
        }
    }
}

fn base_url(
    file: &FileConfig,
    src: &Source,
    overrides: &Overrides,
) -> Result<BaseUrl, ConfigError> {
    match (&overrides.base_url, &file.base_url) {
        (Some(url), _) => BaseUrl::parse(url).map_err(|source| ConfigError::BaseUrl {
            origin: "--base-url".to_string(),
            source,
        }),
        (None, Some(url)) => BaseUrl::parse(url.get_ref()).map_err(|source| ConfigError::BaseUrl {
            origin: src.at(url.span()),
            source,
        }),
        (None, None) => Err(ConfigError::Missing {
            key: "base_url",
            hint: "pass --base-url https://example.org/ or set base_url in sitemap.toml",
        }),
    }
}

/// Where the run's public directory lies in the one the config file names, when `DIR`
/// is a folder of it (`docs/`, `/`-terminated), so the sources, which route to paths in
/// the whole output, date its pages; empty otherwise.
fn within_output(file: &FileConfig, base: Option<&Path>, public_dir: &Path) -> String {
    let Some(base) = base else {
        return String::new();
    };
    let site = base.join(file.public_dir.as_deref().unwrap_or(Path::new("public")));
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let (Some(site), Some(run)) = (real(&site), real(public_dir)) else {
        return String::new();
    };
    match run.strip_prefix(&site) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            let mut within = String::from_utf8_lossy(&crate::slash::joined(rel)).into_owned();
            within.push('/');
            within
        }
        _ => String::new(),
    }
}

fn public_dir(
    file: &FileConfig,
    file_at: Option<(&Path, &str)>,
    overrides: &Overrides,
) -> Result<PathBuf, ConfigError> {
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
    let problem = match std::fs::metadata(&public_dir) {
        Ok(m) if m.is_dir() => return Ok(public_dir),
        Ok(_) => {
            "is not a directory; point public_dir at the built site's output directory".to_string()
        }
        Err(e) => format!("cannot be read ({e}); build the site first, or fix public_dir / DIR"),
    };
    Err(ConfigError::PublicDir {
        path: public_dir,
        problem,
    })
}

/// Where the sitemap goes, and whether it is gzipped: a name ending in `.gz` turns gzip
/// on, and with gzip on the name says so (`sitemap.xml` becomes `sitemap.xml.gz`).
fn output(
    file: &FileConfig,
    src: &Source,
    overrides: &Overrides,
    public_dir: &Path,
    format: Format,
) -> Result<(Output, bool), ConfigError> {
    let output = match (&overrides.output, &file.output) {
        (Some(p), _) if p.as_os_str() == "-" => Output::Stdout,
        (Some(p), _) => Output::File(not_a_directory(p, "command line", "--output")?),
        (None, Some(p)) => Output::File(not_a_directory(
            &public_dir.join(inside_public_dir(src, p)?),
            &src.at(p.span()),
            "output",
        )?),
        (None, None) => Output::File(public_dir.join(match format {
            Format::Xml => "sitemap.xml",
            Format::Txt => "sitemap.txt",
        })),
    };
    let gzip = match &output {
        Output::File(path) if path.extension().is_some_and(|e| e == "gz") => true,
        _ => overrides.gzip || file.gzip.unwrap_or(false),
    };
    let output = match output {
        Output::File(path) if gzip && path.extension().is_none_or(|e| e != "gz") => {
            let mut name = path.into_os_string();
            name.push(".gz");
            Output::File(PathBuf::from(name))
        }
        other => other,
    };
    Ok((output, gzip))
}

/// The output path, unless it names a directory (a trailing `/`, or one that exists):
/// the sitemap is a file, and its directory is where split sitemaps go.
fn not_a_directory(path: &Path, origin: &str, key: &str) -> Result<PathBuf, ConfigError> {
    let text = path.to_string_lossy();
    if !text.ends_with('/') && !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    Err(ConfigError::Value {
        origin: origin.to_string(),
        key: key.to_string(),
        message: format!(
            "'{}' is a directory; name the sitemap file, such as \"{}/sitemap.xml\"",
            crate::text::one_line(&text),
            crate::text::one_line(text.trim_end_matches('/'))
        ),
    })
}

/// `output` from the file must stay inside `public_dir` (`--output` may go anywhere).
fn inside_public_dir<'p>(src: &Source, p: &'p Spanned<PathBuf>) -> Result<&'p Path, ConfigError> {
    let rel = p.get_ref();
    let inside = rel
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && rel.components().any(|c| matches!(c, Component::Normal(_)));
    if inside {
        return Ok(rel);
    }
    let message = format!(
        "'{}' must be a file path inside public_dir, such as \"sitemap.xml\" (use --output to write elsewhere)",
        crate::text::path(rel)
    );
    Err(bad_value(src, p.span(), "output", message))
}

/// Whether state is kept for a change list: `changes = true`, or implied by the
/// `"content"` source, which keeps the same state; `changes = false` beside it says two
/// opposite things.
fn changes(file: &FileConfig, src: &Source) -> Result<bool, ConfigError> {
    let content = crate::lastmod::uses(&lastmod_sources(file, src)?, LastmodSource::Content);
    match file.changes {
        Some(false) if content => Err(ConfigError::Value {
            origin: src.origin.clone(),
            key: "changes".to_string(),
            message: "is false, but the \"content\" lastmod source keeps the state a change list needs and always writes one; remove changes = false".to_string(),
        }),
        Some(on) => Ok(on || content),
        None => Ok(content),
    }
}

/// What an IndexNow key is, and how to make one: said by every refusal of a key.
pub(crate) const KEY_RULE: &str =
    "8 to 128 letters, digits or '-' (generate one, e.g. with `openssl rand -hex 16`)";

/// Whether `key` is an IndexNow key: 8 to 128 of `a-z`, `A-Z`, `0-9` and `-`, as the
/// protocol says. The one check of `indexnow_key`, `INDEXNOW_KEY` and `submit --key-file`.
pub(crate) fn is_indexnow_key(key: &str) -> bool {
    (8..=128).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Checks an IndexNow endpoint, from `origin` (a place in the file, or the flag) under
/// `key`: an http(s) URL, so no other scheme is ever asked for. The one check of
/// `indexnow_endpoint` and `submit --endpoint`.
pub(crate) fn indexnow_endpoint(value: &str, origin: String, key: &str) -> Result<(), ConfigError> {
    match url::Url::parse(value) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(()),
        _ => Err(ConfigError::Value {
            origin,
            key: key.to_string(),
            message: format!(
                "'{}' is not an http(s) URL; use e.g. \"{INDEXNOW_ENDPOINT}\"",
                crate::text::one_line(value)
            ),
        }),
    }
}

/// The IndexNow settings; a key from the file or the environment must pass
/// [`is_indexnow_key`].
fn indexnow(file: &FileConfig, src: &Source) -> Result<IndexNow, ConfigError> {
    let bad = |origin: String, key: &str, message: String| ConfigError::Value {
        origin,
        key: key.to_string(),
        message,
    };
    let explain = |k: &str| {
        format!(
            "'{}' is not an IndexNow key: {KEY_RULE}",
            crate::text::one_line(k)
        )
    };
    let key = match (&file.indexnow_key, std::env::var(INDEXNOW_KEY_ENV)) {
        (Some(k), _) if !is_indexnow_key(k.get_ref()) => {
            return Err(bad(src.at(k.span()), "indexnow_key", explain(k.get_ref())));
        }
        (Some(k), _) => Some(k.get_ref().clone()),
        (None, Ok(k)) if !is_indexnow_key(k.trim()) => {
            return Err(bad("environment".into(), INDEXNOW_KEY_ENV, explain(&k)));
        }
        (None, Ok(k)) => Some(k.trim().to_string()),
        (None, Err(_)) => None,
    };
    let key_file = file.indexnow_key_file.unwrap_or(false);
    if key_file && key.is_none() {
        let message = format!(
            "is true, but there is no key: set indexnow_key or the {INDEXNOW_KEY_ENV} environment variable"
        );
        return Err(bad(src.origin.clone(), "indexnow_key_file", message));
    }
    let endpoint = match &file.indexnow_endpoint {
        None => INDEXNOW_ENDPOINT.to_string(),
        Some(e) => {
            indexnow_endpoint(e.get_ref(), src.at(e.span()), "indexnow_endpoint")?;
            e.get_ref().clone()
        }
    };
    Ok(IndexNow {
        key,
        key_file,
        endpoint,
    })
}

fn max_urls_per_file(file: &FileConfig, src: &Source) -> Result<usize, ConfigError> {
    let Some(n) = &file.max_urls_per_file else {
        return Ok(PROTOCOL_MAX_ENTRIES);
    };
    match usize::try_from(*n.get_ref()) {
        Ok(v) if (1..=PROTOCOL_MAX_ENTRIES).contains(&v) => Ok(v),
        _ => {
            let message = format!(
                "{} is outside 1-50000 (the protocol allows at most 50,000 URLs per file)",
                n.get_ref()
            );
            Err(bad_value(src, n.span(), "max_urls_per_file", message))
        }
    }
}

/// `lastmod`: a source name, or a list of them tried in order (`[]` for none).
fn lastmod_sources(file: &FileConfig, src: &Source) -> Result<Vec<LastmodSource>, ConfigError> {
    let Some(value) = &file.lastmod else {
        return Ok(vec![LastmodSource::Meta, LastmodSource::Mtime]);
    };
    let names: Vec<String> = LastmodSource::NAMES
        .iter()
        .map(|(n, _)| format!("\"{n}\""))
        .collect();
    let bad = |what: String| {
        let message = format!("{what}; use one of {} or a list of them", names.join(", "));
        bad_value(src, value.span(), "lastmod", message)
    };
    let one = |v: &toml::Value| match v {
        toml::Value::String(name) => LastmodSource::parse(name).ok_or_else(|| {
            let known = LastmodSource::NAMES.iter().map(|(n, _)| *n);
            let meant = crate::text::closest(name, known)
                .map(|m| format!(" (did you mean \"{m}\"?)"))
                .unwrap_or_default();
            bad(format!(
                "'{}' is not a lastmod source{meant}",
                crate::text::one_line(name)
            ))
        }),
        other => Err(bad(format!("{other} is not a source name"))),
    };
    match value.get_ref() {
        toml::Value::Array(list) if list.is_empty() => Ok(vec![LastmodSource::None]),
        toml::Value::Array(list) => list.iter().map(one).collect(),
        other => one(other).map(|source| vec![source]),
    }
}

fn priority(
    value: &Option<Spanned<f64>>,
    key: &str,
    src: &Source,
) -> Result<Option<Priority>, ConfigError> {
    let Some(value) = value else { return Ok(None) };
    Priority::new(*value.get_ref()).map(Some).ok_or_else(|| {
        let message = format!(
            "priority {} is outside 0.0-1.0; use a value such as 0.5",
            value.get_ref()
        );
        bad_value(src, value.span(), key, message)
    })
}

/// `[defaults]`, `exclude` and every `[[rule]]`, compiled.
fn rules(file: &FileConfig, src: &Source) -> Result<Rules, ConfigError> {
    let defaults = RuleFields {
        changefreq: file.defaults.changefreq,
        priority: priority(&file.defaults.priority, "[defaults] priority", src)?,
        exclude: None,
    };
    let mut specs = Vec::with_capacity(file.rules.len());
    for (i, rule) in file.rules.iter().enumerate() {
        let name = RuleRef::Rule(i + 1);
        if rule.globs.get_ref().0.is_empty() {
            let message = "is an empty list; give at least one glob such as \"blog/**\"";
            let key = format!("{name} match");
            return Err(bad_value(src, rule.globs.span(), &key, message.to_string()));
        }
        specs.push(RuleSpec {
            globs: rule.globs.get_ref().0.clone(),
            fields: RuleFields {
                changefreq: rule.changefreq,
                priority: priority(&rule.priority, &format!("{name} priority"), src)?,
                exclude: rule.exclude,
            },
        });
    }
    let exclude = file
        .exclude
        .as_ref()
        .map(|e| e.get_ref().0.clone())
        .unwrap_or_default();
    Rules::new(defaults, &exclude, &specs).map_err(|source| {
        let span = match source.rule {
            RuleRef::Exclude => file.exclude.as_ref().map(Spanned::span),
            RuleRef::Rule(n) => file.rules.get(n - 1).map(|r| r.globs.span()),
            RuleRef::All | RuleRef::Section(_) => None,
        };
        ConfigError::Glob {
            origin: span.map_or_else(|| src.origin.clone(), |s| src.at(s)),
            source,
        }
    })
}

fn head_rules(file: &FileConfig, src: &Source) -> Result<HeadRules, ConfigError> {
    let noindex_agents = match &file.noindex_agents {
        None => vec!["robots".to_string()],
        Some(list) => {
            let agents: Vec<String> = list
                .get_ref()
                .iter()
                .map(|a| a.trim().to_ascii_lowercase())
                .collect();
            if agents.iter().any(String::is_empty) {
                let message =
                    "holds an empty name; list meta names such as [\"robots\", \"googlebot\"]";
                return Err(bad_value(
                    src,
                    list.span(),
                    "noindex_agents",
                    message.to_string(),
                ));
            }
            agents
        }
    };
    Ok(HeadRules {
        respect_noindex: file.respect_noindex.unwrap_or(true),
        noindex_agents,
        skip_redirects: file.skip_redirects.unwrap_or(true),
        respect_canonical: file.respect_canonical.unwrap_or(true),
        alternates: file.alternates.unwrap_or(true),
    })
}

fn robots_agent(file: &FileConfig, src: &Source) -> Result<String, ConfigError> {
    match &file.robots_agent {
        None => Ok("*".to_string()),
        Some(agent) if agent.get_ref().trim().is_empty() => {
            let message = "is empty; name a user agent such as \"*\" or \"Googlebot\"";
            Err(bad_value(
                src,
                agent.span(),
                "robots_agent",
                message.to_string(),
            ))
        }
        Some(agent) => Ok(agent.get_ref().trim().to_ascii_lowercase()),
    }
}

fn robots_txt(
    file: &FileConfig,
    src: &Source,
    base_url: &BaseUrl,
) -> Result<RobotsTxt, ConfigError> {
    match &file.robots_txt {
        Some(mode) if *mode.get_ref() != RobotsTxt::Leave && !base_url.is_host_root() => {
            let message = format!(
                "needs base_url at the root of its host, but '{}' has a path: crawlers only read /robots.txt",
                base_url.as_str()
            );
            Err(bad_value(src, mode.span(), "robots_txt", message))
        }
        Some(mode) => Ok(*mode.get_ref()),
        None => Ok(RobotsTxt::Leave),
    }
}
