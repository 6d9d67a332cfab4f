//! Turning a file's path under the public directory into its absolute public URL.
//!
//! The mapping works on the path's raw bytes, so names that are not UTF-8, or that are
//! in a Unicode normalisation form other than NFC, come out exactly as the web server
//! will see them on disk.

use std::path::Path;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::slash::segments;

/// The protocol's URL length limit, defined with the bounded values read from sitemaps
/// (text sits below this module, so the constant lives there).
pub use crate::text::MAX_URL_LEN;

/// Bytes that are percent-encoded in a path segment: everything but RFC 3986's
/// `unreserved`, `sub-delims`, `:` and `@` (the `pchar` production).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    // unreserved
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    // sub-delims
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    // the rest of pchar
    .remove(b':')
    .remove(b'@');

/// An error in the configured base URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("base_url '{url}' {problem}")]
pub struct BaseUrlError {
    /// The value as the user wrote it.
    pub url: String,
    /// What is wrong with it, and how to fix it.
    pub problem: String,
}

/// The site's base URL, parsed and normalised once: scheme and host lower-cased, an
/// internationalised host in punycode, the default port dropped, and the path prefix
/// ending in `/` so page paths can be appended to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    url: url::Url,
}

impl BaseUrl {
    /// Parses and normalises a base URL; it must be absolute http(s), with a host and
    /// without credentials, query or fragment.
    pub fn parse(input: &str) -> Result<BaseUrl, BaseUrlError> {
        let fail = |problem: &str| BaseUrlError {
            url: crate::text::one_line(input),
            problem: problem.to_string(),
        };
        let mut url = url::Url::parse(input.trim()).map_err(|e| {
            fail(&format!(
                "is not an absolute URL ({e}); write it like \"https://example.org/\""
            ))
        })?;
        if url.scheme() != "http" && url.scheme() != "https" {
            return Err(fail(
                "must use http or https, e.g. \"https://example.org/\"",
            ));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(fail("has no host; write it like \"https://example.org/\""));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(fail("must not contain a user name or password"));
        }
        if url.query().is_some() {
            return Err(fail("must not have a query (?...); remove it"));
        }
        if url.fragment().is_some() {
            return Err(fail("must not have a fragment (#...); remove it"));
        }
        if let Some(bad) = needs_encoding(url.as_str()) {
            return Err(fail(&format!(
                "holds {bad}, which must be percent-encoded in a URL (e.g. ^ as %5E, % as %25)"
            )));
        }
        if !url.path().ends_with('/') {
            let path = format!("{}/", url.path());
            url.set_path(&path);
        }
        Ok(BaseUrl { url })
    }

    /// The normalised URL, always ending in `/`.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The parsed URL.
    pub fn url(&self) -> &url::Url {
        &self.url
    }

    /// Whether `url` is on the base URL's host (any scheme or port).
    pub fn same_host(&self, url: &url::Url) -> bool {
        url.host_str() == self.url.host_str()
    }

    /// Whether the base URL is the root of its host (its path is `/`).
    pub fn is_host_root(&self) -> bool {
        self.url.path() == "/"
    }
}

/// Options that decide how a file's path becomes a URL.
#[derive(Debug, Clone)]
pub struct UrlStyle {
    /// `dir/index.html` maps to `dir/` when true, `dir` when false.
    pub trailing_slash: bool,
    /// `about.html` maps to `about` when true.
    pub clean_urls: bool,
    /// With `clean_urls`, `about.html` maps to `about/`: as Vercel and Firebase serve it
    /// with both `cleanUrls` and `trailingSlash` (taken from their files, never set alone).
    pub clean_slash: bool,
    /// A last segment that ends as a file name does (a dot, then letters, digits or `_`:
    /// `v1.2`, `x.y`) takes no slash: Vercel's `trailingSlash` takes it for a file and
    /// redirects `/x.y/` to `/x.y` (taken from its file, never set alone).
    pub dotted_bare: bool,
}

