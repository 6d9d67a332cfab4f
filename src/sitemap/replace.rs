//! Replacing a published sitemap set: temporary files beside the target, children named
//! after their content, the index renamed last, a lock, and stale children removed. A
//! shard's set, with its manifest in the index's place (`shard`), and index files written
//! on their own (`indexes`), go the same way.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::read::{Document, Root, root_in};
use super::split::{Part, write_urlsets_declaring};
use super::xml::{Extensions, MaybeGzip, write_index};
use super::{
    ChildPrefix, ChildShape, EntrySlice, Form, Format, Group, Limits, PROTOCOL_MAX_BYTES,
    PROTOCOL_MAX_ENTRIES, WriteError, Written, child_name, child_shape, shard_child_name,
    split_name,
};

use crate::fsutil::DirLock;
use crate::fsutil::dir::Temp;

mod indexes;
mod shard;

pub use indexes::{Indexes, write_index_file, write_indexes};
pub use shard::{ChildFile, ShardSet, write_shard};

/// A child written to its temporary file (synced and closed): it waits for the rename,
/// the hash names it.
struct Closed {
    temp: Temp,
    hash: blake3::Hash,
    /// Its XXH3-128 checksum, for a shard's manifest.
    check: Option<u128>,
}

/// A writer that hashes what passes through it, to name a child after its content.
struct Hashing<W> {
    inner: W,
    hasher: blake3::Hasher,
    /// A shard's children are also checksummed for the merge: XXH3, which reads them
    /// back several times faster than BLAKE3 would.
    check: Option<Box<xxhash_rust::xxh3::Xxh3>>,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        if let Some(check) = &mut self.check {
            check.update(&buf[..n]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the groups' entries to `output`, and children beside it when they need more
/// than one file or any group is a named section, each through a temporary file renamed
/// into place: the children (published under `prefix`) first, under names of their section and content
/// ([`child_name`]), the index last. The index's rename is the one moment the published
/// set changes, so a run that fails or is killed at any point leaves either the previous
/// set or the new one, each complete. Children no longer named (of the previous set, or of
/// a killed run) are removed afterwards. Text sitemaps have no index: their groups are
/// written one after the other, unnamed.
pub fn write_files(
    output: &Path,
    prefix: &ChildPrefix,
    groups: &[Group],
    limits: Limits,
    form: Form,
) -> Result<Written, WriteError> {
    write_set(output, prefix, groups, limits, form, None)
}

fn write_set(
    output: &Path,
    prefix: &ChildPrefix,
    groups: &[Group],
    limits: Limits,
    form: Form,
    shard: Option<&ShardSet>,
) -> Result<Written, WriteError> {
    // From the counts alone, before the lock is taken or any file written.
    super::refuse_too_many_files(groups, limits, form.format)?;
    let mut replacement = Replacement::begin(output)?;
    replacement.checked = shard.is_some();
    if let Some(shard) = shard {
        let name = shard.manifest.file_name().unwrap_or_default();
        replacement
            .held
            .dir()
            .replaceable(name)
            .map_err(io_at(shard.manifest))?;
    }
    let sections: Vec<&str> = groups.iter().filter_map(|g| g.section).collect();
    let mut parts = Vec::new();
    for group in groups.iter().filter(|g| !g.entries.is_empty()) {
        let written = replacement.write_urlsets(group.entries, limits, form)?;
        parts.extend(written.into_iter().map(|part| (group.section, part)));
    }
    if shard.is_none() && sections.is_empty() && parts.len() <= 1 {
        if let Some((_, part)) = parts.into_iter().next() {
            persist(part.written.temp, output)?;
        }
        replacement.held.dir().sync();
        let stale = Stale {
            keep: &[],
            format: form.format,
            previous: &replacement.previous,
            sections: &sections,
        };
        let removed = remove_stale_children(&replacement, output, &stale)?;
        return Ok(Written {
            path: output.to_path_buf(),
            children: Vec::new(),
            indexed: false,
            removed,
        });
    }
    if form.format == Format::Txt {
        let parts = parts.into_iter().map(|(_, p)| p).collect();
        return write_text_parts(&replacement, output, parts);
    }
    if parts.len() > PROTOCOL_MAX_ENTRIES {
        return Err(WriteError::TooManyFiles { files: parts.len() });
    }
    let set = Set {
        replacement: &replacement,
        output,
        prefix,
        form,
        sections: &sections,
        sharded: shard.is_some(),
    };
    match shard {
        None => write_indexed(&set, parts),
        Some(shard) => shard::write_sharded(&set, parts, shard),
    }
}

/// A set of children and their index on its way into place.
struct Set<'a> {
    replacement: &'a Replacement,
    output: &'a Path,
    prefix: &'a ChildPrefix,
    form: Form<'a>,
    /// The names of this run's sections.
    sections: &'a [&'a str],
    /// A shard's set: its children named by [`shard_child_name`].
    sharded: bool,
}

/// Renames the children into place under their section and content names (numbered
/// from 1 in each section), then the index naming them: the one rename that switches
/// the published set.
fn write_indexed(
    set: &Set,
    parts: Vec<(Option<&str>, Part<Closed>)>,
) -> Result<Written, WriteError> {
    let (output, dir) = (set.output, &set.replacement.dir);
    let paths = child_paths(set, &parts);
    let listed: Vec<_> = (paths.iter().zip(&parts))
        .map(|(path, (_, part))| (set.prefix.url_of(path), part.newest))
        .collect();
    let index = set.replacement.temp().map_err(io_at(dir))?;
    let mut index = write_index(
        MaybeGzip::new(index, set.form.gzip),
        &listed,
        set.form.lastmod,
        set.form.stylesheet,
    )
    .and_then(MaybeGzip::finish)
    .map_err(io_at(dir))?;
    index.close().map_err(io_at(output))?;
    for ((_, part), path) in parts.into_iter().zip(&paths) {
        // An existing file of this name has these very bytes: replacing it changes nothing.
        persist(part.written.temp, path)?;
    }
    // The children's names are durable before the index that names them.
    set.replacement.held.dir().sync();
    persist(index, output)?;
    set.replacement.held.dir().sync();
    let stale = Stale {
        keep: &paths,
        format: set.form.format,
        previous: &set.replacement.previous,
        sections: set.sections,
    };
    let removed = remove_stale_children(set.replacement, output, &stale)?;
    Ok(Written {
        path: output.to_path_buf(),
        children: paths,
        indexed: true,
        removed,
    })
}

/// Where each part goes: named after its section and content, numbered from 1 in each
/// section ([`child_name`], or [`shard_child_name`] for a shard's).
fn child_paths(set: &Set, parts: &[(Option<&str>, Part<Closed>)]) -> Vec<PathBuf> {
    let mut paths = Vec::with_capacity(parts.len());
    let mut n = 0;
    for (i, (section, part)) in parts.iter().enumerate() {
        let same_section = i > 0 && parts[i - 1].0 == *section;
        n = if same_section { n + 1 } else { 1 };
        let name = match set.sharded {
            false => child_name(set.output, *section, n, &part.written.hash),
            true => shard_child_name(set.output, *section, n, &part.written.hash),
        };
        paths.push(set.replacement.dir.join(name));
    }
    paths
}

/// Renames the parts of a split text sitemap into place: the first as `output`, the
/// others as `{stem}-2{ext}`, `{stem}-3{ext}`, ... Text sitemaps have no index, so each
/// file is submitted on its own and keeps one name across runs; each is replaced
/// atomically, but a run killed among the renames can leave files of both runs.
fn write_text_parts(
    replacement: &Replacement,
    output: &Path,
    parts: Vec<Part<Closed>>,
) -> Result<Written, WriteError> {
    let dir = &replacement.dir;
    let (stem, ext) = split_name(output);
    let mut paths = Vec::with_capacity(parts.len());
    for (n, part) in (1..).zip(parts) {
        let path = if n == 1 {
            output.to_path_buf()
        } else {
            dir.join(format!("{stem}-{n}{ext}"))
        };
        persist(part.written.temp, &path)?;
        paths.push(path);
    }
    replacement.held.dir().sync();
    let stale = Stale {
        keep: &paths,
        format: Format::Txt,
        previous: &HashSet::new(),
        sections: &[],
    };
    let removed = remove_stale_children(replacement, output, &stale)?;
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
    /// Children the output named before this run, when it was an index: old-style names
    /// (`sitemap-1.xml`) are removed as stale only when listed here.
    previous: HashSet<String>,
    /// Checksum the children for a shard's manifest ([`ChildFile::check`]).
    checked: bool,
    held: DirLock,
}

impl Replacement {
    /// Takes the lock of the output's directory (the OS's, on the directory itself: no
    /// lock file is left in the site), so two runs writing there take turns and the result
    /// is the complete output of the run that finished last; then sweeps what a killed
    /// run left. Only a regular file (or nothing) at `output` is ever replaced.
    fn begin(output: &Path) -> Result<Replacement, WriteError> {
        let dir = crate::fsutil::parent_dir(output).to_path_buf();
        let file_name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let held = crate::fsutil::lock_dir(&dir).map_err(io_at(&dir))?;
        (held.dir().replaceable(file_name.as_ref())).map_err(io_at(output))?;
        held.dir().sweep_temporaries(&format!(".{file_name}."));
        Ok(Replacement {
            previous: previous_children(&held, &file_name),
            dir,
            file_name,
            checked: false,
            held,
        })
    }

