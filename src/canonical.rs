//! What a page's canonical link names: the page itself (in any of the forms a static
//! host serves it under), another page of this site, or nothing on this site.
//!
//! A canonical is a URL, not a string: Docusaurus writes `https://example.org/about` for
//! `about/index.html`, Sphinx `https://example.org/x/index.html` for `x/index.html`, and
//! Astro with a base `https://example.org/docs` for the home page. Each names the page
//! itself, so the page is listed, at the URL the host serves (the build warns of a
//! canonical in another form). The reverse of the file → URL mapping is done here by
//! hand: it is this tool's own mapping.

use std::collections::HashMap;
use std::path::Path;

use crate::slash;
use crate::urls::{self, BaseUrl};

/// Pages left out for their canonicals, past which the run may fail (see
/// [`suspicious`]): a site-wide canonical tag, or a site built for another URL.
pub const LOUD_MIN: usize = 10;

/// What a canonical link names, as judged from the page alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// The page itself, in the same form as its mapped URL.
    Itself,
    /// The page itself in another form: the URL after the base, in this tool's
    /// percent-encoding (`""` for the home page).
    ItselfAs(String),
    /// A path under the base URL that is not this page's file: another page of this site
    /// if one of `candidates` (slash-separated paths under the public directory) exists.
    Elsewhere {
        /// The canonical, resolved.
        target: String,
        /// The files a static host would serve for it, most exact first.
        candidates: Vec<Vec<u8>>,
    },
    /// Another host or scheme, a path outside the base URL, or a URL with a query.
    OffSite {
        /// The canonical, resolved.
        target: String,
        /// Whether it is on another host (or scheme, or port) than the base URL.
        other_host: bool,
    },
}

/// Judges the canonical `href` of the page at `rel` (URL `page`); an `href` that is not
/// an http(s) URL is an error with the reason, and the link is ignored.
pub fn judge(base: &BaseUrl, page: &url::Url, rel: &Path, href: &str) -> Result<Judged, String> {
    let mut canonical = urls::resolve_href(page, href)?;
    canonical.set_fragment(None);
    if urls::comparable(&canonical) == urls::comparable(page) {
        return Ok(Judged::Itself);
    }
    let target = canonical.to_string();
    let base_url = base.url();
    let same_origin = canonical.scheme() == base_url.scheme()
        && canonical.host_str() == base_url.host_str()
        && canonical.port_or_known_default() == base_url.port_or_known_default();
    let site = same_origin
        .then(|| site_path(base_url.path(), &canonical))
        .flatten();
    let Some(site) = site else {
        return Ok(Judged::OffSite {
            target,
            other_host: !same_origin,
        });
    };
    let own = slash::joined(rel);
    if site.candidates.contains(&own) {
        return Ok(Judged::ItselfAs(site.suffix));
    }
    Ok(Judged::Elsewhere {
        target,
        candidates: site.candidates,
    })
}

/// A canonical under the base URL, as the files that could serve it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SitePath {
    /// Slash-separated paths under the public directory, most exact first.
    candidates: Vec<Vec<u8>>,
    /// The URL after the base, in this tool's percent-encoding.
    suffix: String,
}

/// The files a static host serves for `canonical`'s path, relative to `base_path`: `p`,
/// `p/index.html`, `p/index.htm`, `p.html`, `p.htm` (`p/` gives only its indexes; the
/// base path itself, with or without its slash, the home page's). `None` when it lies
/// outside the base path, has a query, or has a segment no file can have.
fn site_path(base_path: &str, canonical: &url::Url) -> Option<SitePath> {
    if canonical.query().is_some() {
        return None;
    }
    // Split before decoding: `%2F` is a character of a segment, not a separator.
    let decoded = |path: &str| -> Vec<Vec<u8>> { path.split('/').skip(1).map(decode).collect() };
    let mut base = decoded(base_path);
    base.pop(); // the base path ends in `/`
    let path = decoded(canonical.path());
    let mut rest = path.strip_prefix(base.as_slice())?;
    let dir_form = match rest.split_last() {
        None => true,
        Some((last, init)) if last.is_empty() => {
            rest = init;
            true
        }
        Some(_) => false,
    };
    let bad = |s: &Vec<u8>| s.is_empty() || s == b"." || s == b".." || s.contains(&b'/');
    if rest.iter().any(bad) {
        return None;
    }
    let mut suffix = rest
        .iter()
        .map(|s| urls::encode_bytes(s))
        .collect::<Vec<_>>()
        .join("/");
    if dir_form && !rest.is_empty() {
        suffix.push('/');
    }
    let joined = rest.join(&b'/');
    let with = |tail: &str| {
        let mut p = joined.clone();
        if !p.is_empty() || !tail.starts_with('/') {
            p.extend_from_slice(tail.as_bytes());
        } else {
            p.extend_from_slice(&tail.as_bytes()[1..]);
        }
        p
    };
    let mut candidates = Vec::new();
    if !dir_form {
        candidates.push(joined.clone());
    }
    for index in urls::DIRECTORY_INDEXES {
        candidates.push(with(&format!("/{index}")));
    }
    if !dir_form {
        candidates.push(with(".html"));
        candidates.push(with(".htm"));
    }
    Some(SitePath { candidates, suffix })
}

fn decode(path: &str) -> Vec<u8> {
    percent_encoding::percent_decode_str(path).collect()
}

/// A page left out for its canonical, as the workers leave it.
#[derive(Debug, Clone)]
pub struct Pending {
    /// Its place in the walk's list.
    pub page: u32,
    /// The canonical, resolved.
    pub target: String,
    /// The files that could serve it on this site; empty when it is off the site.
    pub candidates: Vec<Vec<u8>>,
    /// Whether it names another host than the base URL's.
    pub other_host: bool,
}

