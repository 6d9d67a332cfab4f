//! File-system helpers every stage shares, so their copies cannot drift.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

mod at;
pub mod dir;
mod root;

pub use at::{At, IoError};
pub use root::Root;

/// Opens `path` for reading only if it is a regular file (symlinks followed).
///
/// Opened non-blocking, so a FIFO cannot hang the run waiting for a writer, then checked
/// by the type of what was opened (not of what the name pointed at a moment before):
/// anything but a regular file is an `InvalidInput` error saying what it is.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_nonblocking(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        Refused::NotRegular(kind_name(&kind)),
    ))
}

/// Why [`open_regular`] or [`read_regular_string`] refused a file: carried inside the
/// `io::Error` they fail with, whose message is this one's; see [`refused`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Not a regular file: what it is ([`kind_name`]).
    #[error("is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Longer than the limit, in bytes.
    #[error("is larger than {}", crate::text::bytes(*.0))]
    Larger(u64),
    /// Not UTF-8 text.
    #[error("is not UTF-8 text")]
    NotUtf8,
    /// A symbolic link, or a link on the way to it, where none is followed.
    #[error("is a symbolic link (or under one), which is not followed; put the file itself there")]
    Link,
}

/// The [`Refused`] an I/O error carries, if it is one.
pub fn refused(e: &io::Error) -> Option<Refused> {
    e.get_ref()?.downcast_ref().copied()
}

/// Reads at most `limit` bytes of the regular file at `path` ([`open_regular`]); a longer
/// file is an `InvalidData` error, so no input can make us hold more than we chose.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_capped(open_regular(path)?, limit)
}

/// [`read_regular`] of the file at `rel` below the directory `root`, opened through no
/// link ([`open_below`]).
pub fn read_below(root: &Path, rel: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_capped(open_below(root, rel)?, limit)
}

/// Opens the regular file at `rel` below the directory `root` for reading, one name at a
/// time through no link ([`dir::Dir::open_file_below`]), as the walk opens a page: a link
/// a repository or a site holds can lead anywhere, and what is read is written out. A
/// link on the way is [`Refused::Link`]; anything but a regular file
/// [`Refused::NotRegular`].
pub fn open_below(root: &Path, rel: &Path) -> io::Result<File> {
    let file = match dir::Dir::open_root(root)?.open_file_below(rel) {
        Ok(file) => file,
        Err(e) if dir::is_refused_link(&e) || e.kind() == io::ErrorKind::NotADirectory => {
            let link = rel.ancestors().any(|p| {
                !p.as_os_str().is_empty()
                    && std::fs::symlink_metadata(root.join(p)).is_ok_and(|m| m.is_symlink())
            });
            return Err(match link {
                true => io::Error::new(io::ErrorKind::InvalidInput, Refused::Link),
                false => e,
            });
        }
        Err(e) => return Err(e),
    };
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        let refused = Refused::NotRegular(kind_name(&kind));
        return Err(io::Error::new(io::ErrorKind::InvalidInput, refused));
    }
    Ok(file)
}

/// [`read_below`] as UTF-8 text.
pub fn read_below_string(root: &Path, rel: &Path, limit: u64) -> io::Result<String> {
    utf8(read_below(root, rel, limit)?)
}

/// At most `limit` bytes of `file`; more is [`Refused::Larger`].
pub fn read_capped(file: File, limit: u64) -> io::Result<Vec<u8>> {
    // Sized by the file: a buffer grown by doubling holds up to twice what it read.
    let size = file.metadata().map_or(0, |m| m.len()).min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            Refused::Larger(limit),
        ));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_string(path: &Path, limit: u64) -> io::Result<String> {
    utf8(read_regular(path, limit)?)
}

fn utf8(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, Refused::NotUtf8))
}

/// Opens `path` for reading without waiting: a FIFO opens at once instead of blocking
/// until a writer comes. The caller checks the type of what it opened.
#[cfg(unix)]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits();
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nonblocking as i32)
        .open(path)
}

