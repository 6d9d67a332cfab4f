//! A sitemap's URLs against the site (`check --site DIR`): each URL listed is mapped to
//! the file a static host serves there, and the build's own verdict on that page is
//! read ([`crate::explain`]): a URL the build leaves out, or lists in another form, is a
//! finding; so is a URL the host's own rules or URL form redirect (asked through
//! [`crate::host::Host`], as the build asks). Then the findings across the pages, as for
//! a build.

use std::path::PathBuf;

use super::{Audit, Findings, Kind, across_pages};
use crate::check::Severity;
use crate::config::Config;
use crate::error::LeftOut;
use crate::explain::{Explained, Listed, Verdict, explain};
use crate::generate::Collection;
use crate::host::{Host, HostLeftOut};
use crate::{text, urls};

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
    let host = collection.host.as_ref();
    let locs: Vec<String> = listed.iter().map(|u| u.loc.clone()).collect();
    for (url, answer) in listed.iter().zip(explain(config, collection, &locs)) {
        let at = format!("{}:{}: {}", text::path(&url.file), url.line, url.loc);
        // A rule of the host's that answers this very URL (the page's own is judged by
        // the build): a redirect, or noindex.
        let by_host = || host.and_then(|h| h.verdict(&url.loc));
        match &answer.verdict {
            Verdict::Listed(page) if page.loc != url.loc => match by_host() {
                Some(why) => findings.add(Kind::NotIndexable, Severity::Error, || {
                    format!("{at} is {why}; list {} instead", page.loc)
                }),
                None => other_form(&mut findings, host, &at, &url.loc, page, &answer),
            },
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
            Verdict::NotFound(_) | Verdict::Folder(_) => {
                let why = match (by_host(), &answer.verdict) {
                    (Some(host_why), _) => format!("{at} is {host_why}"),
                    (None, Verdict::NotFound(why)) => format!("{at}: {why} (a 404)"),
                    (None, _) => format!("{at}: a folder without an index page (a 404)"),
                };
                findings.add(Kind::NotIndexable, Severity::Error, || {
                    format!("{why}; take it out of the sitemap")
                });
            }
        }
    }
    across_pages(collection, config.base_url.as_str(), &mut findings);
    findings.into_audit(listed.len())
}

/// A URL `listed` in another form than the build lists its page at (`page`): the form
/// the host serves (the URL-form settings and the host's own), so this one is answered
/// with a redirect, an error when the host's files say so; or the form its canonical
/// names, a warning.
fn other_form(
    findings: &mut Findings,
    host: Option<&Host>,
    at: &str,
    listed: &str,
    page: &Listed,
    answer: &Explained,
) {
    let served = &page.loc;
    if answer.url.as_deref() != Some(served.as_str()) {
        findings.add(Kind::OtherForm, Severity::Warning, || {
            format!(
                "{at}: the page's URL is {served} (the form its canonical names); list that form, not \"Submitted URL not selected as canonical\""
            )
        });
        return;
    }
    let by = host.and_then(|h| h.redirects_form(urls::path_of(listed)));
    let severity = match by {
        Some(_) => Severity::Error,
        None => Severity::Warning,
    };
    let file = answer.path.as_deref().unwrap_or(std::path::Path::new(""));
    findings.add(Kind::OtherForm, severity, || match &by {
        Some(by) => format!(
            "{at}: the host serves {} at {served}, and {by} redirects this form there; list {served}",
            text::path(file)
        ),
        None => format!(
            "{at}: {} is served at {served} (the site's URL form: trailing_slash, clean_urls); hosts answer another form with a redirect, a 404 or a duplicate; list {served}",
            text::path(file)
        ),
    });
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
