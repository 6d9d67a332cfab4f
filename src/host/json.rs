//! `vercel.json` and `firebase.json` (its `hosting`): their `redirects`, their `headers`
//! that set `X-Robots-Tag`, and the URL form their `cleanUrls` and `trailingSlash` set.
//! Both answer a redirect before looking for a file, so a page's own file never shadows
//! one; of several headers rules, the last one to set a header decides.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

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
    let site: Site = match kind {
        Json::Vercel => serde_json::from_str(text)?,
        Json::Firebase => firebase_site(serde_json::from_str(text)?, file, public_dir)?,
    };
    let mut parsed = Parsed::default();
    let lines = Lines::new(text);
    let mut cursor = text.find("\"redirects\"").unwrap_or(0);
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
            json_line(text, &lines, written, &mut cursor),
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
    let mut cursor = text.find("\"headers\"").unwrap_or(0);
    for (i, rule) in site.headers.iter().enumerate() {
        let Some((written, syntax)) = pattern_of(kind, &rule.source, &rule.glob, &rule.regex)
        else {
            continue;
        };
        let line = json_line(text, &lines, written, &mut cursor);
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
    let mut cursor = 0;
    let line = json_line_of_key(text, &lines, "cleanUrls", &mut cursor)
        .or_else(|| json_line_of_key(text, &lines, "trailingSlash", &mut 0))
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

/// The line of a key, when the file writes it.
fn json_line_of_key(text: &str, lines: &Lines, key: &str, cursor: &mut usize) -> Option<usize> {
    Some(json_line(text, lines, key, cursor)).filter(|&line| line > 0)
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
/// output folder (else the first).
fn firebase_site(json: Value, file: &Path, public_dir: &Path) -> Result<Site, serde_json::Error> {
    let hosting = json.get("hosting").cloned().unwrap_or(Value::Null);
    let sites: Vec<Site> = match hosting {
        Value::Array(_) => serde_json::from_value(hosting)?,
        Value::Object(_) => vec![serde_json::from_value(hosting)?],
        _ => Vec::new(),
    };
    let dir = file.parent().unwrap_or(Path::new(""));
    let serves = |site: &Site| {
        site.public.as_ref().is_some_and(|p| {
            let p = dir.join(p);
            p == public_dir || same_file::is_same_file(&p, public_dir).unwrap_or(false)
        })
    };
    let at = sites.iter().position(serves).unwrap_or(0);
    Ok(sites.into_iter().nth(at).unwrap_or_default())
}

#[cfg(test)]
mod tests;
