//! The one walk: each thread reads a directory while holding it open and hands each page
//! it finds there to its [`PageSink`] at once, to be opened by name in that directory.
//! Opened from the public directory instead, every page would cost the kernel a lookup
//! of each directory on its path again, after the walk had let them go.
//!
//! Directories are shared out from one stack (the last found first, so the walk stays
//! deep and the stack small). A subdirectory is opened relative to its held parent and
//! never through a link, unless links are followed; a followed link must resolve inside
//! the public directory, and a directory that is one of its own ancestors (by device and
//! inode) is a loop, reported and not entered. A parent stays open while a child of its
//! waits on the stack, so at most the walk's depth of directories is open per thread.

use std::mem::MaybeUninit;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use super::dir::{Dir, DirId, EntryKind, Name, OwnedName, name_bytes, name_os};
use super::{Scan, ScanOptions, ScanWarning, SkipReason, file_verdict};
use crate::fsutil::Place;

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
    /// Whether the walk followed a link to it (`follow_symlinks`): opened following it.
    pub followed: bool,
}

impl At<'_> {
    /// Opens the page for reading, without waiting on a FIFO; a link is followed only
    /// where the walk followed it.
    pub fn open(&self) -> std::io::Result<std::fs::File> {
        self.dir.open_file(self.name, self.followed)
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
    /// By name in its parent, held open until its last waiting child is opened.
    Below {
        parent: Arc<Dir>,
        name: OwnedName,
        followed: bool,
    },
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
    /// The public directory's real path, when links are followed.
    root_real: Option<PathBuf>,
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
        Err(e) => {
            let mut scan = Scan::default();
            scan.warnings.push(ScanWarning {
                path: root.to_path_buf(),
                message: format!("cannot read: {e}"),
            });
            return scan;
        }
    };
    let root_real = options
        .follow_symlinks
        .then(|| std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()));
    let walk = Walk {
        root,
        root_real,
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
        };
        while let Some(dir) = walk.next_dir() {
            walk.read_dir(dir, &mut sink, &mut reading);
            walk.done_dir();
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

/// One thread's own: what it found, and the buffer it reads directories into.
struct Reading {
    local: Scan,
    buf: Vec<MaybeUninit<u8>>,
}

/// A directory being read: where it is, where its pages go, and its subdirectories,
/// queued once it is read.
struct DirRead<'r, S> {
    dir: &'r Dir,
    rel: &'r Path,
    sink: &'r mut S,
    local: &'r mut Scan,
    subdirs: Vec<(OwnedName, PathBuf, bool)>,
}

impl Walk<'_> {
    /// The next directory to read, waiting while others may still find some; `None` when
    /// all are read.
    fn next_dir(&self) -> Option<Pending> {
        let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner());
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

    fn done_dir(&self) {
        let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner());
        work.busy -= 1;
        if work.busy == 0 {
            self.more.notify_all();
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
            Opening::Below {
                parent,
                name,
                followed,
            } => parent.open_dir(&name, followed),
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
            .extend(subdirs.into_iter().map(|(name, rel, followed)| Pending {
                open: Opening::Below {
                    parent: Arc::clone(&parent),
                    name,
                    followed,
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
                    self.root.join(&a.rel).display()
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
        let child = read.rel.join(name_os(name));
        if bytes.starts_with(b".") {
            return local.skip(child, SkipReason::Hidden, self.options.keep_skipped);
        }
        let (kind, followed) = match kind {
            EntryKind::Symlink => match self.follow(dir, name, &child, local) {
                Some(kind) => (kind, true),
                None => return,
            },
            kind => (kind, false),
        };
        match kind {
            EntryKind::Dir => read.subdirs.push((name.to_owned(), child, followed)),
            // Sockets, fifos, devices: never pages, not worth a line in --verbose.
            EntryKind::Other | EntryKind::Symlink => {}
            EntryKind::File => {
                let at = At {
                    dir,
                    name,
                    followed,
                };
                match file_verdict(self.root, &child, bytes, self.options, || at.open()) {
                    Err(reason) => local.skip(child, reason, self.options.keep_skipped),
                    Ok(()) => read.sink.page(&child, at),
                }
            }
        }
    }

    /// What the link `name` leads to, when links are followed and it stays inside the
    /// public directory; `None` (counted or reported) otherwise.
    fn follow(&self, dir: &Dir, name: &Name, child: &Path, local: &mut Scan) -> Option<EntryKind> {
        let keep = self.options.keep_skipped;
        let Some(root_real) = &self.root_real else {
            local.skip(child.to_path_buf(), SkipReason::Symlink, keep);
            return None;
        };
        let resolved = crate::fsutil::place_in(root_real, &self.root.join(child))
            .and_then(|place| Ok((place, dir.kind_followed(name)?)));
        match resolved {
            Ok((Place::Inside(_), kind)) => Some(kind),
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
