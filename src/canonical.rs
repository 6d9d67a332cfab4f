//! What a page's canonical link names: the page itself (in any of the forms a static
//! host serves it under), another page of this site, or nothing on this site.
//!
//! A canonical is a URL, not a string: Docusaurus writes `https://example.org/about` for
//! `about/index.html`, Sphinx `https://example.org/x/index.html` for `x/index.html`, and
//! Astro with a base `https://example.org/docs` for the home page. Each names the page
//! itself, so the page is listed, at the URL the host serves (the build warns of a
//! canonical in another form). Which files a canonical may name is asked of
//! [`urls::SitePath`], the inverse of the URL mapping.

use std::collections::HashMap;
use std::path::Path;

use crate::slash;
use crate::urls::{self, BaseUrl, SitePath};

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
    let site = (same_origin && canonical.query().is_none())
        .then(|| SitePath::of(base, canonical.path()).ok())
        .flatten();
    let Some(site) = site else {
        return Ok(Judged::OffSite {
            target,
            other_host: !same_origin,
        });
    };
    let candidates = site.files();
    if candidates.contains(&slash::joined(rel)) {
        return Ok(Judged::ItselfAs(site.suffix()));
    }
    Ok(Judged::Elsewhere { target, candidates })
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
    let site = (!target.contains(['?', '#']))
        .then(|| SitePath::of_url(base, target).ok())
        .flatten();
    let Some(site) = site else {
        return false;
    };
    let target: Vec<&[u8]> = (site.names())
        .filter(|n| !urls::is_directory_index(n))
        .collect();
    let mut page: Vec<&[u8]> = slash::segments(rel).collect();
    if page.last().is_some_and(|l| urls::is_directory_index(l)) {
        page.pop();
    }
    let Some(tail) = page.strip_prefix(target.as_slice()) else {
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
