//! The match seen from the sources' side: which sources a match reads (those that
//! built no page, and a fallback's other languages'), reading them, and what each
//! page's verdict names.

use std::collections::{HashMap, HashSet};

use hashbrown::HashTable;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use xxhash_rust::xxh3::xxh3_64;

use super::kept::{self, Kept, Text};
use super::{Candidate, Index, MAX_TEXT_BYTES, MIN_SCORE, Shingles, Verdict, words};
use crate::fsutil::dir::Opener;
use crate::lastmod::source::{How, Mapped, Miss, SourceDates};

/// One page to match: its path in the generator's output (as routes name it) and its
/// shingles.
#[derive(Debug, Clone)]
pub struct Unrouted {
    /// Its output path, `/`-separated.
    pub key: String,
    /// Its text's shingles.
    pub shingles: Shingles,
    /// Its title's words ([`words`]).
    pub title: String,
}

/// A score in thousandths: the share of a source's shingles a page holds.
pub type PerMille = u16;

/// What the match made of a page, the sources named (paths in the project) with their
/// scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByText {
    /// Its source, its score, and the source's date (or why none).
    Matched {
        source: PathBuf,
        score: PerMille,
        date: Result<(Timestamp, How), Miss>,
    },
    /// No source scores [`MIN_SCORE`]; the nearest.
    Weak(Option<(PathBuf, PerMille)>),
    /// Two sources score alike.
    Close((PathBuf, PerMille), (PathBuf, PerMille)),
    /// The page holds the text of several sources: a listing.
    Several((PathBuf, PerMille), (PathBuf, PerMille)),
    /// The page holds a source's whole text among more, and another page is that
    /// source's (its output path): a listing that shows one text in full.
    Listing((PathBuf, PerMille), String),
}

fn per_mille(score: f32) -> PerMille {
    (score * 1000.0).round() as PerMille
}

impl std::fmt::Display for ByText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |s: PerMille| (u32::from(s) + 5) / 10;
        match self {
            ByText::Matched { source, score, .. } => {
                write!(
                    f,
                    "its text holds {}% of {}",
                    pct(*score),
                    crate::text::path(source)
                )
            }
            ByText::Weak(None) => f.write_str("no source's text is on it"),
            ByText::Weak(Some((near, score))) => write!(
                f,
                "no source's text is on it: the nearest, {}, scores {}% (under {}%)",
                crate::text::path(near),
                pct(*score),
                pct(per_mille(MIN_SCORE))
            ),
            ByText::Close((a, sa), (b, sb)) => write!(
                f,
                "two sources' texts are on it alike: {} ({}%) and {} ({}%)",
                crate::text::path(a),
                pct(*sa),
                crate::text::path(b),
                pct(*sb)
            ),
            ByText::Listing((a, sa), own) => write!(
                f,
                "it shows {} ({}%) among more, and {own} is that source's page (a listing)",
                crate::text::path(a),
                pct(*sa)
            ),
            ByText::Several((a, sa), (b, sb)) => write!(
                f,
                "it lists several sources' texts (a listing): {} ({}%), {} ({}%)",
                crate::text::path(a),
                pct(*sa),
                crate::text::path(b),
                pct(*sb)
            ),
        }
    }
}

/// The output paths of the site's pages, by their hashes: 8 bytes a page, where the
/// paths themselves took five times that.
#[derive(Debug, Default)]
struct Walked(HashTable<u64>);

impl Walked {
    /// Whether `key` is a page's (a collision of 64-bit hashes aside).
    fn contains(&self, key: &str) -> bool {
        let hash = xxh3_64(key.as_bytes());
        self.0.find(hash, |&h| h == hash).is_some()
    }
}

impl SourceDates {
    /// The output paths of `pages` (relative to the public directory), as
    /// [`SourceDates::key`] gives them, in a set: made in one buffer, as every page of
    /// the site goes in.
    fn walked<'p>(&self, pages: impl ExactSizeIterator<Item = &'p Path>) -> Walked {
        let mut set = HashTable::with_capacity(pages.len());
        let mut key = Vec::new();
        for rel in pages {
            key.clear();
            key.extend_from_slice(self.within.as_bytes());
            crate::slash::join_into(&mut key, rel);
            let hash = xxh3_64(&key);
            // The hashes are the set's own: no hashing them again.
            if set.find(hash, |&h| h == hash).is_none() {
                set.insert_unique(hash, hash, |&h| h);
            }
        }
        Walked(set)
    }
}

