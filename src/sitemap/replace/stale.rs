//! What a run removes beside its output once its set is in place: the root's rule.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::PathBuf;

use super::super::read::{Root, root_in};
use super::super::{ChildShape, Format, WriteError, child_shape};
use super::Set;
use crate::fsutil::At;
use crate::fsutil::dir::Dir;

/// Which files beside the output a run may remove once its root is in place.
pub enum Stale<'a> {
    /// Regular files shaped as the output's children ([`super::child_name`]) and holding
    /// a sitemap of the set's format (root element `urlset`, or a URL on the first line),
    /// not of this set. Ours means named as only we name files (content-hash children,
    /// and content-hash children of a section of this run), named by the index this run
    /// replaced, or a later part of a split text sitemap (`{stem}-2.txt`, ...). A
    /// `sitemap-1.xml` someone wrote by hand stays, and so do the children of another
    /// output whose name extends this one's (`sitemap-news-1-….xml` of
    /// `sitemap-news.xml`).
    Shaped,
    /// Only the files `previous` names (what the replaced root named) and this set does
    /// not, and of those only what `ours` proves the caller's, given the held directory
    /// and the name: a list of names read from a file may name anything.
    Named {
        /// What the replaced root named.
        previous: &'a HashSet<String>,
        /// Whether the file of this name is the caller's to remove.
        ours: &'a dyn Fn(&Dir, &OsStr) -> bool,
    },
}

/// What [`remove`] removed: files of the set it replaced, and the set of the output's
/// other form.
pub(super) struct Removed {
    pub stale: Vec<PathBuf>,
    pub other_form: Vec<PathBuf>,
}

/// Removes what the root's rule allows beside the output, of the files not `kept`.
pub(super) fn remove(set: &Set, kept: &[PathBuf]) -> Result<Removed, WriteError> {
    let kept: HashSet<&OsStr> = kept.iter().filter_map(|k| k.file_name()).collect();
    let fresh = |name: &str| !kept.contains(OsStr::new(name));
    let held = set.replacement.held.dir();
    let dir = &set.replacement.dir;
    let paths = |names: Vec<String>| names.into_iter().map(|n| dir.join(n)).collect();
    let stale = match set.root.stale {
        Stale::Shaped => held.remove_ours(
            |name| fresh(name) && shaped(set, name),
            |dir, name| holds_sitemap(set.form.format, dir, name),
        ),
        Stale::Named { previous, ours } => {
            held.remove_ours(|name| fresh(name) && previous.contains(name), ours)
        }
    };
    let stale = paths(stale.at(dir)?);
    let other_form = match set.root.stale {
        Stale::Shaped => paths(remove_other_form(set, &fresh).at(dir)?),
        Stale::Named { .. } => Vec::new(),
    };
    Ok(Removed { stale, other_form })
}

/// Removes the output's other form (`sitemap.xml` beside `sitemap.xml.gz`, and the
/// reverse) and the children its index named, shaped as that output's: the set a run
/// with `gzip` the other way wrote, at the name this run's output owns. Only files that
/// hold a sitemap go; a generator's own in that place (MkDocs' `sitemap.xml.gz`) goes
/// too, as this run replaces one at the output.
fn remove_other_form(set: &Set, fresh: &dyn Fn(&str) -> bool) -> std::io::Result<Vec<String>> {
    let name = set.output.file_name().unwrap_or_default().to_string_lossy();
    let other = match name.strip_suffix(".gz") {
        Some(plain) => plain.to_string(),
        None => format!("{name}.gz"),
    };
    let other_output = set.output.with_file_name(&other);
    let held = &set.replacement.held;
    let children = super::previous_children(held, &other);
    let (format, joint) = (set.form.format, set.root.joint);
    let is_child = |name: &str| match (child_shape(&other_output, joint, name), format) {
        (Some(ChildShape::Numbered(n)), Format::Txt) => n >= 2,
        (Some(_), Format::Xml) => children.contains(name),
        _ => false,
    };
    let mut removed = held.dir().remove_ours(
        |name| fresh(name) && (name == other || is_child(name)),
        |dir, name| match format {
            Format::Xml => matches!(root_in(dir, name), Some(Root::Urlset | Root::Index)),
            Format::Txt => holds_sitemap(format, dir, name),
        },
    )?;
    // The children first, sorted, the root last.
    removed.sort_by_key(|name| (*name == other, name.clone()));
    Ok(removed)
}

/// Whether `name` is shaped as a child [`Stale::Shaped`] removes.
fn shaped(set: &Set, name: &str) -> bool {
    let previous = &set.replacement.previous;
    match (
        child_shape(set.output, set.root.joint, name),
        set.form.format,
    ) {
        (Some(ChildShape::Hashed), Format::Xml) => true,
        (Some(ChildShape::Sectioned(section)), Format::Xml) => {
            set.sections.contains(&section.as_str()) || previous.contains(name)
        }
        (Some(ChildShape::Numbered(_)), Format::Xml) => previous.contains(name),
        (Some(ChildShape::Numbered(n)), Format::Txt) => n >= 2,
        _ => false,
    }
}

/// Whether the file `name` holds a sitemap of `format`: root element `urlset`, or a URL
/// on the first line.
fn holds_sitemap(format: Format, dir: &Dir, name: &OsStr) -> bool {
    match format {
        Format::Xml => root_in(dir, name) == Some(Root::Urlset),
        Format::Txt => (dir.open_regular(name).ok().flatten())
            .and_then(|file| super::super::opening(file, 8))
            .is_some_and(|b| b.starts_with(b"https://") || b.starts_with(b"http://")),
    }
}
