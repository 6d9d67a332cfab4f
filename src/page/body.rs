//! What is read from a whole page, in one streamed pass through the one emitter: its
//! images (`images = true`) and its content fingerprint (the `"content"` lastmod
//! source). A run that wants neither reads no more than the head.

use std::io;

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
    body(wants, Streamed(input))
}

/// [`read_body`] of a page held whole in memory (one the head reader read to its end),
/// with the tokenizer's `names` kept from page to page.
pub(crate) fn read_body_bytes(html: &[u8], wants: BodyWants, names: &mut html::Names) -> Body {
    body(wants, Held(html, names)).unwrap_or_default()
}

impl HeadBuffers {
    /// Reads the body of the page the last [`super::read_head`] read to its end (all `size`
    /// bytes: a page shorter than the first read) from what it holds, not from the file
    /// again; `None` when it does not hold the whole page.
    pub(crate) fn read_body_held(&mut self, size: Option<u64>, wants: BodyWants) -> Option<Body> {
        if size? != self.read.len() as u64 {
            return None;
        }
        Some(read_body_bytes(&self.read, wants, &mut self.names))
    }

    /// Forgets the page read: the next page's head is not read.
    pub(crate) fn forget_page(&mut self) {
        self.read.clear();
    }
}

/// One pass of the emitter over a page, into a collector.
trait Pass {
    fn run<C: html::Collect>(self, collector: C) -> io::Result<C>;
}

/// A pass over a page read as it goes.
struct Streamed<R>(R);

impl<R: io::Read> Pass for Streamed<R> {
    fn run<C: html::Collect>(self, collector: C) -> io::Result<C> {
        html::stream(self.0, collector)
    }
}

/// A pass over a page held in memory.
struct Held<'a>(&'a [u8], &'a mut html::Names);

impl Pass for Held<'_> {
    fn run<C: html::Collect>(self, collector: C) -> io::Result<C> {
        Ok(html::stream_bytes(self.0, collector, self.1))
    }
}

fn body(wants: BodyWants, pass: impl Pass) -> io::Result<Body> {
    Ok(match (wants.images, wants.fingerprint) {
        (true, true) => {
            let (images, content) = pass.run((Images::default(), Content::default()))?;
            Body {
                images: Some(images.finish()),
                fingerprint: Some(content.finish()),
            }
        }
        (true, false) => Body {
            images: Some(pass.run(Images::default())?.finish()),
            fingerprint: None,
        },
        (false, true) => Body {
            images: None,
            fingerprint: Some(pass.run(Content::default())?.finish()),
        },
        (false, false) => Body::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let held = read_body_bytes(page.as_bytes(), both, &mut Default::default());
            assert_eq!(held, one, "{page}");
            assert_eq!(one.images, images.images, "{page}");
            assert_eq!(one.fingerprint, fingerprint.fingerprint, "{page}");
            assert!(images.fingerprint.is_none() && fingerprint.images.is_none());
        }
        let none = read_body(&b"<img src=/x.png>"[..], BodyWants::default()).unwrap();
        assert_eq!(none, Body::default());
    }
}
