//! Fingerprints of many pages hashed at once. A page's text is a few KiB: blake3 hashes
//! its chunks (1 KiB each) side by side only within one page, so most of each page went
//! through the one-lane path (a fifth of a run with every feature). Queued, the same
//! chunk of up to [`LANES`] pages is hashed in one call, each lane its own page, and so
//! are the parent nodes of one level of every page's tree, and the pages' last, partial
//! chunks of one length in blocks up to their last block. What is left one lane at a
//! time: each partial chunk's last block, and pages of one chunk or less, hashed whole
//! through blake3's public API.
//!
//! Written by hand: blake3 has no call that hashes many messages at once. It uses the
//! crate's `platform::Platform::hash_many` (undocumented, unstable), so blake3 is pinned
//! to one version in Cargo.toml, and the tests compare every length against
//! `blake3::hash`.

use std::ops::Range;

use blake3::hazmat::ChainingValue;
use blake3::platform::Platform;

use super::Fingerprint;

/// Pages hashed side by side: the widest lanes blake3 has (AVX-512: 16 chunks at once).
const LANES: usize = 16;

/// The most pages queued before they are hashed: several times [`LANES`], so that the
/// partial chunks grouped by length (see [`add_partial_chunks`]) fill lanes too.
const QUEUED: usize = 4 * LANES;

/// The most text queued before it is hashed: a page's chosen text is held up to
/// 256 KiB, so a queue of long pages is flushed before it holds [`QUEUED`] of them.
const MAX_QUEUED: usize = 1 << 20;

const CHUNK: usize = blake3::CHUNK_LEN;
const BLOCK: usize = blake3::BLOCK_LEN;

/// blake3's key words in its default mode (the IV), which `hash_many` takes.
const IV: [u32; 8] = [
    0x6A09_E667,
    0xBB67_AE85,
    0x3C6E_F372,
    0xA54F_F53A,
    0x510E_527F,
    0x9B05_688C,
    0x1F83_D9AB,
    0x5BE0_CD19,
];

/// blake3's flags: a chunk's first and last blocks, a parent node, the root.
const CHUNK_START: u8 = 1;
const CHUNK_END: u8 = 2;
const PARENT: u8 = 4;
const ROOT: u8 = 8;

/// The most room a buffer keeps to be used again (a page's text is a few KiB): what
/// spare buffers hold stays bounded whatever the pages.
const KEPT_ROOM: usize = 64 * 1024;

/// Pages' texts waiting to be hashed, each with the place it is filed under. A text is
/// held in the buffer its collector gathered it in, taken whole (copied, a page's text
/// was a tenth of the release build's copying); buffers go back to the collectors.
#[derive(Debug, Default)]
pub(crate) struct Hashing {
    /// Each page's place, its buffer, and where its text lies in it.
    queued: Vec<(u32, Vec<u8>, Range<usize>)>,
    /// How many bytes of text are queued.
    bytes: usize,
    /// Emptied buffers, for the collectors.
    spare: Vec<Vec<u8>>,
    /// Each queued page's chunk chaining values, as they are hashed.
    chunks: Vec<Vec<ChainingValue>>,
    /// The pages' last, partial chunks, grouped (see [`add_partial_chunks`]).
    partial: Vec<Partial>,
}

impl Hashing {
    /// Queues a page's text, filed under `place`, as `pieces` one after another (copied).
    pub fn queue<'a>(&mut self, place: u32, pieces: impl Iterator<Item = &'a [u8]>) {
        let mut text = self.spare.pop().unwrap_or_default();
        for piece in pieces {
            text.extend_from_slice(piece);
        }
        let all = 0..text.len();
        self.push(place, text, all);
    }

    /// Queues a page's text, `range` of `buffer`, filed under `place`: the buffer is
    /// taken, and an empty one left in its place.
    pub fn take(&mut self, place: u32, buffer: &mut Vec<u8>, range: Range<usize>) {
        let spare = self.spare.pop().unwrap_or_default();
        let text = std::mem::replace(buffer, spare);
        self.push(place, text, range);
    }

    fn push(&mut self, place: u32, text: Vec<u8>, range: Range<usize>) {
        self.bytes += range.len();
        self.queued.push((place, text, range));
    }

    /// Whether the queue should be hashed now.
    pub fn is_full(&self) -> bool {
        self.queued.len() >= QUEUED || self.bytes >= MAX_QUEUED
    }

    /// Hashes every page queued, handing each fingerprint to `done` with its place, in
    /// the order queued, and empties the queue.
    pub fn hash(&mut self, done: impl FnMut(u32, Fingerprint)) {
        let texts: Vec<&[u8]> = self
            .queued
            .iter()
            .map(|(_, text, range)| &text[range.clone()])
            .collect();
        // Grown, never shrunk: each text's list keeps its room from batch to batch.
        if self.chunks.len() < texts.len() {
            self.chunks.resize_with(texts.len(), Vec::new);
        }
        let chunks = &mut self.chunks[..texts.len()];
        chunks.iter_mut().for_each(Vec::clear);
        hash_full_chunks(&texts, chunks);
        add_partial_chunks(&texts, chunks, &mut self.partial);
        let mut roots = vec![None; texts.len()];
        merge_trees(chunks, &mut roots);
        let places = self.queued.iter().map(|(place, ..)| *place);
        file_roots(&texts, roots, places, done);
        self.bytes = 0;
        for (_, mut text, _) in self.queued.drain(..) {
            if text.capacity() <= KEPT_ROOM {
                text.clear();
                self.spare.push(text);
            }
        }
    }
}

