//! `sitemapgen merge`: the shards' manifests checked and joined into the root index.
//!
//! Everything is checked before anything is written: every manifest (its version, name
//! and base URL), every child (beside its manifest, where its URL says, with the bytes
//! its hash names), and every URL against the other shards' (by the side files' sorted
//! hashes, merged as they stream, a URL read back only when two hashes meet).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use super::manifest::{self, Manifest, ManifestProblem, ManifestViews, ReadChanges};
use crate::changes::Changes;
use crate::fsutil::Place;
use crate::index::ChildProblem;
use crate::robots::{Announced, RobotsError, RobotsTxt};
use crate::sections::SectionUrls;
use crate::sitemap::{self, PROTOCOL_MAX_ENTRIES, WriteError};
use crate::urls::{BaseUrl, encode_path};
use crate::views::{self, AboutPage, AboutParts, ViewError, ViewSettings};
use crate::w3c::LastmodFormat;

/// The most indexes a merge writes: the most Search Console takes for one site.
pub const MAX_INDEXES: usize = 500;

/// What a merge is given.
#[derive(Debug, Clone)]
pub struct MergeOptions<'a> {
    /// The shards' manifests.
    pub manifests: &'a [PathBuf],
    /// The URL `dir` is published at.
    pub base_url: &'a BaseUrl,
    /// The directory the root index is written to, holding every shard's files.
    pub dir: &'a Path,
    /// How the index writes `lastmod`.
    pub lastmod_format: LastmodFormat,
    /// The `href` of the stylesheet the indexes link, when one is.
    pub stylesheet: Option<&'a str>,
    /// What to do with `dir/robots.txt`: each index is announced.
    pub robots_txt: RobotsTxt,
    /// Where the shards' change lists go, joined (for `submit`).
    pub changes_file: &'a Path,
    /// The views to make from what the manifests say of their pages.
    pub views: &'a ViewSettings,
}

/// What a merge wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Merged {
    /// The indexes, the root sitemap first.
    pub indexes: Vec<PathBuf>,
    /// Their URLs.
    pub index_urls: Vec<String>,
    /// Indexes of an earlier merge no longer needed, removed.
    pub removed: Vec<PathBuf>,
    /// Shards joined.
    pub shards: usize,
    /// Child sitemaps listed.
    pub children: usize,
    /// URLs they list.
    pub urls: u64,
    /// What was done to robots.txt for each index, when `robots_txt` asks.
    pub robots: Vec<Announced>,
    /// The joined change list and what it lists, when any shard keeps one.
    pub changes: Option<(PathBuf, Changes)>,
    /// The views written, when any is asked for.
    pub views: Option<views::Written>,
}

