//! What the merge checks of the shards' files, before anything is written: each child
//! where its URL says and with the bytes its checksum names, and no URL in two shards.
//! Both read every byte once, so they run at once: the children on every core, the side
//! files of URL hashes merged on a thread of their own.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, Read, Seek};

use xxhash_rust::xxh3::Xxh3;

use super::error::{FileProblem, MergeError};
use super::input::{MergeOptions, Shard};
use crate::sitemap::{self, checksum_hex};

/// Bytes read at a time, from a child or a side file.
const CHUNK: usize = 256 * 1024;

/// The bytes the side files' readers buffer together in the search for duplicates (each
/// at least 4 KiB and at most [`CHUNK`]).
const MERGE_BUFFERS: usize = 32 << 20;

/// Checks every child and every URL.
pub(super) fn check_files(shards: &[Shard], options: &MergeOptions) -> Result<(), MergeError> {
    let jobs = children(shards, options)?;
    let (checked, unique) = std::thread::scope(|scope| {
        let unique = scope.spawn(|| find_duplicates(shards));
        let checked =
            crate::parallel::each(&jobs, |job| checksum_is(job.shard, job.file, job.want));
        (
            checked,
            unique.join().expect("the duplicate search panicked"),
        )
    });
    for (job, result) in jobs.iter().zip(checked) {
        result.map_err(|problem| job.shard.problem(job.file, problem))?;
    }
    unique
}

/// A child to read and checksum.
struct Job<'a> {
    shard: &'a Shard,
    file: &'a str,
    want: &'a str,
}

/// Each child where its URL says and listable: the children to read.
fn children<'a>(shards: &'a [Shard], options: &MergeOptions) -> Result<Vec<Job<'a>>, MergeError> {
    let mut jobs = Vec::new();
    // Each child's URL, and the shard that named it first.
    let mut named: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for shard in shards {
        for child in &shard.manifest.children {
            shard.check_name(&child.file)?;
            refuse_not_owned(shard, options.root, &child.file)?;
            if let Some(first) = named.insert(&child.loc, &shard.manifest.name) {
                return Err(MergeError::ChildTwice {
                    path: shard.path.clone(),
                    file: crate::text::one_line(&child.file),
                    a: crate::text::one_line(first),
                    b: crate::text::one_line(&shard.manifest.name),
                });
            }
            let rel = shard.rel.join(&child.file);
            let at = crate::urls::file_url(options.base_url.as_str(), &rel);
            if at != child.loc {
                let loc = crate::text::one_line(&child.loc);
                return Err(shard.problem(&child.file, FileProblem::Misplaced { loc, at }));
            }
            crate::index::refuse_bad_child(&child.loc, options.base_url, Default::default())
                .map_err(|p| shard.problem(&child.file, FileProblem::Loc(p)))?;
            jobs.push(Job {
                shard,
                file: &child.file,
                want: child.xxh3.as_deref().unwrap_or_default(),
            });
        }
    }
    Ok(jobs)
}

/// Refuses a child not named by its shard's name and the separator no shard name holds
/// (of another shard, or of a manifest of the first format).
fn refuse_not_owned(shard: &Shard, root: &str, file: &str) -> Result<(), MergeError> {
    let name = &shard.manifest.name;
    if super::owns_child(std::path::Path::new(root), name, file) {
        return Ok(());
    }
    let (stem, ext) = sitemap::split_name(std::path::Path::new(root));
    let separator = super::SEPARATOR;
    let problem = FileProblem::NotOwned {
        shard: name.clone(),
        expected: format!("{stem}-{name}{separator}N-HASH{ext}"),
    };
    Err(shard.problem(file, problem))
}

/// Whether the shard's file `name` has the checksum `want`.
fn checksum_is(shard: &Shard, name: &str, want: &str) -> Result<(), FileProblem> {
    let missing = |e: io::Error| FileProblem::Missing(crate::text::one_line(&e.to_string()));
    let mut file = shard.open(name)?;
    let mut check = Xxh3::new();
    let mut buffer = vec![0; CHUNK];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => check.update(&buffer[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(missing(e)),
        }
    }
    if checksum_hex(check.digest128()) == want {
        Ok(())
    } else {
        Err(FileProblem::Altered)
    }
}

/// A side file of sorted URL hashes, read a chunk at a time and checksummed as it is.
/// The file is open only while a chunk is read: the merge reads every shard's at once,
/// and a shard each may be more than the files a process may hold open.
struct Hashes<'a> {
    shard: &'a Shard,
    /// Where the next chunk starts in the file.
    offset: u64,
    check: Xxh3,
    buffer: Vec<u8>,
    /// The bytes of `buffer` read, and how far they are taken.
    filled: usize,
    taken: usize,
    count: u64,
    last: Option<u64>,
}

