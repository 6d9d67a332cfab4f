//! `sitemapgen submit`.

use std::time::Duration;

use super::SubmitArgs;
use crate::config::{self, Config, Overrides};
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
            for (endpoint, body) in &requests {
                println!("POST {endpoint}\n{body}");
            }
            super::say(format_args!(
                "dry run: {} not sent",
                crate::text::count(requests.len(), "request", "requests")
            ));
            0
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

/// The options from the config, the environment and the flags. Errors are the config's
/// messages (exit 2).
fn options(args: &SubmitArgs) -> Result<SubmitOptions, String> {
    let overrides = Overrides {
        base_url: args.base_url.clone(),
        ..Overrides::default()
    };
    let path = args.config.clone().or_else(|| {
        let default = std::path::PathBuf::from(config::DEFAULT_CONFIG_FILE);
        default.is_file().then_some(default)
    });
    let config = Config::load(path.as_deref(), &overrides).map_err(|e| e.to_string())?;
    let key = match &args.key_file {
        Some(file) => crate::fsutil::read_regular_string(file, 4096)
            .map(|k| k.trim().to_string())
            .map_err(|e| format!("--key-file {}: {e}", file.display()))?,
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
        endpoint: args
            .endpoint
            .clone()
            .unwrap_or_else(|| config.indexnow.endpoint.clone()),
        verify_key: args.verify_key,
        dry_run: args.dry_run,
        retries: args.retries,
        backoff: Duration::from_millis(args.backoff_ms),
    })
}
