//! `[source]`, checked: which generator's routing, or which routes, map the pages to
//! the files they are built from, for the `"source"` lastmod source.

use std::path::{Path, PathBuf};

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
    if generator.is_none() && routes.is_empty() {
        return Err(no_routing(table, src, &names));
    }
    let table = table.get_ref();
    let route_dirs = routes.iter().map(|r| PathBuf::from(r.base()));
    let content = match (&table.content, generator) {
        (Some(content), _) => content.clone(),
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
        threads: 1,
    }))
}

/// The error for a `[source]` that neither names a known generator nor gives routes.
fn no_routing(table: &Spanned<FileSource>, src: &Source, names: &[&str]) -> ConfigError {
    let Some(name) = &table.get_ref().generator else {
        let message = format!(
            "has no generator; set generator = one of {}, or give [[source.route]] tables",
            names.join(", ")
        );
        return bad_value(src, table.span(), "source", message);
    };
    let meant = crate::text::closest(name.get_ref(), names.iter().copied())
        .map(|m| format!(" (did you mean {m}?)"))
        .unwrap_or_default();
    let message = format!(
        "'{}' is not a generator whose sources are known{meant}; use one of {}, or describe its routes with [[source.route]] from = \"docs/**/*.md\", to = \"/{{path}}/\"",
        crate::one_line(name.get_ref()),
        names.join(", ")
    );
    bad_value(src, name.span(), "source.generator", message)
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
            crate::generators::Pattern::new(r.from.get_ref(), r.to.get_ref()).map_err(|e| {
                let span = match e {
                    crate::generators::PatternError::Glob { .. } => r.from.span(),
                    crate::generators::PatternError::To { .. } => r.to.span(),
                };
                bad_value(src, span, "source.route", e.to_string())
            })
        })
        .collect()
}
