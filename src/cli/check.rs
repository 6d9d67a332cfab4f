//! `sitemapgen check`, and the report `build --check` prints too.

use std::io::{self, Write};

use super::CheckArgs;
use super::report::{print_json, report_json};
use crate::check::{CheckOptions, Report};
use crate::url::BaseUrl;

/// Prints a check's problems and closing count; returns the exit code.
pub(super) fn print_report(report: &Report, strict: bool, quiet: bool) -> i32 {
    let mut out = io::stdout().lock();
    for problem in &report.problems {
        let _ = writeln!(out, "{problem}");
    }
    let (errors, warnings) = (report.errors(), report.warnings());
    if !quiet {
        let plural = |n: usize, what: &str| crate::text::count(n, what, &format!("{what}s"));
        let _ = writeln!(
            io::stderr(),
            "checked {}, {}: {}, {}",
            plural(report.files, "file"),
            plural(report.urls, "URL"),
            plural(errors, "error"),
            plural(warnings, "warning"),
        );
    }
    exit_code(report, strict)
}

pub(super) fn check(args: &CheckArgs) -> i32 {
    let base_url = match args.base_url.as_deref().map(BaseUrl::parse).transpose() {
        Ok(base) => base,
        Err(e) => {
            eprintln!("error: --base-url: {e}");
            return 2;
        }
    };
    let options = CheckOptions {
        base_url,
        now: jiff::Timestamp::now(),
        written_by_us: false,
    };
    let report = crate::check::check(&args.paths, &options);
    if args.json {
        match super::finish_stdout(print_json(&report_json(&report))) {
            0 => return exit_code(&report, args.strict),
            failed => return failed,
        }
    }
    print_report(&report, args.strict, args.quiet)
}

/// 1 when the report has errors (or, strict, warnings), else 0.
fn exit_code(report: &Report, strict: bool) -> i32 {
    if report.errors() > 0 || (strict && report.warnings() > 0) {
        1
    } else {
        0
    }
}