    fn temp(&self) -> io::Result<Temp> {
        self.held.dir().temp(&format!(".{}.", self.file_name))
    }

    /// Writes `entries` to as many temporary files as the limits need, each hashed as it
    /// is written (to name it), synced and closed when full.
    ///
    /// Runs of `max_urls` entries are written on all cores at once, each into files of
    /// its own: a run that fits one file fills it exactly as the one-thread writer would,
    /// and the next run starts a file there too. A run the byte limit splits keeps its
    /// files but the last, and the rest from there is written on one thread, so the
    /// files are the same either way.
    fn write_urlsets(
        &self,
        entries: EntrySlice,
        limits: Limits,
        form: Form,
    ) -> Result<Vec<Part<Closed>>, WriteError> {
        let mut runs = Vec::new();
        let mut rest = entries;
        while !rest.is_empty() {
            let (run, after) = rest.split_at(limits.max_urls.max(1));
            runs.push(run);
            rest = after;
        }
        let extensions = Extensions::of(entries);
        if runs.len() <= 1 || std::thread::available_parallelism().map_or(1, |n| n.get()) <= 1 {
            return self.write_run(entries, extensions, limits, form);
        }
        let written =
            crate::parallel::each(&runs, |run| self.write_run(*run, extensions, limits, form));
        let mut parts = Vec::new();
        let mut done = 0;
        for run in written {
            let mut run = run?;
            if run.len() > 1 {
                // Split by bytes: its last file is written again, with what follows.
                run.pop();
                done += run.iter().map(|p| p.urls).sum::<usize>();
                parts.extend(run);
                let rest = entries.split_at(done).1;
                parts.extend(self.write_run(rest, extensions, limits, form)?);
                return Ok(parts);
            }
            done += run.iter().map(|p| p.urls).sum::<usize>();
            parts.extend(run);
        }
        Ok(parts)
    }

