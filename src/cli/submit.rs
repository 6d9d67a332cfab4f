//! `sitemapgen submit` and `sitemapgen status`: every engine set up, each told or asked
//! in turn, one line each; one failing never stops the others.

use std::time::Duration;

use super::{EngineArg, StatusArgs, SubmitArgs};
use crate::config::{self, Config, Overrides};
use crate::submit::{Net, Plan, Ready, Request, SitemapReport, SubmitOptions, Told};

/// Loads the settings, tells every engine set up, prints what each came to; the exit
/// code: 2 for bad settings, 1 when any engine failed.
pub(super) fn submit(args: &SubmitArgs) -> i32 {
    let setup = match Setup::for_submit(args) {
        Ok(setup) => setup,
        Err(message) => {
            super::say(format_args!("error: {message}"));
            return 2;
        }
    };
    let plan = Plan {
        sitemaps: &setup.sitemaps,
        changed: &setup.changed.iter().map(String::as_str).collect::<Vec<_>>(),
    };
    if args.dry_run {
        let requests = crate::submit::requests_all(setup.engines, &plan);
        return dry_run(&requests);
    }
    let told = crate::submit::tell_all(setup.engines, &setup.net, &plan);
    let indexnow = told.iter().any(|(e, r)| *e == "indexnow" && r.is_ok());
    let mut failed = Vec::new();
    for (engine, result) in &told {
        match result {
            Ok(told) => say_told(engine, told, &setup.indexnow_endpoint, indexnow),
            Err(err) => {
                super::say(format_args!("error: {engine}: {err}"));
                failed.push(*engine);
            }
        }
    }
    let engines: Vec<&str> = told.iter().map(|(engine, _)| *engine).collect();
    finish("told", &engines, &failed)
}

/// The last line when more than one engine ran and any failed, naming which were told;
/// the exit code.
fn finish(done: &str, engines: &[&str], failed: &[&str]) -> i32 {
    if failed.is_empty() {
        return 0;
    }
    let told: Vec<&str> = engines
        .iter()
        .filter(|e| !failed.contains(e))
        .copied()
        .collect();
    if !told.is_empty() {
        super::say(format_args!(
            "submit: {done} {}; {} failed",
            told.join(", "),
            failed.join(", ")
        ));
    }
    1
}

/// What one engine was told, in a line.
fn say_told(engine: &str, told: &Told, indexnow_endpoint: &str, indexnow: bool) {
    let count = |n, one, many| crate::text::count(n, one, many);
    if engine == "indexnow" {
        let line = match (told.already, told.urls) {
            (Some(at), _) => format!("submit: already submitted at {at}; nothing sent"),
            (None, 0) => "submit: the change list lists nothing; nothing sent".to_string(),
            (None, urls) => format!(
                "submitted {} to {} in {}",
                count(urls, "URL", "URLs"),
                indexnow_endpoint,
                count(told.requests, "request", "requests")
            ),
        };
        return super::say(line);
    }
    let mut line = format!("{engine}: submitted {}", told.sitemaps.join(", "));
    if told.quota.is_some() || told.urls > 0 || told.left > 0 {
        line.push_str(&format!("; {} changed", count(told.urls, "URL", "URLs")));
        if told.left > 0 {
            let quota = told.quota.unwrap_or_default();
            let carried = match indexnow {
                true => "IndexNow carries them",
                false => "an IndexNow key would carry them",
            };
            line.push_str(&format!(
                ", {} left past the day's quota of {quota} ({carried})",
                count(told.left, "URL", "URLs")
            ));
        }
    }
    super::say(line);
}

/// Prints each request a dry run would send (credentials already redacted), every
/// line through the one escape; an engine that could not be set up fails the run.
fn dry_run(
    requests: &[(
        &'static str,
        Result<Vec<Request>, crate::submit::SubmitError>,
    )],
) -> i32 {
    let printed = print_requests(requests);
    let code = super::finish_stdout(printed);
    let mut failed = Vec::new();
    for (engine, result) in requests {
        if let Err(err) = result {
            super::say(format_args!("error: {engine}: {err}"));
            failed.push(*engine);
        }
    }
    let sent: usize = requests
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .map(Vec::len)
        .sum();
    if code == 0 {
        super::say(format_args!(
            "dry run: {} not sent",
            crate::text::count(sent, "request", "requests")
        ));
    }
    let engines: Vec<&str> = requests.iter().map(|(engine, _)| *engine).collect();
    match code {
        0 => finish("printed the requests of", &engines, &failed),
        code => code,
    }
}

