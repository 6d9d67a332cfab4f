//! Pages no route reaches, matched to their sources by what both say: the built page
//! holds its source's text. Each text is cut into shingles (runs of [`SHINGLE`] words,
//! hashed), and a source's score on a page is the share of its shingles the page holds.
//! A page takes the one source that clearly scores best, at least [`MIN_SCORE`]; none
//! when two sources score alike (copies), or when the page also holds much of another
//! source's text that the best one does not explain (a listing: home, tags, archives).
//!
//! Only the pages a route missed are read for this, and only the sources that built no
//! page of the site are read (a page built from another language's source, a fallback,
//! also tries the sources of its path in the other languages' folders), so a site whose
//! routes reach every page pays nothing.
//!
//! Written by hand: shingling is a few lines over words and a hash; no kept crate does
//! containment of one text in another.

use std::collections::HashMap;

use xxhash_rust::xxh3::xxh3_64;

/// Words a shingle holds: four tell a sentence apart, and survive the markup a
/// generator adds or drops between them.
pub const SHINGLE: usize = 4;

/// The least score a page's source has: the share of its shingles the page holds.
pub const MIN_SCORE: f32 = 0.5;

/// A second source scoring within this of the best, with nearly as many shingles on
/// the page, is as good a match: the page is dated by neither.
const CLOSE: f32 = 0.1;

/// The share of a second source's shingles that the page holds and the best source's
/// text does not, past which the page holds several sources (a listing).
const SEVERAL: f32 = 0.25;

/// The fewest shingles a source needs: a shorter text is found anywhere.
const MIN_SHINGLES: usize = 3;

/// A shingle on more of the pages matched than this is the site's chrome (a footer, a
/// menu): left out of the index, which it would only make slow.
const MAX_PAGES_A_SHINGLE: usize = 32;

/// The most shingles kept of one text: 100,000 words, well past any page.
pub const MAX_SHINGLES: usize = 100_000;

/// The most shingles of all pages indexed (16 bytes each while the index is built):
/// 256 MiB, for 2.6 million pages of a hundred words.
pub const MAX_POSTINGS: usize = 16 * 1024 * 1024;

/// The most bytes of a page or source read for its text.
pub const MAX_TEXT_BYTES: u64 = 1024 * 1024;

/// The candidates kept for each page: the best and its rivals.
const KEPT: usize = 4;

/// A text's shingles, sorted, each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shingles(Vec<u64>);

impl Shingles {
    /// The shingles of `text`'s words (runs of letters and digits, lower-cased).
    pub fn of_text(text: &str) -> Shingles {
        let mut window = [0u64; SHINGLE];
        let mut seen = 0usize;
        let mut out = Vec::new();
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            let hash = if word.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
                xxh3_64(word.to_lowercase().as_bytes())
            } else {
                xxh3_64(word.as_bytes())
            };
            window[seen % SHINGLE] = hash;
            seen += 1;
            if seen >= SHINGLE && out.len() < MAX_SHINGLES {
                // In order: the same words in another order are another shingle.
                let shingle = (0..SHINGLE).fold(0u64, |acc, i| {
                    let w = window[(seen + i) % SHINGLE];
                    acc.rotate_left(17) ^ w
                });
                out.push(shingle);
            }
        }
        out.sort_unstable();
        out.dedup();
        Shingles(out)
    }

    /// The shingles of the text of a page's body: scripts, styles, templates and the
    /// title left out.
    pub fn of_page(html: &[u8]) -> Shingles {
        Shingles::of_text(&crate::page::shown(html).text)
    }

    /// The shingles of a source file's text, its front matter (a fenced block) left
    /// out: markup between words costs a few shingles, not the match.
    pub fn of_source(text: &str) -> Shingles {
        Shingles::of_text(super::front_matter::body(text))
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn contains(&self, shingle: u64) -> bool {
        self.0.binary_search(&shingle).is_ok()
    }
}

/// `text`'s words, lower-cased, one space between: titles compared so.
pub fn words(text: &str) -> String {
    let words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    words.map(str::to_lowercase).collect::<Vec<_>>().join(" ")
}

/// One source's shingles on one page.
#[derive(Debug, Clone)]
struct Candidate {
    /// The source, as the caller numbers them.
    source: u32,
    /// How many shingles the source has.
    size: u32,
    /// Those the page holds.
    held: Vec<u64>,
    /// The page's title holds the source's.
    titled: bool,
}

impl Candidate {
    fn score(&self) -> f32 {
        self.held.len() as f32 / self.size.max(1) as f32
    }
}

