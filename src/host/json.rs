//! `vercel.json` and `firebase.json` (its `hosting`): their `redirects`, their `headers`
//! that set `X-Robots-Tag`, and the URL form their `cleanUrls` and `trailingSlash` set.
//! Both answer a redirect before looking for a file, so a page's own file never shadows
//! one; of several headers rules, the last one to set a header decides. Vercel's `has`
//! and `missing` are read as a crawler's request ([`crawler`]).

mod crawler;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::headers::ROBOTS_TAG;
use super::pattern::Syntax;
use super::rules::{Lines, Origin, Parsed, Redirect, Rule, json_line, robots_effect};
use super::{Reading, UrlForm};

/// The shape both files share, for a Vercel project or a Firebase site.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Site {
    #[serde(default)]
    redirects: Vec<JsonRedirect>,
    #[serde(default)]
    headers: Vec<JsonHeaders>,
    clean_urls: Option<bool>,
    trailing_slash: Option<bool>,
    /// Firebase: the site's folder, relative to `firebase.json`.
    public: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonRedirect {
    source: Option<String>,
    glob: Option<String>,
    regex: Option<String>,
    destination: Option<String>,
    /// Vercel: 308 when true (the default), 307 when false.
    permanent: Option<bool>,
    status_code: Option<u16>,
    /// Firebase: 301 (the default) or 302.
    #[serde(rename = "type")]
    kind: Option<u16>,
    has: Option<Value>,
    missing: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct JsonHeaders {
    source: Option<String>,
    glob: Option<String>,
    regex: Option<String>,
    #[serde(default)]
    headers: Vec<KeyValue>,
    has: Option<Value>,
    missing: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct KeyValue {
    key: String,
    value: String,
}

/// Which host's file, for its defaults and its pattern language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Json {
    Vercel,
    Firebase,
}

/// The rules of a `vercel.json` or `firebase.json` text, read as `reading` says: of
/// several Firebase sites, the one that serves its `public_dir` (by its `public`).
pub(super) fn parse(
    text: &str,
    file: &Path,
    kind: Json,
    reading: &Reading,
) -> Result<Parsed, serde_json::Error> {
    // Lines are counted in the file as written: a block comment made spaces has none.
    let lines = Lines::new(text);
    let stripped;
    let text = match kind {
        Json::Vercel => text,
        Json::Firebase => {
            stripped = without_comments(text);
            stripped.as_deref().unwrap_or(text)
        }
    };
    let (site, texts): (Site, RuleTexts<'_>) = match kind {
        Json::Vercel => (serde_json::from_str(text)?, serde_json::from_str(text)?),
        Json::Firebase => firebase_site(text, file, reading.public_dir)?,
    };
    let file = FileText {
        text,
        file,
        kind,
        reading,
        lines: &lines,
        texts: &texts,
    };
    let mut parsed = Parsed::default();
    file.redirects(&site, &mut parsed);
    file.headers(&site, &mut parsed);
    parsed.form = file.form(&site);
    Ok(parsed)
}

/// One file's text, and what its rules are read with.
struct FileText<'a> {
    text: &'a str,
    file: &'a Path,
    kind: Json,
    reading: &'a Reading<'a>,
    lines: &'a Lines,
    texts: &'a RuleTexts<'a>,
}

impl FileText<'_> {
    /// Whether Vercel's conditions hold for a crawler's request: a rule that cannot be
    /// told, or never applies to a crawler, is passed over.
    fn for_crawlers(&self, has: &Option<Value>, missing: &Option<Value>) -> bool {
        crawler::meets(has.as_ref(), missing.as_ref(), self.reading.site_host) == Some(true)
    }

    /// Where rule `i` of `rules` (`redirects`, `headers`) is, its pattern as `written`.
    fn origin(&self, texts: &[&RawValue], i: usize, written: &str, key: &str) -> Origin {
        let line = json_line(self.text, rule_text(texts, i), written, self.lines);
        Origin::new(self.file, line, format!("{key}[{i}]"))
    }

    fn redirects(&self, site: &Site, parsed: &mut Parsed) {
        for (i, rule) in site.redirects.iter().enumerate() {
            let Some(to) = &rule.destination else {
                continue;
            };
            let pattern = pattern_of(self.kind, &rule.source, &rule.glob, &rule.regex, Some(to));
            let Some((written, syntax)) =
                pattern.filter(|_| self.for_crawlers(&rule.has, &rule.missing))
            else {
                continue;
            };
            let status = match self.kind {
                Json::Vercel => (rule.status_code).unwrap_or(if rule.permanent.unwrap_or(true) {
                    308
                } else {
                    307
                }),
                Json::Firebase => rule.kind.unwrap_or(301),
            };
            let origin = self.origin(&self.texts.redirects, i, written, "redirects");
            let to = to.clone();
            let what = Redirect {
                status,
                force: true,
                to,
            };
            parsed.keep(Rule::new(origin, (None, written), syntax, what));
        }
    }

    fn headers(&self, site: &Site, parsed: &mut Parsed) {
        for (i, rule) in site.headers.iter().enumerate() {
            let pattern = pattern_of(self.kind, &rule.source, &rule.glob, &rule.regex, None);
            let robots = (rule.headers.iter()).find(|h| h.key.eq_ignore_ascii_case(ROBOTS_TAG));
            let (Some((written, syntax)), Some(header)) = (pattern, robots) else {
                continue;
            };
            if !self.for_crawlers(&rule.has, &rule.missing) {
                continue;
            }
            let origin = self.origin(&self.texts.headers, i, written, "headers");
            let what = robots_effect(&header.value, self.reading.agents);
            parsed.keep(Rule::new(origin, (None, written), syntax, what));
        }
    }

    /// The URL form `cleanUrls` and `trailingSlash` set.
    fn form(&self, site: &Site) -> UrlForm {
        let line = key_line(self.text, "cleanUrls", self.lines)
            .or_else(|| key_line(self.text, "trailingSlash", self.lines))
            .unwrap_or(0);
        let slash = site.trailing_slash == Some(true);
        UrlForm {
            trailing_slash: site.trailing_slash,
            clean_urls: site.clean_urls,
            clean_slash: site.clean_urls == Some(true) && slash,
            // Vercel's trailingSlash routes send `/x.y/` to `/x.y` (`@vercel/routing-utils`,
            // `convertTrailingSlash`); Firebase's look for the file.
            dotted_bare: self.kind == Json::Vercel && slash,
            origin: Some(Origin::new(self.file, line, "")),
        }
    }
}