fn print_requests(
    requests: &[(
        &'static str,
        Result<Vec<Request>, crate::submit::SubmitError>,
    )],
) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let line = |s: &str| crate::text::one_line(s);
    for request in requests
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .flatten()
    {
        writeln!(out, "{} {}", request.method, line(&request.url))?;
        for header in &request.headers {
            writeln!(out, "{}", line(header))?;
        }
        if let Some(body) = &request.body {
            writeln!(out, "{}", line(body))?;
        }
    }
    out.flush()
}

/// Asks every engine that answers what it says of each published sitemap; prints a line
/// for each beside the URLs ours lists, or one line of JSON; exit 1 when any reports
/// errors or cannot be asked.
pub(super) fn status(args: &StatusArgs) -> i32 {
    let setup = match Setup::for_status(args) {
        Ok(setup) => setup,
        Err(message) => {
            super::say(format_args!("error: {message}"));
            return 2;
        }
    };
    if setup.engines.is_empty() {
        super::say(
            "error: no engine to ask: add [google] or [bing] to sitemap.toml (docs/GUIDE.md, \"Google and Bing\")",
        );
        return 2;
    }
    let ours = crate::submit::listed(&setup.config);
    let asked = crate::submit::ask_all(setup.engines, &setup.net, &setup.sitemaps);
    let bad = asked.iter().any(|(_, r)| {
        r.as_ref()
            .map_or(true, |reports| reports.iter().any(|r| r.errors > 0))
    });
    if args.json {
        let value = status_json(&asked, ours);
        let code = super::finish_stdout(super::report::print_json(&value));
        return if code != 0 { code } else { i32::from(bad) };
    }
    for (engine, result) in &asked {
        match result {
            Ok(reports) => reports
                .iter()
                .for_each(|r| super::say(status_line(engine, r, ours))),
            Err(err) => super::say(format_args!("error: {engine}: {err}")),
        }
    }
    i32::from(bad)
}

/// One engine's word on one sitemap, in a line.
fn status_line(engine: &str, report: &SitemapReport, ours: Option<u64>) -> String {
    let count = |n: u64, one, many| crate::text::count(n as usize, one, many);
    let mut parts = vec![match (report.read_at, report.pending) {
        (Some(at), false) => format!("read {at}"),
        (Some(at), true) => format!("pending (last read {at})"),
        (None, _) => "not read yet".to_string(),
    }];
    if let Some(state) = &report.state {
        parts.push(state.clone());
    }
    parts.push(count(report.errors, "error", "errors"));
    parts.push(count(report.warnings, "warning", "warnings"));
    match (report.urls, report.indexed) {
        (Some(urls), Some(indexed)) => parts.push(format!(
            "{} submitted, {indexed} indexed",
            count(urls, "URL", "URLs")
        )),
        (Some(urls), None) => parts.push(count(urls, "URL", "URLs")),
        _ => {}
    }
    if let Some(ours) = ours {
        parts.push(format!("ours lists {}", count(ours, "URL", "URLs")));
    }
    format!("{engine}: {}: {}", report.sitemap, parts.join(", "))
}

fn status_json(
    asked: &[(
        &'static str,
        Result<Vec<SitemapReport>, crate::submit::SubmitError>,
    )],
    ours: Option<u64>,
) -> serde_json::Value {
    let engines: serde_json::Map<String, serde_json::Value> = asked
        .iter()
        .map(|(engine, result)| {
            let value = match result {
                Ok(reports) => serde_json::json!({"sitemaps": reports}),
                Err(err) => serde_json::json!({"error": err.to_string()}),
            };
            (engine.to_string(), value)
        })
        .collect();
    serde_json::json!({"ours": ours, "engines": engines})
}

/// What a run of `submit` or `status` works with.
struct Setup {
    config: Config,
    engines: Vec<Ready>,
    /// The published sitemaps' URLs.
    sitemaps: Vec<String>,
    /// The change list's added and updated URLs, for engines that take URLs.
    changed: Vec<String>,
    net: Net,
    indexnow_endpoint: String,
}

impl Setup {
    fn for_submit(args: &SubmitArgs) -> Result<Setup, String> {
        let config = load(args.config.as_deref(), args.base_url.clone())?;
        let wanted = |e: EngineArg| args.engine.is_empty() || args.engine.contains(&e);
        let indexnow = indexnow_options(args, &config)?;
        let mut engines: Vec<Ready> = Vec::new();
        let others = engines_of(&config, &wanted);
        match indexnow {
            Some(options) if wanted(EngineArg::Indexnow) => {
                engines.push(Ok(Box::new(crate::submit::IndexNow { options })));
            }
            None if wanted(EngineArg::Indexnow)
                && (others.is_empty() || !args.engine.is_empty()) =>
            {
                return Err(no_indexnow_key());
            }
            _ => {}
        }
        engines.extend(others);
        let changed = changed_urls(&config);
        Ok(Setup {
            sitemaps: crate::submit::published(&config),
            indexnow_endpoint: args
                .endpoint
                .clone()
                .unwrap_or_else(|| config.indexnow.endpoint.clone()),
            net: net(args.retries, args.backoff_ms),
            engines,
            changed,
            config,
        })
    }

