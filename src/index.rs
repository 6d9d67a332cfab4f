//! Joining the sitemaps of a sharded build into one sitemap index.
//!
//! A site too large for one run (or built in parts) is mapped by one `sitemapgen build`
//! per part, each writing its own sitemap or index; `sitemapgen index` then lists them
//! all in one index. Indexes may not nest, so an index given as input is flattened: its
//! children are listed instead.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::fsutil::Place;
use crate::lastmod::{LastmodFormat, w3c_datetime};
use crate::sitemap::read::{Document, ReadError, Root, XmlError, XmlErrorKind};
use crate::sitemap::{self, PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES, WriteError};
use crate::urls::{BaseUrl, encode_path};

/// Why the index cannot be written; nothing is written then.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// An input cannot be read or is not a sitemap.
    #[error("{}: {problem}", crate::one_line(&path.display().to_string()))]
    Input {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// An input is outside the directory published at the base URL.
    #[error("{} is not under {}, so it has no URL under the base URL; pass --root", path.display(), root.display())]
    OutsideRoot {
        /// The input.
        path: PathBuf,
        /// The published directory.
        root: PathBuf,
    },
    /// The output is one of the inputs: writing would replace a sitemap with an index
    /// naming itself.
    #[error("{} is both an input and the output; write the index to another file", path.display())]
    OutputIsInput {
        /// The file.
        path: PathBuf,
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

/// One sitemap the index lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Child {
    /// Its absolute URL.
    pub loc: String,
    /// The newest `lastmod` in it.
    pub lastmod: Option<Timestamp>,
}

/// Lists `inputs` (sitemaps, or indexes to flatten) as children published under
/// `base_url`, each at its path relative to `root`.
pub fn children(
    inputs: &[PathBuf],
    root: &Path,
    base_url: &BaseUrl,
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
        let read = read_input(path).map_err(input_err)?;
        match read {
            Input::Urlset(lastmod) => children.push(Child {
                loc: format!("{}{}", base_url.as_str(), encode_path(rel)),
                lastmod,
            }),
            Input::Index(listed) => children.extend(listed),
        }
    }
    children.sort_by(|a, b| a.loc.cmp(&b.loc));
    children.dedup_by(|a, b| a.loc == b.loc);
    if children.len() > PROTOCOL_MAX_ENTRIES {
        return Err(IndexError::TooMany(children.len()));
    }
    Ok(children)
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
    let listed: Vec<(String, Option<Timestamp>)> = children
        .iter()
        .map(|c| (c.loc.clone(), c.lastmod))
        .collect();
    sitemap::write_index_file(output, &listed, format, stylesheet)?;
    Ok(())
}

/// What an input turned out to be.
enum Input {
    /// A sitemap, with its newest lastmod.
    Urlset(Option<Timestamp>),
    /// An index, with its children.
    Index(Vec<Child>),
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
            let name = crate::one_line(name);
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
        let lastmod = entry
            .lastmod
            .as_deref()
            .and_then(|l| w3c_datetime(l.trim()));
        newest = newest.max(lastmod);
        if index {
            children.push(Child {
                loc: entry.loc.as_str().trim().to_string(),
                lastmod,
            });
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
            crate::one_line(&e.to_string())
        ),
        ReadError::Xml(e) => format!(
            "is not well-formed XML ({}); run sitemapgen check on it",
            e.detail
        ),
        ReadError::UndefinedEntity { name, .. } => format!(
            "holds an undefined entity &{}; (run sitemapgen check on it)",
            crate::one_line(&name)
        ),
        ReadError::TooDeep { .. } => format!("is not a sitemap ({e})"),
    }
}

#[cfg(test)]
mod tests;
