//! Directories held open, and the files in them opened by name: the one view of the
//! file system of the walk and of every other read of a file a site or project holds
//! (pages again for `llms-full.txt`, sources, project configs), per platform.
//!
//! On Unix (through `rustix`, no `unsafe` here) a directory is opened relative to its
//! held parent with `O_NOFOLLOW`, so a directory swapped for a link mid-walk is never
//! entered, and the kernel looks up one name per open, not every directory above it
//! again. A page is opened by name in its held directory, never through a link. What a
//! followed link leads to is opened from the public directory along the real path it
//! was checked to have, one component at a time and again through no link, so a link
//! pointed elsewhere since the check is refused, not followed. On Linux the entries are
//! read with `getdents64` into one buffer per thread ([`rustix::fs::RawDir`]); elsewhere
//! with `readdir`. Off Unix there are no directory descriptors: paths are joined
//! instead.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

mod walk;
mod write;
pub use walk::Bounds;
pub use write::Temp;

/// A name in a directory, as the platform gives it.
#[cfg(unix)]
pub type Name = std::ffi::CStr;
/// A name in a directory, as the platform gives it.
#[cfg(not(unix))]
pub type Name = std::ffi::OsStr;

/// An owned [`Name`], for a path opened a component at a time.
#[cfg(unix)]
pub type OwnedName = std::ffi::CString;

/// The bytes of a name, for the walk's rules.
pub fn name_bytes(name: &Name) -> &[u8] {
    #[cfg(unix)]
    return name.to_bytes();
    #[cfg(not(unix))]
    return name.as_encoded_bytes();
}

/// A name as an `OsStr`, to join onto a path.
pub fn name_os(name: &Name) -> &std::ffi::OsStr {
    #[cfg(unix)]
    return std::os::unix::ffi::OsStrExt::from_bytes(name.to_bytes());
    #[cfg(not(unix))]
    return name;
}

/// Whether opening a file failed because it is a link, which was not to be followed
/// (`O_NOFOLLOW`'s `ELOOP`).
pub fn is_refused_link(e: &io::Error) -> bool {
    #[cfg(unix)]
    return e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error());
    #[cfg(not(unix))]
    return {
        let _ = e;
        false
    };
}

/// The kind of a directory entry, as the directory tells it (links not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link.
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

/// Which file a directory is, to tell a link loop: (device, inode) on Unix.
pub type DirId = (u64, u64);

/// The bytes each walking thread reads directory entries into (as glibc's `readdir`).
#[cfg(unix)]
pub const ENTRIES_BUFFER: usize = 32 * 1024;

/// A directory held open.
#[derive(Debug)]
pub struct Dir {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
    #[cfg(not(unix))]
    path: PathBuf,
}

#[cfg(unix)]
mod unix {
    use std::mem::MaybeUninit;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use super::*;

