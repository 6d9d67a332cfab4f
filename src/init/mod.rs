//! `sitemapgen init`: recognise the site generator from the files of a project directory
//! and write a commented `sitemap.toml` with its output directory, base URL and URL
//! style, and the excludes that generator's own sitemap makes.

mod render;
mod update;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::fsutil::dir::{Bounds, EntryKind};
pub use crate::generators::Generator;
use crate::generators::{ALL, Project, Settings};

pub use render::{Proposal, proposals, render};
pub use update::{Updated, update};

/// How many entries of the built site `init` looks at for PDFs.
const MAX_ENTRIES_LOOKED_AT: usize = 10_000;

/// How many pages' heads `init` reads for the languages they name.
const MAX_PAGES_READ: usize = 200;

/// The languages the head of the page at `path` names (its own and its alternates'),
/// and the origin of its canonical URL.
fn page_languages(path: &Path) -> (Vec<String>, Option<String>) {
    use std::io::Read;
    let mut html = Vec::new();
    let read = crate::fsutil::open_regular(path).and_then(|f| {
        f.take(crate::page::FIRST_READ as u64)
            .read_to_end(&mut html)
    });
    if read.is_err() {
        return (Vec::new(), None);
    }
    let wants = crate::page::Wants {
        head: Some(crate::page::HeadOptions {
            about: true,
            ..crate::page::HeadOptions::default()
        }),
        ..crate::page::Wants::default()
    };
    let head = crate::page::read_held(&html, &wants, None).head;
    let alternates = head.alternates.iter().map(|a| a.hreflang.as_str());
    let languages = (head.lang.as_deref().into_iter().chain(alternates))
        .filter_map(crate::sections::language_name)
        .collect();
    let canonical = head
        .canonical
        .as_deref()
        .and_then(|c| url::Url::parse(c).ok());
    let origin = canonical
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| format!("{}/", u.origin().ascii_serialization()));
    (languages, origin)
}

/// The project's folders that hold page sources in a markup language (Markdown,
/// reStructuredText...), for a generator `init` does not know: their pages are dated by
/// the source whose text they hold. Hidden folders, the built site and the folders that
/// are never sources are passed over.
fn markup_folders(dir: &Path, public_dir: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| !name.starts_with('.') && name != public_dir.trim_end_matches('/'))
        .filter(|name| !crate::lastmod::source::NOT_SOURCES.contains(&name.as_str()))
        .filter(|name| holds_markup(&dir.join(name)))
        .collect();
    folders.sort();
    folders
}

/// Whether a markup file is among the first entries of `dir` (a few levels down).
fn holds_markup(dir: &Path) -> bool {
    let mut found = false;
    let bounds = Bounds {
        depth: 3,
        entries: MAX_ENTRIES_LOOKED_AT,
    };
    let _ = crate::fsutil::held(dir).and_then(|dir| {
        dir.walk(bounds, |rel, kind| {
            let name = rel.file_name().unwrap_or_default().to_string_lossy();
            let ext = rel.extension().map(|x| x.to_string_lossy().to_lowercase());
            found |= kind == EntryKind::File
                && ext.is_some_and(|x| ["md", "markdown", "rst", "adoc"].contains(&x.as_str()));
            !found && !name.starts_with('.')
        })
    });
    found
}

/// What `init` found in a project directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The generator, if one was recognised.
    pub generator: Option<&'static Generator>,
    /// The file it was recognised by, relative to the project directory.
    pub source: Option<PathBuf>,
    /// What its config says; the defaults when none was recognised.
    pub settings: Settings,
    /// What to change in the generator's setup so the two work together, one line each.
    pub hints: Vec<String>,
    /// The files that would have named a generator but could not be read.
    pub skipped: Vec<Skipped>,
    /// The host the project deploys to and its files, when it has any.
    pub host: Option<crate::host::Found>,
    /// Whether the built site (when there is one) holds PDFs, to offer `documents`.
    pub pdfs: bool,
    /// The languages the built site's pages name (`<html lang>`, hreflang), sorted, to
    /// propose `split = "language"` when there are two or more.
    pub languages: Vec<String>,
    /// Whether the built site is there: before the build, what it holds is not known.
    pub built: bool,
}

