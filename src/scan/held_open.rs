//! The walk of a default run (links not followed), shaped like the system-call floor:
//! each thread reads a directory with its descriptor held open, and hands each page it
//! finds there to its [`PageSink`] at once, to be opened by name relative to that
//! descriptor. Opened from the public directory instead, every page costs the kernel a
//! lookup of each directory on its path again, after the walk has let them go.
//!
//! Directories are shared out from one stack (the last found first, so the walk stays
//! deep and the stack small); the rules for what is a page are the scan's
//! ([`file_verdict`]). Following links needs loop detection, which `ignore`'s walker has:
//! that case takes [`super::scan`].

use std::ffi::{CStr, OsStr};
use std::os::fd::BorrowedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use super::{Scan, ScanOptions, ScanWarning, SkipReason, file_verdict};
use crate::fsutil::{DirHandle, DirReader, EntryKind, c_path};

/// Where the walk hands the pages it finds, one sink per thread.
pub trait PageSink {
    /// Page `i` of the scan's list, at `rel`: `name` in the directory `dir`, held open
    /// for the call.
    fn page(&mut self, i: usize, rel: &Path, dir: BorrowedFd, name: &CStr);
}

/// Directories still to read, and how many threads are reading one (and may find more).
#[derive(Default)]
struct Work {
    dirs: Vec<PathBuf>,
    busy: usize,
}

struct Walk<'a> {
    root: &'a Path,
    site: BorrowedFd<'a>,
    options: &'a ScanOptions,
    work: Mutex<Work>,
    more: Condvar,
    /// What the threads found: pages as they come (their place is their index), the rest
    /// merged when each thread ends.
    found: Mutex<Scan>,
}

/// Walks `root` on `options.threads` threads, each with the sink `sink()` made for it.
/// Returns what [`super::scan`] returns.
pub fn walk_held_open<S: PageSink>(
    root: &Path,
    options: &ScanOptions,
    sink: impl Fn() -> S + Sync,
) -> Scan {
    let site = match DirHandle::open(root) {
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
    let walk = Walk {
        root,
        site: site.fd(),
        options,
        work: Mutex::new(Work {
            dirs: vec![PathBuf::new()],
            busy: 0,
        }),
        more: Condvar::new(),
        found: Mutex::new(Scan::default()),
    };
    let run = || {
        let mut sink = sink();
        let mut local = Scan::default();
        while let Some(dir) = walk.next_dir() {
            walk.read_dir(&dir, &mut sink, &mut local);
            walk.done_dir();
        }
        let mut found = walk.found.lock().unwrap_or_else(|e| e.into_inner());
        found.absorb(local);
    };
    std::thread::scope(|scope| {
        for _ in 1..options.threads.max(1) {
            scope.spawn(run);
        }
        run();
    });
    walk.found.into_inner().unwrap_or_else(|e| e.into_inner())
}

impl Walk<'_> {
    /// The next directory to read, waiting while others may still find some; `None` when
    /// all are read.
    fn next_dir(&self) -> Option<PathBuf> {
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

    /// Reads the directory `rel`: its pages go to `sink` now, its subdirectories onto
    /// the stack for any thread.
    fn read_dir<S: PageSink>(&self, rel: &Path, sink: &mut S, local: &mut Scan) {
        let warn = |local: &mut Scan, e: std::io::Error| {
            local.warnings.push(ScanWarning {
                path: self.root.join(rel),
                message: format!("cannot read: {e}"),
            });
        };
        let here = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        let mut dir = match c_path(here).and_then(|c| DirReader::open(self.site, &c)) {
            Ok(dir) => dir,
            Err(e) => return warn(local, e),
        };
        let mut reading = Reading {
            rel,
            sink,
            local,
            subdirs: Vec::new(),
        };
        while let Some(read) =
            dir.next_with(|fd, name, kind| self.entry(&mut reading, fd, name, kind))
        {
            if let Err(e) = read {
                warn(reading.local, e);
                break;
            }
        }
        if !reading.subdirs.is_empty() {
            let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner());
            work.dirs.append(&mut reading.subdirs);
            self.more.notify_all();
        }
    }

    /// One entry of the directory `dir`: skipped, queued or handed on.
    fn entry<S: PageSink>(
        &self,
        reading: &mut Reading<S>,
        dir: BorrowedFd,
        name: &CStr,
        kind: EntryKind,
    ) {
        let bytes = name.to_bytes();
        let child = reading.rel.join(OsStr::from_bytes(bytes));
        let verdict = if bytes.starts_with(b".") {
            Err(SkipReason::Hidden)
        } else {
            match kind {
                EntryKind::Dir => return reading.subdirs.push(child),
                EntryKind::Symlink => Err(SkipReason::Symlink),
                // Sockets, fifos, devices: never pages, not worth a line in --verbose.
                EntryKind::Other => return,
                EntryKind::File => file_verdict(self.root, &child, bytes, self.options),
            }
        };
        match verdict {
            Err(reason) => reading.local.skip(child, reason, self.options.keep_skipped),
            Ok(()) => {
                let i = {
                    let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
                    found.pages.push(&child);
                    found.pages.len() - 1
                };
                reading.sink.page(i, &child, dir, name);
            }
        }
    }
}

/// A directory being read: where it is, and where what it holds goes.
struct Reading<'r, S> {
    rel: &'r Path,
    sink: &'r mut S,
    local: &'r mut Scan,
    subdirs: Vec<PathBuf>,
}