/// The text of rule `i`, empty when unknown.
fn rule_text<'t>(rules: &[&'t RawValue], i: usize) -> &'t str {
    rules.get(i).map_or("", |raw| raw.get())
}

/// The line of a key, when the file writes it (its first place, one search).
fn key_line(text: &str, key: &str, lines: &Lines) -> Option<usize> {
    let needle = serde_json::to_string(key).ok()?;
    let at = text.find(&needle)?;
    Some(lines.of(at))
}

/// `text` with its `//` and `/* */` comments made spaces, as the Firebase CLI reads
/// `firebase.json` (its `cjson`): every other byte keeps its place. `None` when a comment
/// is not closed or a `/` starts none; the text is then parsed as it is, and its error
/// names the place.
fn without_comments(text: &str) -> Option<String> {
    use std::io::Read;
    let settings = json_comments::CommentSettings::c_style();
    let mut out = String::with_capacity(text.len());
    let mut stripped = settings.strip_comments(text.as_bytes());
    stripped.read_to_string(&mut out).ok()?;
    Some(out)
}

/// Where the rules of a site are in the file: each element of its `redirects` and
/// `headers`, as serde_json's parse of the same arrays as [`Site`]'s found it (a slice
/// of the text), to name each rule's line.
#[derive(Debug, Default, Deserialize)]
struct RuleTexts<'a> {
    #[serde(borrow, default)]
    redirects: Vec<&'a RawValue>,
    #[serde(borrow, default)]
    headers: Vec<&'a RawValue>,
}

/// Firebase's `hosting`, which may be one site or several.
#[derive(Debug, Deserialize)]
struct Firebase<'a> {
    #[serde(borrow)]
    hosting: Option<&'a RawValue>,
}

/// A rule's pattern and its language: Vercel's `source` is a `path-to-regexp` pattern;
/// Firebase's `source` or `glob` is a glob, its `regex` an RE2 expression.
fn pattern_of<'a>(
    kind: Json,
    source: &'a Option<String>,
    glob: &'a Option<String>,
    regex: &'a Option<String>,
    destination: Option<&str>,
) -> Option<(&'a str, Syntax)> {
    // superstatic reads a glob with `path-to-regexp` only for a redirect whose
    // destination takes a `:name` (`/(?:^|\/):/`); elsewhere it is `minimatch`'s.
    let names = destination.is_some_and(|to| to.starts_with(':') || to.contains("/:"));
    match kind {
        Json::Vercel => source.as_deref().map(|s| (s, Syntax::PathToRegexp)),
        Json::Firebase => (source.as_deref().or(glob.as_deref()))
            .map(|s| (s, Syntax::Glob { names }))
            .or_else(|| regex.as_deref().map(|s| (s, Syntax::Regex))),
    }
}

/// Firebase's `hosting`: one site, or several, of which the one whose `public` is the
/// output folder (else the first); with where its rules are.
fn firebase_site<'t>(
    text: &'t str,
    file: &Path,
    public_dir: &Path,
) -> Result<(Site, RuleTexts<'t>), serde_json::Error> {
    let hosting = serde_json::from_str::<Firebase<'t>>(text)?.hosting;
    let hosting = hosting.map_or("", |raw| raw.get());
    let sites: Vec<&'t RawValue> = match hosting.as_bytes().first() {
        Some(b'[') => serde_json::from_str(hosting)?,
        Some(b'{') => vec![serde_json::from_str(hosting)?],
        _ => Vec::new(),
    };
    let sites = (sites.iter())
        .map(|raw| {
            Ok((
                serde_json::from_str(raw.get())?,
                serde_json::from_str(raw.get())?,
            ))
        })
        .collect::<Result<Vec<(Site, RuleTexts<'t>)>, serde_json::Error>>()?;
    let dir = file.parent().unwrap_or(Path::new(""));
    let serves = |site: &Site| {
        site.public.as_ref().is_some_and(|p| {
            let p = dir.join(p);
            p == public_dir || same_file::is_same_file(&p, public_dir).unwrap_or(false)
        })
    };
    let at = sites.iter().position(|(site, _)| serves(site)).unwrap_or(0);
    Ok(sites.into_iter().nth(at).unwrap_or_default())
}

#[cfg(test)]
mod tests;
