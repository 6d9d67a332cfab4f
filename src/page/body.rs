//! What is read from a whole page, in one streamed pass through the one emitter: its
//! images (`images = true`) and its content fingerprint (the `"content"` lastmod
//! source). A run that wants neither reads no more than the head.

use std::io::{self, Read as _};

use super::HeadBuffers;
use crate::html;
use crate::images::{Images, Sources};
use crate::lastmod::content::{Content, Fingerprint};

/// What a whole page is read for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BodyWants {
    /// Its image sources.
    pub images: bool,
    /// Its content fingerprint.
    pub fingerprint: bool,
}

/// What a whole page gave, each part when it was wanted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Body {
    /// Its image sources, as written.
    pub images: Option<Sources>,
    /// Its content fingerprint (see [`crate::lastmod::content`]).
    pub fingerprint: Option<Fingerprint>,
}

/// Reads the page from `input` to its end (streamed, never held whole) for what `wants`
/// asks, in one pass; nothing is read when nothing is wanted.
pub fn read_body(input: impl io::Read, wants: BodyWants) -> io::Result<Body> {
    body(wants, Streamed(input), &mut Collectors::default())
}

/// [`read_body`] of a page held whole in memory: the same result, read by a fast scan
/// where it follows the tokenizer exactly (see `html/scan.rs`).
pub fn read_body_held(html: &[u8], wants: BodyWants) -> Body {
    body(
        wants,
        Held(html, &mut html::Names::default()),
        &mut Collectors::default(),
    )
    .unwrap_or_default()
}

/// The collectors a worker keeps from page to page (see [`html::Reset`]).
#[derive(Default)]
pub(crate) struct Collectors {
    images: Images,
    content: Content,
}

impl std::fmt::Debug for Collectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Collectors")
    }
}

/// The longest page read whole into memory for the fast scan (`html/scan.rs`); a longer
/// one is streamed through html5gum, 64 KiB at a time. A worker keeps a buffer this long
/// at most.
const MAX_HELD: u64 = 1024 * 1024;

impl HeadBuffers {
    /// Reads the body of the page in `file`, of `size` bytes, whose head the last
    /// `read_page` read: nothing more when that read it with its head (`one_pass.rs`),
    /// else read again from the start, whole into memory when it is short enough.
    pub(crate) fn read_body(
        &mut self,
        mut file: impl io::Read + io::Seek,
        size: Option<u64>,
        wants: BodyWants,
    ) -> io::Result<Body> {
        if self.body_read.take() == Some(wants) {
            return Ok(finish(wants, &mut self.collectors));
        }
        file.seek(io::SeekFrom::Start(0))?;
        if size.is_some_and(|s| s <= MAX_HELD) {
            let whole = &mut self.whole;
            whole.clear();
            (&mut file).take(MAX_HELD + 1).read_to_end(whole)?;
            if whole.len() as u64 <= MAX_HELD {
                let pass = Held(whole, &mut self.names);
                return body(wants, pass, &mut self.collectors);
            }
            // It grew since its size was taken.
            file.seek(io::SeekFrom::Start(0))?;
        }
        body(wants, Streamed(file), &mut self.collectors)
    }

    /// Forgets the page read: the next page's head is not read, so its body is read anew.
    pub(crate) fn forget_page(&mut self) {
        self.body_read = None;
    }
}

/// One pass of the emitter over a page, into a collector.
pub(super) trait Pass {
    fn run<C: html::Collect + html::Reset>(self, collector: &mut C) -> io::Result<()>;
}

/// A pass over a page read as it goes.
struct Streamed<R>(R);

impl<R: io::Read> Pass for Streamed<R> {
    fn run<C: html::Collect + html::Reset>(self, collector: &mut C) -> io::Result<()> {
        html::stream(self.0, collector).map(drop)
    }
}

/// A pass over a page held in memory.
pub(super) struct Held<'a>(pub &'a [u8], pub &'a mut html::Names);

impl Pass for Held<'_> {
    fn run<C: html::Collect + html::Reset>(self, collector: &mut C) -> io::Result<()> {
        html::read_held(self.0, collector, self.1);
        Ok(())
    }
}

fn body(wants: BodyWants, pass: impl Pass, kept: &mut Collectors) -> io::Result<Body> {
    collect(wants, pass, kept)?;
    Ok(finish(wants, kept))
}

