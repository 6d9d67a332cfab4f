//! Joining the sitemaps of a sharded build into one sitemap index.
//!
//! A site too large for one run (or built in parts) is mapped by one `sitemapgen build`
//! per part, each writing its own sitemap or index; `sitemapgen index` then lists them
//! all in one index. Indexes may not nest, so an index given as input is flattened: its
//! children are listed instead.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use quick_xml::NsReader;
use quick_xml::events::Event;

use crate::fsutil::Place;
use crate::lastmod::{LastmodFormat, w3c_datetime};
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
    let mut reader = NsReader::from_reader(input);
    let mut buf = Vec::new();
    let mut read = Reading::default();
    loop {
        buf.clear();
        let event = reader.read_event_into(&mut buf).map_err(|e| match e {
            quick_xml::Error::Io(e) if crate::fsutil::too_large(&e).is_some() => {
                format!(
                    "is {}, over the protocol's limit; split it",
                    crate::one_line(&e.to_string())
                )
            }
            e => format!(
                "is not well-formed XML ({}); run sitemapgen check on it",
                crate::one_line(&e.to_string())
            ),
        })?;
        match event {
            Event::Start(e) | Event::Empty(e) => read.start(e.local_name().into_inner())?,
            Event::Text(t) => read.text.push(&t),
            Event::GeneralRef(r) => match crate::text::xml_reference(r.as_ref()) {
                Some(c) => read.text.push(c.encode_utf8(&mut [0; 4])),
                None => {
                    let name = crate::one_line(r.as_ref());
                    return Err(format!(
                        "holds an undefined entity &{name}; (run sitemapgen check on it)"
                    ));
                }
            },
            Event::End(e) => read.end(e.local_name().into_inner())?,
            Event::Eof => break,
            _ => {}
        }
    }
    match read.root.as_deref() {
        Some("sitemapindex") => Ok(Input::Index(read.children)),
        Some(_) => Ok(Input::Urlset(read.newest)),
        None => Err("is empty or not XML".to_string()),
    }
}

/// What [`read_input`] has read so far.
#[derive(Default)]
struct Reading {
    root: Option<String>,
    /// The current element's value.
    text: crate::text::Bounded,
    newest: Option<Timestamp>,
    children: Vec<Child>,
    /// The `<sitemap>` being read.
    child: Child,
}

impl Reading {
    fn start(&mut self, name: &str) -> Result<(), String> {
        if self.root.is_some() {
            self.text.clear();
            return Ok(());
        }
        if name != "urlset" && name != "sitemapindex" {
            let name = crate::one_line(name);
            return Err(format!("is not a sitemap (its root is <{name}>)"));
        }
        self.root = Some(name.to_string());
        Ok(())
    }

    fn end(&mut self, name: &str) -> Result<(), String> {
        match name {
            "lastmod" => {
                let ts = w3c_datetime(self.text.as_str().trim());
                if ts > self.newest {
                    self.newest = ts;
                }
                self.child.lastmod = ts;
            }
            "loc" if !self.text.is_whole() => {
                return Err(format!(
                    "holds a <loc> of {} bytes, longer than a URL may be; run sitemapgen check on it",
                    crate::text::thousands(self.text.len())
                ));
            }
            "loc" => self.child.loc = self.text.as_str().trim().to_string(),
            "sitemap" => self.children.push(std::mem::take(&mut self.child)),
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