/// Hands each text's fingerprint to `done` with its place: from its root, or hashed whole
/// when it is one chunk or less.
fn file_roots(
    texts: &[&[u8]],
    roots: Vec<Option<[u8; blake3::OUT_LEN]>>,
    places: impl Iterator<Item = u32>,
    mut done: impl FnMut(u32, Fingerprint),
) {
    for ((text, root), place) in texts.iter().zip(roots).zip(places) {
        let fingerprint = match root {
            Some(root) => Fingerprint::of(&blake3::Hash::from_bytes(root)),
            None => Fingerprint::of(&blake3::hash(text)),
        };
        done(place, fingerprint);
    }
}

/// The chaining value of every whole chunk of each text longer than one chunk, into
/// `chunks`: chunk `k` of all of them in one call per [`LANES`] texts, lane by lane.
fn hash_full_chunks(texts: &[&[u8]], chunks: &mut [Vec<ChainingValue>]) {
    let platform = Platform::detect();
    let longest = texts.iter().map(|t| t.len()).max().unwrap_or(0);
    let mut inputs: Vec<&[u8; CHUNK]> = Vec::with_capacity(LANES);
    let mut owners: Vec<usize> = Vec::with_capacity(LANES);
    let mut out = [0; LANES * blake3::OUT_LEN];
    for k in 0..longest / CHUNK {
        for (i, text) in texts.iter().enumerate() {
            // A text of one chunk is its own root, hashed whole by `Hashing::hash`.
            let whole = text.get(k * CHUNK..(k + 1) * CHUNK);
            let Some(chunk) = whole
                .and_then(|c| c.try_into().ok())
                .filter(|_| text.len() > CHUNK)
            else {
                continue;
            };
            inputs.push(chunk);
            owners.push(i);
            if inputs.len() == LANES {
                hash_lanes(platform, &inputs, k, &mut out);
                file_lanes(&owners, &out, chunks);
                inputs.clear();
                owners.clear();
            }
        }
        if !inputs.is_empty() {
            hash_lanes(platform, &inputs, k, &mut out);
            file_lanes(&owners, &out, chunks);
            inputs.clear();
            owners.clear();
        }
    }
}

/// Chunk `k` of each text in `inputs`, each in its lane, into `out`.
fn hash_lanes(platform: Platform, inputs: &[&[u8; CHUNK]], k: usize, out: &mut [u8]) {
    platform.hash_many(
        inputs,
        &IV,
        k as u64,
        blake3::IncrementCounter::No,
        0,
        CHUNK_START,
        CHUNK_END,
        &mut out[..inputs.len() * blake3::OUT_LEN],
    );
}

/// Files the chaining values in `out` under the texts `owners` says they belong to.
fn file_lanes(owners: &[usize], out: &[u8], chunks: &mut [Vec<ChainingValue>]) {
    for (lane, &i) in owners.iter().enumerate() {
        let mut cv = [0; blake3::OUT_LEN];
        cv.copy_from_slice(&out[lane * blake3::OUT_LEN..(lane + 1) * blake3::OUT_LEN]);
        chunks[i].push(cv);
    }
}

/// A text's last, partial chunk: its index in the text, how many whole blocks come before
/// its last block, and the text's place in the batch.
type Partial = (usize, usize, usize);

