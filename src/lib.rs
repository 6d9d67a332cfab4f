//! sitemapgen: writes `sitemap.xml` for a built static site.
//!
//! The pipeline, one module per stage, data flowing one way (docs/ARCHITECTURE.md):
//! [`config`] (file + flags into one [`Config`]) → [`generate`] (the run: `scan` walks
//! the public directory, handing each page to a worker as it finds it; for each page
//! [`rules`] (exclude / changefreq / priority), [`urls`] (path → absolute URL), [`page`]
//! (what the page's head says: noindex, canonical, redirects, hreflang, date),
//! `host` (what the host's own `_headers` says of the page), `canonical` (what a
//! canonical link names), `images` (its images, with
//! `images = true`), [`lastmod`] (date each page)) → `sections` (which child sitemaps
//! each page goes to) → [`sitemap`] (XML, splitting, index, atomic writes). Beside it:
//! [`stylesheet`], `views` (`sitemap.html`, `llms.txt`), `robots`, [`changes`],
//! [`check`], `audit` (across pages), [`explain`] (why a page is in or out), [`index`],
//! [`init`], [`submit`];
//! [`cli`] is the only part that prints. Leaves any stage may use, each using no other:
//! `text` (escaping, counted nouns), `w3c` (`<lastmod>`'s date forms), `slash` (paths as
//! `/`-joined names), `parallel` (independent jobs on every core), `http` (the client,
//! user agent and retries of `submit` and `check --live`).
//!
//! The API an embedder uses: [`Config`] (with [`config::Overrides`]), [`collect`] and
//! [`write`](fn@write) with their [`Collection`] and [`WriteOutcome`], [`check`], [`index`],
//! [`urls::BaseUrl`], and the errors and warnings in [`error`]. Its structs and enums are
//! `#[non_exhaustive]`: build them with their constructors or `Default`, and match them
//! with a wildcard arm. The other modules are public only for the project's own fuzz
//! targets, benchmarks and tests: they are hidden from these docs and may change in any
//! release; the rest are private. Build without the `cli` and `net` features (`default-features = false`)
//! to leave clap, indicatif and the HTTP client out; `examples/embed.rs` is a program
//! that does.
//!
//! ```no_run
//! use sitemapgen::config::{Config, Overrides};
//!
//! let config = Config::load(Some("sitemap.toml".as_ref()), &Overrides::default())?;
//! let collection = sitemapgen::collect(&config, sitemapgen::Details::Drop)?;
//! let outcome = sitemapgen::write(&config, &collection, &mut std::io::stdout())?;
//! # Ok::<(), sitemapgen::Error>(())
//! ```
#![deny(missing_docs)]
// Each `unsafe` left is allowed where it stands, saying why no safe crate does it.
#![deny(unsafe_code)]

#[doc(hidden)]
pub mod audit;
mod canonical;
#[doc(hidden)]
pub mod changes;
pub mod check;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub mod config;
pub mod error;
pub mod explain;
mod fsutil;
pub mod generate;
#[doc(hidden)]
pub mod generators;
mod host;
mod html;
// Without the `net` feature only `submit`'s dry run uses it.
#[cfg_attr(not(feature = "net"), allow(dead_code))]
mod http;
mod images;
pub mod index;
#[doc(hidden)]
pub mod init;
#[doc(hidden)]
pub mod lastmod;
mod packed;
#[doc(hidden)]
pub mod page;
mod parallel;
mod robots;
#[doc(hidden)]
pub mod rules;
mod scan;
mod sections;
#[doc(hidden)]
pub mod shard;
#[doc(hidden)]
pub mod sitemap;
mod slash;
#[doc(hidden)]
pub mod stylesheet;
#[doc(hidden)]
pub mod submit;
mod text;
pub mod urls;
mod views;
#[doc(hidden)]
pub mod w3c;

pub use config::Config;
pub use error::{Error, LeftOut, LeftOutCounts, Reason, Warning};
pub use generate::{
    Collection, Details, MAX_OPEN_FILES, Progress, WriteOutcome, collect, collect_with_progress,
    write,
};
