//! The command line: flags, and everything printed to the terminal. The library
//! returns values; only this module prints them.

// The doc comments of the flags are their `--help` text, where a URL stays bare.
#![allow(rustdoc::bare_urls)]

mod audit;
mod build;
mod check;
mod explain;
mod index;
mod init;
mod live;
mod man;
mod merge;
mod report;
mod submit;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

/// Writes sitemap.xml for a built static site.
#[derive(Debug, Parser)]
#[command(name = "sitemapgen", version, args_conflicts_with_subcommands = true)]
#[command(after_help = format!("With no command, sitemapgen runs `build`. {EXIT_STATUS_SHORT}"))]
#[command(after_long_help = after_long_help())]
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
    /// Join the shards of a site built in parts (`build --shard NAME`) into the root
    /// sitemap index, after checking every shard's files and that no URL is in two
    Merge(MergeArgs),
    /// Say, for each page given by path or URL, whether the build lists it and why: the
    /// rule, head tag, host file line or robots.txt; its URL, lastmod and its source
    Explain(ExplainArgs),
    /// Write a commented sitemap.toml for the site generator found in the current
    /// directory.
    #[command(long_about = init_help())]
    Init(InitArgs),
    /// After the deploy: tell search engines which URLs the last build added, updated or
    /// removed (IndexNow: Bing, Yandex, Naver, Seznam, Yep), and of the sitemap (Google
    /// Search Console and Bing Webmaster Tools, with [google] and [bing])
    Submit(SubmitArgs),
    /// After a submit: what Google Search Console and Bing Webmaster Tools say of each
    /// sitemap (last read, errors, warnings, URLs indexed), beside the URLs it lists; exit 1
    /// when an engine reports errors
    Status(StatusArgs),
    /// Print a shell completion script, e.g. `sitemapgen completions bash >
    /// /etc/bash_completion.d/sitemapgen`.
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `sitemapgen man > sitemapgen.1`; with --dir, write
    /// it and a page per command
    Man {
        /// Write sitemapgen.1 and a page per command (sitemapgen-build.1, ...) into DIR,
        /// created if missing, e.g. ~/.local/share/man/man1
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct SubmitArgs {
    /// The config file (default: the nearest sitemap.toml, here or up to the repository's root)
    #[arg(short, long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The site's public base URL (overrides base_url)
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Where to send (overrides indexnow_endpoint; default https://api.indexnow.org/indexnow)
    #[arg(long, value_name = "URL")]
    endpoint: Option<String>,

    /// Read the IndexNow key from this file (overrides indexnow_key and INDEXNOW_KEY)
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,

    /// First check that {base_url}{key}.txt is deployed and holds the key
    #[arg(long)]
    verify_key: bool,

    /// Print the requests instead of sending them
    #[arg(long)]
    dry_run: bool,

    /// Retries of a request answered 429 or 5xx, waiting 1 s, 2 s, 4 s, ...
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=10))]
    retries: u32,

    /// The first retry's wait in milliseconds (for tests)
    #[arg(long, default_value_t = 1000, hide = true)]
    backoff_ms: u64,

    /// Tell only this engine (repeatable; default every one set up: indexnow with a key,
    /// google with [google], bing with [bing])
    #[arg(long, value_name = "NAME")]
    engine: Vec<EngineArg>,
}

/// A search engine `submit` tells and `status` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EngineArg {
    Indexnow,
    Google,
    Bing,
}

#[derive(Debug, Args)]
struct StatusArgs {
    /// The config file (default: the nearest sitemap.toml, here or up to the repository's root)
    #[arg(short, long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The site's public base URL (overrides base_url)
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Ask only this engine (repeatable; default every one set up: google, bing)
    #[arg(long, value_name = "NAME")]
    engine: Vec<EngineArg>,

    /// Print one line of JSON on stdout
    #[arg(long)]
    json: bool,

    /// Retries of a request answered 429 or 5xx, waiting 1 s, 2 s, 4 s, ...
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=10))]
    retries: u32,

    /// The first retry's wait in milliseconds (for tests)
    #[arg(long, default_value_t = 1000, hide = true)]
    backoff_ms: u64,
}

/// Every generator `init` knows, from the one list.
fn generators() -> String {
    let names: Vec<&str> = crate::generators::ALL.iter().map(|g| g.name).collect();
    format!("Generators `init` recognises: {}.", names.join(", "))
}

/// `init --help`: what it does, and every generator it knows.
fn init_help() -> String {
    format!(
        "Write a commented sitemap.toml for the site generator found in the current \
         directory: its output directory, base URL and URL style, and the pages its own \
         sitemap leaves out.\n\n{}",
        generators()
    )
}

