//! An index's children on disk: found by their URLs' paths, each read once, and never
//! outside the index's directory, whatever the index says.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

use super::{Checker, Root, Severity, shorten};
use crate::fsutil::Place;

/// How many candidate directories [`children_on_disk`] looks children up in.
const CHILD_DIR_CANDIDATES: usize = 16;

/// Where an index's child is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Located {
    /// Here: `path` as messages show it, `real` with symlinks resolved.
    Found { path: PathBuf, real: PathBuf },
    /// Its path leaves the index's directory (a `..` or an absolute path once
    /// percent-decoded, a symlink out of it), so it is never opened.
    Outside,
    /// Not on disk where the index's other children are.
    Missing,
}

impl Checker<'_> {
    /// Checks each child an index names, found on disk by its URL (see
    /// [`children_on_disk`]); a file listed again is read once and reported.
    pub(super) fn follow_children(&mut self, index: &Path, children: Vec<(String, u64)>) {
        let dir = index.parent().unwrap_or(Path::new(""));
        let shown_dir = crate::text::path(dir);
        let located = children_on_disk(dir, &children);
        // The first entry naming each file.
        let mut first: HashMap<PathBuf, usize> = HashMap::new();
        for (i, ((loc, line), place)) in children.iter().zip(located).enumerate() {
            let message = match place {
                Located::Found { path, real } => match first.entry(real) {
                    Entry::Vacant(slot) => {
                        let read = self.read_child(&path, slot.key());
                        slot.insert(i);
                        match read {
                            None => format!(
                                "child sitemap {} is this index itself; an index lists sitemaps, and indexes may not nest",
                                shorten(loc)
                            ),
                            Some(Root::Index) => format!(
                                "child sitemap {} is a sitemap index ({}); indexes may not nest: list its children instead",
                                shorten(loc),
                                crate::text::path(&path)
                            ),
                            Some(_) => continue,
                        }
                    }
                    // The same URL again was reported as listed again already.
                    Entry::Occupied(at) if children[*at.get()].0 == *loc => continue,
                    Entry::Occupied(at) => {
                        let message = format!(
                            "child sitemap {} is the file listed at line {} under another URL; list each child once",
                            shorten(loc),
                            children[*at.get()].1
                        );
                        self.problem(index, *line, Severity::Warning, message);
                        continue;
                    }
                },
                Located::Outside => format!(
                    "child sitemap {} is outside {shown_dir}, the index's directory, so it is not read; an index's children are published beside it or below",
                    shorten(loc)
                ),
                Located::Missing => format!(
                    "child sitemap {} is missing: not found under {shown_dir} where the index's other children are",
                    shorten(loc)
                ),
            };
            self.problem(index, *line, Severity::Error, message);
        }
    }

    /// What the child at `path` (really `real`) is, read now unless it was read before;
    /// `None` for the index being followed itself, the one file still being read while
    /// its children are (an index listed as a child is not followed further).
    fn read_child(&mut self, path: &Path, real: &Path) -> Option<Root> {
        match self.read.get(real) {
            Some(root) => *root,
            None => Some(self.check_file(path, true)),
        }
    }
}

/// Where an index's children are on disk. The index's own URL is unknown, so the
/// directory it is published in is taken to be the URL directory under which the most
/// children are found beside it (the longest such, on a tie); each child is then looked
/// for there only, so `https://example.org/old/sitemap-1.xml` is not read as a
/// `sitemap-1.xml` that lies beside the index. A child whose path, percent-decoded,
/// climbs out of `dir`, or whose real path (symlinks resolved) is not under `dir`'s, is
/// [`Located::Outside`].
pub(super) fn children_on_disk(dir: &Path, children: &[(String, u64)]) -> Vec<Located> {
    let paths: Vec<Option<Vec<String>>> = children.iter().map(|(loc, _)| url_path(loc)).collect();
    // Candidate URL directories: the directory prefixes most children share. Only the
    // first few are looked up on disk, so a hostile index of children in as many
    // directories costs a bounded number of lookups per child.
    let mut shared: HashMap<&[String], usize> = HashMap::new();
    for p in paths.iter().flatten() {
        for i in 0..p.len() {
            *shared.entry(&p[..i]).or_default() += 1;
        }
    }
    let mut prefixes: Vec<(&[String], usize)> = shared.into_iter().collect();
    prefixes.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.len().cmp(&a.0.len()))
            .then(a.0.cmp(b.0))
    });
    let on_disk = |prefix: &[String], path: &[String]| {
        let rest = path.strip_prefix(prefix)?;
        match relative(rest) {
            Relative::Path(rel) => Some(dir.join(rel)).filter(|file| file.exists()),
            Relative::Outside | Relative::None => None,
        }
    };
    let best = prefixes
        .into_iter()
        .take(CHILD_DIR_CANDIDATES)
        .map(|(p, _)| p)
        .max_by_key(|prefix| {
            let found = paths
                .iter()
                .flatten()
                .filter(|p| on_disk(prefix, p).is_some())
                .count();
            (found, prefix.len())
        })
        .unwrap_or_default();
    let real_dir = std::fs::canonicalize(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    });
    paths
        .iter()
        .map(|p| match (p.as_deref(), &real_dir) {
            (Some(p), Ok(real_dir)) => locate(dir, real_dir, p.strip_prefix(best)),
            _ => Located::Missing,
        })
        .collect()
}

