//! `sitemapgen build`, the default command.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use super::check::print_report;
use super::report::{
    Counted, build_json, print_collected, print_json, report_json, summary, with_progress,
};
use super::{BuildArgs, FormatArg};
use crate::check::CheckOptions;
use crate::config::{self, Config, Overrides};
use crate::robots::Announced;
use crate::sitemap::Written;
use crate::views;
use crate::{Collection, Details, Error};

pub(super) fn is_broken_pipe(err: &Error) -> bool {
    matches!(err, Error::Write(crate::sitemap::WriteError::Io(e))
        if e.source.kind() == io::ErrorKind::BrokenPipe)
}

/// Flags that together cannot mean what they say, refused before the walk: one would
/// undo the other in silence.
#[derive(Debug, thiserror::Error)]
pub(super) enum Refused {
    /// The check reads what was written, and a dry run writes nothing.
    #[error("--check checks the sitemap written, and --dry-run writes none; drop one of them")]
    CheckDryRun,
    /// The change list is not written on a dry run.
    #[error(
        "--all-changed marks every URL changed in the change list, and --dry-run writes none; drop one of them"
    )]
    AllChangedDryRun,
    /// The check reads files, and standard output is none.
    #[error(
        "--check checks the files written, and --output - writes to standard output; write to a file (--output sitemap.xml), or drop --check"
    )]
    CheckStdout,
    /// Two documents on one stream could not be told apart.
    #[error(
        "--json and --output - both write to standard output; write the sitemap to a file (--output sitemap.xml)"
    )]
    JsonStdout,
    /// Compressed bytes are no use on a terminal, and can upset it.
    #[error(
        "--gzip with --output - would print compressed bytes on the terminal; redirect standard output (> sitemap.xml.gz), or drop --gzip"
    )]
    GzipTerminal,
}

impl Refused {
    /// The first combination of `args` refused, if any; `terminal`: standard output is
    /// a terminal.
    pub(super) fn of(args: &BuildArgs, terminal: bool) -> Option<Refused> {
        let stdout = args.output.as_deref() == Some(Path::new("-"));
        let refused = [
            (args.check && args.dry_run, Refused::CheckDryRun),
            (args.all_changed && args.dry_run, Refused::AllChangedDryRun),
            (args.check && stdout, Refused::CheckStdout),
            (args.json && stdout, Refused::JsonStdout),
            (
                args.gzip && stdout && terminal && !args.dry_run,
                Refused::GzipTerminal,
            ),
        ];
        refused
            .into_iter()
            .find_map(|(yes, refused)| yes.then_some(refused))
    }
}

pub(super) fn build(args: &BuildArgs, start: Instant) -> Result<(), Error> {
    let config = load(args)?;
    let (collection, unwritable) = collect(args, &config, start)?;
    let stderr = &mut io::stderr().lock();
    let collected = start.elapsed();
    // Every page left out, or wrong canonicals, too: -v shows each page and why.
    print_collected(stderr, &config, &collection, args.verbose);
    if let Some(err) = unwritable {
        return Err(err);
    }
    if args.dry_run {
        return dry_run(args, &collection, start, collected);
    }
    let outcome = crate::write(&config, &collection, &mut io::stdout().lock())?;
    let wrote = start.elapsed() - collected;
    let quiet = args.quiet || args.json;
    if args.verbose
        && let Some(written) = &outcome.written
    {
        for removed in &written.removed {
            super::say_to(
                stderr,
                format_args!("removed stale {}", crate::text::path(removed)),
            );
        }
        if let Some(path) = &outcome.stylesheet {
            super::say_to(
                stderr,
                format_args!("stylesheet {}", crate::text::path(path)),
            );
        }
    }
    if let Some(views) = &outcome.views {
        report_views(stderr, views, quiet, args.verbose);
    }
    if !quiet {
        if let Some(written) = &outcome.written {
            report_other_form(stderr, written);
        }
        report_others(stderr, &config, &outcome.others, args.verbose);
        report_robots(stderr, &config, &outcome);
        let what = what_was_written(outcome.written.as_ref());
        super::say_to(
            stderr,
            format_args!("{what}: {}", summary(&collection, start.elapsed())),
        );
    }
    let run = Run {
        args,
        collection: &collection,
        start,
        phases: vec![("collect", collected), ("write", wrote)],
        stylesheet: outcome.stylesheet.as_deref(),
        views: outcome.views.as_ref(),
    };
    match &outcome.written {
        Some(written) if args.check => check_written(&config, written, run),
        written => {
            if args.json {
                print_json(&run.json(written.as_ref())).map_err(stdout_error)?;
            }
            Ok(())
        }
    }
}