/// `--help` and the man page's closing section: the default command, and the
/// generators `init` knows.
fn after_long_help() -> String {
    format!(
        "With no command, sitemapgen runs `build`.\n\n{EXIT_STATUS}\n\n{}",
        generators()
    )
}

/// What the exit status means, for `-h`.
const EXIT_STATUS_SHORT: &str = "Exit status: 0 done, 1 failed, 2 bad usage or configuration.";

/// What the exit status means, for `--help` and the man page.
const EXIT_STATUS: &str = "Exit status:\n  \
    0  done (check: no errors)\n  \
    1  the run failed: a page or file could not be read or written, check found errors \
    (or warnings, with --strict), the network failed\n  \
    2  bad usage or configuration: an unknown flag, key or value, a corrupt state file, \
    a sitemap that needs an index written as one file";

#[derive(Debug, Args)]
struct InitArgs {
    /// The project directory, holding the generator's config
    #[arg(default_value = ".")]
    dir: PathBuf,

    /// Replace an existing sitemap.toml
    #[arg(long, conflicts_with = "update")]
    force: bool,

    /// Add to an existing sitemap.toml, commented, what init would propose that it lacks
    /// (run it after the build), keeping every line of it
    #[arg(long)]
    update: bool,
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

    /// Link a stylesheet for browsers: "default" (writes sitemapgen's sitemap.xsl into
    /// the root directory), or a URL or path
    #[arg(long, value_name = "HREF")]
    stylesheet: Option<String>,

    /// List children on other hosts than --base-url's (sitemaps of another site you own,
    /// verified as yours where you submit)
    #[arg(long)]
    allow_other_hosts: bool,

    /// Do not print the summary line
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct ExplainArgs {
    /// Pages: paths (from here, or from the site's directory), URLs under the base URL,
    /// or URL paths (/about/); a folder is its index page
    #[arg(required = true, value_name = "PATH|URL")]
    pages: Vec<String>,

    /// The built site's directory [default: public_dir from the config file]
    #[arg(short, long, value_name = "DIR")]
    dir: Option<PathBuf>,

    /// Config file [default: the nearest sitemap.toml, up to the repository's root]
    #[arg(short, long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The site's public base URL (overrides base_url)
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Print the answers as JSON on stdout
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The shards' manifests (sitemap-NAME.manifest.json), each beside its shard's
    /// sitemaps
    #[arg(required = true, value_name = "MANIFEST")]
    manifests: Vec<PathBuf>,

    /// The directory published at the base URL, holding every shard's files: the root
    /// index is written there [default: public_dir from the config file]
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,

    /// The site's public base URL (overrides base_url)
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Write the root index gzipped (sitemap.xml.gz), for shards built with --gzip
    #[arg(long)]
    gzip: bool,

    /// The config file, for robots_txt, stylesheet, lastmod_format and state_file
    /// [default: the nearest sitemap.toml, up to the repository's root]
    #[arg(short, long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Do not print the summary line
    #[arg(short, long)]
    quiet: bool,

    /// Print a JSON summary on stdout instead of the summary line
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("against").args(["site", "live"]))]
struct CheckArgs {
    /// Sitemap files, or directories holding sitemap.xml [default with --site: DIR's
    /// sitemap]
    #[arg(required_unless_present_any = ["site", "live"], value_name = "PATH")]
    paths: Vec<PathBuf>,

    /// Warn about URLs on another host than this base URL's
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Treat warnings as errors (exit 1 on any)
    #[arg(long)]
    strict: bool,

    /// Also audit the site in DIR against the sitemap: each URL listed must be a page
    /// served as itself and indexable; hreflang, sizes and titles across the pages
    #[arg(long, value_name = "DIR")]
    site: Option<PathBuf>,

    /// After a deploy: fetch the sitemap (or index) at URL and every URL it lists, and
    /// report what a search engine sees (statuses, noindex, canonicals, hreflang, dates)
    #[arg(long, value_name = "URL", conflicts_with_all = ["paths", "site", "base_url"])]
    live: Option<String>,

    /// With --site or --live: the config file, for the site's rules (with --live, its
    /// noindex_agents) [default: the nearest sitemap.toml, up to the repository's root]
    #[arg(short, long, value_name = "FILE", requires = "against")]
    config: Option<PathBuf>,

    /// With --live: connections to the site at once
    #[arg(short = 'j', long, value_name = "N", requires = "live",
          default_value_t = crate::check::live::CONNECTIONS as u16,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    connections: u16,

    /// With --live: requests a second at most (slower if robots.txt sets a Crawl-delay);
    /// 0 for no limit, on your own server only
    #[arg(long, value_name = "N", requires = "live", default_value_t = crate::check::live::RATE)]
    rate: f64,

