//! Writing sitemaps: entries to XML (quick-xml escapes every value), split into files of
//! at most 50,000 URLs and 50 MiB, a sitemap index when there is more than one file,
//! and every file written to a temporary file beside its target and renamed into place.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use quick_xml::events::{BytesText, Event};
use quick_xml::{Reader, Writer};
use tempfile::NamedTempFile;

use crate::lastmod::{self, LastmodFormat};
use crate::rules::{Changefreq, Priority};

/// The sitemaps.org 0.9 namespace.
pub const NAMESPACE: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// The protocol's size limit for one sitemap file, uncompressed: 50 MiB.
pub const PROTOCOL_MAX_BYTES: usize = 52_428_800;

/// The protocol's limit of sitemaps in one index (and URLs in one sitemap).
pub const PROTOCOL_MAX_ENTRIES: usize = 50_000;

// The declaration and root tags are constants, so they are written as bytes; every
// value inside them goes through quick-xml's escaping.
const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const URLSET_OPEN_XHTML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
const URLSET_CLOSE: &str = "</urlset>\n";
const INDEX_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const INDEX_CLOSE: &str = "</sitemapindex>\n";

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
    /// Language alternates, written as `<xhtml:link rel="alternate">`.
    pub alternates: Box<[Alternate]>,
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
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
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

/// How sitemaps are written: their form, compression and date format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Form {
    /// XML or text.
    pub format: Format,
    /// Gzip every file written (the size limit applies before compression).
    pub gzip: bool,
    /// How `<lastmod>` is written.
    pub lastmod: LastmodFormat,
}

/// A file's bytes on their way out, gzipped or not. flate2's gzip header carries no
/// time or name, so the same sitemap gives the same bytes (and child name) every run.
enum Sink<W: Write> {
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
}

impl<W: Write> Sink<W> {
    fn new(inner: W, gzip: bool) -> Sink<W> {
        if gzip {
            Sink::Gzip(flate2::write::GzEncoder::new(
                inner,
                flate2::Compression::default(),
            ))
        } else {
            Sink::Plain(inner)
        }
    }

    /// Ends the gzip stream, if any, and hands back the inner writer.
    fn finish(self) -> io::Result<W> {
        match self {
            Sink::Plain(w) => Ok(w),
            Sink::Gzip(gz) => gz.finish(),
        }
    }
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Plain(w) => w.write(buf),
            Sink::Gzip(gz) => gz.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.flush(),
            Sink::Gzip(gz) => gz.flush(),
        }
    }
}

/// One sitemap file's worth of entries, as written to its sink.
#[derive(Debug)]
struct Part<W> {
    sink: W,
    newest: Option<Timestamp>,
}

/// Serialises one entry (with its indentation) into `buf`.
fn write_entry(buf: &mut Vec<u8>, entry: &Entry, format: LastmodFormat) -> io::Result<()> {
    let mut w = Writer::new(buf);
    w.get_mut().extend_from_slice(b"  <url>\n    ");
    w.create_element("loc")
        .write_text_content(BytesText::new(&entry.loc))?;
    if let Some(ts) = entry.lastmod {
        w.get_mut().extend_from_slice(b"\n    ");
        let text = lastmod::format(ts, format);
        w.create_element("lastmod")
            .write_text_content(BytesText::new(&text))?;
    }
    if let Some(c) = entry.changefreq {
        w.get_mut().extend_from_slice(b"\n    ");
        w.create_element("changefreq")
            .write_text_content(BytesText::new(c.as_str()))?;
    }
    if let Some(p) = entry.priority {
        w.get_mut().extend_from_slice(b"\n    ");
        let text = p.to_string();
        w.create_element("priority")
            .write_text_content(BytesText::new(&text))?;
    }
    for alt in &entry.alternates {
        w.get_mut().extend_from_slice(b"\n    ");
        w.create_element("xhtml:link")
            .with_attributes([
                ("rel", "alternate"),
                ("hreflang", alt.hreflang.as_str()),
                ("href", alt.href.as_str()),
            ])
            .write_empty()?;
    }
    w.get_mut().extend_from_slice(b"\n  </url>\n");
    Ok(())
}

