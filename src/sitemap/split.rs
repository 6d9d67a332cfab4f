//! Entries into files: as many `<urlset>` (or text) documents as the limits need.

use std::io::{self, BufWriter, Write};

use jiff::Timestamp;

use super::xml::{Extensions, MaybeGzip, URLSET_CLOSE, urlset_open, write_entry};
use super::{EntrySlice, Form, Format, Group, Limits, PROTOCOL_MAX_ENTRIES, WriteError};
use crate::fsutil::At;

/// One sitemap file's worth of entries, as written to its sink.
#[derive(Debug)]
pub(super) struct Part<W> {
    /// What the finished sink became (the bytes, or the closed temporary file).
    pub written: W,
    /// The newest `lastmod` among its entries, for the index.
    pub newest: Option<Timestamp>,
    /// How many entries it holds.
    pub urls: usize,
}

/// The part being filled.
struct Open<W: Write> {
    sink: BufWriter<W>,
    urls: usize,
    bytes: usize,
    newest: Option<Timestamp>,
}

/// Writes `entries` as `<urlset>` documents, opening a new sink with `open` whenever the
/// current one is full. Returns at least one part when `entries` is not empty.
/// Each finished sink is handed to `finish`, whose result is kept: files are synced and
/// closed there, so no more than one child is open at a time however many there are.
pub(super) fn write_urlsets<W: Write, T>(
    entries: EntrySlice,
    limits: Limits,
    form: Form,
    open: impl FnMut() -> io::Result<W>,
    finish: impl FnMut(W) -> io::Result<T>,
) -> io::Result<Vec<Part<T>>> {
    write_urlsets_declaring(entries, Extensions::of(entries), limits, form, open, finish)
}

/// [`write_urlsets`], each `<urlset>` declaring the namespaces of `extensions` (those of
/// all the entries a run of them is part of, so every file of a set declares the same).
pub(super) fn write_urlsets_declaring<W: Write, T>(
    entries: EntrySlice,
    extensions: Extensions,
    limits: Limits,
    form: Form,
    mut open: impl FnMut() -> io::Result<W>,
    mut finish: impl FnMut(W) -> io::Result<T>,
) -> io::Result<Vec<Part<T>>> {
    let (open_tag, close_tag) = match form.format {
        Format::Txt => (String::new(), ""),
        Format::Xml => (urlset_open(extensions, form.stylesheet), URLSET_CLOSE),
    };
    let mut parts = Vec::new();
    let mut current: Option<Open<W>> = None;
    let mut buf = Vec::with_capacity(512);
    let mut scratch = super::xml::Scratch::default();
    for entry in entries.iter() {
        buf.clear();
        match form.format {
            Format::Xml => write_entry(&mut buf, entry, form.lastmod, &mut scratch)?,
            Format::Txt => {
                let loc = &mut scratch.loc;
                entry.loc().write_into(loc);
                buf.extend_from_slice(loc.as_bytes());
                buf.push(b'\n');
            }
        }
        if let Some(open) = &current
            && (open.urls >= limits.max_urls
                || open.bytes + buf.len() + close_tag.len() > limits.max_bytes)
        {
            parts.push(finish_part(
                current.take().expect("checked above"),
                close_tag,
                &mut finish,
            )?);
        }
        let part = match &mut current {
            Some(c) => c,
            None => {
                let mut sink = BufWriter::with_capacity(256 * 1024, open()?);
                sink.write_all(open_tag.as_bytes())?;
                current.insert(Open {
                    sink,
                    urls: 0,
                    bytes: open_tag.len(),
                    newest: None,
                })
            }
        };
        part.sink.write_all(&buf)?;
        part.urls += 1;
        part.bytes += buf.len();
        let lastmod = entry.lastmod();
        if lastmod > part.newest {
            part.newest = lastmod;
        }
    }
    if let Some(c) = current {
        parts.push(finish_part(c, close_tag, &mut finish)?);
    }
    Ok(parts)
}

fn finish_part<W: Write, T>(
    Open {
        mut sink,
        newest,
        urls,
        ..
    }: Open<W>,
    close_tag: &str,
    finish: &mut impl FnMut(W) -> io::Result<T>,
) -> io::Result<Part<T>> {
    sink.write_all(close_tag.as_bytes())?;
    let sink = sink.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(Part {
        written: finish(sink)?,
        newest,
        urls,
    })
}

/// Writes a single sitemap to `out` (standard output); fails, having written nothing,
/// when the entries need more than one file.
pub fn write_single(
    out: &mut dyn Write,
    entries: EntrySlice,
    limits: Limits,
    form: Form,
) -> Result<(), WriteError> {
    let stdout = "<stdout>";
    let open = || Ok(MaybeGzip::new(Vec::new(), form.gzip));
    let parts = write_urlsets(entries, limits, form, open, MaybeGzip::finish).at(stdout)?;
    if parts.len() > 1 {
        return Err(WriteError::NeedsIndex {
            urls: entries.len(),
            files: parts.len(),
        });
    }
    for part in parts {
        out.write_all(&part.written).at(stdout)?;
    }
    Ok(out.flush().at(stdout)?)
}

/// Refuses, before anything is written, groups that would need more XML files than one
/// index may list: each group needs a file per `max_urls` of its entries at least, its
/// own (a section's files hold its entries only). Text sitemaps have no index, so no
/// such limit. The byte limit can split a file further, which only writing tells:
/// [`super::write_files`] counts again then, before anything is renamed into place.
pub fn refuse_too_many_files(
    groups: &[Group],
    limits: Limits,
    format: Format,
) -> Result<(), WriteError> {
    if format == Format::Txt {
        return Ok(());
    }
    let files: usize = groups
        .iter()
        .map(|g| g.entries.len().div_ceil(limits.max_urls.max(1)))
        .sum();
    if files > PROTOCOL_MAX_ENTRIES {
        return Err(WriteError::TooManyFiles { files });
    }
    Ok(())
}
