//! `sitemapgen merge`.

use std::path::PathBuf;

use super::MergeArgs;
use crate::Error;
use crate::config::{self, Overrides};
use crate::host::Served;
use crate::shard::{MergeOptions, Merged};

/// Loads the settings, merges, prints what was written; the exit code.
pub(super) fn merge(args: &MergeArgs) -> i32 {
    match run(args) {
        Ok((merged, dir, served)) => {
            let code = if args.json {
                super::finish_stdout(super::report::print_json(&json(&merged)))
            } else {
                0
            };
            if !args.quiet && !args.json {
                report(&merged, &dir);
                super::build::report_served(&mut std::io::stderr().lock(), served.as_ref());
            }
            code
        }
        Err(err) => {
            super::say(format_args!("error: {err}"));
            if args.json {
                // The run failed already: its exit code stands whether or not this
                // line could be written.
                let _ = super::report::print_json(&serde_json::json!({
                    "status": "error",
                    "exit_code": err.exit_code(),
                    "error": err.to_string(),
                }));
            }
            err.exit_code()
        }
    }
}

/// The merge, the directory it wrote to, and what was done to the host's headers.
fn run(args: &MergeArgs) -> Result<(Merged, PathBuf, Option<Served>), Error> {
    let path = super::config_file(args.config.as_deref());
    let overrides = Overrides {
        public_dir: args.output.clone(),
        base_url: args.base_url.clone(),
        gzip: args.gzip,
        ..Overrides::default()
    };
    let config = path.load(&overrides)?;
    let stylesheet = config.stylesheet.as_ref();
    let changes_file = crate::changes::path_beside(&config.state_file);
    // The root index is named by the config and flags, as a build names its sitemap.
    let root = match &config.output {
        config::Output::File(path) => path.file_name().map(|n| n.to_string_lossy()),
        config::Output::Stdout => None,
    };
    let root = root.unwrap_or_default();
    let options = MergeOptions {
        manifests: &args.manifests,
        base_url: &config.base_url,
        dir: &config.public_dir,
        root: &root,
        lastmod_format: config.lastmod_format,
        stylesheet: stylesheet.map(|s| s.href.as_str()),
        robots_txt: config.robots_txt,
        changes_file: &changes_file,
        views: &config.views,
        declared: &config.shards,
    };
    let merged = crate::shard::check(&options)?;
    // Before the index that links to it, so it is never linked while missing.
    if stylesheet.is_some_and(|s| s.bundled) {
        crate::stylesheet::write_bundled(&config.public_dir)?;
    }
    let merged = crate::shard::write_merged(&options, merged)?;
    // The views are the merge's: so are their noindex lines, as a plain build adds them.
    let served = crate::generate::serve_own_files(&config)?;
    Ok((merged, config.public_dir, served))
}

/// The summary, then a line per robots.txt change and the change list.
fn report(merged: &Merged, dir: &std::path::Path) {
    let root = merged
        .indexes
        .first()
        .map(|p| crate::text::slashed(p))
        .unwrap_or_default();
    let more = match merged.indexes.len() {
        1 => String::new(),
        n => format!(
            " and {} more",
            crate::text::count(n - 1, "index", "indexes")
        ),
    };
    super::say(format_args!(
        "wrote {root}{more}: {} of {}, {}",
        crate::text::count(merged.children, "sitemap", "sitemaps"),
        crate::text::count(merged.shards, "shard", "shards"),
        crate::text::count(merged.urls as usize, "URL", "URLs"),
    ));
    for path in &merged.removed {
        super::say(format_args!(
            "removed {}, an index no longer needed",
            crate::text::path(path)
        ));
    }
    let robots = dir.join("robots.txt");
    for (url, announced) in merged.index_urls.iter().zip(&merged.robots) {
        if let Some(line) = super::build::robots_line(&robots, url, announced) {
            super::say(line);
        }
    }
    if let Some(views) = &merged.views {
        // (merge has no -v: every warning is printed.)
        super::build::report_views(&mut std::io::stderr().lock(), views, false, true);
    }
    if let Some((path, changes)) = &merged.changes {
        super::say(format_args!(
            "change list {}: {}",
            crate::text::path(path),
            changes.describe()
        ));
    }
}

/// The summary, for `--json`.
fn json(merged: &Merged) -> serde_json::Value {
    serde_json::json!({
        "status": "ok",
        "indexes": merged.indexes,
        "removed": merged.removed,
        "shards": merged.shards,
        "sitemaps": merged.children,
        "urls": merged.urls,
        "views": merged.views.as_ref().map(super::build::views_json),
        "changes": merged.changes.as_ref().map(|(path, c)| serde_json::json!({
            "path": path,
            "first_run": c.first_run,
            "added": c.added.len(),
            "updated": c.updated.len(),
            "removed": c.removed.len(),
        })),
    })
}
