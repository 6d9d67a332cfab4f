//! How the sitemap set is laid out and shown: `[[section]]`, `stylesheet`, and the views
//! (`html_sitemap`, `llms_txt`), and the shards of a site built in parts (`shard`,
//! `[[shards]]`).

use super::file::{FileConfig, FileSection, LlmsLinks, Source, bad_value};
use super::{ConfigError, Output, Overrides};
use crate::rules::RuleRef;
use crate::sections::{LanguageSplit, SectionSpec, Sections};
use crate::shard::Parts;
use crate::sitemap::Format;
use crate::stylesheet::Stylesheet;
use crate::urls::BaseUrl;
use crate::views::{
    LLMS_FULL, MAX_LLMS_MAX_PAGES, MAX_SITE_NAME, SECTION_LLMS, TWINS, ViewSettings,
};

/// Every `[[section]]`: names checked and unique, globs compiled. Sections need an
/// index to name their files, so they need XML written to a file.
pub(super) fn sections(
    file: &FileConfig,
    src: &Source,
    format: Format,
    output: &Output,
) -> Result<Sections, ConfigError> {
    let mut specs: Vec<SectionSpec> = Vec::with_capacity(file.sections.len());
    for (i, section) in file.sections.iter().enumerate() {
        let spec = section_spec(&format!("[[section]] #{}", i + 1), section, src)?;
        if specs.iter().any(|s| s.name == spec.name) {
            let message = format!(
                "'{}' names an earlier section too; give each section its own name",
                spec.name
            );
            let key = format!("[[section]] #{} name", i + 1);
            return Err(bad_value(src, section.name.span(), &key, message));
        }
        specs.push(spec);
    }
    if let Some(first) = file.sections.first() {
        let why = match (format, output) {
            (Format::Txt, _) => Some(
                "text sitemaps have no index to name each section's files; use format = \"xml\" or remove the sections",
            ),
            (_, Output::Stdout) => Some(
                "sections are written as an index and child sitemaps, which cannot go to standard output; write to a file (--output sitemap.xml)",
            ),
            _ => None,
        };
        if let Some(why) = why {
            return Err(bad_value(
                src,
                first.name.span(),
                "[[section]]",
                why.to_string(),
            ));
        }
    }
    Sections::new(&specs).map_err(|source| {
        let span = match source.rule {
            RuleRef::Section(n) => file.sections.get(n - 1).map(|s| s.globs.span()),
            _ => None,
        };
        ConfigError::Glob {
            origin: span.map_or_else(|| src.origin.clone(), |s| src.at(s)),
            source,
        }
    })
}

/// `stylesheet`: a URL or path, or `"default"` for the bundled one (at the base URL's
/// path); text sitemaps cannot carry one.
pub(super) fn stylesheet(
    file: &FileConfig,
    src: &Source,
    format: Format,
    base_url: &BaseUrl,
) -> Result<Option<Stylesheet>, ConfigError> {
    let Some(value) = &file.stylesheet else {
        return Ok(None);
    };
    if format == Format::Txt {
        let message =
            "text sitemaps cannot link a stylesheet; use format = \"xml\" or remove stylesheet";
        return Err(bad_value(
            src,
            value.span(),
            "stylesheet",
            message.to_string(),
        ));
    }
    Stylesheet::new(value.get_ref(), base_url.url().path())
        .map(Some)
        .map_err(|problem| {
            let message = format!(
                "'{}' {problem}; give \"default\" (sitemapgen's own) or a path such as \"/sitemap.xsl\"",
                crate::text::one_line(value.get_ref())
            );
            bad_value(src, value.span(), "stylesheet", message)
        })
}

/// The views: `html_sitemap`, `llms_txt` with `llms_txt_max_pages` and `llms_full_txt`,
/// and `site_name`.
pub(super) fn views(file: &FileConfig, src: &Source) -> Result<ViewSettings, ConfigError> {
    let mut views = ViewSettings {
        html_sitemap: file.html_sitemap.unwrap_or(false),
        html_sitemap_dates: file.html_sitemap_dates.unwrap_or(false),
        llms_txt: file.llms_txt.unwrap_or(false),
        ..ViewSettings::default()
    };
    let needs_llms = |key: &str| ConfigError::Value {
        origin: src.origin.clone(),
        key: key.to_string(),
        message: "applies to llms.txt; set llms_txt = true as well, or remove it".to_string(),
    };
    if let Some(n) = &file.llms_txt_max_pages {
        if !views.llms_txt {
            return Err(needs_llms("llms_txt_max_pages"));
        }
        views.llms_txt_max_pages = match usize::try_from(*n.get_ref()) {
            Ok(v) if (1..=MAX_LLMS_MAX_PAGES).contains(&v) => v,
            _ => {
                let message = format!(
                    "{} is outside 1-{MAX_LLMS_MAX_PAGES}; give how many pages llms.txt lists at most",
                    n.get_ref()
                );
                return Err(bad_value(src, n.span(), "llms_txt_max_pages", message));
            }
        };
    }
    if views.html_sitemap_dates && !views.html_sitemap {
        return Err(ConfigError::Value {
            origin: src.origin.clone(),
            key: "html_sitemap_dates".to_string(),
            message: "applies to sitemap.html; set html_sitemap = true as well, or remove it"
                .to_string(),
        });
    }
    llms_parts(file, src, &mut views)?;
    if let Some(name) = &file.site_name {
        let value = name.get_ref().trim();
        let problem = if value.is_empty() {
            Some("is empty".to_string())
        } else if value.chars().any(char::is_control) {
            Some("holds a control character (a newline?); give the name on one line".to_string())
        } else if value.chars().count() > MAX_SITE_NAME {
            Some(format!(
                "is longer than {MAX_SITE_NAME} characters; shorten it"
            ))
        } else {
            None
        };
        if let Some(problem) = problem {
            let message = format!("'{}' {problem}", crate::text::shorten(value));
            return Err(bad_value(src, name.span(), "site_name", message));
        }
        views.site_name = Some(value.to_string());
    }
    Ok(views)
}

