//! Which child sitemap each listed page goes in: the `[[section]]`s, or with `split =
//! "language"` the languages found.

use super::Urls;
use super::workers::Listed;
use crate::config::Config;
use crate::error::Warning;
use crate::sections::SectionUrls;

/// Moves the listed pages (sorted by URL), `counts[s]` of them in section `s`, section by
/// section, keeping their order within each: a counting sort, each page's place found in
/// one pass and the pages moved into place by following the permutation's cycles. Sorting
/// by section and URL compared URLs all over again (0.03 s at 200,000 pages, after the
/// walk); this holds one `u32` a page.
fn by_section<T>(listed: &mut [T], section: impl Fn(&T) -> u16, counts: &[usize]) {
    let mut next: Vec<usize> = counts
        .iter()
        .scan(0, |start, &n| {
            let this = *start;
            *start += n;
            Some(this)
        })
        .collect();
    let Ok(mut place) = listed
        .iter()
        .map(|l| {
            let slot = &mut next[usize::from(section(l))];
            *slot += 1;
            u32::try_from(*slot - 1)
        })
        .collect::<Result<Vec<u32>, _>>()
    else {
        // Past 4 billion pages: a stable sort keeps the URL order as well.
        return listed.sort_by_key(section);
    };
    for i in 0..listed.len() {
        while place[i] as usize != i {
            let j = place[i] as usize;
            listed.swap(i, j);
            place.swap(i, j);
        }
    }
}

/// Orders the listed pages (sorted by URL) section by section, keeping the order within
/// each, and counts them. The sections are the `[[section]]`s, or with `split =
/// "language"` the languages found, by name.
pub(super) fn into_sections(
    config: &Config,
    listed: &mut [Listed],
    languages: Option<Vec<String>>,
    warnings: &mut Vec<Warning>,
) -> Vec<SectionUrls> {
    let sections = &config.sections;
    let names: Vec<&str> = match &languages {
        Some(names) => names.iter().map(String::as_str).collect(),
        None if sections.is_empty() => return Vec::new(),
        None => sections.specs().iter().map(|s| s.name.as_str()).collect(),
    };
    let mut urls = vec![0; names.len() + 1];
    for l in listed.iter() {
        urls[l.section as usize] += 1;
    }
    by_section(listed, |l| l.section, &urls);
    for (spec, &n) in sections.specs().iter().zip(&urls) {
        if n == 0 {
            warnings.push(Warning::EmptySection {
                name: spec.name.clone(),
                globs: spec.globs.clone(),
            });
        }
    }
    let named = names.into_iter().map(|n| Some(n.to_string()));
    (named.chain([None]))
        .zip(urls)
        .filter(|(name, urls)| name.is_some() || *urls > 0 || languages.is_none())
        .map(|(name, urls)| SectionUrls { name, urls })
        .collect()
}

/// The most languages given child sitemaps of their own (`split = "language"`): each is
/// a set of files, so a site of more is bounded, with a warning.
const MAX_LANGUAGES: usize = 1_000;

/// With `split = "language"`: each listed page's section set to its language's place
/// among the languages found (`default_language` first, then by name), which are returned; a page of no known
/// language goes to the language of `default_language`, else to the unnamed children.
pub(super) fn by_language(
    config: &Config,
    urls: Urls,
    about: &mut crate::views::AboutParts,
    listed: &mut [Listed],
    warnings: &mut Vec<Warning>,
) -> Option<Vec<String>> {
    let split = config.split_language.as_ref()?;
    let languages = about.take_languages();
    let claimed: std::collections::HashMap<&str, &str> = (languages.claimed.iter())
        .map(|(href, lang)| (&**href, &**lang))
        .collect();
    let own = |l: &Listed| -> Option<&str> {
        let at = languages.own.binary_search_by_key(&l.page, |(p, _)| *p);
        match at {
            Ok(at) => Some(&*languages.own[at].1),
            Err(_) => claimed.get(urls.url(l).as_str()).copied(),
        }
    };
    let found: Vec<Option<&str>> = listed
        .iter()
        .map(|l| own(l).or(split.default.as_deref()))
        .collect();
    let mut names: Vec<&str> = found.iter().flatten().copied().collect();
    // The default language first, then the others by name.
    names.sort_unstable_by_key(|&n| (Some(n) != split.default.as_deref(), n));
    names.dedup();
    if let Some(first) = names.get(MAX_LANGUAGES) {
        let (found, kept, first) = (names.len(), MAX_LANGUAGES, first.to_string());
        warnings.push(Warning::LanguagesPastCap { found, kept, first });
    }
    names.truncate(MAX_LANGUAGES);
    let places: std::collections::HashMap<&str, u16> = (names.iter())
        .enumerate()
        .map(|(i, n)| (*n, i as u16))
        .collect();
    for (l, lang) in listed.iter_mut().zip(&found) {
        let place = lang.and_then(|lang| places.get(lang).copied());
        l.section = place.unwrap_or(names.len() as u16);
    }
    Some(names.into_iter().map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pages of random sections, in order, end up section by section in their order, as
    /// a stable sort puts them.
    #[test]
    fn by_section_is_a_stable_sort_by_section() {
        let mut rng = fastrand::Rng::with_seed(7);
        for (len, sections) in [(0, 1), (1, 1), (5, 3), (1000, 4), (1000, 1), (997, 12)] {
            // (section, place in URL order)
            let listed: Vec<(u16, u32)> =
                (0..len).map(|page| (rng.u16(..sections), page)).collect();
            let mut counts = vec![0; usize::from(sections)];
            for &(section, _) in &listed {
                counts[usize::from(section)] += 1;
            }
            let mut got = listed.clone();
            by_section(&mut got, |&(section, _)| section, &counts);
            let mut want = listed;
            want.sort_by_key(|&(section, _)| section);
            assert_eq!(got, want, "{len} pages, {sections} sections");
        }
    }
}
