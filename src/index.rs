//! Joining the sitemaps of a sharded build into one sitemap index.
//!
//! A site too large for one run (or built in parts) is mapped by one `sitemapgen build`
//! per part, each writing its own sitemap or index; `sitemapgen index` then lists them
//! all in one index. Indexes may not nest, so an index given as input is flattened: its
//! children are listed instead.

use std::fs::File;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use quick_xml::NsReader;
use quick_xml::events::Event;

use crate::check::w3c_datetime;
use crate::lastmod::LastmodFormat;
use crate::sitemap::{self, PROTOCOL_MAX_ENTRIES, WriteError};
use crate::url::{BaseUrl, encode_path};

/// Why the index cannot be written; nothing is written then.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// An input cannot be read or is not a sitemap.
    #[error("{}: {problem}", path.display())]
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
        let real =
            std::fs::canonicalize(path).map_err(|e| input_err(format!("cannot be read ({e})")))?;
        let rel = real
            .strip_prefix(&root_real)
            .map_err(|_| IndexError::OutsideRoot {
                path: path.clone(),
                root: root.to_path_buf(),
            })?;
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

/// Whether two paths are one file by device and inode (hard links included).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_a: &Path, _b: &Path) -> bool {
    false
}

/// Writes the index atomically.
pub fn write(output: &Path, children: &[Child], format: LastmodFormat) -> Result<(), IndexError> {
    let listed: Vec<(String, Option<Timestamp>)> = children
        .iter()
        .map(|c| (c.loc.clone(), c.lastmod))
        .collect();
    sitemap::write_index_file(output, &listed, format)?;
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
/// newest `lastmod` or its children. Streamed.
fn read_input(path: &Path) -> Result<Input, String> {
    let file = File::open(path).map_err(|e| format!("cannot be read ({e})"))?;
    let input = crate::fsutil::maybe_gzipped(file).map_err(|e| format!("cannot be read ({e})"))?;
    let mut reader = NsReader::from_reader(input);
    let mut buf = Vec::new();
    let mut root: Option<String> = None;
    let mut text = String::new();
    let mut newest: Option<Timestamp> = None;
    let mut children = Vec::new();
    let mut child = Child {
        loc: String::new(),
        lastmod: None,
    };
    loop {
        buf.clear();
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| format!("is not well-formed XML ({e}); run sitemapgen check on it"))?;
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.local_name().into_inner().to_string();
                if root.is_none() {
                    if name != "urlset" && name != "sitemapindex" {
                        return Err(format!("is not a sitemap (its root is <{name}>)"));
                    }
                    root = Some(name);
                } else {
                    text.clear();
                }
            }
            Event::Text(t) => text.push_str(&t),
            Event::GeneralRef(r) => match crate::text::xml_reference(r.as_ref()) {
                Some(c) => text.push(c),
                None => {
                    let name = crate::one_line(r.as_ref());
                    return Err(format!(
                        "holds an undefined entity &{name}; (run sitemapgen check on it)"
                    ));
                }
            },
            Event::End(e) => {
                let name = e.local_name().into_inner().to_string();
                match name.as_str() {
                    "lastmod" => {
                        let ts = w3c_datetime(text.trim());
                        if ts > newest {
                            newest = ts;
                        }
                        child.lastmod = ts;
                    }
                    "loc" => child.loc = text.trim().to_string(),
                    "sitemap" => {
                        children.push(std::mem::replace(
                            &mut child,
                            Child {
                                loc: String::new(),
                                lastmod: None,
                            },
                        ));
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    match root.as_deref() {
        Some("sitemapindex") => Ok(Input::Index(children)),
        Some(_) => Ok(Input::Urlset(newest)),
        None => Err("is empty or not XML".to_string()),
    }
}

#[cfg(test)]
mod tests;