/// Why a merge wrote nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// A manifest cannot be read, or is not of this version.
    #[error("{}: {problem}", shown(path))]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        problem: ManifestProblem,
    },
    /// A manifest outside the directory the index is written to.
    #[error(
        "{}: is outside {}, the directory published at the base URL; put every shard's files under it, or pass -o the directory that holds them",
        shown(path),
        shown(dir)
    )]
    Outside {
        /// The manifest.
        path: PathBuf,
        /// The merge's directory.
        dir: PathBuf,
    },
    /// Two manifests of one shard name.
    #[error(
        "shard '{name}' has two manifests, {} and {}; give each part its own --shard name, or remove the stale manifest",
        shown(a),
        shown(b)
    )]
    SameName {
        /// The name.
        name: String,
        /// The first manifest.
        a: PathBuf,
        /// The second.
        b: PathBuf,
    },
    /// A shard built for a base URL outside the merge's.
    #[error(
        "{}: shard '{name}' was built for {shard_base}, not under --base-url {base}; build it with the site's base URL (or a path under it)",
        shown(path)
    )]
    BaseUrl {
        /// The manifest.
        path: PathBuf,
        /// The shard's name.
        name: String,
        /// Its base URL.
        shard_base: String,
        /// The merge's.
        base: String,
    },
    /// Shards whose root sitemaps differ in name: gzipped and not, or renamed.
    #[error("shard '{a}' writes {a_file} and shard '{b}' writes {b_file}; {}", if a_file.ends_with(".gz") != b_file.ends_with(".gz") { "build every shard with --gzip, or none" } else { "build every shard with the same output name" })]
    Mixed {
        /// The first shard.
        a: String,
        /// Its root sitemap's name.
        a_file: String,
        /// The other shard.
        b: String,
        /// Its root sitemap's name.
        b_file: String,
    },
    /// A file a manifest names is missing, altered, misplaced or not listable.
    #[error("{}: {} {problem}", shown(manifest), crate::text::one_line(file))]
    File {
        /// The manifest.
        manifest: PathBuf,
        /// The file's name.
        file: String,
        /// What is wrong.
        problem: FileProblem,
    },
    /// A URL two shards list.
    #[error(
        "{} is listed by shard '{a}' and by shard '{b}'; a URL belongs to one shard: leave it out of one of them (exclude in its sitemap.toml)",
        crate::text::one_line(url)
    )]
    Duplicate {
        /// The URL.
        url: String,
        /// One shard.
        a: String,
        /// The other.
        b: String,
    },
    /// Views are asked for, and a shard was built without them.
    #[error(
        "{}: shard '{name}' was built without views, so the merge cannot show its pages; build it with the same html_sitemap and llms_txt settings",
        shown(path)
    )]
    NoViews {
        /// The manifest.
        path: PathBuf,
        /// The shard's name.
        name: String,
    },
    /// A page a manifest's views record is not under the base URL.
    #[error(
        "{}: {} is not under --base-url; build the shard again",
        shown(path),
        crate::text::one_line(loc)
    )]
    PageOutside {
        /// The manifest.
        path: PathBuf,
        /// The page's URL.
        loc: String,
    },
    /// No shard lists a URL: an index may not be empty.
    #[error(
        "the shards list no URL, and a sitemap index needs at least one sitemap; check that each shard's build found its pages"
    )]
    Empty,
    /// More children than [`MAX_INDEXES`] indexes can list.
    #[error("{children} child sitemaps need {indexes} indexes, more than the {MAX_INDEXES} Search Console reads for one site; raise max_urls_per_file in the shards, or merge fewer shards", children = crate::text::thousands(*children))]
    TooManyIndexes {
        /// Children to list.
        children: usize,
        /// Indexes they need.
        indexes: usize,
    },
    /// Writing an index failed; the earlier indexes are untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A view could not be written; the indexes were written.
    #[error(transparent)]
    View(#[from] ViewError),
    /// robots.txt could not be updated; the indexes were written.
    #[error(transparent)]
    Robots(#[from] RobotsError),
    /// The joined change list could not be written.
    #[error("cannot write {}: {source}", shown(path))]
    Changes {
        /// The change list.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

impl MergeError {
    /// Bad input (exit 2) rather than a failure to write (exit 1).
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            MergeError::Write(_)
                | MergeError::Robots(_)
                | MergeError::Changes { .. }
                | MergeError::View(_)
        )
    }
}

/// What is wrong with a file a manifest names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileProblem {
    /// Not a plain file name.
    #[error("is not a file name beside the manifest; build the shard again")]
    Name,
    /// Missing or unreadable.
    #[error("cannot be read ({0}); copy every file the shard's build wrote beside its manifest")]
    Missing(String),
    /// Its bytes are not those the manifest names.
    #[error(
        "does not match its manifest (changed since the shard was built); build the shard again"
    )]
    Altered,
    /// Where it lies is not where its URL says.
    #[error(
        "is published at {loc} by its manifest, but lies at {at}; merge in the directory published at the base URL"
    )]
    Misplaced {
        /// Its URL in the manifest.
        loc: String,
        /// The URL of where it lies.
        at: String,
    },
    /// Its URL cannot be listed.
    #[error("{0}")]
    Loc(ChildProblem),
}

/// A path on one line.
fn shown(path: &Path) -> String {
    crate::text::one_line(&path.display().to_string())
}

/// One shard: its manifest, where it lies, and what it says.
struct Shard {
    path: PathBuf,
    /// The manifest's directory, symbolic links resolved.
    dir: PathBuf,
    /// That directory under the merge's.
    rel: PathBuf,
    manifest: Manifest<ReadChanges>,
}