/// A project file `init` did not read, for a warning: `astro.config.mjs: not a regular
/// file (a FIFO); skipped`. Without it, a config that cannot be read looks like no
/// config at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {why}", crate::text::path(path))]
pub struct Skipped {
    /// The file, relative to the project directory.
    pub path: PathBuf,
    /// Why it was not read.
    pub why: Unread,
}

/// Why a project file was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unread {
    /// Not a regular file (a FIFO would hang a reader): what it is.
    #[error("not a regular file ({0}); skipped")]
    NotRegular(&'static str),
    /// Longer than the limit, in bytes.
    #[error("larger than {}, the limit for a project file; skipped", crate::text::bytes(*.0))]
    TooLarge(u64),
    /// Not UTF-8 text.
    #[error("not UTF-8 text; skipped")]
    NotUtf8,
    /// The OS refused it: what it said.
    #[error("cannot be read ({0}); skipped")]
    Io(String),
    /// Its YAML breaks a bound (nesting, aliases): it names the generator, but none of
    /// its values are read.
    #[error("{0}; none of its settings are read (set them in sitemap.toml)")]
    Bound(crate::generators::read::YamlRefused),
}

impl std::ops::Deref for Detected {
    type Target = Settings;

    fn deref(&self) -> &Settings {
        &self.settings
    }
}

impl Detected {
    fn none() -> Detected {
        Detected {
            generator: None,
            source: None,
            settings: Settings {
                public_dir: "public".to_string(),
                ..Settings::default()
            },
            hints: Vec::new(),
            skipped: Vec::new(),
            host: None,
            pdfs: false,
            languages: Vec::new(),
            built: false,
        }
    }

    /// Looks in the built site for PDFs, to offer `documents`, and for the languages
    /// its pages name, to propose `split = "language"` (the first entries of a few
    /// levels, the heads of the first pages: a hint, not a walk of the site).
    fn with_documents(mut self, dir: &Path) -> Detected {
        let public = dir.join(&self.settings.public_dir);
        self.built = public.is_dir();
        let mut files = Vec::new();
        let bounds = Bounds {
            depth: 6,
            entries: MAX_ENTRIES_LOOKED_AT,
        };
        let _ = crate::fsutil::held(&public).and_then(|held| {
            held.walk(bounds, |rel, kind| {
                if kind == EntryKind::File {
                    files.push(public.join(rel));
                }
                true
            })
        });
        let mut languages = std::collections::BTreeSet::new();
        let mut origins = std::collections::BTreeMap::<String, usize>::new();
        let mut pages_read = 0;
        for path in &files {
            self.pdfs |= crate::scan::is_page_name(path, &["pdf".to_string()]);
            let html = crate::scan::is_page_name(path, &["html".to_string()]);
            if html && pages_read < MAX_PAGES_READ {
                pages_read += 1;
                let (named, origin) = page_languages(path);
                languages.extend(named);
                origin
                    .into_iter()
                    .for_each(|o| *origins.entry(o).or_default() += 1);
            }
        }
        if languages.len() > 1 {
            self.languages = languages.into_iter().collect();
        }
        // No config gave it: the host the pages' canonical links name, when most do.
        let most = origins.into_iter().max_by_key(|(_, n)| *n);
        if self.settings.base_url.is_none()
            && let Some((origin, n)) = most.filter(|(_, n)| n * 2 > pages_read)
        {
            self.settings.note(format!(
                "base_url from the canonical links of {n} built pages"
            ));
            self.settings.base_url = Some(origin);
        }
        self
    }