    /// [`Replacement::write_urlsets`] on one thread, declaring `extensions`.
    fn write_run(
        &self,
        entries: EntrySlice,
        extensions: Extensions,
        limits: Limits,
        form: Form,
    ) -> Result<Vec<Part<Closed>>, WriteError> {
        let open = || {
            let hashing = Hashing {
                inner: self.temp()?,
                hasher: blake3::Hasher::new(),
                check: self.checked.then(Box::default),
            };
            Ok(MaybeGzip::new(hashing, form.gzip))
        };
        // Synced and closed as each is finished; the path alone waits for the rename.
        let close = |sink: MaybeGzip<Hashing<Temp>>| {
            let mut file = sink.finish()?;
            file.inner.close()?;
            Ok(Closed {
                temp: file.inner,
                hash: file.hasher.finalize(),
                check: file.check.map(|c| c.digest128()),
            })
        };
        write_urlsets_declaring(entries, extensions, limits, form, open, close)
            .map_err(io_at(&self.dir))
    }
}

/// The file names of the children the index at `output` names, when it is one (read no
/// further than the protocol's size allows an index, and no further than its first
/// problem).
fn previous_children(held: &DirLock, name: &str) -> HashSet<String> {
    let mut names = HashSet::new();
    let file = held.dir().open_regular(name.as_ref());
    let Some(Ok(input)) = file
        .ok()
        .flatten()
        .map(|f| crate::fsutil::content(f, PROTOCOL_MAX_BYTES as u64))
    else {
        return names;
    };
    let mut document = Document::new(input);
    if !matches!(document.root(), Ok(Some(Root::Index))) {
        return names;
    }
    for entry in document.map_while(Result::ok) {
        if let Some(name) = entry.loc.as_str().trim().rsplit('/').next() {
            names.insert(name.to_string());
        }
    }
    names
}

/// Renames a finished temporary file over `to`, beside it ([`Temp::persist`]: a
/// regular file or nothing, its mode passed on).
fn persist(temp: Temp, to: &Path) -> Result<(), WriteError> {
    temp.persist(to.file_name().unwrap_or_default())
        .map_err(io_at(to))
}

/// What the stale children of an output are told apart by.
struct Stale<'a> {
    /// The children of the set just written.
    keep: &'a [PathBuf],
    format: Format,
    /// The children the index this run replaced named.
    previous: &'a HashSet<String>,
    /// The names of this run's sections.
    sections: &'a [&'a str],
}

