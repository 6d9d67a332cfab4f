//! Writing sitemaps: entries to XML (quick-xml escapes every value), split into files of
//! at most 50,000 URLs and 50 MiB, a sitemap index when there is more than one file,
//! and every file written to a temporary file beside its target and renamed into place.

mod entries;
pub mod read;
mod replace;
mod split;
#[cfg(test)]
mod tests;
mod xml;

use std::io::Read;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

pub use entries::{Entries, EntryRef, EntrySlice, Loc};
pub(crate) use entries::{Fields, Item};
pub use replace::{
    Indexes, Render, Renderer, RootFile, Stale, write_files, write_index_file, write_indexes,
    write_set,
};
pub use split::{refuse_too_many_files, write_single};

use crate::fsutil::IoError;
use crate::rules::{Changefreq, Priority};
use crate::w3c::LastmodFormat;

/// The sitemaps.org 0.9 namespace.
pub const NAMESPACE: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// The XHTML namespace, of the `<xhtml:link>` that gives a page's language versions.
pub const XHTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

/// Google's image extension's namespace, of `<image:image>`.
pub const IMAGE_NAMESPACE: &str = "http://www.google.com/schemas/sitemap-image/1.1";

/// The protocol's size limit for one sitemap file, uncompressed: 50 MiB.
pub const PROTOCOL_MAX_BYTES: usize = 52_428_800;

/// The protocol's limit of sitemaps in one index (and URLs in one sitemap).
pub const PROTOCOL_MAX_ENTRIES: usize = 50_000;

/// One `<url>` of a sitemap.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The absolute, percent-encoded URL (not yet XML-escaped).
    pub loc: Box<str>,
    /// `<lastmod>`, if known.
    pub lastmod: Option<Timestamp>,
    /// `<changefreq>`, if set.
    pub changefreq: Option<Changefreq>,
    /// `<priority>`, if set.
    pub priority: Option<Priority>,
    /// Language alternates and images, boxed apart: most pages have neither, and every
    /// entry of a million-page site carries the field (8 bytes, not 32).
    pub extras: Option<Box<Extras>>,
}

impl Entry {
    /// Language alternates, written as `<xhtml:link rel="alternate">`.
    pub fn alternates(&self) -> &[Alternate] {
        self.extras.as_ref().map_or(&[], |e| &e.alternates)
    }

    /// Absolute URLs of the page's images, written as `<image:image>`.
    pub fn images(&self) -> &[Box<str>] {
        self.extras.as_ref().map_or(&[], |e| &e.images)
    }
}

/// What an entry may list besides the page: its language versions and its images.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extras {
    /// Language alternates, written as `<xhtml:link rel="alternate">`.
    pub alternates: Box<[Alternate]>,
    /// Absolute URLs of the page's images, written as `<image:image>`.
    pub images: Box<[Box<str>]>,
}

impl Extras {
    /// The extras of an entry: `None` when there are none.
    pub fn boxed(alternates: Vec<Alternate>, images: Box<[Box<str>]>) -> Option<Box<Extras>> {
        if alternates.is_empty() && images.is_empty() {
            return None;
        }
        Some(Box::new(Extras {
            alternates: alternates.into_boxed_slice(),
            images,
        }))
    }
}

/// A language version of a page (hreflang).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternate {
    /// A BCP 47 language tag or `x-default`.
    pub hreflang: String,
    /// The absolute URL of that version.
    pub href: String,
}

/// When to start a new sitemap file.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// URLs per file (at most 50,000).
    pub max_urls: usize,
    /// Bytes per file, uncompressed (at most 50 MiB).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_urls: PROTOCOL_MAX_ENTRIES,
            max_bytes: PROTOCOL_MAX_BYTES,
        }
    }
}

