//! Joining the sitemaps of a sharded build into one sitemap index.
//!
//! A site too large for one run (or built in parts) is mapped by one `sitemapgen build`
//! per part, each writing its own sitemap or index; `sitemapgen index` then lists them
//! all in one index. Indexes may not nest, so an index given as input is flattened: its
//! children are listed instead.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::fsutil::Place;
use crate::sitemap::read::{Document, ReadError, Root, XmlError, XmlErrorKind};
use crate::sitemap::{self, PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES, WriteError};
use crate::urls::{self, BaseUrl, LocForm, LocProblem};
use crate::w3c::{self, LastmodFormat};

/// Why the index cannot be written; nothing is written then.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// An input cannot be read or is not a sitemap.
    #[error("{}: {problem}", crate::text::path(path))]
    Input {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// An input is outside the directory published at the base URL.
    #[error(
        "{} is not under {}, so it has no URL under the base URL; pass --root",
        crate::text::path(path),
        crate::text::path(root)
    )]
    OutsideRoot {
        /// The input.
        path: PathBuf,
        /// The published directory.
        root: PathBuf,
    },
    /// The output is one of the inputs: writing would replace a sitemap with an index
    /// naming itself.
    #[error(
        "{} is both an input and the output; write the index to another file",
        crate::text::path(path)
    )]
    OutputIsInput {
        /// The file.
        path: PathBuf,
    },
    /// A child cannot be listed: it breaks the protocol's rules for a `<loc>` (which
    /// `check` applies), or is on another host. Nothing is written.
    #[error(
        "{}: child sitemap '{}' {problem}",
        place(path, *line),
        crate::text::shorten(loc)
    )]
    BadChild {
        /// The input it comes from.
        path: PathBuf,
        /// Its line there (0: the input itself, a sitemap, is the child).
        line: u64,
        /// Its URL.
        loc: String,
        /// What is wrong.
        problem: ChildProblem,
    },
    /// More sitemaps than one index may list.
    #[error(
        "{0} sitemaps, more than the 50,000 one index may list; write several indexes and announce each in robots.txt"
    )]
    TooMany(usize),
    /// Writing failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Why a child cannot be listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChildProblem {
    /// Not a URL the protocol allows.
    #[error(
        "{0}; an index lists each sitemap by its absolute, percent-encoded http(s) URL (run sitemapgen check on the input)"
    )]
    Loc(LocProblem),
    /// On another host than the base URL's.
    #[error(
        "is on {host}, not on {base} (--base-url's host); list only this site's sitemaps, or pass --allow-other-hosts for another site you own"
    )]
    OtherHost {
        /// Its host.
        host: String,
        /// The base URL's host.
        base: String,
    },
}

/// Which children an index may list, beyond the protocol's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Hosts {
    /// Children on other hosts than the base URL's are allowed (a search engine accepts
    /// them when both sites are verified as one owner's).
    pub any: bool,
}

/// `path:line`, or `path` alone for line 0, on one line.
fn place(path: &Path, line: u64) -> String {
    let path = crate::text::path(path);
    if line == 0 {
        path
    } else {
        format!("{path}:{line}")
    }
}

/// One sitemap the index lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Child {
    /// Its absolute URL.
    pub loc: String,
    /// The newest `lastmod` in it.
    pub lastmod: Option<Timestamp>,
}

/// Lists `inputs` (sitemaps, or indexes to flatten) as children published under
/// `base_url`, each at its path relative to `root`. Every child is checked as `check`
/// checks a `<loc>`, and against `base_url`'s host unless `hosts` allows any, before
/// anything is written.
pub fn children(
    inputs: &[PathBuf],
    root: &Path,
    base_url: &BaseUrl,
    hosts: Hosts,
) -> Result<Vec<Child>, IndexError> {
    let root_real = std::fs::canonicalize(root).map_err(|e| IndexError::Input {
        path: root.to_path_buf(),
        problem: format!("cannot be read ({e})"),
    })?;
    let mut children = Vec::new();
    for path in inputs {
        let input_err = |problem: String| IndexError::Input {
            path: path.clone(),
            problem,
        };
        let place = crate::fsutil::place_in(&root_real, path)
            .map_err(|e| input_err(format!("cannot be read ({e})")))?;
        let Place::Inside(real) = place else {
            return Err(IndexError::OutsideRoot {
                path: path.clone(),
                root: root.to_path_buf(),
            });
        };
        // Inside, so under the root's real path.
        let rel = real.strip_prefix(&root_real).unwrap_or(&real);
        let listed = match read_input(path).map_err(input_err)? {
            Input::Urlset(lastmod) => vec![(
                0,
                Child {
                    loc: urls::file_url(base_url.as_str(), rel),
                    lastmod,
                },
            )],
            Input::Index(listed) => listed,
        };
        for (line, child) in listed {
            refuse_bad_child(&child.loc, base_url, hosts).map_err(|problem| {
                IndexError::BadChild {
                    path: path.clone(),
                    line,
                    loc: child.loc.clone(),
                    problem,
                }
            })?;
            children.push(child);
        }
    }
    children.sort_by(|a, b| a.loc.cmp(&b.loc));
    children.dedup_by(|a, b| a.loc == b.loc);
    if children.len() > PROTOCOL_MAX_ENTRIES {
        return Err(IndexError::TooMany(children.len()));
    }
    Ok(children)
}

