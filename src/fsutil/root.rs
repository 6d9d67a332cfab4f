//! A directory tree held open at its root, found once: every file read, written or
//! removed in it is named relative to the root and opened one folder at a time through
//! no link. A link the tree holds is followed only to where it was checked to lead,
//! inside the tree, along that real path: a folder swapped for a link after the check
//! cannot send a read or a write anywhere else.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Place;
use super::dir::Dir;

/// A directory tree held open at its root.
#[derive(Debug)]
pub struct Root {
    dir: Arc<Dir>,
    /// The root's real path, which everything read or written in it must be inside.
    real: PathBuf,
    /// The root as it was named, for messages.
    named: PathBuf,
}

impl Root {
    /// The tree at `path` (a link to it followed: the user named it).
    pub fn at(path: &Path) -> io::Result<Root> {
        let real = std::fs::canonicalize(path)?;
        let dir = Arc::new(Dir::open_root(&real)?);
        let named = path.to_path_buf();
        Ok(Root { dir, real, named })
    }

    /// The root directory, held open.
    pub fn dir(&self) -> &Arc<Dir> {
        &self.dir
    }

    /// Where `rel` really is, relative to the root: itself, or, links on the way and a
    /// link at the end resolved, a real path inside the tree; a link leading out is an
    /// `InvalidInput` error naming where it leads.
    pub fn place(&self, rel: &Path) -> io::Result<PathBuf> {
        let named = self.real.join(rel);
        let real = match super::place_in(&self.real, &named) {
            Ok(Place::Inside(real)) => real,
            Ok(Place::Outside(real)) => return Err(self.outside(&named, &real)),
            // Not there (yet): named as it is, each folder on the way opened through no
            // link when it is written.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(rel.to_path_buf()),
            Err(e) => return Err(e),
        };
        Ok(real.strip_prefix(&self.real).unwrap_or(rel).to_path_buf())
    }

    /// Why `named`, whose real path is `real`, is refused: the link it is, or the link on
    /// its way, leads out of the tree.
    fn outside(&self, named: &Path, real: &Path) -> io::Error {
        let root = crate::text::path(&self.named);
        let why = match std::fs::read_link(named) {
            Ok(target) => format!(
                "is a symbolic link to {}, outside {root}; replace the link with the file itself",
                crate::text::path(&target)
            ),
            Err(_) => format!(
                "leads outside {root} through a symbolic link, to {}; replace the link with the file itself",
                crate::text::path(real)
            ),
        };
        io::Error::new(io::ErrorKind::InvalidInput, why)
    }

    /// The folder `rel` below the root, held open: opened along its real path
    /// ([`Root::place`]) through no link.
    #[cfg_attr(not(feature = "markdown"), allow(dead_code))]
    pub fn folder(&self, rel: &Path) -> io::Result<Arc<Dir>> {
        if rel.as_os_str().is_empty() {
            return Ok(Arc::clone(&self.dir));
        }
        let real = self.place(rel)?;
        self.open_real(&real)
    }

    /// The held folder the file at `rel` really is in ([`Root::place`]), and its name
    /// there.
    pub fn file(&self, rel: &Path) -> io::Result<(Arc<Dir>, std::ffi::OsString)> {
        let real = self.place(rel)?;
        let name = real.file_name().ok_or_else(no_name)?.to_owned();
        let parent = real.parent().unwrap_or(Path::new(""));
        Ok((self.open_real(parent)?, name))
    }

    /// The folder at the real path `real` below the root, opened through no link.
    fn open_real(&self, real: &Path) -> io::Result<Arc<Dir>> {
        if real.as_os_str().is_empty() {
            return Ok(Arc::clone(&self.dir));
        }
        // A folder checked real a moment ago and a link now was swapped since.
        let folder = self.dir.open_dir_below(real).map_err(|e| {
            match super::dir::is_refused_link(&e) || e.kind() == io::ErrorKind::NotADirectory {
                true => io::Error::new(io::ErrorKind::InvalidInput, super::Refused::Link),
                false => e,
            }
        })?;
        Ok(Arc::new(folder))
    }

    /// The regular file at `rel` below the root ([`Root::place`]), opened through no
    /// link; `None` when nothing is there.
    pub fn open(&self, rel: &Path) -> io::Result<Option<File>> {
        let (folder, name) = self.file(rel)?;
        folder.open_regular(&name)
    }

    /// The regular file at `rel` below the root, at most `limit` bytes ([`Root::open`]).
    pub fn read(&self, rel: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
        match self.open(rel)? {
            Some(file) => super::read_capped(file, limit).map(Some),
            None => Ok(None),
        }
    }

    /// Writes `bytes` to the file at `rel` below the root all or nothing, unless it holds
    /// them already ([`Dir::write_changed`], temporary files `.{name}.`). A link there
    /// is written through to where it leads inside the tree.
    pub fn write(&self, rel: &Path, bytes: &[u8]) -> io::Result<()> {
        self.write_with(rel, |folder, name, prefix| {
            folder.write_changed(name, prefix, bytes).map(drop)
        })
    }

    /// Writes the file at `rel` below the root all or nothing from what `fill` writes,
    /// streamed ([`Dir::write_atomic`]).
    pub fn write_streamed(
        &self,
        rel: &Path,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        self.write_with(rel, |folder, name, prefix| {
            folder.write_atomic(name, prefix, fill)
        })
    }

    /// Removes the regular file at `rel` below the root, when there
    /// ([`Dir::remove_regular`]).
    pub fn remove(&self, rel: &Path) -> io::Result<()> {
        let (folder, name) = self.file(rel)?;
        folder.remove_regular(&name)
    }

    fn write_with<T>(
        &self,
        rel: &Path,
        write: impl FnOnce(&Arc<Dir>, &OsStr, &str) -> io::Result<T>,
    ) -> io::Result<T> {
        let (folder, name) = self.file(rel)?;
        let prefix = format!(".{}.", name.to_string_lossy());
        write(&folder, &name, &prefix)
    }
}

fn no_name() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "no file name")
}
