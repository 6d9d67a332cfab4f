//! How the views group the listed pages: as the sitemap's `[[section]]`s do, else by
//! top directory, so a visitor or a model sees the site's own parts.

use std::collections::BTreeMap;

use super::Page;
use crate::sections::SectionUrls;

/// One group of pages, in the order the views show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Group {
    /// Its heading.
    pub name: String,
    /// Its pages, by place in the listed pages (sorted by URL within the group).
    pub pages: Vec<usize>,
    /// Whether it is a named `[[section]]`.
    pub section: bool,
}

/// The heading of the pages at the top of a site without sections.
const TOP: &str = "Pages";

/// The heading of the pages in no section.
const REST: &str = "Other pages";

/// The groups of `pages` (in the sitemap's order): one per `[[section]]` with pages,
/// then the pages in none; without sections, the pages at the top (and those alone in
/// their directory), then one group per top directory holding two pages or more.
pub(super) fn groups(pages: &[Page], sections: &[SectionUrls]) -> Vec<Group> {
    if sections.is_empty() {
        return by_directory(pages);
    }
    let mut start = 0;
    let mut groups = Vec::with_capacity(sections.len());
    for section in sections {
        let end = start + section.urls;
        if end > start {
            groups.push(Group {
                name: section.name.clone().unwrap_or_else(|| REST.to_string()),
                pages: (start..end).collect(),
                section: section.name.is_some(),
            });
        }
        start = end;
    }
    groups
}

/// The first segment of a URL's path after the base, when the page is under one
/// (`blog/post/` → `blog`); `None` for a page at the top (`about.html`, the home page).
fn top_directory(rest: &str) -> Option<&str> {
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    path.split_once('/')
        .map(|(dir, _)| dir)
        .filter(|d| !d.is_empty())
}

fn by_directory(pages: &[Page]) -> Vec<Group> {
    let mut dirs: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut top = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        match top_directory(page.rest) {
            Some(dir) => dirs.entry(dir).or_default().push(i),
            None => top.push(i),
        }
    }
    // A directory of one page (`about/`) is a page at the top, not a part of the site.
    let mut groups = Vec::with_capacity(dirs.len() + 1);
    for (dir, pages) in dirs {
        if pages.len() == 1 {
            top.extend(pages);
        } else {
            groups.push(Group {
                name: decoded(dir),
                pages,
                section: false,
            });
        }
    }
    if !top.is_empty() {
        top.sort_unstable_by_key(|&i| pages[i].rest);
        groups.insert(
            0,
            Group {
                name: TOP.to_string(),
                pages: top,
                section: false,
            },
        );
    }
    groups
}

/// A directory's name as people read it: percent-decoded (`caf%C3%A9` → `café`).
pub(super) fn decoded(dir: &str) -> String {
    let name = percent_encoding::percent_decode_str(dir).decode_utf8_lossy();
    crate::text::one_line(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(groups: &[Group], pages: &[Page]) -> Vec<(String, Vec<String>)> {
        groups
            .iter()
            .map(|g| {
                let rests = g.pages.iter().map(|&i| pages[i].rest.to_string());
                (g.name.clone(), rests.collect())
            })
            .collect()
    }

    #[test]
    fn pages_group_by_top_directory_or_section() {
        let rests = [
            "",
            "about/",
            "blog/",
            "blog/a/",
            "blog/b.html",
            "caf%C3%A9/x/",
            "caf%C3%A9/y/",
            "contact.html",
            "docs/only/",
        ];
        let pages: Vec<Page> = rests.iter().map(|rest| Page::bare(rest)).collect();
        let got = names(&by_directory(&pages), &pages);
        let want = [
            ("Pages", &["", "about/", "contact.html", "docs/only/"][..]),
            ("blog", &["blog/", "blog/a/", "blog/b.html"]),
            ("café", &["caf%C3%A9/x/", "caf%C3%A9/y/"]),
        ];
        let want: Vec<(String, Vec<String>)> = want
            .iter()
            .map(|(n, r)| (n.to_string(), r.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(got, want);

        let sections = [
            SectionUrls {
                name: Some("Posts".into()),
                urls: 3,
            },
            SectionUrls {
                name: Some("Empty".into()),
                urls: 0,
            },
            SectionUrls {
                name: None,
                urls: 6,
            },
        ];
        let groups = groups(&pages, &sections);
        let spans: Vec<(&str, usize)> = groups
            .iter()
            .map(|g| (g.name.as_str(), g.pages.len()))
            .collect();
        assert_eq!(spans, [("Posts", 3), ("Other pages", 6)]);
    }
}
