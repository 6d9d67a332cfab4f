//! Which sections get an `llms.txt` of their own (`llms_txt_per_section = true`), so an
//! agent on a large site reads the index of the part it needs: a `[[section]]` whose
//! pages share a folder gets `FOLDER/llms.txt`, and the root file links it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::{Page, SECTION_LLMS};
use crate::fsutil;

/// A section's own `llms.txt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OwnFile {
    /// Its path below the public directory (`blog/llms.txt`).
    pub rel: PathBuf,
    /// Its URL.
    pub url: String,
}

/// For each group, its own `llms.txt` when it is a named section whose pages share a
/// folder that the build made inside the site, and no earlier section has that folder.
pub(super) fn own_files(
    public_dir: &Path,
    base_url: &str,
    pages: &[Page],
    groups: &[Group],
) -> Vec<Option<OwnFile>> {
    let real_root = std::fs::canonicalize(public_dir).ok();
    let mut taken = HashSet::new();
    let mut own = Vec::with_capacity(groups.len());
    for group in groups {
        let file = group
            .section
            .then(|| folder(pages, &group.pages))
            .flatten()
            .filter(|folder| taken.insert(*folder))
            .and_then(|folder| {
                let decoded = percent_encoding::percent_decode_str(folder)
                    .decode_utf8()
                    .ok()?;
                let dir = public_dir.join(&*decoded);
                let inside = real_root.as_deref().is_some_and(|root| {
                    matches!(fsutil::place_in(root, &dir), Ok(fsutil::Place::Inside(_)))
                });
                let is_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
                (inside && is_dir).then(|| OwnFile {
                    rel: Path::new(&*decoded).join(SECTION_LLMS.name),
                    url: format!("{base_url}{folder}{}", SECTION_LLMS.name),
                })
            });
        own.push(file);
    }
    own
}

/// The folder all of `members` are in (`docs/guide/`, slash kept), when it is not the
/// site's root.
fn folder<'a>(pages: &[Page<'a>], members: &[usize]) -> Option<&'a str> {
    let mut common: Option<&str> = None;
    for &i in members {
        let rest = pages[i].rest;
        let path = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
        let dir = &path[..path.rfind('/').map_or(0, |k| k + 1)];
        common = Some(match common {
            None => dir,
            Some(c) => {
                let same = c
                    .bytes()
                    .zip(dir.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &c[..c[..same].rfind('/').map_or(0, |k| k + 1)]
            }
        });
    }
    common.filter(|c| !c.is_empty())
}

/// Which pages each `llms.txt` lists: the root file the pages of the groups without a
/// file of their own, each section's file its own pages, each at most `max`
/// ([`super::llms::select`]).
pub(super) fn choose(
    pages: &[Page],
    groups: &[Group],
    own: &[Option<OwnFile>],
    max: usize,
) -> Vec<bool> {
    let mut chosen = vec![false; pages.len()];
    let mut among = |members: &[usize]| {
        let sub: Vec<Page> = members.iter().map(|&i| pages[i]).collect();
        for (&i, c) in members.iter().zip(super::llms::select(&sub, max)) {
            chosen[i] = c;
        }
    };
    let root: Vec<usize> = (groups.iter().zip(own))
        .filter(|(_, own)| own.is_none())
        .flat_map(|(g, _)| g.pages.iter().copied())
        .collect();
    among(&root);
    for (group, own) in groups.iter().zip(own) {
        if own.is_some() {
            among(&group.pages);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_folder_is_the_one_its_pages_share() {
        let table: &[(&[&str], Option<&str>)] = &[
            (&["blog/", "blog/a/", "blog/2024/b.html"], Some("blog/")),
            (&["docs/guide/a", "docs/guide/b/"], Some("docs/guide/")),
            (&["docs/api/x", "docs/apis/y"], Some("docs/")),
            (&["blog/a/", "about/"], None),
            (&["", "blog/"], None),
            (&["a?x=1/2/", "a?x=3/"], None),
        ];
        for (rests, want) in table {
            let pages: Vec<Page> = rests.iter().map(|rest| Page::bare(rest)).collect();
            let members: Vec<usize> = (0..pages.len()).collect();
            assert_eq!(folder(&pages, &members), *want, "{rests:?}");
        }
    }
}
