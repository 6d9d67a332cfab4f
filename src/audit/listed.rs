//! A sitemap's URLs against the site (`check --site DIR`): each URL listed is mapped to
//! the file a static host serves there, and the build's own verdict on that page is
//! read ([`crate::explain`]): a URL the build leaves out, or lists in another form, is a
//! finding. Then the findings across the pages, as for a build.

use std::path::PathBuf;

use super::{Audit, Findings, Kind, across_pages};
use crate::check::Severity;
use crate::config::Config;
use crate::error::LeftOut;
use crate::explain::{Verdict, explain};
use crate::generate::Collection;
use crate::host::HostLeftOut;

/// A URL a sitemap lists, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapUrl {
    /// The sitemap file.
    pub file: PathBuf,
    /// The line of its `<loc>`.
    pub line: u64,
    /// The URL.
    pub loc: String,
}

/// Audits the URLs `listed` by a sitemap against the site `config` describes, collected
/// with its details and the audit on.
pub fn audit_sitemap(config: &Config, collection: &Collection, listed: &[SitemapUrl]) -> Audit {
    let mut findings = Findings::default();
    let locs: Vec<String> = listed.iter().map(|u| u.loc.clone()).collect();
    for (url, answer) in listed.iter().zip(explain(config, collection, &locs)) {
        let at = format!("{}:{}: {}", url.file.display(), url.line, url.loc);
        match &answer.verdict {
            Verdict::Listed(page) if page.loc != url.loc => {
                findings.add(Kind::OtherForm, Severity::Warning, || {
                    format!(
                        "{at}: the page's URL is {} (the site's URL form, or the form its canonical names); list that form, not a redirect or \"Submitted URL not selected as canonical\"",
                        page.loc
                    )
                });
            }
            Verdict::Listed(_) => {}
            Verdict::LeftOut(why) => {
                let severity = severity_of(why);
                findings.add(Kind::NotIndexable, severity, || {
                    format!("{at} is {why}; take it out of the sitemap")
                });
            }
            Verdict::Skipped(why) => findings.add(Kind::NotIndexable, Severity::Error, || {
                format!("{at} is not a page ({why}); take it out of the sitemap")
            }),
            Verdict::NotFound(why) => findings.add(Kind::NotIndexable, Severity::Error, || {
                format!("{at}: {why} (a 404); take it out of the sitemap")
            }),
        }
    }
    across_pages(collection, config.base_url.as_str(), &mut findings);
    findings.into_audit(listed.len())
}

/// What search engines make of a listed URL its page keeps out of the index: an error
/// when they drop or refuse it (noindex, a redirect, robots.txt), else a warning.
fn severity_of(why: &LeftOut) -> Severity {
    match why {
        LeftOut::Noindex | LeftOut::Redirect(_) | LeftOut::Robots => Severity::Error,
        LeftOut::Host(HostLeftOut::Noindex { .. } | HostLeftOut::Redirected { .. }) => {
            Severity::Error
        }
        _ => Severity::Warning,
    }
}
