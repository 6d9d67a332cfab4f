//! A shard's build: its children written as any build's, with its manifest (and side
//! file of URL hashes) in the index's place.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::Path;

use super::manifest::{self, Manifest, ManifestPage, ManifestSection, ManifestViews};
use super::manifest::{SideFile, UrlForm, VERSION};
use super::{SEPARATOR, child_shape, manifest_of, output_of, url_hash};
use crate::changes::Changes;
use crate::fsutil::dir::Dir;
use crate::sections::SectionUrls;
use crate::sitemap::read::{Root, root_in};
use crate::sitemap::{
    self, Child, ChildPrefix, ChildShape, Form, Group, Limits, Render, RootFile, Stale, WriteError,
    Written, split_name,
};
use crate::views::Abouts;

/// The ending of a shard's side file of URL hashes.
const SIDE_SUFFIX: &str = ".hashes";

/// What a shard build writes besides its sitemaps' entries.
pub struct ShardBuild<'a> {
    /// The shard's name.
    pub name: &'a str,
    /// The configured output (`public/sitemap.xml`): the shard writes beside it.
    pub output: &'a Path,
    /// The site's base URL, as the manifest records it.
    pub base_url: &'a str,
    /// The form of its URLs, as the manifest records it.
    pub url_form: UrlForm,
    /// Where its children are published.
    pub prefix: &'a ChildPrefix,
    /// The shard's change list, when changes are kept.
    pub changes: Option<&'a Changes>,
    /// What its pages say of themselves, in the entries' order, when views are written;
    /// recorded for the merge to make the site's views.
    pub about: Option<&'a Abouts>,
    /// Its sections, as [`crate::Collection::sections`].
    pub sections: &'a [SectionUrls],
}

/// What the views need of the shard's pages, from its entries and what they say.
fn views_of(shard: &ShardBuild, groups: &[Group]) -> Option<ManifestViews> {
    let about = shard.about?;
    let entries = groups.iter().flat_map(|g| g.entries.iter());
    let pages = (entries.enumerate())
        .map(|(i, entry)| {
            let (title, description) = if i < about.len() {
                about.get(i)
            } else {
                (None, None)
            };
            ManifestPage {
                loc: entry.loc().to_string(),
                title: title.map(str::to_string),
                description: description.map(str::to_string),
                path: about
                    .path(i)
                    .map(|p| String::from_utf8_lossy(&crate::slash::joined(p)).into_owned()),
            }
        })
        .collect();
    let sections = (shard.sections.iter())
        .map(|s| ManifestSection {
            name: s.name.clone(),
            urls: s.urls,
        })
        .collect();
    Some(ManifestViews {
        lang: about.lang().map(str::to_string),
        sections,
        pages,
    })
}

/// Writes a shard: its children through the sitemap writer ([`sitemap::write_set`]),
/// with its side file of URL hashes beside them and its manifest as their root, renamed
/// last: the one moment the shard's published set changes. Of the files beside it, only
/// those the previous manifest named and this one does not are removed, so the other
/// shards' files stay as they are.
pub fn write(
    shard: &ShardBuild,
    groups: &[Group],
    limits: Limits,
    form: Form,
) -> Result<Written, WriteError> {
    let output = output_of(shard.output, shard.name);
    let manifest_path = manifest_of(shard.output, shard.name);
    let (urls, side) = url_hashes(groups);
    let side_check = sitemap::checksum_hex(xxhash_rust::xxh3::xxh3_128(&side));
    let (stem, _) = split_name(&output);
    let side_name = format!("{stem}.{}{SIDE_SUFFIX}", &side_check[..12]);
    let previous: HashSet<String> = manifest::named_files(&manifest_path).into_iter().collect();
    let views = views_of(shard, groups);
    let (_, ext) = split_name(shard.output);
    let render = |children: &[Child], out: &mut dyn Write| -> io::Result<()> {
        let manifest = Manifest::<&Changes> {
            sitemapgen_shard: VERSION,
            name: shard.name.to_string(),
            base_url: shard.base_url.to_string(),
            sitemap: format!("{}{ext}", split_name(shard.output).0),
            urls,
            url_form: shard.url_form,
            children: children.to_vec(),
            url_hashes: SideFile {
                file: side_name.clone(),
                xxh3: side_check.clone(),
            },
            changes: shard.changes,
            views: views.clone(),
        };
        serde_json::to_writer_pretty(&mut *out, &manifest)?;
        out.write_all(b"\n")
    };
    let proof = |dir: &Dir, name: &OsStr| ours(&output, dir, name);
    let root = RootFile {
        path: &manifest_path,
        render: Render::With(&render),
        joint: SEPARATOR,
        beside: Some((&side_name, &side)),
        checksum: true,
        stale: Stale::Named {
            previous: &previous,
            ours: &proof,
        },
    };
    sitemap::write_set(&output, shard.prefix, groups, limits, form, &root)
}

/// How many URLs the groups list, and the side file of their sorted 64-bit hashes
/// ([`url_hash`], little-endian), by which the merge finds a URL two shards list.
fn url_hashes(groups: &[Group]) -> (u64, Vec<u8>) {
    let mut url = String::new();
    let mut hashes: Vec<u64> = (groups.iter())
        .flat_map(|g| g.entries.iter())
        .map(|e| {
            url.clear();
            e.loc().write_into(&mut url);
            url_hash(&url)
        })
        .collect();
    hashes.sort_unstable();
    let side = hashes.iter().flat_map(|h| h.to_le_bytes()).collect();
    (hashes.len() as u64, side)
}

/// Whether the file `name` beside the shard's `output`, which its previous manifest
/// named, is the shard's to remove. A manifest names files only, and only these shapes
/// are ever removed, whatever it says: its side files (`{stem}.….hashes`), and regular
/// files holding a sitemap named as its children (`{stem}.…`, which no other shard's
/// name starts with) or as format-1 shards named them without a section
/// (`{stem}-{n}-{hash}{ext}`, which no other shard's are). Their children of a section
/// (`{stem}-{section}-…`) are left: shard `blog`'s `news` has the name shard `blog-news`
/// would give its own.
fn ours(output: &Path, dir: &Dir, name: &OsStr) -> bool {
    let name = name.to_str().unwrap_or_default();
    let (stem, _) = split_name(output);
    let side = name
        .strip_prefix(&format!("{stem}."))
        .is_some_and(|r| r.ends_with(SIDE_SUFFIX));
    let shaped = child_shape(output, name).is_some()
        || sitemap::child_shape(output, sitemap::JOINT, name) == Some(ChildShape::Hashed);
    side || (shaped && root_in(dir, name.as_ref()) == Some(Root::Urlset))
}
