//! `sitemapgen init`.

use std::io;

use super::InitArgs;
use crate::config;

/// Writes `sitemap.toml` for the project in `args.dir`; never over an existing file
/// unless `--force`.
pub(super) fn init(args: &InitArgs) -> i32 {
    let found = crate::init::detect(&args.dir);
    for skipped in &found.skipped {
        super::say(format_args!("warning: {skipped}"));
    }
    let path = args.dir.join(config::DEFAULT_CONFIG_FILE);
    let text = crate::init::render(&found);
    let written = match args.force || !path.exists() {
        true => {
            crate::fsutil::write_locked(&args.dir, config::DEFAULT_CONFIG_FILE, text.as_bytes())
        }
        false => Err(std::io::ErrorKind::AlreadyExists.into()),
    };
    match written {
        Ok(()) => {
            let what = match found.generator {
                Some(g) => format!("for {}", g.name),
                None => "(no generator recognised: set public_dir)".to_string(),
            };
            let url = match &found.base_url {
                Some(url) => format!("base_url {url}"),
                None => "no base_url found: set it".to_string(),
            };
            super::say(format_args!("wrote {} {what}; {url}", path.display()));
            if let Some(host) = &found.host {
                let files: Vec<String> = (host.files.iter())
                    .map(|f| f.display().to_string())
                    .collect();
                let files = match files.is_empty() {
                    true => "no rules files".to_string(),
                    false => format!("rules from {}", files.join(", ")),
                };
                super::say(format_args!("host: {}; {files}", host.hosting.name()));
            }
            for hint in &found.hints {
                super::say(format_args!("hint: {hint}"));
            }
            0
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            super::say(format_args!(
                "error: {} already exists; pass --force to replace it",
                path.display()
            ));
            2
        }
        Err(e) => {
            super::say(format_args!("error: cannot write {}: {e}", path.display()));
            1
        }
    }
}