/// A failure to write; nothing of the new sitemap is left behind.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The OS refused a write, rename or removal.
    #[error("cannot write {0}")]
    Io(#[from] IoError),
    /// The output's directory, symbolic links resolved, is outside the public directory.
    #[error(
        "cannot write {}: its directory is {}, outside public_dir {}; an output set in the config file stays in the site (use --output to write elsewhere)",
        crate::text::path(path),
        crate::text::path(real),
        crate::text::path(public_dir)
    )]
    Outside {
        /// The output as configured.
        path: PathBuf,
        /// Where its directory really is.
        real: PathBuf,
        /// The public directory, symbolic links resolved.
        public_dir: PathBuf,
    },
    /// Standard output can take one sitemap, not an index and its children.
    #[error(
        "{urls} URLs need {files} sitemap files and an index, which cannot go to standard output; write to a file instead (--output sitemap.xml)"
    )]
    NeedsIndex {
        /// URLs to write.
        urls: usize,
        /// Files they need.
        files: usize,
    },
    /// More files than one index may list.
    #[error(
        "{files} sitemap files would be needed, more than the 50,000 one index may list; raise max_urls_per_file or split the site into several runs"
    )]
    TooManyFiles {
        /// Files needed.
        files: usize,
    },
}

/// The protocol's two forms of a sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `<urlset>` XML, with an index when split.
    #[default]
    Xml,
    /// One URL per line; split files have no index.
    Txt,
}

/// How sitemaps are written: their form, compression, date format and stylesheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Form<'a> {
    /// XML or text.
    pub format: Format,
    /// Gzip every file written (the size limit applies before compression).
    pub gzip: bool,
    /// How `<lastmod>` is written.
    pub lastmod: LastmodFormat,
    /// The `href` of an `<?xml-stylesheet?>` for browsers, in every XML file written.
    pub stylesheet: Option<&'a str>,
}

/// What [`write_files`] (or [`write_set`]) wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The sitemap, or the root naming the children when there are any: the index, or
    /// the caller's own ([`RootFile`]).
    pub path: PathBuf,
    /// Child sitemaps named by the index, in order; empty for a single sitemap. For text
    /// sitemaps, which have no index, the files after the first (`path`).
    pub children: Vec<PathBuf>,
    /// Whether `path` is an index naming `children`.
    pub indexed: bool,
    /// Child sitemaps of an earlier run that are no longer part of the set, removed.
    pub removed: Vec<PathBuf>,
    /// The set of the output's other form (`sitemap.xml` and its children, when this
    /// run wrote `sitemap.xml.gz`, and the reverse), removed: an earlier run's with
    /// `gzip` the other way, or a generator's own at that name.
    pub other_form: Vec<PathBuf>,
}

/// A child sitemap as written: what an index lists of it (its URL and newest
/// `lastmod`), and what a root of the caller's records ([`Render::With`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Child {
    /// Its file name, beside the root.
    pub file: String,
    /// Its published URL.
    pub loc: String,
    /// How many URLs it lists.
    pub urls: u64,
    /// Its newest `lastmod`, which the index gives it.
    pub lastmod: Option<Timestamp>,
    /// The XXH3-128 checksum of its bytes as written (gzipped, when it is), in hex
    /// ([`checksum_hex`]), when the root asks for it ([`RootFile::checksum`]). A record
    /// read back must have one.
    #[serde(deserialize_with = "present")]
    pub xxh3: Option<String>,
}

/// A checksum read back: a string, never missing or null.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// An XXH3-128 checksum as a [`Child`] records it: 32 hex digits.
pub fn checksum_hex(check: u128) -> String {
    format!("{check:032x}")
}

/// The URL prefix child sitemaps are published under: they are written beside the
/// output (their names are [`child_name`]'s), in the directory whose URL this is.
#[derive(Debug, Clone)]
pub struct ChildPrefix {
    /// The URL of the directory the children are published in, ending in `/`.
    pub loc_prefix: String,
}

impl ChildPrefix {
    /// The published URL of the file `path` beside the output.
    pub fn url_of(&self, path: &Path) -> String {
        let name = Path::new(path.file_name().unwrap_or_default());
        crate::urls::file_url(&self.loc_prefix, name)
    }
}

/// Whether a file of this name may be a sitemap, ours or a generator's (`sitemap.xml`,
/// `sitemap-index.xml`, `en/sitemap.xml`, `sitemap-0.xml.gz`): the walk keeps such files,
/// so that those beside ours are named.
pub fn may_be_sitemap(name: &[u8]) -> bool {
    name.starts_with(b"sitemap") && (name.ends_with(b".xml") || name.ends_with(b".xml.gz"))
}

