//! sitemapgen: writes `sitemap.xml` for a built static site.
//!
//! The pipeline, one module per stage, data flowing one way (docs/ARCHITECTURE.md):
//! [`config`] (file + flags into one [`Config`]) → [`generate`] (the run: [`scan`] walks
//! the public directory, handing each page to a worker as it finds it; for each page
//! [`rules`] (exclude / changefreq / priority), [`urls`] (path → absolute URL), [`page`]
//! (what the page's head says: noindex, canonical, redirects, hreflang, date),
//! [`canonical`] (what a canonical link names), [`images`] (its images, with
//! `images = true`), [`lastmod`] (date each page)) → [`sections`] (which child sitemaps
//! each page goes to) → [`sitemap`] (XML, splitting, index, atomic writes). Beside it:
//! [`stylesheet`], [`views`] (`sitemap.html`, `llms.txt`), [`robots`], [`changes`],
//! [`check`], [`index`], [`init`], [`submit`];
//! [`cli`] is the only part that prints.
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

pub mod canonical;
pub mod changes;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod error;
pub mod fsutil;
pub mod generate;
mod html;
pub mod images;
pub mod index;
pub mod init;
pub mod lastmod;
pub mod page;
pub mod robots;
pub mod rules;
pub mod scan;
pub mod sections;
pub mod sitemap;
pub mod stylesheet;
pub mod submit;
pub mod text;
pub mod urls;
pub mod views;

pub use config::Config;
pub use error::{Error, LeftOut, LeftOutCounts, Warning};
pub use generate::{
    Collection, Details, MAX_OPEN_FILES, Progress, WriteOutcome, collect, collect_with_progress,
    write,
};
pub(crate) use text::one_line;