/// Whether a path segment ends as a file name does for Vercel's `trailingSlash`
/// (`[^/]+\.\w+`, JavaScript's `\w`): something, a dot, then ASCII letters, digits or `_`.
pub fn ends_as_file(segment: &[u8]) -> bool {
    segment.iter().rposition(|&b| b == b'.').is_some_and(|dot| {
        let after = &segment[dot + 1..];
        dot > 0
            && !after.is_empty()
            && after
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The file names served as their directory's URL, matched exactly, as web servers do
/// (`index index.html index.htm` in nginx).
pub const DIRECTORY_INDEXES: [&str; 2] = ["index.html", "index.htm"];

/// Whether a file name is a directory index, served as its directory's URL.
pub fn is_directory_index(name: &[u8]) -> bool {
    DIRECTORY_INDEXES.iter().any(|i| i.as_bytes() == name)
}

/// Maps a relative path (components separated by the OS, relative to the public
/// directory) to its absolute URL under `base`.
pub fn page_url(base: &BaseUrl, rel: &Path, style: &UrlStyle) -> String {
    let mut url = String::with_capacity(base.as_str().len() + rel.as_os_str().len() + 16);
    page_url_into(&mut url, base, rel, style);
    url
}

/// [`page_url`] into `url`, which it empties first: the walk reuses one buffer.
pub fn page_url_into(url: &mut String, base: &BaseUrl, rel: &Path, style: &UrlStyle) {
    url.clear();
    url.push_str(base.as_str());
    // Segments are looked at one ahead, to know the last: no list of them is made (an
    // allocation per page).
    let mut segments = segments(rel).peekable();
    let mut dir: Option<&[u8]> = None;
    let last = loop {
        let Some(segment) = segments.next() else {
            return;
        };
        if segments.peek().is_none() {
            break segment;
        }
        push_encoded(url, segment);
        url.push('/');
        dir = Some(segment);
    };
    if is_directory_index(last) {
        if let Some(dir) = dir
            && (!style.trailing_slash || (style.dotted_bare && ends_as_file(dir)))
        {
            url.pop();
        }
    } else if style.clean_urls {
        let stem = match last.iter().rposition(|&b| b == b'.') {
            Some(dot) if dot > 0 => &last[..dot],
            _ => last,
        };
        push_encoded(url, stem);
        if style.clean_slash && !(style.dotted_bare && ends_as_file(stem)) {
            url.push('/');
        }
    } else {
        push_encoded(url, last);
    }
}

/// Percent-encodes a relative path segment by segment, joined with `/`; used for the
/// URLs of files the tool writes itself (child sitemaps).
pub fn encode_path(rel: &Path) -> String {
    let mut out = String::new();
    for (i, segment) in segments(rel).enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_encoded(&mut out, segment);
    }
    out
}

fn push_encoded(out: &mut String, segment: &[u8]) {
    // `percent_encode` takes bytes, so non-UTF-8 names are encoded byte for byte.
    for piece in percent_encoding::percent_encode(segment, SEGMENT) {
        out.push_str(piece);
    }
}

/// Percent-encodes one path segment given as bytes.
pub fn encode_bytes(segment: &[u8]) -> String {
    let mut out = String::with_capacity(segment.len());
    push_encoded(&mut out, segment);
    out
}

/// Percent-encodes a string as a path segment (for text that is already UTF-8).
pub fn encode_segment(segment: &str) -> String {
    utf8_percent_encode(segment, SEGMENT).to_string()
}

/// A URL in a form where equivalent spellings compare equal: scheme and host
/// lower-cased, default port dropped, dot segments resolved (all by the `url` crate),
/// fragment removed, percent-escapes of unreserved characters decoded and the rest
/// upper-cased (RFC 3986 section 6.2.2).
pub fn comparable(url: &url::Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    let s = url.as_str().as_bytes();
    let mut out = String::with_capacity(s.len());
    let hex = |b: u8| (b as char).to_digit(16);
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%'
            && let (Some(h), Some(l)) = (
                s.get(i + 1).and_then(|&b| hex(b)),
                s.get(i + 2).and_then(|&b| hex(b)),
            )
        {
            let byte = (h * 16 + l) as u8;
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                out.push(byte as char);
            } else {
                out.push_str(&format!("%{byte:02X}"));
            }
            i += 3;
            continue;
        }
        out.push(s[i] as char);
        i += 1;
    }
    out
}