    fn for_status(args: &StatusArgs) -> Result<Setup, String> {
        let config = load(args.config.as_deref(), args.base_url.clone())?;
        let wanted = |e: EngineArg| args.engine.is_empty() || args.engine.contains(&e);
        Ok(Setup {
            sitemaps: crate::submit::published(&config),
            engines: engines_of(&config, &wanted),
            changed: Vec::new(),
            net: net(args.retries, args.backoff_ms),
            indexnow_endpoint: String::new(),
            config,
        })
    }
}

fn load(file: Option<&std::path::Path>, base_url: Option<String>) -> Result<Config, String> {
    let overrides = Overrides {
        base_url,
        ..Overrides::default()
    };
    let path = super::config_file(file);
    path.load(&overrides).map_err(|e| e.to_string())
}

fn net(retries: u32, backoff_ms: u64) -> Net {
    let retry = crate::http::Retry {
        retries,
        backoff: Duration::from_millis(backoff_ms),
    };
    #[cfg(feature = "net")]
    let agent = crate::http::agent(&crate::http::Timeouts::default(), 1);
    Net {
        #[cfg(feature = "net")]
        agent,
        retry,
    }
}

/// Google's and Bing's engines, as `[google]` and `[bing]` set them up, when wanted.
fn engines_of(config: &Config, wanted: &dyn Fn(EngineArg) -> bool) -> Vec<Ready> {
    let env = |name: &str| std::env::var(name).ok();
    let base = config.base_url.as_str();
    let mut engines = Vec::new();
    if let Some(google) = config
        .engines
        .google
        .as_ref()
        .filter(|_| wanted(EngineArg::Google))
    {
        engines.push(crate::submit::google_engine(google, base, &env));
    }
    if let Some(bing) = config
        .engines
        .bing
        .as_ref()
        .filter(|_| wanted(EngineArg::Bing))
    {
        engines.push(crate::submit::bing_engine(bing, base, &env));
    }
    engines
}

/// The change list's added and updated URLs: none when there is none.
fn changed_urls(config: &Config) -> Vec<String> {
    let path = crate::changes::path_beside(&config.state_file);
    let Ok(file) = crate::changes::load(&path) else {
        return Vec::new();
    };
    let (added, updated) = (file.added.len(), file.updated.len());
    file.some_urls(0, added + updated)
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn no_indexnow_key() -> String {
    format!(
        "no IndexNow key: set indexnow_key in the config, the {} environment variable, or --key-file",
        config::INDEXNOW_KEY_ENV
    )
}

/// IndexNow's options from the config, the environment and the flags, when it has a key.
/// Errors are the config's messages (exit 2).
fn indexnow_options(args: &SubmitArgs, config: &Config) -> Result<Option<SubmitOptions>, String> {
    let endpoint = match &args.endpoint {
        Some(e) => {
            config::indexnow_endpoint(e, "--endpoint".to_string(), "indexnow_endpoint")
                .map_err(|e| e.to_string())?;
            e.clone()
        }
        None => config.indexnow.endpoint.clone(),
    };
    let key = match &args.key_file {
        Some(file) => Some(key_from_file(file)?),
        None => config.indexnow.key.clone(),
    };
    Ok(key.map(|key| SubmitOptions {
        changes: crate::changes::path_beside(&config.state_file),
        base_url: config.base_url.as_str().to_string(),
        key,
        endpoint,
        verify_key: args.verify_key,
        dry_run: args.dry_run,
        retries: args.retries,
        backoff: Duration::from_millis(args.backoff_ms),
    }))
}

/// The key in `--key-file`, checked as `indexnow_key` is; a file holding anything else
/// (a private key given by mistake) is refused by its name, its content never shown.
fn key_from_file(file: &std::path::Path) -> Result<String, String> {
    let origin = format!("--key-file {}", crate::text::path(file));
    let key =
        crate::fsutil::read_regular_string(file, 4096).map_err(|e| format!("{origin}: {e}"))?;
    let key = key.trim();
    if !config::is_indexnow_key(key) {
        return Err(format!(
            "{origin}: does not hold an IndexNow key, which is {}; give the file holding only the key",
            config::KEY_RULE
        ));
    }
    Ok(key.to_string())
}
