//! The site-wide audit (`build --check`, `check --site DIR`): what no page shows alone.
//! Every page's head is read already; the audit looks across them:
//! - hreflang: each alternate names the page back, each page names itself, and a cluster
//!   of translations agrees on its `x-default` (Google ignores annotations that do not
//!   return; Bing warns on an ambiguous `x-default`);
//! - a URL a sitemap lists that the site does not serve as an indexable page: noindexed,
//!   redirected, disallowed, no file, or another form than its page's (`check --site`);
//! - a canonical naming its page in another form than the URL the host serves;
//! - a page over 2 MiB, past what Googlebot fetches of an HTML file;
//! - the same title on several listed pages.
//!
//! Each finding is one line naming the pages and the fix; kinds group them.

mod hreflang;
mod listed;

use std::collections::HashMap;

use crate::check::Severity;
use crate::generate::Collection;

pub use listed::{SitemapUrl, audit_sitemap};

pub use crate::page::LARGE_PAGE_BYTES;

/// The findings kept of each kind; all are counted.
const KEPT_PER_KIND: usize = 100;

/// What a finding is about; findings are grouped by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kind {
    /// A URL listed that the site does not serve as an indexable page.
    NotIndexable,
    /// A URL listed in another form than its page's (the URL form, or its canonical's).
    OtherForm,
    /// A page whose canonical names it in another form than the URL the host serves.
    CanonicalOtherForm,
    /// An alternate that does not name the page back.
    NotReciprocal,
    /// A page with alternates that does not name itself.
    NoSelfReference,
    /// A cluster of translations that names two `x-default`s.
    XDefault,
    /// An alternate naming a URL of the site that is not listed.
    AlternateNotListed,
    /// A page over [`LARGE_PAGE_BYTES`].
    TooLarge,
    /// A title shared by several listed pages.
    DuplicateTitle,
}

impl Kind {
    /// The group's heading.
    pub fn title(self) -> &'static str {
        match self {
            Kind::NotIndexable => "listed but not indexable",
            Kind::OtherForm => "listed in another form than the page's",
            Kind::CanonicalOtherForm => "canonical in another form than the URL served",
            Kind::NotReciprocal => "hreflang without a return link",
            Kind::NoSelfReference => "hreflang without a self-reference",
            Kind::XDefault => "hreflang x-default that disagrees",
            Kind::AlternateNotListed => "hreflang naming a page not listed",
            Kind::TooLarge => "pages over 2 MiB",
            Kind::DuplicateTitle => "duplicate titles",
        }
    }

    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::NotIndexable => "not_indexable",
            Kind::OtherForm => "other_form",
            Kind::CanonicalOtherForm => "canonical_other_form",
            Kind::NotReciprocal => "hreflang_not_reciprocal",
            Kind::NoSelfReference => "hreflang_no_self_reference",
            Kind::XDefault => "hreflang_x_default",
            Kind::AlternateNotListed => "hreflang_not_listed",
            Kind::TooLarge => "too_large",
            Kind::DuplicateTitle => "duplicate_title",
        }
    }
}

/// One finding: a line naming the page(s) and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What it is about.
    pub kind: Kind,
    /// Error (search engines reject it) or warning.
    pub severity: Severity,
    /// The line.
    pub message: String,
}

/// What the audit found, grouped by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audit {
    /// The pages looked at.
    pub pages: usize,
    /// The findings kept, in kind order, at most a hundred of a kind.
    pub findings: Vec<Finding>,
    /// How many findings of each kind, kept or not, with their severity.
    pub counts: Vec<(Kind, Severity, usize)>,
}

impl Audit {
    /// How many findings are errors.
    pub fn errors(&self) -> usize {
        self.total(Severity::Error)
    }

    /// How many findings are warnings.
    pub fn warnings(&self) -> usize {
        self.total(Severity::Warning)
    }

    fn total(&self, severity: Severity) -> usize {
        (self.counts.iter())
            .filter(|(_, s, _)| *s == severity)
            .map(|(_, _, n)| n)
            .sum()
    }
}

