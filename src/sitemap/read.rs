//! Reading sitemaps back, streamed: the one XML reader of `check`, `index`, the stale-child
//! probe and the tests.
//!
//! Two layers. [`Tokens`] gives a document's events one at a time, each with its resolved
//! namespace and the line it starts on, references left to [`reference()`]; `check` reads
//! at this level, since it reports on every part of a file. [`Document`] builds on it:
//! the root element's kind, then one [`Entry`] (`<url>` or `<sitemap>`) at a time, its
//! values decoded (text, CDATA and references alike).
//!
//! What a hostile file can make it hold is bounded: the input is read through
//! `crate::fsutil::open_content` (regular files only, gunzipped, capped in bytes), no
//! value is kept past `crate::text::KEPT_BYTES` (`Bounded`), a [`Document`] refuses
//! elements nested deeper than [`MAX_DEPTH`], and stops at its first problem, so it
//! keeps one.

use std::io::{self, BufRead};
use std::path::Path;
use std::sync::Arc;

use quick_xml::NsReader;
use quick_xml::events::{BytesRef, Event};
use quick_xml::name::ResolveResult;

use crate::text::Bounded;

/// The deepest a [`Document`]'s elements may nest: a sitemap's are at most five deep
/// (`urlset`, `url`, `video:video`, `video:price`), so past this it is no sitemap.
pub const MAX_DEPTH: usize = 64;

/// One event of a document, with where it is.
#[derive(Debug)]
pub struct Token<'a> {
    /// The line (1-based) the event starts on.
    pub line: u64,
    /// The namespace of an element's name (`Unbound` for other events).
    pub ns: ResolveResult<'a>,
    /// The event, as quick-xml gives it: text undecoded, references apart.
    pub event: Event<'a>,
}

/// Why a document could not be read on.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{detail}")]
pub struct XmlError {
    /// The line reading stopped at.
    pub line: u64,
    /// What stopped it.
    pub kind: XmlErrorKind,
    /// quick-xml's account of it, on one line.
    pub detail: String,
}

/// What stopped the reading of a document.
#[derive(Debug, Clone)]
pub enum XmlErrorKind {
    /// The input failed, or went past its byte limit (`crate::fsutil::too_large`).
    Io(Arc<io::Error>),
    /// It is not in the encoding it declares (sitemaps are UTF-8).
    Encoding,
    /// It is not well-formed XML.
    Syntax,
}

/// A document's events, one at a time, each with its line: see [`Token`].
pub struct Tokens<R> {
    reader: NsReader<R>,
    buf: Vec<u8>,
    line: u64,
}

impl<R: BufRead> Tokens<R> {
    /// Reads `input` from its start.
    pub fn new(input: R) -> Tokens<R> {
        Tokens {
            reader: NsReader::from_reader(input),
            buf: Vec::new(),
            line: 1,
        }
    }

    /// The line reading is at: where the next event starts, or where the file ended.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The next event (`Event::Eof` at the end).
    pub fn next_token(&mut self) -> Result<Token<'_>, XmlError> {
        self.buf.clear();
        let line = self.line;
        let (ns, event) = match self.reader.read_resolved_event_into(&mut self.buf) {
            Ok(read) => read,
            Err(e) => {
                // The parser's text may quote the document, newlines and all.
                let detail = crate::text::one_line(&e.to_string());
                let kind = match e {
                    quick_xml::Error::Io(e) => XmlErrorKind::Io(e),
                    quick_xml::Error::Encoding(_) => XmlErrorKind::Encoding,
                    _ => XmlErrorKind::Syntax,
                };
                return Err(XmlError { line, kind, detail });
            }
        };
        self.line += newlines(&event);
        Ok(Token { line, ns, event })
    }
}

/// The newlines in an event: its text is everything of the document but its `<`, `>`
/// and the like.
fn newlines(event: &Event) -> u64 {
    let text: &str = event;
    text.bytes().filter(|&b| b == b'\n').count() as u64
}