/// What a finished build reports from.
struct Run<'a> {
    args: &'a BuildArgs,
    collection: &'a Collection,
    start: Instant,
    phases: Vec<(&'static str, std::time::Duration)>,
    /// The bundled stylesheet, when it was written.
    stylesheet: Option<&'a std::path::Path>,
    /// The views, when any was written.
    views: Option<&'a views::Written>,
}

impl Run<'_> {
    /// The JSON summary of the run.
    fn json(&self, written: Option<&Written>) -> serde_json::Value {
        let elapsed = self.start.elapsed();
        let mut value = build_json(self.collection, written, false, &self.phases, elapsed);
        if let Some(path) = self.stylesheet {
            value["stylesheet"] = crate::text::slashed(path).into();
        }
        if let Some(views) = self.views {
            value["views"] = views_json(views);
        }
        value
    }
}

/// The configuration: the file (given, or `sitemap.toml` if there is one) and the flags.
fn load(args: &BuildArgs) -> Result<Config, Error> {
    let config_path = super::config_file(args.config.as_deref());
    let overrides = Overrides {
        public_dir: args.dir.clone(),
        base_url: args.base_url.clone(),
        output: args.output.clone(),
        threads: args.threads,
        gzip: args.gzip,
        format: args.format.map(|f| match f {
            FormatArg::Xml => config::Format::Xml,
            FormatArg::Txt => config::Format::Txt,
        }),
        all_changed: args.all_changed,
        shard: args.shard.clone(),
    };
    let mut config = config_path.load(&overrides)?;
    // The flag is refused before loading (Refused::GzipTerminal); the file's key here.
    let to_terminal = config.output == config::Output::Stdout && io::stdout().is_terminal();
    if config.gzip && to_terminal && !args.gzip && !args.dry_run {
        let origin = config_path
            .path
            .as_deref()
            .unwrap_or(Path::new("sitemap.toml"));
        return Err(config::ConfigError::Value {
            origin: crate::text::path(origin).to_string(),
            key: "gzip".to_string(),
            message: "is true, and --output - would print compressed bytes on the terminal; redirect standard output (> sitemap.xml.gz), or set gzip = false".to_string(),
        }
        .into());
    }
    // The audit reads each page's title and size as the walk meets it.
    config.audit = args.check;
    Ok(config)
}

/// Collects, with a progress bar on another thread when a person is watching; the
/// collection comes with the error that keeps it from being written, if any.
fn collect(
    args: &BuildArgs,
    config: &Config,
    start: Instant,
) -> Result<(Collection, Option<Error>), Error> {
    let progress = crate::Progress::default();
    let counted = Counted {
        total: &progress.pages,
        done: &progress.done,
        waiting: "walking the site",
        noun: "pages",
    };
    let details = if args.verbose {
        Details::Keep
    } else {
        Details::Drop
    };
    with_progress(args.quiet || args.json, counted, start, || {
        crate::collect_with_progress(config, details, &progress)
    })
}

