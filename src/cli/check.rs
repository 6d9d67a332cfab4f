//! `sitemapgen check`, and the report `build --check` prints too.

use std::io::{self, Write};

use super::CheckArgs;
use super::report::{counts_json, problem_json};
use crate::check::{CheckOptions, Counts, Omitted, Problem, Report, Reporter};
use crate::urls::BaseUrl;

/// Prints a kept report's problems and closing count; returns the exit code.
pub(super) fn print_report(report: &Report, strict: bool, quiet: bool) -> i32 {
    let mut out = Lines(io::stdout().lock());
    for problem in &report.problems {
        out.problem(problem.clone());
    }
    for omitted in &report.omitted {
        out.omitted(omitted.clone());
    }
    print_counts(&report.counts, quiet);
    exit_code(&report.counts, strict)
}

/// The closing count, on stderr.
fn print_counts(counts: &Counts, quiet: bool) {
    if quiet {
        return;
    }
    let plural = |n: usize, what: &str| crate::text::count(n, what, &format!("{what}s"));
    super::say(format_args!(
        "checked {}, {}: {}, {}",
        plural(counts.files, "file"),
        plural(counts.urls, "URL"),
        plural(counts.errors, "error"),
        plural(counts.warnings, "warning"),
    ));
}

pub(super) fn check(args: &CheckArgs) -> i32 {
    let base_url = match args.base_url.as_deref().map(BaseUrl::parse).transpose() {
        Ok(base) => base,
        Err(e) => {
            super::say(format_args!("error: --base-url: {e}"));
            return 2;
        }
    };
    let options = CheckOptions {
        base_url,
        now: jiff::Timestamp::now(),
        written_by_us: false,
    };
    if let Some(site) = &args.site {
        return check_site(args, site, &options);
    }
    // Each problem is written as it is found, so none is held longer than that.
    if args.json {
        let mut json = Json::new(io::BufWriter::new(io::stdout().lock()));
        let counts = crate::check::check_to(&args.paths, &options, &mut json);
        return match super::finish_stdout(json.finish(&counts)) {
            0 => exit_code(&counts, args.strict),
            failed => failed,
        };
    }
    let counts = crate::check::check_to(&args.paths, &options, &mut Lines(io::stdout().lock()));
    print_counts(&counts, args.quiet);
    exit_code(&counts, args.strict)
}

/// Problems as lines of text, `FILE:LINE: error: message`. A failing stdout (a closed
/// pipe) is not the check's problem: the counts still go to stderr.
struct Lines<W>(W);

impl<W: Write> Reporter for Lines<W> {
    fn problem(&mut self, problem: Problem) {
        super::say_to(&mut self.0, problem);
    }

    fn omitted(&mut self, omitted: Omitted) {
        super::say_to(&mut self.0, omitted);
    }
}

/// `check --json`'s one document, written as the problems are found:
/// `{"problems":[...]`, then the totals when the check ends ([`Json::finish`]).
struct Json<W> {
    out: W,
    /// Problems written so far.
    written: usize,
    /// Kept for the end: one entry at most per file.
    omitted: Vec<Omitted>,
    /// The first failure to write; nothing more is written after it.
    failed: Option<io::Error>,
}

impl<W: Write> Json<W> {
    fn new(out: W) -> Json<W> {
        Json {
            out,
            written: 0,
            omitted: Vec::new(),
            failed: None,
        }
    }

