//! What the host serving the site does with its paths, from the host's own files, read
//! once before the walk: a page it serves with `X-Robots-Tag: noindex`, or answers with a
//! redirect, is one search engines do not index, so it is left out of the sitemap; and
//! the URL form it serves (`cleanUrls`, `trailingSlash`) is the form listed.
//!
//! Which host: `hosting` in `sitemap.toml`, else the project's files say
//! ([`detect`]): `netlify.toml` (Netlify: `_headers`, `_redirects` and `netlify.toml`),
//! `wrangler.toml` (Cloudflare Pages: `_headers`, `_redirects`), `vercel.json`,
//! `firebase.json`. With none of them, `_headers` and `_redirects` are read as Netlify
//! reads them, the format's origin.

mod headers;
mod hosts;
mod json;
mod matcher;
mod netlify;
mod pattern;
mod redirects;
mod rules;
mod serve;
mod serve_json;
mod warning;

use std::path::{Path, PathBuf};

pub use rules::Origin;
use rules::{Effect, Parsed, Redirect, Rules};
pub use serve::{ServeError, Served, serve_noindex};
pub use serve_json::serve_noindex_json;
pub use warning::{HostWarning, Unread};

/// The host's headers file, in the output folder (Netlify, Cloudflare Pages).
pub const HEADERS_FILE: &str = "_headers";
/// The host's redirects file, in the output folder (Netlify, Cloudflare Pages).
pub const REDIRECTS_FILE: &str = "_redirects";
/// Netlify's file, in the project.
pub const NETLIFY_TOML: &str = "netlify.toml";
/// Vercel's file, in the project.
pub const VERCEL_JSON: &str = "vercel.json";
/// Firebase's file, in the project.
pub const FIREBASE_JSON: &str = "firebase.json";

/// The largest host file read; real ones are a few KiB.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// The most rules kept of each kind: past this, the rest are not applied (and said so).
const MAX_RULES: usize = 10_000;
/// The most rules not applied that are named one by one; the rest are counted.
const MAX_NAMED_BAD: usize = 10;

/// The hosts whose files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hosting {
    /// Netlify: `_headers`, `_redirects`, `netlify.toml`.
    Netlify,
    /// Cloudflare Pages: `_headers`, `_redirects`.
    Cloudflare,
    /// Vercel: `vercel.json`.
    Vercel,
    /// Firebase Hosting: `firebase.json`.
    Firebase,
}

impl Hosting {
    /// The name `hosting` takes.
    pub fn name(self) -> &'static str {
        self.described().name
    }
}

/// The URL form a host serves: `None` where it leaves it as the files are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UrlForm {
    /// `trailingSlash`: directories (and Vercel's clean pages) served with a slash.
    pub trailing_slash: Option<bool>,
    /// `cleanUrls`: `about.html` served as `/about`.
    pub clean_urls: Option<bool>,
    /// Both, on Vercel or Firebase: `about.html` served as `/about/`.
    pub clean_slash: bool,
    /// Vercel's `trailingSlash`: a last segment that ends as a file name does (`x.y`) is
    /// served without the slash ([`crate::urls::UrlStyle::dotted_bare`]).
    pub dotted_bare: bool,
    /// Where it is set.
    pub origin: Option<Origin>,
}

impl UrlForm {
    pub(crate) fn or(self, other: UrlForm) -> UrlForm {
        UrlForm {
            trailing_slash: self.trailing_slash.or(other.trailing_slash),
            clean_urls: self.clean_urls.or(other.clean_urls),
            clean_slash: self.clean_slash || other.clean_slash,
            dotted_bare: self.dotted_bare || other.dotted_bare,
            origin: self.origin.or(other.origin),
        }
    }
}

/// The host a project deploys to, and its files that exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The host.
    pub hosting: Hosting,
    /// Whether `hosting` was named by a file of its own (else it is Netlify's format read
    /// alone, or the user's `hosting`).
    pub detected: bool,
    /// Its files that exist, in the order they are read.
    pub files: Vec<PathBuf>,
}

/// Where the host's files are looked for.
#[derive(Debug, Clone, Copy)]
pub struct Places<'a> {
    /// The output folder (`_headers`, `_redirects`).
    pub public_dir: &'a Path,
    /// The project (`netlify.toml`, `vercel.json`, ...): the config file's folder.
    pub project: &'a Path,
    /// The host named in `sitemap.toml`; `None` to detect it.
    pub hosting: Option<Hosting>,
}

