//! Writing in a held directory: every file made, replaced, read back or removed is named
//! relative to a [`Dir`] opened once, never by a path, so a folder swapped for a link
//! after it was opened cannot send a write, or a removal, anywhere else. Off Unix there
//! are no directory descriptors: names are joined to the directory's path.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;

use super::Dir;
use crate::fsutil::Refused;

/// The bytes buffered between a fill and its temporary file.
const BUFFER: usize = 64 * 1024;

/// A regular file's mode (its permission bits and the rest), passed on to the file that
/// replaces it.
#[cfg(unix)]
pub type Mode = rustix::fs::Mode;
/// A regular file's permissions, passed on to the file that replaces it.
#[cfg(not(unix))]
pub type Mode = std::fs::Permissions;

/// How many random names a new temporary file tries before giving up.
const TEMP_TRIES: usize = 64;

/// A file being written under a temporary name (`{prefix}XXXXXX.tmp`) in a held
/// directory, made with mode 0666 so the umask decides, as for any file the user makes
/// (0600 would make a published sitemap unreadable to a web server running as another
/// user). Removed if dropped before [`Temp::persist`].
#[derive(Debug)]
pub struct Temp {
    dir: Arc<Dir>,
    name: OsString,
    file: Option<File>,
}

impl Dir {
    /// A new temporary file here whose name starts with `prefix`.
    pub fn temp(self: &Arc<Self>, prefix: &str) -> io::Result<Temp> {
        for _ in 0..TEMP_TRIES {
            let suffix: String = std::iter::repeat_with(fastrand::alphanumeric)
                .take(6)
                .collect();
            let name = OsString::from(format!("{prefix}{suffix}.tmp"));
            match self.create_new(&name) {
                Ok(file) => {
                    let file = Some(file);
                    return Ok(Temp {
                        dir: Arc::clone(self),
                        name,
                        file,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for a temporary file",
        ))
    }

    /// Writes `name` here all or nothing: what `fill` writes goes into a temporary file,
    /// synced, then renamed over `name`, so a reader sees the old file or the new one.
    /// Temporary files of `prefix` a killed run left are swept first: the caller holds
    /// the directory's lock ([`crate::fsutil::lock_dir`]), so no live run writes them.
    pub fn write_atomic(
        self: &Arc<Self>,
        name: &OsStr,
        prefix: &str,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        self.sweep_temporaries(prefix);
        // Refused before anything is written.
        self.replaceable(name)?;
        let mut temp = self.temp(prefix)?;
        temp.fill(fill)?;
        temp.persist(name)?;
        self.sync();
        Ok(())
    }

    /// [`Dir::write_atomic`] of `bytes`, unless the regular file `name` holds them
    /// already: then nothing is written or synced, and its date stays that of its
    /// content. Whether it wrote.
    pub fn write_changed(
        self: &Arc<Self>,
        name: &OsStr,
        prefix: &str,
        bytes: &[u8],
    ) -> io::Result<bool> {
        let limit = bytes.len() as u64 + 1;
        if matches!(self.read_regular(name, limit), Ok(Some(old)) if old == bytes) {
            return Ok(false);
        }
        self.write_atomic(name, prefix, |out| out.write_all(bytes))?;
        Ok(true)
    }

    /// What is at `name` if it may be replaced: `None` when nothing is there, its mode
    /// when it is a regular file. Anything else (a device, a FIFO, a socket,
    /// a directory, a symbolic link) is an `InvalidInput` error: renaming over it would
    /// destroy it, and writing through a link could reach outside the site.
    pub fn replaceable(&self, name: &OsStr) -> io::Result<Option<Mode>> {
        match self.stat_nofollow(name) {
            Ok(Ok(permissions)) => Ok(Some(permissions)),
            Ok(Err(kind)) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "is {kind}; only a regular file is ever replaced: remove it or choose another path"
                ),
            )),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The regular file `name` here, opened through no link; `None` when nothing is
    /// there. A link is [`Refused::Link`], anything but a regular file
    /// [`Refused::NotRegular`].
    pub fn open_regular(&self, name: &OsStr) -> io::Result<Option<File>> {
        let file = match self.open_file_below(name.as_ref()) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) if super::is_refused_link(&e) => {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, Refused::Link));
            }
            Err(e) => return Err(e),
        };
        let kind = file.metadata()?.file_type();
        if !kind.is_file() {
            let refused = Refused::NotRegular(crate::fsutil::kind_name(&kind));
            return Err(io::Error::new(io::ErrorKind::InvalidInput, refused));
        }
        Ok(Some(file))
    }

    /// The regular file `name` here, at most `limit` bytes ([`Dir::open_regular`]).
    pub fn read_regular(&self, name: &OsStr, limit: u64) -> io::Result<Option<Vec<u8>>> {
        match self.open_regular(name)? {
            Some(file) => crate::fsutil::read_capped(file, limit).map(Some),
            None => Ok(None),
        }
    }

    /// Removes the regular file `name` here; anything else is refused
    /// ([`Dir::replaceable`]), and nothing there is no error.
    pub fn remove_regular(&self, name: &OsStr) -> io::Result<()> {
        match self.replaceable(name)? {
            Some(_) => self.unlink(name),
            None => Ok(()),
        }
    }

    /// Removes each regular file here whose name `named` picks and whose content
    /// `proven` proves ours; the names removed, sorted. Names that are not UTF-8 are
    /// none of ours.
    pub fn remove_ours(
        &self,
        mut named: impl FnMut(&str) -> bool,
        mut proven: impl FnMut(&Dir, &OsStr) -> bool,
    ) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        self.fresh()?.read(&mut Vec::new(), |name, kind| {
            let name = super::name_os(name).to_str();
            if let (super::EntryKind::File, Some(name)) = (kind, name)
                && named(name)
            {
                names.push(name.to_string());
            }
        })?;
        names.retain(|name| proven(self, name.as_ref()));
        for name in &names {
            self.remove_regular(name.as_ref())?;
        }
        names.sort();
        Ok(names)
    }

    /// Removes the temporary files (`{prefix}*.tmp`) a killed run left here.
    pub fn sweep_temporaries(&self, prefix: &str) {
        let mut names = Vec::new();
        let Ok(fresh) = self.fresh() else {
            return;
        };
        let _ = fresh.read(&mut Vec::new(), |name, kind| {
            let bytes = super::name_bytes(name);
            if kind == super::EntryKind::File
                && bytes.starts_with(prefix.as_bytes())
                && bytes.ends_with(b".tmp")
            {
                names.push(super::name_os(name).to_owned());
            }
        });
        for name in names {
            let _ = self.unlink(&name);
        }
    }
}

