//! Named sections: `[[section]]` tables whose pages get child sitemaps of their own
//! (`sitemap-blog-1-….xml`), so a search console can report on each part of a site.
//! A page goes to the first section, in file order, with a glob that matches its path;
//! pages in no section go to the unnamed children.

use std::path::Path;

use globset::{Candidate, GlobSet, GlobSetBuilder};

use crate::rules::{GlobError, RuleRef, build_set, compile_glob};

/// The longest section name: it becomes part of file names and URLs.
pub const MAX_NAME_LEN: usize = 64;

/// `split = "language"`: one set of child sitemaps per language, named by it
/// (`sitemap-en-1-….xml`), so a search console reports coverage per language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LanguageSplit {
    /// The language of a page that names none (`default_language`), as a section name.
    pub default: Option<String>,
}

/// A page's language as a section name: the tag lower-cased (`pt-BR` → `pt-br`), when it
/// makes one; `x-default` is no page's language.
pub fn language_name(tag: &str) -> Option<String> {
    let name = tag.trim().to_ascii_lowercase();
    (name != "x-default" && name_problem(&name).is_none()).then_some(name)
}

/// One `[[section]]` as written in the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionSpec {
    /// Its name, in its child sitemaps' file names.
    pub name: String,
    /// Glob patterns, as for rules; a page is in the section when any of them matches.
    pub globs: Vec<String>,
}

/// What is wrong with a section name, when anything is: it must be 1 to
/// [`MAX_NAME_LEN`] of `a-z`, `0-9` and `-`, neither starting nor ending with `-`.
pub fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if name.len() > MAX_NAME_LEN {
        return Some("is longer than 64 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Some("may hold only lowercase letters a-z, digits and '-'");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("may not start or end with '-'");
    }
    None
}

/// The sections, compiled into one glob set.
#[derive(Debug, Default)]
pub struct Sections {
    specs: Vec<SectionSpec>,
    globs: GlobSet,
    /// For each glob of `globs`, in the same order, its section. Globs are added section by
    /// section, so the lowest matching glob belongs to the first matching section.
    glob_section: Vec<u16>,
}

impl Sections {
    /// Compiles the sections; names are checked by the configuration (see
    /// [`name_problem`]).
    pub fn new(specs: &[SectionSpec]) -> Result<Sections, GlobError> {
        let mut builder = GlobSetBuilder::new();
        let mut glob_section = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            for glob in &spec.globs {
                builder.add(compile_glob(glob, RuleRef::Section(i + 1))?);
                glob_section.push(i as u16);
            }
        }
        let globs = build_set(&builder)?;
        Ok(Sections {
            specs: specs.to_vec(),
            globs,
            glob_section,
        })
    }

    /// Whether there are any sections.
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// The sections, in file order.
    pub fn specs(&self) -> &[SectionSpec] {
        &self.specs
    }

    /// The place of the section a path (relative to the public directory) belongs to:
    /// the first one that matches, or [`Self::rest`] for none. `matched` is scratch space.
    pub fn of(&self, rel: &Path, matched: &mut Vec<usize>) -> u16 {
        if self.specs.is_empty() {
            return 0;
        }
        self.globs
            .matches_candidate_into(&Candidate::new(rel), matched);
        matched
            .iter()
            .map(|&g| self.glob_section[g])
            .min()
            .unwrap_or_else(|| self.rest())
    }

    /// The place given to pages in no section: after every named one.
    pub fn rest(&self) -> u16 {
        self.specs.len() as u16
    }

    /// The name of the section at `place`, `None` for the pages in no section.
    pub fn name(&self, place: u16) -> Option<&str> {
        self.specs.get(place as usize).map(|s| s.name.as_str())
    }
}

/// How many URLs went to one section, in the order its sitemaps are listed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SectionUrls {
    /// The section's name; `None` for the pages in no section.
    pub name: Option<String>,
    /// Its URLs.
    pub urls: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, globs: &[&str]) -> SectionSpec {
        SectionSpec {
            name: name.to_string(),
            globs: globs.iter().map(|g| g.to_string()).collect(),
        }
    }

    #[test]
    fn languages_name_sections() {
        let table = [
            ("en", Some("en")),
            ("pt-BR", Some("pt-br")),
            (" zh-Hant ", Some("zh-hant")),
            ("x-default", None),
            ("en_US", None),
            ("", None),
        ];
        for (tag, want) in table {
            assert_eq!(language_name(tag).as_deref(), want, "{tag}");
        }
    }

    #[test]
    fn a_page_goes_to_the_first_section_that_matches() {
        let sections = Sections::new(&[
            spec("news", &["blog/news/**"]),
            spec("blog", &["blog/**", "posts/*.html"]),
            spec("docs", &["docs/**", "blog/news/**"]),
        ])
        .unwrap();
        let table = [
            ("blog/news/a/index.html", Some("news")),
            ("blog/a/index.html", Some("blog")),
            ("posts/x.html", Some("blog")),
            ("posts/deeper/x.html", None),
            ("docs/index.html", Some("docs")),
            ("index.html", None),
            ("blogger/index.html", None),
        ];
        let mut matched = Vec::new();
        for (path, want) in table {
            let place = sections.of(Path::new(path), &mut matched);
            assert_eq!(sections.name(place), want, "{path}");
        }
        assert_eq!(sections.rest(), 3);
    }

    #[test]
    fn names_are_checked() {
        let table = [
            ("blog", None),
            ("docs-v2", None),
            ("2024", None),
            ("", Some("is empty")),
            (
                "Blog",
                Some("may hold only lowercase letters a-z, digits and '-'"),
            ),
            (
                "a_b",
                Some("may hold only lowercase letters a-z, digits and '-'"),
            ),
            (
                "a.b",
                Some("may hold only lowercase letters a-z, digits and '-'"),
            ),
            (
                "café",
                Some("may hold only lowercase letters a-z, digits and '-'"),
            ),
            ("-blog", Some("may not start or end with '-'")),
            ("blog-", Some("may not start or end with '-'")),
        ];
        for (name, want) in table {
            assert_eq!(name_problem(name), want, "{name:?}");
        }
        assert!(name_problem(&"a".repeat(64)).is_none());
        assert!(name_problem(&"a".repeat(65)).is_some());
    }

    #[test]
    fn a_bad_glob_names_its_section() {
        let err = Sections::new(&[spec("blog", &["blog/**"]), spec("docs", &["docs/[z-a]"])])
            .unwrap_err();
        assert_eq!(err.rule, RuleRef::Section(2));
        assert!(err.to_string().contains("[[section]] #2"), "{err}");
    }
}
