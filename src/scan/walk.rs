//! The one walk: each thread reads a directory while holding it open and hands each page
//! it finds there to its [`PageSink`] at once, to be opened by name in that directory.
//! Opened from the public directory instead, every page would cost the kernel a lookup
//! of each directory on its path again, after the walk had let them go.
//!
//! Directories are shared out from one stack (the last found first, so the walk stays
//! deep and the stack small). A subdirectory is opened relative to its held parent and
//! never through a link. A followed link must resolve inside the public directory, and
//! what it leads to is then opened from the public directory by the real path checked,
//! through no link (a link pointed elsewhere since is refused); a directory that is one
//! of its own ancestors (by device and inode) is a loop, reported and not entered. A parent stays open while a child of its
//! waits on the stack, so at most the walk's depth of directories is open per thread.

use std::mem::MaybeUninit;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use super::{Scan, ScanOptions, ScanWarning, SkipReason, file_verdict};
use crate::fsutil::Place;
use crate::fsutil::dir::{Dir, DirId, EntryKind, Name, name_bytes, name_os};

/// Where the walk hands the pages it finds, one sink per thread.
pub trait PageSink {
    /// The page at `rel` (relative to the public directory), in the directory `at` holds
    /// open for the call.
    fn page(&mut self, rel: &Path, at: At);
}

/// A page's place: its directory, held open, and its name there.
#[derive(Clone, Copy)]
pub struct At<'a> {
    /// The directory.
    pub dir: &'a Dir,
    /// The page's name in it.
    pub name: &'a Name,
    /// Where the link the walk followed to it leads (`follow_symlinks`).
    pub followed: Option<Followed<'a>>,
}

/// What a followed link leads to: opened by the real path it was checked to have.
#[derive(Clone, Copy)]
pub struct Followed<'a> {
    /// The public directory, held open.
    pub site: &'a Dir,
    /// The link's target, relative to the public directory's real path.
    pub target: &'a Path,
}

impl At<'_> {
    /// Opens the page for reading, without waiting on a FIFO and through no link: by
    /// name, or by the real path of the link the walk followed to it.
    pub fn open(&self) -> std::io::Result<std::fs::File> {
        match self.followed {
            None => self.dir.open_file(self.name),
            Some(f) => f.site.open_file_below(f.target),
        }
    }
}

/// A directory on the stack: how to open it, and where it is.
struct Pending {
    open: Opening,
    rel: PathBuf,
    /// The directories above it, with `follow_symlinks` (to tell a loop).
    ancestors: Option<Arc<Ancestor>>,
}

/// How a directory on the stack is opened.
enum Opening {
    /// Already open (the public directory).
    Open(Dir),
    /// By name (the last component of its path) in its parent, held open until its
    /// last waiting child is opened.
    Below { parent: Arc<Dir> },
    /// Through a followed link: by its target, relative to the public directory.
    Followed(PathBuf),
}

/// A directory on the way down, for loop detection.
struct Ancestor {
    id: DirId,
    rel: PathBuf,
    up: Option<Arc<Ancestor>>,
}

/// Directories still to read, and how many threads are reading one (and may find more).
#[derive(Default)]
struct Work {
    dirs: Vec<Pending>,
    busy: usize,
}

struct Walk<'a> {
    root: &'a Path,
    /// When links are followed: the public directory, held open, and its real path.
    following: Option<(Dir, PathBuf)>,
    options: &'a ScanOptions,
    work: Mutex<Work>,
    more: Condvar,
    /// What the threads found, merged as each ends.
    found: Mutex<Scan>,
}

