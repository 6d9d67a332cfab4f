//! The folders of a group's pages as a tree, for `sitemap.html`: a docs site of 400 pages
//! reads as its parts, not as one list. A folder of one page folds into its parent, and
//! a folder that holds nothing but one folder is shown with it (`2024/05`), so the tree
//! is only as deep as the site's parts are.

use std::collections::BTreeMap;

use super::Page;

/// One folder of the tree.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Folder {
    /// Its name below its parent, percent-decoded (`2024/05` for a folder that held only
    /// `05`); empty for the tree's root.
    pub name: String,
    /// Its pages, by place in the listed pages: its own index page first (the home page,
    /// at the root), then the pages in it and those of its one-page folders, by URL.
    pub pages: Vec<usize>,
    /// Its folders of two pages or more, by name.
    pub folders: Vec<Folder>,
    /// How many pages it holds, its folders' included.
    pub count: usize,
}

/// A folder as the pages are sorted into it, before folding.
#[derive(Default)]
struct Building<'a> {
    index: Option<usize>,
    pages: Vec<usize>,
    folders: BTreeMap<&'a str, Building<'a>>,
}

/// The tree of the pages `members` (places in `pages`), rooted at the deepest folder that
/// holds them all.
pub(super) fn tree(pages: &[Page], members: &[usize]) -> Folder {
    let mut root = Building::default();
    for &i in members {
        let path = pages[i].rest.split(['?', '#']).next().unwrap_or_default();
        // `blog/a/` is the index of folder `blog/a`; `blog/b.html` a page of `blog`.
        let (dirs, is_index) = match path.strip_suffix('/') {
            Some(dir) => (dir, true),
            None if path.is_empty() => ("", true),
            None => (path.rsplit_once('/').map_or("", |(dir, _)| dir), false),
        };
        let mut folder = &mut root;
        for name in dirs.split('/').filter(|n| !n.is_empty()) {
            folder = folder.folders.entry(name).or_default();
        }
        match (is_index, folder.index) {
            (true, None) => folder.index = Some(i),
            _ => folder.pages.push(i),
        }
    }
    let mut tree = fold(root, String::new(), pages);
    // The group's own folder: the pages of `blog` all sit under `blog/`.
    while tree.pages.is_empty() && tree.folders.len() == 1 {
        tree = tree.folders.pop().unwrap_or_default();
        tree.name.clear();
    }
    tree
}

/// `building` as shown: one-page folders folded in, lone folders joined to their parent.
fn fold(building: Building, name: String, pages: &[Page]) -> Folder {
    let mut folder = Folder {
        name,
        pages: building.pages,
        ..Folder::default()
    };
    for (child_name, child) in building.folders {
        let child = fold(child, super::groups::decoded(child_name), pages);
        if child.count == 1 {
            folder.pages.extend(child.pages);
        } else if child.pages.is_empty() && child.folders.len() == 1 {
            let only = child.folders.into_iter().next().unwrap_or_default();
            folder.folders.push(Folder {
                name: format!("{}/{}", child.name, only.name),
                ..only
            });
        } else {
            folder.folders.push(child);
        }
    }
    folder.pages.sort_unstable_by_key(|&i| pages[i].rest);
    if let Some(index) = building.index {
        folder.pages.insert(0, index);
    }
    folder.count = folder.pages.len() + folder.folders.iter().map(|f| f.count).sum::<usize>();
    folder
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree as lines: `name (count): rests`, indented by depth.
    fn lines(folder: &Folder, pages: &[Page], depth: usize, out: &mut Vec<String>) {
        let rests: Vec<&str> = folder.pages.iter().map(|&i| pages[i].rest).collect();
        let name = &folder.name;
        let line = format!(
            "{}{name} ({}): {}",
            "  ".repeat(depth),
            folder.count,
            rests.join(" ")
        );
        out.push(line);
        for child in &folder.folders {
            lines(child, pages, depth + 1, out);
        }
    }

    fn shown(rests: &[&'static str]) -> Vec<String> {
        let pages: Vec<Page> = rests.iter().map(|rest| Page::bare(rest)).collect();
        let members: Vec<usize> = (0..pages.len()).collect();
        let mut out = Vec::new();
        lines(&tree(&pages, &members), &pages, 0, &mut out);
        out
    }

    #[test]
    fn folders_nest_fold_and_join() {
        let table: &[(&[&str], &[&str])] = &[
            // The home page leads; a folder of one page is a page of its parent.
            (
                &["tags/rust/", "contact.html", "", "about/"],
                &[" (4):  about/ contact.html tags/rust/"],
            ),
            // A folder's index first, then its pages, then its folders; the group's own
            // folder is the root.
            (
                &[
                    "docs/guide/b.html",
                    "docs/",
                    "docs/guide/a.html",
                    "docs/faq.html",
                    "docs/guide/",
                    "docs/api/x/",
                    "docs/api/y/",
                ],
                &[
                    " (7): docs/ docs/faq.html",
                    "  api (2): docs/api/x/ docs/api/y/",
                    "  guide (3): docs/guide/ docs/guide/a.html docs/guide/b.html",
                ],
            ),
            // A folder that holds only a folder is shown with it; names decoded.
            (
                &[
                    "blog/",
                    "blog/2024/05/a/",
                    "blog/2024/05/b/",
                    "blog/caf%C3%A9/x.html",
                    "blog/caf%C3%A9/y.html",
                ],
                &[
                    " (5): blog/",
                    "  2024/05 (2): blog/2024/05/a/ blog/2024/05/b/",
                    "  café (2): blog/caf%C3%A9/x.html blog/caf%C3%A9/y.html",
                ],
            ),
            // Queries and fragments are not folders.
            (&["a?x=1/2", "a?x=3"], &[" (2): a?x=1/2 a?x=3"]),
        ];
        for (rests, want) in table {
            assert_eq!(shown(rests), *want, "{rests:?}");
        }
    }
}
