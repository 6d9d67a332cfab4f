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
mod json;
mod matcher;
mod netlify;
mod pattern;
mod redirects;
mod rules;
mod serve;
mod serve_json;

use std::path::{Path, PathBuf};

pub use rules::Origin;
use rules::{Effect, Parsed, Redirect, Rules};
pub use serve::{ServeError, Served, serve_noindex};
pub use serve_json::serve_noindex_json;

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
/// Cloudflare's files, in the project: one says the site is deployed there.
pub const WRANGLER_FILES: [&str; 3] = ["wrangler.toml", "wrangler.json", "wrangler.jsonc"];

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
        match self {
            Hosting::Netlify => "netlify",
            Hosting::Cloudflare => "cloudflare",
            Hosting::Vercel => "vercel",
            Hosting::Firebase => "firebase",
        }
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
    /// Where it is set.
    pub origin: Option<Origin>,
}

impl UrlForm {
    pub(crate) fn or(self, other: UrlForm) -> UrlForm {
        UrlForm {
            trailing_slash: self.trailing_slash.or(other.trailing_slash),
            clean_urls: self.clean_urls.or(other.clean_urls),
            clean_slash: self.clean_slash || other.clean_slash,
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
    let marker = |name: &str| project_file(places, name);
    let detected = [
        (Hosting::Netlify, marker(NETLIFY_TOML).is_some()),
        (
            Hosting::Cloudflare,
            WRANGLER_FILES.iter().any(|f| marker(f).is_some()),
        ),
        (Hosting::Vercel, marker(VERCEL_JSON).is_some()),
        (Hosting::Firebase, marker(FIREBASE_JSON).is_some()),
    ]
    .into_iter()
    .find_map(|(hosting, found)| found.then_some(hosting));
    let hosting = places.hosting.or(detected).unwrap_or(Hosting::Netlify);
    let in_output = |name: &str| {
        let path = places.public_dir.join(name);
        is_there(&path).then_some(path)
    };
    let files: Vec<PathBuf> = match hosting {
        Hosting::Netlify => [
            in_output(HEADERS_FILE),
            in_output(REDIRECTS_FILE),
            marker(NETLIFY_TOML),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Hosting::Cloudflare => [in_output(HEADERS_FILE), in_output(REDIRECTS_FILE)]
            .into_iter()
            .flatten()
            .collect(),
        Hosting::Vercel => marker(VERCEL_JSON).into_iter().collect(),
        Hosting::Firebase => marker(FIREBASE_JSON).into_iter().collect(),
    };
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
/// project deploys to Netlify (`netlify.toml`), which reads it beside `netlify.toml`.
pub fn reads_headers(places: Places<'_>) -> bool {
    is_there(&places.public_dir.join(HEADERS_FILE))
        || (places.hosting.is_none_or(|h| h == Hosting::Netlify)
            && project_file(places, NETLIFY_TOML).is_some())
}

/// The URL form the host serves, for the config's `trailing_slash` and `clean_urls`
/// where `sitemap.toml` sets neither. Cloudflare Pages serves `about.html` as `/about`.
pub fn url_form(places: Places<'_>) -> UrlForm {
    let Some(found) = detect(places) else {
        return UrlForm::default();
    };
    let mut form = UrlForm::default();
    for file in &found.files {
        if let Ok(parsed) = parse_file(file, found.hosting, &[], places.public_dir) {
            form = form.or(parsed.form);
        }
    }
    served_form(found.hosting, form)
}

/// The form a host serves, from what its files set: Cloudflare Pages always serves
/// clean URLs.
fn served_form(hosting: Hosting, from_files: UrlForm) -> UrlForm {
    if hosting != Hosting::Cloudflare {
        return from_files;
    }
    from_files.or(UrlForm {
        clean_urls: Some(true),
        ..UrlForm::default()
    })
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

/// What the host's files are read with.
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    /// Where they are.
    pub places: Places<'a>,
    /// The site's base URL: a rule for another host does not apply.
    pub base: &'a url::Url,
    /// The robots names whose `noindex` counts (`noindex_agents`).
    pub agents: &'a [String],
    /// The URL form listed (`trailing_slash`, `clean_urls`): one the host redirects is
    /// a warning.
    pub style: &'a crate::urls::UrlStyle,
}

impl Host {
    /// Reads the host's files: `None` when there are none, or none says anything of the
    /// pages. A file that cannot be read, or a rule whose pattern cannot, is a warning
    /// message; the run goes on without it.
    pub fn load(settings: Settings<'_>) -> (Option<Host>, Vec<String>) {
        let mut warnings = Vec::new();
        let Some(found) = detect(settings.places) else {
            return (None, warnings);
        };
        let mut all = Parsed::default();
        for file in &found.files {
            match parse_file(
                file,
                found.hosting,
                settings.agents,
                settings.places.public_dir,
            ) {
                Ok(parsed) => all.extend(parsed),
                Err(e) => warnings.push(format!("{e}; its rules are not applied")),
            }
        }
        // The form from the files just parsed: each file is read once.
        let form = served_form(found.hosting, std::mem::take(&mut all.form));
        warnings.splice(0..0, form_conflicts(&form, settings.style));
        for (kind, n) in [
            ("headers", all.headers.len()),
            ("redirects", all.redirects.len()),
        ] {
            if n > MAX_RULES {
                warnings.push(format!(
                    "the host's files hold {n} {kind} rules; the first {MAX_RULES} are applied"
                ));
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
            site_host: settings.base.host_str().unwrap_or_default().to_lowercase(),
            hosting: found.hosting,
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
        let rules = (self.headers.as_ref()?.matching(&self.site_host, &path)).map(|(_, r)| r);
        // Netlify and Cloudflare join a header set twice; Vercel and Firebase keep the last.
        let add_up = matches!(self.hosting, Hosting::Netlify | Hosting::Cloudflare);
        let origin = rules::noindex(rules, add_up)?;
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
        let redirects = (form.clean_urls == Some(true) && html)
            || (form.trailing_slash == Some(true) && !path.ends_with('/') && !last.contains('.'))
            || (form.trailing_slash == Some(false) && path.ends_with('/') && path != "/");
        redirects.then(|| match &form.origin {
            Some(origin) => origin.to_string(),
            None => "Cloudflare Pages".to_string(),
        })
    }

    /// The rule that answers a request for the page at `path` with another status, when
    /// one does: the first that matches decides, a rewrite (200) serving the page. On
    /// Netlify a rule does not apply where a file exists (every page is one) unless it is
    /// forced (`301!`); a rule that sends the page to itself does not redirect it.
    fn redirect(&self, path: &str) -> Option<&rules::Rule<Redirect>> {
        let shadows = self.hosting == Hosting::Netlify;
        let redirects = self.redirects.as_ref()?;
        for (i, rule) in redirects.matching(&self.site_host, path) {
            if shadows && !rule.what.force {
                continue;
            }
            let to = redirects.expand(i, path, &rule.what.to).unwrap_or_default();
            if self.is_same_page(&to, path) {
                continue;
            }
            return rules::leaves_out(rule.what.status).then_some(rule);
        }
        None
    }

    /// Whether a destination is the page at `path` itself (a slash apart).
    fn is_same_page(&self, to: &str, path: &str) -> bool {
        let to_path = match headers::split_url(to) {
            Some((Some(host), p)) if host == self.site_host => p,
            Some((None, p)) => p,
            _ => return false,
        };
        let to_path = to_path.split(['?', '#']).next().unwrap_or(to_path);
        let decoded = percent_encoding::percent_decode_str(to_path).decode_utf8_lossy();
        decoded.trim_end_matches('/') == path.trim_end_matches('/')
    }
}

/// The URL form the host serves against the one listed: each key that lists URLs the
/// host redirects (set in `sitemap.toml`, else the host's form is taken) is a warning.
fn form_conflicts(form: &UrlForm, style: &crate::urls::UrlStyle) -> Vec<String> {
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
    .map(|(key, name, host, ours)| {
        format!(
            "{by} serves {name}: {}, but {key} = {ours} lists URLs the host redirects; \
             remove {key} from sitemap.toml",
            host.unwrap_or_default()
        )
    })
    .collect()
}

/// The warnings for the rules not applied: the first [`MAX_NAMED_BAD`] named, the rest
/// counted.
fn bad_warnings(bad: &[rules::BadPattern]) -> Vec<String> {
    let mut warnings: Vec<String> = (bad.iter().take(MAX_NAMED_BAD))
        .map(|bad| format!("{bad}; that rule is not applied"))
        .collect();
    if bad.len() > MAX_NAMED_BAD {
        warnings.push(format!(
            "{} more of the host's rules are not applied for their patterns (the first {MAX_NAMED_BAD} are named above)",
            crate::text::thousands(bad.len() - MAX_NAMED_BAD)
        ));
    }
    warnings
}

/// Reads and parses one of the host's files; an error is the warning's message.
fn parse_file(
    file: &Path,
    hosting: Hosting,
    agents: &[String],
    public_dir: &Path,
) -> Result<Parsed, String> {
    let text = read_file(file, MAX_FILE_BYTES)
        .and_then(text_of)
        .map_err(|e| {
            format!(
                "{}: {e}",
                crate::text::one_line(&file.display().to_string())
            )
        })?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let netlify = hosting == Hosting::Netlify;
    let mut parsed = Parsed::default();
    match name {
        HEADERS_FILE => {
            let syntax = if netlify {
                pattern::Syntax::Netlify { ignore_case: true }
            } else {
                pattern::Syntax::Cloudflare
            };
            (parsed.headers, parsed.bad) = headers::parse(&text, file, syntax, agents);
        }
        REDIRECTS_FILE => {
            let (syntax, status) = if netlify {
                (pattern::Syntax::Netlify { ignore_case: false }, 301)
            } else {
                (pattern::Syntax::Cloudflare, 302)
            };
            (parsed.redirects, parsed.bad) = redirects::parse(&text, file, syntax, status);
        }
        NETLIFY_TOML => {
            parsed = netlify::parse(&text, file, agents).map_err(|e| toml_error(file, &e))?
        }
        VERCEL_JSON | FIREBASE_JSON => {
            let kind = if name == VERCEL_JSON {
                json::Json::Vercel
            } else {
                json::Json::Firebase
            };
            parsed = json::parse(&text, file, kind, agents, public_dir)
                .map_err(|e| format!("{}:{}: {e}", file.display(), e.line()))?;
        }
        _ => {}
    }
    Ok(parsed)
}

fn toml_error(file: &Path, e: &toml::de::Error) -> String {
    let message = e.message().lines().next().unwrap_or_default().to_string();
    format!("{}: {message}", file.display())
}

/// The decoded path of an absolute URL (`https://example.org/caf%C3%A9/` → `/café/`),
/// as the hosts match their patterns against it.
fn url_path(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("/", |i| &after_scheme[i..]);
    let path = path.split(['?', '#']).next().unwrap_or(path);
    percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests;