/// `--dry-run`: the URLs on stdout (or the JSON summary), nothing written.
fn dry_run(
    args: &BuildArgs,
    collection: &Collection,
    start: Instant,
    collected: std::time::Duration,
) -> Result<(), Error> {
    if args.json {
        let phases = [("collect", collected)];
        print_json(&build_json(
            collection,
            None,
            true,
            &phases,
            start.elapsed(),
        ))
        .map_err(stdout_error)?;
        return Ok(());
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    for entry in collection.entries.iter() {
        writeln!(out, "{}", entry.loc()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    if !args.quiet {
        let line = summary(collection, start.elapsed());
        super::say(format_args!("dry run: {line}; nothing written"));
    }
    Ok(())
}

/// The views written, in a line, after a warning for each page the full text or the
/// twins passed over (even when quiet, as the run's other warnings are; all with
/// `verbose`, else [`super::report::print_warnings`]'s bound).
pub(super) fn report_views(
    stderr: &mut impl Write,
    written: &views::Written,
    quiet: bool,
    verbose: bool,
) {
    let mut parts = Vec::new();
    if let Some(path) = &written.html {
        parts.push(crate::text::slashed(path));
    }
    if let Some((path, listed)) = &written.llms {
        let pages = crate::text::count(*listed, "page", "pages");
        parts.push(format!("{} ({pages})", crate::text::path(path)));
    }
    if let Some(full) = &written.llms_full {
        let lines = (full.passed_over.iter()).map(|(page, why)| {
            let name = views::LLMS_FULL.name;
            format!("{}: left out of {name}: {why}", crate::text::path(page))
        });
        super::report::print_warnings(stderr, lines, |_| (), verbose);
        let pages = crate::text::count(full.pages, "page", "pages");
        parts.push(format!("{} ({pages})", crate::text::path(&full.path)));
    }
    for (path, listed) in &written.llms_sections {
        let pages = crate::text::count(*listed, "page", "pages");
        parts.push(format!("{} ({pages})", crate::text::path(path)));
    }
    if let Some(twins) = &written.twins {
        let lines = (twins.passed_over.iter())
            .map(|(page, why)| format!("{}: no Markdown twin: {why}", crate::text::path(page)));
        super::report::print_warnings(stderr, lines, |_| (), verbose);
        let count = crate::text::count(twins.written, "Markdown twin", "Markdown twins");
        parts.push(count);
    }
    let mut said = match parts.is_empty() {
        true => Vec::new(),
        false => vec![format!("wrote {}", parts.join(", "))],
    };
    if !written.removed.is_empty() {
        let files = crate::text::count(written.removed.len(), "file", "files");
        said.push(format!(
            "removed {files} of earlier views (a page gone, or a view turned off)"
        ));
    }
    if !quiet && !said.is_empty() {
        super::say_to(stderr, format_args!("{}", said.join(", ")));
    }
}

/// The views written, for `--json`.
pub(super) fn views_json(written: &views::Written) -> serde_json::Value {
    let mut value = serde_json::json!({});
    if let Some(path) = &written.html {
        value["html"] = crate::text::slashed(path).into();
    }
    if let Some((path, listed)) = &written.llms {
        value["llms"] = serde_json::json!({"path": crate::text::slashed(path), "pages": listed});
    }
    if let Some(full) = &written.llms_full {
        let passed: Vec<_> = full
            .passed_over
            .iter()
            .map(|(p, why)| serde_json::json!({"path": crate::text::slashed(p), "why": why}))
            .collect();
        value["llms_full"] = serde_json::json!({
            "path": crate::text::slashed(&full.path),
            "pages": full.pages,
            "passed_over": passed,
        });
    }
    if !written.llms_sections.is_empty() {
        let sections: Vec<_> = (written.llms_sections.iter())
            .map(|(p, n)| serde_json::json!({"path": crate::text::slashed(p), "pages": n}))
            .collect();
        value["llms_sections"] = sections.into();
    }
    if let Some(twins) = &written.twins {
        let passed: Vec<_> = (twins.passed_over.iter())
            .map(|(p, why)| serde_json::json!({"path": crate::text::slashed(p), "why": why}))
            .collect();
        value["twins"] = serde_json::json!({"written": twins.written, "passed_over": passed});
    }
    if !written.removed.is_empty() {
        let removed: Vec<_> = written
            .removed
            .iter()
            .map(|p| crate::text::slashed(p))
            .collect();
        value["removed"] = removed.into();
    }
    value
}

/// The set of the output's other form removed, in a line: an earlier run's with `gzip`
/// the other way, or the generator's own at that name.
fn report_other_form(stderr: &mut impl Write, written: &Written) {
    let Some((root, children)) = written.other_form.split_last() else {
        return;
    };
    let gzipped = written.path.extension().is_some_and(|e| e == "gz");
    let children = match children.len() {
        0 => String::new(),
        n => format!(
            " and {}",
            crate::text::count(n, "child sitemap", "child sitemaps")
        ),
    };
    super::say_to(
        stderr,
        format_args!(
            "removed {}{children}: the sitemap {} gzip, which {} replaces",
            crate::text::path(root),
            if gzipped { "without" } else { "with" },
            crate::text::path(&written.path)
        ),
    );
}

/// The sitemaps beside ours that the run did not write, named once (each with `-v`),
/// with how to turn the generator's off.
fn report_others(
    stderr: &mut impl Write,
    config: &Config,
    others: &[std::path::PathBuf],
    verbose: bool,
) {
    let Some(first) = others.first() else {
        return;
    };
    let more = match others.len() - 1 {
        0 => String::new(),
        _ if verbose => format!(
            ", {}",
            others[1..]
                .iter()
                .map(|p| crate::text::slashed(p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        n => format!(" and {n} more (-v lists them)"),
    };
    let words = match others.len() {
        1 => ["a sitemap", "it", "its list"],
        _ => ["sitemaps", "them", "their lists"],
    };
    let generator = config.source.as_ref().and_then(|s| s.generator);
    let off = match generator.and_then(|g| Some((g.name, g.own_sitemap_off?))) {
        Some((name, off)) => format!("turn {name}'s off ({off})"),
        None => "turn the generator's own sitemap off".to_string(),
    };
    super::say_to(
        stderr,
        format_args!(
            "note: {}{more}: {} beside ours that this run did not write; search engines that find {} read {} too: {off}, or delete {} after the build",
            crate::text::path(first),
            words[0],
            words[1],
            words[2],
            words[1]
        ),
    );
}

/// What was done to robots.txt, in a line.
fn report_robots(stderr: &mut impl Write, config: &Config, outcome: &crate::WriteOutcome) {
    let robots = config.public_dir.join("robots.txt");
    let url = outcome.url.as_deref().unwrap_or_default();
    if let Some(line) = outcome
        .robots
        .as_ref()
        .and_then(|a| robots_line(&robots, url, a))
    {
        super::say_to(stderr, format_args!("{line}"));
    }
    report_served(stderr, outcome.host_headers.as_ref());
}

/// What was done to the host's `_headers` or `vercel.json`, in a line.
pub(super) fn report_served(stderr: &mut impl Write, served: Option<&crate::host::Served>) {
    match served {
        Some(crate::host::Served::Written(path)) => super::say_to(
            stderr,
            format_args!(
                "updated {}: llms.txt served with X-Robots-Tag: noindex",
                crate::text::path(path)
            ),
        ),
        Some(crate::host::Served::Removed(path)) => super::say_to(
            stderr,
            format_args!(
                "removed sitemapgen's lines from {}",
                crate::text::path(path)
            ),
        ),
        _ => {}
    }
}

/// What announcing `url` did to the robots.txt at `robots`, in a line; `None` for
/// nothing.
pub(super) fn robots_line(robots: &Path, url: &str, announced: &Announced) -> Option<String> {
    let robots = crate::text::path(robots);
    Some(match announced {
        Announced::Added => format!("added Sitemap: {url} to {robots}"),
        Announced::Replaced(old) => format!("replaced Sitemap: {old} with {url} in {robots}"),
        Announced::Created => format!("created {robots} announcing {url}"),
        Announced::NoFile => format!(
            "warning: robots_txt = \"update\" but there is no {robots}; use \"create\" to write one"
        ),
        Announced::Unchanged => return None,
    })
}

/// `wrote public/sitemap.xml (index of 3 sitemaps)`.
fn what_was_written(written: Option<&Written>) -> String {
    match written {
        None => "wrote sitemap to stdout".to_string(),
        Some(w) if w.children.is_empty() => format!("wrote {}", crate::text::path(&w.path)),
        Some(w) if !w.indexed => format!(
            "wrote {} and {}",
            crate::text::path(&w.path),
            w.children
                .iter()
                .map(|c| crate::text::slashed(c))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(w) => format!(
            "wrote {} (index of {})",
            crate::text::path(&w.path),
            crate::text::count(w.children.len(), "sitemap", "sitemaps")
        ),
    }
}

/// `--check`: checks what was just written and reports it (in the JSON too).
fn check_written(config: &Config, written: &Written, mut run: Run) -> Result<(), Error> {
    let options = CheckOptions {
        base_url: Some(config.base_url.clone()),
        now: jiff::Timestamp::now(),
        written_by_us: true,
    };
    // Text sitemaps have no index to lead to the other files; a shard's manifest is not
    // a sitemap.
    let mut files = Vec::new();
    if config.shard.is_none() {
        files.push(written.path.clone());
    }
    if !written.indexed {
        files.extend(written.children.iter().cloned());
    }
    let checking = Instant::now();
    let report = crate::check::check(&files, &options);
    run.phases.push(("check", checking.elapsed()));
    let auditing = Instant::now();
    let audit = crate::audit::audit_collection(run.collection, config.base_url.as_str());
    run.phases.push(("audit", auditing.elapsed()));
    let strict = run.args.strict;
    let audit_fails = super::audit::fails(&audit, strict);
    let failed = if run.args.json {
        let mut value = run.json(Some(written));
        value["check"] = report_json(&report);
        value["audit"] = super::audit::audit_json(&audit);
        let failed = report.errors() > 0 || (strict && report.warnings() > 0) || audit_fails;
        if failed {
            value["status"] = "error".into();
            value["exit_code"] = 1.into();
        }
        print_json(&value).map_err(stdout_error)?;
        failed
    } else {
        let checked = print_report(&report, strict, run.args.quiet) != 0;
        super::audit::print_audit(&audit, run.args.quiet);
        checked || audit_fails
    };
    if failed {
        let warnings = if strict {
            report.warnings() + audit.warnings()
        } else {
            0
        };
        return Err(Error::CheckFailed {
            errors: report.errors() + audit.errors() + warnings,
        });
    }
    Ok(())
}

fn stdout_error(source: io::Error) -> Error {
    let error = crate::fsutil::IoError::new("<stdout>", source);
    Error::Write(crate::sitemap::WriteError::Io(error))
}