    /// With --live: seconds a request may take in all
    #[arg(long, value_name = "SECS", requires = "live", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    timeout: u64,

    /// With --live: retries of a request answered 429 or 5xx, or not answered, waiting
    /// as Retry-After says, else 1 s, 2 s, ...
    #[arg(long, value_name = "N", requires = "live", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(0..=10))]
    retries: u32,

    /// The first retry's wait in milliseconds (for tests)
    #[arg(long, default_value_t = 1000, hide = true)]
    backoff_ms: u64,

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

    /// Config file [default: the nearest sitemap.toml, up to the repository's root]
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

    /// Count every URL as changed in the change list (a first run lists them all as added)
    #[arg(long)]
    all_changed: bool,

    /// Do not print the summary line
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,

    /// List every file skipped or left out, with the reason, and every warning (else 20 of a kind)
    #[arg(short, long)]
    verbose: bool,

    /// Check the written sitemap afterwards, as `sitemapgen check` does, and audit the
    /// site across its pages (hreflang, canonical forms, sizes, titles)
    #[arg(long)]
    check: bool,

    /// With --check: treat warnings as errors (exit 1 on any)
    #[arg(long, requires = "check")]
    strict: bool,

    /// Print a JSON summary on stdout (counts, files, duration, problems) instead of the
    /// summary line
    #[arg(long)]
    json: bool,

    /// Build one part of the site, merged later (`sitemapgen merge`): its sitemaps are
    /// named sitemap-NAME.…, with a manifest in the root index's place (overrides shard)
    #[arg(long, value_name = "NAME")]
    shard: Option<String>,

    /// Threads for walking and reading pages, at most 1024 [default: one per core, and at least 16 to read; at most 64 read pages]
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Writes a completion script for `shell`, generated from the clap definition.
fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    // Generated in memory first: clap_complete panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sitemapgen", &mut script);
    let mut out = io::stdout().lock();
    finish_stdout(out.write_all(&script).and_then(|()| out.flush()))
}

/// The config file every command reads: the one given, or the nearest `sitemap.toml`
/// from here up to the repository's root ([`crate::config::find`]).
fn config_file(given: Option<&std::path::Path>) -> crate::config::Found {
    let here = std::env::current_dir().unwrap_or_default();
    crate::config::find(given, &here)
}

/// Prints one line on standard error with every control character escaped
/// ([`crate::text::one_line`]): the one way messages reach the terminal, so no file name, key
/// or value can forge a line or send an escape sequence. (JSON keeps exact values; JSON
/// escapes them itself.)
fn say(line: impl std::fmt::Display) {
    say_to(&mut io::stderr().lock(), line);
}

/// [`say`] to `out`.
fn say_to(out: &mut impl Write, line: impl std::fmt::Display) {
    let _ = writeln!(out, "{}", crate::text::one_line(&line.to_string()));
}

/// Prints clap's message for bad arguments (or help and version, as clap does), each line
/// escaped as [`say`] escapes: clap quotes the bad value as given.
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let text = e.render().to_string();
    let mut stderr = io::stderr().lock();
    for line in text.trim_end().lines() {
        say_to(&mut stderr, line);
    }
    e.exit_code()
}

/// The exit code after writing to standard output: a closed pipe is not a failure.
fn finish_stdout(result: io::Result<()>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            say(format_args!("error: cannot write <stdout>: {e}"));
            1
        }
    }
}

/// Parses the arguments, runs, prints, and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let args = match cli.command {
        Some(Command::Build(args)) => args,
        Some(Command::Check(args)) => match &args.live {
            Some(url) => return live::live(&args, url),
            None => return check::check(&args),
        },
        Some(Command::Index(args)) => return index::index(&args),
        Some(Command::Explain(args)) => return explain::explain(&args),
        Some(Command::Init(args)) => return init::init(&args),
        Some(Command::Merge(args)) => return merge::merge(&args),
        Some(Command::Submit(args)) => return submit::submit(&args),
        Some(Command::Status(args)) => return submit::status(&args),
        Some(Command::Completions { shell }) => return completions(shell),
        Some(Command::Man { dir }) => return man::man(dir.as_deref()),
        None => cli.build,
    };
    if let Some(refused) = build::Refused::of(&args, io::stdout().is_terminal()) {
        say(format_args!("error: {refused}"));
        return 2;
    }
    let start = Instant::now();
    match build::build(&args, start) {
        Ok(()) => 0,
        Err(err) if build::is_broken_pipe(&err) => 0,
        Err(err) => {
            say(format_args!("error: {err}"));
            if args.json {
                // The run failed already: its exit code stands whether or not this
                // line could be written.
                let _ = report::print_json(&serde_json::json!({
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