/// Adds the chaining value of each text's last, partial chunk to its whole chunks' (a
/// text longer than one chunk). One lane at a time, they were a quarter of the hashing:
/// the chunks of one index with as many whole blocks are hashed side by side up to their
/// last block (`hash_many` takes inputs of one length and one counter), then each last
/// block alone. `partial` is scratch space.
fn add_partial_chunks(
    texts: &[&[u8]],
    chunks: &mut [Vec<ChainingValue>],
    partial: &mut Vec<Partial>,
) {
    partial.clear();
    partial.extend(texts.iter().enumerate().filter_map(|(i, text)| {
        let k = text.len() / CHUNK;
        let rest = text.len() % CHUNK;
        (k > 0 && rest > 0).then(|| (k, (rest - 1) / BLOCK, i))
    }));
    partial.sort_unstable();
    let platform = Platform::detect();
    let mut out = [0; LANES * blake3::OUT_LEN];
    for group in partial.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        for lanes in group.chunks(LANES) {
            let (k, blocks, _) = lanes[0];
            let out = &mut out[..lanes.len() * blake3::OUT_LEN];
            whole_blocks(platform, texts, lanes, out);
            for (&(_, _, i), cv) in lanes.iter().zip(out.chunks_exact(blake3::OUT_LEN)) {
                let mut words = if blocks == 0 { IV } else { words_of(cv) };
                let start = k * CHUNK + blocks * BLOCK;
                let last = &texts[i][start..];
                let mut block = [0; BLOCK];
                block[..last.len()].copy_from_slice(last);
                let flags = if blocks == 0 {
                    CHUNK_START | CHUNK_END
                } else {
                    CHUNK_END
                };
                platform.compress_in_place(&mut words, &block, last.len() as u8, k as u64, flags);
                chunks[i].push(bytes_of(&words));
            }
        }
    }
}

/// The chaining values, into `out`, of the whole blocks before the last block of the
/// partial chunks `lanes` (of one index, with as many whole blocks), side by side.
fn whole_blocks(platform: Platform, texts: &[&[u8]], lanes: &[Partial], out: &mut [u8]) {
    /// `hash_many` of inputs of `N` bytes.
    fn blocks_of<const N: usize>(
        platform: Platform,
        texts: &[&[u8]],
        lanes: &[Partial],
        out: &mut [u8],
    ) {
        let mut inputs: Vec<&[u8; N]> = Vec::with_capacity(LANES);
        for &(k, _, i) in lanes {
            let start = k * CHUNK;
            // The chunk holds more than N bytes: its last block follows them.
            inputs.push(texts[i][start..start + N].try_into().expect("N bytes"));
        }
        platform.hash_many(
            &inputs,
            &IV,
            lanes[0].0 as u64,
            blake3::IncrementCounter::No,
            0,
            CHUNK_START,
            0,
            out,
        );
    }
    let f = match lanes[0].1 {
        0 => return,
        1 => blocks_of::<{ BLOCK }>,
        2 => blocks_of::<{ 2 * BLOCK }>,
        3 => blocks_of::<{ 3 * BLOCK }>,
        4 => blocks_of::<{ 4 * BLOCK }>,
        5 => blocks_of::<{ 5 * BLOCK }>,
        6 => blocks_of::<{ 6 * BLOCK }>,
        7 => blocks_of::<{ 7 * BLOCK }>,
        8 => blocks_of::<{ 8 * BLOCK }>,
        9 => blocks_of::<{ 9 * BLOCK }>,
        10 => blocks_of::<{ 10 * BLOCK }>,
        11 => blocks_of::<{ 11 * BLOCK }>,
        12 => blocks_of::<{ 12 * BLOCK }>,
        13 => blocks_of::<{ 13 * BLOCK }>,
        14 => blocks_of::<{ 14 * BLOCK }>,
        15 => blocks_of::<{ 15 * BLOCK }>,
        _ => unreachable!("a chunk has 16 blocks"),
    };
    f(platform, texts, lanes, out);
}

/// A chaining value's words (blake3 keeps them little-endian).
fn words_of(cv: &[u8]) -> [u32; 8] {
    let mut words = [0; 8];
    for (word, bytes) in words.iter_mut().zip(cv.chunks_exact(4)) {
        *word = u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
    }
    words
}

/// A chaining value's bytes.
fn bytes_of(words: &[u32; 8]) -> ChainingValue {
    let mut cv = [0; blake3::OUT_LEN];
    for (bytes, word) in cv.chunks_exact_mut(4).zip(words) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    cv
}

/// A parent node's block: its children's chaining values.
type Block = [u8; 2 * blake3::OUT_LEN];