/// Findings as they are made: all counted, a bounded number kept.
#[derive(Debug, Default)]
struct Findings {
    kept: Vec<Finding>,
    counts: HashMap<(Kind, Severity), usize>,
}

impl Findings {
    fn add(&mut self, kind: Kind, severity: Severity, message: impl FnOnce() -> String) {
        let n = self.counts.entry((kind, severity)).or_default();
        *n += 1;
        if *n <= KEPT_PER_KIND {
            self.kept.push(Finding {
                kind,
                severity,
                message: message(),
            });
        }
    }

    fn into_audit(mut self, pages: usize) -> Audit {
        self.kept.sort_by_key(|f| f.kind);
        let mut counts: Vec<(Kind, Severity, usize)> = self
            .counts
            .into_iter()
            .map(|((k, s), n)| (k, s, n))
            .collect();
        counts.sort();
        Audit {
            pages,
            findings: self.kept,
            counts,
        }
    }
}

/// Audits the listed pages of a build, collected with the audit on (titles and sizes
/// kept): hreflang, sizes, titles.
pub fn audit_collection(collection: &Collection, base: &str) -> Audit {
    let mut findings = Findings::default();
    across_pages(collection, base, &mut findings);
    findings.into_audit(collection.entries.len())
}

/// The findings across the listed pages, whichever sitemap lists them.
fn across_pages(collection: &Collection, base: &str, findings: &mut Findings) {
    hreflang::audit(collection.entries.as_slice(), base, findings);
    // The build lists such a page at the URL served and warns; the audit counts them.
    for warning in &collection.warnings {
        if let crate::Warning::CanonicalOtherForm { .. } = warning {
            findings.add(Kind::CanonicalOtherForm, Severity::Warning, || {
                warning.to_string()
            });
        }
    }
    let about = &collection.about;
    let entries: Vec<_> = collection.entries.iter().collect();
    let url = |i: usize| format!("{}{}", entries[i].loc().base(), entries[i].loc().rest());
    // Each is what search engines drop or refuse: noindex, a redirect, robots.txt.
    for (i, why) in about.forced() {
        findings.add(Kind::NotIndexable, Severity::Error, || {
            format!(
                "{} is listed by a [[rule]] with exclude = false, but it is {why}; search engines will not index it: fix the page or remove the rule",
                url(*i)
            )
        });
    }
    for &(i, size) in about.large() {
        findings.add(Kind::TooLarge, Severity::Warning, || {
            format!(
                "{} is {}; Googlebot reads the first 2 MiB of an HTML file: move inline data or scripts out, or split the page",
                url(i),
                crate::text::bytes(size)
            )
        });
    }
    // Each title's first page, by the title's hash (4 bytes a page); the pages of a
    // title seen before are gathered under its first.
    let title_at = |i: usize| about.get(i).0.unwrap_or_default().as_bytes();
    let mut first = crate::packed::Places::with_capacity(about.len());
    let mut shared: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..about.len() {
        let title = title_at(i);
        if title.trim_ascii().is_empty() {
            continue;
        }
        match first.get(title, title_at) {
            Some(f) => shared.entry(f).or_insert_with(|| vec![f]).push(i),
            None => first.insert(title, i, title_at),
        }
    }
    let mut shared: Vec<(usize, Vec<usize>)> = shared.into_iter().collect();
    shared.sort_unstable();
    for (f, pages) in shared {
        let title = about.get(f).0.unwrap_or_default();
        findings.add(Kind::DuplicateTitle, Severity::Warning, || {
            let named: Vec<String> = pages.iter().take(3).map(|&i| url(i)).collect();
            let more = match pages.len() {
                n if n > 3 => format!(" and {} more", n - 3),
                _ => String::new(),
            };
            format!(
                "{} pages are titled {:?}: {}{more}; give each page a title of its own",
                pages.len(),
                crate::text::one_line(title),
                named.join(", ")
            )
        });
    }
}

#[cfg(test)]
mod tests;