/// Runs `pass` into the collectors `wants` asks for, emptied first.
pub(super) fn collect(wants: BodyWants, pass: impl Pass, kept: &mut Collectors) -> io::Result<()> {
    use html::Reset;
    let Collectors { images, content } = kept;
    images.reset();
    content.reset();
    match (wants.images, wants.fingerprint) {
        (true, true) => pass.run(&mut (&mut *images, &mut *content)),
        (true, false) => pass.run(images),
        (false, true) => pass.run(content),
        (false, false) => Ok(()),
    }
}

/// What the collectors `wants` asks for gathered in the last [`collect`].
fn finish(wants: BodyWants, kept: &mut Collectors) -> Body {
    let Collectors { images, content } = kept;
    Body {
        images: wants.images.then(|| images.finish()),
        fingerprint: wants.fingerprint.then(|| content.finish()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of `n` paragraphs, each with an image.
    fn page_of(n: usize) -> String {
        let p = "<p>words <b>and</b> &amp; more <img src=/i.png alt=x></p>\n";
        format!("<title>T</title><main>{}</main>", p.repeat(n))
    }

    /// A worker's reader gives one body whether the page was read in one pass with its
    /// head, read again whole, or too long for that and streamed.
    #[test]
    fn every_length_of_page_reads_the_same() {
        let both = BodyWants {
            images: true,
            fingerprint: true,
        };
        let options = super::super::HeadOptions::default();
        let mut buffers = HeadBuffers::default();
        for n in [1, 20, 2_000, 25_000] {
            let page = page_of(n);
            let size = Some(page.len() as u64);
            let mut file = io::Cursor::new(page.as_bytes());
            super::super::read_page(&mut file, &options, size, &mut buffers, both).unwrap();
            let read = buffers.read_body(&mut file, size, both).unwrap();
            let alone = read_body(page.as_bytes(), both).unwrap();
            assert_eq!(read, alone, "{n}");
            assert!(read.images.is_some_and(|i| i.sources.len() == 1));
            assert!(buffers.whole.capacity() as u64 <= 2 * MAX_HELD + 2);
        }
        assert!(page_of(25_000).len() as u64 > MAX_HELD && page_of(2_000).len() > 64 * 1024);
    }

    /// One pass for both gives what a pass for each gives, on pages that exercise both
    /// (regions, head, skipped elements, repeated and bare attributes).
    #[test]
    fn one_pass_reads_as_two() {
        let pages = [
            "",
            "<p>text only",
            r#"<!DOCTYPE html><html><head><meta property="og:image" content="/og.png">
               <base href="/b/"><script>if (a < b) {}</script></head><body><nav>
               <img src="/nav.png"></nav><main><h1>T</h1><img src srcset="/s.png 2x">
               <a href="/x.1a2b3c4d.html?v=1">x</a><img alt=" A " src="/m.png" src="/n.png">
               <noscript><img src="/ns.png"></noscript><template><p>t</template></main>
               <article><img src="/a.png"></article></body></html>"#,
            "<title>x</title><img src=/i.png><!-- c --><style>p{}</style><p>a  b",
        ];
        let both = BodyWants {
            images: true,
            fingerprint: true,
        };
        let images = BodyWants {
            images: true,
            ..BodyWants::default()
        };
        let fingerprint = BodyWants {
            fingerprint: true,
            ..BodyWants::default()
        };
        for page in pages {
            let one = read_body(page.as_bytes(), both).unwrap();
            let images = read_body(page.as_bytes(), images).unwrap();
            let fingerprint = read_body(page.as_bytes(), fingerprint).unwrap();
            let held = read_body_held(page.as_bytes(), both);
            assert_eq!(held, one, "{page}");
            assert_eq!(one.images, images.images, "{page}");
            assert_eq!(one.fingerprint, fingerprint.fingerprint, "{page}");
            assert!(images.fingerprint.is_none() && fingerprint.images.is_none());
        }
        // Collectors kept from page to page read each page as fresh ones do, in any order.
        let mut kept = Collectors::default();
        let mut names = html::Names::default();
        for page in pages.iter().chain(pages.iter().rev()) {
            let pass = Held(page.as_bytes(), &mut names);
            let read = body(both, pass, &mut kept).unwrap();
            assert_eq!(read, read_body_held(page.as_bytes(), both), "{page}");
        }
        let none = read_body(&b"<img src=/x.png>"[..], BodyWants::default()).unwrap();
        assert_eq!(none, Body::default());
    }
}