/// Merges each text's chunk chaining values into its root hash, into `roots` (left
/// `None` for a text of one chunk or less, hashed whole instead): blake3's tree, level by
/// level, each level pairing neighbours from the left and carrying an odd last one up,
/// the merges of one level of every text [`LANES`] at a time (one by one they cost three
/// times as much).
fn merge_trees(levels: &mut [Vec<ChainingValue>], roots: &mut [Option<[u8; blake3::OUT_LEN]>]) {
    let platform = Platform::detect();
    // The merges of a level, in lanes: their text and place in the level, their blocks.
    let mut places: Vec<(usize, usize)> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    loop {
        let mut any = false;
        for root in [false, true] {
            places.clear();
            blocks.clear();
            for (i, level) in levels.iter().enumerate() {
                if level.len() < 2 || (level.len() == 2) != root {
                    continue;
                }
                for (k, pair) in level.chunks_exact(2).enumerate() {
                    let mut block = [0; 2 * blake3::OUT_LEN];
                    block[..blake3::OUT_LEN].copy_from_slice(&pair[0]);
                    block[blake3::OUT_LEN..].copy_from_slice(&pair[1]);
                    places.push((i, k));
                    blocks.push(block);
                }
            }
            any |= !blocks.is_empty();
            let flags = if root { PARENT | ROOT } else { PARENT };
            for (lanes, places) in blocks.chunks(LANES).zip(places.chunks(LANES)) {
                let mut inputs: [&Block; LANES] = [&lanes[0]; LANES];
                for (input, block) in inputs.iter_mut().zip(lanes) {
                    *input = block;
                }
                let mut out = [0; LANES * blake3::OUT_LEN];
                let out = &mut out[..lanes.len() * blake3::OUT_LEN];
                let inputs = &inputs[..lanes.len()];
                platform.hash_many(
                    inputs,
                    &IV,
                    0,
                    blake3::IncrementCounter::No,
                    flags,
                    0,
                    0,
                    out,
                );
                for (&(i, k), cv) in places.iter().zip(out.chunks_exact(blake3::OUT_LEN)) {
                    let mut merged = [0; blake3::OUT_LEN];
                    merged.copy_from_slice(cv);
                    match root {
                        true => roots[i] = Some(merged),
                        false => levels[i][k] = merged,
                    }
                }
            }
        }
        if !any {
            return;
        }
        // Each level now holds its merged pairs first, then its odd last node.
        for level in levels.iter_mut() {
            let len = level.len();
            if len == 2 {
                level.clear();
            } else if len > 2 {
                if len % 2 == 1 {
                    level[len / 2] = level[len - 1];
                }
                level.truncate(len.div_ceil(2));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the chunk and tree boundaries, queued in batches of every
    /// size, hashes as `blake3::hash` does, and each comes back under its place.
    #[test]
    fn batches_hash_as_blake3_does() {
        let data: Vec<u8> = (0..40_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut lengths: Vec<usize> = (0..=3 * CHUNK + 2).collect();
        for k in [4, 5, 7, 8, 9, 16, 17, 31, 33] {
            lengths.extend([k * CHUNK - 1, k * CHUNK, k * CHUNK + 1]);
        }
        // And trees of every shape side by side.
        let mut rng = fastrand::Rng::with_seed(16);
        lengths.extend((0..500).map(|_| rng.usize(0..39_000)));
        for batch in [1, 3, LANES, LANES + 5, QUEUED] {
            let mut hashing = Hashing::default();
            let mut got = Vec::new();
            for (place, len) in lengths.iter().enumerate() {
                let text = &data[place % 97..place % 97 + len];
                if place % 2 == 0 {
                    // In two pieces, which are hashed as one text.
                    let (a, b) = text.split_at(len / 3);
                    hashing.queue(place as u32, [a, b].into_iter());
                } else {
                    // Taken in its buffer, between bytes that are not its.
                    let mut buffer = [b"before", text, b"after"].concat();
                    hashing.take(place as u32, &mut buffer, 6..6 + len);
                    assert!(buffer.is_empty());
                }
                if hashing.queued.len() >= batch || hashing.is_full() {
                    hashing.hash(|place, fp| got.push((place, fp)));
                }
            }
            hashing.hash(|place, fp| got.push((place, fp)));
            assert_eq!(got.len(), lengths.len());
            for (i, (place, fp)) in got.into_iter().enumerate() {
                let len = lengths[place as usize];
                let text = &data[place as usize % 97..place as usize % 97 + len];
                assert_eq!(place as usize, i, "in order");
                assert_eq!(
                    fp,
                    Fingerprint::of(&blake3::hash(text)),
                    "{len} bytes, batch {batch}"
                );
            }
        }
    }
}