    const DIR_FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::CLOEXEC);
    const FILE_FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::NONBLOCK)
        .union(OFlags::CLOEXEC);

    /// A relative path's names, for opening it one component at a time; `..`, `.` or a
    /// root in it is refused (a checked real path has none).
    fn components(rel: &Path) -> io::Result<Vec<OwnedName>> {
        use std::os::unix::ffi::OsStrExt;
        rel.components()
            .map(|c| match c {
                std::path::Component::Normal(name) => OwnedName::new(name.as_bytes())
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e)),
                _ => Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a plain relative path",
                )),
            })
            .collect()
    }

    fn kind(file_type: FileType) -> EntryKind {
        match file_type {
            FileType::Directory => EntryKind::Dir,
            FileType::RegularFile => EntryKind::File,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }

    impl Dir {
        /// Opens the directory at `path` (a link to it followed: the root is the user's).
        pub fn open_root(path: &Path) -> io::Result<Dir> {
            let fd = rustix::fs::open(path, DIR_FLAGS, Mode::empty())?;
            Ok(Dir { fd })
        }

        /// Opens the directory `name` in this one, not through a link.
        pub fn open_dir(&self, name: &Name) -> io::Result<Dir> {
            self.open_dir_named(name_os(name))
        }

        /// [`Dir::open_dir`] of a name given as the last component of a path, as the
        /// walk keeps a directory waiting to be read: rustix makes it a C string on the
        /// stack (it holds no NUL, coming from a directory's listing), where an owned
        /// copy of each name was an allocation per directory.
        pub fn open_dir_named(&self, name: &std::ffi::OsStr) -> io::Result<Dir> {
            let flags = DIR_FLAGS | OFlags::NOFOLLOW;
            let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())?;
            Ok(Dir { fd })
        }

        /// Opens the file `name` in this directory for reading, not through a link and
        /// without waiting (a FIFO opens at once instead of blocking until a writer
        /// comes). The caller checks the type of what it opened.
        pub fn open_file(&self, name: &Name) -> io::Result<File> {
            let flags = FILE_FLAGS | OFlags::NOFOLLOW;
            let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())?;
            Ok(File::from(fd))
        }

        /// Opens the directory at `rel` below this one (this one when `rel` is empty),
        /// one component at a time, through no link.
        pub fn open_dir_below(&self, rel: &Path) -> io::Result<Dir> {
            let names = components(rel)?;
            let mut dir = self.open_dir(c".")?;
            for name in &names {
                dir = dir.open_dir(name)?;
            }
            Ok(dir)
        }

        /// Opens the file at `rel` below this one for reading, one component at a time,
        /// through no link and without waiting (as [`Dir::open_file`]).
        pub fn open_file_below(&self, rel: &Path) -> io::Result<File> {
            let mut names = components(rel)?;
            let Some(last) = names.pop() else {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name"));
            };
            match names.split_first() {
                None => self.open_file(&last),
                Some((first, rest)) => {
                    let mut dir = self.open_dir(first)?;
                    for name in rest {
                        dir = dir.open_dir(name)?;
                    }
                    dir.open_file(&last)
                }
            }
        }

        /// The kind of what `name` names, the link followed: what a followed link is.
        pub fn kind_followed(&self, name: &Name) -> io::Result<EntryKind> {
            let stat = rustix::fs::statat(&self.fd, name, AtFlags::empty())?;
            Ok(kind(FileType::from_raw_mode(stat.st_mode)))
        }

        /// Takes this directory's lock (the OS's `flock` on the directory itself),
        /// waiting for another run that holds it.
        pub fn lock(&self) -> io::Result<()> {
            Ok(rustix::fs::flock(
                &self.fd,
                rustix::fs::FlockOperation::LockExclusive,
            )?)
        }

        /// Which directory this is (device and inode), to tell a link loop.
        pub fn id(&self) -> io::Result<DirId> {
            let stat = rustix::fs::fstat(&self.fd)?;
            Ok((stat.st_dev as u64, stat.st_ino as u64))
        }

        /// Calls `each` with every entry's name and kind (`.` and `..` left out), `buf`
        /// the space to read them into. The kind comes from the directory listing, with
        /// one `fstatat` only where the file system does not say.
        pub fn read(
            &self,
            buf: &mut Vec<MaybeUninit<u8>>,
            mut each: impl FnMut(&Name, EntryKind),
        ) -> io::Result<()> {
            if buf.len() < ENTRIES_BUFFER {
                buf.resize(ENTRIES_BUFFER, MaybeUninit::uninit());
            }
            self.read_entries(buf, &mut |name, file_type| {
                let bytes = name.to_bytes();
                if bytes == b"." || bytes == b".." {
                    return;
                }
                let kind = match file_type {
                    FileType::Unknown => self.kind_of(name),
                    known => kind(known),
                };
                each(name, kind)
            })
        }

        #[cfg(any(target_os = "linux", target_os = "android"))]
        fn read_entries(
            &self,
            buf: &mut [MaybeUninit<u8>],
            each: &mut dyn FnMut(&Name, FileType),
        ) -> io::Result<()> {
            let mut entries = rustix::fs::RawDir::new(&self.fd, buf);
            while let Some(entry) = entries.next() {
                let entry = entry?;
                each(entry.file_name(), entry.file_type());
            }
            Ok(())
        }

        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fn read_entries(
            &self,
            _buf: &mut [MaybeUninit<u8>],
            each: &mut dyn FnMut(&Name, FileType),
        ) -> io::Result<()> {
            for entry in rustix::fs::Dir::read_from(&self.fd)? {
                let entry = entry?;
                each(entry.file_name(), entry.file_type());
            }
            Ok(())
        }

        /// The kind of `name` by `fstatat`, for file systems whose listing does not say.
        fn kind_of(&self, name: &Name) -> EntryKind {
            match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => kind(FileType::from_raw_mode(stat.st_mode)),
                // Gone since it was listed: left for the page reader to find gone.
                Err(_) => EntryKind::Other,
            }
        }
    }
}

#[cfg(not(unix))]
mod other {
    use std::mem::MaybeUninit;

    use super::*;

