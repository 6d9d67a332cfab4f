//! `sitemapgen check --live URL`: the deployed sitemap and its URLs fetched, and what a
//! search engine sees printed.

use std::io;
use std::time::{Duration, Instant};

use super::CheckArgs;
use super::report::{Counted, print_json, with_progress};
use crate::check::live::{LiveOptions, LiveProblem, LiveProgress, LiveReport, check_live};
use crate::http::{Retry, Timeouts};

/// Runs the live check of the sitemap at `url`; returns the exit code.
pub(super) fn live(args: &CheckArgs, url: &str) -> i32 {
    let options = match options(args, url) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let start = Instant::now();
    let progress = LiveProgress::default();
    let counted = Counted {
        total: &progress.urls,
        done: &progress.done,
        waiting: "reading the sitemaps",
        noun: "URLs",
    };
    let report = with_progress(args.quiet || args.json, counted, start, || {
        check_live(&options, &progress)
    });
    let report = match report {
        Ok(report) => report,
        Err(e) => {
            super::say(format_args!("error: {e}"));
            return 1;
        }
    };
    let failed = report.errors() > 0 || (args.strict && report.warnings() > 0);
    let printed = if args.json {
        super::finish_stdout(print_json(&report_json(&report)))
    } else {
        print_text(&report, args.quiet, start.elapsed())
    };
    printed.max(i32::from(failed))
}

/// The options from the flags, and `noindex_agents` from the config file (given, or
/// the nearest sitemap.toml); `Err` holds the exit code of a bad flag or file.
fn options(args: &CheckArgs, url: &str) -> Result<LiveOptions, i32> {
    if !(args.rate.is_finite() && args.rate >= 0.0) {
        super::say(format_args!(
            "error: --rate {}: give requests a second, 0 or more (0: no limit)",
            args.rate
        ));
        return Err(2);
    }
    let mut options = LiveOptions::new(url.to_string());
    options.connections = usize::from(args.connections);
    options.rate = args.rate;
    options.timeouts = Timeouts::within(Duration::from_secs(args.timeout));
    options.retry = Retry {
        retries: args.retries,
        backoff: Duration::from_millis(args.backoff_ms),
    };
    if let Some(path) = super::config_file(args.config.as_deref()).path {
        // Only noindex_agents is wanted: the base URL and directory are stand-ins
        // (the sitemap's origin and here) so that a file without them loads.
        let origin = url::Url::parse(url).map(|u| format!("{}/", u.origin().ascii_serialization()));
        let overrides = crate::config::Overrides {
            public_dir: Some(".".into()),
            base_url: origin.ok(),
            ..crate::config::Overrides::default()
        };
        match crate::config::Config::load(Some(&path), &overrides) {
            Ok(config) => options.noindex_agents = config.head.noindex_agents,
            Err(e) => {
                super::say(format_args!("error: {e}"));
                return Err(2);
            }
        }
    }
    Ok(options)
}

/// The findings on stdout, one a line, and the summary line on stderr.
fn print_text(report: &LiveReport, quiet: bool, elapsed: Duration) -> i32 {
    let mut out = io::stdout().lock();
    for problem in &report.problems {
        super::say_to(&mut out, problem);
    }
    if !quiet {
        super::say(summary(report, elapsed));
    }
    0
}

/// `checked 10 URLs in 1 sitemap live (9 fetched, 1 retried) in 1.2 s: 2 errors, 1 warning`.
fn summary(report: &LiveReport, elapsed: Duration) -> String {
    let plural = |n: usize, what: &str| crate::text::count(n, what, &format!("{what}s"));
    format!(
        "checked {} in {} live ({} fetched, {} retried) in {:.1} s: {}, {}",
        plural(report.urls, "URL"),
        plural(report.sitemaps, "sitemap"),
        crate::text::thousands(report.fetched),
        crate::text::thousands(report.retried),
        elapsed.as_secs_f64(),
        plural(report.errors(), "error"),
        plural(report.warnings(), "warning"),
    )
}

/// The report as `check --json` shapes one: `problems` (each with `file` and `line`, the
/// sitemap and where in it, and the `url`, `kind`, `severity` and `message`), then
/// the totals.
fn report_json(report: &LiveReport) -> serde_json::Value {
    let problems: Vec<serde_json::Value> = report.problems.iter().map(problem_json).collect();
    serde_json::json!({
        "problems": problems,
        "files": report.sitemaps,
        "urls": report.urls,
        "fetched": report.fetched,
        "retried": report.retried,
        "errors": report.errors(),
        "warnings": report.warnings(),
    })
}

fn problem_json(p: &LiveProblem) -> serde_json::Value {
    serde_json::json!({
        "file": p.sitemap,
        "line": p.line,
        "url": p.url,
        "kind": p.kind.name(),
        "severity": p.kind.severity().to_string(),
        "message": p.kind.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_one_line_with_counted_nouns() {
        let report = LiveReport::default();
        let line = summary(&report, Duration::from_millis(1200));
        assert_eq!(
            line,
            "checked 0 URLs in 0 sitemaps live (0 fetched, 0 retried) in 1.2 s: 0 errors, 0 warnings"
        );
    }
}
