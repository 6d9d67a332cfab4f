//! What the head says of the page beyond its date: whether it is left out (a redirect
//! stub, noindex, a canonical elsewhere) or listed (at the URL served, or at its file's
//! own path when its canonical names that), its alternates, and its images.

use super::{Outcome, Page};
use crate::error::LeftOut;
use crate::error::Warning;
use crate::page::Head;
use crate::sitemap::Alternate;
use crate::{canonical, urls};

/// What the head says of the page: left out (the outcome), or listed: at the URL served
/// (`None`), or at another URL (see [`other_form`]).
pub(super) fn head_verdict<'u>(
    page: &mut Page,
    head: &Head,
    loc: &str,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Result<Option<String>, Outcome> {
    let config = page.shared.config;
    // A stub is a redirect whatever else it says (Hugo's also say noindex).
    if let (true, Some(to)) = (config.head.skip_redirects, &head.refresh) {
        return Err(Outcome::LeftOut(LeftOut::Redirect(to.clone())));
    }
    if config.head.respect_noindex && head.noindex {
        return Err(Outcome::LeftOut(LeftOut::Noindex));
    }
    let (true, Some(href)) = (config.head.respect_canonical, &head.canonical) else {
        return Ok(None);
    };
    if *href == loc {
        return Ok(None);
    }
    let Some(page_url) = page_url() else {
        return Ok(None);
    };
    match canonical::judge(&config.base_url, page_url, page.rel, href) {
        Ok(canonical::Judged::Itself) => Ok(None),
        Ok(canonical::Judged::ItselfAs(suffix)) => Ok(other_form(page, href, loc, &suffix)),
        // Settled once every page is known.
        Ok(judged) => Err(Outcome::Canonical(judged)),
        Err(reason) => {
            page.ignored("canonical", href, reason);
            Ok(None)
        }
    }
}

/// The URL a page whose canonical names it in another form (`suffix`, after the base)
/// is listed at: the URL the host serves (`loc`), with a warning, since hosts answer
/// another form with a redirect (`/en/b` for `en/b/index.html`) or a 404. But the file's
/// own path (Sphinx's `guide/index.html`), which every host serves unless it serves clean
/// URLs, and a directory index's slashed form (`/en/b/`: SvelteKit's routes with
/// `trailingSlash = 'always'` under `trailing_slash = false`), which every host serves
/// unless its own `trailingSlash: false` redirects it, are the page's URL: listed.
fn other_form(page: &mut Page, href: &str, loc: &str, suffix: &str) -> Option<String> {
    let config = page.shared.config;
    let host = page.shared.lookups.host.as_ref();
    let by = host.and_then(|h| h.redirects_form(&format!("/{suffix}")));
    let canonical = format!("{}{suffix}", config.base_url.as_str());
    let (own, folder) = urls::own_forms(&config.base_url, page.rel);
    let own_path = canonical == own && !config.url_style.clean_urls;
    if (own_path || folder.as_ref() == Some(&canonical)) && by.is_none() {
        return Some(canonical);
    }
    let path = page.path();
    page.warnings.push(Warning::CanonicalOtherForm {
        path,
        canonical: href.to_string(),
        served: loc.to_string(),
        by,
    });
    None
}

/// The head's hreflang alternates, resolved and checked, each once.
pub(super) fn alternates<'u>(
    page: &mut Page,
    head: &Head,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Vec<Alternate> {
    let mut alternates: Vec<Alternate> = Vec::new();
    // Each kept once: by a set, as a page may name thousands (a list's `contains` made
    // a cluster of n pages naming each other cost n³).
    let mut seen: std::collections::HashSet<(String, String)> = std::collections::HashSet::new();
    if !page.shared.config.head.alternates || head.alternates.is_empty() {
        return alternates;
    }
    let Some(page_url) = page_url() else {
        return alternates;
    };
    for alt in &head.alternates {
        if !urls::is_hreflang(&alt.hreflang) {
            let reason = "not a language tag such as en, de-AT or x-default".to_string();
            page.ignored("hreflang", &alt.hreflang, reason);
            continue;
        }
        let href = match urls::resolve_href(page_url, &alt.href) {
            Ok(u) if u.as_str().len() < urls::MAX_URL_LEN => u.to_string(),
            Ok(_) => {
                let reason = "2,048 characters or longer".to_string();
                page.ignored("hreflang", &alt.href, reason);
                continue;
            }
            Err(reason) => {
                page.ignored("hreflang", &alt.href, reason);
                continue;
            }
        };
        if seen.insert((alt.hreflang.clone(), href.clone())) {
            alternates.push(Alternate {
                hreflang: alt.hreflang.clone(),
                href,
            });
        }
    }
    alternates
}

/// The page's images (`images = true`), resolved against its URL.
pub(super) fn images<'u>(
    page: &mut Page,
    sources: Option<crate::images::Sources>,
    page_url: impl Fn() -> Option<&'u url::Url>,
) -> Box<[Box<str>]> {
    // Most pages have no image: their URL is not parsed for nothing (2 % of a run).
    let Some(sources) = sources.filter(|s| !s.sources.is_empty() || s.overflowed) else {
        return Box::default();
    };
    let Some(page_url) = page_url() else {
        return Box::default();
    };
    let (images, overflowed) = crate::images::resolve(page_url, &sources);
    if overflowed {
        let path = page.path();
        page.warnings.push(Warning::TooManyImages { path });
    }
    images.into_boxed_slice()
}
