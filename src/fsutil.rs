//! File-system helpers every stage shares, so their copies cannot drift.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

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
        format!("is {}, not a regular file", kind_name(&kind)),
    ))
}

/// Reads at most `limit` bytes of the regular file at `path` ([`open_regular`]); a longer
/// file is an `InvalidData` error, so no input can make us hold more than we chose.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("is larger than {}", crate::text::bytes(limit)),
        ));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_string(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "is not UTF-8 text"))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
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

/// How [`write_atomic`] names and places its file.
#[derive(Debug, Clone, Copy)]
pub struct Atomic<'a> {
    /// The temporary file's name prefix, beside the target (e.g. `.robots.txt.`).
    pub prefix: &'a str,
    /// The mode of a file that did not exist before; `None` keeps the temporary file's
    /// (0600). A replaced file keeps its own mode.
    pub new_mode: Option<u32>,
    /// Replace an existing file (`false`: fail with `AlreadyExists` instead).
    pub clobber: bool,
}

/// Writes `bytes` to `path` all or nothing: into a temporary file in the same directory,
/// synced, then renamed over `path`, so a reader sees the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8], how: Atomic) -> io::Result<()> {
    let mut temp = tempfile::Builder::new()
        .prefix(how.prefix)
        .suffix(".tmp")
        .tempfile_in(parent_dir(path))?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    match std::fs::metadata(path) {
        Ok(meta) => std::fs::set_permissions(temp.path(), meta.permissions())?,
        Err(_) => set_new_mode(temp.path(), how.new_mode)?,
    }
    let persisted = if how.clobber {
        temp.persist(path).map(drop)
    } else {
        temp.persist_noclobber(path).map(drop)
    };
    persisted.map_err(|e| e.error)
}

#[cfg(unix)]
fn set_new_mode(path: &Path, mode: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match mode {
        Some(mode) => std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)),
        None => Ok(()),
    }
}

#[cfg(not(unix))]
fn set_new_mode(_path: &Path, _mode: Option<u32>) -> io::Result<()> {
    // No mode bits to give: a new file keeps the system's default.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn only_regular_files_are_opened_and_reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        // Returns at once (a blocking open would wait for a writer forever).
        let err = open_regular(&fifo).unwrap_err();
        assert_eq!(err.to_string(), "is a FIFO, not a regular file");
        let err = open_regular(dir.path()).unwrap_err();
        assert_eq!(err.to_string(), "is a directory, not a regular file");
        let err = open_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(err.to_string(), "is a device, not a regular file");
        let file = dir.path().join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        let err = read_regular(&file, 4).unwrap_err();
        assert_eq!(err.to_string(), "is larger than 4 bytes");
        assert_eq!(crate::text::bytes(50 << 20), "50 MiB");
        assert_eq!(crate::text::bytes(16 << 10), "16 KiB");
    }

    #[test]
    fn parent_dir_of_a_bare_name_is_dot() {
        assert_eq!(parent_dir(Path::new("sitemap.xml")), Path::new("."));
        assert_eq!(parent_dir(Path::new("a/b.xml")), Path::new("a"));
        assert_eq!(parent_dir(Path::new("/b.xml")), Path::new("/"));
    }

    #[test]
    fn atomic_writes_replace_keep_modes_and_refuse_to_clobber_when_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let how = |clobber| Atomic {
            prefix: ".f.txt.",
            new_mode: Some(0o640),
            clobber,
        };
        write_atomic(&path, b"one", how(false)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o640);
        let err = write_atomic(&path, b"two", how(false)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o604)).unwrap();
        write_atomic(&path, b"two", how(true)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(mode(&path), 0o604);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