/// The character an XML reference stands for: a character reference (`#38`, `#x26`) or
/// one of the five predefined entities (`amp`, `lt`, `gt`, `apos`, `quot`); `None` for
/// anything else (an undefined entity: a sitemap has no DTD to define one) and for the
/// character 0.
pub fn reference(r: &BytesRef) -> Option<char> {
    // quick-xml reads hexadecimal references with a lowercase x only, as XML writes
    // them; earlier versions of this tool took `&#X26;` too, and still do.
    if let Some(hex) = r.as_ref().strip_prefix("#X") {
        return reference(&BytesRef::new(format!("#x{hex}")));
    }
    match r.resolve_char_ref() {
        Ok(Some(c)) => Some(c),
        Ok(None) => {
            quick_xml::escape::resolve_xml_entity(r.as_ref()).and_then(|s| s.chars().next())
        }
        Err(_) => None,
    }
}

/// A document's root element, by its local name (whatever its namespace).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// `<urlset>`: a sitemap.
    Urlset,
    /// `<sitemapindex>`: a sitemap index.
    Index,
    /// Another element, by its local name.
    Other(String),
}

impl Root {
    fn of(local: &str) -> Root {
        match local {
            "urlset" => Root::Urlset,
            "sitemapindex" => Root::Index,
            other => Root::Other(other.to_string()),
        }
    }

    /// The root element's local name.
    pub fn name(&self) -> &str {
        match self {
            Root::Urlset => "urlset",
            Root::Index => "sitemapindex",
            Root::Other(name) => name,
        }
    }
}

/// One `<url>` of a sitemap or `<sitemap>` of an index: its values as written (not
/// trimmed), references decoded; each kept up to `crate::text::KEPT_BYTES`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// The line its element starts on.
    pub line: u64,
    /// `<loc>`, measured whole: see `Bounded::is_whole`.
    pub loc: Bounded,
    /// `<lastmod>`.
    pub lastmod: Option<String>,
    /// `<changefreq>` (sitemaps only).
    pub changefreq: Option<String>,
    /// `<priority>` (sitemaps only).
    pub priority: Option<String>,
}

/// The values an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Loc,
    Lastmod,
    Changefreq,
    Priority,
}

impl Field {
    fn of(local: &str) -> Option<Field> {
        Some(match local {
            "loc" => Field::Loc,
            "lastmod" => Field::Lastmod,
            "changefreq" => Field::Changefreq,
            "priority" => Field::Priority,
            _ => return None,
        })
    }
}

/// Why a [`Document`] could not be read on.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ReadError {
    /// Not readable, or not well-formed XML.
    #[error(transparent)]
    Xml(#[from] XmlError),
    /// A reference to an entity XML does not define.
    #[error("undefined entity &{name};")]
    UndefinedEntity {
        /// The entity's name, as written.
        name: String,
        /// Where.
        line: u64,
    },
    /// Elements nested deeper than [`MAX_DEPTH`].
    #[error("elements nest deeper than {MAX_DEPTH}")]
    TooDeep {
        /// Where.
        line: u64,
    },
}

/// A sitemap or index read one entry at a time: [`Document::root`] first, then
/// [`Document::next_entry`] (or the iterator) until `None`. Elements are told by their
/// local names: an entry is a child of the root, its values its children; a self-closed
/// entry holds nothing and is passed over.
pub struct Document<R> {
    tokens: Tokens<R>,
    at: Reading,
    /// An error was returned: there is no more.
    failed: bool,
}

/// Where a [`Document`]'s reading stands.
#[derive(Default)]
struct Reading {
    /// `None` until the root element is read; `Some(None)`: the document has none.
    root: Option<Option<Root>>,
    depth: usize,
    entry: Option<Entry>,
    field: Option<Field>,
    value: Bounded,
}

impl<R: BufRead> Document<R> {
    /// Reads `input` from its start.
    pub fn new(input: R) -> Document<R> {
        Document {
            tokens: Tokens::new(input),
            at: Reading::default(),
            failed: false,
        }
    }

    /// The root element's kind; `None` when the document has none (empty, or not XML).
    pub fn root(&mut self) -> Result<Option<&Root>, ReadError> {
        while self.at.root.is_none() {
            self.step()?;
        }
        Ok(self.at.root.as_ref().and_then(Option::as_ref))
    }

