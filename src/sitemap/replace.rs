//! Replacing a published sitemap set: temporary files beside the target, children named
//! after their content, the index renamed last, a lock, and stale children removed.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::split::{Part, write_urlsets};
use super::xml::{Sink, write_index};
use super::{
    Children, Entry, Form, Format, Limits, PROTOCOL_MAX_ENTRIES, WriteError, Written, child_name,
    is_child_name, root_element, split_name,
};
use jiff::Timestamp;

use crate::lastmod::LastmodFormat;

/// A child written to its temporary file: the path waits for the rename, the hash names
/// it.
struct Closed {
    path: tempfile::TempPath,
    hash: blake3::Hash,
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
        Ok(Closed {
            path: file.inner.into_temp_path(),
            hash: file.hasher.finalize(),
        })
    };
    let parts = write_urlsets(entries, limits, form, open, close).map_err(io_at(dir))?;

    if parts.len() <= 1 {
        if let Some(part) = parts.into_iter().next() {
            persist_path(part.written.path, output)?;
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

    write_indexed(&replacement, output, children, parts, form)
}

/// Renames the children into place under their content names, then the index naming
/// them: the one rename that switches the published set.
fn write_indexed(
    replacement: &Replacement,
    output: &Path,
    children: &Children,
    parts: Vec<Part<Closed>>,
    form: Form,
) -> Result<Written, WriteError> {
    let dir = &replacement.dir;
    let mut listed = Vec::with_capacity(parts.len());
    let mut paths = Vec::with_capacity(parts.len());
    for (n, part) in (1..).zip(&parts) {
        let path = dir.join(child_name(output, n, &part.written.hash));
        listed.push((children.url_of(&path), part.newest));
        paths.push(path);
    }
    let index = replacement.temp().map_err(io_at(dir))?;
    let index = write_index(Sink::new(index, form.gzip), &listed, form.lastmod)
        .and_then(Sink::finish)
        .map_err(io_at(dir))?;
    index.as_file().sync_all().map_err(io_at(index.path()))?;
    for (part, path) in parts.into_iter().zip(&paths) {
        // An existing file of this name has these very bytes: replacing it changes nothing.
        persist_path(part.written.path, path)?;
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
fn write_text_parts(output: &Path, parts: Vec<Part<Closed>>) -> Result<Written, WriteError> {
    let dir = crate::fsutil::parent_dir(output);
    let (stem, ext) = split_name(output);
    let mut paths = Vec::with_capacity(parts.len());
    for (n, part) in (1..).zip(parts) {
        let path = if n == 1 {
            output.to_path_buf()
        } else {
            dir.join(format!("{stem}-{n}{ext}"))
        };
        persist_path(part.written.path, &path)?;
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
            Format::Txt => super::opening(&path, 8)
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
