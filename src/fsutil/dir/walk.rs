//! The one walk of a tree outside the page walk (which reads pages as it lists, on every
//! core): `merge`'s search for stale views, `init`'s look at a project and its built
//! site, Astro's dynamic routes. Folders are opened from the held root along their path
//! through no link, so a link is reported, never followed, and a swapped folder is not
//! entered; a folder that cannot be opened is passed over.

use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};

use super::{Dir, EntryKind};

/// How far a walk goes: below the root at most `depth` folders deep (1: the root's own
/// entries), and at most `entries` entries met in all.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The deepest entries met: 1 is the root's own.
    pub depth: usize,
    /// The most entries met; the walk stops there.
    pub entries: usize,
}

impl Bounds {
    /// No bound but the tree's own size (a walk of a site the user built).
    pub const WHOLE: Bounds = Bounds {
        depth: usize::MAX,
        entries: usize::MAX,
    };
}

impl Dir {
    /// Calls `visit` with the path (relative to this directory) and kind of each entry
    /// below it, breadth first, within `bounds`; a folder is entered when `visit` says
    /// so. Links are reported as links and never followed.
    pub fn walk(
        &self,
        bounds: Bounds,
        mut visit: impl FnMut(&Path, EntryKind) -> bool,
    ) -> io::Result<()> {
        let mut todo = VecDeque::from([(PathBuf::new(), 1)]);
        let mut met = 0;
        let mut buf = Vec::new();
        while let Some((folder, depth)) = todo.pop_front() {
            let Ok(dir) = self.open_dir_below(&folder) else {
                continue;
            };
            let mut names = Vec::new();
            dir.read(&mut buf, |name, kind| {
                names.push((super::name_os(name).to_owned(), kind));
            })?;
            for (name, kind) in names {
                met += 1;
                if met > bounds.entries {
                    return Ok(());
                }
                let rel = folder.join(name);
                if visit(&rel, kind) && kind == EntryKind::Dir && depth < bounds.depth {
                    todo.push_back((rel, depth + 1));
                }
            }
        }
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Every entry once, breadth first within the bounds; a link reported, not entered;
    /// a folder entered only when the visitor says so.
    #[test]
    fn walks_within_bounds_and_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("a/b/c")).unwrap();
        std::fs::create_dir_all(root.join("skip/x")).unwrap();
        std::fs::write(root.join("a/b/c/deep.md"), "").unwrap();
        std::os::unix::fs::symlink(root.join("a"), root.join("link")).unwrap();
        let dir = Dir::open_root(root).unwrap();
        let walk = |bounds| {
            let mut met = Vec::new();
            dir.walk(bounds, |rel, kind| {
                met.push((rel.to_string_lossy().into_owned(), kind));
                !rel.starts_with("skip")
            })
            .unwrap();
            met.sort_by(|a, b| a.0.cmp(&b.0));
            met
        };
        let all = walk(Bounds::WHOLE);
        let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["a", "a/b", "a/b/c", "a/b/c/deep.md", "link", "skip"]
        );
        assert!(all.contains(&("link".to_string(), EntryKind::Symlink)));
        let shallow = Bounds {
            depth: 2,
            entries: usize::MAX,
        };
        assert_eq!(walk(shallow).len(), 4);
        let few = Bounds {
            depth: usize::MAX,
            entries: 2,
        };
        assert_eq!(walk(few).len(), 2);
    }
}
