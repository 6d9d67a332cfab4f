//! The seal that proves a view's file ours: one line of exact form holding the BLAKE3
//! hash of every other byte of the file, a record of what we wrote that travels with
//! it. It ends the file, but in `llms.txt`, whose readers take every line of its last
//! part for a link, where it follows the header (the `# ` name, and the `> ` summary
//! when there is one). Nothing is searched for: a page that quotes our words is never
//! ours, and a file of ours edited since is the user's, never replaced or removed.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

/// What a seal starts with, before its hash.
const START: &[u8] = b"<!-- sitemapgen checksum ";

/// What a seal ends with, after its hash.
const END: &[u8] = b"; edit this file and sitemapgen leaves it alone -->\n";

/// How many bytes of the hash a seal shows, in hex: 128 bits, so no file of the user's
/// ever matches by chance.
const HASH_BYTES: usize = 16;

/// A seal's length in bytes.
const LEN: usize = START.len() + 2 * HASH_BYTES + END.len();

/// How far into a file its header may reach: a name and a summary of the lengths the
/// views write ([`crate::page::TITLE_LIMIT`], [`crate::page::DESCRIPTION_LIMIT`]),
/// escaped, fit many times over.
const HEADER_WITHIN: u64 = 64 * 1024;

/// The seal of the bytes `hasher` has taken.
fn seal(hasher: &blake3::Hasher) -> [u8; LEN] {
    let hash = hasher.finalize();
    let hex = hash.to_hex();
    let mut line = [0; LEN];
    let hex = &hex.as_bytes()[..2 * HASH_BYTES];
    let parts = [START, hex, END];
    let mut at = 0;
    for part in parts {
        line[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    line
}

/// Where a view's seal is ([`super::table::Description::seal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seal {
    /// At the end: the view may be streamed out, hashed on the way ([`Sealing`]).
    End,
    /// Right after the header (`# ` name, `> ` summary), for files whose last part is
    /// read as links to the end (`llms.txt`); the view is made in memory first.
    AfterHeader,
}

/// A view as it is streamed out, hashed on the way, so that [`Sealing::end`] can seal it.
pub(super) struct Sealing<'a> {
    out: &'a mut dyn Write,
    hasher: blake3::Hasher,
}