/// Which host serves the site, and its files that exist: `None` when there are none.
pub fn detect(places: Places<'_>) -> Option<Found> {
    let named =
        |d: &hosts::Description| d.markers.iter().any(|m| project_file(places, m).is_some());
    let detected = hosts::ALL.iter().find(|d| named(d)).map(|d| d.hosting);
    let hosting = places.hosting.or(detected).unwrap_or(hosts::ALL[0].hosting);
    let files: Vec<PathBuf> = (hosting.described().files.iter())
        .filter_map(|file| match file.place {
            hosts::Place::Output => {
                let path = places.public_dir.join(file.name);
                is_there(&path).then_some(path)
            }
            hosts::Place::Project => project_file(places, file.name),
        })
        .collect();
    let detected = detected.is_some() && places.hosting.is_none_or(|h| Some(h) == detected);
    (!files.is_empty() || detected).then_some(Found {
        hosting,
        detected,
        files,
    })
}

/// A project file: in the project, else beside the output folder.
fn project_file(places: Places<'_>, name: &str) -> Option<PathBuf> {
    let beside = places.public_dir.parent().unwrap_or(Path::new(""));
    [places.project, beside]
        .into_iter()
        .map(|dir| dir.join(name))
        .find(|path| is_there(path))
}

/// Whether a host file is at `path`: anything there but a folder, a symbolic link too.
/// A link is then read as every host file is ([`read_file`]), or refused with a warning
/// naming it; it is never passed over, which took a Vercel project whose `vercel.json`
/// is a link for a Netlify one.
fn is_there(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir())
}

/// The bytes of the host file at `path`, at most `limit`, read as robots.txt is: in the
/// tree of the folder it is in (the project, or the output folder), through a link that
/// stays there and never one that leads out ([`crate::fsutil::Root::open`]), and only
/// a regular file. The one way every host file is read, to apply or to edit.
pub(crate) fn read_file(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let root = crate::fsutil::Root::at(crate::fsutil::parent_dir(path))?;
    let name = Path::new(path.file_name().unwrap_or_default());
    let bytes = root.read(name, limit)?;
    bytes.ok_or_else(|| std::io::ErrorKind::NotFound.into())
}

/// A host file's text: UTF-8, its byte order mark skipped, so it is never taken for
/// part of the first rule (the hosts skip it too).
fn text_of(bytes: Vec<u8>) -> std::io::Result<String> {
    let refused = crate::fsutil::Refused::NotUtf8;
    let text = String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, refused))?;
    Ok(match text.strip_prefix(crate::text::BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Whether the host reads `_headers` for the site: the output folder has one, or the
/// project names a host whose marker says it reads one (`netlify.toml`).
pub fn reads_headers(places: Places<'_>) -> bool {
    is_there(&places.public_dir.join(HEADERS_FILE))
        || detect(places).is_some_and(|found| {
            let own = found.hosting.described().own_headers;
            found.detected && own == hosts::OwnHeaders::HeadersFile { create: true }
        })
}

impl Found {
    /// Whether our views' noindex goes into the host's JSON file in the project
    /// (`vercel.json`, asked by `host_headers = true`) rather than `_headers`.
    pub fn headers_in_project_json(&self) -> bool {
        self.hosting.described().own_headers == hosts::OwnHeaders::VercelJson
    }
}

/// The host's files as read for a run, once: which host, its files, and what they say
/// (the URL form for the config, the rules for [`Host::load`]), with the files that could
/// not be read.
#[derive(Debug, Clone)]
pub struct HostFiles {
    found: Found,
    site_host: String,
    parsed: Parsed,
    /// The files that could not be read or parsed.
    unread: Vec<Unread>,
}

/// Reads the host's files once: `None` when there are none. `base` is the site's URL (a
/// rule for another host does not apply), `agents` the robots names that count.
pub fn read(places: Places<'_>, base: &url::Url, agents: &[String]) -> Option<HostFiles> {
    let found = detect(places)?;
    let site_host = base.host_str().unwrap_or_default().to_lowercase();
    let reading = Reading {
        hosting: found.hosting,
        agents,
        public_dir: places.public_dir,
        site_host: &site_host,
    };
    let mut parsed = Parsed::default();
    let mut unread = Vec::new();
    for file in &found.files {
        match parse_file(file, &reading) {
            Ok(one) => parsed.extend(one),
            Err(e) => unread.push(e),
        }
    }
    parsed.form = served_form(found.hosting, std::mem::take(&mut parsed.form));
    Some(HostFiles {
        found,
        site_host,
        parsed,
        unread,
    })
}

impl HostFiles {
    /// The URL form the host serves, for the config's `trailing_slash` and `clean_urls`
    /// where `sitemap.toml` sets neither. Cloudflare Pages serves `about.html` as
    /// `/about`.
    pub fn form(&self) -> UrlForm {
        self.parsed.form.clone()
    }

    /// The host, and its files that exist.
    pub fn found(&self) -> &Found {
        &self.found
    }
}

/// The URL form the host serves ([`HostFiles::form`]), its files read for it alone.
pub fn url_form(places: Places<'_>) -> UrlForm {
    let base = url::Url::parse("https://example.org/").expect("a valid URL");
    read(places, &base, &[]).map_or_else(UrlForm::default, |files| files.form())
}

/// The form a host serves, from what its files set and what it always does (Cloudflare
/// Pages serves clean URLs).
fn served_form(hosting: Hosting, from_files: UrlForm) -> UrlForm {
    let always = UrlForm {
        clean_urls: hosting.described().clean_urls.then_some(true),
        ..UrlForm::default()
    };
    from_files.or(always)
}

/// The host's rules that leave pages out.
#[derive(Debug)]
pub struct Host {
    /// The site's host, lower-case: a rule for another host's URL does not apply.
    site_host: String,
    hosting: Hosting,
    headers: Option<Rules<Effect>>,
    redirects: Option<Rules<Redirect>>,
    /// The URL form it serves, when its files set one.
    form: UrlForm,
}

/// Why the host leaves a page out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostLeftOut {
    /// Served with `X-Robots-Tag: noindex` by the rule at `origin`.
    Noindex {
        /// The rule.
        origin: Origin,
    },
    /// Answered with a redirect (or, forced, an error status) by the rule at `origin`.
    Redirected {
        /// The rule.
        origin: Origin,
        /// The status it answers with.
        status: u16,
    },
}

impl std::fmt::Display for HostLeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostLeftOut::Noindex { origin } => write!(f, "noindex (host headers: {origin})"),
            HostLeftOut::Redirected { origin, status } if (300..400).contains(status) => {
                write!(f, "redirected ({origin})")
            }
            HostLeftOut::Redirected { origin, status } => {
                write!(f, "served as {status} ({origin})")
            }
        }
    }
}

