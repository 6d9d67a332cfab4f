//! A relative path as the `/`-separated bytes a URL path or git's paths are made of, on
//! every platform: its names only (`.`, `..` and any root left out), joined with `/`
//! whatever the platform's separator, and back. A leaf, so the URL mapping, the
//! canonicals, git's paths and the lastmod sources share one way of doing it.

use std::borrow::Cow;
use std::path::{Component, Path};

/// A relative path's names as bytes (`.`, `..` and any root left out).
pub fn segments(rel: &Path) -> impl Iterator<Item = &[u8]> {
    rel.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name.as_encoded_bytes()),
        _ => None,
    })
}

/// A relative path's names joined with `/`: `blog/post/index.html` on every platform.
pub fn joined(rel: &Path) -> Vec<u8> {
    let mut out = Vec::with_capacity(rel.as_os_str().len());
    join_into(&mut out, rel);
    out
}

/// [`joined`], appended to `out`: for many paths, into one buffer.
pub fn join_into(out: &mut Vec<u8>, rel: &Path) {
    for (i, segment) in segments(rel).enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(segment);
    }
}

/// The path `/`-separated bytes name (a URL's decoded path, a path git writes): on Unix
/// the bytes themselves, borrowed.
#[cfg(unix)]
pub fn path(bytes: &[u8]) -> Cow<'_, Path> {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(bytes)).into()
}

/// Off Unix, names that are not UTF-8 cannot be spelt: they are read as UTF-8, lossily.
#[cfg(not(unix))]
pub fn path(bytes: &[u8]) -> Cow<'_, Path> {
    std::path::PathBuf::from(String::from_utf8_lossy(bytes).into_owned()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_with_slashes() {
        let mut table = vec![
            ("", ""),
            ("index.html", "index.html"),
            ("blog/post/index.html", "blog/post/index.html"),
            ("./a/../b/", "a/b"),
            ("a//b", "a/b"),
        ];
        if cfg!(windows) {
            table.push(("blog\\post\\index.html", "blog/post/index.html"));
        }
        for (rel, want) in table {
            let got = joined(Path::new(rel));
            assert_eq!(String::from_utf8_lossy(&got), want, "{rel}");
        }
    }
}