/// The keys that add to `llms.txt`: `llms_full_txt`, `llms_markdown`, `llms_links` and
/// `llms_txt_per_section`, each of which needs `llms_txt` (and the first two the
/// `markdown` feature).
fn llms_parts(
    file: &FileConfig,
    src: &Source,
    views: &mut ViewSettings,
) -> Result<(), ConfigError> {
    views.llms_full_txt = file.llms_full_txt.unwrap_or(false);
    views.llms_markdown = file.llms_markdown.unwrap_or(false);
    views.llms_links_markdown = file.llms_links == Some(LlmsLinks::Markdown);
    views.llms_txt_per_section = file.llms_txt_per_section.unwrap_or(false);
    let refuse = |key: &str, message: &str| ConfigError::Value {
        origin: src.origin.clone(),
        key: key.to_string(),
        message: message.to_string(),
    };
    let needs_llms = "applies to llms.txt; set llms_txt = true as well, or remove it";
    let needs_markdown = "this sitemapgen was built without the markdown feature; rebuild with --features markdown, or remove it";
    // Each key, whether it is set, and whether this build can write what it asks for.
    let asked = [
        (LLMS_FULL.key, views.llms_full_txt, LLMS_FULL.built),
        (TWINS.key, views.llms_markdown, TWINS.built),
        ("llms_links", file.llms_links.is_some(), true),
        (
            SECTION_LLMS.key,
            views.llms_txt_per_section,
            SECTION_LLMS.built,
        ),
    ];
    for (key, on, built) in asked {
        if on && !views.llms_txt {
            return Err(refuse(key, needs_llms));
        }
        if on && !built {
            return Err(refuse(key, needs_markdown));
        }
    }
    if views.llms_links_markdown && !views.llms_markdown {
        let message = "\"markdown\" links the Markdown twins; set llms_markdown = true as well, or llms_links = \"page\"";
        return Err(refuse("llms_links", message));
    }
    if views.llms_txt_per_section && file.sections.is_empty() {
        let message = "gives each [[section]] an llms.txt, and there is none; add [[section]] tables, or remove it";
        return Err(refuse("llms_txt_per_section", message));
    }
    Ok(())
}