impl Shard {
    /// The file `name` beside the manifest, when `name` is a plain file name.
    fn file(&self, name: &str) -> Result<PathBuf, MergeError> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\', '\0'])
            && Path::new(name).file_name() == Some(name.as_ref());
        if !plain {
            return Err(self.problem(name, FileProblem::Name));
        }
        Ok(self.dir.join(name))
    }

    fn problem(&self, file: &str, problem: FileProblem) -> MergeError {
        MergeError::File {
            manifest: self.path.clone(),
            file: file.to_string(),
            problem,
        }
    }
}

/// Shards checked and ready to merge ([`check`]), nothing written yet.
pub struct Checked {
    shards: Vec<Shard>,
    listed: Vec<(String, Option<jiff::Timestamp>)>,
    changes: Option<Changes>,
}

/// Checks the shards' manifests and files: everything [`write_merged`] needs, before
/// anything is written.
pub fn check(options: &MergeOptions) -> Result<Checked, MergeError> {
    let shards = read_shards(options)?;
    let listed = check_children(&shards, options)?;
    if listed.is_empty() {
        return Err(MergeError::Empty);
    }
    find_duplicates(&shards)?;
    let indexes = listed.len().div_ceil(PROTOCOL_MAX_ENTRIES);
    if indexes > MAX_INDEXES {
        return Err(MergeError::TooManyIndexes {
            children: listed.len(),
            indexes,
        });
    }
    if options.views.any() {
        check_views(&shards, options)?;
        crate::views::refuse_foreign(options.views, options.dir)?;
    }
    let changes = join_changes(&shards);
    Ok(Checked {
        shards,
        listed,
        changes,
    })
}

/// Writes the root index of checked shards (or several, past 50,000 children),
/// announces each in robots.txt if asked, and writes the joined change list.
pub fn write_merged(options: &MergeOptions, checked: Checked) -> Result<Merged, MergeError> {
    let Checked {
        shards,
        listed,
        changes,
    } = checked;
    let root = options.dir.join(&shards[0].manifest.sitemap);
    let chunks: Vec<_> = listed.chunks(PROTOCOL_MAX_ENTRIES).collect();
    let written =
        sitemap::write_indexes(&root, &chunks, options.lastmod_format, options.stylesheet)?;
    let index_urls: Vec<String> = (written.indexes.iter())
        .map(|index| {
            let name = index.file_name().unwrap_or_default().to_string_lossy();
            format!(
                "{}{}",
                options.base_url.as_str(),
                crate::urls::encode_segment(&name)
            )
        })
        .collect();
    let views = if options.views.any() {
        Some(write_views(options, &shards, &index_urls[0])?)
    } else {
        None
    };
    let robots = announce(options, &index_urls)?;
    let changes = match changes {
        Some(changes) => Some(save_changes(options, changes)?),
        None => None,
    };
    Ok(Merged {
        indexes: written.indexes,
        index_urls,
        removed: written.removed,
        shards: shards.len(),
        children: listed.len(),
        urls: shards.iter().map(|s| s.manifest.urls).sum(),
        robots,
        changes,
        views,
    })
}

/// Refuses views when a shard recorded none of its pages, or a page off the base URL.
fn check_views(shards: &[Shard], options: &MergeOptions) -> Result<(), MergeError> {
    for shard in shards {
        let Some(views) = &shard.manifest.views else {
            return Err(MergeError::NoViews {
                path: shard.path.clone(),
                name: crate::text::one_line(&shard.manifest.name),
            });
        };
        let base = options.base_url.as_str();
        if let Some(page) = views.pages.iter().find(|p| !p.loc.starts_with(base)) {
            return Err(MergeError::PageOutside {
                path: shard.path.clone(),
                loc: page.loc.clone(),
            });
        }
    }
    Ok(())
}