impl<'a> Hashes<'a> {
    /// A reader of the shard's side file, `chunk` bytes at a time (at least 16).
    fn open(shard: &'a Shard, chunk: usize) -> Result<Hashes<'a>, MergeError> {
        let name = &shard.manifest.url_hashes.file;
        shard.check_name(name)?;
        drop(shard.open(name).map_err(|p| shard.problem(name, p))?);
        Ok(Hashes {
            shard,
            offset: 0,
            check: Xxh3::new(),
            buffer: vec![0; chunk.max(16)],
            filled: 0,
            taken: 0,
            count: 0,
            last: None,
        })
    }

    fn altered(&self) -> MergeError {
        let name = &self.shard.manifest.url_hashes.file;
        self.shard.problem(name, FileProblem::Altered)
    }

    /// Reads the next chunk (whole hashes only, a partial one kept for the next);
    /// `false` at the end. The file is opened again where the last chunk ended, and closed.
    fn refill(&mut self) -> Result<bool, MergeError> {
        let left = self.filled - self.taken;
        self.buffer.copy_within(self.taken..self.filled, 0);
        (self.filled, self.taken) = (left, 0);
        let name = &self.shard.manifest.url_hashes.file;
        let mut file = (self.shard.open(name)).map_err(|p| self.shard.problem(name, p))?;
        file.seek(io::SeekFrom::Start(self.offset))
            .map_err(|_| self.altered())?;
        loop {
            match file.read(&mut self.buffer[self.filled..]) {
                Ok(0) if self.filled == 0 => return Ok(false),
                Ok(0) => return Err(self.altered()),
                Ok(n) => {
                    self.check
                        .update(&self.buffer[self.filled..self.filled + n]);
                    self.filled += n;
                    self.offset += n as u64;
                    if self.filled >= 8 {
                        return Ok(true);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(self.altered()),
            }
        }
    }

    /// The next hash, each above the one before; at the end, the count and checksum
    /// checked against the manifest.
    fn next(&mut self) -> Result<Option<u64>, MergeError> {
        if self.filled - self.taken < 8 && !self.refill()? {
            let manifest = &self.shard.manifest;
            let whole = self.count == manifest.urls
                && checksum_hex(self.check.digest128()) == manifest.url_hashes.xxh3;
            return if whole { Ok(None) } else { Err(self.altered()) };
        }
        let bytes = &self.buffer[self.taken..self.taken + 8];
        let hash = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        self.taken += 8;
        if self.last.is_some_and(|last| last >= hash) {
            return Err(self.altered());
        }
        (self.last, self.count) = (Some(hash), self.count + 1);
        Ok(Some(hash))
    }
}

/// The first of `pages` (URL hashes, ascending, with their URLs) whose hash the shard's
/// side file of URL hashes does not hold, read as it streams.
pub(super) fn first_unlisted<'p>(
    shard: &Shard,
    pages: &[(u64, &'p str)],
) -> Result<Option<&'p str>, MergeError> {
    let mut listed = Hashes::open(shard, CHUNK)?;
    let mut next = listed.next()?;
    for &(hash, loc) in pages {
        while next.is_some_and(|h| h < hash) {
            next = listed.next()?;
        }
        if next != Some(hash) {
            return Ok(Some(loc));
        }
    }
    Ok(None)
}

/// Finds a URL two shards list: the side files merged in hash order as they stream
/// (each shard's strictly ascending, so equal hashes in a row are two shards'); when
/// two meet, their sitemaps are read for the URL, as two URLs may share a hash.
fn find_duplicates(shards: &[Shard]) -> Result<(), MergeError> {
    let mut readers = Vec::with_capacity(shards.len());
    let mut heap = BinaryHeap::with_capacity(shards.len());
    // The readers' buffers share a bounded sum, however many shards there are.
    let chunk = (MERGE_BUFFERS / shards.len().max(1)).clamp(4 * 1024, CHUNK);
    for (i, shard) in shards.iter().enumerate() {
        let mut reader = Hashes::open(shard, chunk)?;
        if let Some(hash) = reader.next()? {
            heap.push(Reverse((hash, i)));
        }
        readers.push(reader);
    }
    let mut last: Option<(u64, usize)> = None;
    while let Some(mut top) = heap.peek_mut() {
        let Reverse((hash, i)) = *top;
        if let Some((before, j)) = last.filter(|(before, _)| *before == hash) {
            confirm_duplicate(&shards[j], &shards[i], before)?;
        }
        last = Some((hash, i));
        // The top replaced in place: one sift, not a pop and a push.
        match readers[i].next()? {
            Some(next) => *top = Reverse((next, i)),
            None => drop(std::collections::binary_heap::PeekMut::pop(top)),
        }
    }
    Ok(())
}

/// The error for a URL of hash `hash` in both shards, if there is one.
fn confirm_duplicate(a: &Shard, b: &Shard, hash: u64) -> Result<(), MergeError> {
    let in_a = urls_of_hash(a, hash)?;
    let in_b = urls_of_hash(b, hash)?;
    match in_a.iter().find(|url| in_b.contains(url)) {
        Some(url) => Err(MergeError::Duplicate {
            url: url.clone(),
            a: crate::text::one_line(&a.manifest.name),
            b: crate::text::one_line(&b.manifest.name),
        }),
        None => Ok(()),
    }
}

/// The URLs of a shard's sitemaps whose hash is `hash`.
fn urls_of_hash(shard: &Shard, hash: u64) -> Result<Vec<String>, MergeError> {
    let mut found = Vec::new();
    for child in &shard.manifest.children {
        let problem = |p| shard.problem(&child.file, p);
        let file = shard.open(&child.file).map_err(problem)?;
        let missing = |e: io::Error| FileProblem::Missing(crate::text::one_line(&e.to_string()));
        let input = crate::fsutil::maybe_gzipped(file).map_err(|e| problem(missing(e)))?;
        let limit = sitemap::PROTOCOL_MAX_BYTES as u64;
        let input = io::BufReader::new(crate::fsutil::Capped::new(input, limit));
        for entry in sitemap::read::Document::new(input) {
            let entry = entry.map_err(|_| shard.problem(&child.file, FileProblem::Altered))?;
            let loc = entry.loc.as_str().trim();
            if super::url_hash(loc) == hash {
                found.push(loc.to_string());
            }
        }
    }
    Ok(found)
}
