//! The command line: flags, and everything printed to the terminal.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};

use crate::check::{CheckOptions, Report};
use crate::config::{self, Config, Overrides};
use crate::robots::Announced;
use crate::url::BaseUrl;
use crate::{Collection, Error};

/// Writes sitemap.xml for a built static site.
#[derive(Debug, Parser)]
#[command(name = "sitemapgen", version, args_conflicts_with_subcommands = true)]
#[command(after_help = "With no command, sitemapgen runs `build`.")]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    build: BuildArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Walk the built site and write its sitemap (the default command).
    Build(BuildArgs),
    /// Validate sitemaps: files (.xml, .xml.gz, .txt) or directories holding sitemap.xml,
    /// following a sitemap index to its children on disk.
    Check(CheckArgs),
    /// Write one sitemap index over sitemaps written separately (a sharded build);
    /// indexes given as input are flattened.
    Index(IndexArgs),
    /// Write a commented sitemap.toml for the site generator found in the current
    /// directory (Hugo, Zola, Jekyll, Eleventy, Astro, Next.js, Docusaurus).
    Init(InitArgs),
    /// Print a shell completion script, e.g. `sitemapgen completions bash >
    /// /etc/bash_completion.d/sitemapgen`.
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `sitemapgen man > sitemapgen.1`.
    Man,
}

#[derive(Debug, Args)]
struct InitArgs {
    /// The project directory, holding the generator's config
    #[arg(default_value = ".")]
    dir: PathBuf,

    /// Replace an existing sitemap.toml
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct IndexArgs {
    /// Sitemaps (.xml or .xml.gz) or sitemap indexes to list
    #[arg(required = true, value_name = "SITEMAP")]
    sitemaps: Vec<PathBuf>,

    /// The base URL the root directory is published at, e.g. https://example.org/
    #[arg(long, value_name = "URL")]
    base_url: String,

    /// The directory published at the base URL [default: the output's directory]
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,

    /// The index to write
    #[arg(short, long, value_name = "PATH")]
    output: PathBuf,

    /// Write lastmod as a date only
    #[arg(long)]
    date_only: bool,

    /// Do not print the summary line
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Sitemap files, or directories holding sitemap.xml
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,

    /// Warn about URLs on another host than this base URL's
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Treat warnings as errors (exit 1 on any)
    #[arg(long)]
    strict: bool,

    /// Print only the problems, not the closing count
    #[arg(short, long)]
    quiet: bool,

    /// Print a JSON report on stdout (counts and every problem) instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Xml,
    Txt,
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// The built site's directory [default: public_dir from the config file]
    dir: Option<PathBuf>,

    /// Config file [default: ./sitemap.toml if it exists]
    #[arg(short, long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The site's public base URL, e.g. https://example.org/ (overrides base_url)
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Where to write the sitemap, relative to the current directory; - for stdout
    /// [default: sitemap.xml in the site's directory]
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,

    /// Gzip every sitemap written (.xml.gz; the 50 MiB limit counts uncompressed bytes)
    #[arg(long)]
    gzip: bool,

    /// xml, or txt: one URL per line, split files listed in the summary (no index)
    #[arg(long, value_name = "FORMAT")]
    format: Option<FormatArg>,

    /// Print the URLs that would be listed, one per line, and write nothing
    #[arg(long)]
    dry_run: bool,

    /// Do not print the summary line
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,

    /// List every file skipped or left out, with the reason
    #[arg(short, long)]
    verbose: bool,

    /// Check the written sitemap afterwards, as `sitemapgen check` does
    #[arg(long)]
    check: bool,

    /// Print a JSON summary on stdout (counts, files, duration, problems) instead of the
    /// summary line
    #[arg(long)]
    json: bool,

    /// Threads for walking and reading pages [default: one per core; at most 64 read pages]
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Writes `sitemap.toml` for the project in `args.dir`; never over an existing file
/// unless `--force`.
fn init(args: &InitArgs) -> i32 {
    let found = crate::init::detect(&args.dir);
    let path = args.dir.join(config::DEFAULT_CONFIG_FILE);
    let text = crate::init::render(&found);
    let written = tempfile::NamedTempFile::new_in(&args.dir).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        if args.force {
            file.persist(&path).map(drop).map_err(|e| e.error)
        } else {
            file.persist_noclobber(&path).map(drop).map_err(|e| e.error)
        }
    });
    match written {
        Ok(()) => {
            let what = match found.generator {
                Some(g) => format!("for {}", g.name()),
                None => "(no generator recognised: set public_dir)".to_string(),
            };
            let url = match &found.base_url {
                Some(url) => format!("base_url {url}"),
                None => "no base_url found: set it".to_string(),
            };
            eprintln!("wrote {} {what}; {url}", path.display());
            0
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            eprintln!(
                "error: {} already exists; pass --force to replace it",
                path.display()
            );
            2
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            1
        }
    }
}