/// Writes `entries` as `<urlset>` documents, opening a new sink with `open` whenever the
/// current one is full. Returns at least one part when `entries` is not empty.
/// Each finished sink is handed to `finish`, whose result is kept: files are synced and
/// closed there, so no more than one child is open at a time however many there are.
fn write_urlsets<W: Write, T>(
    entries: &[Entry],
    limits: Limits,
    form: Form,
    mut open: impl FnMut() -> io::Result<W>,
    mut finish: impl FnMut(W) -> io::Result<T>,
) -> io::Result<Vec<Part<T>>> {
    // The xhtml namespace is declared only where some page has alternates.
    let (open_tag, close_tag) = match form.format {
        Format::Txt => ("", ""),
        Format::Xml if entries.iter().any(|e| !e.alternates.is_empty()) => {
            (URLSET_OPEN_XHTML, URLSET_CLOSE)
        }
        Format::Xml => (URLSET_OPEN, URLSET_CLOSE),
    };
    let mut parts = Vec::new();
    let mut current: Option<(BufWriter<W>, usize, usize, Option<Timestamp>)> = None;
    let mut buf = Vec::with_capacity(512);
    for entry in entries {
        buf.clear();
        match form.format {
            Format::Xml => write_entry(&mut buf, entry, form.lastmod)?,
            Format::Txt => {
                buf.extend_from_slice(entry.loc.as_bytes());
                buf.push(b'\n');
            }
        }
        if let Some((_, urls, bytes, _)) = &current
            && (*urls >= limits.max_urls || bytes + buf.len() + close_tag.len() > limits.max_bytes)
        {
            parts.push(finish_part(
                current.take().expect("checked above"),
                close_tag,
                &mut finish,
            )?);
        }
        let (sink, urls, bytes, newest) = match &mut current {
            Some(c) => c,
            None => {
                let mut sink = BufWriter::with_capacity(256 * 1024, open()?);
                sink.write_all(open_tag.as_bytes())?;
                current.insert((sink, 0, open_tag.len(), None))
            }
        };
        sink.write_all(&buf)?;
        *urls += 1;
        *bytes += buf.len();
        if entry.lastmod > *newest {
            *newest = entry.lastmod;
        }
    }
    if let Some(c) = current {
        parts.push(finish_part(c, close_tag, &mut finish)?);
    }
    Ok(parts)
}

fn finish_part<W: Write, T>(
    (mut sink, _, _, newest): (BufWriter<W>, usize, usize, Option<Timestamp>),
    close_tag: &str,
    finish: &mut impl FnMut(W) -> io::Result<T>,
) -> io::Result<Part<T>> {
    sink.write_all(close_tag.as_bytes())?;
    let sink = sink.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(Part {
        sink: finish(sink)?,
        newest,
    })
}

/// Writes a sitemap index naming each child `(loc, newest lastmod)`.
fn write_index<W: Write>(
    sink: W,
    children: &[(String, Option<Timestamp>)],
    format: LastmodFormat,
) -> io::Result<W> {
    let mut w = Writer::new(BufWriter::new(sink));
    w.get_mut().write_all(INDEX_OPEN.as_bytes())?;
    for (loc, newest) in children {
        w.get_mut().write_all(b"  <sitemap>\n    ")?;
        w.create_element("loc")
            .write_text_content(BytesText::new(loc))?;
        if let Some(ts) = newest {
            w.get_mut().write_all(b"\n    ")?;
            let text = lastmod::format(*ts, format);
            w.create_element("lastmod")
                .write_text_content(BytesText::new(&text))?;
        }
        w.get_mut().write_all(b"\n  </sitemap>\n")?;
    }
    w.get_mut().write_all(INDEX_CLOSE.as_bytes())?;
    w.into_inner()
        .into_inner()
        .map_err(io::IntoInnerError::into_error)
}

/// Writes a single sitemap to `out` (standard output); fails, having written nothing,
/// when the entries need more than one file.
pub fn write_single(
    out: &mut dyn Write,
    entries: &[Entry],
    limits: Limits,
    form: Form,
) -> Result<(), WriteError> {
    let stdout = || PathBuf::from("<stdout>");
    let io_err = |source| WriteError::Io {
        path: stdout(),
        source,
    };
    let open = || Ok(Sink::new(Vec::new(), form.gzip));
    let parts = write_urlsets(entries, limits, form, open, Sink::finish).map_err(io_err)?;
    if parts.len() > 1 {
        return Err(WriteError::NeedsIndex {
            urls: entries.len(),
            files: parts.len(),
        });
    }
    for part in parts {
        out.write_all(&part.sink).map_err(io_err)?;
    }
    out.flush().map_err(io_err)
}