impl Host {
    /// The host's rules from its files read for the run ([`read`]): `None` when none says
    /// anything of the pages. A file that could not be read, or a rule whose pattern
    /// cannot be matched, is a warning message; the run goes on without it. `style` is
    /// the URL form listed: one the host redirects is a warning.
    pub fn load(
        files: &HostFiles,
        style: &crate::urls::UrlStyle,
    ) -> (Option<Host>, Vec<HostWarning>) {
        let mut all = files.parsed.clone();
        let form = std::mem::take(&mut all.form);
        let mut warnings = form_conflicts(&form, style);
        warnings.extend(files.unread.iter().cloned().map(HostWarning::Unread));
        for (kind, count) in [
            ("headers", all.headers.len()),
            ("redirects", all.redirects.len()),
        ] {
            if count > MAX_RULES {
                warnings.push(HostWarning::TooMany { kind, count });
            }
        }
        all.headers.truncate(MAX_RULES);
        all.redirects.truncate(MAX_RULES);
        let (headers, refused) = Rules::new(all.headers);
        all.bad.extend(refused);
        let (redirects, refused) = Rules::new(all.redirects);
        all.bad.extend(refused);
        warnings.extend(bad_warnings(&all.bad));
        let no_form = form.clean_urls.is_none() && form.trailing_slash.is_none();
        if headers.is_none() && redirects.is_none() && no_form {
            return (None, warnings);
        }
        let host = Host {
            site_host: files.site_host.clone(),
            hosting: files.found.hosting,
            headers,
            redirects,
            form,
        };
        (Some(host), warnings)
    }

    /// What the host does to the page at the absolute URL `url`, when it leaves it out.
    pub fn verdict(&self, url: &str) -> Option<HostLeftOut> {
        let path = url_path(url);
        if let Some(rule) = self.redirect(&path) {
            return Some(HostLeftOut::Redirected {
                origin: rule.origin.clone(),
                status: rule.what.status,
            });
        }
        let described = self.hosting.described();
        let path = match described.headers_encoded {
            true => crate::urls::path_of(url).to_string(),
            false => path,
        };
        let rules = (self.headers.as_ref()?.matching(&self.site_host, &path)).map(|(_, r)| r);
        let origin = rules::noindex(rules, described.joined)?;
        Some(HostLeftOut::Noindex {
            origin: origin.clone(),
        })
    }

    /// What makes the host redirect the URL path `path` to another form of it, when it
    /// does: `cleanUrls` (a `.html` path), `trailingSlash` (a path with or without its
    /// slash). Named for a message: `vercel.json:2`, or `Cloudflare Pages`.
    pub fn redirects_form(&self, path: &str) -> Option<String> {
        let form = &self.form;
        let last = path.rsplit('/').next().unwrap_or_default();
        let html = last.to_ascii_lowercase().ends_with(".html");
        let slashed = path.strip_suffix('/').filter(|p| !p.is_empty());
        let bare_file = |p: &str| {
            let last = p.rsplit('/').next().unwrap_or_default();
            form.dotted_bare && crate::urls::ends_as_file(last.as_bytes())
        };
        let redirects = (form.clean_urls == Some(true) && html)
            || (form.trailing_slash == Some(true) && !path.ends_with('/') && !last.contains('.'))
            || (form.trailing_slash == Some(true) && slashed.is_some_and(bare_file))
            || (form.trailing_slash == Some(false) && slashed.is_some());
        redirects.then(|| match &form.origin {
            Some(origin) => origin.to_string(),
            None => "Cloudflare Pages".to_string(),
        })
    }