/// Writes the site's views from what the shards recorded of their pages, in shard
/// order, each shard's sections kept (a shard without sections is one group of pages
/// in none).
fn write_views(
    options: &MergeOptions,
    shards: &[Shard],
    sitemap_url: &str,
) -> Result<views::Written, MergeError> {
    let base = options.base_url.as_str();
    let recorded: Vec<&ManifestViews> = shards
        .iter()
        .filter_map(|s| s.manifest.views.as_ref())
        .collect();
    let any_sections = recorded.iter().any(|v| !v.sections.is_empty());
    let mut sections = Vec::new();
    let mut about = AboutParts::default();
    let mut entries = Vec::new();
    for (shard, views) in shards.iter().zip(&recorded) {
        if any_sections && views.sections.is_empty() {
            sections.push(SectionUrls {
                name: None,
                urls: views.pages.len(),
            });
        }
        sections.extend(views.sections.iter().map(|s| SectionUrls {
            name: s.name.clone(),
            urls: s.urls,
        }));
        for page in &views.pages {
            let path = page.path.as_deref().map(|p| shard.rel.join(p));
            let lang = page.loc == base;
            about.add(
                entries.len() as u32,
                AboutPage {
                    title: page.title.as_deref(),
                    description: page.description.as_deref(),
                    lang: if lang { views.lang.as_deref() } else { None },
                    path: path.as_deref(),
                },
            );
            entries.push(sitemap::Entry {
                loc: page.loc.as_str().into(),
                lastmod: None,
                changefreq: None,
                priority: None,
                extras: None,
            });
        }
    }
    let entries = sitemap::Entries::with_base(base, entries);
    let about = about.in_order(0..entries.len() as u32);
    Ok(views::write(&views::Site {
        settings: options.views,
        public_dir: options.dir,
        base_url: base,
        entries: entries.as_slice(),
        about: &about,
        sections: &sections,
        sitemap_url,
    })?)
}

/// Reads every manifest, in name order: each of this version, under the merge's
/// directory and base URL, each name once, all writing the same root sitemap's name.
fn read_shards(options: &MergeOptions) -> Result<Vec<Shard>, MergeError> {
    let real_dir = std::fs::canonicalize(options.dir).map_err(|e| MergeError::Manifest {
        path: options.dir.to_path_buf(),
        problem: ManifestProblem::Read(crate::text::one_line(&e.to_string())),
    })?;
    let mut shards = Vec::with_capacity(options.manifests.len());
    for path in options.manifests {
        let manifest = manifest::read(path).map_err(|problem| MergeError::Manifest {
            path: path.clone(),
            problem,
        })?;
        let outside = || MergeError::Outside {
            path: path.clone(),
            dir: options.dir.to_path_buf(),
        };
        let Ok(Place::Inside(real)) = crate::fsutil::place_in(&real_dir, path) else {
            return Err(outside());
        };
        let dir = crate::fsutil::parent_dir(&real).to_path_buf();
        let rel = dir
            .strip_prefix(&real_dir)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let under = BaseUrl::parse(&manifest.base_url)
            .is_ok_and(|b| b.as_str().starts_with(options.base_url.as_str()));
        if !under {
            return Err(MergeError::BaseUrl {
                path: path.clone(),
                name: manifest.name.clone(),
                shard_base: crate::text::one_line(&manifest.base_url),
                base: options.base_url.as_str().to_string(),
            });
        }
        shards.push(Shard {
            path: path.clone(),
            dir,
            rel,
            manifest,
        });
    }
    shards.sort_by(|a, b| a.manifest.name.cmp(&b.manifest.name));
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.manifest.name == b.manifest.name {
            return Err(MergeError::SameName {
                name: crate::text::one_line(&a.manifest.name),
                a: a.path.clone(),
                b: b.path.clone(),
            });
        }
    }
    if let Some(odd) = shards
        .iter()
        .find(|s| s.manifest.sitemap != shards[0].manifest.sitemap)
    {
        return Err(MergeError::Mixed {
            a: crate::text::one_line(&shards[0].manifest.name),
            a_file: crate::text::one_line(&shards[0].manifest.sitemap),
            b: crate::text::one_line(&odd.manifest.name),
            b_file: crate::text::one_line(&odd.manifest.sitemap),
        });
    }
    if let Some(first) = shards.first() {
        first.file(&first.manifest.sitemap)?;
    }
    Ok(shards)
}

