//! hreflang across pages: each alternate names the page back, each page names itself,
//! and the pages of a cluster (linked by their alternates) agree on `x-default`.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{Findings, Kind};
use crate::check::Severity;
use crate::packed::Places;
use crate::sitemap::{EntryRef, EntrySlice};

/// The hreflang of the default page of a cluster.
const X_DEFAULT: &str = "x-default";

/// Audits the alternates of the listed pages `entries`, whose URLs start with `base`.
pub(super) fn audit(entries: EntrySlice<'_>, base: &str, findings: &mut Findings) {
    let entries: Vec<EntryRef> = entries.iter().collect();
    // Most sites have no alternates: then there is nothing to index.
    if entries.iter().all(|e| alternates_of(e).next().is_none()) {
        return;
    }
    let rest_at = |i: usize| entries[i].loc().rest().as_bytes();
    let mut index = Places::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        index.insert(entry.loc().rest().as_bytes(), i, rest_at);
    }
    let url = |i: usize| format!("{base}{}", entries[i].loc().rest());
    // Each page with each page it names by a language (not only as the x-default: that
    // declares no language pair), gathered in one pass over each page's alternates, so
    // "does j name i back" is one look-up, not a walk of j's alternates: the audit reads
    // each alternate a bounded number of times, whatever the size of a cluster.
    let mut named_by_lang: HashSet<(usize, &str)> = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        for (lang, href) in alternates_of(entry) {
            if let Some(rest) = href.strip_prefix(base)
                && !lang.eq_ignore_ascii_case(X_DEFAULT)
            {
                named_by_lang.insert((i, rest));
            }
        }
    }
    let names = |i: usize, rest: &str| named_by_lang.contains(&(i, rest));
    let mut clusters = Clusters::new(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let own = entry.loc().rest();
        // The language the page names itself by, for the return link to add.
        let own_lang = alternates_of(entry)
            .find(|(lang, href)| {
                href.strip_prefix(base) == Some(own) && !lang.eq_ignore_ascii_case(X_DEFAULT)
            })
            .map_or("…", |(lang, _)| lang);
        let mut any = false;
        for (lang, href) in alternates_of(entry) {
            any = true;
            let Some(rest) = href.strip_prefix(base) else {
                continue; // another site's page: not ours to check
            };
            if rest == own || lang.eq_ignore_ascii_case(X_DEFAULT) {
                continue;
            }
            match index.get(rest.as_bytes(), rest_at) {
                Some(j) => {
                    clusters.join(i, j);
                    if !names(j, own) {
                        findings.add(Kind::NotReciprocal, Severity::Warning, || {
                            format!(
                                "{} names {href} ({lang}), which does not name it back; add <link rel=\"alternate\" hreflang=\"{own_lang}\" href=\"{}\"> to {href}",
                                url(i),
                                url(i)
                            )
                        });
                    }
                }
                None => findings.add(Kind::AlternateNotListed, Severity::Warning, || {
                    format!(
                        "{} names {href} ({lang}), which is not listed (no such page, or left out); fix the link or list the page",
                        url(i)
                    )
                }),
            }
        }
        if any && !names(i, own) {
            findings.add(Kind::NoSelfReference, Severity::Warning, || {
                format!(
                    "{} has alternates but does not name itself; add <link rel=\"alternate\" hreflang=\"…\" href=\"{}\">",
                    url(i),
                    url(i)
                )
            });
        }
    }
    x_defaults(&entries, &mut clusters, &url, findings);
}

/// The alternates of `entry`, each counted as it is read when testing: the audit must
/// read each a bounded number of times (a cluster of 800 pages naming each other took
/// 17 s when a return link was looked for by reading the other page's alternates).
fn alternates_of<'a>(entry: &EntryRef<'a>) -> impl Iterator<Item = (&'a str, &'a str)> + use<'a> {
    entry.alternates().inspect(|_| count_read())
}

#[cfg(test)]
thread_local! {
    /// The alternates the audit read on this thread.
    pub(super) static READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn count_read() {
    READ.with(|read| read.set(read.get() + 1));
}

#[cfg(not(test))]
fn count_read() {}

/// Each cluster whose pages name more than one `x-default`.
fn x_defaults(
    entries: &[EntryRef],
    clusters: &mut Clusters,
    url: &dyn Fn(usize) -> String,
    findings: &mut Findings,
) {
    let mut named: HashMap<usize, BTreeSet<&str>> = HashMap::new();
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        for (lang, href) in alternates_of(entry) {
            if lang.eq_ignore_ascii_case(X_DEFAULT) {
                let root = clusters.root(i);
                named.entry(root).or_default().insert(href);
                first.entry(root).or_insert(i);
            }
        }
    }
    let mut conflicts: Vec<(usize, BTreeSet<&str>)> = named
        .into_iter()
        .filter(|(_, hrefs)| hrefs.len() > 1)
        .collect();
    conflicts.sort_by_key(|(root, _)| first[root]);
    for (root, hrefs) in conflicts {
        findings.add(Kind::XDefault, Severity::Warning, || {
            let hrefs: Vec<&str> = hrefs.into_iter().collect();
            format!(
                "the translations of {} name {} x-defaults ({}); name one x-default on every page of the cluster",
                url(first[&root]),
                hrefs.len(),
                hrefs.join(", ")
            )
        });
    }
}

/// Pages joined into clusters by their alternates (union-find, by path halving).
struct Clusters {
    parent: Vec<usize>,
}

impl Clusters {
    fn new(n: usize) -> Clusters {
        Clusters {
            parent: (0..n).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        self.parent[a.max(b)] = a.min(b);
    }
}