    /// Adds the host the project deploys to, and takes the URL form it serves.
    fn with_host(mut self, dir: &Path) -> Detected {
        let public_dir = dir.join(&self.settings.public_dir);
        let places = crate::host::Places {
            public_dir: &public_dir,
            project: dir,
            hosting: None,
        };
        self.host = crate::host::detect(places).map(|found| crate::host::Found {
            files: (found.files.iter())
                .map(|f| f.strip_prefix(dir).unwrap_or(f).to_path_buf())
                .collect(),
            ..found
        });
        let Some(host) = &self.host else {
            return self;
        };
        let form = crate::host::url_form(places);
        let from = match &form.origin {
            Some(origin) => {
                let file = origin.file.strip_prefix(dir).unwrap_or(&origin.file);
                format!("{}'s", crate::text::path(file))
            }
            None => format!("{} Pages'", host.hosting.name()),
        };
        if let Some(v) = form.trailing_slash {
            self.settings.trailing_slash = Some(v);
            self.settings
                .note(format!("trailing_slash from {from} trailingSlash: {v}"));
        }
        if let Some(v) = form.clean_urls {
            self.settings.clean_urls = Some(v);
            self.settings
                .note(format!("clean_urls from {from} clean URLs: {v}"));
        }
        self
    }
}

/// Recognises the generator of the project in `dir`, reads its settings and gives the
/// hints for it.
pub fn detect(dir: &Path) -> Detected {
    let mut skipped = Vec::new();
    let Some((generator, config, text)) = recognise(dir, &mut skipped) else {
        let mut found = Detected {
            skipped,
            ..Detected::none()
        };
        found.settings.content = markup_folders(dir, &found.settings.public_dir);
        return found.with_host(dir).with_documents(dir);
    };
    let project = Project {
        dir,
        config: &config,
        text: &text,
    };
    let yaml = config
        .extension()
        .is_some_and(|e| e == "yml" || e == "yaml");
    if yaml && let Err(why) = crate::generators::read::yaml_first(&text) {
        skipped.push(Skipped {
            path: config.clone(),
            why: Unread::Bound(why),
        });
    }
    let mut settings = Settings::of(generator);
    (generator.read_config)(&mut settings, &project);
    settings.base_url = crate::generators::read::absolute(settings.base_url.take());
    Detected {
        generator: Some(generator),
        hints: (generator.hints)(&project),
        source: Some(config),
        settings,
        skipped,
        host: None,
        pdfs: false,
        languages: Vec::new(),
        built: false,
    }
    .with_host(dir)
    .with_documents(dir)
}

/// The generator whose marker is in `dir`, with the marker's path and text, tier by
/// tier (see [`crate::generators::Marker`]), in the order of [`ALL`]; the markers that
/// could not be read are added to `skipped`.
fn recognise(
    dir: &Path,
    skipped: &mut Vec<Skipped>,
) -> Option<(&'static Generator, PathBuf, String)> {
    for tier in 0..3 {
        for &generator in &ALL {
            for marker in generator.markers {
                if marker.tier != tier {
                    continue;
                }
                for path in marker.paths() {
                    let path = PathBuf::from(path);
                    let Some(text) = read_text(dir, &path, skipped) else {
                        continue;
                    };
                    let project = Project {
                        dir,
                        config: &path,
                        text: &text,
                    };
                    if marker.claims.is_none_or(|claims| claims(&project)) {
                        return Some((generator, path, text));
                    }
                }
            }
        }
    }
    None
}

/// A project file's text, when it is a regular file (a FIFO must not hang `init`) of at
/// most [`crate::generators::MAX_FILE_BYTES`]. A file that is not there is `None`;
/// one there but not read is also added to `skipped` (once: generators share names).
fn read_text(dir: &Path, rel: &Path, skipped: &mut Vec<Skipped>) -> Option<String> {
    use crate::fsutil::{Refused, read_below_string, refused};
    let e = match read_below_string(dir, rel, crate::generators::MAX_FILE_BYTES) {
        Ok(text) => return Some(text),
        Err(e) => e,
    };
    if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) {
        return None;
    }
    let why = match refused(&e) {
        Some(Refused::NotRegular(kind)) => Unread::NotRegular(kind),
        Some(Refused::Larger(limit)) => Unread::TooLarge(limit),
        Some(Refused::NotUtf8) => Unread::NotUtf8,
        Some(Refused::Link) => Unread::NotRegular("a symbolic link"),
        None => Unread::Io(e.to_string()),
    };
    if !skipped.iter().any(|s| s.path == rel) {
        skipped.push(Skipped {
            path: rel.to_path_buf(),
            why,
        });
    }
    None
}

#[cfg(test)]
mod tests;