/// Walks `root` on `options.threads` threads, each with the sink `sink()` made for it.
/// Returns what was passed over and the problems met; the pages went to the sinks.
pub fn walk<S: PageSink>(root: &Path, options: &ScanOptions, sink: impl Fn() -> S + Sync) -> Scan {
    let site = match Dir::open_root(root) {
        Ok(site) => site,
        Err(e) => return unreadable(root, e),
    };
    let following = match options.follow_symlinks {
        true => match site.open_dir_below(Path::new("")) {
            Ok(held) => {
                let real = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
                Some((held, real))
            }
            Err(e) => return unreadable(root, e),
        },
        false => None,
    };
    let walk = Walk {
        root,
        following,
        options,
        work: Mutex::new(Work {
            dirs: vec![Pending {
                open: Opening::Open(site),
                rel: PathBuf::new(),
                ancestors: None,
            }],
            busy: 0,
        }),
        more: Condvar::new(),
        found: Mutex::new(Scan::default()),
    };
    let run = || {
        let mut sink = sink();
        let mut reading = Reading {
            local: Scan::default(),
            buf: Vec::new(),
            child: PathBuf::new(),
        };
        let mut finished = false;
        while let Some(dir) = walk.next_dir(finished) {
            walk.read_dir(dir, &mut sink, &mut reading);
            finished = true;
        }
        let mut found = walk.found.lock().unwrap_or_else(|e| e.into_inner());
        found.absorb(reading.local);
    };
    std::thread::scope(|scope| {
        for _ in 1..options.threads.max(1) {
            scope.spawn(run);
        }
        run();
    });
    walk.found.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The walk of a public directory that cannot be opened: that, as its one warning.
fn unreadable(root: &Path, e: std::io::Error) -> Scan {
    let mut scan = Scan::default();
    scan.warnings.push(ScanWarning {
        path: root.to_path_buf(),
        message: format!("cannot read: {e}"),
    });
    scan
}

/// One thread's own: what it found, the buffer it reads directories into, and the one
/// it makes each entry's path in (a path built fresh for every entry was two allocations
/// a page).
struct Reading {
    local: Scan,
    buf: Vec<MaybeUninit<u8>>,
    child: PathBuf,
}

/// A directory being read: where it is, where its pages go, and its subdirectories,
/// queued once it is read.
struct DirRead<'r, S> {
    dir: &'r Dir,
    rel: &'r Path,
    sink: &'r mut S,
    local: &'r mut Scan,
    /// The entry's path, made in [`Reading::child`].
    child: &'r mut PathBuf,
    /// Each one's name, path, and target when a followed link led to it.
    subdirs: Vec<(PathBuf, Option<PathBuf>)>,
}

