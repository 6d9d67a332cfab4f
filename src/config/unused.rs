//! Settings that do nothing this run, found as the config is checked: each is a
//! warning, since a setting silently ignored is a setting the user believes in.

use super::Overrides;
use super::error::Unused;
use super::file::{FileConfig, Source};
use crate::lastmod::LastmodSource;

/// What of `file` this run ignores. `lastmod` is the sources as checked; `shard` the
/// shard this build maps, if any.
pub(super) fn unused(
    file: &FileConfig,
    src: &Source,
    overrides: &Overrides,
    lastmod: &[LastmodSource],
    shard: Option<&str>,
) -> Vec<Unused> {
    let mut unused = Vec::new();
    if let Some(table) = &file.source
        && !crate::lastmod::uses(lastmod, LastmodSource::Source)
    {
        let mut names: Vec<String> = vec!["\"source\"".to_string()];
        let others = lastmod.iter().take_while(|s| **s != LastmodSource::None);
        names.extend(others.map(|s| format!("\"{}\"", s.name())));
        unused.push(Unused {
            origin: src.at(table.span()),
            key: "[source]".to_string(),
            why: format!(
                "lastmod does not name \"source\", which alone reads it; write lastmod = [{}]",
                names.join(", ")
            ),
        });
    }
    unused.extend(overridden(file, src, overrides));
    if let (Some(first), None) = (file.shards.first(), shard) {
        unused.push(Unused {
            origin: src.at(first.name.span()),
            key: "[[shards]]".to_string(),
            why: "this build is no shard's (neither shard = nor --shard), so it maps the whole site; build each shard with --shard NAME, then join them with sitemapgen merge".to_string(),
        });
    }
    unused
}

/// The file's keys a flag of this run gives another value: the flag's value is used.
fn overridden(file: &FileConfig, src: &Source, overrides: &Overrides) -> Vec<Unused> {
    let text = |key: &str, flag: &str, value: &str, at: Option<std::ops::Range<usize>>| Unused {
        origin: at.map_or_else(|| src.origin.clone(), |span| src.at(span)),
        key: key.to_string(),
        why: format!(
            "{flag} {} overrides it this run; drop the flag or the key",
            crate::text::shorten(value)
        ),
    };
    let mut found = Vec::new();
    if let (Some(flag), Some(key)) = (&overrides.base_url, &file.base_url)
        && flag != key.get_ref()
    {
        found.push(text("base_url", "--base-url", flag, Some(key.span())));
    }
    if let (Some(flag), Some(key)) = (&overrides.output, &file.output)
        && flag != key.get_ref()
    {
        let value = crate::text::slashed(flag);
        found.push(text("output", "--output", &value, Some(key.span())));
    }
    if let (Some(flag), Some(key)) = (overrides.format, file.format)
        && flag != key
    {
        let name = match flag {
            super::Format::Xml => "xml",
            super::Format::Txt => "txt",
        };
        found.push(text("format", "--format", name, None));
    }
    if let (Some(flag), Some(key)) = (&overrides.shard, &file.shard)
        && flag != key.get_ref()
    {
        found.push(text("shard", "--shard", flag, Some(key.span())));
    }
    found
}
