//! `sitemapgen build`, the default command.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::check::print_report;
use super::report::{
    build_json, draw_progress, print_collected, print_json, report_json, summary, wants_progress,
};
use super::{BuildArgs, FormatArg};
use crate::Error;
use crate::check::CheckOptions;
use crate::config::{self, Config, Overrides};
use crate::robots::Announced;

pub(super) fn is_broken_pipe(err: &Error) -> bool {
    matches!(err, Error::Write(crate::sitemap::WriteError::Io { source, .. })
        if source.kind() == io::ErrorKind::BrokenPipe)
}

pub(super) fn build(args: &BuildArgs, start: Instant) -> Result<(), Error> {
    let quiet = args.quiet || args.json;
    let config_path = args.config.clone().or_else(|| {
        let default = PathBuf::from(config::DEFAULT_CONFIG_FILE);
        default.is_file().then_some(default)
    });
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
    };
    let config = Config::load(config_path.as_deref(), &overrides)?;
    let show_progress = wants_progress(
        quiet,
        io::stderr().is_terminal(),
        std::env::var_os("CI").is_some_and(|v| !v.is_empty()),
    );
    let progress = crate::Progress::default();
    let finished = AtomicBool::new(false);
    let collection = std::thread::scope(|scope| {
        if show_progress {
            scope.spawn(|| draw_progress(&progress, &finished, start));
        }
        let collection = crate::collect_with_progress(&config, args.verbose, &progress);
        finished.store(true, Ordering::Relaxed);
        collection
    });
    let stderr = &mut io::stderr().lock();
    let collection = match collection {
        Ok(collection) => collection,
        Err(err) => {
            // Every page left out, or wrong canonicals: -v shows each page and why.
            if let Some(collection) = err.collection() {
                print_collected(stderr, &config, collection, args.verbose);
            }
            return Err(err);
        }
    };
    let collected = start.elapsed();
    print_collected(stderr, &config, &collection, args.verbose);

    if args.dry_run && args.json {
        let phases = [("collect", collected)];
        print_json(&build_json(
            &collection,
            None,
            true,
            &phases,
            start.elapsed(),
        ));
        return Ok(());
    }
    if args.dry_run {
        let mut out = io::BufWriter::new(io::stdout().lock());
        for entry in &collection.entries {
            writeln!(out, "{}", entry.loc).map_err(stdout_error)?;
        }
        out.flush().map_err(stdout_error)?;
        if !args.quiet {
            let _ = writeln!(
                stderr,
                "dry run: {}; nothing written",
                summary(&collection, start.elapsed())
            );
        }
        return Ok(());
    }

    let outcome = crate::write(&config, &collection, &mut io::stdout().lock())?;
    let wrote = start.elapsed() - collected;
    let written = &outcome.written;
    if args.verbose
        && let Some(written) = written
    {
        for removed in &written.removed {
            let _ = writeln!(stderr, "removed stale {}", removed.display());
        }
    }
    if !quiet {
        let robots = config.public_dir.join("robots.txt");
        let url = outcome.url.as_deref().unwrap_or_default();
        match &outcome.robots {
            Some(Announced::Added) => {
                let _ = writeln!(stderr, "added Sitemap: {url} to {}", robots.display());
            }
            Some(Announced::Replaced(old)) => {
                let _ = writeln!(
                    stderr,
                    "replaced Sitemap: {old} with {url} in {}",
                    robots.display()
                );
            }
            Some(Announced::Created) => {
                let _ = writeln!(stderr, "created {} announcing {url}", robots.display());
            }
            Some(Announced::NoFile) => {
                let _ = writeln!(
                    stderr,
                    "warning: robots_txt = \"update\" but there is no {}; use \"create\" to write one",
                    robots.display()
                );
            }
            Some(Announced::Unchanged) | None => {}
        }
    }
    if !quiet {
        let what = match written {
            None => "wrote sitemap to stdout".to_string(),
            Some(w) if w.children.is_empty() => format!("wrote {}", w.path.display()),
            Some(w) if !w.indexed => format!(
                "wrote {} and {}",
                w.path.display(),
                w.children
                    .iter()
                    .map(|c| c.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(w) => format!(
                "wrote {} (index of {})",
                w.path.display(),
                crate::text::count(w.children.len(), "sitemap", "sitemaps")
            ),
        };
        let _ = writeln!(stderr, "{what}: {}", summary(&collection, start.elapsed()));
    }
    if args.check
        && let Some(written) = written
    {
        let options = CheckOptions {
            base_url: Some(config.base_url.clone()),
            now: jiff::Timestamp::now(),
            written_by_us: true,
        };
        // Text sitemaps have no index to lead to the other files.
        let mut files = vec![written.path.clone()];
        if !written.indexed {
            files.extend(written.children.iter().cloned());
        }
        let checking = Instant::now();
        let report = crate::check::check(&files, &options);
        let phases = [
            ("collect", collected),
            ("write", wrote),
            ("check", checking.elapsed()),
        ];
        let failed = if args.json {
            let mut value = build_json(&collection, Some(written), false, &phases, start.elapsed());
            value["check"] = report_json(&report);
            if report.errors() > 0 {
                value["status"] = "error".into();
                value["exit_code"] = 1.into();
            }
            print_json(&value);
            report.errors() > 0
        } else {
            print_report(&report, false, args.quiet) != 0
        };
        if failed {
            return Err(Error::CheckFailed {
                errors: report.errors(),
            });
        }
    } else if args.json {
        let phases = [("collect", collected), ("write", wrote)];
        print_json(&build_json(
            &collection,
            written.as_ref(),
            false,
            &phases,
            start.elapsed(),
        ));
    }
    Ok(())
}

fn stdout_error(source: io::Error) -> Error {
    Error::Write(crate::sitemap::WriteError::Io {
        path: PathBuf::from("<stdout>"),
        source,
    })
}
