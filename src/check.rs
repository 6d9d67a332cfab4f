//! `sitemapgen check`: validates existing sitemaps (`.xml`, `.xml.gz`, `.txt`), following
//! a sitemap index to its children on disk.
//!
//! Files are streamed: the reader holds one XML event at a time, and across a whole run
//! only a 64-bit hash and a line number per URL are kept (for duplicates), so checking
//! a 50 MiB sitemap needs a few megabytes, not fifty.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use quick_xml::NsReader;
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;

use crate::robots::Robots;
use crate::sitemap::{NAMESPACE, PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES};
use crate::url::{BaseUrl, MAX_URL_LEN};

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Search engines cope, but something is likely wrong.
    Warning,
    /// The file breaks the protocol.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One problem, at a line of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (of the uncompressed content).
    pub line: u64,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file.display(),
            self.line,
            self.severity,
            self.message
        )
    }
}

/// What a check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Every problem, in the order found.
    pub problems: Vec<Problem>,
    /// Files checked.
    pub files: usize,
    /// URLs (and index entries) checked.
    pub urls: usize,
}

impl Report {
    /// How many problems are errors.
    pub fn errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }

    /// How many problems are warnings.
    pub fn warnings(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count()
    }
}

/// What the checker compares against.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Warn about URLs on another host than this one's.
    pub base_url: Option<BaseUrl>,
    /// "Now", for lastmod in the future.
    pub now: Timestamp,
}

/// `lastmod` this far past now is in the future, whatever the writer's time zone.
const FUTURE_SLACK_SECONDS: i64 = 24 * 3600;

/// More URLs than this with one and the same `lastmod` is the mark of build-time dates.
const SAME_LASTMOD_LIMIT: usize = 100;

/// Checks a sitemap held in memory; `name` (its file name, for the format and in
/// messages) decides between XML and text. An index's children are not followed.
pub fn check_bytes(name: &str, bytes: &[u8], options: &CheckOptions) -> Report {
    let mut checker = Checker {
        options,
        follow: false,
        report: Report::default(),
        seen: HashMap::new(),
        robots: None,
    };
    let path = Path::new(name);
    checker.report.files = 1;
    if name.ends_with(".txt") {
        checker.check_text(path, &mut &bytes[..]);
    } else {
        checker.check_xml(path, &mut &bytes[..], false);
    }
    checker.report
}

/// Checks each path: a sitemap file, or a directory holding `sitemap.xml`.
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> Report {
    let mut checker = Checker {
        options,
        follow: true,
        report: Report::default(),
        seen: HashMap::new(),
        robots: None,
    };
    for path in paths {
        let file = if path.is_dir() {
            path.join("sitemap.xml")
        } else {
            path.clone()
        };
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        // The site's robots.txt sits beside its top-level sitemap.
        checker.robots = Robots::load(&dir, "*").ok().flatten();
        checker.check_file(&file, false);
    }
    checker.report
}

struct Checker<'o> {
    options: &'o CheckOptions,
    /// Follow an index to its children on disk (off for in-memory input).
    follow: bool,
    report: Report,
    /// Hash of every loc seen in this run, with where it was first seen.
    seen: HashMap<u64, (usize, u64)>,
    robots: Option<Robots>,
}

/// Counts the bytes that pass, for the uncompressed size limit.
struct Counting<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// What a file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Urlset,
    Index,
    Other,
}

