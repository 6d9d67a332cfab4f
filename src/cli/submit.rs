//! `sitemapgen submit`.

use std::time::Duration;

use super::SubmitArgs;
use crate::config::{self, Overrides};
use crate::submit::{Outcome, SubmitOptions};

/// Loads the settings, submits the change list, prints what happened; the exit code.
pub(super) fn submit(args: &SubmitArgs) -> i32 {
    let options = match options(args) {
        Ok(options) => options,
        Err(message) => {
            super::say(format_args!("error: {message}"));
            return 2;
        }
    };
    match crate::submit::submit(&options) {
        Ok(Outcome::NothingChanged) => {
            super::say("submit: the change list lists nothing; nothing sent");
            0
        }
        Ok(Outcome::AlreadySubmitted(at)) => {
            super::say(format_args!(
                "submit: already submitted at {at}; nothing sent"
            ));
            0
        }
        Ok(Outcome::DryRun(requests)) => {
            let code = super::finish_stdout(print_requests(&requests));
            if code == 0 {
                super::say(format_args!(
                    "dry run: {} not sent",
                    crate::text::count(requests.len(), "request", "requests")
                ));
            }
            code
        }
        Ok(Outcome::Sent { batches, urls }) => {
            super::say(format_args!(
                "submitted {} to {} in {}",
                crate::text::count(urls, "URL", "URLs"),
                options.endpoint,
                crate::text::count(batches, "request", "requests")
            ));
            0
        }
        Err(e) => {
            let err = crate::Error::from(e);
            super::say(format_args!("error: {err}"));
            err.exit_code()
        }
    }
}

/// Prints each request a dry run would send, every line through the one escape
/// ([`crate::text::one_line`]): the endpoint and the change list's URLs reach the terminal as
/// text, never as escape sequences or extra lines.
fn print_requests(requests: &[(String, String)]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for (endpoint, body) in requests {
        writeln!(out, "POST {}", crate::text::one_line(endpoint))?;
        writeln!(out, "{}", crate::text::one_line(body))?;
    }
    out.flush()
}

/// The options from the config, the environment and the flags. Errors are the config's
/// messages (exit 2).
fn options(args: &SubmitArgs) -> Result<SubmitOptions, String> {
    let overrides = Overrides {
        base_url: args.base_url.clone(),
        ..Overrides::default()
    };
    let path = super::config_file(args.config.as_deref());
    let config = path.load(&overrides).map_err(|e| e.to_string())?;
    let endpoint = match &args.endpoint {
        Some(e) => {
            config::indexnow_endpoint(e, "--endpoint".to_string(), "indexnow_endpoint")
                .map_err(|e| e.to_string())?;
            e.clone()
        }
        None => config.indexnow.endpoint.clone(),
    };
    let key = match &args.key_file {
        Some(file) => key_from_file(file)?,
        None => config.indexnow.key.clone().ok_or_else(|| {
            format!(
                "no IndexNow key: set indexnow_key in the config, the {} environment variable, or --key-file",
                config::INDEXNOW_KEY_ENV
            )
        })?,
    };
    Ok(SubmitOptions {
        changes: crate::changes::path_beside(&config.state_file),
        base_url: config.base_url.as_str().to_string(),
        key,
        endpoint,
        verify_key: args.verify_key,
        dry_run: args.dry_run,
        retries: args.retries,
        backoff: Duration::from_millis(args.backoff_ms),
    })
}

/// The key in `--key-file`, checked as `indexnow_key` is; a file holding anything else
/// (a private key given by mistake) is refused by its name, its content never shown.
fn key_from_file(file: &std::path::Path) -> Result<String, String> {
    let origin = format!("--key-file {}", file.display());
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