/// What keeps `loc` out of the index: a rule of the protocol ([`LocForm`], as `check`
/// applies them), or a host other than `base_url`'s unless `hosts` allows any.
pub(crate) fn refuse_bad_child(
    loc: &str,
    base_url: &BaseUrl,
    hosts: Hosts,
) -> Result<(), ChildProblem> {
    let form = LocForm::of(loc);
    if let Some(problem) = form.problem() {
        return Err(ChildProblem::Loc(problem));
    }
    match form.url {
        Some(url) if !hosts.any && !base_url.same_host(&url) => Err(ChildProblem::OtherHost {
            host: url.host_str().unwrap_or_default().to_string(),
            base: base_url.url().host_str().unwrap_or_default().to_string(),
        }),
        _ => Ok(()),
    }
}

/// Refuses an `output` that is one of `inputs` (the same file, however named).
pub fn refuse_output_among_inputs(output: &Path, inputs: &[PathBuf]) -> Result<(), IndexError> {
    let Ok(out) = std::fs::canonicalize(output) else {
        return Ok(()); // not there yet: no input can be it
    };
    let same = inputs
        .iter()
        .any(|i| std::fs::canonicalize(i).is_ok_and(|i| i == out) || same_file(i, output));
    if same {
        return Err(IndexError::OutputIsInput {
            path: output.to_path_buf(),
        });
    }
    Ok(())
}

/// Whether two paths are one file (hard links included): device and inode on Unix, volume
/// and file index on Windows.
fn same_file(a: &Path, b: &Path) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// Writes the index atomically, linking `stylesheet` for browsers when given.
pub fn write(
    output: &Path,
    children: &[Child],
    format: LastmodFormat,
    stylesheet: Option<&str>,
) -> Result<(), IndexError> {
    let listed: Vec<sitemap::Child> = (children.iter())
        .map(|c| sitemap::Child {
            loc: c.loc.clone(),
            lastmod: c.lastmod,
            ..Default::default()
        })
        .collect();
    sitemap::write_index_file(output, &listed, format, stylesheet)?;
    Ok(())
}

/// What an input turned out to be.
enum Input {
    /// A sitemap, with its newest lastmod.
    Urlset(Option<Timestamp>),
    /// An index, with its children and the line each is at.
    Index(Vec<(u64, Child)>),
}

/// Reads a sitemap (`.xml` or `.xml.gz`) just far enough to index it: its kind, and its
/// newest `lastmod` or its children. Streamed, from a regular file only (a FIFO would
/// hang the run), no further than the protocol's size limit (a gzip bomb inflates
/// past it), keeping no value longer than any URL may be.
fn read_input(path: &Path) -> Result<Input, String> {
    let input = crate::fsutil::open_content(path, PROTOCOL_MAX_BYTES as u64)
        .map_err(|e| format!("cannot be read ({e})"))?;
    let mut document = Document::new(input);
    let index = match document.root().map_err(problem)? {
        Some(Root::Index) => true,
        Some(Root::Urlset) => false,
        Some(Root::Other(name)) => {
            let name = crate::text::one_line(name);
            return Err(format!("is not a sitemap (its root is <{name}>)"));
        }
        None => return Err("is empty or not XML".to_string()),
    };
    let (mut newest, mut children) = (None, Vec::new());
    for entry in document {
        let entry = entry.map_err(problem)?;
        if !entry.loc.is_whole() {
            return Err(format!(
                "holds a <loc> of {} bytes, longer than a URL may be; run sitemapgen check on it",
                crate::text::thousands(entry.loc.len())
            ));
        }
        let lastmod = entry.lastmod.as_deref().and_then(|l| w3c::parse(l.trim()));
        newest = newest.max(lastmod);
        if index {
            let loc = entry.loc.as_str().trim().to_string();
            children.push((entry.line, Child { loc, lastmod }));
        }
    }
    Ok(if index {
        Input::Index(children)
    } else {
        Input::Urlset(newest)
    })
}

/// What is wrong with an input that could not be read to its end.
fn problem(e: ReadError) -> String {
    match e {
        ReadError::Xml(XmlError {
            kind: XmlErrorKind::Io(e),
            ..
        }) if crate::fsutil::too_large(&e).is_some() => format!(
            "is {}, over the protocol's limit; split it",
            crate::text::one_line(&e.to_string())
        ),
        ReadError::Xml(e) => format!(
            "is not well-formed XML ({}); run sitemapgen check on it",
            e.detail
        ),
        ReadError::UndefinedEntity { name, .. } => format!(
            "holds an undefined entity &{}; (run sitemapgen check on it)",
            crate::text::one_line(&name)
        ),
        ReadError::TooDeep { .. } => format!("is not a sitemap ({e})"),
    }
}

#[cfg(test)]
mod tests;