/// The percent-decoded path segments of an absolute URL.
fn url_path(loc: &str) -> Option<Vec<String>> {
    let url = url::Url::parse(loc).ok()?;
    let segments = url.path_segments()?;
    Some(
        segments
            .map(|s| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8_lossy()
                    .into_owned()
            })
            .collect(),
    )
}

/// Where `rest`, a child's URL path below the chosen URL directory (`None`: not below
/// it), is under `dir`, whose real path is `real_dir`.
fn locate(dir: &Path, real_dir: &Path, rest: Option<&[String]>) -> Located {
    let Some(rest) = rest else {
        return Located::Missing;
    };
    let rel = match relative(rest) {
        Relative::Path(rel) => rel,
        Relative::Outside => return Located::Outside,
        Relative::None => return Located::Missing,
    };
    let path = dir.join(rel);
    // Resolving the real path reads directories and links, never the file.
    match crate::fsutil::place_in(real_dir, &path) {
        Ok(Place::Inside(real)) => Located::Found { path, real },
        Ok(Place::Outside(_)) => Located::Outside,
        Err(_) => Located::Missing,
    }
}

/// What a child's decoded URL path segments name below the index's directory.
#[derive(Debug, PartialEq, Eq)]
enum Relative {
    /// This relative file path.
    Path(PathBuf),
    /// A place outside it: a `..`, or an absolute path (a segment that decodes to
    /// `/etc/passwd`).
    Outside,
    /// No file: no segments, or an empty one.
    None,
}

/// The relative file path `segments` name. A decoded segment may hold `/` (from `%2F`),
/// which the file system reads as a separator, so each piece between is looked at.
fn relative(segments: &[String]) -> Relative {
    let mut rel = PathBuf::new();
    for segment in segments {
        if segment.starts_with('/') {
            return Relative::Outside;
        }
        for piece in segment.split('/') {
            match piece {
                ".." => return Relative::Outside,
                "" | "." => return Relative::None,
                _ => rel.push(piece),
            }
        }
    }
    if rel.as_os_str().is_empty() {
        return Relative::None;
    }
    Relative::Path(rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_paths_never_climb_out() {
        let table = [
            ("https://e.org/a.xml", Relative::Path("a.xml".into())),
            (
                "https://e.org/m/b%20c.xml",
                Relative::Path("m/b c.xml".into()),
            ),
            ("https://e.org/m%2Fa.xml", Relative::Path("m/a.xml".into())),
            // The URL parser already folds literal and encoded `..` segments away.
            ("https://e.org/x/../a.xml", Relative::Path("a.xml".into())),
            ("https://e.org/%2e%2e/a.xml", Relative::Path("a.xml".into())),
            ("https://e.org/..%2Fsecret.xml", Relative::Outside),
            ("https://e.org/m/..%2F..%2Fsecret.xml", Relative::Outside),
            ("https://e.org/%2Fetc%2Fpasswd", Relative::Outside),
            ("https://e.org/m/%2Fetc%2Fpasswd", Relative::Outside),
            ("https://e.org/", Relative::None),
            ("https://e.org/m//a.xml", Relative::None),
            ("https://e.org/.%2Fa.xml", Relative::None),
        ];
        for (loc, want) in table {
            assert_eq!(relative(&url_path(loc).unwrap()), want, "{loc}");
        }
    }
}
