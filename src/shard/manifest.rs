//! A shard's manifest: what `build --shard` wrote, for `merge` to check and list.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::changes::UrlList;
use crate::sitemap::Child;

/// The manifest format this version writes and reads. Version 2 names the children
/// `{stem}-{shard}.…` ([`super::SEPARATOR`]) and records the URL form.
pub const VERSION: u32 = 2;

/// The most bytes the manifests of one merge may hold together, all read and held at
/// once (a change list can list every URL of a first run, and views every page's title
/// and description): past it, the merge refuses the manifest that passes it.
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;

/// A shard's manifest; `C` is its change list (as written, or as read).
#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest<C> {
    /// The format version ([`VERSION`]).
    pub sitemapgen_shard: u32,
    /// The shard's name.
    pub name: String,
    /// The base URL the shard was built for.
    pub base_url: String,
    /// The root sitemap's file name the merge writes (`sitemap.xml`, `sitemap.xml.gz`).
    pub sitemap: String,
    /// How many URLs its children list.
    pub urls: u64,
    /// The form its URLs take: shards of one site must agree, or it would list both
    /// forms of a URL (`/about` and `/about.html`).
    pub url_form: UrlForm,
    /// Its child sitemaps, in order, each with its checksum.
    pub children: Vec<Child>,
    /// The side file of its URLs' sorted 64-bit hashes ([`super::url_hash`]).
    pub url_hashes: SideFile,
    /// Its change list, when the build keeps one.
    pub changes: Option<C>,
    /// What the views show of its pages, when the build writes views: the merge makes
    /// the site's views from these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<ManifestViews>,
}

/// What the views need of a shard's pages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestViews {
    /// The home page's language, when the shard has the home page.
    pub lang: Option<String>,
    /// Its sections, in the order of its pages; empty without sections.
    pub sections: Vec<ManifestSection>,
    /// Its listed pages, in its sitemaps' order.
    pub pages: Vec<ManifestPage>,
}

/// A section of a shard, as its pages are ordered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestSection {
    /// Its name; `None` for the pages in no section.
    pub name: Option<String>,
    /// How many of the pages, from where the previous section ended.
    pub urls: usize,
}

/// One listed page, as the views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestPage {
    /// Its URL.
    pub loc: String,
    /// Its title.
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Its file under the shard's directory, for `llms-full.txt`.
    pub path: Option<String>,
}

/// The settings that decide the form of a shard's URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlForm {
    /// `trailing_slash`.
    pub trailing_slash: bool,
    /// `clean_urls`.
    pub clean_urls: bool,
    /// `about.html` listed as `about/` (clean URLs with trailing slashes).
    pub clean_slash: bool,
    /// `x.y/` listed as `x.y` (Vercel's `trailingSlash`).
    #[serde(default)]
    pub dotted_bare: bool,
}

impl UrlForm {
    /// The form a build's URL style gives.
    pub fn of(style: &crate::urls::UrlStyle) -> UrlForm {
        UrlForm {
            trailing_slash: style.trailing_slash,
            clean_urls: style.clean_urls,
            clean_slash: style.clean_slash,
            dotted_bare: style.dotted_bare,
        }
    }

    /// The first setting on which `self` and `other` differ, with each one's value.
    pub fn differs(self, other: UrlForm) -> Option<(&'static str, bool, bool)> {
        [
            ("clean_urls", self.clean_urls, other.clean_urls),
            ("trailing_slash", self.trailing_slash, other.trailing_slash),
            (
                "clean_urls with trailing_slash (clean_slash)",
                self.clean_slash,
                other.clean_slash,
            ),
            (
                "a name that ends as a file's without its slash (Vercel's trailingSlash)",
                self.dotted_bare,
                other.dotted_bare,
            ),
        ]
        .into_iter()
        .find(|(_, a, b)| a != b)
    }
}

/// A file beside the manifest, by name and checksum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideFile {
    /// Its file name, beside the manifest.
    pub file: String,
    /// The XXH3-128 checksum of its bytes, in hex.
    pub xxh3: String,
}

/// A change list as a manifest read holds it: its lists packed ([`UrlList`]).
#[derive(Debug, Default, Deserialize)]
pub struct ReadChanges {
    /// The shard had no previous state.
    pub first_run: bool,
    /// URLs new in the shard's build.
    pub added: UrlList,
    /// URLs whose content changed.
    pub updated: UrlList,
    /// URLs the shard listed before and lists no more.
    pub removed: UrlList,
}

