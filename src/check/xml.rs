//! Checking an XML sitemap or sitemap index, streamed one event at a time.

use std::io::BufRead;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::name::ResolveResult;

use super::feed::Feed;
use super::loc::{Role, is_priority};
use super::{Checker, Root, SAME_LASTMOD_LIMIT, Severity, shorten};
use crate::rules::Changefreq;
use crate::sitemap::read::{Token, Tokens, XmlError, XmlErrorKind, reference};
use crate::sitemap::{IMAGE_NAMESPACE, NAMESPACE, PROTOCOL_MAX_ENTRIES, XHTML_NAMESPACE};
use crate::w3c;

/// The stack's name for an `<image:loc>`, whose text is checked: a name no element of the
/// sitemap namespace has.
const IMAGE_LOC: &str = "image:loc";
use crate::text::Bounded;

/// `lastmod` this far past now is in the future, whatever the writer's time zone.
const FUTURE_SLACK_SECONDS: i64 = 24 * 3600;

/// An element's namespace, as far as the checker cares.
enum Ns {
    /// The sitemap namespace.
    Sitemap,
    /// Another, declared namespace (an extension such as images or hreflang).
    Foreign(String),
    /// No namespace.
    None,
    /// A prefix that no `xmlns:` declares.
    Undeclared(String),
}

impl Ns {
    fn of(ns: &ResolveResult) -> Ns {
        match ns {
            ResolveResult::Bound(n) if n.as_ref() == NAMESPACE => Ns::Sitemap,
            ResolveResult::Bound(n) => Ns::Foreign(shorten(n.as_ref())),
            ResolveResult::Unbound => Ns::None,
            ResolveResult::Unknown(p) => Ns::Undeclared(shorten(p.as_ref())),
        }
    }
}

/// One `<url>` or `<sitemap>` entry being read.
#[derive(Debug, Default)]
struct Entry {
    line: u64,
    /// The fields met so far, each allowed once.
    fields: Vec<&'static str>,
}

/// Where the reading of one XML file stands.
struct XmlFile<'p> {
    path: &'p Path,
    as_child: bool,
    root: Option<Root>,
    /// The root element is closed: only comments and whitespace may follow.
    closed: bool,
    /// Something came before, so an XML declaration now is out of place.
    started: bool,
    /// Text outside the root element was reported (once per file is enough).
    stray_text: bool,
    /// Undeclared namespace prefixes reported (each once per file).
    undeclared: Vec<String>,
    /// Element names in the sitemap namespace, root first; None for foreign elements.
    stack: Vec<Option<String>>,
    entry: Entry,
    /// The current element's value.
    text: Bounded,
    /// The line the current element's value starts on.
    text_line: Option<u64>,
    entries: usize,
    lastmods: SameLastmod,
    children: Vec<(String, u64)>,
}

/// An element as it opens.
struct Opened<'a> {
    ns: Ns,
    local: &'a str,
    /// Self-closed (`<x/>`).
    empty: bool,
    line: u64,
}

/// What to do after an event.
enum Flow {
    Go,
    Stop,
}

