//! Which source file dated a page, how it was found, and what of it gave the date: from
//! the build's own lookups (its routes, the link the page holds, the text match), so
//! `explain` says what the build did.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::generate::Collection;
use crate::lastmod::source::How;
use crate::lastmod::source::matching::ByText;

/// A page's source, as the build found it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SourceOf {
    /// The source file, relative to the project (none for an index page dated by the
    /// pages below it).
    pub file: Option<PathBuf>,
    /// How it was found.
    pub found: Found,
    /// What of it gave the date: its front-matter key and value, or its last commit.
    pub dated: String,
}

/// How a page's source was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Found {
    /// The generator's routing (or a `[[source.route]]`) builds the page from it.
    Route,
    /// The page links to it (an "edit this page" link, Sphinx's `_sources/`).
    Link,
    /// The page holds its text: the share of the source's text on the page, in
    /// thousandths.
    Text(u16),
    /// An index page with no source of its own: the newest page below it.
    Below,
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::Route => f.write_str("by its route"),
            Found::Link => f.write_str("by the link to it in the page"),
            Found::Text(score) => write!(
                f,
                "by its text ({}% of the source's text is on the page)",
                (u32::from(*score) + 5) / 10
            ),
            Found::Below => f.write_str("none of its own: the newest page below it dates it"),
        }
    }
}

/// The source that dated the page at `rel` (listed at `lastmod`), as the build found it.
pub(super) fn source_of(config: &Config, collection: &Collection, rel: &Path) -> Option<SourceOf> {
    let dates = collection.source_dates.as_ref()?;
    let settings = config.source.as_ref()?;
    let matched = (collection
        .by_text
        .binary_search_by(|(p, _)| p.as_path().cmp(rel))
        .ok())
    .map(|i| &collection.by_text[i].1);
    let (file, found, how) = match matched {
        Some(ByText::Matched {
            source,
            score,
            date: Ok((_, how)),
        }) => (Some(source.clone()), Found::Text(*score), *how),
        _ => match dates.get(rel) {
            Ok((_, How::Below)) => (None, Found::Below, How::Below),
            Ok((_, how)) => (dates.routed_source(rel), Found::Route, how),
            Err(_) => (linked(config, rel, dates), Found::Link, How::Commit),
        },
    };
    let dated = match (&file, how) {
        (_, How::Below) => "the newest date of the pages below it".to_string(),
        (Some(file), How::Key) => key_of(&settings.project, file, &settings.updated)
            .unwrap_or_else(|| "its front-matter updated key".to_string()),
        _ => "the last commit that touched it".to_string(),
    };
    Some(SourceOf { file, found, dated })
}

/// The source the page at `rel` links to, read again as the build read it.
fn linked(
    config: &Config,
    rel: &Path,
    dates: &crate::lastmod::source::SourceDates,
) -> Option<PathBuf> {
    use crate::lastmod::source::SOURCE_LINK_MARKERS;
    let html =
        crate::fsutil::read_below(&config.public_dir, rel, crate::page::MAX_HELD as u64).ok()?;
    let rank = |href: &str| SOURCE_LINK_MARKERS.iter().position(|m| href.contains(m));
    let wants = crate::page::Wants::default();
    let read = crate::page::read_held(&html, &wants, Some(&rank));
    dates.source_by_link(&read.source_link?)
}

/// The front-matter key of `file` (in `project`) that gave its date, with its value,
/// the first of `keys` present; none when the date is its last commit's.
fn key_of(project: &Path, file: &Path, keys: &[String]) -> Option<String> {
    use crate::lastmod::source::front_matter;
    let limit = front_matter::FRONT_MATTER_LIMIT as u64;
    let text = crate::fsutil::read_below(project, file, limit.max(1 << 20)).ok()?;
    let text = String::from_utf8_lossy(&text);
    keys.iter().find_map(|key| {
        let read = front_matter::parse(&text, std::slice::from_ref(key));
        let date = read.updated?;
        Some(format!("its front-matter key {key} = {date}"))
    })
}
