//! The canonicals settled once every page is known: a page naming another URL is left
//! out, with a warning where that URL is not listed.

use super::Collection;
use super::workers::Listed;
use crate::canonical;
use crate::config::Config;
use crate::error::{LeftOut, Warning};
use crate::scan::Pages;
use crate::urls;

/// What the canonicals are settled against: every page, and which are listed.
pub(super) struct Settle<'a> {
    pub config: &'a Config,
    pub pages: &'a Pages,
    pub listed: &'a [Listed],
    /// Whether the pages left out are listed (for `--verbose`).
    pub details: bool,
}

/// Settles the pages that name another URL as canonical, once every page is known: each
/// is left out, counted as canonical elsewhere when the canonical is a page of this
/// site and apart when it is not. Each such page, or one whose canonical is itself not
/// listed, gets a warning with both URLs. Returns the error when the canonicals follow
/// a pattern that means they are wrong (see [`canonical::suspicious`]); the warnings
/// are then left to it.
pub(super) fn settle_canonicals(
    settle: Settle,
    mut pending: Vec<canonical::Pending>,
    collection: &mut Collection,
) -> Option<String> {
    if pending.is_empty() {
        return None;
    }
    let (config, pages) = (settle.config, settle.pages);
    let rel = |page: u32| pages.get(page as usize);
    pending.sort_unstable_by(|a, b| rel(a.page).cmp(rel(b.page)));
    let targets = canonical::find_targets(pages.iter(), &pending);
    let wrong = canonical::suspicious(&pending, |p| rel(p.page), pages.len(), &config.base_url);
    let mut is_listed = vec![false; pages.len()];
    for l in settle.listed {
        is_listed[l.page as usize] = true;
    }
    for (p, target) in pending.into_iter().zip(targets) {
        let why = match target {
            Some(_) => LeftOut::Canonical(p.target.clone()),
            None => LeftOut::CanonicalNotHere(p.target.clone()),
        };
        collection.counts.add(&why);
        if settle.details {
            collection.left_out.push((rel(p.page).to_path_buf(), why));
        }
        let path = config.public_dir.join(rel(p.page));
        let url = urls::page_url(&config.base_url, rel(p.page), &config.url_style);
        let warning = match target {
            Some(t) if is_listed[t as usize] => continue,
            Some(_) => Warning::CanonicalNotListed {
                path,
                url,
                canonical: p.target,
            },
            None => Warning::CanonicalNotHere {
                path,
                url,
                canonical: p.target,
                other_host: p.other_host,
            },
        };
        if wrong.is_none() {
            collection.warnings.push(warning);
        }
    }
    wrong
}