pub(crate) fn split_name(output: &Path) -> (String, String) {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sitemap.xml".to_string());
    match name.find('.') {
        Some(dot) if dot > 0 => (name[..dot].to_string(), name[dot..].to_string()),
        _ => (name, String::new()),
    }
}

/// Hex digits of a child's content hash in its name: 48 bits, so two different files
/// of the same position never share a name in practice.
const HASH_DIGITS: usize = 12;

/// What joins the output's stem to the rest of its children's names, as
/// [`RootFile::index`] names them.
pub const JOINT: char = '-';

/// The file name of child `n` (1-based) of `output`, of the section named `section` or
/// of the pages in no section, whose bytes hash to `hash`: `{stem}{joint}{n}-{hash}{ext}`,
/// e.g. `sitemap-1-3f2a9c1b0d4e.xml`, or `{stem}{joint}{section}-{n}-{hash}{ext}`, e.g.
/// `sitemap-blog-1-3f2a9c1b0d4e.xml` ([`JOINT`] for an index's children; a caller's root
/// may join its own with another character, [`RootFile::joint`]).
///
/// The name changes with the content, so writing a new set never overwrites a child the
/// current root names: the root's rename switches from one complete set to the other
/// at once, and a run killed before it leaves the previous set whole. A child whose
/// content did not change keeps its name (and its caches).
pub fn child_name(
    output: &Path,
    joint: char,
    section: Option<&str>,
    n: usize,
    hash: &blake3::Hash,
) -> String {
    let (stem, ext) = split_name(output);
    let hex = hash.to_hex();
    let hex = &hex[..HASH_DIGITS];
    match section {
        Some(section) => format!("{stem}{joint}{section}-{n}-{hex}{ext}"),
        None => format!("{stem}{joint}{n}-{hex}{ext}"),
    }
}

/// The shape of a file name among `output`'s children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChildShape {
    /// `{stem}-{n}-{hash}{ext}`: only we name files so ([`child_name`]).
    Hashed,
    /// `{stem}-{section}-{n}-{hash}{ext}`: a section's child ([`child_name`]), but also
    /// the shape of another output's children when its name starts with this one's stem
    /// and a dash (`sitemap-news.xml` beside `sitemap.xml`), so the section is kept.
    Sectioned(String),
    /// `{stem}-{n}{ext}`: the name of split text sitemaps and of earlier versions'
    /// children, but also a name people give their own files.
    Numbered(usize),
}

/// The shape of `name` when it is shaped like a child of `output` whose names `joint`
/// joins to its stem ([`child_name`]).
pub(crate) fn child_shape(output: &Path, joint: char, name: &str) -> Option<ChildShape> {
    let (stem, ext) = split_name(output);
    let rest = name
        .strip_prefix(&stem)?
        .strip_prefix(joint)?
        .strip_suffix(ext.as_str())?;
    let is_number =
        |s: &str| !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
    let is_hash = |s: &str| {
        s.len() == HASH_DIGITS && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    let Some((before, hash)) = rest.rsplit_once('-') else {
        return is_number(rest)
            .then(|| rest.parse().ok().map(ChildShape::Numbered))
            .flatten();
    };
    if !is_hash(hash) {
        return None;
    }
    match before.rsplit_once('-') {
        None if is_number(before) => Some(ChildShape::Hashed),
        Some((section, n)) if is_number(n) && crate::sections::name_problem(section).is_none() => {
            Some(ChildShape::Sectioned(section.to_string()))
        }
        _ => None,
    }
}

/// Entries that go to child sitemaps of their own: a named section's, or the rest.
#[derive(Debug, Clone, Copy)]
pub struct Group<'a> {
    /// The section's name, in its children's names; `None` for the pages in no section.
    pub section: Option<&'a str>,
    /// Its entries, in the order written.
    pub entries: EntrySlice<'a>,
}

/// The first `limit` bytes of a file, gunzipped when it starts with gzip's magic bytes.
pub(super) fn opening(file: std::fs::File, limit: u64) -> Option<Vec<u8>> {
    let input = crate::fsutil::maybe_gzipped(file).ok()?;
    let mut bytes = Vec::new();
    // A truncated gzip stream still yields what came before the damage.
    let _ = input.take(limit).read_to_end(&mut bytes);
    Some(bytes)
}
