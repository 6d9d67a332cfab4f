//! What the views show of each listed page, kept compact for sites of a million pages:
//! every title, description and language in one string, a 16-byte span per page, as the
//! sitemap's entries keep their URLs.

use std::path::Path;

/// Where one page's title, description and language are in the text: `start`, then the
/// title's bytes, the description's, the language's; [`NONE`] for one the page does not
/// have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: usize,
    title: u16,
    description: u16,
    lang: u16,
}

/// The length of a value the page does not have. Titles and descriptions are bounded
/// far below it (see [`crate::page::TITLE_LIMIT`]).
const NONE: u16 = u16::MAX;

impl Span {
    fn pack(text: &mut String, [title, description, lang]: [Option<&str>; 3]) -> Span {
        let start = text.len();
        let mut len = |value: Option<&str>| match value {
            Some(v) if v.len() < usize::from(NONE) => {
                text.push_str(v);
                v.len() as u16
            }
            _ => NONE,
        };
        let title = len(title);
        let description = len(description);
        let lang = len(lang);
        Span {
            start,
            title,
            description,
            lang,
        }
    }

    /// The title, the description and the language, from the text the span was packed
    /// into.
    fn read(self, text: &str) -> [Option<&str>; 3] {
        let mut at = self.start;
        let mut take = |len: u16| {
            (len != NONE).then(|| {
                let value = &text[at..at + usize::from(len)];
                at += usize::from(len);
                value
            })
        };
        [take(self.title), take(self.description), take(self.lang)]
    }
}

/// What the views show of the listed pages, in the order of the sitemap's entries: each
/// page's title and description, the home page's language, and each page's path when
/// `llms_full_txt` reads the pages again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Abouts {
    text: String,
    spans: Vec<Span>,
    lang: Option<Box<str>>,
    /// Empty without `llms_full_txt`.
    paths: Vec<Option<Box<Path>>>,
    /// The pages a rule lists though robots.txt, the host or their head would leave them
    /// out, by place, with why (kept for the audit).
    forced: Vec<(usize, String)>,
    /// The pages over [`crate::page::LARGE_PAGE_BYTES`], by place, with their sizes
    /// (kept for the audit).
    large: Vec<(usize, u64)>,
}

impl Abouts {
    /// How many pages (as many as the entries, or none without views).
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none (no view is written).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The title and description of the `i`th page.
    pub fn get(&self, i: usize) -> (Option<&str>, Option<&str>) {
        let [title, description, _] = self.spans[i].read(&self.text);
        (title, description)
    }

    /// The language of the `i`th page (its `<html lang>`).
    pub fn language(&self, i: usize) -> Option<&str> {
        self.spans[i].read(&self.text)[2]
    }

    /// The path of the `i`th page under the public directory, with `llms_full_txt`.
    pub fn path(&self, i: usize) -> Option<&Path> {
        self.paths.get(i).and_then(|p| p.as_deref())
    }

    /// The pages over [`crate::page::LARGE_PAGE_BYTES`], by place, with their sizes.
    pub fn large(&self) -> &[(usize, u64)] {
        &self.large
    }

    /// The pages a rule lists though they would be left out, by place, with why.
    pub fn forced(&self) -> &[(usize, String)] {
        &self.forced
    }

    /// The home page's language (`<html lang>`).
    pub fn lang(&self) -> Option<&str> {
        self.lang.as_deref()
    }
}

/// [`Abouts`] as the page workers gather them: by place in the walk's list, in the order
/// pages are processed.
#[derive(Debug, Default)]
pub(crate) struct AboutParts {
    text: String,
    spans: Vec<(u32, Span)>,
    paths: Vec<(u32, Option<Box<Path>>)>,
    lang: Option<Box<str>>,
    large: Vec<(u32, u64)>,
    forced: Vec<(u32, String)>,
    languages: Languages,
}

/// What the pages say of their languages, for `split = "language"`: each page's own
/// (its `<html lang>`, else the hreflang it gives itself), by place in the walk's list,
/// and what each alternate says of the language of the URL it names.
#[derive(Debug, Default)]
pub(crate) struct Languages {
    /// By place, as section names ([`crate::sections::language_name`]).
    pub own: Vec<(u32, Box<str>)>,
    /// `(href, language)` of every alternate of a listed page.
    pub claimed: Vec<(Box<str>, Box<str>)>,
}

/// What one listed page says of itself, for [`AboutParts::add`].
#[derive(Debug, Clone, Default)]
pub(crate) struct AboutPage<'a> {
    pub title: Option<&'a str>,
    pub description: Option<&'a str>,
    /// The page's language, given for the home page only.
    pub lang: Option<&'a str>,
    /// The page's own language (`<html lang>`): titles' suffixes are found per language.
    pub language: Option<&'a str>,
    /// Its path, given with `llms_full_txt` only.
    pub path: Option<&'a Path>,
    /// Its size in bytes, when the file was read.
    pub size: Option<u64>,
    /// What would have left it out (noindex, a redirect, robots.txt, the host), when a
    /// rule lists it anyway: for the audit.
    pub forced: Option<String>,
}