impl Checker<'_> {
    fn problem(&mut self, file: &Path, line: u64, severity: Severity, message: impl Into<String>) {
        self.report.problems.push(Problem {
            file: file.to_path_buf(),
            line,
            severity,
            message: message.into(),
        });
    }

    fn check_file(&mut self, path: &Path, as_child: bool) -> Root {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                self.problem(path, 0, Severity::Error, format!("cannot read: {e}"));
                return Root::Other;
            }
        };
        self.report.files += 1;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let gz = name.ends_with(".gz");
        let inner: Box<dyn Read> = if gz {
            Box::new(flate2::read::GzDecoder::new(BufReader::new(file)))
        } else {
            Box::new(file)
        };
        let mut input = BufReader::with_capacity(64 * 1024, Counting { inner, bytes: 0 });
        let text = name.trim_end_matches(".gz").ends_with(".txt");
        let root = if text {
            self.check_text(path, &mut input);
            Root::Urlset
        } else {
            self.check_xml(path, &mut input, as_child)
        };
        let bytes = input.get_ref().bytes;
        if bytes > PROTOCOL_MAX_BYTES as u64 {
            self.problem(
                path,
                1,
                Severity::Error,
                format!(
                    "{bytes} bytes uncompressed, over the protocol's 52,428,800 (50 MiB); split it"
                ),
            );
        }
        root
    }

    fn check_text(&mut self, path: &Path, input: &mut impl BufRead) {
        let mut line_no = 0;
        let mut urls = 0;
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    self.problem(
                        path,
                        line_no + 1,
                        Severity::Error,
                        format!("cannot read: {e}"),
                    );
                    return;
                }
            }
            line_no += 1;
            let Ok(text) = std::str::from_utf8(&line) else {
                self.problem(
                    path,
                    line_no,
                    Severity::Error,
                    "not UTF-8; sitemaps must be UTF-8",
                );
                continue;
            };
            let url = text.trim_end_matches(['\n', '\r']);
            if url.trim().is_empty() {
                continue;
            }
            urls += 1;
            if urls == PROTOCOL_MAX_ENTRIES + 1 {
                self.problem(
                    path,
                    line_no,
                    Severity::Error,
                    "more than 50,000 URLs in one file; split it",
                );
            }
            self.check_loc(path, line_no, url);
        }
    }

    fn check_xml(&mut self, path: &Path, input: &mut impl BufRead, as_child: bool) -> Root {
        let mut reader = NsReader::from_reader(input);
        let mut buf = Vec::new();
        let mut line: u64 = 1;
        let mut root: Option<Root> = None;
        // Element names in the sitemap namespace, root first; None for foreign elements.
        let mut stack: Vec<Option<String>> = Vec::new();
        let mut entry = Entry::default();
        let mut text = String::new();
        let mut entries = 0usize;
        let mut lastmods = SameLastmod::default();
        let mut children: Vec<(String, u64)> = Vec::new();
        loop {
            buf.clear();
            let (ns, event) = match reader.read_resolved_event_into(&mut buf) {
                Ok(ev) => ev,
                Err(e) => {
                    // The parser's text may quote the document, newlines and all.
                    let detail = crate::one_line(&e.to_string());
                    let message = if matches!(e, quick_xml::Error::Encoding(_)) {
                        format!("not UTF-8 ({detail}); sitemaps must be UTF-8")
                    } else {
                        format!("not well-formed XML: {detail}")
                    };
                    self.problem(path, line, Severity::Error, message);
                    return root.unwrap_or(Root::Other);
                }
            };
            let event_line = line;
            line += newlines(&event);
            let in_ns = matches!(ns, ResolveResult::Bound(n) if n.as_ref() == NAMESPACE);
            match event {
                Event::Decl(decl) => {
                    if let Some(Ok(enc)) = decl.encoding() {
                        let enc = shorten(&enc);
                        if !enc.eq_ignore_ascii_case("utf-8") {
                            self.problem(
                                path,
                                event_line,
                                Severity::Error,
                                format!("declares encoding {enc}; sitemaps must be UTF-8"),
                            );
                        }
                    }
                }
                Event::Start(ref e) | Event::Empty(ref e) => {
                    let local = e.local_name().into_inner().to_string();
                    let empty = matches!(event, Event::Empty(_));
                    if root.is_none() {
                        let kind = match (in_ns, local.as_str()) {
                            (true, "urlset") => Root::Urlset,
                            (true, "sitemapindex") => Root::Index,
                            _ => {
                                let ns = match ns {
                                    ResolveResult::Bound(n) => shorten(n.as_ref()),
                                    _ => "no namespace".to_string(),
                                };
                                self.problem(
                                    path,
                                    event_line,
                                    Severity::Error,
                                    format!("root element is <{local}> in {ns}; a sitemap's root is <urlset> or <sitemapindex> in {NAMESPACE}"),
                                );
                                return Root::Other;
                            }
                        };
                        if kind == Root::Index && as_child {
                            self.problem(
                                path,
                                event_line,
                                Severity::Error,
                                "a sitemap index listed in a sitemap index; indexes may not nest",
                            );
                            return Root::Index;
                        }
                        root = Some(kind);
                        stack.push(Some(local));
                        if empty {
                            stack.pop();
                        }
                        continue;
                    }
                    let parent_foreign = stack.iter().any(Option::is_none);
                    if !in_ns || parent_foreign {
                        if !empty {
                            stack.push(None);
                        }
                        continue;
                    }
                    let entry_tag = if root == Some(Root::Index) {
                        "sitemap"
                    } else {
                        "url"
                    };
                    let depth = stack.len();
                    let fields: &[&str] = if root == Some(Root::Index) {
                        &["loc", "lastmod"]
                    } else {
                        &["loc", "lastmod", "changefreq", "priority"]
                    };
                    let allowed = (depth == 1 && local == entry_tag)
                        || (depth == 2 && fields.contains(&local.as_str()));
                    if !allowed {
                        let parent = stack.last().cloned().flatten().unwrap_or_default();
                        self.problem(
                            path,
                            event_line,
                            Severity::Error,
                            format!("unexpected <{local}> in <{parent}>"),
                        );
                    }
                    if depth == 1 && local == entry_tag {
                        entry = Entry {
                            line: event_line,
                            ..Entry::default()
                        };
                        entries += 1;
                        if entries == PROTOCOL_MAX_ENTRIES + 1 {
                            let what = if root == Some(Root::Index) {
                                "sitemaps in one index"
                            } else {
                                "URLs in one file"
                            };
                            self.problem(
                                path,
                                event_line,
                                Severity::Error,
                                format!("more than 50,000 {what}; split it"),
                            );
                        }
                    }
                    text.clear();
                    if empty {
                        self.end_element(
                            path,
                            event_line,
                            root,
                            &local,
                            &mut entry,
                            "",
                            &mut lastmods,
                            &mut children,
                        );
                    } else {
                        stack.push(Some(local));
                    }
                }
                Event::Text(t) => {
                    text.push_str(&t);
                }
                Event::CData(t) => {
                    text.push_str(&t);
                }
                Event::GeneralRef(r) => {
                    let resolved = match r.resolve_char_ref() {
                        Ok(Some(c)) => Some(c.to_string()),
                        _ => match r.as_ref() {
                            "amp" => Some("&".into()),
                            "lt" => Some("<".into()),
                            "gt" => Some(">".into()),
                            "apos" => Some("'".into()),
                            "quot" => Some("\"".into()),
                            _ => None,
                        },
                    };
                    match resolved {
                        Some(s) => text.push_str(&s),
                        None => {
                            let name = shorten(r.as_ref());
                            self.problem(
                                path,
                                event_line,
                                Severity::Error,
                                format!("undefined entity &{name}; (escape & as &amp;)"),
                            );
                        }
                    }
                }
                Event::End(_) => {
                    let Some(top) = stack.pop() else { continue };
                    if let Some(local) = top {
                        let value = std::mem::take(&mut text);
                        self.end_element(
                            path,
                            event_line,
                            root,
                            &local,
                            &mut entry,
                            &value,
                            &mut lastmods,
                            &mut children,
                        );
                    }
                }
                Event::Eof => {
                    if root.is_none() {
                        self.problem(
                            path,
                            event_line,
                            Severity::Error,
                            "no root element: the file is empty or not XML",
                        );
                        return Root::Other;
                    }
                    if !stack.is_empty() {
                        self.problem(
                            path,
                            event_line,
                            Severity::Error,
                            "not well-formed XML: the file ends before its root element is closed",
                        );
                    }
                    break;
                }
                _ => {}
            }
        }
        if root == Some(Root::Urlset) {
            lastmods.finish(self, path);
        }
        if root == Some(Root::Index) && self.follow {
            self.follow_children(path, children);
        }
        root.unwrap_or(Root::Other)
    }

    #[allow(clippy::too_many_arguments)]
    fn end_element(
        &mut self,
        path: &Path,
        line: u64,
        root: Option<Root>,
        local: &str,
        entry: &mut Entry,
        value: &str,
        lastmods: &mut SameLastmod,
        children: &mut Vec<(String, u64)>,
    ) {
        match local {
            "loc" => {
                entry.has_loc = true;
                let loc = value.trim();
                if loc != value {
                    self.problem(
                        path,
                        line,
                        Severity::Warning,
                        "whitespace around <loc>; write the URL alone",
                    );
                }
                self.check_loc(path, line, loc);
                if root == Some(Root::Index) {
                    children.push((loc.to_string(), line));
                }
            }
            "lastmod" => {
                let value = value.trim();
                match w3c_datetime(value) {
                    Some(ts) => {
                        lastmods.add(value, line);
                        let future = ts.as_second() > self.options.now.as_second() + FUTURE_SLACK_SECONDS;
                        if future {
                            self.problem(path, line, Severity::Warning, format!("lastmod {} is in the future", shorten(value)));
                        }
                    }
                    None => self.problem(
                        path,
                        line,
                        Severity::Error,
                        format!("lastmod '{}' is not a W3C Datetime (e.g. 2024-03-05 or 2024-03-05T10:20:30+00:00)", shorten(value)),
                    ),
                }
            }
            "changefreq" => {
                const VALUES: [&str; 7] = [
                    "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
                ];
                if !VALUES.contains(&value.trim()) {
                    self.problem(
                        path,
                        line,
                        Severity::Error,
                        format!(
                            "changefreq '{}' is not one of {}",
                            shorten(value.trim()),
                            VALUES.join(", ")
                        ),
                    );
                }
            }
            "priority" => {
                let v = value.trim();
                let decimal = !v.is_empty()
                    && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                    && v.bytes().filter(|&b| b == b'.').count() <= 1
                    && v != ".";
                if !decimal || !v.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p)) {
                    self.problem(
                        path,
                        line,
                        Severity::Error,
                        format!("priority '{}' is not a number from 0.0 to 1.0", shorten(v)),
                    );
                }
            }
            "url" | "sitemap" if !entry.has_loc => {
                let line = entry.line;
                self.problem(
                    path,
                    line,
                    Severity::Error,
                    format!("<{local}> without <loc>"),
                );
            }
            _ => {}
        }
    }

    fn check_loc(&mut self, path: &Path, line: u64, loc: &str) {
        self.report.urls += 1;
        if loc.len() >= MAX_URL_LEN {
            self.problem(
                path,
                line,
                Severity::Error,
                format!(
                    "URL is {} characters; the protocol allows fewer than 2,048",
                    loc.len()
                ),
            );
        }
        if let Some(bad) = needs_encoding(loc) {
            self.problem(
                path,
                line,
                Severity::Error,
                format!(
                    "URL holds {bad}, which must be percent-encoded: {}",
                    shorten(loc)
                ),
            );
        }
        match url::Url::parse(loc) {
            Ok(u) if (u.scheme() == "http" || u.scheme() == "https") && u.host().is_some() => {
                if let Some(base) = &self.options.base_url
                    && let Ok(base) = url::Url::parse(base.as_str())
                    && u.host_str() != base.host_str()
                {
                    self.problem(
                        path,
                        line,
                        Severity::Warning,
                        format!(
                            "URL is on {}, not on {}",
                            u.host_str().unwrap_or(""),
                            base.host_str().unwrap_or("")
                        ),
                    );
                }
            }
            _ => {
                self.problem(
                    path,
                    line,
                    Severity::Error,
                    format!("'{}' is not an absolute http(s) URL", shorten(loc)),
                );
                return;
            }
        }
        let mut hasher = DefaultHasher::new();
        loc.hash(&mut hasher);
        let file_index = self.report.files;
        match self.seen.entry(hasher.finish()) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let (index, first_line) = *first.get();
                let where_ = if index == file_index {
                    format!("line {first_line}")
                } else {
                    "another file of this check".to_string()
                };
                self.problem(
                    path,
                    line,
                    Severity::Warning,
                    format!("duplicate URL (also at {where_}): {}", shorten(loc)),
                );
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((file_index, line));
            }
        }
        if let Some(robots) = &self.robots
            && !robots.allows(loc)
        {
            let robots_path = robots.path.display().to_string();
            self.problem(
                path,
                line,
                Severity::Warning,
                format!("URL is blocked by {robots_path}: {}", shorten(loc)),
            );
        }
    }

    /// Checks each child an index names, found on disk by its URL path: the longest tail
    /// of the path that exists beside the index.
    fn follow_children(&mut self, index: &Path, children: Vec<(String, u64)>) {
        let dir = index.parent().map(Path::to_path_buf).unwrap_or_default();
        for (loc, line) in children {
            let Ok(url) = url::Url::parse(&loc) else {
                continue;
            };
            let segments: Vec<String> = url
                .path_segments()
                .map(|s| {
                    s.map(|seg| {
                        percent_encoding::percent_decode_str(seg)
                            .decode_utf8_lossy()
                            .into_owned()
                    })
                    .collect()
                })
                .unwrap_or_default();
            let found = (0..segments.len())
                .map(|i| segments[i..].iter().fold(dir.clone(), |p, s| p.join(s)))
                .find(|p| p.is_file());
            match found {
                Some(child) => {
                    self.check_file(&child, true);
                }
                None => {
                    let name = segments.last().cloned().unwrap_or_default();
                    self.problem(
                        index,
                        line,
                        Severity::Error,
                        format!(
                            "child sitemap {} is missing on disk (no {} beside the index)",
                            shorten(&loc),
                            crate::one_line(&dir.join(name).display().to_string())
                        ),
                    );
                }
            }
        }
    }
}