/// The pages of `pages` that hold some of source `place`'s text (`text`), with its
/// shingles on each: only `asked`'s pages for a source asked for some (a fallback's).
fn look(
    index: &Index,
    pages: &[Unrouted],
    asked: &HashMap<u32, Vec<u32>>,
    place: u32,
    (shingles, title): Text,
) -> Vec<(u32, Candidate)> {
    let mut found = index.look_up(place, &shingles);
    if let Some(pages) = asked.get(&place) {
        found.retain(|(page, _)| pages.contains(page));
    }
    for (page, c) in &mut found {
        let page = &pages[*page as usize].title;
        c.titled = title.as_ref().is_some_and(|t| page.contains(t.as_str()));
    }
    found
}

/// Each page's group: its language's folder, numbered as met (0 for none).
fn groups(pages: &[Unrouted]) -> Vec<u32> {
    let mut folders: HashMap<&str, u32> = HashMap::new();
    (pages.iter())
        .map(|p| {
            let folder = language_folder(&p.key).map_or("", |(lang, _)| lang);
            let next = folders.len() as u32;
            *folders.entry(folder).or_insert(next)
        })
        .collect()
}

/// A page under a language's folder (`fr/x/`): the folder and the rest.
fn language_folder(key: &str) -> Option<(&str, &str)> {
    let (lang, rest) = key.split_once('/')?;
    crate::generators::route::is_language_code(lang).then_some((lang, rest))
}

/// What [`SourceDates::match_by_text`] made of the pages, by page, and why what it read
/// of the sources could not be kept for the next run, if it could not.
#[derive(Debug)]
pub struct Matched {
    pub verdicts: Vec<ByText>,
    pub kept_error: Option<(PathBuf, std::io::Error)>,
}

/// A source's text to keep for the next run: as the last run kept it, or as read now.
enum Record<'k> {
    Kept(&'k [u8]),
    Read(Vec<u8>),
}

impl Record<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Record::Kept(bytes) => bytes,
            Record::Read(bytes) => bytes,
        }
    }
}

/// What one thread found: each page's candidates, and the sources' records.
type Looked<'k> = (Vec<(u32, Candidate)>, Vec<Record<'k>>);