    /// The next entry; `None` at the end.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        loop {
            match self.step() {
                Ok(Step::Entry(entry)) => return Ok(Some(entry)),
                Ok(Step::End) => return Ok(None),
                Ok(Step::Go) => {}
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
    }

    /// Reads one event.
    fn step(&mut self) -> Result<Step, ReadError> {
        let token = self.tokens.next_token()?;
        let line = token.line;
        let at = &mut self.at;
        match token.event {
            Event::Start(ref e) | Event::Empty(ref e) if at.root.is_none() => {
                at.root = Some(Some(Root::of(e.local_name().into_inner())));
                at.depth = usize::from(matches!(token.event, Event::Start(_)));
            }
            Event::Start(e) => {
                at.depth += 1;
                if at.depth > MAX_DEPTH {
                    return Err(ReadError::TooDeep { line });
                }
                at.opened(e.local_name().into_inner(), line);
            }
            Event::Empty(e) if at.depth == 2 && at.entry.is_some() => {
                at.value.clear();
                at.field = Field::of(e.local_name().into_inner());
                at.store();
            }
            Event::Text(t) => at.text(&t),
            Event::CData(t) => at.text(&t),
            Event::GeneralRef(r) => match reference(&r) {
                Some(c) => at.text(c.encode_utf8(&mut [0; 4])),
                None => {
                    let name = r.to_string();
                    return Err(ReadError::UndefinedEntity { name, line });
                }
            },
            Event::End(_) => return Ok(at.closed()),
            Event::Eof => {
                at.root.get_or_insert(None);
                return Ok(Step::End);
            }
            _ => {}
        }
        Ok(Step::Go)
    }
}

impl Reading {
    fn opened(&mut self, local: &str, line: u64) {
        match self.depth {
            2 => {
                self.entry = Some(Entry {
                    line,
                    ..Entry::default()
                });
            }
            3 if self.entry.is_some() => {
                self.value.clear();
                self.field = Field::of(local);
            }
            _ => {}
        }
    }

    fn text(&mut self, text: &str) {
        if self.depth == 3 && self.field.is_some() {
            self.value.push(text);
        }
    }

    fn closed(&mut self) -> Step {
        self.depth = self.depth.saturating_sub(1);
        match self.depth {
            2 => self.store(),
            1 => {
                if let Some(entry) = self.entry.take() {
                    return Step::Entry(entry);
                }
            }
            _ => {}
        }
        Step::Go
    }

    /// Keeps the value just read in its field of the entry.
    fn store(&mut self) {
        let (Some(field), Some(entry)) = (self.field.take(), self.entry.as_mut()) else {
            return;
        };
        let value = std::mem::take(&mut self.value);
        match field {
            Field::Loc => entry.loc = value,
            Field::Lastmod => entry.lastmod = Some(value.as_str().to_string()),
            Field::Changefreq => entry.changefreq = Some(value.as_str().to_string()),
            Field::Priority => entry.priority = Some(value.as_str().to_string()),
        }
    }
}

impl<R: BufRead> Iterator for Document<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_entry().transpose()
    }
}

/// What one event of a [`Document`] came to.
enum Step {
    Go,
    Entry(Entry),
    End,
}

/// The root element of the file at `path` (gunzipped when gzipped), reading no more than
/// its first 64 KiB; `None` when it has none there or cannot be read.
pub fn root_of(path: &Path) -> Option<Root> {
    root_in_file(crate::fsutil::open_regular(path).ok()?)
}

/// [`root_of`] the regular file `name` in the held directory `dir`, opened through no
/// link.
pub fn root_in(dir: &crate::fsutil::dir::Dir, name: &std::ffi::OsStr) -> Option<Root> {
    root_in_file(dir.open_regular(name).ok()??)
}

fn root_in_file(file: std::fs::File) -> Option<Root> {
    let input = crate::fsutil::content(file, 64 * 1024).ok()?;
    Document::new(input).root().ok().flatten().cloned()
}

#[cfg(test)]
mod tests;