impl Pending {
    /// Page `page` (its place in the walk's list), judged to name `judged`; `None` when
    /// that is the page itself, which is listed.
    pub fn new(page: u32, judged: Judged) -> Option<Pending> {
        let (target, candidates, other_host) = match judged {
            Judged::Elsewhere { target, candidates } => (target, candidates, false),
            Judged::OffSite { target, other_host } => (target, Vec::new(), other_host),
            Judged::Itself | Judged::ItselfAs(_) => return None,
        };
        Some(Pending {
            page,
            target,
            candidates,
            other_host,
        })
    }
}

/// Finds, for each pending canonical with candidates, the first candidate that is a
/// page of the walk (by place in the walk's list). One pass over the walk, looking each
/// page up among the candidates, so no index of every page is built.
pub fn find_targets<'p>(
    pages: impl Iterator<Item = &'p Path>,
    pending: &[Pending],
) -> Vec<Option<u32>> {
    let mut wanted: HashMap<&[u8], Option<u32>> = HashMap::new();
    for p in pending {
        for c in &p.candidates {
            wanted.insert(c, None);
        }
    }
    if !wanted.is_empty() {
        for (i, rel) in pages.enumerate() {
            if let Some(slot) = wanted.get_mut(slash::joined(rel).as_slice()) {
                *slot = Some(i as u32);
            }
        }
    }
    pending
        .iter()
        .map(|p| p.candidates.iter().find_map(|c| wanted[c.as_slice()]))
        .collect()
}

/// Whether the page at `rel` is a later page of the list at `target`: `blog/page/2/`,
/// `blog/2/`, `blog/page2/` (Jekyll) or `blog/p/2.html` under `blog/`. Themes name the
/// first page as the canonical of every later one, and a generator's own sitemap leaves
/// those pages out too: a run of them is duplicates by design, not a wrong tag.
pub fn is_later_page_of(rel: &Path, target: &str, base: &BaseUrl) -> bool {
    let Some(rest) = target.strip_prefix(base.as_str()) else {
        return false;
    };
    if rest.contains(['?', '#']) {
        return false;
    }
    let target: Vec<Vec<u8>> = rest
        .split('/')
        .filter(|s| !s.is_empty() && !urls::DIRECTORY_INDEXES.contains(s))
        .map(decode)
        .collect();
    let mut page: Vec<&[u8]> = slash::segments(rel).collect();
    if page.last().is_some_and(|l| urls::is_directory_index(l)) {
        page.pop();
    }
    let Some(tail) = page.strip_prefix(&target.iter().map(Vec::as_slice).collect::<Vec<_>>()[..])
    else {
        return false;
    };
    let number = |s: &[u8]| {
        let s = s.strip_suffix(b".html").unwrap_or(s);
        !s.is_empty() && s.iter().all(u8::is_ascii_digit)
    };
    let word = |s: &[u8]| [&b"page"[..], b"pages", b"p"].contains(&s);
    match tail {
        [n] => number(n) || n.strip_prefix(b"page").is_some_and(number),
        [w, n] => word(w) && number(n),
        _ => false,
    }
}

/// The pattern of canonicals that means the site's canonical tags are wrong rather than
/// the pages duplicates: one URL named by more than [`LOUD_MIN`] pages and a quarter of
/// the site, most canonicals on another host, or more than half of the pages (and more
/// than [`LOUD_MIN`]) left out. Later pages of a list naming its first page (see
/// [`is_later_page_of`]) are not counted: a 622-page blog whose 16 pagination pages name
/// the home page is built right. `rel` gives each pending page's path. The message names
/// the pattern, its count and the fix.
pub fn suspicious<'p>(
    pending: &'p [Pending],
    rel: impl Fn(&'p Pending) -> &'p Path,
    pages: usize,
    base: &BaseUrl,
) -> Option<String> {
    let counted: Vec<&Pending> = pending
        .iter()
        .filter(|p| !is_later_page_of(rel(p), &p.target, base))
        .collect();
    let left_out = counted.len();
    let fix = "fix the template or set respect_canonical = false";
    let mut by_target: HashMap<&str, usize> = HashMap::new();
    for p in &counted {
        *by_target.entry(p.target.as_str()).or_default() += 1;
    }
    if let Some((target, n)) = by_target
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .filter(|(_, n)| *n > LOUD_MIN && n * 4 > pages)
    {
        return Some(format!(
            "{n} of {pages} pages name {} as canonical: a site-wide canonical tag, or the site was built for another URL; {fix}",
            crate::text::one_line(target)
        ));
    }
    let other_host = counted.iter().filter(|p| p.other_host).count();
    if other_host > LOUD_MIN && other_host * 2 > left_out {
        let example = counted
            .iter()
            .find(|p| p.other_host)
            .map(|p| p.target.as_str());
        return Some(format!(
            "{other_host} of {pages} pages have a canonical on another host than base_url {} (e.g. {}): the site was built for another URL; rebuild it with its public URL, check base_url, or set respect_canonical = false",
            base.as_str(),
            crate::text::one_line(example.unwrap_or_default())
        ));
    }
    if left_out > LOUD_MIN && left_out * 2 > pages {
        return Some(format!(
            "{left_out} of {pages} pages are left out for their canonical links, which name other pages: check the canonical tags ({}), or set respect_canonical = false",
            crate::text::one_line(&counted[0].target)
        ));
    }
    None
}

#[cfg(test)]
mod tests;
