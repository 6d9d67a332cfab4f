//! What the match read of each source (its shingles and its title's words), kept from
//! one run to the next beside the sources' cache (`source/cache.rs`), by the source's
//! blob id: a source git has committed as it is is read once, not on every run.
//!
//! The file is one header line (what it is, the version that wrote it, and the hash of
//! the rest, so that a file cut short or changed is not trusted), then a record a source:
//! its blob id (20 bytes), its title's length and its shingles' count (4 bytes each,
//! little-endian), its title, its shingles (8 bytes each). Written by hand: a few
//! fixed-size fields, read without copying the shingles of the sources not looked up.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::xxh3_64;

use super::{MAX_SHINGLES, Shingles};
use crate::fsutil;
use crate::lastmod::git::Oid;

/// What the file starts with, before the version and the hash.
const MAGIC: &str = "sitemapgen texts 1";

/// The largest file read or written: 100,000 words a source for 600 sources, or 60 words
/// for 1 million; past it, a run reads the sources it could not keep.
const MAX_BYTES: usize = 512 * 1024 * 1024;

/// The bytes of a record before its title: blob id, title length, shingle count.
const FIXED: usize = 28;

/// What the last run kept: its records, found by blob id.
#[derive(Debug, Default)]
pub(super) struct Kept {
    bytes: Vec<u8>,
    /// Where each record starts, and where it ends.
    records: HashMap<Oid, (usize, usize)>,
}

/// One source as the match reads it: its shingles, and its title's words if it has one.
pub(super) type Text = (Shingles, Option<String>);

impl Kept {
    /// The file at `path` as the last run wrote it; none (an empty [`Kept`]) when it is
    /// missing, unreadable, or not wholly as written.
    pub(super) fn load(path: &Path) -> Kept {
        let (dir, name) = (fsutil::parent_dir(path), path.file_name());
        let read = name.map(|n| fsutil::read_below(dir, Path::new(n), MAX_BYTES as u64));
        let Some(Ok(bytes)) = read else {
            return Kept::default();
        };
        Kept::parse(bytes).unwrap_or_default()
    }

    fn parse(bytes: Vec<u8>) -> Option<Kept> {
        let end = memchr::memchr(b'\n', &bytes)?;
        let header = std::str::from_utf8(&bytes[..end]).ok()?;
        let hash = header.strip_prefix(&header_prefix())?;
        let body = end + 1;
        if u64::from_str_radix(hash, 16).ok()? != xxh3_64(&bytes[body..]) {
            return None;
        }
        let mut records = HashMap::new();
        let mut at = body;
        while at < bytes.len() {
            let fixed = bytes.get(at..at + FIXED)?;
            let oid: Oid = fixed[..20].try_into().ok()?;
            let title = u32::from_le_bytes(fixed[20..24].try_into().ok()?) as usize;
            let count = u32::from_le_bytes(fixed[24..28].try_into().ok()?) as usize;
            if count > MAX_SHINGLES {
                return None;
            }
            let next = at + FIXED + title + 8 * count;
            if next > bytes.len() {
                return None;
            }
            records.entry(oid).or_insert((at, next));
            at = next;
        }
        Some(Kept { bytes, records })
    }

    /// What the last run read of blob `oid`, and its record (kept again as it is).
    pub(super) fn get(&self, oid: &Oid) -> Option<(Text, &[u8])> {
        let &(at, next) = self.records.get(oid)?;
        let record = &self.bytes[at..next];
        let title = u32::from_le_bytes(record[20..24].try_into().ok()?) as usize;
        let words = std::str::from_utf8(&record[FIXED..FIXED + title]).ok()?;
        let shingles = record[FIXED + title..]
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        let title = (!words.is_empty()).then(|| words.to_string());
        Some(((Shingles(shingles), title), record))
    }
}

