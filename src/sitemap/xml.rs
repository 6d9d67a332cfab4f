//! The XML of a sitemap: entries, the urlset and index documents, and the writer that
//! gzips them or not.

use std::borrow::Borrow;
use std::io::{self, BufWriter, Write};

use super::{Child, EntryRef, EntrySlice, IMAGE_NAMESPACE, NAMESPACE, XHTML_NAMESPACE};
use crate::w3c::{self, LastmodFormat};

// One writer for entries and indexes: constant tags are written as bytes, and every
// value inside them goes through quick-xml's escaping (the bytes its `Writer` writes,
// which the tests pin, without its events: most of the time spent on a URL).
pub(super) const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
pub(super) const URLSET_CLOSE: &str = "</urlset>\n";
pub(super) const INDEX_OPEN: &str =
    "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

/// The namespaces a `<urlset>` declares besides the sitemap's: each only when some entry
/// of the file uses it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Extensions {
    pub xhtml: bool,
    pub image: bool,
}

impl Extensions {
    pub(super) fn of(entries: EntrySlice) -> Extensions {
        Extensions {
            xhtml: entries.iter().any(|e| e.alternates().next().is_some()),
            image: entries.iter().any(|e| e.images().next().is_some()),
        }
    }
}

/// The declaration, and the link to a stylesheet for browsers when there is one.
pub(super) fn prolog(stylesheet: Option<&str>) -> String {
    match stylesheet {
        Some(href) => format!(
            "{DECLARATION}<?xml-stylesheet type=\"text/xsl\" href=\"{}\"?>\n",
            quick_xml::escape::escape(href)
        ),
        None => DECLARATION.to_string(),
    }
}

/// The prolog and the `<urlset>` start tag.
pub(super) fn urlset_open(extensions: Extensions, stylesheet: Option<&str>) -> String {
    let mut open = format!("{}<urlset xmlns=\"{NAMESPACE}\"", prolog(stylesheet));
    if extensions.xhtml {
        open.push_str(&format!(" xmlns:xhtml=\"{XHTML_NAMESPACE}\""));
    }
    if extensions.image {
        open.push_str(&format!(" xmlns:image=\"{IMAGE_NAMESPACE}\""));
    }
    open.push_str(">\n");
    open
}
pub(super) const INDEX_CLOSE: &str = "</sitemapindex>\n";

/// A file's bytes on their way out, gzipped or not. flate2's gzip header carries no
/// time or name, so the same sitemap gives the same bytes (and child name) every run.
pub(super) enum MaybeGzip<W: Write> {
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
}

impl<W: Write> MaybeGzip<W> {
    pub(super) fn new(inner: W, gzip: bool) -> MaybeGzip<W> {
        if gzip {
            MaybeGzip::Gzip(flate2::write::GzEncoder::new(
                inner,
                flate2::Compression::default(),
            ))
        } else {
            MaybeGzip::Plain(inner)
        }
    }

    /// Ends the gzip stream, if any, and hands back the inner writer.
    pub(super) fn finish(self) -> io::Result<W> {
        match self {
            MaybeGzip::Plain(w) => Ok(w),
            MaybeGzip::Gzip(gz) => gz.finish(),
        }
    }
}

impl<W: Write> Write for MaybeGzip<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            MaybeGzip::Plain(w) => w.write(buf),
            MaybeGzip::Gzip(gz) => gz.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            MaybeGzip::Plain(w) => w.flush(),
            MaybeGzip::Gzip(gz) => gz.flush(),
        }
    }
}

/// Space kept from entry to entry: the URL being written, the last date's text.
#[derive(Default)]
pub(super) struct Scratch {
    pub loc: String,
    pub lastmod: w3c::Formatted,
}