    /// The rule that answers a request for the page at `path` with another status, when
    /// one does: the first that matches decides, a rewrite (200) serving the page. On
    /// Netlify a rule does not apply where a file exists (every page is one) unless it is
    /// forced (`301!`). A rule that sends the page to itself redirects it all the same:
    /// the hosts answer it with the redirect, a loop (Cloudflare's asset server and
    /// Netlify's matcher both do).
    fn redirect(&self, path: &str) -> Option<&rules::Rule<Redirect>> {
        let shadows = self.hosting.described().files_shadow;
        let redirects = self.redirects.as_ref()?;
        let (_, rule) = (redirects.matching(&self.site_host, path))
            .find(|(_, rule)| !shadows || rule.what.force)?;
        rules::leaves_out(rule.what.status).then_some(rule)
    }
}

/// The URL form the host serves against the one listed: each key that lists URLs the
/// host redirects (set in `sitemap.toml`, else the host's form is taken) is a warning.
fn form_conflicts(form: &UrlForm, style: &crate::urls::UrlStyle) -> Vec<HostWarning> {
    let by = match &form.origin {
        Some(origin) => origin.to_string(),
        None => "Cloudflare Pages".to_string(),
    };
    [
        (
            "trailing_slash",
            "trailingSlash",
            form.trailing_slash,
            style.trailing_slash,
        ),
        ("clean_urls", "cleanUrls", form.clean_urls, style.clean_urls),
    ]
    .into_iter()
    .filter(|(_, _, host, ours)| host.is_some_and(|h| h != *ours))
    .map(|(key, name, host, ours)| HostWarning::Form {
        by: by.clone(),
        name,
        key,
        host: host.unwrap_or_default(),
        ours,
    })
    .collect()
}

/// The warnings for the rules not applied: the first [`MAX_NAMED_BAD`] named, the rest
/// counted.
fn bad_warnings(bad: &[rules::BadPattern]) -> Vec<HostWarning> {
    let named = bad.iter().take(MAX_NAMED_BAD).cloned();
    let mut warnings: Vec<HostWarning> = named.map(HostWarning::Pattern).collect();
    if bad.len() > MAX_NAMED_BAD {
        warnings.push(HostWarning::MorePatterns(bad.len() - MAX_NAMED_BAD));
    }
    warnings
}

/// What the host's files are read for: the host, the robots names whose `noindex`
/// counts, the output folder, and the site's host (a crawler's request's, for Vercel's
/// `has` and `missing`).
#[derive(Debug, Clone, Copy)]
struct Reading<'a> {
    hosting: Hosting,
    agents: &'a [String],
    public_dir: &'a Path,
    site_host: &'a str,
}

/// Reads and parses one of the host's files; an error is the warning's message.
fn parse_file(file: &Path, reading: &Reading) -> Result<Parsed, Unread> {
    let (hosting, agents) = (reading.hosting, reading.agents);
    let unread = |line, why: String| Unread {
        file: file.to_path_buf(),
        line,
        why,
    };
    let text = (read_file(file, MAX_FILE_BYTES).and_then(text_of))
        .map_err(|e| unread(None, e.to_string()))?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    Ok(match hosting.described().format_of(name) {
        Some(hosts::Format::Headers(syntax)) => headers::parse(&text, file, syntax, agents),
        Some(hosts::Format::Redirects(syntax, status)) => {
            redirects::parse(&text, file, syntax, status)
        }
        Some(hosts::Format::NetlifyToml) => netlify::parse(&text, file, agents).map_err(|e| {
            // toml's message draws the line under its first line.
            unread(
                None,
                e.message().lines().next().unwrap_or_default().to_string(),
            )
        })?,
        Some(hosts::Format::Json(kind)) => json::parse(&text, file, kind, reading)
            .map_err(|e| unread(Some(e.line()), e.to_string()))?,
        None => Parsed::default(),
    })
}

/// The decoded path of an absolute URL (`https://example.org/caf%C3%A9/` → `/café/`),
/// as most of the hosts' rules are matched against it.
fn url_path(url: &str) -> String {
    percent_encoding::percent_decode_str(crate::urls::path_of(url))
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests;