/// Adds the record of blob `oid`'s `text` to `out`.
pub(super) fn record(out: &mut Vec<u8>, oid: &Oid, (shingles, title): &Text) {
    let title = title.as_deref().unwrap_or_default();
    // A title past 4 GiB is never read (a source is read to 1 MiB): no record is cut.
    let (Ok(length), Ok(count)) = (u32::try_from(title.len()), u32::try_from(shingles.len()))
    else {
        return;
    };
    out.extend_from_slice(oid);
    out.extend_from_slice(&length.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(title.as_bytes());
    shingles
        .0
        .iter()
        .for_each(|s| out.extend_from_slice(&s.to_le_bytes()));
}

/// Replaces the file at `path` with `records` (whole, from [`record`] or [`Kept::get`];
/// a blob's first only), up to [`MAX_BYTES`], taking the git directory's lock as the
/// sources' cache does.
pub(super) fn keep(path: &Path, records: &[&[u8]]) -> io::Result<()> {
    let dir = fsutil::parent_dir(path);
    let held = fsutil::lock_dir(dir)?;
    let mut body = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in records.iter().filter(|r| seen.insert(&r[..20])) {
        if body.len() + r.len() > MAX_BYTES {
            break;
        }
        body.extend_from_slice(r);
    }
    let name = path.file_name().unwrap_or_default();
    let mut temp = held.dir().temp(&format!(".{}.", name.to_string_lossy()))?;
    let header = format!("{}{:016x}\n", header_prefix(), xxh3_64(&body));
    temp.write_all(header.as_bytes())?;
    temp.write_all(&body)?;
    // Not synced: a file cut short by a crash fails its hash, and is read again.
    temp.persist_unsynced(name)
}

/// The header before the hash: what the file is, and the version that wrote it (whose
/// shingles may differ from another's).
fn header_prefix() -> String {
    format!("{MAGIC} {} ", env!("CARGO_PKG_VERSION"))
}

/// Where the match keeps what it read of the sources of the project whose sources'
/// cache is `sources`: beside it.
pub(in crate::lastmod::source) fn path_beside(sources: &Path) -> PathBuf {
    let name = sources.file_name().unwrap_or_default().to_string_lossy();
    sources.with_file_name(name.replacen("sources", "texts", 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(shingles: &[u64], title: Option<&str>) -> Text {
        (Shingles(shingles.to_vec()), title.map(str::to_string))
    }

    /// Records kept are read back as they were, a file changed in any byte is not
    /// trusted, and a missing one is empty.
    #[test]
    fn kept_records_are_read_back_and_a_changed_file_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sitemapgen-texts-0123");
        assert!(Kept::load(&path).records.is_empty());
        let (a, b) = ([1u8; 20], [2u8; 20]);
        let (ta, tb) = (text(&[3, 7, u64::MAX], Some("über café")), text(&[], None));
        let mut records = [Vec::new(), Vec::new()];
        record(&mut records[0], &a, &ta);
        record(&mut records[1], &b, &tb);
        let twice: Vec<&[u8]> = vec![&records[0], &records[1], &records[0]];
        keep(&path, &twice).unwrap();
        let once = std::fs::read(&path).unwrap().len();
        keep(&path, &twice[..2]).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap().len(),
            once,
            "a blob's record kept once"
        );
        let kept = Kept::load(&path);
        assert_eq!(kept.get(&a).map(|(t, _)| t), Some(ta));
        assert_eq!(
            kept.get(&b).map(|(t, r)| (t, r.to_vec())),
            Some((tb, records[1].clone()))
        );
        assert!(kept.get(&[9; 20]).is_none());
        let whole = std::fs::read(&path).unwrap();
        for at in [0, whole.len() / 2, whole.len() - 1] {
            let mut changed = whole.clone();
            changed[at] ^= 1;
            assert!(Kept::parse(changed).is_none(), "byte {at} changed");
        }
        assert!(Kept::parse(whole[..whole.len() - 3].to_vec()).is_none());
        assert_eq!(
            path_beside(Path::new("/r/.git/sitemapgen-sources-ab")),
            Path::new("/r/.git/sitemapgen-texts-ab")
        );
    }
}
