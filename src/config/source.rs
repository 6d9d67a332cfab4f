//! `[source]`, checked: which generator's routing, or which routes, map the pages to
//! the files they are built from, for the `"source"` lastmod source.

use std::path::{Component, Path, PathBuf};

use toml::Spanned;

use super::ConfigError;
use super::file::{FileConfig, FileSource, Source, bad_value};
use crate::lastmod::source::SourceSettings;

/// `[source]`, checked: required by the `"source"` lastmod source, which it serves.
/// `uses`: `lastmod` names `"source"`.
pub(super) fn source(
    file: &FileConfig,
    src: &Source,
    project: &Path,
    public_dir: &Path,
    uses: bool,
) -> Result<Option<SourceSettings>, ConfigError> {
    let names = crate::generators::ids();
    let Some(table) = &file.source else {
        if uses && let Some(lastmod) = &file.lastmod {
            let message = format!(
                "names \"source\", which needs [source] generator = one of {} (sitemapgen init writes it)",
                names.join(", ")
            );
            return Err(bad_value(src, lastmod.span(), "lastmod", message));
        }
        return Ok(None);
    };
    let routes = routes(table.get_ref(), src)?;
    let generator = match &table.get_ref().generator {
        Some(name) => crate::generators::find(name.get_ref()),
        None => None,
    };
    // Content folders alone: their pages are found by their text.
    if generator.is_none() && routes.is_empty() && table.get_ref().content.is_none() {
        return Err(no_routing(table, src, &names));
    }
    let table = table.get_ref();
    let route_dirs = routes.iter().map(|r| PathBuf::from(r.base()));
    let content = match (&table.content, generator) {
        (Some(content), _) => content_dirs(content, src)?,
        (None, Some(g)) => g.content.iter().map(PathBuf::from).collect(),
        (None, None) => Vec::new(),
    };
    let mut content = content;
    for dir in route_dirs {
        if !content.contains(&dir) {
            content.push(dir);
        }
    }
    let updated = table.updated.clone().unwrap_or_else(|| {
        let keys = generator.map_or(crate::generators::GENERIC_UPDATED, |g| g.updated);
        keys.iter().map(|k| k.to_string()).collect()
    });
    Ok(Some(SourceSettings {
        generator,
        routes,
        project: if project.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            project.to_path_buf()
        },
        content,
        updated,
        permalink: table.permalink.clone(),
        default_language: table.default_language.clone(),
        public_dir: public_dir.to_path_buf(),
        within: String::new(),
        threads: 1,
    }))
}

/// The error for a `[source]` that neither names a known generator nor gives routes.
fn no_routing(table: &Spanned<FileSource>, src: &Source, names: &[&str]) -> ConfigError {
    let Some(name) = &table.get_ref().generator else {
        let message = format!(
            "has no generator; set generator = one of {}, give [[source.route]] tables, or set content = [\"notes\"] to find each page's source by its text",
            names.join(", ")
        );
        return bad_value(src, table.span(), "source", message);
    };
    let meant = crate::text::closest(name.get_ref(), names.iter().copied())
        .map(|m| format!(" (did you mean {m}?)"))
        .unwrap_or_default();
    let message = format!(
        "'{}' is not a generator whose sources are known{meant}; use one of {}, or describe its routes with [[source.route]] from = \"docs/**/*.md\", to = \"/{{path}}/\"",
        crate::text::one_line(name.get_ref()),
        names.join(", ")
    );
    bad_value(src, name.span(), "source.generator", message)
}

/// `[source] content`, checked: folders of the project, so no source outside it is read.
fn content_dirs(content: &[Spanned<PathBuf>], src: &Source) -> Result<Vec<PathBuf>, ConfigError> {
    content
        .iter()
        .map(|dir| match outside_project(dir.get_ref()) {
            None => Ok(dir.get_ref().clone()),
            Some(problem) => {
                let value = crate::text::slashed(dir.get_ref());
                Err(bad_value(
                    src,
                    dir.span(),
                    "source.content",
                    stay_inside(&value, problem),
                ))
            }
        })
        .collect()
}

/// What takes `path` out of the project, if anything: a root (an absolute path, or a
/// drive on Windows) or a step up.
fn outside_project(path: &Path) -> Option<&'static str> {
    path.components().find_map(|part| match part {
        Component::Prefix(_) | Component::RootDir => Some("is an absolute path"),
        Component::ParentDir => Some("leads out of the project (..)"),
        Component::CurDir | Component::Normal(_) => None,
    })
}

/// The message for `value`, a folder that is not the project's: what is wrong, and what
/// to write instead.
fn stay_inside(value: &str, problem: &str) -> String {
    format!(
        "'{}' {problem}; give a folder relative to the project (the config file's folder), such as \"content\"",
        crate::text::one_line(value)
    )
}

/// `[[source.route]]`, each checked: its glob and its URL's placeholders.
fn routes(
    table: &FileSource,
    src: &Source,
) -> Result<Vec<crate::generators::Pattern>, ConfigError> {
    let routes = table.route.as_deref().unwrap_or_default();
    routes
        .iter()
        .map(|r| {
            let pattern = crate::generators::Pattern::new(r.from.get_ref(), r.to.get_ref())
                .map_err(|e| {
                    let span = match e {
                        crate::generators::PatternError::Glob { .. } => r.from.span(),
                        crate::generators::PatternError::To { .. } => r.to.span(),
                    };
                    bad_value(src, span, "source.route", e.to_string())
                })?;
            // Its folder is read as content: it must be the project's too.
            match outside_project(Path::new(r.from.get_ref())) {
                None => Ok(pattern),
                Some(problem) => {
                    let message = stay_inside(r.from.get_ref(), problem);
                    Err(bad_value(src, r.from.span(), "source.route", message))
                }
            }
        })
        .collect()
}
