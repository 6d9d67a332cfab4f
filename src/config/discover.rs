//! Where the config file is: the one given, or `sitemap.toml` in the current folder or
//! the nearest of its parents, up to the repository's root, as cargo finds `Cargo.toml`.

use std::path::{Path, PathBuf};

use super::{Config, ConfigError, DEFAULT_CONFIG_FILE, Overrides};

/// The config file a command reads, and the folders looked in for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// The file: the one given, or the nearest `sitemap.toml`; `None` for none.
    pub path: Option<PathBuf>,
    /// The folders looked in, nearest first, as paths from the current folder (`.`,
    /// `..`); empty when a file was given.
    pub searched: Vec<PathBuf>,
}

/// The config file: `given`, or `sitemap.toml` in `cwd` or the nearest parent that has
/// one, up to the repository's root (the first folder holding `.git`). Outside a
/// repository only `cwd` is looked in, so a stray file above a project is never read.
/// The path found is relative to `cwd` (`sitemap.toml`, `../sitemap.toml`), as messages
/// name it.
pub fn find(given: Option<&Path>, cwd: &Path) -> Found {
    if let Some(given) = given {
        return Found {
            path: Some(given.to_path_buf()),
            searched: Vec::new(),
        };
    }
    let repository = cwd.ancestors().position(|dir| dir.join(".git").exists());
    let mut found = Found::default();
    let mut rel = PathBuf::new();
    for (depth, dir) in cwd
        .ancestors()
        .enumerate()
        .take(repository.unwrap_or(0) + 1)
    {
        if depth > 0 {
            rel.push("..");
        }
        let shown = if depth == 0 { Path::new(".") } else { &rel };
        found.searched.push(shown.to_path_buf());
        if dir.join(DEFAULT_CONFIG_FILE).is_file() {
            found.path = Some(rel.join(DEFAULT_CONFIG_FILE));
            break;
        }
    }
    found
}

impl Found {
    /// Loads the file found (if any) with `overrides`; a setting missing when no file
    /// was found says where the file was looked for.
    pub fn load(&self, overrides: &Overrides) -> Result<Config, ConfigError> {
        let loaded = Config::load(self.path.as_deref(), overrides);
        match loaded {
            Err(ConfigError::Missing { key, hint }) if self.path.is_none() => {
                Err(ConfigError::NoFile {
                    key,
                    hint,
                    searched: self.searched.clone(),
                })
            }
            loaded => loaded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_file_up_to_the_repository_is_found() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("project");
        let deep = project.join("content/posts");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir(project.join(".git")).unwrap();
        // Above the repository: never read.
        std::fs::write(root.path().join(DEFAULT_CONFIG_FILE), "").unwrap();
        let none = find(None, &deep);
        assert_eq!(none.path, None);
        let looked: Vec<_> = none.searched.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(looked, [".", "..", "../.."]);

        std::fs::write(project.join(DEFAULT_CONFIG_FILE), "").unwrap();
        let up = find(None, &deep);
        assert_eq!(up.path, Some(PathBuf::from("../../sitemap.toml")));
        let here = find(None, &project);
        assert_eq!(here.path, Some(PathBuf::from("sitemap.toml")));
        assert_eq!(here.searched, [PathBuf::from(".")]);

        let given = find(Some(Path::new("x.toml")), &deep);
        assert_eq!(given.path, Some(PathBuf::from("x.toml")));
    }

    #[test]
    fn outside_a_repository_only_the_folder_itself_is_looked_in() {
        let root = tempfile::tempdir().unwrap();
        let inner = root.path().join("site");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(root.path().join(DEFAULT_CONFIG_FILE), "").unwrap();
        let found = find(None, &inner);
        // The temporary folder may itself be inside a repository; only without one is
        // the parent passed over.
        if !root.path().ancestors().any(|d| d.join(".git").exists()) {
            assert_eq!(found.path, None);
            assert_eq!(found.searched, [PathBuf::from(".")]);
        }
    }
}
