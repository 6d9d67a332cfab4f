//! The git side of the sources' dates: a thread lists the files of each content
//! directory (`ls-tree`), marks those the work tree has changed (`status`, run beside
//! it) and dates them by the log, setting each step as it is done, so that the walk of
//! the sources looks up blob ids while the log is still read ([`Git`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::SourceSettings;
use super::walk::{is_source, may_be_walked, project_key};
use crate::lastmod::git::{self, GitUnavailable};

/// The files git has in each content directory, dated once the log is read, and what
/// stopped git.
#[derive(Default)]
pub(super) struct History {
    pub(super) trees: HashMap<PathBuf, git::Tree>,
    shallow: bool,
    error: Option<GitUnavailable>,
}

/// What the git thread has found, as it finds it: the files HEAD has (listed first), then
/// which of them the work tree has changed (marked by `status`), then their dates (the
/// log, beside `status`). Each step is set with what stopped it.
#[derive(Default)]
pub(super) struct Git {
    listed: OnceLock<History>,
    marked: OnceLock<Option<GitUnavailable>>,
    logged: OnceLock<Option<GitUnavailable>>,
}

impl Git {
    /// The source at `rel` in the content directory `dir`, if git has it unchanged: once
    /// `status` has said which are.
    pub(super) fn clean(&self, dir: &Path, rel: &Path) -> Option<&git::File> {
        self.marked.wait();
        self.listed.get()?.trees.get(dir)?.clean(rel)
    }

    /// Whether the clone is shallow, and what stopped git last, once the git thread
    /// has ended.
    pub(super) fn outcome(&self) -> (bool, Option<GitUnavailable>) {
        let listed = self.listed.get();
        let errors = [self.marked.get(), self.logged.get()];
        let error = (errors.into_iter().flatten().flatten().last())
            .or(listed.and_then(|h| h.error.as_ref()));
        (listed.is_some_and(|h| h.shallow), error.cloned())
    }
}

/// Sets what the git thread did not, however it ends, so that no walker waits for it
/// for ever.
pub(super) struct GitDone<'g>(pub(super) &'g Git);

impl Drop for GitDone<'_> {
    fn drop(&mut self) {
        let _ = self.0.listed.set(History::default());
        let _ = self.0.marked.set(None);
        let _ = self.0.logged.set(None);
    }
}

/// Lists the files of each content directory in the project's `repository` that can be
/// sources, then marks those changed and dates them by the log, side by side: see
/// [`Git`].
pub(super) fn read_history(
    settings: &SourceSettings,
    dirs: &[&PathBuf],
    repository: Result<git::Repository, GitUnavailable>,
    git: &Git,
) {
    let mut history = History::default();
    let repository = match repository {
        Ok(repository) => repository,
        Err(e) => {
            history.error = Some(e);
            let _ = git.listed.set(history);
            return;
        }
    };
    let project = |dir: &Path| settings.project.join(dir);
    std::thread::scope(|s| {
        // `status` looks at every file; it runs while `ls-tree` lists them.
        let changed = s.spawn(|| {
            let changed = dirs.iter().map(|dir| repository.changed(&project(dir)));
            changed.collect::<Vec<_>>()
        });
        for dir in dirs {
            let sources = |rel: &Path| {
                let key = || project_key(&dir.join(rel));
                // And the files beside sources that hold their metadata, which date them too.
                let sidecar = settings.generator.and_then(|g| g.sidecar);
                let beside = sidecar.is_some_and(|ext| rel.extension().is_some_and(|e| e == ext));
                may_be_walked(rel) && (beside || is_source(settings, key, rel))
            };
            match repository.tree(&project(dir), &sources) {
                Ok(tree) => {
                    history.shallow |= repository.is_shallow();
                    history.trees.insert((*dir).clone(), tree);
                }
                Err(e) => history.error = Some(e),
            }
        }
        let history = git.listed.get_or_init(|| history);
        s.spawn(|| {
            let changed = changed.join().expect("the git status thread panicked");
            let mut error = None;
            for (dir, changed) in dirs.iter().zip(changed) {
                if let Some(tree) = history.trees.get(*dir) {
                    error = changed.mark(tree).err().or(error);
                }
            }
            git.marked.set(error)
        });
        let mut error = None;
        for (dir, tree) in &history.trees {
            // A history not read to its end dates none of the directory's files.
            let log = repository.log(&project(dir), tree);
            error = log.inspect_err(|_| tree.forget()).err().or(error);
        }
        let _ = git.logged.set(error);
    });
}