impl AboutParts {
    /// Adds the page at `place` in the walk's list.
    pub(crate) fn add(&mut self, place: u32, page: AboutPage) {
        let span = Span::pack(
            &mut self.text,
            [page.title, page.description, page.language],
        );
        self.spans.push((place, span));
        if let Some(path) = page.path {
            self.paths.push((place, Some(path.into())));
        }
        if let Some(lang) = page.lang {
            self.lang.get_or_insert_with(|| lang.into());
        }
        if let Some(size) = page.size.filter(|&s| s > crate::page::LARGE_PAGE_BYTES) {
            self.large.push((place, size));
        }
        if let Some(why) = page.forced {
            self.forced.push((place, why));
        }
    }

    /// Adds what the page at `place` says of its language and its alternates'.
    pub(crate) fn add_language(
        &mut self,
        place: u32,
        own: Option<String>,
        claimed: impl Iterator<Item = (String, String)>,
    ) {
        let languages = &mut self.languages;
        if let Some(own) = own {
            languages.own.push((place, own.into()));
        }
        (languages.claimed).extend(claimed.map(|(href, lang)| (href.into(), lang.into())));
    }

    /// What the pages said of their languages ([`AboutParts::add_language`]), own
    /// languages sorted by place.
    pub(crate) fn take_languages(&mut self) -> Languages {
        let mut languages = std::mem::take(&mut self.languages);
        languages.own.sort_unstable_by_key(|(place, _)| *place);
        languages
    }

    /// Moves `batch` in, its places counted after `first`; `batch` is left empty.
    pub(crate) fn append(&mut self, batch: &mut AboutParts, first: u32) {
        let languages = &mut self.languages;
        (languages.own)
            .extend((batch.languages.own.drain(..)).map(|(place, lang)| (place + first, lang)));
        (languages.claimed).append(&mut batch.languages.claimed);
        let offset = self.text.len();
        self.text.push_str(&batch.text);
        batch.text.clear();
        self.spans
            .extend(batch.spans.drain(..).map(|(place, mut span)| {
                span.start += offset;
                (place + first, span)
            }));
        self.paths.extend(
            batch
                .paths
                .drain(..)
                .map(|(place, path)| (place + first, path)),
        );
        if self.lang.is_none() {
            self.lang = batch.lang.take();
        }
        (self.large).extend(
            batch
                .large
                .drain(..)
                .map(|(place, size)| (place + first, size)),
        );
        (self.forced).extend(
            batch
                .forced
                .drain(..)
                .map(|(place, why)| (place + first, why)),
        );
    }

    /// The pages at `places`, in that order (the sitemap's); none when nothing was
    /// gathered (no view is written).
    pub(crate) fn in_order(mut self, places: impl ExactSizeIterator<Item = u32>) -> Abouts {
        if self.spans.is_empty() {
            return Abouts::default();
        }
        self.spans.sort_unstable_by_key(|(place, _)| *place);
        self.paths.sort_unstable_by_key(|(place, _)| *place);
        let keep_paths = !self.paths.is_empty();
        self.large.sort_unstable();
        self.forced.sort_unstable_by_key(|(place, _)| *place);
        let mut spans = Vec::with_capacity(places.len());
        let mut paths = Vec::with_capacity(if keep_paths { places.len() } else { 0 });
        let absent = Span::pack(&mut String::new(), [None; 3]);
        let mut large = Vec::new();
        let mut forced = Vec::new();
        for (i, place) in places.enumerate() {
            if let Ok(at) = self.large.binary_search_by_key(&place, |(p, _)| *p) {
                large.push((i, self.large[at].1));
            }
            if let Ok(at) = self.forced.binary_search_by_key(&place, |(p, _)| *p) {
                forced.push((i, self.forced[at].1.clone()));
            }
            let found = self.spans.binary_search_by_key(&place, |(p, _)| *p);
            spans.push(found.map_or(absent, |i| self.spans[i].1));
            if keep_paths {
                let found = self.paths.binary_search_by_key(&place, |(p, _)| *p);
                paths.push(found.ok().and_then(|i| self.paths[i].1.take()));
            }
        }
        Abouts {
            text: self.text,
            spans,
            lang: self.lang,
            paths,
            large,
            forced,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_come_back_in_the_order_asked() {
        let mut batch = AboutParts::default();
        let page = |title, description, path: Option<&'static str>| AboutPage {
            title,
            description,
            lang: None,
            language: None,
            path: path.map(Path::new),
            size: None,
            forced: None,
        };
        batch.add(0, page(Some("Zero"), None, Some("0.html")));
        batch.add(1, page(None, Some("one"), Some("1.html")));
        let mut all = AboutParts::default();
        all.add(0, page(Some("Á"), Some("a"), Some("a.html")));
        all.append(&mut batch, 1);
        assert!(batch.text.is_empty() && batch.spans.is_empty());
        let abouts = all.in_order([2, 0, 1].into_iter());
        assert_eq!(abouts.len(), 3);
        assert_eq!(abouts.get(0), (None, Some("one")));
        assert_eq!(abouts.get(1), (Some("Á"), Some("a")));
        assert_eq!(abouts.get(2), (Some("Zero"), None));
        assert_eq!(abouts.path(0), Some(Path::new("1.html")));
        assert_eq!(
            AboutParts::default().in_order([0].into_iter()),
            Abouts::default()
        );
    }
}