impl Dir {
    /// This directory opened again, to list from its start: a held directory's listing
    /// is read through once.
    fn fresh(&self) -> io::Result<Dir> {
        self.open_dir_below(std::path::Path::new(""))
    }
}

impl Temp {
    /// Writes what `fill` writes, through a buffer, then syncs the file.
    pub fn fill(&mut self, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut out = io::BufWriter::with_capacity(BUFFER, self.file());
        fill(&mut out)?;
        out.flush()?;
        drop(out);
        self.close()
    }

    /// The open file, to write to (not to be called once [`Temp::close`]d).
    pub fn file(&mut self) -> &mut File {
        self.file
            .as_mut()
            .expect("a temporary file is written before it is closed")
    }

    /// Syncs and closes the file, keeping its name: a set of many files waits for its
    /// renames holding no descriptor.
    pub fn close(&mut self) -> io::Result<()> {
        match self.file.take() {
            Some(file) => file.sync_all(),
            None => Ok(()),
        }
    }

    /// Syncs the file and renames it over `to` in its directory, which must be a regular
    /// file or nothing ([`Dir::replaceable`]): a file replaced passes its mode on.
    pub fn persist(mut self, to: &OsStr) -> io::Result<()> {
        self.close()?;
        self.persist_unsynced(to)
    }

    /// [`Temp::persist`] without the sync, for a file that tells itself cut short (by a
    /// hash of its body) and is only a cache.
    pub fn persist_unsynced(mut self, to: &OsStr) -> io::Result<()> {
        self.file = None;
        if let Some(permissions) = self.dir.replaceable(to)? {
            self.dir.set_permissions(&self.name, permissions)?;
        }
        self.dir.rename(&self.name, to)?;
        self.name.clear();
        Ok(())
    }
}