#[derive(Debug, Default)]
struct Entry {
    line: u64,
    has_loc: bool,
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
        if let (true, Some((value, line))) =
            (self.all_same && self.count > SAME_LASTMOD_LIMIT, self.first)
        {
            checker.problem(
                path,
                line,
                Severity::Warning,
                format!(
                    "all {} URLs have lastmod {value}: the mark of build-time dates (see lastmod sources \"git\" and \"content\")",
                    self.count
                ),
            );
        }
    }
}

fn newlines(event: &Event) -> u64 {
    // An event's text is everything of the document but its `<`, `>` and the like.
    let text: &str = event;
    text.bytes().filter(|&b| b == b'\n').count() as u64
}

/// The first character in `loc` that RFC 3986 requires to be percent-encoded, if any.
fn needs_encoding(loc: &str) -> Option<String> {
    let bytes = loc.as_bytes();
    for (i, c) in loc.char_indices() {
        let bad = match c {
            ' ' => Some("a space".to_string()),
            '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`' => Some(format!("'{c}'")),
            c if c.is_control() => Some(format!("control character U+{:04X}", c as u32)),
            c if !c.is_ascii() => Some(format!("non-ASCII '{c}'")),
            '%' => {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                (!(hex(i + 1) && hex(i + 2)))
                    .then(|| "a '%' not followed by two hex digits".to_string())
            }
            _ => None,
        };
        if bad.is_some() {
            return bad;
        }
    }
    None
}