/// What [`write_files`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The sitemap, or the sitemap index when there are children.
    pub path: PathBuf,
    /// Child sitemaps named by the index, in order; empty for a single sitemap. For text
    /// sitemaps, which have no index, the files after the first (`path`).
    pub children: Vec<PathBuf>,
    /// Whether `path` is an index naming `children`.
    pub indexed: bool,
    /// Child sitemaps of an earlier run that are no longer part of the set, removed.
    pub removed: Vec<PathBuf>,
}

/// How child sitemaps are located: beside the output, published under `loc_prefix`
/// (their names are [`child_name`]'s).
#[derive(Debug, Clone)]
pub struct Children {
    /// The URL of the directory the children are published in, ending in `/`.
    pub loc_prefix: String,
}

impl Children {
    /// The published URL of the file `path` beside the output.
    pub fn url_of(&self, path: &Path) -> String {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        format!("{}{}", self.loc_prefix, crate::url::encode_segment(&name))
    }
}

fn split_name(output: &Path) -> (String, String) {
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

/// The file name of child `n` (1-based) of `output` whose bytes hash to `hash`:
/// `{stem}-{n}-{hash}{ext}`, e.g. `sitemap-1-3f2a9c1b0d4e.xml`.
///
/// The name changes with the content, so writing a new set never overwrites a child the
/// current index names: the index's rename switches from one complete set to the other
/// at once, and a run killed before it leaves the previous set whole. A child whose
/// content did not change keeps its name (and its caches).
pub fn child_name(output: &Path, n: usize, hash: &blake3::Hash) -> String {
    let (stem, ext) = split_name(output);
    let hex = hash.to_hex();
    format!("{stem}-{n}-{}{ext}", &hex[..HASH_DIGITS])
}

/// Whether `name` has the shape of a child of `output`: `{stem}-{n}-{hash}{ext}`, or
/// `{stem}-{n}{ext}` as earlier versions named them.
fn is_child_name(output: &Path, name: &str) -> bool {
    let (stem, ext) = split_name(output);
    let Some(rest) = name
        .strip_prefix(&stem)
        .and_then(|r| r.strip_prefix('-'))
        .and_then(|r| r.strip_suffix(ext.as_str()))
    else {
        return false;
    };
    let (number, hash) = match rest.split_once('-') {
        Some((number, hash)) => (number, Some(hash)),
        None => (rest, None),
    };
    let is_number = !number.is_empty()
        && !number.starts_with('0')
        && number.bytes().all(|b| b.is_ascii_digit());
    let is_hash = hash.is_none_or(|h| {
        h.len() == HASH_DIGITS && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    });
    is_number && is_hash
}

/// A writer that hashes what passes through it, to name a child after its content.
struct Hashing<W> {
    inner: W,
    hasher: blake3::Hasher,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the entries to `output` (and children beside it when they need more than one
/// file), each through a temporary file renamed into place: the children first, under
/// names of their own content ([`child_name`]), the index last. The index's rename is
/// the one moment the published set changes, so a run that fails or is killed at any
/// point leaves either the previous set or the new one, each complete. Children no
/// longer named (of the previous set, or of a killed run) are removed afterwards.
pub fn write_files(
    output: &Path,
    children: &Children,
    entries: &[Entry],
    limits: Limits,
    form: Form,
) -> Result<Written, WriteError> {
    let replacement = Replacement::begin(output)?;
    let dir = &replacement.dir;
    let temp = || replacement.temp();
    let open = || {
        let hashing = Hashing {
            inner: temp()?,
            hasher: blake3::Hasher::new(),
        };
        Ok(Sink::new(hashing, form.gzip))
    };
    // Synced and closed as each is finished; the path alone waits for the rename.
    let close = |sink: Sink<Hashing<NamedTempFile>>| {
        let file = sink.finish()?;
        file.inner.as_file().sync_all()?;
        Ok((file.inner.into_temp_path(), file.hasher.finalize()))
    };
    let parts = write_urlsets(entries, limits, form, open, close).map_err(io_at(dir))?;

    if parts.len() <= 1 {
        if let Some(part) = parts.into_iter().next() {
            persist_path(part.sink.0, output)?;
        }
        sync_dir(dir);
        let removed = remove_stale_children(output, &[], form.format)?;
        return Ok(Written {
            path: output.to_path_buf(),
            children: Vec::new(),
            indexed: false,
            removed,
        });
    }
    if form.format == Format::Txt {
        return write_text_parts(output, parts);
    }
    if parts.len() > PROTOCOL_MAX_ENTRIES {
        return Err(WriteError::TooManyFiles { files: parts.len() });
    }

    let mut listed = Vec::with_capacity(parts.len());
    let mut paths = Vec::with_capacity(parts.len());
    for (n, part) in (1..).zip(&parts) {
        let path = dir.join(child_name(output, n, &part.sink.1));
        listed.push((children.url_of(&path), part.newest));
        paths.push(path);
    }
    let index = temp().map_err(io_at(dir))?;
    let index = write_index(Sink::new(index, form.gzip), &listed, form.lastmod)
        .and_then(Sink::finish)
        .map_err(io_at(dir))?;
    index.as_file().sync_all().map_err(io_at(index.path()))?;
    for (part, path) in parts.into_iter().zip(&paths) {
        // An existing file of this name has these very bytes: replacing it changes nothing.
        persist_path(part.sink.0, path)?;
    }
    // The children's names are durable before the index that names them.
    sync_dir(dir);
    persist(index, output)?;
    sync_dir(dir);
    let removed = remove_stale_children(output, &paths, form.format)?;
    Ok(Written {
        path: output.to_path_buf(),
        children: paths,
        indexed: true,
        removed,
    })
}

/// Renames the parts of a split text sitemap into place: the first as `output`, the
/// others as `{stem}-2{ext}`, `{stem}-3{ext}`, ... Text sitemaps have no index, so each
/// file is submitted on its own and keeps one name across runs; each is replaced
/// atomically, but a run killed among the renames can leave files of both runs.
fn write_text_parts(
    output: &Path,
    parts: Vec<Part<(tempfile::TempPath, blake3::Hash)>>,
) -> Result<Written, WriteError> {
    let dir = crate::fsutil::parent_dir(output);
    let (stem, ext) = split_name(output);
    let mut paths = Vec::with_capacity(parts.len());
    for (n, part) in (1..).zip(parts) {
        let path = if n == 1 {
            output.to_path_buf()
        } else {
            dir.join(format!("{stem}-{n}{ext}"))
        };
        persist_path(part.sink.0, &path)?;
        paths.push(path);
    }
    sync_dir(dir);
    let removed = remove_stale_children(output, &paths, Format::Txt)?;
    Ok(Written {
        path: paths.remove(0),
        children: paths,
        indexed: false,
        removed,
    })
}

/// An error writing `path`, for `map_err`.
fn io_at(path: &Path) -> impl FnOnce(io::Error) -> WriteError {
    let path = path.to_path_buf();
    move |source| WriteError::Io { path, source }
}

/// The replacement of one output under way: its directory and its lock, held until
/// dropped. Temporary files get a recognisable prefix (`.{name}.`), so those a killed run
/// left can be told apart, and are swept when the lock is taken.
struct Replacement {
    dir: PathBuf,
    file_name: String,
    _lock: File,
}

impl Replacement {
    fn begin(output: &Path) -> Result<Replacement, WriteError> {
        let dir = crate::fsutil::parent_dir(output).to_path_buf();
        let file_name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let lock = lock(&dir, &file_name)?;
        sweep_temporaries(&dir, &file_name);
        Ok(Replacement {
            dir,
            file_name,
            _lock: lock,
        })
    }

    fn temp(&self) -> io::Result<NamedTempFile> {
        tempfile::Builder::new()
            .prefix(&format!(".{}.", self.file_name))
            .suffix(".tmp")
            .tempfile_in(&self.dir)
    }
}

/// Takes the lock on `dir/.{file_name}.lock`, waiting for another run that holds it.
///
/// Two runs writing the same sitemap at once would otherwise interleave their renames and
/// leave one run's index over the other's children; with the lock they take turns, and
/// the result is the complete output of the run that finished last. The lock is the
/// OS's (`flock`), so a killed run releases it; the empty lock file stays, a dot-file the
/// walk passes over.
fn lock(dir: &Path, file_name: &str) -> Result<File, WriteError> {
    let path = dir.join(format!(".{file_name}.lock"));
    let io_err = |source| WriteError::Io {
        path: path.clone(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err)?;
    file.lock().map_err(io_err)?;
    Ok(file)
}

/// Removes temporary files of `file_name` that a killed run left behind. Called under
/// the lock, so no live run is writing them.
fn sweep_temporaries(dir: &Path, file_name: &str) {
    let prefix = format!(".{file_name}.");
    let Ok(listing) = fs::read_dir(dir) else {
        return;
    };
    for entry in listing.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes a sitemap index naming `children` (absolute URL, newest lastmod) to `output`,
/// atomically, as [`write_files`] writes its own index.
pub fn write_index_file(
    output: &Path,
    children: &[(String, Option<Timestamp>)],
    format: LastmodFormat,
) -> Result<(), WriteError> {
    let replacement = Replacement::begin(output)?;
    let dir = &replacement.dir;
    let temp = replacement.temp().map_err(io_at(dir))?;
    let gzip = output.extension().is_some_and(|e| e == "gz");
    let index = write_index(Sink::new(temp, gzip), children, format)
        .and_then(Sink::finish)
        .map_err(io_at(dir))?;
    index.as_file().sync_all().map_err(io_at(index.path()))?;
    persist(index, output)?;
    sync_dir(dir);
    Ok(())
}

fn persist_path(file: tempfile::TempPath, to: &Path) -> Result<(), WriteError> {
    file.persist(to).map_err(|e| WriteError::Io {
        path: to.to_path_buf(),
        source: e.error,
    })
}

fn persist(file: NamedTempFile, to: &Path) -> Result<(), WriteError> {
    file.persist(to).map(drop).map_err(|e| WriteError::Io {
        path: to.to_path_buf(),
        source: e.error,
    })
}

/// Makes the renames durable; a directory that cannot be opened for this is not worth
/// failing the run over, as the data itself is already synced.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Removes files beside `output` named like its children ([`is_child_name`]) but not in
/// `keep` that hold a sitemap of `format` (root element `urlset`, or a URL on the first
/// line): children of the previous set, or of a run killed before its index was renamed.
/// Files of any other kind are left alone.
fn remove_stale_children(
    output: &Path,
    keep: &[PathBuf],
    format: Format,
) -> Result<Vec<PathBuf>, WriteError> {
    let dir = crate::fsutil::parent_dir(output);
    let mut removed = Vec::new();
    let Ok(listing) = fs::read_dir(dir) else {
        return Ok(removed);
    };
    for entry in listing.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !is_child_name(output, name) || keep.iter().any(|k| k.file_name() == Some(name.as_ref()))
        {
            continue;
        }
        let path = entry.path();
        let ours = match format {
            Format::Xml => root_element(&path).as_deref() == Some("urlset"),
            Format::Txt => opening(&path, 8)
                .is_some_and(|b| b.starts_with(b"https://") || b.starts_with(b"http://")),
        };
        if ours {
            fs::remove_file(&path).map_err(|source| WriteError::Io {
                path: path.clone(),
                source,
            })?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}

/// The local name of a file's root element, reading no more than its first 64 KiB
/// (decompressed, for a gzipped file).
pub fn root_element(path: &Path) -> Option<String> {
    root_element_of(&opening(path, 64 * 1024)?[..])
}

/// The first `limit` bytes of a file, gunzipped when it starts with gzip's magic bytes.
fn opening(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let mut file = BufReader::new(File::open(path).ok()?);
    let gzipped = file.fill_buf().ok()?.starts_with(&[0x1f, 0x8b]);
    let mut bytes = Vec::new();
    if gzipped {
        let gz = flate2::bufread::GzDecoder::new(file);
        // A truncated stream still yields what came before the damage.
        let _ = gz.take(limit).read_to_end(&mut bytes);
    } else {
        file.take(limit).read_to_end(&mut bytes).ok()?;
    }
    Some(bytes)
}

fn root_element_of(input: impl BufRead) -> Option<String> {
    let mut reader = Reader::from_reader(input);
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).ok()? {
            Event::Start(e) | Event::Empty(e) => {
                return Some(e.local_name().into_inner().to_string());
            }
            Event::Eof => return None,
            _ => buf.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(loc: &str, secs: Option<i64>) -> Entry {
        Entry {
            loc: loc.into(),
            lastmod: secs.map(|s| Timestamp::from_second(s).unwrap()),
            changefreq: None,
            priority: None,
            alternates: Box::default(),
        }
    }

    fn serialised(entries: &[Entry], limits: Limits) -> Vec<String> {
        write_urlsets(entries, limits, Form::default(), || Ok(Vec::new()), Ok)
            .unwrap()
            .into_iter()
            .map(|p| String::from_utf8(p.sink).unwrap())
            .collect()
    }

    #[test]
    fn a_urlset_is_escaped_and_exact() {
        let entries = [
            Entry {
                loc: "https://example.org/a&b'c\"<>.html".into(),
                lastmod: Some(Timestamp::from_second(1_709_634_030).unwrap()),
                changefreq: Some(Changefreq::Daily),
                priority: Priority::new(0.8),
                alternates: Box::default(),
            },
            entry("https://example.org/", None),
        ];
        let out = serialised(&entries, Limits::default());
        insta::assert_snapshot!(out[0], @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url>
            <loc>https://example.org/a&amp;b&apos;c&quot;&lt;&gt;.html</loc>
            <lastmod>2024-03-05T10:20:30+00:00</lastmod>
            <changefreq>daily</changefreq>
            <priority>0.8</priority>
          </url>
          <url>
            <loc>https://example.org/</loc>
          </url>
        </urlset>
        "#);
    }

    #[test]
    fn alternates_declare_the_xhtml_namespace_only_when_present() {
        let mut page = entry("https://example.org/en/", None);
        assert!(!serialised(&[page.clone()], Limits::default())[0].contains("xhtml"));
        page.alternates = Box::new([
            Alternate {
                hreflang: "de".into(),
                href: "https://example.org/de/?a=1&b=2".into(),
            },
            Alternate {
                hreflang: "x-default".into(),
                href: "https://example.org/".into(),
            },
        ]);
        insta::assert_snapshot!(serialised(&[page], Limits::default())[0], @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
          <url>
            <loc>https://example.org/en/</loc>
            <xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/?a=1&amp;b=2"/>
            <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/"/>
          </url>
        </urlset>
        "#);
    }

    #[test]
    fn splits_by_count() {
        let entries: Vec<Entry> = (0..7)
            .map(|i| entry(&format!("https://e.org/{i}"), Some(i)))
            .collect();
        let parts = write_urlsets(
            &entries,
            Limits {
                max_urls: 3,
                max_bytes: PROTOCOL_MAX_BYTES,
            },
            Form {
                lastmod: LastmodFormat::Date,
                ..Form::default()
            },
            || Ok(Vec::new()),
            Ok,
        )
        .unwrap();
        let counts: Vec<usize> = parts
            .iter()
            .map(|p| String::from_utf8_lossy(&p.sink).matches("<url>").count())
            .collect();
        assert_eq!(counts, [3, 3, 1]);
        let newest: Vec<i64> = parts
            .iter()
            .map(|p| p.newest.unwrap().as_second())
            .collect();
        assert_eq!(newest, [2, 5, 6]);
    }

    #[test]
    fn splits_by_bytes_and_never_exceeds_the_limit() {
        let entries: Vec<Entry> = (0..50)
            .map(|i| entry(&format!("https://e.org/{i:03}/{}", "x".repeat(i)), None))
            .collect();
        for max_bytes in [400, 1000, 2000] {
            let out = serialised(
                &entries,
                Limits {
                    max_urls: 50_000,
                    max_bytes,
                },
            );
            assert!(out.len() > 1, "{max_bytes}");
            let mut seen = 0;
            for part in &out {
                assert!(part.len() <= max_bytes, "{} > {max_bytes}", part.len());
                assert!(part.ends_with(URLSET_CLOSE));
                seen += part.matches("<url>").count();
            }
            assert_eq!(seen, 50);
        }
    }

    #[test]
    fn the_size_limit_counts_bytes_before_gzip() {
        // 40 entries of ~80 bytes compress to far under 1,000 bytes, but not before.
        let entries: Vec<Entry> = (0..40)
            .map(|i| {
                entry(
                    &format!("https://e.org/a/long/path/to/page-{i:03}.html"),
                    None,
                )
            })
            .collect();
        let mut out = Vec::new();
        let form = Form {
            gzip: true,
            ..Form::default()
        };
        let limits = Limits {
            max_urls: PROTOCOL_MAX_ENTRIES,
            max_bytes: 1_000,
        };
        let err = write_single(&mut out, &entries, limits, form).unwrap_err();
        assert!(matches!(err, WriteError::NeedsIndex { .. }), "{err}");
        let limits = Limits {
            max_urls: PROTOCOL_MAX_ENTRIES,
            max_bytes: 10_000,
        };
        write_single(&mut out, &entries, limits, form).unwrap();
        assert!(out.len() < 1_000, "{} bytes compressed", out.len());
        let mut text = String::new();
        flate2::read::GzDecoder::new(&out[..])
            .read_to_string(&mut text)
            .unwrap();
        assert!(text.len() > 2_000 && text.ends_with(URLSET_CLOSE));
    }

    #[test]
    fn text_parts_are_lines_with_no_markup() {
        let entries = [
            entry("https://e.org/a", Some(0)),
            entry("https://e.org/b?x=1&y", None),
        ];
        let form = Form {
            format: Format::Txt,
            ..Form::default()
        };
        let parts =
            write_urlsets(&entries, Limits::default(), form, || Ok(Vec::new()), Ok).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].sink, b"https://e.org/a\nhttps://e.org/b?x=1&y\n");
    }

    #[test]
    fn stdout_refuses_what_needs_an_index() {
        let entries: Vec<Entry> = (0..3)
            .map(|i| entry(&format!("https://e.org/{i}"), None))
            .collect();
        let mut out = Vec::new();
        let err = write_single(
            &mut out,
            &entries,
            Limits {
                max_urls: 2,
                max_bytes: PROTOCOL_MAX_BYTES,
            },
            Form::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("--output sitemap.xml"), "{err}");
        assert!(out.is_empty());
    }

    #[test]
    fn child_names_come_from_the_output_stem() {
        let hash = blake3::Hash::from_bytes([0xd9; 32]);
        assert_eq!(
            child_name(Path::new("public/sitemap.xml"), 2, &hash),
            "sitemap-2-d9d9d9d9d9d9.xml"
        );
        assert_eq!(
            child_name(Path::new("maps/site.xml.gz"), 1, &hash),
            "site-1-d9d9d9d9d9d9.xml.gz"
        );
        assert_eq!(
            child_name(Path::new("sitemap"), 3, &hash),
            "sitemap-3-d9d9d9d9d9d9"
        );
    }

    #[test]
    fn recognises_the_names_of_children() {
        let output = Path::new("public/sitemap.xml");
        let table = [
            ("sitemap-1-0123456789ab.xml", true),
            ("sitemap-12-d9d9d9d9d9d9.xml", true),
            ("sitemap-3.xml", true),
            ("sitemap-0-0123456789ab.xml", false),
            ("sitemap-01.xml", false),
            ("sitemap-1-0123456789AB.xml", false),
            ("sitemap-1-0123456789a.xml", false),
            ("sitemap-1-0123456789abc.xml", false),
            ("sitemap-news.xml", false),
            ("sitemap-1-.xml", false),
            ("sitemap-.xml", false),
            ("sitemap-1.xml.gz", false),
            ("other-1.xml", false),
            ("sitemap.xml", false),
        ];
        for (name, want) in table {
            assert_eq!(is_child_name(output, name), want, "{name}");
        }
    }

    #[test]
    fn reads_the_root_element() {
        let table = [
            (
                "<?xml version=\"1.0\"?>\n<!-- c -->\n<urlset xmlns=\"x\"/>",
                Some("urlset"),
            ),
            (
                "<sm:sitemapindex xmlns:sm=\"x\"></sm:sitemapindex>",
                Some("sitemapindex"),
            ),
            ("not xml at all", None),
            ("", None),
        ];
        for (text, want) in table {
            assert_eq!(
                root_element_of(text.as_bytes()).as_deref(),
                want,
                "{text:?}"
            );
        }
    }
}