    /// Windows' `FILE_FLAG_OPEN_REPARSE_POINT`: open a link itself, not its target.
    #[cfg(windows)]
    const OPEN_REPARSE_POINT: u32 = 0x0020_0000;

    fn kind(file_type: std::fs::FileType) -> EntryKind {
        if file_type.is_symlink() {
            EntryKind::Symlink
        } else if file_type.is_dir() {
            EntryKind::Dir
        } else if file_type.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        }
    }

    impl Dir {
        /// Opens the directory at `path`.
        pub fn open_root(path: &Path) -> io::Result<Dir> {
            Dir::at(path.to_path_buf(), true)
        }

        /// Opens the directory `name` in this one, not through a link.
        pub fn open_dir(&self, name: &Name) -> io::Result<Dir> {
            Dir::at(self.path.join(name), false)
        }

        /// [`Dir::open_dir`] of a name given as the last component of a path.
        pub fn open_dir_named(&self, name: &std::ffi::OsStr) -> io::Result<Dir> {
            self.open_dir(name)
        }

        /// Opens the directory at `rel` below this one (links on the way followed: no
        /// descriptors to open it by here).
        pub fn open_dir_below(&self, rel: &Path) -> io::Result<Dir> {
            Dir::at(self.path.join(rel), true)
        }

        /// Opens the file at `rel` below this one for reading (links on the way
        /// followed).
        pub fn open_file_below(&self, rel: &Path) -> io::Result<File> {
            File::open(self.path.join(rel))
        }

        fn at(path: PathBuf, follow: bool) -> io::Result<Dir> {
            let meta = if follow {
                std::fs::metadata(&path)?
            } else {
                std::fs::symlink_metadata(&path)?
            };
            // The kind Unix's ENOTDIR gives: callers take a file on the way as they do there.
            if !meta.is_dir() {
                return Err(io::Error::from(io::ErrorKind::NotADirectory));
            }
            Ok(Dir { path })
        }

        /// Opens the file `name` in this directory for reading, not through a link. The
        /// caller checks the type of what it opened.
        pub fn open_file(&self, name: &Name) -> io::Result<File> {
            let mut options = std::fs::OpenOptions::new();
            options.read(true);
            #[cfg(windows)]
            {
                use std::os::windows::fs::OpenOptionsExt;
                options.custom_flags(OPEN_REPARSE_POINT);
            }
            options.open(self.path.join(name))
        }

        /// The kind of what `name` names, the link followed.
        pub fn kind_followed(&self, name: &Name) -> io::Result<EntryKind> {
            Ok(kind(std::fs::metadata(self.path.join(name))?.file_type()))
        }

        /// Which directory this is, to tell a link loop: its real path's hash and length
        /// (no inode numbers here).
        pub fn id(&self) -> io::Result<DirId> {
            use std::hash::{Hash, Hasher};
            let real = std::fs::canonicalize(&self.path)?;
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            real.hash(&mut hasher);
            Ok((hasher.finish(), real.as_os_str().len() as u64))
        }

        /// Calls `each` with every entry's name and kind.
        pub fn read(
            &self,
            _buf: &mut Vec<MaybeUninit<u8>>,
            mut each: impl FnMut(&Name, EntryKind),
        ) -> io::Result<()> {
            for entry in std::fs::read_dir(&self.path)? {
                let entry = entry?;
                let kind = entry.file_type().map_or(EntryKind::Other, kind);
                each(&entry.file_name(), kind);
            }
            Ok(())
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::collections::BTreeMap;
    use std::ffi::CString;
    use std::os::unix::fs::symlink;

    use super::*;

    fn name(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    /// A directory with one of each kind: the listing's kinds, links not followed.
    #[test]
    fn entries_come_with_their_kinds() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join("sub")).unwrap();
        std::fs::write(root.join("page.html"), "x").unwrap();
        symlink("sub", root.join("link")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(root.join("fifo"))
            .status();
        assert!(fifo.unwrap().success());
        let dir = Dir::open_root(root).unwrap();
        let mut seen = BTreeMap::new();
        dir.read(&mut Vec::new(), |n, kind| {
            seen.insert(n.to_str().unwrap().to_string(), kind);
        })
        .unwrap();
        let want = [
            ("fifo", EntryKind::Other),
            ("link", EntryKind::Symlink),
            ("page.html", EntryKind::File),
            ("sub", EntryKind::Dir),
        ];
        assert_eq!(seen, want.map(|(n, k)| (n.to_string(), k)).into());
        // A FIFO opens at once (no writer to wait for); the caller sees what it is.
        let fifo = dir.open_file(&name("fifo")).unwrap();
        use std::os::unix::fs::FileTypeExt as _;
        assert!(fifo.metadata().unwrap().file_type().is_fifo());
    }

    /// A link is never opened as a directory or a file, by name or on the way to a path
    /// below: what a followed link leads to is opened by its real path.
    #[test]
    fn links_are_never_opened() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
        std::fs::write(root.join("sub/page.html"), "x").unwrap();
        symlink("sub", root.join("dirlink")).unwrap();
        symlink("sub/page.html", root.join("filelink.html")).unwrap();
        let dir = Dir::open_root(root).unwrap();
        let refused = dir.open_dir(&name("dirlink")).unwrap_err();
        assert!(
            is_refused_link(&refused) || refused.raw_os_error() == Some(20),
            "{refused}"
        );
        let refused = dir.open_file(&name("filelink.html")).unwrap_err();
        assert!(is_refused_link(&refused), "{refused}");
        assert_eq!(dir.kind_followed(&name("dirlink")).unwrap(), EntryKind::Dir);
        // A directory opens too: the caller sees what it is ("now a directory").
        let sub = dir.open_file(&name("sub")).unwrap();
        assert!(sub.metadata().unwrap().is_dir());
        // Below: by the real path, never through a link on the way.
        let sub_id = dir.open_dir(&name("sub")).unwrap().id().unwrap();
        let below = dir.open_dir_below(Path::new("sub")).unwrap();
        assert_eq!(below.id().unwrap(), sub_id);
        assert_eq!(
            dir.open_dir_below(Path::new("")).unwrap().id().unwrap(),
            dir.id().unwrap()
        );
        assert!(dir.open_dir_below(Path::new("sub/deeper")).is_ok());
        assert!(dir.open_file_below(Path::new("sub/page.html")).is_ok());
        for rel in [
            "dirlink",
            "dirlink/deeper",
            "filelink.html",
            "dirlink/page.html",
        ] {
            let refused = match rel.ends_with(".html") {
                true => dir.open_file_below(Path::new(rel)).unwrap_err(),
                false => dir.open_dir_below(Path::new(rel)).unwrap_err(),
            };
            assert!(
                is_refused_link(&refused) || refused.raw_os_error() == Some(20),
                "{rel}: {refused}"
            );
        }
        for rel in ["../x.html", "/etc/passwd", "sub/../sub/page.html"] {
            let refused = dir.open_file_below(Path::new(rel)).unwrap_err();
            assert_eq!(refused.kind(), io::ErrorKind::InvalidInput, "{rel}");
        }
    }
}

