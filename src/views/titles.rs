//! Titles as the views show them: without the site's name that the theme puts on every
//! page ("About | Lumen Notes"), which a person scanning the list, or a model reading
//! `llms.txt`, would otherwise read on every line.

/// The separators a theme puts between a page's title and the site's name.
const SEPARATORS: [&str; 6] = [" | ", " - ", " – ", " — ", " · ", ": "];

use std::collections::HashMap;

/// What the titles share: a separator and a phrase, before or after the page's own part.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Affix {
    /// `Lumen Notes | ` before the page's part.
    Prefix(String),
    /// ` | Lumen Notes` after it.
    Suffix(String),
}

impl Affix {
    /// The phrase itself, without its separator: the site's name.
    pub(super) fn phrase(&self) -> &str {
        let (Affix::Prefix(s) | Affix::Suffix(s)) = self;
        let sep = SEPARATORS
            .iter()
            .find(|sep| s.starts_with(**sep) || s.ends_with(**sep));
        let sep = sep.map_or("", |sep| *sep);
        s.strip_prefix(sep)
            .or_else(|| s.strip_suffix(sep))
            .unwrap_or(s)
            .trim()
    }
}

/// The affix to drop: `site_name` after (or before) a separator, when titles carry it;
/// else a separator and phrase that more than half of the `titles` share.
pub(super) fn shared_affix<'t>(
    titles: impl Iterator<Item = &'t str> + Clone,
    site_name: Option<&str>,
) -> Option<Affix> {
    let mut counts: HashMap<Affix, usize> = HashMap::new();
    let mut n = 0;
    for title in titles {
        n += 1;
        for affix in affixes(title) {
            *counts.entry(affix).or_default() += 1;
        }
    }
    let best = |keep: &dyn Fn(&Affix, usize) -> bool| {
        (counts.iter())
            .filter(|(affix, count)| keep(affix, **count))
            .max_by(|a, b| {
                a.1.cmp(b.1)
                    .then_with(|| b.0.phrase().len().cmp(&a.0.phrase().len()))
            })
            .map(|(affix, _)| affix.clone())
    };
    match site_name {
        Some(name) => best(&|affix, _| affix.phrase() == name.trim()),
        None => best(&|_, count| count * 2 > n),
    }
}

/// The affix of each language's titles, found among its own (two at least), when the
/// `titled` pages, `(language, title)`, are in more than one language: a translated
/// site's name differs by language ("Lumen Notes", "Lumen Notizen"). Empty for a site in
/// one language, whose affix is found over all its titles.
pub(super) fn by_language<'t>(
    titled: impl Iterator<Item = (&'t str, &'t str)>,
    site_name: Option<&str>,
) -> HashMap<String, Affix> {
    let mut groups: HashMap<String, Vec<&str>> = HashMap::new();
    for (language, title) in titled {
        groups.entry(primary(language)).or_default().push(title);
    }
    if groups.len() < 2 {
        return HashMap::new();
    }
    (groups.into_iter())
        .filter(|(_, titles)| titles.len() >= 2)
        .filter_map(|(language, titles)| {
            Some((language, shared_affix(titles.into_iter(), site_name)?))
        })
        .collect()
}

/// A language tag's primary language, lowercase (`de-AT` → `de`): regional variants
/// share the site's name.
pub(super) fn primary(tag: &str) -> String {
    let primary = tag.trim().split(['-', '_']).next().unwrap_or_default();
    primary.to_ascii_lowercase()
}

/// Every affix a title could be carrying: for each separator in it, the part from its
/// last occurrence on, and the part up to its first.
fn affixes(title: &str) -> Vec<Affix> {
    let mut found = Vec::new();
    for sep in SEPARATORS {
        if let Some(at) = title.rfind(sep) {
            found.push(Affix::Suffix(title[at..].to_string()));
        }
        if let Some(at) = title.find(sep) {
            found.push(Affix::Prefix(title[..at + sep.len()].to_string()));
        }
    }
    found.sort();
    found.dedup();
    found
}

/// `title` without `affix`; the whole title where that would leave nothing.
pub(super) fn clean<'t>(title: &'t str, affix: Option<&Affix>) -> &'t str {
    let stripped = match affix {
        Some(Affix::Suffix(s)) => title.strip_suffix(s.as_str()),
        Some(Affix::Prefix(s)) => title.strip_prefix(s.as_str()),
        None => None,
    };
    stripped
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .unwrap_or(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(titles: &[&str], site_name: Option<&str>) -> Vec<String> {
        let affix = shared_affix(titles.iter().copied(), site_name);
        titles
            .iter()
            .map(|t| clean(t, affix.as_ref()).to_string())
            .collect()
    }

    #[test]
    fn the_sites_name_is_dropped_from_titles_and_nothing_else() {
        let table: &[(&[&str], Option<&str>, &[&str])] = &[
            (
                &[
                    "Lumen Notes",
                    "About | Lumen Notes",
                    "Hello, world | Lumen Notes",
                ],
                None,
                &["Lumen Notes", "About", "Hello, world"],
            ),
            (
                &["Docs · Guide", "Docs · API", "Docs · Docs"],
                None,
                &["Guide", "API", "Docs"],
            ),
            (&["A - B", "C - D", "E"], None, &["A - B", "C - D", "E"]),
            (
                &["Intro – Site", "Setup – Site", "Site"],
                Some("Site"),
                &["Intro", "Setup", "Site"],
            ),
            (
                &["Rust: a guide", "Go: a guide"],
                Some("Other"),
                &["Rust: a guide", "Go: a guide"],
            ),
            (&["Plain", "Titles"], None, &["Plain", "Titles"]),
        ];
        for (titles, site_name, want) in table {
            assert_eq!(cleaned(titles, *site_name), *want, "{titles:?}");
        }
        let affix = shared_affix(["About | Lumen Notes", "X | Lumen Notes"].into_iter(), None);
        assert_eq!(affix.unwrap().phrase(), "Lumen Notes");
    }

    #[test]
    fn each_language_has_its_own_suffix_and_one_language_none() {
        let titled = [
            ("en", "About | Notes"),
            ("en-US", "Blog | Notes"),
            ("de", "Über | Notizen"),
            ("DE", "Blog | Notizen"),
            ("fr", "Un seul | Notes de Lumen"),
        ];
        let found = by_language(titled.into_iter(), None);
        let phrase = |l: &str| found.get(l).map(Affix::phrase);
        assert_eq!(phrase("en"), Some("Notes"));
        assert_eq!(phrase("de"), Some("Notizen"));
        // One title is no pattern.
        assert_eq!(phrase("fr"), None);
        assert!(by_language(titled[..2].iter().copied(), None).is_empty());
    }
}