/// Only the version: a manifest of another version may have another shape.
#[derive(Deserialize)]
struct Version {
    sitemapgen_shard: Option<u32>,
}

/// The names of the files a manifest of any version names, for the build that replaces
/// it to remove those it no longer writes.
#[derive(Deserialize)]
struct Named {
    children: Vec<NamedFile>,
    url_hashes: NamedFile,
}

#[derive(Deserialize)]
struct NamedFile {
    file: String,
}

/// Why a manifest cannot be read, said after its path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestProblem {
    /// Unreadable: missing, not a regular file.
    #[error("cannot be read ({0})")]
    Read(String),
    /// Not JSON of a manifest's shape.
    #[error(
        "is not a shard manifest ({0}); pass the sitemap-NAME.manifest.json a `build --shard` wrote"
    )]
    Shape(String),
    /// Written by another format version.
    #[error(
        "is a manifest of format version {0}, and this sitemapgen reads version {VERSION}; build the shard again with this version"
    )]
    Version(u32),
    /// With the manifests read before it, past [`MAX_TOTAL_BYTES`].
    #[error(
        "takes the manifests of this merge past {}, the most one merge reads (this one is {}, those before it {}); pass each shard's own manifest as its build wrote it, not a file from elsewhere",
        crate::text::bytes(MAX_TOTAL_BYTES),
        crate::text::bytes(*size),
        crate::text::bytes(*before)
    )]
    OverTotal {
        /// Its size, or as much of it as was read.
        size: u64,
        /// What the manifests before it took.
        before: u64,
    },
}

/// A manifest read, and the bytes it took.
pub struct ReadManifest {
    /// The manifest.
    pub manifest: Manifest<ReadChanges>,
    /// Its size in bytes.
    pub bytes: u64,
}

/// Reads the manifest at `path`, a regular file of this version, as it streams: at most
/// `room` bytes of it ([`ManifestProblem::OverTotal`] past them, `before` being what the
/// manifests read before it took).
pub fn read_within(path: &Path, room: u64, before: u64) -> Result<ReadManifest, ManifestProblem> {
    let unreadable =
        |e: std::io::Error| ManifestProblem::Read(crate::text::one_line(&e.to_string()));
    let file = crate::fsutil::open_regular(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    if size > room {
        return Err(ManifestProblem::OverTotal { size, before });
    }
    let reader = |file| std::io::BufReader::new(crate::fsutil::Capped::new(file, room));
    // A file that grew past `room` as it was read fails with Capped's error.
    let shape = |e: serde_json::Error| {
        let e = std::io::Error::from(e);
        match crate::fsutil::too_large(&e) {
            Some(_) => ManifestProblem::OverTotal {
                size: room + 1,
                before,
            },
            None => ManifestProblem::Shape(crate::text::one_line(&e.to_string())),
        }
    };
    match serde_json::from_reader::<_, Manifest<ReadChanges>>(reader(file)) {
        Ok(manifest) if manifest.sitemapgen_shard == VERSION => Ok(ReadManifest {
            manifest,
            bytes: size,
        }),
        Ok(manifest) => Err(ManifestProblem::Version(manifest.sitemapgen_shard)),
        Err(error) => {
            // Read again for its version alone (the rest skipped as it streams): a
            // manifest of another version says so rather than why its shape is not ours.
            let file = crate::fsutil::open_regular(path).map_err(unreadable)?;
            match serde_json::from_reader::<_, Version>(reader(file)) {
                Ok(Version {
                    sitemapgen_shard: Some(v),
                }) if v != VERSION => Err(ManifestProblem::Version(v)),
                Ok(Version {
                    sitemapgen_shard: None,
                }) => Err(ManifestProblem::Shape(
                    "it has no sitemapgen_shard version".to_string(),
                )),
                _ => Err(shape(error)),
            }
        }
    }
}

/// The names of the files the manifest at `path` names, of whichever version: none
/// when it is missing or not a manifest.
pub fn named_files(path: &Path) -> Vec<String> {
    let Ok(file) = crate::fsutil::open_regular(path) else {
        return Vec::new();
    };
    let reader = std::io::BufReader::new(crate::fsutil::Capped::new(file, MAX_TOTAL_BYTES));
    match serde_json::from_reader::<_, Named>(reader) {
        Ok(named) => (named.children.into_iter().map(|c| c.file))
            .chain([named.url_hashes.file])
            .collect(),
        Err(_) => Vec::new(),
    }
}