/// A value for a one-line message: control characters escaped, long values cut.
fn shorten(s: &str) -> String {
    let escaped = crate::one_line(s);
    if escaped.chars().count() > 120 {
        format!("{}...", escaped.chars().take(117).collect::<String>())
    } else {
        escaped
    }
}

/// Parses the W3C Datetime profile the protocol uses: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or
/// a date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s+` and a zone (`Z` or `±hh:mm`).
/// Returns the moment it starts, in UTC.
///
/// Written by hand: W3C Datetime is a narrow profile of ISO 8601 (years alone, a zone
/// required with a time) that general date parsers accept too much or too little of;
/// the calendar checks themselves are jiff's.
pub fn w3c_datetime(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i16>().ok();
    if !digits(0..4) {
        return None;
    }
    let year = num(0..4)?;
    let (month, day) = match b.len() {
        4 => (1, 1),
        7 if b[4] == b'-' && digits(5..7) => (num(5..7)?, 1),
        n if n >= 10 && b[4] == b'-' && b[7] == b'-' && digits(5..7) && digits(8..10) => {
            (num(5..7)?, num(8..10)?)
        }
        _ => return None,
    };
    let date = jiff::civil::Date::new(year, month as i8, day as i8).ok()?;
    if b.len() <= 10 {
        return date
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp());
    }
    if b[10] != b'T' || !digits(11..13) || b.get(13) != Some(&b':') || !digits(14..16) {
        return None;
    }
    let mut i = 16;
    let mut second = 0;
    if b.get(i) == Some(&b':') {
        if !digits(i + 1..i + 3) {
            return None;
        }
        second = num(i + 1..i + 3)?;
        i += 3;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = start;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    let offset_seconds = match &b[i..] {
        b"Z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]
            if [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()) =>
        {
            let h = i32::from((h1 - b'0') * 10 + (h2 - b'0'));
            let m = i32::from((m1 - b'0') * 10 + (m2 - b'0'));
            if h > 23 || m > 59 {
                return None;
            }
            let total = h * 3600 + m * 60;
            if *sign == b'-' { -total } else { total }
        }
        _ => return None,
    };
    let time =
        jiff::civil::Time::new(num(11..13)? as i8, num(14..16)? as i8, second as i8, 0).ok()?;
    let offset = jiff::tz::Offset::from_seconds(offset_seconds).ok()?;
    date.to_datetime(time)
        .to_zoned(jiff::tz::TimeZone::fixed(offset))
        .ok()
        .map(|z| z.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> CheckOptions {
        CheckOptions {
            base_url: None,
            now: Timestamp::from_second(1_800_000_000).unwrap(),
        }
    }

    #[test]
    fn w3c_datetimes_are_recognised_exactly() {
        let ok = [
            ("2024", "2024-01-01T00:00:00Z"),
            ("2024-03", "2024-03-01T00:00:00Z"),
            ("2024-03-05", "2024-03-05T00:00:00Z"),
            ("2024-03-05T10:20+01:00", "2024-03-05T09:20:00Z"),
            ("2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"),
            ("2024-03-05T10:20:30.123456-05:30", "2024-03-05T15:50:30Z"),
        ];
        for (s, want) in ok {
            assert_eq!(
                w3c_datetime(s).map(|t| t.to_string()).as_deref(),
                Some(want),
                "{s}"
            );
        }
        let bad = [
            "",
            "24",
            "2024-3-5",
            "2024-13-01",
            "2024-02-30",
            "2024-03-05T10:20:30",
            "2024-03-05 10:20:30Z",
            "2024-03-05T10:20:30+0100",
            "2024-03-05T25:00:00Z",
            "2024-03-05T10:20:30.Z",
            "Tue, 05 Mar 2024",
            "2024-03-05T10Z",
            "2024-03-05Z",
        ];
        for s in bad {
            assert!(w3c_datetime(s).is_none(), "{s}");
        }
    }

    /// Found by fuzzing (check_parser, crash-c8524f6b): a namespace URI with newlines
    /// was quoted raw, so one problem took several lines of output.
    #[test]
    fn fuzz_crash_namespace_with_newlines_stays_on_one_line() {
        let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org\n  <loc>x</loc>\n\">\n</urlset>\n";
        let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
        assert_eq!(report.errors(), 1);
        let line = report.problems[0].to_string();
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.starts_with(
                "sitemap.xml:2: error: root element is <urlset> in http://www.sitemaps.org\\n"
            ),
            "{line}"
        );
    }

    /// Every problem of `report` prints on one line.
    fn assert_one_line_each(report: &Report) {
        assert!(
            report
                .problems
                .iter()
                .all(|p| !p.to_string().contains('\n')),
            "{:?}",
            report.problems
        );
    }

    /// Found by fuzzing (check_parser, crash-d2688bec): a declared encoding with a
    /// newline was quoted raw.
    #[test]
    fn fuzz_crash_encoding_with_newline_stays_on_one_line() {
        let xml = "<?xml version=\"1.0\" encoding=\"ut\nf-8\"?>\n<urlset/>\n";
        let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
        assert_one_line_each(&report);
        assert!(
            report.problems[0]
                .message
                .contains("declares encoding ut\\nf-8"),
            "{:?}",
            report.problems
        );
    }

    /// Found by fuzzing (check_parser, crash-4f35b97b): a parse error quoting the
    /// document spanned lines, and its text mentioning UTF-8 made it "not UTF-8".
    #[test]
    fn fuzz_crash_parse_error_quoting_the_document() {
        let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>x</<?xml encoding=\"loc>\nUTF-8\"?>\n";
        let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
        let line = report.problems[0].to_string();
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("not well-formed XML"), "{line}");
    }

    /// Found by fuzzing (check_parser, crash-77918233): an undefined entity's name,
    /// newlines included, was quoted raw.
    #[test]
    fn fuzz_crash_undefined_entity_with_newline() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>&op\ng/;</loc></url></urlset>";
        let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
        assert!(!report.problems.is_empty());
        assert_one_line_each(&report);
    }

    #[test]
    fn characters_that_need_encoding_are_named() {
        let table = [
            ("https://e.org/a%20b", None),
            ("https://e.org/a b", Some("a space")),
            ("https://e.org/ü", Some("non-ASCII 'ü'")),
            ("https://e.org/<x>", Some("'<'")),
            ("https://e.org/\"", Some("'\"'")),
            (
                "https://e.org/100%",
                Some("a '%' not followed by two hex digits"),
            ),
            (
                "https://e.org/%zz",
                Some("a '%' not followed by two hex digits"),
            ),
            ("https://e.org/a?b=c&d=e;f", None),
        ];
        for (loc, want) in table {
            assert_eq!(needs_encoding(loc).as_deref(), want, "{loc}");
        }
    }
}