/// What the match made of one page.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    /// Its source, its score, and how many of its shingles are on the page.
    Matched {
        source: u32,
        score: f32,
        held: usize,
        titled: bool,
    },
    /// Its best source is another page's, whose text it explains more of (`own`).
    Listing { a: (u32, f32), own: u32 },
    /// No source scores [`MIN_SCORE`]: the nearest, if any holds a shingle on the page.
    Weak { nearest: Option<(u32, f32)> },
    /// Two sources score alike.
    Close { a: (u32, f32), b: (u32, f32) },
    /// The page holds the text of several sources: a listing.
    Several { a: (u32, f32), b: (u32, f32) },
}

/// The pages to match, indexed by their shingles: each shingle with the pages that hold
/// it, chrome left out.
#[derive(Debug, Default)]
struct Index {
    /// `(shingle, page)`, sorted, the shingle's low 32 bits only: its run (its top
    /// bits) tells the rest apart, in 8 bytes a posting instead of 16.
    postings: Vec<(u32, u32)>,
    /// Where the postings of each run of shingles sharing their top bits start: a look-up
    /// is two reads, where a binary search over millions was twenty cache misses.
    starts: Vec<u32>,
    /// How many top bits choose a run.
    bits: u32,
    /// Each page's candidates so far, by page.
    found: Vec<Vec<Candidate>>,
    /// How many shingles each page has.
    sizes: Vec<usize>,
}

impl Index {
    /// The index of `pages` (page `i` is the `i`-th): a counting sort by run, each run
    /// (a posting or two) then sorted in place, where sorting every posting at once took
    /// twice as long.
    fn new(pages: Vec<Shingles>) -> Index {
        let mut total = 0;
        // Past the bound, a page is not indexed: it keeps no source (no date).
        let sizes: Vec<usize> = (pages.iter())
            .map(|page| {
                let room = total + page.len() <= MAX_POSTINGS;
                total += if room { page.len() } else { 0 };
                if room { page.len() } else { 0 }
            })
            .collect();
        // Four to eight postings a run, one cache line: a run a posting took 16 MiB more
        // of starts at 200,000 pages, and a third longer to build.
        let bits = (total.max(2).ilog2().saturating_sub(2)).clamp(8, 24);
        let run = |s: u64| (s >> (64 - bits)) as usize;
        let indexed = || (pages.iter().enumerate()).filter(|(i, _)| sizes[*i] > 0);
        let mut starts = vec![0u32; (1 << bits) + 1];
        for (_, page) in indexed() {
            page.0.iter().for_each(|&s| starts[run(s) + 1] += 1);
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut postings = vec![(0u32, 0u32); total];
        for (i, page) in indexed() {
            for &s in &page.0 {
                let at = &mut next[run(s)];
                postings[*at as usize] = (s as u32, i as u32);
                *at += 1;
            }
        }
        drop(pages);
        let (postings, starts) = without_chrome(postings, starts);
        Index {
            postings,
            starts,
            bits,
            found: vec![Vec::new(); sizes.len()],
            sizes,
        }
    }

    /// The pages that hold some of `shingles` (source `source`'s), with those shingles:
    /// to be kept with [`Index::keep`]; apart so that sources can be looked up on
    /// several threads.
    fn look_up(&self, source: u32, shingles: &Shingles) -> Vec<(u32, Candidate)> {
        if shingles.len() < MIN_SHINGLES {
            return Vec::new();
        }
        // Each shingle's run first, then the postings in them: loads that do not wait on
        // each other, which the memory serves together (the index is far larger than
        // any cache, and a look-up is two misses).
        let runs: Vec<(u32, u32)> = (shingles.0.iter())
            .map(|&s| {
                let run = (s >> (64 - self.bits)) as usize;
                (self.starts[run], self.starts[run + 1])
            })
            .collect();
        let mut hits: Vec<(u32, u64)> = Vec::new();
        for (&s, &(from, to)) in shingles.0.iter().zip(&runs) {
            let low = s as u32;
            let postings = &self.postings[from as usize..to as usize];
            hits.extend(postings.iter().filter(|p| p.0 == low).map(|p| (p.1, s)));
        }
        // By page, each page's shingles in order.
        hits.sort_unstable();
        let size = u32::try_from(shingles.len()).unwrap_or(u32::MAX);
        let mut found: Vec<(u32, Candidate)> = Vec::new();
        for (page, shingle) in hits {
            match found.last_mut() {
                Some((last, c)) if *last == page => c.held.push(shingle),
                _ => found.push((
                    page,
                    Candidate {
                        source,
                        size,
                        held: vec![shingle],
                        titled: false,
                    },
                )),
            }
        }
        found
    }

    /// Keeps what [`Index::look_up`] found: each page's [`KEPT`] best candidates.
    fn keep(&mut self, found: Vec<(u32, Candidate)>) {
        for (page, candidate) in found {
            let kept = &mut self.found[page as usize];
            kept.push(candidate);
            kept.sort_by(|a, b| rank(b).partial_cmp(&rank(a)).expect("no NaN"));
            kept.truncate(KEPT);
        }
    }

    /// What each page's candidates make of it, by page. A source is one page's in each
    /// of `groups` (a language's folder, by page): of the pages it is the best source of,
    /// the one it explains most of; the others hold its whole text among more (a listing
    /// that shows one text in full).
    fn verdicts(self, groups: &[u32]) -> Vec<Verdict> {
        let sizes = self.sizes;
        let mut verdicts: Vec<Verdict> = self.found.into_iter().map(verdict).collect();
        let mut best: HashMap<(u32, u32), (usize, (bool, f32))> = HashMap::new();
        for (page, v) in verdicts.iter().enumerate() {
            if let Verdict::Matched {
                source,
                held,
                titled,
                ..
            } = *v
            {
                let share = (titled, held as f32 / sizes[page].max(1) as f32);
                let group = groups.get(page).copied().unwrap_or(0);
                let kept = best.entry((source, group)).or_insert((page, share));
                if share > kept.1 {
                    *kept = (page, share);
                }
            }
        }
        for (page, v) in verdicts.iter_mut().enumerate() {
            if let Verdict::Matched { source, score, .. } = *v {
                let group = groups.get(page).copied().unwrap_or(0);
                let (own, _) = best[&(source, group)];
                if own != page {
                    let a = (source, score);
                    *v = Verdict::Listing { a, own: own as u32 };
                }
            }
        }
        verdicts
    }
}

/// `postings`, grouped in runs that begin at `starts`, each run sorted, and without the
/// shingles on more than [`MAX_PAGES_A_SHINGLE`] pages (the site's chrome), in place;
/// and where each run begins then.
fn without_chrome(
    mut postings: Vec<(u32, u32)>,
    mut starts: Vec<u32>,
) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut kept = 0;
    for r in 0..starts.len() - 1 {
        let (from, to) = (starts[r] as usize, starts[r + 1] as usize);
        starts[r] = kept as u32;
        postings[from..to].sort_unstable();
        let mut at = from;
        while at < to {
            let same = postings[at..to]
                .iter()
                .take_while(|p| p.0 == postings[at].0)
                .count();
            if same <= MAX_PAGES_A_SHINGLE {
                postings.copy_within(at..at + same, kept);
                kept += same;
            }
            at += same;
        }
    }
    *starts.last_mut().expect("a run at least") = kept as u32;
    postings.truncate(kept);
    (postings, starts)
}