/// Opens `path` for reading (no FIFOs to wait on here).
#[cfg(not(unix))]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What a file that is not a regular file is, for messages.
pub fn kind_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// The directory `path` is in: its parent, or `.` for a bare file name.
pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// gzip's magic bytes, which tell a gzipped input whatever its name.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A reader of `file`'s content, gunzipped when it starts with gzip's magic bytes: the
/// one way inputs are told gzipped (outputs are gzipped by their settings).
pub fn maybe_gzipped(file: std::fs::File) -> io::Result<Box<dyn io::BufRead>> {
    let mut reader = io::BufReader::new(file);
    let gzipped = io::BufRead::fill_buf(&mut reader)?.starts_with(&GZIP_MAGIC);
    Ok(if gzipped {
        Box::new(io::BufReader::new(flate2::bufread::GzDecoder::new(reader)))
    } else {
        Box::new(reader)
    })
}

/// Where a path really is, against a directory tree ([`place_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Inside the tree: its real path.
    Inside(std::path::PathBuf),
    /// Outside it: its real path.
    Outside(std::path::PathBuf),
}

/// Whether `path`, symbolic links resolved, is inside the tree whose real path is
/// `real_root` (the tree itself included): the one test of "inside the root" that every
/// input and output read or written in a site goes through. An error when `path` cannot
/// be resolved (it, or a link on the way, leads nowhere).
pub fn place_in(real_root: &Path, path: &Path) -> io::Result<Place> {
    let real = std::fs::canonicalize(path)?;
    Ok(if real.starts_with(real_root) {
        Place::Inside(real)
    } else {
        Place::Outside(real)
    })
}

/// Reading stopped: the content (gunzipped, for a gzipped file) goes on past `limit`
/// bytes. Carried inside the `io::Error` that [`Capped`] fails with; see [`too_large`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("larger than {} uncompressed", crate::text::bytes(*limit))]
pub struct TooLarge {
    /// The bytes that were allowed.
    pub limit: u64,
}

/// The [`TooLarge`] an I/O error carries, if it is one.
pub fn too_large(e: &io::Error) -> Option<&TooLarge> {
    e.get_ref()?.downcast_ref()
}

/// A reader that gives at most `limit` bytes of its inner reader and fails with
/// [`TooLarge`] where more would follow, so no input can make a reader hold more than
/// the limit (a 1 MB gzip bomb inflates to gigabytes).
#[derive(Debug)]
pub struct Capped<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R> Capped<R> {
    /// Caps `inner` at `limit` bytes.
    pub fn new(inner: R, limit: u64) -> Capped<R> {
        Capped {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: io::Read> io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // One byte more tells an input of exactly `limit` bytes from a longer one.
            return match self.inner.read(&mut [0u8])? {
                0 => Ok(0),
                _ => Err(io::Error::other(TooLarge { limit: self.limit })),
            };
        }
        let room = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The content of the regular file at `path` ([`open_regular`]), gunzipped when gzipped
/// ([`maybe_gzipped`]), buffered, and [`Capped`] at `limit` bytes.
pub fn open_content(
    path: &Path,
    limit: u64,
) -> io::Result<io::BufReader<Capped<Box<dyn io::BufRead>>>> {
    content(open_regular(path)?, limit)
}

/// [`open_content`] of a file already opened.
pub fn content(file: File, limit: u64) -> io::Result<io::BufReader<Capped<Box<dyn io::BufRead>>>> {
    let inner = maybe_gzipped(file)?;
    Ok(io::BufReader::with_capacity(
        64 * 1024,
        Capped::new(inner, limit),
    ))
}

/// Writes `bytes` to the file `name` in the directory `dir` all or nothing, under the
/// directory's lock ([`Root::write`]).
pub fn write_locked(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    lock_dir(dir)?.write(Path::new(name), bytes)
}

/// Writes the file at `path` all or nothing under its folder's lock, what `fill` writes
/// streamed into it ([`dir::Dir::write_atomic`], temporary files `.{name}.`).
pub fn write_path_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let held = lock_dir(parent_dir(path))?;
    let no_name = || io::Error::new(io::ErrorKind::InvalidInput, "no file name");
    let name = path.file_name().ok_or_else(no_name)?;
    let prefix = format!(".{}.", name.to_string_lossy());
    held.dir().write_atomic(name, &prefix, fill)
}

/// The directory at `path` held open, to write in by name (a link to it followed: the
/// user named it).
pub fn held(path: &Path) -> io::Result<std::sync::Arc<dir::Dir>> {
    dir::Dir::open_root(path).map(std::sync::Arc::new)
}

/// A directory held open and locked until dropped ([`lock_dir`]): everything written,
/// replaced or removed in its tree goes through its [`Root`], by name.
#[derive(Debug)]
pub struct DirLock {
    root: Root,
    #[cfg(not(unix))]
    _file: File,
}

impl std::ops::Deref for DirLock {
    type Target = Root;