impl SourceDates {
    /// Matches `pages`, which no route reaches, to the sources whose routes built no
    /// page of `site` (the site's pages, relative to the public directory), and, for a
    /// page under a language folder, to the sources of its path in the other languages
    /// (a fallback), reading the sources below `project` on `threads` threads (those git
    /// has committed as they are, once: what was read of them is kept by blob id).
    pub fn match_by_text<'p>(
        &self,
        project: &Path,
        pages: &mut [Unrouted],
        site: impl ExactSizeIterator<Item = &'p Path>,
        threads: usize,
    ) -> Matched {
        // The pages' shingles move into the index: held once.
        let shingles: Vec<Shingles> = (pages.iter_mut())
            .map(|p| std::mem::take(&mut p.shingles))
            .collect();
        if shingles.is_empty() {
            let (verdicts, kept_error) = (Vec::new(), None);
            return Matched {
                verdicts,
                kept_error,
            };
        }
        // The index is built while the sources to read are found: neither needs the
        // other, and each is a core's work.
        let (mut index, (free, asked), kept) = std::thread::scope(|s| {
            let index = s.spawn(move || Index::new(shingles));
            let candidates = self.candidates(pages, &self.walked(site));
            let kept = self.kept.as_deref().map(Kept::load).unwrap_or_default();
            (
                index.join().expect("the index thread panicked"),
                candidates,
                kept,
            )
        });
        // In path order, so the sources of a folder are read through one open folder.
        let mut all: Vec<u32> = free.into_iter().chain(asked.keys().copied()).collect();
        all.sort_unstable();
        let chunks: Vec<&[u32]> = all
            .chunks(all.len().div_ceil(threads.max(1)).max(64))
            .collect();
        let root = crate::fsutil::dir::Dir::open_root(project);
        let looked = crate::parallel::each(&chunks, |chunk| {
            let mut opener = root.as_ref().ok().map(Opener::new);
            let mut looked: Looked = Default::default();
            for &place in *chunk {
                let (text, record) = self.text_of(&mut opener, &kept, place);
                looked.0.extend(look(&index, pages, &asked, place, text));
                looked.1.extend(record);
            }
            looked
        });
        let (mut records, mut read) = (Vec::new(), false);
        for (found, kept) in looked {
            index.keep(found);
            read |= kept.iter().any(|r| matches!(r, Record::Read(_)));
            records.extend(kept);
        }
        let kept_error = (self.kept.as_ref()).filter(|_| read).and_then(|path| {
            let records: Vec<&[u8]> = records.iter().map(Record::bytes).collect();
            kept::keep(path, &records).err().map(|e| (path.clone(), e))
        });
        let verdicts = index.verdicts(&groups(pages));
        let verdicts = verdicts.into_iter().map(|v| self.named(v, pages)).collect();
        Matched {
            verdicts,
            kept_error,
        }
    }

    /// Source `place`'s text: as the last run kept it, by its blob id, else read from
    /// its file; and its record to keep, when git has it committed as it is.
    fn text_of<'k>(
        &self,
        opener: &mut Option<Opener>,
        kept: &'k Kept,
        place: u32,
    ) -> (Text, Option<Record<'k>>) {
        let oid = (self.blobs.get(place as usize)).filter(|oid| **oid != [0; 20]);
        if let Some((text, record)) = oid.and_then(|oid| kept.get(oid)) {
            return (text, Some(Record::Kept(record)));
        }
        let key = String::from_utf8_lossy(self.by_source.path(place as usize));
        let file = opener.as_mut().map(|o| o.open(Path::new(key.as_ref())));
        let text = file.and_then(|f| f.ok()).and_then(|f| {
            let bytes = crate::fsutil::read_capped(f, MAX_TEXT_BYTES).ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        });
        let text = text.unwrap_or_default();
        let title = crate::lastmod::source::front_matter::parse(&text, &[]).title;
        let title = title.map(|t| words(&t)).filter(|t| !t.is_empty());
        let text = (Shingles::of_source(&text), title);
        let record = oid.map(|oid| {
            let mut record = Vec::new();
            kept::record(&mut record, oid, &text);
            Record::Read(record)
        });
        (text, record)
    }

    /// The sources a match reads: those no page of `walked` was built from, and, for
    /// each page under a language folder, the sources of its path in the others' (or
    /// at the root), with the pages they may match.
    fn candidates(
        &self,
        pages: &[Unrouted],
        walked: &Walked,
    ) -> (Vec<u32>, HashMap<u32, Vec<u32>>) {
        let mut claimed = vec![false; self.by_source.len()];
        let mut languages: HashSet<&str> = HashSet::new();
        for (output, &place) in self.owners.iter() {
            let output = std::str::from_utf8(output).unwrap_or_default();
            if walked.contains(output)
                && let Some(c) = claimed.get_mut(place as usize)
            {
                *c = true;
            }
            if let Some((lang, _)) = language_folder(output) {
                languages.insert(lang);
            }
        }
        // A fallback's path in each language's folder, and at the root.
        let mut wanted: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, page) in pages.iter().enumerate() {
            let Some((own, rest)) = language_folder(&page.key) else {
                continue;
            };
            let others = languages.iter().filter(|l| **l != own);
            for path in others
                .map(|l| format!("{l}/{rest}"))
                .chain([rest.to_string()])
            {
                wanted.entry(path).or_default().push(i as u32);
            }
        }
        let mut asked: HashMap<u32, Vec<u32>> = HashMap::new();
        for (output, &place) in self.owners.iter() {
            let output = std::str::from_utf8(output).unwrap_or_default();
            if let Some(pages) = wanted.get(output).filter(|_| claimed[place as usize]) {
                asked.entry(place).or_default().extend(pages);
            }
        }
        let free = (0..claimed.len() as u32).filter(|&p| !claimed[p as usize]);
        (free.collect(), asked)
    }

    /// A verdict with its sources named and the match's date found.
    fn named(&self, verdict: Verdict, pages: &[Unrouted]) -> ByText {
        let path = |place: u32| {
            let key = self.by_source.path(place as usize);
            PathBuf::from(String::from_utf8_lossy(key).into_owned())
        };
        let named = |(place, score): (u32, f32)| (path(place), per_mille(score));
        match verdict {
            Verdict::Matched { source, score, .. } => {
                let mapped = self.by_source.value(source as usize);
                let date = match mapped {
                    Mapped::Undated(at) => {
                        Err(Miss::Uncommitted(self.undated[*at as usize].clone()))
                    }
                    Mapped::Ambiguous => Err(Miss::Ambiguous),
                    m => m.dated_by().ok_or(Miss::NoSource),
                };
                ByText::Matched {
                    source: path(source),
                    score: per_mille(score),
                    date,
                }
            }
            Verdict::Weak { nearest } => ByText::Weak(nearest.map(named)),
            Verdict::Close { a, b } => ByText::Close(named(a), named(b)),
            Verdict::Several { a, b } => ByText::Several(named(a), named(b)),
            Verdict::Listing { a, own } => {
                ByText::Listing(named(a), pages[own as usize].key.clone())
            }
        }
    }
}
