//! What a merge is given: the options, and the shards' manifests read and checked
//! against each other.

use std::path::{Path, PathBuf};

use super::error::{FileProblem, MergeError};
use super::manifest::{self, Manifest, ManifestProblem, ReadChanges};
use crate::fsutil::Place;
use crate::robots::RobotsTxt;
use crate::urls::BaseUrl;
use crate::views::ViewSettings;
use crate::w3c::LastmodFormat;

/// What a merge is given.
#[derive(Debug, Clone)]
pub struct MergeOptions<'a> {
    /// The shards' manifests.
    pub manifests: &'a [PathBuf],
    /// The URL `dir` is published at.
    pub base_url: &'a BaseUrl,
    /// The directory the root index is written to, holding every shard's files.
    pub dir: &'a Path,
    /// The root index's file name, from the config and flags (`sitemap.xml`,
    /// `sitemap.xml.gz`): never from a manifest, which only says what its shard was
    /// built to write.
    pub root: &'a str,
    /// How the index writes `lastmod`.
    pub lastmod_format: LastmodFormat,
    /// The `href` of the stylesheet the indexes link, when one is.
    pub stylesheet: Option<&'a str>,
    /// What to do with `dir/robots.txt`: each index is announced.
    pub robots_txt: RobotsTxt,
    /// Where the shards' change lists go, joined (for `submit`).
    pub changes_file: &'a Path,
    /// The views to make from what the manifests say of their pages.
    pub views: &'a ViewSettings,
    /// The `[[shards]]` declared: when any are, the merge takes exactly those.
    pub declared: &'a super::Parts,
}

/// One shard: its manifest, where it lies, and what it says.
pub(super) struct Shard {
    pub path: PathBuf,
    /// The manifest's directory, symbolic links resolved.
    pub dir: PathBuf,
    /// That directory under the merge's.
    pub rel: PathBuf,
    pub manifest: Manifest<ReadChanges>,
}

impl Shard {
    /// Refuses a name that is not a plain file name (one beside the manifest).
    pub fn check_name(&self, name: &str) -> Result<(), MergeError> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\', '\0'])
            && Path::new(name).file_name() == Some(name.as_ref());
        match plain {
            true => Ok(()),
            false => Err(self.problem(name, FileProblem::Name)),
        }
    }

    /// Opens the file `name` beside the manifest (a name [`Shard::check_name`] passed),
    /// through no link and only when it is a regular file: a shard's output, downloaded
    /// from anywhere, may hold a link that leads anywhere.
    pub fn open(&self, name: &str) -> Result<std::fs::File, FileProblem> {
        crate::fsutil::open_below(&self.dir, Path::new(name))
            .map_err(|e| FileProblem::Missing(crate::text::one_line(&e.to_string())))
    }

    /// The error for the file `file` of this shard.
    pub fn problem(&self, file: &str, problem: FileProblem) -> MergeError {
        MergeError::File {
            manifest: self.path.clone(),
            file: file.to_string(),
            problem,
        }
    }
}

