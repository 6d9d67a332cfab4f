//! An I/O error that carries its path, and `.at(path)` to attach it, as `fs-err` does:
//! one type every module's error wraps, whose message always escapes the path.

use std::io;
use std::path::{Path, PathBuf};

/// An I/O error at a path: `{path}: {error}`, the path on one line ([`crate::text::path`]).
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", crate::text::path(path))]
pub struct IoError {
    /// The file or directory concerned.
    pub path: PathBuf,
    /// The OS's error.
    #[source]
    pub source: io::Error,
}

impl IoError {
    /// `source` at `path`.
    pub fn new(path: impl Into<PathBuf>, source: io::Error) -> IoError {
        IoError {
            path: path.into(),
            source,
        }
    }
}

/// Attaches a path to an I/O result's error.
pub trait At<T> {
    /// The error, if any, as an [`IoError`] at `path`.
    fn at(self, path: impl AsRef<Path>) -> Result<T, IoError>;
}

impl<T> At<T> for io::Result<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T, IoError> {
        self.map_err(|source| IoError::new(path.as_ref(), source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_shown_on_one_line() {
        let result: io::Result<()> = Err(io::Error::other("refused"));
        let err = result.at("out/a\nb.xml").unwrap_err();
        assert_eq!(err.to_string(), "out/a\\nb.xml: refused");
        assert_eq!(err.path, Path::new("out/a\nb.xml"));
    }
}
