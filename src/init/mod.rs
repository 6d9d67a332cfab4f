//! `sitemapgen init`: recognise the site generator from the files of a project directory
//! and write a commented `sitemap.toml` with its output directory, base URL and URL
//! style, and the excludes that generator's own sitemap makes.

mod render;

use std::path::{Path, PathBuf};

pub use crate::generators::Generator;
use crate::generators::{ALL, Project, Settings};

pub use render::render;

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
        }
    }
}

/// Recognises the generator of the project in `dir`, reads its settings and gives the
/// hints for it.
pub fn detect(dir: &Path) -> Detected {
    let Some((generator, config, text)) = recognise(dir) else {
        return Detected::none();
    };
    let project = Project {
        dir,
        config: &config,
        text: &text,
    };
    let mut settings = Settings::of(generator);
    (generator.read_config)(&mut settings, &project);
    settings.base_url = crate::generators::read::absolute(settings.base_url.take());
    Detected {
        generator: Some(generator),
        hints: (generator.hints)(&project),
        source: Some(config),
        settings,
    }
}

/// The generator whose marker is in `dir`, with the marker's path and text, tier by
/// tier (see [`crate::generators::Marker`]), in the order of [`ALL`].
fn recognise(dir: &Path) -> Option<(&'static Generator, PathBuf, String)> {
    for tier in 0..3 {
        for &generator in &ALL {
            for marker in generator.markers {
                if marker.tier != tier {
                    continue;
                }
                for path in marker.paths() {
                    let path = PathBuf::from(path);
                    let Some(text) = read_text(&dir.join(&path)) else {
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
/// most [`crate::generators::MAX_FILE_BYTES`]; anything else is as good as absent.
fn read_text(path: &Path) -> Option<String> {
    crate::fsutil::read_regular_string(path, crate::generators::MAX_FILE_BYTES).ok()
}

#[cfg(test)]
mod tests;