/// Reads every manifest, in name order: each of this version, under the merge's
/// directory and base URL, each name once, all writing the same root sitemap's name.
pub(super) fn read_shards(options: &MergeOptions) -> Result<Vec<Shard>, MergeError> {
    let real_dir = std::fs::canonicalize(options.dir).map_err(|e| MergeError::Manifest {
        path: options.dir.to_path_buf(),
        problem: ManifestProblem::Read(crate::text::one_line(&e.to_string())),
    })?;
    refuse_over_total(options.manifests)?;
    let mut shards = Vec::with_capacity(options.manifests.len());
    // What the manifests read so far take, all held at once: bounded together (by their
    // sizes above, and as they are read, for a file that grows).
    let mut taken = 0;
    for path in options.manifests {
        let problem = |problem| MergeError::Manifest {
            path: path.clone(),
            problem,
        };
        let room = manifest::MAX_TOTAL_BYTES - taken;
        let read = manifest::read_within(path, room, taken).map_err(problem)?;
        let manifest = read.manifest;
        taken += read.bytes;
        // Its name is in its files' names: one a build would take, or ownership by name
        // means nothing.
        if let Some(why) = crate::sections::name_problem(&manifest.name) {
            let name = crate::text::one_line(&manifest.name);
            return Err(problem(ManifestProblem::Shape(format!(
                "its name '{name}' {why}"
            ))));
        }
        let outside = || MergeError::Outside {
            path: path.clone(),
            dir: options.dir.to_path_buf(),
        };
        let Ok(Place::Inside(real)) = crate::fsutil::place_in(&real_dir, path) else {
            return Err(outside());
        };
        let dir = crate::fsutil::parent_dir(&real).to_path_buf();
        let rel = dir
            .strip_prefix(&real_dir)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let under = BaseUrl::parse(&manifest.base_url)
            .is_ok_and(|b| b.as_str().starts_with(options.base_url.as_str()));
        if !under {
            return Err(MergeError::BaseUrl {
                path: path.clone(),
                name: manifest.name.clone(),
                shard_base: crate::text::one_line(&manifest.base_url),
                base: options.base_url.as_str().to_string(),
            });
        }
        shards.push(Shard {
            path: path.clone(),
            dir,
            rel,
            manifest,
        });
    }
    shards.sort_by(|a, b| a.manifest.name.cmp(&b.manifest.name));
    for pair in shards.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.manifest.name == b.manifest.name {
            return Err(MergeError::SameName {
                name: crate::text::one_line(&a.manifest.name),
                a: a.path.clone(),
                b: b.path.clone(),
            });
        }
    }
    refuse_undeclared(&shards, options.declared)?;
    refuse_other_forms(&shards)?;
    if let Some(odd) = shards.iter().find(|s| s.manifest.sitemap != options.root) {
        return Err(MergeError::OtherRoot {
            shard: crate::text::one_line(&odd.manifest.name),
            built: crate::text::one_line(&odd.manifest.sitemap),
            root: options.root.to_string(),
        });
    }
    Ok(shards)
}

/// Refuses, before any is read, the manifest whose size takes those before it and itself
/// past [`manifest::MAX_TOTAL_BYTES`].
fn refuse_over_total(paths: &[PathBuf]) -> Result<(), MergeError> {
    let mut before: u64 = 0;
    for path in paths {
        // One that cannot be looked at is refused when it is read.
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if before.saturating_add(size) > manifest::MAX_TOTAL_BYTES {
            return Err(MergeError::Manifest {
                path: path.clone(),
                problem: ManifestProblem::OverTotal { size, before },
            });
        }
        before += size;
    }
    Ok(())
}

/// Every shard's URLs in one form: shards built with other `clean_urls` or
/// `trailing_slash` would list a URL in two forms (`/about` and `/about.html`).
fn refuse_other_forms(shards: &[Shard]) -> Result<(), MergeError> {
    let Some(first) = shards.first() else {
        return Ok(());
    };
    for shard in &shards[1..] {
        let (a, b) = (first.manifest.url_form, shard.manifest.url_form);
        if let Some((setting, a_value, b_value)) = a.differs(b) {
            return Err(MergeError::UrlForm {
                a: crate::text::one_line(&first.manifest.name),
                b: crate::text::one_line(&shard.manifest.name),
                setting,
                a_value,
                b_value,
            });
        }
    }
    Ok(())
}

/// With `[[shards]]` declared, each manifest must be of one of them, and each must have
/// its manifest: a part is dropped from the site only when its table is.
fn refuse_undeclared(shards: &[Shard], declared: &super::Parts) -> Result<(), MergeError> {
    if declared.is_empty() {
        return Ok(());
    }
    if let Some(shard) = shards
        .iter()
        .find(|s| !declared.names().any(|n| n == s.manifest.name))
    {
        return Err(MergeError::Undeclared {
            path: shard.path.clone(),
            name: crate::text::one_line(&shard.manifest.name),
        });
    }
    match declared
        .names()
        .find(|n| !shards.iter().any(|s| s.manifest.name == *n))
    {
        Some(name) => Err(MergeError::NotGiven {
            name: name.to_string(),
        }),
        None => Ok(()),
    }
}
