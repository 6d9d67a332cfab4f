//! sitemapgen as a library, without the command line's crates: builds the sitemap of a
//! site in memory, checks it, and prints it. Built by CI with `--no-default-features`
//! (no clap, indicatif or HTTP client):
//!
//! ```sh
//! cargo run --example embed --no-default-features -- sitemap.toml.example
//! ```

use std::process::ExitCode;

use sitemapgen::check::{CheckOptions, check_bytes};
use sitemapgen::config::{Config, Overrides};

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .unwrap_or_else(|| "sitemap.toml.example".into());
    match run(path.as_ref()) {
        Ok(xml) => {
            print!("{xml}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The sitemap of the site `config_path` describes, written to memory rather than to
/// its file, and checked as `sitemapgen check` would.
fn run(config_path: &std::path::Path) -> Result<String, Box<dyn std::error::Error>> {
    let mut overrides = Overrides::default();
    // `-`: the XML goes to the writer given to `write`, not to a file.
    overrides.output = Some("-".into());
    let config = Config::load(Some(config_path), &overrides)?;
    let collection = sitemapgen::collect(&config, sitemapgen::Details::Drop)?;
    for warning in &collection.warnings {
        eprintln!("warning: {warning}");
    }
    let mut xml = Vec::new();
    sitemapgen::write(&config, &collection, &mut xml)?;
    let options = CheckOptions::new(Some(config.base_url.clone()));
    let report = check_bytes("sitemap.xml", &xml, &options);
    eprintln!(
        "{} URLs ({} pages left out); check: {} errors, {} warnings",
        collection.entries.len(),
        collection.counts.total(),
        report.errors(),
        report.warnings()
    );
    if report.errors() > 0 {
        return Err(format!("the sitemap has {} errors", report.errors()).into());
    }
    Ok(String::from_utf8(xml)?)
}