impl Walk<'_> {
    /// The next directory to read, waiting while others may still find some; `None` when
    /// all are read. `finished`: this thread has read the one it took before (told under
    /// the same lock: a lock for each, on every directory, was a run's busiest lock).
    fn next_dir(&self, finished: bool) -> Option<Pending> {
        let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner());
        if finished {
            work.busy -= 1;
        }
        loop {
            if let Some(dir) = work.dirs.pop() {
                work.busy += 1;
                return Some(dir);
            }
            if work.busy == 0 {
                self.more.notify_all();
                return None;
            }
            work = self.more.wait(work).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn warn(&self, local: &mut Scan, rel: &Path, message: String) {
        local.warnings.push(ScanWarning {
            path: self.root.join(rel),
            message,
        });
    }

    /// Opens and reads the directory `pending`: its pages go to `sink` now, its
    /// subdirectories onto the stack for any thread.
    fn read_dir<S: PageSink>(&self, pending: Pending, sink: &mut S, reading: &mut Reading) {
        let Pending {
            open,
            rel,
            ancestors,
        } = pending;
        let opened = match open {
            Opening::Open(dir) => Ok(dir),
            Opening::Below { parent } => match rel.file_name() {
                Some(name) => parent.open_dir_named(name),
                None => Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "no name",
                )),
            },
            Opening::Followed(target) => match &self.following {
                Some((site, _)) => site.open_dir_below(&target),
                None => unreachable!("links are followed only with follow_symlinks"),
            },
        };
        let dir = match opened {
            Ok(dir) => dir,
            Err(e) => return self.warn(&mut reading.local, &rel, format!("cannot read: {e}")),
        };
        let Ok(ancestors) = self.ancestry(&dir, &rel, ancestors, &mut reading.local) else {
            return;
        };
        let mut read = DirRead {
            dir: &dir,
            rel: &rel,
            sink,
            local: &mut reading.local,
            child: &mut reading.child,
            subdirs: Vec::new(),
        };
        if let Err(e) = dir.read(&mut reading.buf, |name, kind| {
            self.entry(&mut read, name, kind)
        }) {
            self.warn(read.local, &rel, format!("cannot read: {e}"));
        }
        if read.subdirs.is_empty() {
            return;
        }
        let subdirs = std::mem::take(&mut read.subdirs);
        let parent = Arc::new(dir);
        let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner());
        work.dirs
            .extend(subdirs.into_iter().map(|(rel, target)| Pending {
                open: match target {
                    None => Opening::Below {
                        parent: Arc::clone(&parent),
                    },
                    Some(target) => Opening::Followed(target),
                },
                rel,
                ancestors: ancestors.clone(),
            }));
        self.more.notify_all();
    }

    /// With `follow_symlinks`, this directory as the newest ancestor of what is below
    /// it; `Err` when it is one of its own ancestors (a link loop), reported.
    fn ancestry(
        &self,
        dir: &Dir,
        rel: &Path,
        up: Option<Arc<Ancestor>>,
        local: &mut Scan,
    ) -> Result<Option<Arc<Ancestor>>, ()> {
        if !self.options.follow_symlinks {
            return Ok(None);
        }
        let id = match dir.id() {
            Ok(id) => id,
            Err(e) => {
                self.warn(local, rel, format!("cannot read: {e}"));
                return Err(());
            }
        };
        let mut above = up.as_deref();
        while let Some(a) = above {
            if a.id == id {
                let message = format!(
                    "symbolic link loop (points back to {}); not followed",
                    crate::text::path(&self.root.join(&a.rel))
                );
                self.warn(local, rel, message);
                return Err(());
            }
            above = a.up.as_deref();
        }
        Ok(Some(Arc::new(Ancestor {
            id,
            rel: rel.to_path_buf(),
            up,
        })))
    }

    /// One entry of the directory being read: skipped, queued or handed on.
    fn entry<S: PageSink>(&self, read: &mut DirRead<S>, name: &Name, kind: EntryKind) {
        let (dir, local) = (read.dir, &mut *read.local);
        let bytes = name_bytes(name);
        let child = &mut *read.child;
        child.as_mut_os_string().clear();
        child.push(read.rel);
        child.push(name_os(name));
        let child = &*child;
        if bytes.starts_with(b".") {
            let child = child.to_path_buf();
            return local.skip(child, SkipReason::Hidden, self.options.keep_skipped);
        }
        let (kind, target) = match kind {
            EntryKind::Symlink => match self.follow(dir, name, child, local) {
                Some((kind, target)) => (kind, Some(target)),
                None => return,
            },
            kind => (kind, None),
        };
        match kind {
            EntryKind::Dir => read.subdirs.push((child.to_path_buf(), target)),
            // Sockets, fifos, devices: never pages, not worth a line in --verbose.
            EntryKind::Other | EntryKind::Symlink => {}
            EntryKind::File => {
                let followed = match (&self.following, &target) {
                    (Some((site, _)), Some(target)) => Some(Followed { site, target }),
                    _ => None,
                };
                let at = At {
                    dir,
                    name,
                    followed,
                };
                match file_verdict(self.root, child, bytes, self.options, || at.open()) {
                    Err(reason) => {
                        let child = child.to_path_buf();
                        if (self.options.keep)(bytes) {
                            local.kept.push(child.clone());
                        }
                        local.skip(child, reason, self.options.keep_skipped);
                    }
                    Ok(()) => read.sink.page(child, at),
                }
            }
        }
    }

    /// What the link `name` leads to, when links are followed and it stays inside the
    /// public directory: its kind, and its real path relative to the public directory's,
    /// by which it is opened; `None` (counted or reported) otherwise.
    fn follow(
        &self,
        dir: &Dir,
        name: &Name,
        child: &Path,
        local: &mut Scan,
    ) -> Option<(EntryKind, PathBuf)> {
        let keep = self.options.keep_skipped;
        let Some((_, root_real)) = &self.following else {
            local.skip(child.to_path_buf(), SkipReason::Symlink, keep);
            return None;
        };
        let resolved = crate::fsutil::place_in(root_real, &self.root.join(child))
            .and_then(|place| Ok((place, dir.kind_followed(name)?)));
        match resolved {
            Ok((Place::Inside(real), kind)) => {
                let target = real.strip_prefix(root_real).unwrap_or(&real);
                Some((kind, target.to_path_buf()))
            }
            Ok((Place::Outside(_), _)) => {
                local.skip(child.to_path_buf(), SkipReason::SymlinkOutside, keep);
                None
            }
            Err(e) => {
                let message = format!("cannot resolve symbolic link: {e}");
                self.warn(local, child, message);
                None
            }
        }
    }
}
