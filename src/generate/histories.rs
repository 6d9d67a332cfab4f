//! Git's history and the sources' dates, read beside the walk: each on a thread of its
//! own, started before the walk, while the walk's threads open the site and read its
//! pages. A page that needs one waits for it ([`Beside`]); what is found wrong is told
//! once the walk is done.

use std::ops::Deref;
use std::path::Path;
use std::sync::OnceLock;
use std::thread::{Scope, ScopedJoinHandle};

use super::Lookups;
use crate::config::Config;
use crate::error::Warning;
use crate::lastmod::git::{GitDates, Repository};
use crate::lastmod::source::{SourceDates, SourceUnavailable, Sources};
use crate::lastmod::{self, LastmodSource};

/// A lookup read on a thread of its own beside the walk: whoever looks in it waits until
/// it is read.
#[derive(Debug)]
pub(crate) struct Beside<T>(OnceLock<Option<T>>);

impl<T> Default for Beside<T> {
    fn default() -> Self {
        Beside(OnceLock::new())
    }
}

impl<T> Beside<T> {
    /// Fills it with what `read` returns. Should `read` panic, it is left marked so, and
    /// whoever waits on it panics too rather than waiting for ever.
    fn fill(&self, read: impl FnOnce() -> T) {
        struct Unread<'a, T>(&'a OnceLock<Option<T>>);
        impl<T> Drop for Unread<'_, T> {
            fn drop(&mut self) {
                let _ = self.0.set(None);
            }
        }
        let unread = Unread(&self.0);
        let _ = self.0.set(Some(read()));
        drop(unread);
    }
}

impl<T> Beside<T> {
    /// What it was filled with, if its reading did not panic.
    pub(super) fn into_inner(self) -> Option<T> {
        self.0.into_inner().flatten()
    }
}

impl<T> Deref for Beside<T> {
    type Target = T;

    fn deref(&self) -> &T {
        (self.0.wait().as_ref()).expect("the thread reading a lookup panicked")
    }
}

/// The sources of the `"source"` dates, when that source is used: found before the walk,
/// so a project without them is told at once and the pages fall through as before.
pub(super) fn find_sources(config: &Config, warnings: &mut Vec<Warning>) -> Option<Sources> {
    let settings = config.source.as_ref()?;
    if !lastmod::uses(&config.lastmod, LastmodSource::Source) {
        return None;
    }
    lastmod::source::find(settings)
        .map_err(|why| warnings.push(Warning::Source(why)))
        .ok()
}

/// Starts reading git's history (for the `"git"` source) and the `sources`' dates, as
/// far as the lookups wait for them (`lookups.git`, `lookups.source`), on threads of
/// `scope`; both read the project's repository, found once there. The handle gives
/// back what was found wrong.
pub(super) fn read<'scope>(
    scope: &'scope Scope<'scope, '_>,
    config: &'scope Config,
    lookups: &'scope Lookups,
    sources: Option<Sources>,
) -> Option<ScopedJoinHandle<'scope, Vec<Warning>>> {
    if lookups.git.is_none() && sources.is_none() && lookups.documents.is_none() {
        return None;
    }
    Some(scope.spawn(move || {
        let repository = Repository::find(&config.project);
        let git = lookups.git.as_ref().map(|beside| {
            let repository = repository.clone();
            scope.spawn(move || {
                let mut warnings = Vec::new();
                beside.fill(|| git_dates(config, repository, &mut warnings));
                warnings
            })
        });
        let documents = lookups.documents.as_ref().map(|beside| {
            let repository = repository.clone();
            scope.spawn(move || {
                let mut warnings = Vec::new();
                beside.fill(|| document_dates(config, repository, &mut warnings));
                warnings
            })
        });
        let mut warnings = Vec::new();
        if let (Some(beside), Some(sources)) = (&lookups.source, sources) {
            beside.fill(|| source_dates(sources.read(repository), &mut warnings));
        }
        for thread in [git, documents].into_iter().flatten() {
            warnings.extend(thread.join().expect("a git thread panicked"));
        }
        warnings
    }))
}

/// Git's history of the public directory's pages; none (with why) when it cannot be
/// read.
fn git_dates(
    config: &Config,
    repository: Result<Repository, crate::lastmod::git::GitUnavailable>,
    warnings: &mut Vec<Warning>,
) -> GitDates {
    let pages = |rel: &Path| {
        crate::scan::is_page_name(rel, &config.extensions)
            || crate::scan::is_page_name(rel, &config.documents)
    };
    match repository.and_then(|repository| repository.dates(&config.public_dir, &pages)) {
        Ok(git) => {
            if git.shallow {
                warnings.push(Warning::ShallowClone);
            }
            git
        }
        Err(why) => {
            warnings.push(Warning::Git(why));
            GitDates::default()
        }
    }
}

/// The documents' sources in the project's repository, dated; none (with why) when git
/// cannot be read.
fn document_dates(
    config: &Config,
    repository: Result<Repository, crate::lastmod::git::GitUnavailable>,
    warnings: &mut Vec<Warning>,
) -> crate::lastmod::documents::DocumentDates {
    let project = match config.project.as_os_str().is_empty() {
        true => Path::new("."),
        false => config.project.as_path(),
    };
    let read = repository.and_then(|repository| {
        let public_dir = config
            .public_dir
            .strip_prefix(".")
            .unwrap_or(&config.public_dir);
        crate::lastmod::documents::DocumentDates::read(
            &repository,
            project,
            public_dir,
            &config.documents,
        )
    });
    read.unwrap_or_else(|why| {
        warnings.push(Warning::Source(SourceUnavailable::Git(why)));
        Default::default()
    })
}

/// The source dates read, their problems turned into warnings.
fn source_dates(mut dates: SourceDates, warnings: &mut Vec<Warning>) -> SourceDates {
    if dates.shallow {
        warnings.push(Warning::ShallowClone);
    }
    if let Some(why) = dates.git_error.take() {
        warnings.push(Warning::Source(SourceUnavailable::Git(why)));
    }
    for (path, value) in std::mem::take(&mut dates.unparseable) {
        warnings.push(Warning::UnparseableDate { path, value });
    }
    for (path, why) in std::mem::take(&mut dates.refused) {
        warnings.push(Warning::SourceRefused { path, why });
    }
    if let Some((path, e)) = dates.cache_error.take() {
        let message = e.to_string();
        warnings.push(Warning::SourceCache { path, message });
    }
    dates
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lookup waited on from other threads is seen once filled; one whose reading
    /// panicked makes its waiters panic instead of waiting for ever.
    #[test]
    fn waiters_see_the_lookup_or_its_reader_panicking() {
        let beside: Beside<u32> = Beside::default();
        std::thread::scope(|s| {
            let waiters: Vec<_> = (0..4).map(|_| s.spawn(|| *beside + 1)).collect();
            s.spawn(|| beside.fill(|| 41));
            for waiter in waiters {
                assert_eq!(waiter.join().unwrap(), 42);
            }
        });
        let broken: Beside<u32> = Beside::default();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| *broken);
            let reader = s.spawn(|| broken.fill(|| panic!("reading failed")));
            assert!(reader.join().is_err());
            assert!(waiter.join().is_err());
        });
    }
}
