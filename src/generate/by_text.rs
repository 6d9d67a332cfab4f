//! The pages no route reached, dated once the walk is done by the source whose text they
//! hold (`lastmod::source::matching`): their text was read with their source link during
//! the walk; they are matched, and their entries given the source's date where
//! `"source"` outranks what dated them.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::workers::Processed;
use crate::config::Config;
use crate::error::Warning;
use crate::lastmod::LastmodSource;
use crate::lastmod::source::matching::ByText;
use crate::lastmod::source::{Miss, SourceDates};

/// Matches the unrouted pages of `processed` to their sources by their text, and dates
/// those matched; returns what was made of each page (for `explain` and `--verbose`),
/// by its path, when `details`; a warning when what was read of the sources cannot be
/// kept for the next run.
pub(super) fn date_by_text(
    config: &Config,
    dates: &SourceDates,
    processed: &mut Processed,
    details: bool,
    warnings: &mut Vec<Warning>,
) -> Vec<(PathBuf, ByText)> {
    let Some(settings) = config.source.as_ref() else {
        return Vec::new();
    };
    let unrouted = std::mem::take(&mut processed.unrouted);
    if unrouted.is_empty() {
        return Vec::new();
    }
    let (unrouted, mut read): (Vec<_>, Vec<_>) = (unrouted.into_iter())
        .map(|(page, from, text)| ((page, from), text))
        .unzip();
    let pages = &processed.pages;
    let project = match settings.project.as_os_str().is_empty() {
        true => Path::new("."),
        false => settings.project.as_path(),
    };
    let matched = dates.match_by_text(project, &mut read, pages.iter(), config.threads);
    if let Some((path, e)) = matched.kept_error {
        let message = e.to_string();
        warnings.push(Warning::SourceCache { path, message });
    }
    let verdicts = matched.verdicts;
    let wanted: HashSet<u32> = unrouted.iter().map(|(page, _)| *page).collect();
    let mut dated = Dated::new(processed, &wanted, details);
    let mut matched = HashSet::new();
    let mut out = Vec::new();
    for ((page, from), verdict) in unrouted.into_iter().zip(verdicts) {
        let rel = processed.pages.get(page as usize).to_path_buf();
        match &verdict {
            ByText::Matched { date: Ok(date), .. } => {
                dated.set(processed, page, from, date.0);
                matched.insert(rel.clone());
            }
            _ => dated.missed(processed, &rel, &verdict),
        }
        if details {
            out.push((rel, verdict));
        }
    }
    processed
        .undated
        .retain(|(rel, _, _)| !matched.contains(rel));
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Where each unrouted page is in the lists its new date changes.
struct Dated {
    /// The place in `listed` of each page (by its place in the walk's list).
    listed: HashMap<u32, usize>,
    /// The place in `dated_by` and `undated` of each page's path (with details).
    dated_by: HashMap<PathBuf, usize>,
    undated: HashMap<PathBuf, usize>,
    details: bool,
}

impl Dated {
    fn new(processed: &Processed, wanted: &HashSet<u32>, details: bool) -> Dated {
        let listed = (processed.listed.iter().enumerate())
            .filter(|(_, l)| wanted.contains(&l.page))
            .map(|(i, l)| (l.page, i))
            .collect();
        let places = |paths: &mut dyn Iterator<Item = &Path>| -> HashMap<PathBuf, usize> {
            match details {
                true => (paths.enumerate())
                    .map(|(i, p)| (p.to_path_buf(), i))
                    .collect(),
                false => HashMap::new(),
            }
        };
        Dated {
            listed,
            dated_by: places(&mut processed.dated_by.iter().map(|(p, _)| p.as_path())),
            undated: places(&mut processed.undated.iter().map(|(p, _, _)| p.as_path())),
            details,
        }
    }

    /// Dates page `page` by its source, in place of what dated it (`from`).
    fn set(
        &mut self,
        processed: &mut Processed,
        page: u32,
        from: Option<LastmodSource>,
        date: Timestamp,
    ) {
        let Some(&i) = self.listed.get(&page) else {
            return;
        };
        let listed = &mut processed.listed[i];
        listed.item.set_lastmod(Some(date));
        let source = Some(LastmodSource::Source);
        // A page waiting for the state was not counted yet, nor listed in the details.
        let waited = listed.pending.take().is_some();
        match waited {
            true => processed.dated.add(source),
            false => processed.dated.moved(from, source),
        }
        processed.dated.by_text += 1;
        let rel = processed.pages.get(page as usize);
        match self.dated_by.get(rel) {
            Some(&at) => processed.dated_by[at].1 = source,
            None if self.details => processed.dated_by.push((rel.to_path_buf(), source)),
            None => {}
        }
    }

    /// Says why the page at `rel` has no source, in the details.
    fn missed(&self, processed: &mut Processed, rel: &Path, verdict: &ByText) {
        if let Some(&at) = self.undated.get(rel) {
            processed.undated[at].1 = match verdict {
                ByText::Matched {
                    date: Err(miss), ..
                } => miss.clone(),
                other => Miss::Unmatched(Box::new(other.clone())),
            };
        }
    }
}
