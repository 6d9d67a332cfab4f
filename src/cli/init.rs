//! `sitemapgen init`.

use std::path::Path;

use super::InitArgs;
use crate::config::DEFAULT_CONFIG_FILE;
use crate::init::Detected;
use crate::text::path as shown;

/// Writes `sitemap.toml` for the project in `args.dir`; an existing one is added to with
/// `--update`, replaced with `--force`, otherwise kept.
pub(super) fn init(args: &InitArgs) -> i32 {
    let found = crate::init::detect(&args.dir);
    for skipped in &found.skipped {
        super::say(format_args!("warning: {skipped}"));
    }
    let path = args.dir.join(DEFAULT_CONFIG_FILE);
    let code = match (path.exists(), args.update, args.force) {
        (true, true, _) => update(&args.dir, &path, &found),
        (true, false, false) => {
            super::say(format_args!(
                "error: {} already exists; run `sitemapgen init --update` to add what it \
                 lacks, or pass --force to replace it",
                shown(&path)
            ));
            2
        }
        _ => write(&args.dir, &path, &found),
    };
    if code == 0 && !found.built {
        // What the built site calls for (PDFs, languages, the host's files there) cannot
        // be seen yet.
        super::say(format_args!(
            "note: {} is not there yet: after the build, run `sitemapgen init --update` to \
             add what the built site calls for (documents, languages, host files)",
            shown(&args.dir.join(&found.public_dir))
        ));
    }
    code
}

/// Writes the file `init` proposes, and says what it found.
fn write(dir: &Path, path: &Path, found: &Detected) -> i32 {
    let text = crate::init::render(found);
    if let Err(e) = crate::fsutil::write_locked(dir, DEFAULT_CONFIG_FILE, text.as_bytes()) {
        super::say(format_args!("error: cannot write {}: {e}", shown(path)));
        return 1;
    }
    let what = match found.generator {
        Some(g) => format!("for {}", g.name),
        None => "(no generator recognised: set public_dir)".to_string(),
    };
    let url = match &found.base_url {
        Some(url) => format!("base_url {url}"),
        None => "no base_url found: set it".to_string(),
    };
    super::say(format_args!("wrote {} {what}; {url}", shown(path)));
    if let Some(host) = &found.host {
        let files: Vec<String> = (host.files.iter()).map(|f| shown(f)).collect();
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

/// Adds to the existing file, commented, what `init` proposes that it lacks; says what.
fn update(dir: &Path, path: &Path, found: &Detected) -> i32 {
    let limit = crate::generators::MAX_FILE_BYTES;
    let text = match crate::fsutil::read_below_string(dir, Path::new(DEFAULT_CONFIG_FILE), limit) {
        Ok(text) => text,
        Err(e) => {
            super::say(format_args!("error: cannot read {}: {e}", shown(path)));
            return 1;
        }
    };
    let updated = match crate::init::update(path, &text, found) {
        Ok(updated) => updated,
        Err(e) => {
            super::say(format_args!("error: {e}"));
            return 2;
        }
    };
    if updated.added.is_empty() {
        super::say(format_args!(
            "{} already has every key init proposes; nothing added",
            shown(path)
        ));
        return 0;
    }
    let written = crate::fsutil::write_locked(dir, DEFAULT_CONFIG_FILE, updated.text.as_bytes());
    if let Err(e) = written {
        super::say(format_args!("error: cannot write {}: {e}", shown(path)));
        return 1;
    }
    for proposal in &updated.added {
        super::say(format_args!(
            "added to {}, commented: {} ({})",
            shown(path),
            proposal.key,
            proposal.why
        ));
    }
    0
}