/// Writes a completion script for `shell`, generated from the clap definition.
fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "sitemapgen", &mut out);
    finish_stdout(out.flush())
}

/// Writes the man page, generated from the clap definition.
fn man() -> i32 {
    use clap::CommandFactory;
    let mut out = io::stdout().lock();
    let written = clap_mangen::Man::new(Cli::command()).render(&mut out);
    finish_stdout(written.and_then(|()| out.flush()))
}

/// The exit code after writing to standard output: a closed pipe is not a failure.
fn finish_stdout(result: io::Result<()>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: cannot write <stdout>: {e}");
            1
        }
    }
}

/// Parses the arguments, runs, prints, and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let args = match cli.command {
        Some(Command::Build(args)) => args,
        Some(Command::Check(args)) => return check(&args),
        Some(Command::Index(args)) => return index(&args),
        Some(Command::Init(args)) => return init(&args),
        Some(Command::Completions { shell }) => return completions(shell),
        Some(Command::Man) => return man(),
        None => cli.build,
    };
    if args.json && args.output.as_deref() == Some(std::path::Path::new("-")) {
        eprintln!(
            "error: --json and --output - both write to standard output; write the sitemap to a file (--output sitemap.xml)"
        );
        return 2;
    }
    let start = Instant::now();
    match build(&args, start) {
        Ok(()) => 0,
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            eprintln!("error: {err}");
            if args.json {
                print_json(&serde_json::json!({
                    "status": "error",
                    "exit_code": err.exit_code(),
                    "error": err.to_string(),
                    "duration_ms": start.elapsed().as_millis() as u64,
                }));
            }
            err.exit_code()
        }
    }
}

/// Whether to draw a progress bar: only for a person watching a terminal, never in a
/// CI log (`CI` set), nor with `-q` or `--json`.
fn wants_progress(quiet: bool, stderr_is_terminal: bool, in_ci: bool) -> bool {
    !quiet && stderr_is_terminal && !in_ci
}

/// How long a run goes before it gets a progress bar: shorter runs never flash one.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// Draws a progress bar on stderr from `progress` once the run has taken
/// [`PROGRESS_AFTER`], until `finished`; then clears it, leaving the summary line alone.
fn draw_progress(progress: &crate::Progress, finished: &AtomicBool, start: Instant) {
    let tick = Duration::from_millis(50);
    while start.elapsed() < PROGRESS_AFTER {
        if finished.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(tick);
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message("walking the site");
    let mut sized = false;
    while !finished.load(Ordering::Relaxed) {
        let pages = progress.pages.load(Ordering::Relaxed) as u64;
        if pages > 0 && !sized {
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {human_pos}/{human_len} pages, {eta} left",
                )
                .expect("a valid template"),
            );
            bar.set_length(pages);
            sized = true;
        }
        if sized {
            bar.set_position(progress.done.load(Ordering::Relaxed) as u64);
        } else {
            bar.tick();
        }
        std::thread::sleep(tick * 2);
    }
    bar.finish_and_clear();
}

/// Prints one JSON document on stdout.
fn print_json(value: &serde_json::Value) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{value}");
}

/// A check's report as JSON.
fn report_json(report: &Report) -> serde_json::Value {
    let problems: Vec<serde_json::Value> = report
        .problems
        .iter()
        .map(|p| {
            serde_json::json!({
                "file": p.file.display().to_string(),
                "line": p.line,
                "severity": p.severity.to_string(),
                "message": p.message,
            })
        })
        .collect();
    serde_json::json!({
        "files": report.files,
        "urls": report.urls,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "problems": problems,
    })
}

/// The summary of a build as JSON: what was listed, left out and written.
fn build_json(
    collection: &Collection,
    written: Option<&crate::sitemap::Written>,
    dry_run: bool,
    phases: &[(&str, Duration)],
    elapsed: Duration,
) -> serde_json::Value {
    let counts = &collection.counts;
    let path = |p: &std::path::Path| p.display().to_string();
    let mut value = serde_json::json!({
        "status": "ok",
        "urls": collection.entries.len(),
        "left_out": {
            "rules": counts.rules,
            "noindex": counts.noindex,
            "redirects": counts.redirects,
            "canonical": counts.canonical,
            "canonical_not_here": counts.canonical_not_here,
            "robots": counts.robots,
        },
        "skipped": collection.skipped_count,
        "warnings": collection.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "duration_ms": elapsed.as_millis() as u64,
        "durations_ms": phases
            .iter()
            .map(|(name, d)| (name.to_string(), serde_json::Value::from(d.as_millis() as u64)))
            .collect::<serde_json::Map<_, _>>(),
    });
    if dry_run {
        value["dry_run"] = true.into();
        value["list"] = collection
            .entries
            .iter()
            .map(|e| e.loc.to_string())
            .collect();
    }
    if let Some(w) = written {
        value["sitemap"] = path(&w.path).into();
        value["index"] = w.indexed.into();
        value["children"] = w.children.iter().map(|c| path(c)).collect();
        value["removed"] = w.removed.iter().map(|c| path(c)).collect();
    }
    value
}