/// Removes files beside `output` that are ours and stale: regular files shaped like its
/// children but not kept, holding a sitemap of the format (root element `urlset`, or a
/// URL on the first line). Ours means named as only we name files (content-hash
/// children, and content-hash children of a section of this run), named by the index this
/// run replaced, or a later part of a split text sitemap (`{stem}-2.txt`, ...). A
/// `sitemap-1.xml` someone wrote by hand stays, and so do the children of another output
/// whose name extends this one's (`sitemap-news-1-….xml` of `sitemap-news.xml`).
fn remove_stale_children(
    replacement: &Replacement,
    output: &Path,
    stale: &Stale,
) -> Result<Vec<PathBuf>, WriteError> {
    let named_ours = |name: &str| {
        let named = match (child_shape(output, name), stale.format) {
            (Some(ChildShape::Hashed), Format::Xml) => true,
            (Some(ChildShape::Sectioned(section)), Format::Xml) => {
                stale.sections.contains(&section.as_str()) || stale.previous.contains(name)
            }
            (Some(ChildShape::Numbered(_)), Format::Xml) => stale.previous.contains(name),
            (Some(ChildShape::Numbered(n)), Format::Txt) => n >= 2,
            _ => false,
        };
        named
            && !stale
                .keep
                .iter()
                .any(|k| k.file_name() == Some(name.as_ref()))
    };
    let holds_sitemap = |dir: &crate::fsutil::dir::Dir, name: &std::ffi::OsStr| match stale.format {
        Format::Xml => root_in(dir, name) == Some(Root::Urlset),
        Format::Txt => (dir.open_regular(name).ok().flatten())
            .and_then(|file| super::opening(file, 8))
            .is_some_and(|b| b.starts_with(b"https://") || b.starts_with(b"http://")),
    };
    let removed = replacement
        .held
        .dir()
        .remove_ours(named_ours, holds_sitemap);
    let removed = removed.map_err(io_at(&replacement.dir))?;
    Ok(removed
        .into_iter()
        .map(|n| replacement.dir.join(n))
        .collect())
}