impl Write for Temp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        self.file = None;
        if !self.name.is_empty() {
            let _ = self.dir.unlink(&self.name);
        }
    }
}

#[cfg(unix)]
mod unix {
    use rustix::fs::{AtFlags, FileType, OFlags};

    use super::*;

    impl Dir {
        /// Creates `name` here, which must not exist (a link there is not followed).
        pub(super) fn create_new(&self, name: &OsStr) -> io::Result<File> {
            let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
            let mode = Mode::from_raw_mode(0o666);
            let fd = rustix::fs::openat(&self.fd, name, flags | OFlags::CLOEXEC, mode)?;
            Ok(File::from(fd))
        }

        /// The permissions of `name` itself when it is a regular file, else what it is
        /// (a link not followed).
        pub(super) fn stat_nofollow(&self, name: &OsStr) -> io::Result<Result<Mode, &'static str>> {
            let stat = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
            Ok(match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile => Ok(Mode::from_raw_mode(stat.st_mode)),
                FileType::Directory => Err("a directory"),
                FileType::Symlink => Err("a symbolic link"),
                FileType::Fifo => Err("a FIFO"),
                FileType::Socket => Err("a socket"),
                FileType::BlockDevice | FileType::CharacterDevice => Err("a device"),
                _ => Err("not a regular file"),
            })
        }

        pub(super) fn set_permissions(&self, name: &OsStr, mode: Mode) -> io::Result<()> {
            Ok(rustix::fs::chmodat(&self.fd, name, mode, AtFlags::empty())?)
        }

        pub(super) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
        }

        pub(super) fn unlink(&self, name: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
        }

        /// Makes renames here durable; failing to is not worth failing a run over, as the
        /// data itself is already synced.
        pub fn sync(&self) {
            let _ = rustix::fs::fsync(&self.fd);
        }
    }
}

#[cfg(not(unix))]
mod other {
    use super::*;

    impl Dir {
        /// Creates `name` here, which must not exist.
        pub(super) fn create_new(&self, name: &OsStr) -> io::Result<File> {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            options.open(self.path.join(name))
        }

        /// The permissions of `name` itself when it is a regular file, else what it is
        /// (a link not followed).
        pub(super) fn stat_nofollow(&self, name: &OsStr) -> io::Result<Result<Mode, &'static str>> {
            let meta = std::fs::symlink_metadata(self.path.join(name))?;
            Ok(match meta.is_file() {
                true => Ok(meta.permissions()),
                false => Err(crate::fsutil::kind_name(&meta.file_type())),
            })
        }

        pub(super) fn set_permissions(&self, name: &OsStr, mode: Mode) -> io::Result<()> {
            std::fs::set_permissions(self.path.join(name), mode)
        }

        pub(super) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            let (from, to) = (self.path.join(from), self.path.join(to));
            patiently(|| std::fs::rename(&from, &to))
        }

        pub(super) fn unlink(&self, name: &OsStr) -> io::Result<()> {
            let path = self.path.join(name);
            patiently(|| std::fs::remove_file(&path))
        }

        /// Renames need no sync here: Windows' file systems journal them.
        pub fn sync(&self) {}
    }

    /// The longest wait between two tries of a replace or removal (the waits double
    /// from 2 ms: about a second in all).
    const PATIENCE: std::time::Duration = std::time::Duration::from_millis(600);

    /// Runs `op`, a replace or a removal, again while it fails because the file is in
    /// use: Windows refuses either for a moment while another process has the file open
    /// (a virus scanner or indexer reading a file just written, another run reading
    /// robots.txt where the file system has no POSIX rename, as Wine's), with access
    /// denied (5), sharing violation (32) or lock violation (33). After about a second
    /// its error is given.
    fn patiently(op: impl Fn() -> io::Result<()>) -> io::Result<()> {
        let busy = |e: &io::Error| cfg!(windows) && matches!(e.raw_os_error(), Some(5 | 32 | 33));
        let mut wait = std::time::Duration::from_millis(2);
        loop {
            match op() {
                Err(e) if busy(&e) && wait < PATIENCE => {
                    std::thread::sleep(wait);
                    wait *= 2;
                }
                done => return done,
            }
        }
    }
}