impl Checker<'_> {
    /// Checks an XML sitemap or index; returns what its root turned out to be.
    pub(super) fn check_xml(
        &mut self,
        path: &Path,
        input: &mut impl BufRead,
        as_child: bool,
    ) -> Root {
        let mut tokens = Tokens::new(input);
        let mut file = XmlFile {
            path,
            as_child,
            root: None,
            closed: false,
            started: false,
            stray_text: false,
            undeclared: Vec::new(),
            stack: Vec::new(),
            entry: Entry::default(),
            text: Bounded::default(),
            text_line: None,
            entries: 0,
            lastmods: SameLastmod::default(),
            children: Vec::new(),
        };
        loop {
            let Token { line, ns, event } = match tokens.next_token() {
                Ok(token) => token,
                Err(e) => {
                    let XmlError { line, kind, detail } = e;
                    match kind {
                        XmlErrorKind::Io(e) => self.read_error(path, line, &e),
                        XmlErrorKind::Encoding => {
                            let message = format!("not UTF-8 ({detail}); sitemaps must be UTF-8");
                            self.stopped(path, line, message);
                        }
                        XmlErrorKind::Syntax => {
                            self.stopped(path, line, format!("not well-formed XML: {detail}"));
                        }
                    }
                    return file.root.unwrap_or(Root::Other);
                }
            };
            if matches!(event, Event::Eof) {
                break;
            }
            if let Flow::Stop = self.xml_event(&mut file, Ns::of(&ns), event, line) {
                return file.root.unwrap_or(Root::Other);
            }
        }
        let line = tokens.line();
        self.xml_end_of_file(file, line)
    }

    fn xml_event(&mut self, file: &mut XmlFile, ns: Ns, event: Event, line: u64) -> Flow {
        let started = std::mem::replace(&mut file.started, true);
        match event {
            Event::Decl(decl) => {
                if started && !file.stray_text {
                    let message = "the XML declaration must be the very first thing in the file; remove what comes before it (a blank line, a byte-order mark of another encoding)";
                    self.problem(file.path, line, Severity::Error, message);
                }
                if let Some(Ok(enc)) = decl.encoding() {
                    let enc = shorten(&enc);
                    if !enc.eq_ignore_ascii_case("utf-8") {
                        let message = format!("declares encoding {enc}; sitemaps must be UTF-8");
                        self.problem(file.path, line, Severity::Error, message);
                    }
                }
            }
            Event::Start(ref e) | Event::Empty(ref e) => {
                let local = local_name(e);
                let xhtml = matches!(&ns, Ns::Foreign(n) if n == XHTML_NAMESPACE);
                if xhtml && local == "link" && file.root == Some(Root::Urlset) {
                    self.xml_alternate(file.path, e, line);
                }
                let empty = matches!(event, Event::Empty(_));
                let opened = Opened {
                    ns,
                    local: &local,
                    empty,
                    line,
                };
                return self.xml_start(file, opened);
            }
            Event::Text(t) => self.xml_text(file, &t, line),
            Event::CData(t) => self.xml_text(file, &t, line),
            Event::GeneralRef(r) => self.xml_reference(file, &r, line),
            Event::End(_) => self.xml_end(file, line),
            _ => {}
        }
        Flow::Go
    }

    fn xml_start(&mut self, file: &mut XmlFile, opened: Opened) -> Flow {
        let Opened {
            ref ns,
            local,
            empty,
            line,
        } = opened;
        if file.closed {
            let message = format!(
                "a second root element <{local}> after the first is closed; a file has one root"
            );
            self.stopped(file.path, line, message);
            return Flow::Stop;
        }
        if let Ns::Undeclared(prefix) = &ns
            && !file.undeclared.contains(prefix)
        {
            file.undeclared.push(prefix.clone());
            let message = format!(
                "namespace prefix '{prefix}' is not declared; add xmlns:{prefix}=\"...\" to the root element"
            );
            self.problem(file.path, line, Severity::Error, message);
        }
        if file.root.is_none() {
            return self.xml_root(file, opened);
        }
        let parent_foreign = file.stack.iter().any(Option::is_none);
        if !matches!(ns, Ns::Sitemap) || parent_foreign {
            let image_loc = matches!(&ns, Ns::Foreign(n) if n == IMAGE_NAMESPACE)
                && local == "loc"
                && file.root == Some(Root::Urlset);
            if image_loc && !empty {
                file.text.clear();
                file.text_line = None;
                file.stack.push(Some(IMAGE_LOC.to_string()));
            } else if !empty {
                file.stack.push(None);
            }
            return Flow::Go;
        }
        let depth = file.stack.len();
        self.xml_sitemap_element(file, local, line);
        file.text.clear();
        file.text_line = None;
        if empty {
            self.xml_element_done(file, local, line);
            if depth == 0 {
                file.closed = true;
            }
        } else {
            file.stack.push(Some(local.to_string()));
        }
        Flow::Go
    }

    /// An element of the sitemap namespace: allowed where it is, and an entry counted.
    fn xml_sitemap_element(&mut self, file: &mut XmlFile, local: &str, line: u64) {
        let index = file.root == Some(Root::Index);
        let entry_tag = if index { "sitemap" } else { "url" };
        let fields: &[&str] = if index {
            &["loc", "lastmod"]
        } else {
            &["loc", "lastmod", "changefreq", "priority"]
        };
        let depth = file.stack.len();
        let allowed = (depth == 1 && local == entry_tag) || (depth == 2 && fields.contains(&local));
        if !allowed {
            let parent = file.stack.last().cloned().flatten().unwrap_or_default();
            let message = format!("unexpected <{local}> in <{parent}>");
            self.problem(file.path, line, Severity::Error, message);
        }
        if depth == 1 && local == entry_tag {
            file.entry = Entry {
                line,
                fields: Vec::new(),
            };
            file.entries += 1;
            if file.entries == PROTOCOL_MAX_ENTRIES + 1 {
                let what = if index {
                    "sitemaps in one index"
                } else {
                    "URLs in one file"
                };
                let message = format!("more than 50,000 {what}; split it");
                self.problem(file.path, line, Severity::Error, message);
            }
        }
    }

    fn xml_root(&mut self, file: &mut XmlFile, opened: Opened) -> Flow {
        let Opened {
            ns,
            local,
            empty,
            line,
        } = opened;
        let kind = match (&ns, local) {
            (Ns::Sitemap, "urlset") => Root::Urlset,
            (Ns::Sitemap, "sitemapindex") => Root::Index,
            _ if file.as_child && feed_root(&ns, local).is_some() => {
                // Read again from the start by the feed checker.
                file.root = feed_root(&ns, local).map(Root::Feed);
                return Flow::Stop;
            }
            _ => {
                let ns = match ns {
                    Ns::Foreign(n) => n,
                    _ => "no namespace".to_string(),
                };
                let message = format!(
                    "root element is <{local}> in {ns}; a sitemap's root is <urlset> or <sitemapindex> in {NAMESPACE}"
                );
                self.problem(file.path, line, Severity::Error, message);
                return Flow::Stop;
            }
        };
        if kind == Root::Index && file.as_child {
            // Reported by the index that lists it, naming both; its children are not
            // followed.
            file.root = Some(kind);
            return Flow::Stop;
        }
        file.root = Some(kind);
        if empty {
            self.xml_root_closed(file, line);
        } else {
            file.stack.push(Some(local.to_string()));
        }
        Flow::Go
    }

    fn xml_text(&mut self, file: &mut XmlFile, text: &str, line: u64) {
        let Some(at) = text.find(|c: char| !c.is_whitespace()) else {
            file.text.push(text);
            return;
        };
        if file.stack.is_empty() {
            if !file.stray_text {
                file.stray_text = true;
                let where_ = if file.closed { "after" } else { "before" };
                let first = text[at..].lines().next().unwrap_or_default();
                let message = format!(
                    "text {where_} the root element ('{}'): a sitemap is XML alone (front matter or a template left in?)",
                    shorten(first)
                );
                let line = line + text[..at].matches('\n').count() as u64;
                self.problem(file.path, line, Severity::Error, message);
            }
            return;
        }
        if file.text_line.is_none() {
            file.text_line = Some(line + text[..at].matches('\n').count() as u64);
        }
        file.text.push(text);
    }

    fn xml_reference(&mut self, file: &mut XmlFile, r: &quick_xml::events::BytesRef, line: u64) {
        match reference(r) {
            Some(c) => {
                file.text_line.get_or_insert(line);
                file.text.push(c.encode_utf8(&mut [0; 4]));
            }
            None => {
                let name = shorten(r.as_ref());
                let message = format!("undefined entity &{name}; (escape & as &amp;)");
                self.problem(file.path, line, Severity::Error, message);
            }
        }
    }

    fn xml_end(&mut self, file: &mut XmlFile, line: u64) {
        let Some(top) = file.stack.pop() else { return };
        if file.stack.is_empty() {
            self.xml_root_closed(file, line);
            return;
        }
        if let Some(local) = top {
            let value_line = file.text_line.take().unwrap_or(line);
            self.xml_element_done(file, &local, value_line);
        }
        file.text.clear();
    }

    fn xml_root_closed(&mut self, file: &mut XmlFile, line: u64) {
        file.closed = true;
        if file.entries == 0 {
            let (root, entry) = match file.root {
                Some(Root::Index) => ("sitemapindex", "sitemap"),
                _ => ("urlset", "url"),
            };
            let message =
                format!("<{root}> holds no <{entry}>; the protocol requires at least one");
            self.problem(file.path, line, Severity::Error, message);
        }
    }

    fn xml_end_of_file(&mut self, file: XmlFile, line: u64) -> Root {
        let Some(root) = file.root else {
            let message = "no root element: the file is empty or not XML";
            self.problem(file.path, line, Severity::Error, message);
            return Root::Other;
        };
        if !file.closed {
            let message = "not well-formed XML: the file ends before its root element is closed";
            self.problem(file.path, line, Severity::Error, message);
        }
        if root == Root::Urlset {
            file.lastmods.finish(self, file.path);
        }
        if root == Root::Index && self.follow {
            self.follow_children(file.path, file.children);
        }
        root
    }

    /// Checks a finished element of the sitemap namespace; `line` is where its value
    /// starts.
    fn xml_element_done(&mut self, file: &mut XmlFile, local: &str, line: u64) {
        let value = std::mem::take(&mut file.text);
        if local == IMAGE_LOC {
            return self.xml_image_loc(file, &value, line);
        }
        const FIELDS: [&str; 4] = ["loc", "lastmod", "changefreq", "priority"];
        if let Some(field) = FIELDS.iter().find(|f| **f == local) {
            if file.entry.fields.contains(field) {
                let parent = if file.root == Some(Root::Index) {
                    "sitemap"
                } else {
                    "url"
                };
                let message = format!("a second <{local}> in one <{parent}>; each appears once");
                self.problem(file.path, line, Severity::Error, message);
                return;
            }
            file.entry.fields.push(field);
        }
        if local == "loc" {
            return self.xml_loc(file, &value, line);
        }
        let value = value.as_str();
        match local {
            "lastmod" => self.check_lastmod(file, value.trim(), line),
            "changefreq" if !Changefreq::ALL.iter().any(|c| c.as_str() == value.trim()) => {
                let values: Vec<&str> = Changefreq::ALL.iter().map(|c| c.as_str()).collect();
                let message = format!(
                    "changefreq '{}' is not one of {}",
                    shorten(value.trim()),
                    values.join(", ")
                );
                self.problem(file.path, line, Severity::Error, message);
            }
            "priority" if !is_priority(value.trim()) => {
                let message = format!(
                    "priority '{}' is not a number from 0.0 to 1.0",
                    shorten(value.trim())
                );
                self.problem(file.path, line, Severity::Error, message);
            }
            "url" | "sitemap" if !file.entry.fields.contains(&"loc") => {
                let message = format!("<{local}> without <loc>");
                self.problem(file.path, file.entry.line, Severity::Error, message);
            }
            _ => {}
        }
    }

    /// A `<loc>`'s value: checked, and an index's kept to follow.
    /// An `<image:loc>`: an absolute, percent-encoded http(s) URL, as Google's image
    /// extension requires.
    fn xml_image_loc(&mut self, file: &XmlFile, value: &Bounded, line: u64) {
        if !value.is_whole() {
            return self.long_loc(file.path, line, value.len(), Role::Image);
        }
        self.check_image(file.path, line, value.as_str().trim());
    }

    fn xml_loc(&mut self, file: &mut XmlFile, value: &Bounded, line: u64) {
        if !value.is_whole() {
            self.long_loc(file.path, line, value.len(), Role::Page);
            return;
        }
        let value = value.as_str();
        let loc = value.trim();
        if loc != value {
            let message = "whitespace around <loc>; write the URL alone";
            self.problem(file.path, line, Severity::Warning, message);
        }
        if file.root == Some(Root::Index) {
            self.check_loc(file.path, line, loc, Role::Child);
            // Past the protocol's limit the index is in error already; following more
            // would let a hostile one hold a million children in memory.
            if file.children.len() < PROTOCOL_MAX_ENTRIES {
                file.children.push((loc.to_string(), line));
            }
        } else {
            self.check_loc(file.path, line, loc, Role::Page);
        }
    }

    fn check_lastmod(&mut self, file: &mut XmlFile, value: &str, line: u64) {
        match w3c::parse(value) {
            Some(ts) => {
                file.lastmods.add(value, line);
                if ts.as_second() > self.options.now.as_second() + FUTURE_SLACK_SECONDS {
                    let message = format!("lastmod {} is in the future", shorten(value));
                    self.problem(file.path, line, Severity::Warning, message);
                }
            }
            None if value == "0000" || value.starts_with("0000-") => {
                let message = format!(
                    "lastmod '{}' is in year 0000, which the sitemap schema's dates do not have (1 BC is -0001); give the real date",
                    shorten(value)
                );
                self.problem(file.path, line, Severity::Error, message);
            }
            None => {
                let message = format!(
                    "lastmod '{}' is not a W3C Datetime (e.g. 2024-03-05 or 2024-03-05T10:20:30+00:00)",
                    shorten(value)
                );
                self.problem(file.path, line, Severity::Error, message);
            }
        }
    }
}