/// The first character in `loc` that RFC 3986 requires to be percent-encoded, if any.
/// `[` and `]` are allowed only in the host (an IPv6 address); `#` only once, to start
/// the fragment.
pub fn needs_encoding(loc: &str) -> Option<String> {
    let layout = Layout::of(loc);
    loc.char_indices()
        .find_map(|(i, c)| layout.must_encode(loc.as_bytes(), i, c))
}

/// A value measured against the protocol's rules for a `<loc>`, the one place `check`
/// and `index` take them from: fewer than [`MAX_URL_LEN`] characters, nothing left
/// unencoded, an absolute http(s) URL with a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocForm {
    /// Its length, when that is [`MAX_URL_LEN`] or more.
    pub too_long: Option<usize>,
    /// The first character that must be percent-encoded ([`needs_encoding`]).
    pub unencoded: Option<String>,
    /// The URL, when it is written as an absolute http(s) URL with a host.
    pub url: Option<url::Url>,
}

impl LocForm {
    /// Measures `loc`.
    pub fn of(loc: &str) -> LocForm {
        LocForm {
            too_long: (loc.len() >= MAX_URL_LEN).then_some(loc.len()),
            unencoded: needs_encoding(loc),
            url: url::Url::parse(loc)
                .ok()
                .filter(|u| is_absolute_http(loc) && u.host().is_some()),
        }
    }

    /// The first rule broken, if any.
    pub fn problem(&self) -> Option<LocProblem> {
        if let Some(len) = self.too_long {
            return Some(LocProblem::TooLong(len));
        }
        if let Some(bad) = &self.unencoded {
            return Some(LocProblem::Unencoded(bad.clone()));
        }
        self.url.is_none().then_some(LocProblem::NotAbsoluteHttp)
    }
}

/// A rule of the protocol a `<loc>` breaks (see [`LocForm`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocProblem {
    /// It is this many characters long.
    #[error("is {0} characters; the protocol allows fewer than 2,048")]
    TooLong(usize),
    /// It holds this character raw.
    #[error("holds {0}, which must be percent-encoded")]
    Unencoded(String),
    /// It is not an absolute http(s) URL with a host.
    #[error("is not an absolute http(s) URL")]
    NotAbsoluteHttp,
}

