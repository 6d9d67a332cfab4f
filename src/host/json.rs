//! `vercel.json` and `firebase.json` (its `hosting`): their `redirects`, their `headers`
//! that set `X-Robots-Tag`, and the URL form their `cleanUrls` and `trailingSlash` set.
//! Both answer a redirect before looking for a file, so a page's own file never shadows
//! one; of several headers rules, the last one to set a header decides.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::UrlForm;
use super::headers::ROBOTS_TAG;
use super::pattern::{Pattern, Syntax};
use super::rules::{
    BadPattern, Lines, Origin, Parsed, Redirect, Rule, json_line, robots_effect, shown,
};

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

/// The rules of a `vercel.json` or `firebase.json` text. `public_dir` picks, of several
/// Firebase sites, the one that serves it (by its `public`), relative to `project`.
pub(super) fn parse(
    text: &str,
    file: &Path,
    kind: Json,
    agents: &[String],
    public_dir: &Path,
) -> Result<Parsed, serde_json::Error> {
    let (site, texts): (Site, RuleTexts<'_>) = match kind {
        Json::Vercel => (serde_json::from_str(text)?, serde_json::from_str(text)?),
        Json::Firebase => firebase_site(text, file, public_dir)?,
    };
    let mut parsed = Parsed::default();
    let lines = Lines::new(text);
    for (i, rule) in site.redirects.iter().enumerate() {
        let (Some(to), None, None) = (&rule.destination, &rule.has, &rule.missing) else {
            continue;
        };
        let Some((written, syntax)) = pattern_of(kind, &rule.source, &rule.glob, &rule.regex)
        else {
            continue;
        };
        let status = match kind {
            Json::Vercel => rule
                .status_code
                .unwrap_or(if rule.permanent.unwrap_or(true) {
                    308
                } else {
                    307
                }),
            Json::Firebase => rule.kind.unwrap_or(301),
        };
        let origin = origin(
            file,
            json_line(text, rule_text(&texts.redirects, i), written, &lines),
            format!("redirects[{i}]"),
        );
        match Pattern::new(written, syntax) {
            Ok(pattern) => parsed.redirects.push(Rule {
                origin,
                pattern,
                written: shown(written),
                host: None,
                what: Redirect {
                    status,
                    force: true,
                    to: to.clone(),
                },
            }),
            Err(e) => parsed.bad.push(BadPattern::new(origin, written, e)),
        }
    }
    for (i, rule) in site.headers.iter().enumerate() {
        let Some((written, syntax)) = pattern_of(kind, &rule.source, &rule.glob, &rule.regex)
        else {
            continue;
        };
        let line = json_line(text, rule_text(&texts.headers, i), written, &lines);
        let robots = rule
            .headers
            .iter()
            .find(|h| h.key.eq_ignore_ascii_case(ROBOTS_TAG));
        let (Some(header), None, None) = (robots, &rule.has, &rule.missing) else {
            continue;
        };
        let origin = origin(file, line, format!("headers[{i}]"));
        match Pattern::new(written, syntax) {
            Ok(pattern) => parsed.headers.push(Rule {
                origin,
                pattern,
                written: shown(written),
                host: None,
                what: robots_effect(&header.value, agents),
            }),
            Err(e) => parsed.bad.push(BadPattern::new(origin, written, e)),
        }
    }
    let line = key_line(text, "cleanUrls")
        .or_else(|| key_line(text, "trailingSlash"))
        .unwrap_or(0);
    parsed.form = UrlForm {
        trailing_slash: site.trailing_slash,
        clean_urls: site.clean_urls,
        clean_slash: site.clean_urls == Some(true) && site.trailing_slash == Some(true),
        origin: Some(origin(file, line, String::new())),
    };
    Ok(parsed)
}

fn origin(file: &Path, line: usize, key: String) -> Origin {
    Origin {
        file: file.to_path_buf(),
        line,
        key,
    }
}

/// The text of rule `i`, empty when unknown.
fn rule_text<'t>(rules: &[&'t RawValue], i: usize) -> &'t str {
    rules.get(i).map_or("", |raw| raw.get())
}

/// The line of a key, when the file writes it (its first place, one search).
fn key_line(text: &str, key: &str) -> Option<usize> {
    let needle = serde_json::to_string(key).ok()?;
    let at = text.find(&needle)?;
    Some(Lines::new(text).of(at))
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
) -> Option<(&'a str, Syntax)> {
    match kind {
        Json::Vercel => source.as_deref().map(|s| (s, Syntax::PathToRegexp)),
        Json::Firebase => (source.as_deref().or(glob.as_deref()))
            .map(|s| (s, Syntax::Glob))
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