/// The feed a root element starts (see [`Feed::of_root`]).
fn feed_root(ns: &Ns, local: &str) -> Option<Feed> {
    let resolved = match ns {
        Ns::None => ResolveResult::Unbound,
        Ns::Foreign(n) => ResolveResult::Bound(quick_xml::name::Namespace(n)),
        _ => return None,
    };
    Feed::of_root(&resolved, local)
}

fn local_name(e: &quick_xml::events::BytesStart) -> String {
    e.local_name().into_inner().to_string()
}

/// Tracks whether every `lastmod` of a file is one and the same value.
#[derive(Debug, Default)]
struct SameLastmod {
    first: Option<(String, u64)>,
    count: usize,
    all_same: bool,
}

impl SameLastmod {
    fn add(&mut self, value: &str, line: u64) {
        self.count += 1;
        match &self.first {
            None => {
                self.first = Some((value.to_string(), line));
                self.all_same = true;
            }
            Some((first, _)) => self.all_same &= first == value,
        }
    }

    fn finish(self, checker: &mut Checker, path: &Path) {
        let (true, Some((value, line))) =
            (self.all_same && self.count > SAME_LASTMOD_LIMIT, self.first)
        else {
            return;
        };
        // Only a sitemap this tool wrote is fixed by its own settings.
        let fix = if checker.options.written_by_us {
            "see lastmod sources \"git\" and \"content\""
        } else {
            "each page's lastmod should be the date its content last changed"
        };
        let message = format!(
            "all {} URLs have lastmod {value}: the mark of build-time dates, which search engines learn to ignore ({fix})",
            crate::text::thousands(self.count)
        );
        checker.problem(path, line, Severity::Warning, message);
    }
}