/// Opens files below a held directory, one name at a time through no link, holding the
/// directory of the last one: files met folder by folder (a walk's, or a sorted list)
/// cost one open each.
pub struct Opener<'d> {
    held: &'d Dir,
    last: Option<(PathBuf, Dir)>,
}

impl<'d> Opener<'d> {
    /// An opener below `held`.
    pub fn new(held: &'d Dir) -> Opener<'d> {
        Opener { held, last: None }
    }

    /// The regular file at `rel` below the held directory.
    pub fn open(&mut self, rel: &Path) -> io::Result<File> {
        let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
            return self.held.open_file_below(rel);
        };
        if self.last.as_ref().is_none_or(|(dir, _)| dir != parent) {
            self.last = Some((parent.to_path_buf(), self.held.open_dir_below(parent)?));
        }
        let (_, dir) = self.last.as_ref().expect("set above");
        dir.open_file_below(Path::new(name))
    }
}

/// What every platform's [`Dir`] must say alike.
#[cfg(test)]
mod portable_tests {
    use super::*;

    /// A file where a directory is opened is `NotADirectory` everywhere (Windows said
    /// `Other`, which the callers that pass over a file on the way did not take).
    #[test]
    fn a_file_opened_as_a_directory_is_not_a_directory() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("page.html"), "x").unwrap();
        let root = Dir::open_root(tmp.path()).unwrap();
        let kinds = [
            Dir::open_root(&tmp.path().join("page.html")).map(|_| ()),
            root.open_dir_named(std::ffi::OsStr::new("page.html"))
                .map(|_| ()),
            root.open_dir_below(Path::new("page.html")).map(|_| ()),
        ]
        .map(|r| r.unwrap_err().kind());
        assert_eq!(kinds, [io::ErrorKind::NotADirectory; 3]);
    }
}