/// Candidates are ranked by score, then by how much of the page they explain.
fn rank(c: &Candidate) -> (f32, usize) {
    (c.score(), c.held.len())
}

/// What a page's candidates (best first) make of it.
fn verdict(kept: Vec<Candidate>) -> Verdict {
    let Some(best) = kept.first() else {
        return Verdict::Weak { nearest: None };
    };
    let scored = |c: &Candidate| (c.source, c.score());
    if best.score() < MIN_SCORE {
        return Verdict::Weak {
            nearest: Some(scored(best)),
        };
    }
    let explained = Shingles(best.held.clone());
    for other in kept[1..].iter().filter(|c| c.score() >= MIN_SCORE) {
        let (a, b) = (scored(best), scored(other));
        let beyond = other.held.iter().filter(|s| !explained.contains(**s));
        if beyond.count() as f32 >= SEVERAL * other.size as f32 {
            return Verdict::Several { a, b };
        }
        // Text the best one explains too: a copy when it is as much of the page.
        let alike =
            other.score() >= best.score() - CLOSE && other.held.len() * 10 >= best.held.len() * 9;
        if alike {
            return Verdict::Close { a, b };
        }
    }
    Verdict::Matched {
        source: best.source,
        score: best.score(),
        held: best.held.len(),
        titled: best.titled,
    }
}

pub(super) mod kept;
mod sources;

pub use sources::{ByText, Matched, PerMille, Unrouted};

#[cfg(test)]
mod tests;