    fn deref(&self) -> &Root {
        &self.root
    }
}

/// Takes the lock of directory `dir` (the OS's `flock` on the directory itself, so no
/// lock file is left in the site and a killed run releases it), waiting for another run
/// that holds it. One process must not take it twice at once: two descriptions of one
/// directory exclude each other.
#[cfg(unix)]
pub fn lock_dir(dir: &Path) -> io::Result<DirLock> {
    let root = Root::at(dir)?;
    root.dir().lock()?;
    Ok(DirLock { root })
}

/// Takes the lock of directory `dir`, waiting for another run that holds it.
///
/// Windows locks byte ranges of files only (`LockFileEx` on a directory handle fails), and
/// a directory opened without sharing would also shut out the renames into it. So the
/// lock is a file in the temporary directory named by the hash of `dir`'s real path:
/// nothing is left in the site, and a killed run's lock goes with its handles. Runs of
/// one user exclude each other (each user has a temporary directory of their own).
#[cfg(not(unix))]
pub fn lock_dir(dir: &Path) -> io::Result<DirLock> {
    let real = std::fs::canonicalize(dir)?;
    if !real.is_dir() {
        return Err(io::Error::from(io::ErrorKind::NotADirectory));
    }
    let hash = blake3::hash(real.as_os_str().as_encoded_bytes()).to_hex();
    let name = format!("sitemapgen-{}.lock", &hash[..32]);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(std::env::temp_dir().join(name))?;
    file.lock()?;
    let root = Root::at(&real)?;
    Ok(DirLock { root, _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn fifos_and_devices_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        // Returns at once (a blocking open would wait for a writer forever).
        let err = open_regular(&fifo).unwrap_err();
        assert_eq!(err.to_string(), "is a FIFO, not a regular file");
        let err = open_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(err.to_string(), "is a device, not a regular file");
        assert_eq!(refused(&err), Some(Refused::NotRegular("a device")));
    }

    #[test]
    fn only_regular_files_are_opened_and_reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let err = open_regular(dir.path()).unwrap_err();
        assert_eq!(err.to_string(), "is a directory, not a regular file");
        let file = dir.path().join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        let err = read_regular(&file, 4).unwrap_err();
        assert_eq!(err.to_string(), "is larger than 4 bytes");
        assert_eq!(refused(&err), Some(Refused::Larger(4)));
        std::fs::write(&file, b"\xff").unwrap();
        let err = read_regular_string(&file, 4).unwrap_err();
        assert_eq!(err.to_string(), "is not UTF-8 text");
        assert_eq!(refused(&err), Some(Refused::NotUtf8));
        assert_eq!(crate::text::bytes(50 << 20), "50 MiB");
        assert_eq!(crate::text::bytes(16 << 10), "16 KiB");
    }

    #[test]
    fn capped_readers_stop_one_byte_past_the_limit() {
        // (input, limit, what is read: None when the input is too large)
        let table = [
            ("12345", 5, Some("12345")),
            ("12345", 9, Some("12345")),
            ("123456", 5, None),
            ("", 0, Some("")),
        ];
        for (input, limit, want) in table {
            let mut got = String::new();
            let read = Capped::new(input.as_bytes(), limit).read_to_string(&mut got);
            match want {
                Some(text) => assert_eq!((read.unwrap(), got.as_str()), (text.len(), text)),
                None => assert_eq!(too_large(&read.unwrap_err()), Some(&TooLarge { limit })),
            }
        }
        assert_eq!(
            TooLarge { limit: 50 << 20 }.to_string(),
            "larger than 50 MiB uncompressed"
        );
    }

    #[test]
    fn content_is_gunzipped_capped_and_only_of_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.xml.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&[b' '; 4096]).unwrap();
        std::fs::write(&path, gz.finish().unwrap()).unwrap();
        let mut text = String::new();
        open_content(&path, 4096)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text.len(), 4096);
        let err = open_content(&path, 4095).unwrap().read_to_string(&mut text);
        assert!(too_large(&err.unwrap_err()).is_some());
        let err = open_content(dir.path(), 1).err().unwrap();
        assert_eq!(err.to_string(), "is a directory, not a regular file");
    }

    #[test]
    fn parent_dir_of_a_bare_name_is_dot() {
        assert_eq!(parent_dir(Path::new("sitemap.xml")), Path::new("."));
        assert_eq!(parent_dir(Path::new("a/b.xml")), Path::new("a"));
        assert_eq!(parent_dir(Path::new("/b.xml")), Path::new("/"));
    }

    /// Writes `f.txt` in the locked directory.
    fn write_f(held: &DirLock, bytes: &[u8]) -> io::Result<()> {
        held.dir()
            .write_atomic("f.txt".as_ref(), ".f.txt.", |out| out.write_all(bytes))
    }

    #[test]
    fn atomic_writes_replace_only_regular_files_and_leave_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let held = lock_dir(dir.path()).unwrap();
        let write = |bytes: &'static [u8]| write_f(&held, bytes);
        write(b"one").unwrap();
        write(b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let got = held.dir().read_regular("f.txt".as_ref(), 3).unwrap();
        assert_eq!(got.as_deref(), Some(&b"two"[..]));
        assert!(held.dir().read_regular("f.txt".as_ref(), 2).is_err());
        assert_eq!(held.dir().read_regular("none".as_ref(), 2).unwrap(), None);
        // A temporary file a killed run left is swept; no new one is left behind.
        std::fs::write(dir.path().join(".f.txt.abcdef.tmp"), "x").unwrap();
        write(b"three").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // Only a regular file is replaced or removed.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let refused = held.dir().write_atomic("sub".as_ref(), ".sub.", |_| Ok(()));
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .starts_with("is a directory; ")
        );
        assert!(held.dir().remove_regular("sub".as_ref()).is_err());
        held.dir().remove_regular("f.txt".as_ref()).unwrap();
        held.dir().remove_regular("f.txt".as_ref()).unwrap();
        assert!(!path.exists());
    }

    #[test]
    #[cfg(unix)]
    fn atomic_writes_give_new_files_the_umask_and_keep_a_replaced_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let held = lock_dir(dir.path()).unwrap();
        let write = |bytes: &'static [u8]| write_f(&held, bytes);
        write(b"one").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // 0666 less the umask (the test runner's, read back from a file it makes).
        let probe = dir.path().join("probe");
        std::fs::File::create(&probe).unwrap();
        assert_eq!(mode(&path), mode(&probe));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o604)).unwrap();
        write(b"two").unwrap();
        assert_eq!(mode(&path), 0o604);
    }

    /// A folder swapped for a link after it was opened receives the write; the link's
    /// target never does, nor is anything written or removed through a link.
    #[test]
    #[cfg(unix)]
    fn writes_go_to_the_held_folder_whatever_is_swapped_in_after() {
        let tmp = tempfile::tempdir().unwrap();
        let (site, outside) = (tmp.path().join("site"), tmp.path().join("outside"));
        std::fs::create_dir_all(site.join("docs")).unwrap();
        std::fs::create_dir(&outside).unwrap();
        let held = lock_dir(&site).unwrap();
        let docs = std::sync::Arc::new(held.dir().open_dir_below(Path::new("docs")).unwrap());
        std::fs::rename(site.join("docs"), tmp.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&outside, site.join("docs")).unwrap();
        docs.write_atomic("a.md".as_ref(), ".a.", |out| out.write_all(b"x"))
            .unwrap();
        assert!(tmp.path().join("moved/a.md").is_file());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        // Opened now, the link is refused, not followed.
        assert!(held.dir().open_dir_below(Path::new("docs")).is_err());
        std::fs::write(outside.join("b.md"), "mine").unwrap();
        std::os::unix::fs::symlink(outside.join("b.md"), site.join("b.md")).unwrap();
        let refused = held.dir().write_atomic("b.md".as_ref(), ".b.", |_| Ok(()));
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .starts_with("is a symbolic link; ")
        );
        assert!(held.dir().remove_regular("b.md".as_ref()).is_err());
        assert!(held.dir().read_regular("b.md".as_ref(), 10).is_err());
        assert_eq!(std::fs::read(outside.join("b.md")).unwrap(), b"mine");
    }

    #[test]
    fn a_directory_lock_waits_for_its_holder_and_wants_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock_dir(dir.path()).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let path = dir.path().to_path_buf();
        let waiter = std::thread::spawn(move || {
            let second = lock_dir(&path).unwrap();
            tx.send(()).unwrap();
            drop(second);
        });
        // The second taker waits while the first holds the lock...
        let wait = std::time::Duration::from_millis(200);
        assert!(rx.recv_timeout(wait).is_err());
        // ...and goes on once it is released.
        drop(held);
        rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
        assert!(lock_dir(&dir.path().join("missing")).is_err());
    }

    /// A file, or a directory above it, swapped for a link out of the tree after the
    /// check is refused when it is opened, not followed.
    #[test]
    #[cfg(unix)]
    fn what_is_swapped_after_the_check_is_not_followed() {
        use std::os::unix::fs::symlink;
        let temp = tempfile::tempdir().unwrap();
        let site = temp.path().join("site");
        std::fs::create_dir_all(site.join("d")).unwrap();
        std::fs::create_dir_all(temp.path().join("out")).unwrap();
        std::fs::write(temp.path().join("out/a.html"), "outside").unwrap();
        // A link inside the tree is followed to its real path.
        symlink(site.join("d"), site.join("linked")).unwrap();
        std::fs::write(site.join("d/b.html"), "b").unwrap();
        let root = Root::at(&site).unwrap();
        let file = root.open(Path::new("linked/b.html")).unwrap().unwrap();
        assert_eq!(read_capped(file, 100).unwrap(), b"b");
        for rel in ["a.html", "d/a.html"] {
            std::fs::write(site.join(rel), "inside").unwrap();
            let real = root.place(Path::new(rel)).unwrap();
            let read = |file: File| read_capped(file, 100).unwrap();
            assert_eq!(read(root.dir().open_file_below(&real).unwrap()), b"inside");
            // The swap, between the check and the open.
            let (swapped, to) = match rel {
                "a.html" => (site.join(rel), temp.path().join("out/a.html")),
                _ => (site.join("d"), temp.path().join("out")),
            };
            std::fs::rename(&swapped, temp.path().join("moved")).unwrap();
            symlink(&to, &swapped).unwrap();
            let err = root.dir().open_file_below(&real).unwrap_err();
            assert!(
                dir::is_refused_link(&err) || err.kind() == io::ErrorKind::NotADirectory,
                "{rel}: {err}"
            );
            // Checked again, it leads out: refused, naming where.
            let err = root.open(Path::new(rel)).unwrap_err();
            assert!(err.to_string().contains("outside"), "{rel}: {err}");
            std::fs::remove_file(&swapped).unwrap();
            std::fs::rename(temp.path().join("moved"), &swapped).unwrap();
        }
    }
}
