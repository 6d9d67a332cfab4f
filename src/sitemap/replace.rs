//! Replacing a published sitemap set: temporary files beside the target, children named
//! after their content, the root that names them (an index, or the caller's own file)
//! renamed last, a lock, and stale files removed by the caller's rule (`stale`). Index
//! files written on their own (`indexes`) go the same way.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::read::{Document, Root};
use super::split::{Part, write_urlsets_declaring};
use super::xml::{Extensions, MaybeGzip, write_index};
use super::{
    Child, ChildPrefix, EntrySlice, Form, Format, Group, JOINT, Limits, PROTOCOL_MAX_BYTES,
    PROTOCOL_MAX_ENTRIES, WriteError, Written, checksum_hex, child_name, split_name,
};

use crate::fsutil::dir::Temp;
use crate::fsutil::{At, DirLock};

mod indexes;
mod stale;

pub use indexes::{Indexes, write_index_file, write_indexes};
pub use stale::Stale;

/// A child written to its temporary file (synced and closed): it waits for the rename,
/// the hash names it.
struct Closed {
    temp: Temp,
    hash: blake3::Hash,
    /// Its XXH3-128 checksum, when the root asks for it.
    check: Option<u128>,
}

/// A writer that hashes what passes through it, to name a child after its content.
struct Hashing<W> {
    inner: W,
    hasher: blake3::Hasher,
    /// The checksum a root may record of each child: XXH3, which a reader checks
    /// several times faster than BLAKE3.
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

/// What a set's children are handed to once written: the file naming them, renamed into
/// place last, and what else goes with it. [`RootFile::index`] is the sitemap index; a
/// caller may write a root of its own ([`Render::With`]).
pub struct RootFile<'a> {
    /// Where it goes, beside the output (the output itself for an index).
    pub path: &'a Path,
    /// How it is written.
    pub render: Render<'a>,
    /// What joins the output's stem to the rest of a child's name ([`child_name`]).
    pub joint: char,
    /// A file written beside the children before the root: its name and bytes.
    pub beside: Option<(&'a str, &'a [u8])>,
    /// Whether each child's XXH3-128 checksum is recorded ([`Child::xxh3`]).
    pub checksum: bool,
    /// What beside the output may be removed once the root is in place.
    pub stale: Stale<'a>,
}

/// How a root is written.
pub enum Render<'a> {
    /// A sitemap index in the set's form. A set of one sitemap in no section needs none:
    /// that sitemap is written at the output instead.
    Index,
    /// The caller's own.
    With(&'a Renderer<'a>),
}

/// A caller's root: writes its bytes to the sink, given the children as written.
pub type Renderer<'a> = dyn Fn(&[Child], &mut dyn Write) -> io::Result<()> + 'a;

impl RootFile<'_> {
    /// The sitemap index at `output`, naming children `{stem}-…` ([`JOINT`]); stale
    /// children are told by their shapes ([`Stale::Shaped`]).
    pub fn index(output: &Path) -> RootFile<'_> {
        RootFile {
            path: output,
            render: Render::Index,
            joint: JOINT,
            beside: None,
            checksum: false,
            stale: Stale::Shaped,
        }
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
    let index = RootFile::index(output);
    write_set(output, prefix, groups, limits, form, &index)
}

/// [`write_files`] with `root` in the index's place: the children, the root's side file,
/// then the root, renamed last; then what `root.stale` allows is removed.
pub fn write_set(
    output: &Path,
    prefix: &ChildPrefix,
    groups: &[Group],
    limits: Limits,
    form: Form,
    root: &RootFile,
) -> Result<Written, WriteError> {
    // From the counts alone, before the lock is taken or any file written.
    super::refuse_too_many_files(groups, limits, form.format)?;
    let replacement = Replacement::begin(output, root)?;
    let sections: Vec<&str> = groups.iter().filter_map(|g| g.section).collect();
    let mut parts = Vec::new();
    for group in groups.iter().filter(|g| !g.entries.is_empty()) {
        let written = replacement.write_urlsets(group.entries, limits, form)?;
        parts.extend(written.into_iter().map(|part| (group.section, part)));
    }
    let set = Set {
        replacement: &replacement,
        output,
        prefix,
        form,
        sections: &sections,
        root,
    };
    let index = matches!(root.render, Render::Index);
    if form.format == Format::Txt || (index && sections.is_empty() && parts.len() <= 1) {
        let parts = parts.into_iter().map(|(_, p)| p).collect();
        return write_unindexed(&set, parts);
    }
    if parts.len() > PROTOCOL_MAX_ENTRIES {
        return Err(WriteError::TooManyFiles { files: parts.len() });
    }
    write_rooted(&set, parts)
}

/// A set of children and their root on its way into place.
struct Set<'a> {
    replacement: &'a Replacement,
    output: &'a Path,
    prefix: &'a ChildPrefix,
    form: Form<'a>,
    /// The names of this run's sections.
    sections: &'a [&'a str],
    root: &'a RootFile<'a>,
}

