//! File-system helpers every stage shares, so their copies cannot drift.

use std::io::{self, Write};
use std::path::Path;

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