/// Serialises one entry (with its indentation) into `buf`.
pub(super) fn write_entry(
    buf: &mut Vec<u8>,
    entry: EntryRef,
    format: LastmodFormat,
    scratch: &mut Scratch,
) -> io::Result<()> {
    buf.extend_from_slice(b"  <url>\n    ");
    let loc = &mut scratch.loc;
    entry.loc().write_into(loc);
    text_element(buf, "loc", loc);
    if let Some(ts) = entry.lastmod() {
        buf.extend_from_slice(b"\n    ");
        text_element(buf, "lastmod", scratch.lastmod.get(ts, format));
    }
    if let Some(c) = entry.changefreq() {
        buf.extend_from_slice(b"\n    ");
        text_element(buf, "changefreq", c.as_str());
    }
    if let Some(p) = entry.priority() {
        buf.extend_from_slice(b"\n    ");
        text_element(buf, "priority", &p.to_string());
    }
    for (hreflang, href) in entry.alternates() {
        buf.extend_from_slice(b"\n    ");
        alternate_link(buf, hreflang, href);
    }
    for image in entry.images() {
        buf.extend_from_slice(b"\n    <image:image>\n      ");
        text_element(buf, "image:loc", image);
        buf.extend_from_slice(b"\n    </image:image>");
    }
    buf.extend_from_slice(b"\n  </url>\n");
    Ok(())
}

/// `<name>text</name>`, the text escaped by quick-xml, as its writer writes a text
/// element: without the writer's events, which were most of the time spent on a URL
/// (written after the walk, with a core idle).
fn text_element(buf: &mut Vec<u8>, name: &str, text: &str) {
    buf.push(b'<');
    buf.extend_from_slice(name.as_bytes());
    buf.push(b'>');
    buf.extend_from_slice(quick_xml::escape::escape(text).as_bytes());
    buf.extend_from_slice(b"</");
    buf.extend_from_slice(name.as_bytes());
    buf.push(b'>');
}

/// An `<xhtml:link rel="alternate">`, as quick-xml's writer writes one, without the
/// owned copy of its attributes the writer makes (an allocation per link).
fn alternate_link(buf: &mut Vec<u8>, hreflang: &str, href: &str) {
    buf.extend_from_slice(b"<xhtml:link rel=\"alternate\" hreflang=\"");
    buf.extend_from_slice(quick_xml::escape::escape(hreflang).as_bytes());
    buf.extend_from_slice(b"\" href=\"");
    buf.extend_from_slice(quick_xml::escape::escape(href).as_bytes());
    buf.extend_from_slice(b"\"/>");
}

/// Writes a sitemap index naming each child (its URL and newest lastmod), as entries
/// are written.
pub(super) fn write_index<W: Write>(
    sink: W,
    children: &[impl Borrow<Child>],
    format: LastmodFormat,
    stylesheet: Option<&str>,
) -> io::Result<W> {
    let mut w = BufWriter::new(sink);
    let mut buf = [prolog(stylesheet).as_bytes(), INDEX_OPEN.as_bytes()].concat();
    for child in children {
        let child = child.borrow();
        buf.extend_from_slice(b"  <sitemap>\n    ");
        text_element(&mut buf, "loc", &child.loc);
        if let Some(ts) = child.lastmod {
            buf.extend_from_slice(b"\n    ");
            text_element(&mut buf, "lastmod", &w3c::format(ts, format));
        }
        buf.extend_from_slice(b"\n  </sitemap>\n");
        w.write_all(&buf)?;
        buf.clear();
    }
    w.write_all(INDEX_CLOSE.as_bytes())?;
    w.into_inner().map_err(io::IntoInnerError::into_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quick_xml::Writer;
    use quick_xml::events::BytesText;

    /// A text element and an alternate link are written as quick-xml's writer writes
    /// them.
    #[test]
    fn text_elements_are_quick_xmls() {
        for text in [
            "https://e.org/a?b=1&c=<2>",
            "it's \"q\"",
            "é 文 \u{7f}",
            "",
            "plain",
        ] {
            let mut ours = Vec::new();
            text_element(&mut ours, "image:loc", text);
            let mut theirs = Writer::new(Vec::new());
            theirs
                .create_element("image:loc")
                .write_text_content(BytesText::new(text))
                .unwrap();
            assert_eq!(ours, theirs.into_inner(), "{text:?}");
            let mut ours = Vec::new();
            alternate_link(&mut ours, text, text);
            let mut theirs = Writer::new(Vec::new());
            theirs
                .create_element("xhtml:link")
                .with_attributes([("rel", "alternate"), ("hreflang", text), ("href", text)])
                .write_empty()
                .unwrap();
            assert_eq!(ours, theirs.into_inner(), "{text:?}");
        }
    }
}
