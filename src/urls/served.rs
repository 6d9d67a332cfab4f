//! The inverse of [`super::page_url`]: the files a static host serves at a URL of the
//! site, whatever URL form it serves (`trailingSlash`, `cleanUrls`), most exact first.
//! The canonical guard, `explain`, the audit and `check --site` all ask here.

use super::{BaseUrl, DIRECTORY_INDEXES, push_names, split};

/// A URL's path below the base URL, as the names of a path under the public directory:
/// what a static host looks a request up by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePath {
    /// The path's names after the base path, percent-decoded to bytes.
    names: Vec<Vec<u8>>,
    /// Whether it names a directory: it ends in `/`, or is the base itself.
    dir: bool,
}

/// Why a URL path names no file of the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoFile {
    /// It is not below the base URL's path.
    Outside,
    /// It climbs out with `..`.
    DotDot,
    /// A name no file can have: empty (`a//b`), or holding an encoded `/` (`%2F`).
    BadName,
}

impl SitePath {
    /// The URL path `path` (percent-encoded, as [`super::path_of`] gives it) below the
    /// path of `base`; the base path itself, with or without its slash, is the home page.
    /// A `.` name is dropped, as clients do before they send a request.
    pub fn of(base: &BaseUrl, path: &str) -> Result<SitePath, NoFile> {
        // Split before decoding: `%2F` is a character of a name, not a separator.
        let decoded = |path: &str| -> Vec<Vec<u8>> {
            let names = path.split('/').skip(1);
            names
                .map(|n| percent_encoding::percent_decode_str(n).collect())
                .collect()
        };
        let mut base_names = decoded(base.url().path());
        base_names.pop(); // the base path ends in `/`
        let mut names = decoded(path);
        if !names.starts_with(&base_names) {
            return Err(NoFile::Outside);
        }
        names.drain(..base_names.len());
        let dir = names.last().is_none_or(Vec::is_empty);
        if names.last().is_some_and(Vec::is_empty) {
            names.pop();
        }
        names.retain(|n| n != b".");
        if names.iter().any(|n| n == b"..") {
            return Err(NoFile::DotDot);
        }
        if names.iter().any(|n| n.is_empty() || n.contains(&b'/')) {
            return Err(NoFile::BadName);
        }
        Ok(SitePath { names, dir })
    }

    /// The path of the absolute URL `url` ([`SitePath::of`]), which must be on the base
    /// URL's scheme and host as it spells them; its query and fragment are left aside.
    pub fn of_url(base: &BaseUrl, url: &str) -> Result<SitePath, NoFile> {
        let (origin, path) = split(url);
        match origin == split(base.as_str()).0 {
            true => SitePath::of(base, path),
            false => Err(NoFile::Outside),
        }
    }

    /// The files a static host serves at this path, as `/`-separated paths under the
    /// public directory, most exact first. For `p`: the file `p`; `p.html`, which the
    /// hosts serving clean URLs answer `/p` with before a folder `p/` (Cloudflare Pages,
    /// Netlify, GitHub Pages); the folder's indexes; `p.htm`. For `p/`: its indexes,
    /// then `p.html` and `p.htm` (Vercel's and Firebase's `cleanUrls` with
    /// `trailingSlash` serve `about.html` as `/about/`, the others redirect there).
    pub fn files(&self) -> Vec<Vec<u8>> {
        let path = self.names.join(&b'/');
        if path.is_empty() {
            return DIRECTORY_INDEXES.map(|i| i.as_bytes().to_vec()).to_vec();
        }
        let with = |tail: &str| [path.as_slice(), tail.as_bytes()].concat();
        let [html, htm] = [with(".html"), with(".htm")];
        let [index_html, index_htm] = DIRECTORY_INDEXES.map(|i| with(&format!("/{i}")));
        match self.dir {
            true => vec![index_html, index_htm, html, htm],
            false => vec![path, html, index_html, index_htm, htm],
        }
    }

    /// The path after the base in this tool's percent-encoding (`""` for the home page).
    pub fn suffix(&self) -> String {
        let mut suffix = String::new();
        push_names(&mut suffix, self.names.iter().map(Vec::as_slice));
        if self.dir && !self.names.is_empty() {
            suffix.push('/');
        }
        suffix
    }

    /// The path's names, percent-decoded.
    pub fn names(&self) -> impl Iterator<Item = &[u8]> {
        self.names.iter().map(Vec::as_slice)
    }
}
