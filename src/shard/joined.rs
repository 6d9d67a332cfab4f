//! What the merge makes of the shards besides the index: one change list for `submit`,
//! and the site's views from the pages each shard recorded.

use std::path::PathBuf;

use super::error::MergeError;
use super::input::{MergeOptions, Shard};
use super::manifest::{ManifestViews, ReadChanges};
use crate::changes::Changes;
use crate::fsutil::At;
use crate::sections::SectionUrls;
use crate::sitemap;
use crate::views::{self, AboutPage, AboutParts};

/// The shards' change lists as one: each list the sorted union of the shards', and a URL
/// one shard removed but another added or updated (it moved) not removed. `None` when no
/// shard keeps a change list.
pub(super) fn join_changes(shards: &[Shard]) -> Option<Changes> {
    let lists: Vec<&ReadChanges> = shards
        .iter()
        .filter_map(|s| s.manifest.changes.as_ref())
        .collect();
    if lists.is_empty() {
        return None;
    }
    let union = |pick: fn(&ReadChanges) -> &crate::changes::UrlList| {
        let mut urls: Vec<&str> = lists.iter().flat_map(|c| pick(c).iter()).collect();
        urls.sort_unstable();
        urls.dedup();
        urls
    };
    let added = union(|c| &c.added);
    let updated = union(|c| &c.updated);
    let mut removed = union(|c| &c.removed);
    removed.retain(|url| added.binary_search(url).is_err() && updated.binary_search(url).is_err());
    let owned = |urls: Vec<&str>| urls.into_iter().map(str::to_string).collect();
    Some(Changes {
        first_run: lists.iter().all(|c| c.first_run),
        added: owned(added),
        updated: owned(updated),
        removed: owned(removed),
    })
}

/// Writes the joined change list, unless the one there lists the same (so a merge run
/// again does not undo `submit`'s record and send the same URLs twice).
pub(super) fn save_changes(
    options: &MergeOptions,
    changes: Changes,
) -> Result<(PathBuf, Changes), MergeError> {
    let path = options.changes_file.to_path_buf();
    let same = crate::changes::load(&path).is_ok_and(|old| {
        old.base_url == options.base_url.as_str()
            && old.first_run == changes.first_run
            && old
                .added
                .iter()
                .eq(changes.added.iter().map(String::as_str))
            && old
                .updated
                .iter()
                .eq(changes.updated.iter().map(String::as_str))
            && old
                .removed
                .iter()
                .eq(changes.removed.iter().map(String::as_str))
    });
    if !same {
        let now = jiff::Timestamp::now();
        crate::changes::save(&path, options.base_url.as_str(), now, &changes)
            .at(&path)
            .map_err(MergeError::Changes)?;
    }
    Ok((path, changes))
}

/// Refuses views when a shard recorded none of its pages, or a page off the base URL.
pub(super) fn check_views(shards: &[Shard], options: &MergeOptions) -> Result<(), MergeError> {
    for shard in shards {
        let Some(views) = &shard.manifest.views else {
            return Err(MergeError::NoViews {
                path: shard.path.clone(),
                name: crate::text::one_line(&shard.manifest.name),
            });
        };
        let base = options.base_url.as_str();
        if let Some(page) = views.pages.iter().find(|p| !p.loc.starts_with(base)) {
            return Err(MergeError::PageOutside {
                path: shard.path.clone(),
                loc: page.loc.clone(),
            });
        }
        // Each page once, and one of the shard's URLs: no more pages than its sitemaps
        // list, and none they do not (a line break in a URL would be a line of its own
        // in llms.txt).
        let unlisted = |loc: &str| MergeError::PageUnlisted {
            path: shard.path.clone(),
            loc: loc.to_string(),
        };
        if let Some(page) = (views.pages.iter()).find(|p| p.loc.contains(char::is_whitespace)) {
            return Err(unlisted(&page.loc));
        }
        let mut hashes: Vec<(u64, &str)> = (views.pages.iter())
            .map(|p| (super::url_hash(&p.loc), p.loc.as_str()))
            .collect();
        hashes.sort_unstable();
        if let Some(pair) = hashes.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(unlisted(pair[1].1));
        }
        if let Some(loc) = super::verify::first_unlisted(shard, &hashes)? {
            return Err(unlisted(loc));
        }
    }
    Ok(())
}

/// Writes the site's views from what the shards recorded of their pages, in shard
/// order, each shard's sections kept (a shard without sections is one group of pages
/// in none).
pub(super) fn write_views(
    options: &MergeOptions,
    shards: &[Shard],
    sitemap_url: &str,
) -> Result<views::Written, MergeError> {
    let base = options.base_url.as_str();
    let recorded: Vec<&ManifestViews> = shards
        .iter()
        .filter_map(|s| s.manifest.views.as_ref())
        .collect();
    let any_sections = recorded.iter().any(|v| !v.sections.is_empty());
    let mut sections = Vec::new();
    let mut about = AboutParts::default();
    let mut entries = Vec::new();
    for (shard, views) in shards.iter().zip(&recorded) {
        if any_sections && views.sections.is_empty() {
            sections.push(SectionUrls {
                name: None,
                urls: views.pages.len(),
            });
        }
        sections.extend(views.sections.iter().map(|s| SectionUrls {
            name: s.name.clone(),
            urls: s.urls,
        }));
        for page in &views.pages {
            let path = page.path.as_deref().map(|p| shard.rel.join(p));
            let lang = page.loc == base;
            about.add(
                entries.len() as u32,
                AboutPage {
                    title: page.title.as_deref(),
                    description: page.description.as_deref(),
                    lang: if lang { views.lang.as_deref() } else { None },
                    // The manifest keeps the site's language only.
                    language: None,
                    path: path.as_deref(),
                    size: None,
                    forced: None,
                },
            );
            entries.push(sitemap::Entry {
                loc: page.loc.as_str().into(),
                lastmod: None,
                changefreq: None,
                priority: None,
                extras: None,
            });
        }
    }
    let entries = sitemap::Entries::with_base(base, entries);
    let about = about.in_order(0..entries.len() as u32);
    let site = views::Site {
        settings: options.views,
        public_dir: options.dir,
        base_url: base,
        entries: entries.as_slice(),
        about: &about,
        sections: &sections,
        // No walk of the joined site was made: the views walk it when they need to.
        view_files: None,
    };
    Ok(views::write(&site, sitemap_url)?)
}
