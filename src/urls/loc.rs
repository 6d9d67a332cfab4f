//! A URL as a sitemap holds it: compared in a normal form, measured against the
//! protocol's rules for a `<loc>`, and resolved from a page's `href`.

use super::MAX_URL_LEN;

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
