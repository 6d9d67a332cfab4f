//! Why a page is not in the sitemap, and how many pages were left out for each reason.

use crate::host::HostLeftOut;
use crate::rules::ExcludedBy;
use crate::text;

/// Why a page found on disk is not in the sitemap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LeftOut {
    /// The rules excluded it.
    #[error("{0}")]
    Rule(ExcludedBy),
    /// Its robots meta tag says noindex.
    #[error("noindex (robots meta tag)")]
    Noindex,
    /// It is a meta-refresh redirect stub; the target as written.
    #[error("redirect stub (meta refresh to {0})")]
    Redirect(String),
    /// Its canonical URL is another page of this site.
    #[error("canonical elsewhere ({0})")]
    Canonical(String),
    /// Its canonical URL names no page of this site (another host, outside the base
    /// URL, a query, or no such file).
    #[error("canonical names no page of this site ({0})")]
    CanonicalNotHere(String),
    /// The site's robots.txt disallows it.
    #[error("blocked by robots.txt")]
    Robots,
    /// One of our own views (`sitemap.html`), not a page of the site.
    #[error("sitemapgen's own view of the site (sitemap.html)")]
    View,
    /// The host's own files leave it out (`_headers`).
    #[error("{0}")]
    Host(HostLeftOut),
}

impl LeftOut {
    /// The reason it is counted under.
    pub fn reason(&self) -> Reason {
        match self {
            LeftOut::Rule(ExcludedBy::Shard(_)) => Reason::Shards,
            LeftOut::Rule(_) => Reason::Rules,
            LeftOut::Noindex | LeftOut::Host(HostLeftOut::Noindex { .. }) => Reason::Noindex,
            LeftOut::Redirect(_) | LeftOut::Host(HostLeftOut::Redirected { .. }) => {
                Reason::Redirects
            }
            LeftOut::Canonical(_) => Reason::Canonical,
            LeftOut::CanonicalNotHere(_) => Reason::CanonicalNotHere,
            LeftOut::Robots => Reason::Robots,
            LeftOut::View => Reason::Views,
        }
    }
}

/// The reasons pages are counted under when left out, in the order summaries give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Excluded by rules.
    Rules,
    /// Marked noindex (by the page or the host).
    Noindex,
    /// Redirect stubs, and pages the host redirects.
    Redirects,
    /// Canonical elsewhere: another page of this site.
    Canonical,
    /// A canonical that names no page of this site.
    CanonicalNotHere,
    /// Blocked by robots.txt.
    Robots,
    /// Our own views (`sitemap.html`).
    Views,
    /// Another shard's pages (`[[shards]]`), or those of no shard.
    Shards,
}

/// Each reason's key (in `--json`) and its noun for one page and for several: the one
/// table every count, summary and JSON object reads.
const REASONS: [(Reason, &str, &str, &str); 8] = [
    (
        Reason::Rules,
        "rules",
        "excluded by rules",
        "excluded by rules",
    ),
    (Reason::Noindex, "noindex", "noindex", "noindex"),
    (Reason::Redirects, "redirects", "redirect", "redirects"),
    (
        Reason::Canonical,
        "canonical",
        "canonical elsewhere",
        "canonical elsewhere",
    ),
    (
        Reason::CanonicalNotHere,
        "canonical_not_here",
        "canonical not on this site",
        "canonical not on this site",
    ),
    (
        Reason::Robots,
        "robots",
        "blocked by robots.txt",
        "blocked by robots.txt",
    ),
    (
        Reason::Views,
        "views",
        "sitemapgen view",
        "sitemapgen views",
    ),
    (
        Reason::Shards,
        "shards",
        "another shard's page",
        "other shards' pages",
    ),
];

impl Reason {
    /// Its key in `--json`'s `left_out` object.
    pub fn key(self) -> &'static str {
        REASONS[self as usize].1
    }
}

/// How many pages were left out, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOutCounts {
    by: [usize; REASONS.len()],
}

impl LeftOutCounts {
    pub(crate) fn add(&mut self, why: &LeftOut) {
        self.by[why.reason() as usize] += 1;
    }

    pub(crate) fn merge(&mut self, other: LeftOutCounts) {
        for (n, more) in self.by.iter_mut().zip(other.by) {
            *n += more;
        }
    }

    /// Pages left out for `reason`.
    pub fn of(&self, reason: Reason) -> usize {
        self.by[reason as usize]
    }

    /// Each reason with its count, in the summaries' order.
    pub fn each(&self) -> impl Iterator<Item = (Reason, usize)> + '_ {
        REASONS
            .iter()
            .map(|&(reason, ..)| (reason, self.of(reason)))
    }

    /// All pages left out.
    pub fn total(&self) -> usize {
        self.by.iter().sum()
    }

    /// Each reason with its count, those with none left out: `["3 noindex", "1 redirect"]`.
    pub fn describe(&self) -> Vec<String> {
        (REASONS.iter())
            .filter(|(reason, ..)| self.of(*reason) > 0)
            .map(|&(reason, _, one, many)| text::count(self.of(reason), one, many))
            .collect()
    }

    /// What to look at when every page was left out, by the reasons that did it.
    pub(super) fn advice(&self) -> String {
        let mut advice = vec!["run with -v to see each page and why"];
        if self.of(Reason::Rules) > 0 {
            advice.push("check exclude and the [[rule]] globs");
        }
        if self.of(Reason::Canonical) + self.of(Reason::CanonicalNotHere) > 0 {
            advice.push("check the canonical links and base_url");
        }
        if self.of(Reason::Robots) > 0 {
            advice.push("check robots.txt");
        }
        advice.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_reasons() {
        for (i, (reason, ..)) in REASONS.iter().enumerate() {
            assert_eq!(*reason as usize, i, "{reason:?}");
        }
    }

    #[test]
    fn counts_are_described_by_the_table() {
        let mut counts = LeftOutCounts::default();
        for why in [
            LeftOut::Noindex,
            LeftOut::Noindex,
            LeftOut::Robots,
            LeftOut::View,
        ] {
            counts.add(&why);
        }
        let mut more = LeftOutCounts::default();
        more.add(&LeftOut::Redirect("/x".into()));
        counts.merge(more);
        assert_eq!(counts.total(), 5);
        assert_eq!(
            counts.describe(),
            [
                "2 noindex",
                "1 redirect",
                "1 blocked by robots.txt",
                "1 sitemapgen view"
            ]
        );
        assert_eq!(counts.of(Reason::Noindex), 2);
    }
}