fn is_broken_pipe(err: &Error) -> bool {
    matches!(err, Error::Write(crate::sitemap::WriteError::Io { source, .. })
        if source.kind() == io::ErrorKind::BrokenPipe)
}

fn build(args: &BuildArgs, start: Instant) -> Result<(), Error> {
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

/// Prints the warnings of a collection, and with `verbose` every file skipped or left
/// out with the reason.
fn print_collected(
    stderr: &mut impl Write,
    config: &Config,
    collection: &Collection,
    verbose: bool,
) {
    for warning in &collection.warnings {
        let _ = writeln!(stderr, "warning: {warning}");
    }
    if verbose {
        for skipped in &collection.skipped {
            let path = config.public_dir.join(&skipped.rel);
            let _ = writeln!(stderr, "skipped {}: {}", path.display(), skipped.reason);
        }
        for (rel, why) in &collection.left_out {
            let path = config.public_dir.join(rel);
            let _ = writeln!(stderr, "left out {}: {why}", path.display());
        }
    }
}

/// Prints a check's problems and closing count; returns the exit code.
fn print_report(report: &Report, strict: bool, quiet: bool) -> i32 {
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

fn index(args: &IndexArgs) -> i32 {
    let base_url = match BaseUrl::parse(&args.base_url) {
        Ok(base) => base,
        Err(e) => {
            eprintln!("error: --base-url: {e}");
            return 2;
        }
    };
    let root = args
        .root
        .clone()
        .unwrap_or_else(|| match args.output.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        });
    let format = if args.date_only {
        crate::lastmod::LastmodFormat::Date
    } else {
        crate::lastmod::LastmodFormat::Datetime
    };
    let result = crate::index::children(&args.sitemaps, &root, &base_url).and_then(|children| {
        crate::index::write(&args.output, &children, format).map(|()| children.len())
    });
    match result {
        Ok(n) => {
            if !args.quiet {
                eprintln!(
                    "wrote {}: index of {}",
                    args.output.display(),
                    crate::text::count(n, "sitemap", "sitemaps")
                );
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn check(args: &CheckArgs) -> i32 {
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
        print_json(&report_json(&report));
        return exit_code(&report, args.strict);
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

fn stdout_error(source: io::Error) -> Error {
    Error::Write(crate::sitemap::WriteError::Io {
        path: PathBuf::from("<stdout>"),
        source,
    })
}

/// `1,234 URLs (56 excluded by rules, 3 noindex, 2 redirects) in 38 ms`
fn summary(collection: &Collection, elapsed: Duration) -> String {
    let mut line = crate::text::count(collection.entries.len(), "URL", "URLs");
    let mut notes = collection.counts.describe();
    let warnings = collection.warnings.len();
    if warnings > 0 {
        notes.push(crate::text::count(warnings, "warning", "warnings"));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join(", ")));
    }
    let ms = elapsed.as_millis();
    if ms < 1000 {
        line.push_str(&format!(" in {ms} ms"));
    } else {
        line.push_str(&format!(" in {:.2} s", elapsed.as_secs_f64()));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_progress_bar_only_for_a_person_at_a_terminal() {
        // (quiet or --json, stderr is a terminal, CI set) -> bar
        let table = [
            ((false, true, false), true),
            ((true, true, false), false),
            ((false, false, false), false),
            ((false, true, true), false),
            ((false, false, true), false),
        ];
        for ((quiet, terminal, ci), want) in table {
            assert_eq!(
                wants_progress(quiet, terminal, ci),
                want,
                "{quiet} {terminal} {ci}"
            );
        }
    }

    #[test]
    fn the_progress_bar_stays_away_from_short_runs() {
        let progress = crate::Progress::default();
        let finished = AtomicBool::new(true);
        let start = Instant::now();
        draw_progress(&progress, &finished, start);
        assert!(start.elapsed() < PROGRESS_AFTER);
    }

    #[test]
    fn numbers_get_thousands_separators() {
        let table = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ];
        for (n, want) in table {
            assert_eq!(crate::text::thousands(n), want);
        }
    }
}
