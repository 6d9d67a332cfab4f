//! The site's URLs, both ways: a page's URL from its file ([`page_url`]) and the files a
//! static host serves at a URL ([`SitePath`]), a file's URL as it is written
//! ([`file_url`]), and an absolute URL's path ([`path_of`]). Every feature that maps
//! between files and URLs (the walk, the canonical guard, `explain`, the audit, `check
//! --site`, the host's rules, child sitemaps) asks here, so the two directions agree.
//!
//! The mapping works on the path's raw bytes, so names that are not UTF-8, or that are
//! in a Unicode normalisation form other than NFC, come out exactly as the web server
//! will see them on disk.

use std::path::Path;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};

use crate::slash::segments;

mod loc;
mod served;

pub use loc::{
    LocForm, LocProblem, comparable, encode_leftovers, is_absolute_http, is_hreflang,
    needs_encoding, resolve_href,
};
pub use served::{NoFile, SitePath};

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

/// The URL of the file `rel` in the directory whose URL is `dir` (ending in `/`, as the
/// base URL does): its path percent-encoded name by name, never mapped as a page's is.
/// The URL of a file this tool writes (a child sitemap, an index), or a file's own path
/// where a page is named by it.
pub fn file_url(dir: &str, rel: &Path) -> String {
    let mut url = String::with_capacity(dir.len() + rel.as_os_str().len());
    url.push_str(dir);
    push_names(&mut url, segments(rel));
    url
}

/// The forms of the URL of the page at `rel` that every host serves beside the one
/// mapped (unless a rule of its own redirects them): the file's own path (Sphinx's
/// `guide/index.html`), and for a directory index its folder with a slash (`guide/`). A
/// page whose canonical names one is listed in that form.
pub fn own_forms(base: &BaseUrl, rel: &Path) -> (String, Option<String>) {
    let folder = (rel.parent())
        .filter(|dir| !dir.as_os_str().is_empty())
        .filter(|_| {
            rel.file_name()
                .is_some_and(|n| is_directory_index(n.as_encoded_bytes()))
        })
        .map(|dir| file_url(base.as_str(), dir) + "/");
    (file_url(base.as_str(), rel), folder)
}

/// `names` percent-encoded and joined with `/`, appended to `out`.
fn push_names<'a>(out: &mut String, names: impl Iterator<Item = &'a [u8]>) {
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_encoded(out, name);
    }
}

/// An absolute URL's path as a request sends it: percent-encoded, without query or
/// fragment, `/` when it has none (`https://example.org/a%20b?q` → `/a%20b`). Read as
/// written, not parsed: a host, robots.txt and `explain` see the URL as it is spelt.
pub fn path_of(url: &str) -> &str {
    split(url).1
}

/// An absolute URL as what comes before its path (scheme and host) and its path
/// ([`path_of`]).
fn split(url: &str) -> (&str, &str) {
    let authority = url.find("://").map_or(0, |i| i + 3);
    let end = (url[authority..].find(['/', '?', '#'])).map_or(url.len(), |i| authority + i);
    let path = url[end..].split(['?', '#']).next().unwrap_or_default();
    (&url[..end], if path.is_empty() { "/" } else { path })
}

fn push_encoded(out: &mut String, segment: &[u8]) {
    // `percent_encode` takes bytes, so non-UTF-8 names are encoded byte for byte.
    for piece in percent_encoding::percent_encode(segment, SEGMENT) {
        out.push_str(piece);
    }
}

#[cfg(test)]
mod tests;