/// Checks every child: a plain name beside its manifest, published where it lies, a URL
/// the index may list, and the bytes its hash names (hashed on every core). Gives the
/// index's entries, in shard order.
fn check_children(
    shards: &[Shard],
    options: &MergeOptions,
) -> Result<Vec<(String, Option<jiff::Timestamp>)>, MergeError> {
    let mut jobs = Vec::new();
    let mut listed = Vec::new();
    for shard in shards {
        let rel = &shard.rel;
        for child in &shard.manifest.children {
            let path = shard.file(&child.file)?;
            let at = format!(
                "{}{}",
                options.base_url.as_str(),
                encode_path(&rel.join(&child.file))
            );
            if at != child.loc {
                let loc = crate::text::one_line(&child.loc);
                return Err(shard.problem(&child.file, FileProblem::Misplaced { loc, at }));
            }
            crate::index::refuse_bad_child(&child.loc, options.base_url, Default::default())
                .map_err(|p| shard.problem(&child.file, FileProblem::Loc(p)))?;
            jobs.push((shard, child.file.as_str(), path, child.blake3.as_str()));
            listed.push((child.loc.clone(), child.lastmod));
        }
    }
    let results = in_parallel(&jobs, |(_, _, path, want)| hash_is(path, want));
    for ((shard, file, _, _), result) in jobs.iter().zip(results) {
        result.map_err(|problem| shard.problem(file, problem))?;
    }
    Ok(listed)
}

/// `work` done on each job, on every core; the results in the jobs' order.
fn in_parallel<J: Sync, R: Send>(jobs: &[J], work: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> = jobs.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { return };
                    let result = work(job);
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    (slots.into_iter())
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every job is done")
        })
        .collect()
}

/// Whether the file at `path` hashes to `want` (BLAKE3, hex).
fn hash_is(path: &Path, want: &str) -> Result<(), FileProblem> {
    let missing = |e: io::Error| FileProblem::Missing(crate::text::one_line(&e.to_string()));
    let file = crate::fsutil::open_regular(path).map_err(missing)?;
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(file).map_err(missing)?;
    if hasher.finalize().to_hex().as_str() == want {
        Ok(())
    } else {
        Err(FileProblem::Altered)
    }
}

/// A side file of sorted URL hashes, read as it is hashed.
struct Hashes<'a> {
    shard: &'a Shard,
    input: BufReader<std::fs::File>,
    hasher: blake3::Hasher,
    count: u64,
    last: Option<u64>,
}

impl<'a> Hashes<'a> {
    fn open(shard: &'a Shard) -> Result<Hashes<'a>, MergeError> {
        let name = &shard.manifest.url_hashes.file;
        let file = crate::fsutil::open_regular(&shard.file(name)?).map_err(|e| {
            shard.problem(
                name,
                FileProblem::Missing(crate::text::one_line(&e.to_string())),
            )
        })?;
        Ok(Hashes {
            shard,
            input: BufReader::with_capacity(1 << 16, file),
            hasher: blake3::Hasher::new(),
            count: 0,
            last: None,
        })
    }

    fn altered(&self) -> MergeError {
        self.shard
            .problem(&self.shard.manifest.url_hashes.file, FileProblem::Altered)
    }

    /// The next hash; at the end, checks the count and the file's hash.
    fn next(&mut self) -> Result<Option<u64>, MergeError> {
        let mut bytes = [0u8; 8];
        let mut got = 0;
        while got < 8 {
            match self.input.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(self.altered()),
            }
        }
        match got {
            0 => {
                let whole = self.count == self.shard.manifest.urls
                    && self.hasher.finalize().to_hex().as_str()
                        == self.shard.manifest.url_hashes.blake3;
                if whole { Ok(None) } else { Err(self.altered()) }
            }
            8 => {
                self.hasher.update(&bytes);
                let hash = u64::from_le_bytes(bytes);
                if self.last.is_some_and(|last| last >= hash) {
                    return Err(self.altered());
                }
                (self.last, self.count) = (Some(hash), self.count + 1);
                Ok(Some(hash))
            }
            _ => Err(self.altered()),
        }
    }
}