    fn write(&mut self, text: &str, value: Option<&serde_json::Value>) {
        if self.failed.is_some() {
            return;
        }
        let result = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| match value {
                Some(value) => serde_json::to_writer(&mut self.out, value).map_err(io::Error::from),
                None => Ok(()),
            });
        self.failed = result.err();
    }

    /// Closes the document with the totals: `"files"`, `"urls"`, `"errors"`,
    /// `"warnings"` and `"omitted"`, as `build --check --json` gives them.
    fn finish(mut self, counts: &Counts) -> io::Result<()> {
        if self.written == 0 {
            self.write("{\"problems\":[", None);
        }
        let totals = counts_json(counts, &self.omitted).to_string();
        // The totals' own braces are dropped: they continue this document.
        self.write(&format!("],{}\n", &totals[1..]), None);
        match self.failed.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

impl<W: Write> Reporter for Json<W> {
    fn problem(&mut self, problem: Problem) {
        let start = if self.written == 0 {
            "{\"problems\":["
        } else {
            ","
        };
        self.write(start, Some(&problem_json(&problem)));
        self.written += 1;
    }

    fn omitted(&mut self, omitted: Omitted) {
        self.omitted.push(omitted);
    }
}

/// 1 when there are errors (or, strict, warnings), else 0.
fn exit_code(counts: &Counts, strict: bool) -> i32 {
    if counts.errors > 0 || (strict && counts.warnings > 0) {
        1
    } else {
        0
    }
}

/// `check --site DIR`: the check, then the site in DIR audited against the sitemap's
/// URLs; the problems and findings are kept, then printed.
fn check_site(args: &CheckArgs, site: &std::path::Path, options: &CheckOptions) -> i32 {
    let mut kept = Keep::default();
    let paths = match args.paths.is_empty() {
        true => vec![site_sitemap(args, site)],
        false => args.paths.clone(),
    };
    let counts = crate::check::check_to(&paths, options, &mut kept);
    let audit = match audit_site(args, site, &kept.urls) {
        Ok(audit) => audit,
        Err(err) => {
            super::say(format_args!("error: {err}"));
            return err.exit_code();
        }
    };
    let fails = super::audit::fails(&audit, args.strict);
    if args.json {
        let mut value = counts_json(&counts, &kept.report.omitted);
        value["problems"] = kept.report.problems.iter().map(problem_json).collect();
        value["audit"] = super::audit::audit_json(&audit);
        return match super::finish_stdout(super::report::print_json(&value)) {
            0 => exit_code(&counts, args.strict).max(i32::from(fails)),
            failed => failed,
        };
    }
    kept.report.counts = counts;
    let checked = print_report(&kept.report, args.strict, args.quiet);
    super::audit::print_audit(&audit, args.quiet);
    checked.max(i32::from(fails))
}

/// The sitemap of the site in `dir`, when none is named: the config's output (`output`,
/// default sitemap.xml, .xml.gz with `gzip`) when the config loads and it is there,
/// else `dir` itself, searched for the names a sitemap goes by (sitemap.xml, its index,
/// .gz, .txt). A config that does not load is reported by the audit, after the check.
fn site_sitemap(args: &CheckArgs, dir: &std::path::Path) -> std::path::PathBuf {
    let overrides = crate::config::Overrides {
        public_dir: Some(dir.to_path_buf()),
        base_url: args.base_url.clone(),
        ..crate::config::Overrides::default()
    };
    let configured = (super::config_file(args.config.as_deref()).path)
        .and_then(|path| crate::config::Config::load(Some(&path), &overrides).ok())
        .and_then(|config| match config.output {
            crate::config::Output::File(path) => Some(path),
            crate::config::Output::Stdout => None,
        });
    configured
        .filter(|path| path.is_file())
        .unwrap_or_else(|| dir.to_path_buf())
}

/// The site in `dir`, with the config file (given, or `sitemap.toml` here) and the base
/// URL (given, the file's, or the first URL's host), collected and audited.
fn audit_site(
    args: &CheckArgs,
    dir: &std::path::Path,
    urls: &[crate::audit::SitemapUrl],
) -> Result<crate::audit::Audit, crate::Error> {
    let path = super::config_file(args.config.as_deref());
    let inferred = (path.path.is_none() && args.base_url.is_none())
        .then(|| urls.first().and_then(|u| url::Url::parse(&u.loc).ok()))
        .flatten()
        .map(|u| format!("{}/", u.origin().ascii_serialization()));
    let overrides = crate::config::Overrides {
        public_dir: Some(dir.to_path_buf()),
        base_url: args.base_url.clone().or(inferred),
        ..crate::config::Overrides::default()
    };
    let mut config = path.load(&overrides)?;
    config.audit = true;
    let collection = crate::collect(&config, crate::Details::Keep)?;
    Ok(crate::audit::audit_sitemap(&config, &collection, urls))
}

/// A check's problems kept, and its pages' URLs, for `--site`.
#[derive(Default)]
struct Keep {
    report: Report,
    urls: Vec<crate::audit::SitemapUrl>,
}

impl Reporter for Keep {
    fn problem(&mut self, problem: Problem) {
        self.report.problems.push(problem);
    }

    fn omitted(&mut self, omitted: Omitted) {
        self.report.omitted.push(omitted);
    }

    fn page_url(&mut self, file: &std::path::Path, line: u64, loc: &str) {
        self.urls.push(crate::audit::SitemapUrl {
            file: file.to_path_buf(),
            line,
            loc: loc.to_string(),
        });
    }
}