/// `split = "language"` with its `default_language`: children by language need an
/// index, and decide the children alone (no `[[section]]`).
pub(super) fn split(
    file: &FileConfig,
    src: &Source,
    format: Format,
    output: &Output,
) -> Result<Option<LanguageSplit>, ConfigError> {
    let Some(split) = &file.split else {
        if let Some(default) = &file.default_language {
            let message =
                "applies to split = \"language\"; set that as well, or remove it".to_string();
            return Err(bad_value(src, default.span(), "default_language", message));
        }
        return Ok(None);
    };
    let why = if split.get_ref() != "language" {
        Some(format!(
            "'{}' is not a way to split; give \"language\" (one set of child sitemaps per language), or remove it",
            crate::text::one_line(split.get_ref())
        ))
    } else if !file.sections.is_empty() {
        Some("and [[section]] both decide the child sitemaps; keep one of them".to_string())
    } else if format == Format::Txt {
        Some(
            "text sitemaps have no index to name each language's files; use format = \"xml\""
                .to_string(),
        )
    } else if matches!(output, Output::Stdout) {
        Some("children by language are written as an index and child sitemaps, which cannot go to standard output; write to a file (--output sitemap.xml)".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        return Err(bad_value(src, split.span(), "split", why));
    }
    // Else the language `[source]` names for the pages at the root.
    let from_source = (file.source.as_ref())
        .and_then(|s| s.get_ref().default_language.as_deref())
        .and_then(crate::sections::language_name);
    let default = match &file.default_language {
        None => from_source,
        Some(tag) => Some(
            crate::sections::language_name(tag.get_ref()).ok_or_else(|| {
                let message = format!(
                    "'{}' is not a language tag; give one such as \"en\" or \"pt-BR\"",
                    crate::text::one_line(tag.get_ref())
                );
                bad_value(src, tag.span(), "default_language", message)
            })?,
        ),
    };
    Ok(Some(LanguageSplit { default }))
}

/// One `[[section]]`, its name and globs checked (`key` names it in messages).
fn section_spec(
    key: &str,
    section: &FileSection,
    src: &Source,
) -> Result<SectionSpec, ConfigError> {
    let name = section.name.get_ref();
    if let Some(problem) = crate::sections::name_problem(name) {
        let message = format!(
            "'{}' {problem}; name it like \"blog\" or \"docs-v2\"",
            crate::text::one_line(name)
        );
        return Err(bad_value(
            src,
            section.name.span(),
            &format!("{key} name"),
            message,
        ));
    }
    if section.globs.get_ref().0.is_empty() {
        let message = "is an empty list; give at least one glob such as \"blog/**\"";
        let key = format!("{key} match");
        return Err(bad_value(
            src,
            section.globs.span(),
            &key,
            message.to_string(),
        ));
    }
    Ok(SectionSpec {
        name: name.clone(),
        globs: section.globs.get_ref().0.clone(),
    })
}

/// `[[shards]]`: the parts of a sharded site and the pages each lists, named as sections
/// are, each name once, at most one without `match` (it takes the rest).
pub(super) fn shards(file: &FileConfig, src: &Source) -> Result<Parts, ConfigError> {
    let mut specs: Vec<SectionSpec> = Vec::with_capacity(file.shards.len());
    for (i, shard) in file.shards.iter().enumerate() {
        let key = format!("[[shards]] #{}", i + 1);
        let name = shard.name.get_ref();
        let problem = crate::sections::name_problem(name)
            .map(|p| {
                format!(
                    "'{}' {p}; name it like \"docs\"",
                    crate::text::one_line(name)
                )
            })
            .or_else(|| {
                let again = specs.iter().any(|s| &s.name == name);
                again
                    .then(|| format!("'{name}' names an earlier shard too; give each its own name"))
            });
        if let Some(message) = problem {
            return Err(bad_value(
                src,
                shard.name.span(),
                &format!("{key} name"),
                message,
            ));
        }
        let globs = match &shard.globs {
            Some(globs) if globs.get_ref().0.is_empty() => {
                let message = "is an empty list; give a glob such as \"docs/**\", or leave match out for the shard of the pages no other shard takes";
                return Err(bad_value(
                    src,
                    globs.span(),
                    &format!("{key} match"),
                    message.to_string(),
                ));
            }
            Some(globs) => globs.get_ref().0.clone(),
            None if specs.iter().any(|s| s.globs.is_empty()) => {
                let message = "has no match, and an earlier shard takes the pages no other shard takes; give it a match";
                return Err(bad_value(src, shard.name.span(), &key, message.to_string()));
            }
            None => Vec::new(),
        };
        specs.push(SectionSpec {
            name: name.clone(),
            globs,
        });
    }
    Parts::new(&specs).map_err(|source| ConfigError::Glob {
        origin: src.origin.clone(),
        source,
    })
}

/// `shard` (or `--shard`): the part of a sharded site this build maps. Its name is in its
/// files' names, so it follows a section's rules, and is one of the `[[shards]]` when any
/// are declared; a shard writes an index's children, so it needs XML written to a file.
pub(super) fn shard(
    file: &FileConfig,
    src: &Source,
    overrides: &Overrides,
    layout: (Format, &Output, &Parts),
) -> Result<Option<String>, ConfigError> {
    let (format, output, parts) = layout;
    let (name, origin) = match (&overrides.shard, &file.shard) {
        (Some(name), _) => (name.clone(), "--shard".to_string()),
        (None, Some(name)) => (name.get_ref().clone(), src.at(name.span())),
        (None, None) => return Ok(None),
    };
    let undeclared = !parts.is_empty() && !parts.names().any(|n| n == name);
    let problem = crate::sections::name_problem(&name).map(str::to_string).or(match (format, output) {
        (Format::Txt, _) => Some(
            "is a shard, and text sitemaps have no index for the merge to name their files in; use format = \"xml\"".to_string(),
        ),
        (_, Output::Stdout) => Some(
            "is a shard, which writes child sitemaps and a manifest, and they cannot go to standard output; write to a file (--output sitemap.xml)".to_string(),
        ),
        _ if undeclared => Some(format!(
            "is not one of the [[shards]] of {}: {}; give one of them, or declare it",
            src.origin,
            parts.names().collect::<Vec<_>>().join(", ")
        )),
        _ => None,
    });
    match problem {
        None => Ok(Some(name)),
        Some(problem) => Err(ConfigError::Value {
            origin,
            key: "shard".to_string(),
            message: format!("'{}' {problem}", crate::text::one_line(&name)),
        }),
    }
}