/// Renames the children into place under their section and content names (numbered
/// from 1 in each section), then the root's side file, then the root naming them: the
/// one rename that switches the published set.
fn write_rooted(
    set: &Set,
    parts: Vec<(Option<&str>, Part<Closed>)>,
) -> Result<Written, WriteError> {
    let (root, replacement) = (set.root, set.replacement);
    let paths = child_paths(set, &parts);
    let children = records(set, &paths, &parts);
    let root_temp = replacement.write_temp(root.path, |out| render(set, &children, out))?;
    let beside = (root.beside)
        .map(|(name, bytes)| {
            let path = replacement.dir.join(name);
            let temp = replacement.write_temp(&path, |out| out.write_all(bytes));
            temp.map(|temp| (temp, path))
        })
        .transpose()?;
    for ((_, part), path) in parts.into_iter().zip(&paths) {
        // An existing file of this name has these very bytes: replacing it changes nothing.
        persist(part.written.temp, path)?;
    }
    let mut kept = paths.clone();
    if let Some((temp, path)) = beside {
        persist(temp, &path)?;
        kept.push(path);
    }
    // The children's names are durable before the root that names them.
    replacement.held.dir().sync();
    persist(root_temp, root.path)?;
    replacement.held.dir().sync();
    let removed = stale::remove(set, &kept)?;
    Ok(Written {
        path: root.path.to_path_buf(),
        children: paths,
        indexed: matches!(root.render, Render::Index),
        removed: removed.stale,
        other_form: removed.other_form,
    })
}

/// The records of the children at `paths`, as written.
fn records(set: &Set, paths: &[PathBuf], parts: &[(Option<&str>, Part<Closed>)]) -> Vec<Child> {
    (paths.iter().zip(parts))
        .map(|(path, (_, part))| Child {
            file: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            loc: set.prefix.url_of(path),
            urls: part.urls as u64,
            lastmod: part.newest,
            xxh3: part.written.check.map(checksum_hex),
        })
        .collect()
}

/// The root naming `children`, as its renderer writes it.
fn render(set: &Set, children: &[Child], out: &mut dyn Write) -> io::Result<()> {
    let form = set.form;
    match set.root.render {
        Render::Index => {
            let sink = MaybeGzip::new(out, form.gzip);
            write_index(sink, children, form.lastmod, form.stylesheet)?.finish()?;
            Ok(())
        }
        Render::With(render) => render(children, out),
    }
}

/// Where each part goes: named after its section and content, numbered from 1 in each
/// section ([`child_name`], joined as the root says).
fn child_paths(set: &Set, parts: &[(Option<&str>, Part<Closed>)]) -> Vec<PathBuf> {
    let mut paths = Vec::with_capacity(parts.len());
    let mut n = 0;
    for (i, (section, part)) in parts.iter().enumerate() {
        let same_section = i > 0 && parts[i - 1].0 == *section;
        n = if same_section { n + 1 } else { 1 };
        let name = child_name(set.output, set.root.joint, *section, n, &part.written.hash);
        paths.push(set.replacement.dir.join(name));
    }
    paths
}

/// Renames the files of a set without an index into place: a lone sitemap as `output`,
/// or the parts of a split text sitemap, the first as `output`, the others as
/// `{stem}-2{ext}`, `{stem}-3{ext}`, ... Text sitemaps have no index, so each file is
/// submitted on its own and keeps one name across runs; each is replaced atomically, but
/// a run killed among the renames can leave files of both runs.
fn write_unindexed(set: &Set, parts: Vec<Part<Closed>>) -> Result<Written, WriteError> {
    let (output, dir) = (set.output, &set.replacement.dir);
    let (stem, ext) = split_name(output);
    let mut paths = vec![output.to_path_buf()];
    for (n, part) in (1..).zip(parts) {
        if n > 1 {
            paths.push(dir.join(format!("{stem}-{n}{ext}")));
        }
        persist(part.written.temp, &paths[n - 1])?;
    }
    set.replacement.held.dir().sync();
    let removed = stale::remove(set, &paths[1..])?;
    Ok(Written {
        path: paths.remove(0),
        children: paths,
        indexed: false,
        removed: removed.stale,
        other_form: removed.other_form,
    })
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
    /// Checksum the children, as the root asks ([`RootFile::checksum`]).
    checked: bool,
    held: DirLock,
}

impl Replacement {
    /// Takes the lock of the output's directory (the OS's, on the directory itself: no
    /// lock file is left in the site), so two runs writing there take turns and the result
    /// is the complete output of the run that finished last; then sweeps what a killed
    /// run left. Only a regular file (or nothing) at `output` and at the root's path is
    /// ever replaced.
    fn begin(output: &Path, root: &RootFile) -> Result<Replacement, WriteError> {
        let dir = crate::fsutil::parent_dir(output).to_path_buf();
        let file_name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let held = crate::fsutil::lock_dir(&dir).at(&dir)?;
        for path in [output, root.path] {
            let name = path.file_name().unwrap_or_default();
            held.dir().replaceable(name).at(path)?;
        }
        held.dir().sweep_temporaries(&format!(".{file_name}."));
        Ok(Replacement {
            previous: previous_children(&held, &file_name),
            dir,
            file_name,
            checked: root.checksum,
            held,
        })
    }

    fn temp(&self) -> io::Result<Temp> {
        self.held.dir().temp(&format!(".{}.", self.file_name))
    }

    /// A temporary file beside `to` holding what `fill` writes, synced and closed.
    fn write_temp(
        &self,
        to: &Path,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<Temp, WriteError> {
        let mut temp = self.temp().at(&self.dir)?;
        temp.fill(fill).at(to)?;
        Ok(temp)
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
        let written = write_urlsets_declaring(entries, extensions, limits, form, open, close);
        Ok(written.at(&self.dir)?)
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
    Ok(temp.persist(to.file_name().unwrap_or_default()).at(to)?)
}