/// Whether `loc` is written as an absolute http(s) URL with a host: `scheme://host`.
/// The `url` crate reads `http:example.com` and `https:///path` as such (as browsers
/// do); a sitemap must spell it out.
pub fn is_absolute_http(loc: &str) -> bool {
    let Some((scheme, rest)) = loc.split_once("://") else {
        return false;
    };
    (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
        && !rest.is_empty()
        && !rest.starts_with(['/', '?', '#'])
}

/// `url` with every character [`needs_encoding`] flags percent-encoded (as UTF-8), a lone
/// `%` as `%25`: what the `url` crate leaves raw (`|`, `^`, `%zz`) and the schema refuses.
pub fn encode_leftovers(url: &str) -> String {
    let layout = Layout::of(url);
    let mut out = String::with_capacity(url.len());
    for (i, c) in url.char_indices() {
        if layout.must_encode(url.as_bytes(), i, c).is_some() {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Where the parts of an absolute URL start that change what may stand raw.
struct Layout {
    /// The path's start (the end when there is none): `[` and `]` only before it.
    path_start: usize,
    /// The first `#`: a later one must be encoded.
    fragment: Option<usize>,
}

impl Layout {
    fn of(loc: &str) -> Layout {
        let path_start = loc
            .find("://")
            .map(|i| i + 3)
            .and_then(|auth| loc[auth..].find(['/', '?', '#']).map(|p| auth + p))
            .unwrap_or(loc.len());
        Layout {
            path_start,
            fragment: loc.find('#'),
        }
    }

    /// Why `c`, at byte `i` of `bytes`, must be percent-encoded, if it must.
    fn must_encode(&self, bytes: &[u8], i: usize, c: char) -> Option<String> {
        match c {
            ' ' => Some("a space".to_string()),
            '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`' => Some(format!("'{c}'")),
            '[' | ']' if i >= self.path_start => Some(format!("'{c}' outside the host")),
            '#' if self.fragment.is_some_and(|f| i > f) => Some("a second '#'".to_string()),
            c if c.is_control() => Some(format!("control character U+{:04X}", c as u32)),
            c if !c.is_ascii() => Some(format!("non-ASCII '{c}'")),
            '%' => {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                (!(hex(i + 1) && hex(i + 2)))
                    .then(|| "a '%' not followed by two hex digits".to_string())
            }
            _ => None,
        }
    }
}

/// Whether `tag` is an hreflang value search engines accept: `x-default`, or a language
/// of 2-3 letters with optional subtags of 2-8 letters or digits (`en`, `de-AT`,
/// `zh-Hant-TW`).
pub fn is_hreflang(tag: &str) -> bool {
    if tag.eq_ignore_ascii_case("x-default") {
        return true;
    }
    let mut parts = tag.split('-');
    let lang = parts.next().unwrap_or("");
    (2..=3).contains(&lang.len())
        && lang.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Resolves an `href` from a page against the page's URL; only http(s) results are
/// accepted (a `javascript:` or `data:` href is never a page). What the `url` crate
/// leaves raw that a sitemap may not hold is percent-encoded ([`encode_leftovers`]).
pub fn resolve_href(page: &url::Url, href: &str) -> Result<url::Url, String> {
    let url = page
        .join(href)
        .map_err(|e| format!("is not a valid URL ({e})"))?;
    let url = match needs_encoding(url.as_str()) {
        Some(_) => url::Url::parse(&encode_leftovers(url.as_str()))
            .map_err(|e| format!("is not a valid URL ({e})"))?,
        None => url,
    };
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(format!("uses the {other}: scheme, not http(s)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_urls_spell_out_scheme_and_host() {
        for ok in [
            "https://e.org/",
            "HTTP://e.org",
            "https://e.org?x",
            "http://[::1]/",
        ] {
            assert!(is_absolute_http(ok), "{ok}");
            assert_eq!(LocForm::of(ok).problem(), None, "{ok}");
        }
        for bad in [
            "https:///path",
            "http:example.com",
            "//e.org/",
            "ftp://e.org/",
            "https://",
            "e.org",
            "",
            "javascript:void(0)",
        ] {
            assert!(!is_absolute_http(bad), "{bad}");
            assert_eq!(
                LocForm::of(bad).problem(),
                Some(LocProblem::NotAbsoluteHttp)
            );
        }
        let spaced = LocForm::of("not a url <b>").problem();
        assert_eq!(spaced, Some(LocProblem::Unencoded("a space".into())));
    }

    fn base(s: &str) -> BaseUrl {
        BaseUrl::parse(s).unwrap()
    }

    const SLASH: UrlStyle = UrlStyle {
        trailing_slash: true,
        clean_urls: false,
        clean_slash: false,
        dotted_bare: false,
    };

    #[test]
    fn maps_paths_to_urls() {
        let b = base("https://example.org/docs/");
        let clean_no_slash = UrlStyle {
            trailing_slash: false,
            clean_urls: true,
            clean_slash: false,
            dotted_bare: false,
        };
        let vercel = UrlStyle {
            trailing_slash: true,
            clean_urls: true,
            clean_slash: true,
            dotted_bare: true,
        };
        let table: &[(&str, &UrlStyle, &str)] = &[
            ("index.html", &SLASH, "https://example.org/docs/"),
            ("index.htm", &SLASH, "https://example.org/docs/"),
            ("blog/index.html", &SLASH, "https://example.org/docs/blog/"),
            ("about.html", &SLASH, "https://example.org/docs/about.html"),
            (
                "a b/c&d.html",
                &SLASH,
                "https://example.org/docs/a%20b/c&d.html",
            ),
            ("q?x.html", &SLASH, "https://example.org/docs/q%3Fx.html"),
            (
                "über/index.html",
                &SLASH,
                "https://example.org/docs/%C3%BCber/",
            ),
            (
                "x/100%.html",
                &SLASH,
                "https://example.org/docs/x/100%25.html",
            ),
            ("h#a.html", &SLASH, "https://example.org/docs/h%23a.html"),
            (
                "<\"'>.html",
                &SLASH,
                "https://example.org/docs/%3C%22'%3E.html",
            ),
            (
                "a:b@c!$'()*+,;=~-_.html",
                &SLASH,
                "https://example.org/docs/a:b@c!$'()*+,;=~-_.html",
            ),
            (
                "[x]{y}|\\^`.html",
                &SLASH,
                "https://example.org/docs/%5Bx%5D%7By%7D%7C%5C%5E%60.html",
            ),
            (
                "blog/index.html",
                &clean_no_slash,
                "https://example.org/docs/blog",
            ),
            ("index.html", &clean_no_slash, "https://example.org/docs/"),
            (
                "about.html",
                &clean_no_slash,
                "https://example.org/docs/about",
            ),
            (
                "v1.2/notes.htm",
                &clean_no_slash,
                "https://example.org/docs/v1.2/notes",
            ),
            ("INDEX.HTML", &SLASH, "https://example.org/docs/INDEX.HTML"),
            // Vercel with cleanUrls and trailingSlash: a name that ends as a file's does
            // takes no slash.
            ("about.html", &vercel, "https://example.org/docs/about/"),
            ("x.y.html", &vercel, "https://example.org/docs/x.y"),
            ("v1.2/index.html", &vercel, "https://example.org/docs/v1.2"),
            ("v1.2/a.html", &vercel, "https://example.org/docs/v1.2/a/"),
            (
                "x.y-z/index.html",
                &vercel,
                "https://example.org/docs/x.y-z/",
            ),
            ("index.html", &vercel, "https://example.org/docs/"),
        ];
        for (path, style, want) in table {
            assert_eq!(&page_url(&b, Path::new(path), style), want, "path {path:?}");
        }
    }

    #[test]
    fn nfd_names_stay_nfd() {
        // "ü" as u + combining diaeresis (NFD) must not be composed to U+00FC.
        let b = base("https://example.org/");
        let url = page_url(&b, Path::new("u\u{308}ber.html"), &SLASH);
        assert_eq!(url, "https://example.org/u%CC%88ber.html");
    }

    #[test]
    #[cfg(unix)]
    fn non_utf8_names_are_encoded_byte_for_byte() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let b = base("https://example.org/");
        let rel = std::path::PathBuf::from(OsStr::from_bytes(b"caf\xe9/index.html"));
        assert_eq!(page_url(&b, &rel, &SLASH), "https://example.org/caf%E9/");
    }

    #[test]
    fn base_urls_are_normalised() {
        let table = [
            ("https://example.org", "https://example.org/"),
            ("HTTPS://Example.ORG:443/Docs", "https://example.org/Docs/"),
            ("http://example.org:80/", "http://example.org/"),
            ("http://example.org:8080/a/", "http://example.org:8080/a/"),
            ("https://bücher.example/", "https://xn--bcher-kva.example/"),
            (
                "https://example.org/ä b/",
                "https://example.org/%C3%A4%20b/",
            ),
            ("  https://example.org/  ", "https://example.org/"),
        ];
        for (input, want) in table {
            assert_eq!(base(input).as_str(), want, "input {input:?}");
        }
        assert!(base("https://example.org").is_host_root());
        assert!(!base("https://example.org/docs").is_host_root());
    }

    #[test]
    fn bad_base_urls_are_refused_with_the_reason() {
        let table = [
            ("example.org", "not an absolute URL"),
            ("/docs/", "not an absolute URL"),
            ("ftp://example.org/", "http or https"),
            ("https://example.org/?a=1", "query"),
            ("https://example.org/#top", "fragment"),
            ("https://user:pw@example.org/", "user name"),
            ("mailto:a@example.org", "http or https"),
            ("https://example.org/a^b|c/", "holds '^'"),
            (
                "https://example.org/100%/",
                "holds a '%' not followed by two hex digits",
            ),
        ];
        for (input, want) in table {
            let err = BaseUrl::parse(input).unwrap_err().to_string();
            assert!(err.contains(want), "{input:?}: {err}");
            assert!(err.contains(input), "{input:?}: {err}");
        }
    }

    #[test]
    fn equivalent_urls_compare_equal() {
        let page = url::Url::parse("https://example.org/docs/a%C3%A9/").unwrap();
        let same = [
            "https://example.org/docs/a%C3%A9/",
            "HTTPS://EXAMPLE.ORG:443/docs/a%c3%a9/",
            "/docs/a%c3%a9/",
            "./",
            "",
            "#section",
            "/docs/x/../a%C3%A9/",
            "https://example.org/%64ocs/a%C3%A9/",
            "https://example.org/docs/aé/",
        ];
        for href in same {
            let got = resolve_href(&page, href).unwrap();
            assert_eq!(comparable(&got), comparable(&page), "{href:?}");
        }
        let different = [
            "/docs/a%C3%A9",
            "http://example.org/docs/a%C3%A9/",
            "https://www.example.org/docs/a%C3%A9/",
            "../other/",
            "?page=2",
        ];
        for href in different {
            let got = resolve_href(&page, href).unwrap();
            assert_ne!(comparable(&got), comparable(&page), "{href:?}");
        }
        for href in ["javascript:alert(1)", "data:text/html,x", "mailto:a@b.c"] {
            assert!(
                resolve_href(&page, href).unwrap_err().contains("scheme"),
                "{href}"
            );
        }
        assert!(resolve_href(&page, "https://exa mple.org/").is_err());
        // What the url crate leaves raw is encoded, so every result passes the schema.
        for (href, want) in [
            ("https://example.org/%zz/%", "https://example.org/%25zz/%25"),
            (
                "/a|b^c/[x]?q=%",
                "https://example.org/a%7Cb%5Ec/%5Bx%5D?q=%25",
            ),
            ("https://[::1]/ok%20", "https://[::1]/ok%20"),
        ] {
            let got = resolve_href(&page, href).unwrap();
            assert_eq!(got.as_str(), want, "{href}");
            assert_eq!(needs_encoding(got.as_str()), None, "{href}");
        }
    }

    #[test]
    fn hreflang_values_are_checked() {
        for ok in [
            "en",
            "de-AT",
            "zh-Hant-TW",
            "x-default",
            "X-Default",
            "es-419",
            "fil",
        ] {
            assert!(is_hreflang(ok), "{ok}");
        }
        for bad in [
            "", "e", "english", "en_US", "de-", "en-a", "x-def", "de AT", "\"><x",
        ] {
            assert!(!is_hreflang(bad), "{bad}");
        }
    }

    /// Found by fuzzing (config_loader, crash-7e3c52fb): a base_url with a newline was
    /// quoted raw in the error.
    #[test]
    fn fuzz_crash_base_url_with_newline_errors_on_one_line() {
        let err = BaseUrl::parse("'ht:x\n#y").unwrap_err().to_string();
        assert!(!err.contains('\n'), "{err}");
        assert!(err.contains("'ht:x\\n#y"), "{err}");
    }

    #[test]
    fn encodes_paths_for_written_files() {
        assert_eq!(
            encode_path(Path::new("a b/sitemap-1.xml")),
            "a%20b/sitemap-1.xml"
        );
        assert_eq!(encode_segment("ü x"), "%C3%BC%20x");
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
            ("https://e.org/a[1]", Some("'[' outside the host")),
            ("https://e.org/?q=]", Some("']' outside the host")),
            ("https://[2001:db8::1]/a", None),
            ("https://e.org/a#top", None),
            ("https://e.org/#a#b", Some("a second '#'")),
        ];
        for (loc, want) in table {
            assert_eq!(needs_encoding(loc).as_deref(), want, "{loc}");
        }
    }
}