impl<'a> Sealing<'a> {
    pub(super) fn new(out: &'a mut dyn Write) -> Sealing<'a> {
        let hasher = blake3::Hasher::new();
        Sealing { out, hasher }
    }

    /// Writes the seal of everything written through, ending the file.
    pub(super) fn end(self) -> io::Result<()> {
        self.out.write_all(&seal(&self.hasher))
    }
}

impl Write for Sealing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Seals `text`, a whole view whose header ends at byte `header`, where `seal` says.
pub(super) fn insert(text: &mut Vec<u8>, place: Seal, header: usize) {
    let at = match place {
        Seal::End => text.len(),
        Seal::AfterHeader => header,
    };
    let mut hasher = blake3::Hasher::new();
    hasher.update(&text[..at]);
    hasher.update(&text[at..]);
    let line = seal(&hasher);
    text.splice(at..at, line);
}

/// Whether `file`, a regular file open for reading, is a view of ours: whether it
/// carries our seal of its bytes, at its end or after its header. Reads it through at
/// most once (a file with no seal in either place is not hashed at all) and leaves it at
/// its start.
pub fn proves(file: &File) -> io::Result<bool> {
    proves_in(file, None)
}

/// [`proves`], looking only where a view of `place` has its seal when given: the end of
/// a Markdown twin is one read, where its header would be a scan of up to 64 KiB (the
/// sweep meets every `.md` file of a site).
pub(super) fn proves_in(mut file: &File, place: Option<Seal>) -> io::Result<bool> {
    let len = file.metadata()?.len();
    let header = match place {
        Some(Seal::End) => None,
        _ => after_header(file)?,
    };
    let end = match place {
        Some(Seal::AfterHeader) => None,
        _ => len.checked_sub(LEN as u64),
    };
    let places = [end, header];
    let mut ours = false;
    for at in places.into_iter().flatten() {
        if sealed_at(file, at, len)? {
            ours = true;
            break;
        }
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(ours)
}

/// Where a seal after the header would be: after the `# ` line and the blank line
/// that follows it, and the `> ` line and its blank line when there is one.
fn after_header(mut file: &File) -> io::Result<Option<u64>> {
    file.seek(SeekFrom::Start(0))?;
    let mut lines = BufReader::new(file.take(HEADER_WITHIN));
    let mut at = 0;
    let mut line = Vec::new();
    let mut next = |line: &mut Vec<u8>| -> io::Result<usize> {
        line.clear();
        lines.read_until(b'\n', line)
    };
    at += next(&mut line)?;
    if !line.starts_with(b"# ") || !line.ends_with(b"\n") || next(&mut line)? != 1 {
        return Ok(None);
    }
    at += 1;
    let summary = next(&mut line)?;
    if line.starts_with(b"> ") && line.ends_with(b"\n") {
        if next(&mut line)? != 1 || line != b"\n" {
            return Ok(None);
        }
        at += summary + 1;
    }
    Ok(Some(at as u64))
}

/// Whether the seal of the file's other bytes is at byte `at` of it, `len` bytes long.
fn sealed_at(mut file: &File, at: u64, len: u64) -> io::Result<bool> {
    let mut found = [0; LEN];
    file.seek(SeekFrom::Start(at))?;
    match file.read_exact(&mut found) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    if !found.starts_with(START) || !found.ends_with(END) {
        return Ok(false);
    }
    let mut hasher = blake3::Hasher::new();
    file.seek(SeekFrom::Start(0))?;
    let before = io::copy(&mut file.take(at), &mut hasher)?;
    file.seek(SeekFrom::Start(at + LEN as u64))?;
    let after = io::copy(
        &mut file.take(len.saturating_sub(at + LEN as u64)),
        &mut hasher,
    )?;
    // A file that changed size while read is not what we wrote.
    Ok(before + after + LEN as u64 == len && found == seal(&hasher))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proven(text: &[u8]) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("view");
        std::fs::write(&path, text).unwrap();
        proves(&File::open(&path).unwrap()).unwrap()
    }

    fn sealed(text: &str, at: usize) -> Vec<u8> {
        let mut text = text.as_bytes().to_vec();
        insert(&mut text, Seal::AfterHeader, at);
        text
    }

    /// A file is ours only when our seal of its other bytes is where the views put it:
    /// the words alone prove nothing, and an edit makes the file the user's.
    #[test]
    fn only_a_seal_of_the_whole_file_in_its_place_proves_it_ours() {
        let llms =
            "# Site\n\n> About\n\nThis index lists 1 page.\n\n## Docs\n\n- [A](https://e.org/a)\n";
        let section = "# Site: Docs\n\nThis index lists 1 page.\n";
        let html = "<!DOCTYPE html>\n<html>\n</html>\n";
        let header = "# Site\n\n> About\n\n".len();
        let quoted = format!("# Notes\n\n{}", String::from_utf8_lossy(&sealed("", 0)));
        let mut edited = sealed(llms, header);
        edited.extend(b"- [B](https://e.org/b)\n");
        let mut moved = sealed(html, html.len());
        moved.rotate_right(LEN);
        let table: &[(&str, Vec<u8>, bool)] = &[
            ("html, sealed at the end", sealed(html, html.len()), true),
            ("llms.txt, after the summary", sealed(llms, header), true),
            ("a section's, after its name", sealed(section, 14), true),
            ("an empty file, sealed", sealed("", 0), true),
            (
                "llms.txt, sealed at the end",
                sealed(llms, llms.len()),
                true,
            ),
            ("the seal elsewhere", sealed(llms, 2), false),
            ("the seal first in html", moved, false),
            ("a seal of other bytes, quoted", quoted.into_bytes(), false),
            ("edited after sealing", edited, false),
            ("no seal", llms.as_bytes().to_vec(), false),
            ("shorter than a seal", b"# A\n".to_vec(), false),
        ];
        for (what, text, ours) in table {
            assert_eq!(proven(text), *ours, "{what}");
        }
    }

    #[test]
    fn a_streamed_view_is_sealed_as_a_whole_one_is() {
        let mut streamed = Vec::new();
        let mut sealing = Sealing::new(&mut streamed);
        sealing.write_all(b"<html>\n").unwrap();
        sealing.write_all(b"</html>\n").unwrap();
        sealing.end().unwrap();
        assert_eq!(streamed, sealed("<html>\n</html>\n", 15));
        assert!(proven(&streamed));
        assert!(streamed.ends_with(END));
    }

    #[test]
    fn proving_leaves_the_file_at_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("view");
        std::fs::write(&path, sealed("# A\n\nx\n", 5)).unwrap();
        let mut file = File::open(&path).unwrap();
        assert!(proves(&file).unwrap());
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert!(text.starts_with("# A\n\n<!-- sitemapgen checksum "));
    }
}