/// Finds a URL two shards list: the side files merged in hash order, as they stream;
/// when two shards' hashes meet, their sitemaps are read for the URL (two URLs sharing a
/// 64-bit hash are told apart there).
fn find_duplicates(shards: &[Shard]) -> Result<(), MergeError> {
    let mut readers = Vec::with_capacity(shards.len());
    let mut heap = BinaryHeap::with_capacity(shards.len());
    for (i, shard) in shards.iter().enumerate() {
        let mut reader = Hashes::open(shard)?;
        if let Some(hash) = reader.next()? {
            heap.push(Reverse((hash, i)));
        }
        readers.push(reader);
    }
    while let Some(Reverse((hash, i))) = heap.pop() {
        while let Some(&Reverse((next, j))) = heap.peek() {
            if next != hash {
                break;
            }
            heap.pop();
            confirm_duplicate(&shards[i], &shards[j], hash)?;
            if let Some(after) = readers[j].next()? {
                heap.push(Reverse((after, j)));
            }
        }
        if let Some(after) = readers[i].next()? {
            heap.push(Reverse((after, i)));
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
        let path = shard.file(&child.file)?;
        let input = crate::fsutil::open_content(&path, sitemap::PROTOCOL_MAX_BYTES as u64)
            .map_err(|e| shard.problem(&child.file, FileProblem::Missing(e.to_string())))?;
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

/// The shards' change lists as one: each list the sorted union of the shards', and a URL
/// one shard removed but another added or updated (it moved) not removed. `None` when no
/// shard keeps a change list.
fn join_changes(shards: &[Shard]) -> Option<Changes> {
    let lists: Vec<&ReadChanges> = shards
        .iter()
        .filter_map(|s| s.manifest.changes.as_ref())
        .collect();
    if lists.is_empty() {
        return None;
    }
    let union = |pick: fn(&ReadChanges) -> &crate::changes::UrlList| {
        let mut urls: Vec<&str> = lists.iter().flat_map(|c| pick(c).iter()).collect();
        urls.sort_unstable();
        urls.dedup();
        urls
    };
    let added = union(|c| &c.added);
    let updated = union(|c| &c.updated);
    let mut removed = union(|c| &c.removed);
    removed.retain(|url| added.binary_search(url).is_err() && updated.binary_search(url).is_err());
    let owned = |urls: Vec<&str>| urls.into_iter().map(str::to_string).collect();
    Some(Changes {
        first_run: lists.iter().all(|c| c.first_run),
        added: owned(added),
        updated: owned(updated),
        removed: owned(removed),
    })
}

/// Writes the joined change list, unless the one there lists the same (so a merge run
/// again does not undo `submit`'s record and send the same URLs twice).
fn save_changes(
    options: &MergeOptions,
    changes: Changes,
) -> Result<(PathBuf, Changes), MergeError> {
    let path = options.changes_file.to_path_buf();
    let same = crate::changes::load(&path).is_ok_and(|old| {
        old.base_url == options.base_url.as_str()
            && old.first_run == changes.first_run
            && old
                .added
                .iter()
                .eq(changes.added.iter().map(String::as_str))
            && old
                .updated
                .iter()
                .eq(changes.updated.iter().map(String::as_str))
            && old
                .removed
                .iter()
                .eq(changes.removed.iter().map(String::as_str))
    });
    if !same {
        let now = jiff::Timestamp::now();
        crate::changes::save(&path, options.base_url.as_str(), now, &changes).map_err(
            |source| MergeError::Changes {
                path: path.clone(),
                source,
            },
        )?;
    }
    Ok((path, changes))
}

/// Announces each index in robots.txt, as `robots_txt` asks.
fn announce(options: &MergeOptions, urls: &[String]) -> Result<Vec<Announced>, MergeError> {
    if options.robots_txt == RobotsTxt::Leave {
        return Ok(Vec::new());
    }
    let host_root = options.base_url.url();
    let mut announced = Vec::with_capacity(urls.len());
    for url in urls {
        announced.push(crate::robots::announce(
            options.dir,
            url,
            host_root,
            options.robots_txt,
        )?);
    }
    Ok(announced)
}
