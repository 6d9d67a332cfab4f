//! The stylesheet a browser shows a sitemap with (`stylesheet`): an
//! `<?xml-stylesheet?>` link in every file written, and with `stylesheet = "default"`
//! our own XSL, written into the site. Browsers apply XSLT only to files served over
//! http(s), and only from the sitemap's own origin.

use std::path::{Path, PathBuf};

use crate::fsutil::{self, At};
use crate::sitemap::WriteError;

/// The bundled stylesheet: a table of URLs (with lastmod, changefreq, priority,
/// alternates and image counts) or of an index's children; no scripts, fonts or images;
/// light and dark.
pub const BUNDLED: &str = include_str!("stylesheet.xsl");

/// The bundled stylesheet's file name, at the root of the site.
pub const FILE_NAME: &str = "sitemap.xsl";

/// The config value that asks for the bundled stylesheet.
pub const DEFAULT_VALUE: &str = "default";

/// Where every sitemap written points browsers for its stylesheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stylesheet {
    /// The `href` of `<?xml-stylesheet?>`, as given (or the bundled one's path on the site).
    pub href: String,
    /// Write the bundled stylesheet into the site as [`FILE_NAME`].
    pub bundled: bool,
}

impl Stylesheet {
    /// The stylesheet `value` names (`"default"`, or a URL or path), for a site published
    /// at `base_path` (the base URL's path, ending in `/`); `Err` says what is wrong.
    pub fn new(value: &str, base_path: &str) -> Result<Stylesheet, &'static str> {
        if value == DEFAULT_VALUE {
            // Root-relative: the sitemap's own origin, wherever its children are.
            return Ok(Stylesheet {
                href: format!("{base_path}{FILE_NAME}"),
                bundled: true,
            });
        }
        if let Some(problem) = href_problem(value) {
            return Err(problem);
        }
        Ok(Stylesheet {
            href: value.to_string(),
            bundled: false,
        })
    }
}

/// What is wrong with an `href` for the stylesheet, if anything.
fn href_problem(href: &str) -> Option<&'static str> {
    if href.is_empty() {
        return Some("is empty");
    }
    if href
        .chars()
        .any(|c| crate::text::is_control(c) || c.is_whitespace())
    {
        return Some("holds whitespace or a control character; percent-encode it (%20)");
    }
    if href.contains(['"', '<', '>', '\\']) {
        return Some("holds a character a URL may not (\" < > \\)");
    }
    // `//host/x.xsl` takes the sitemap's scheme but names a host: one that is not the
    // sitemap's own is never applied (browsers take only a same-origin stylesheet), and
    // the sitemap's own is better named by a path.
    if href.starts_with("//") {
        return Some(
            "is scheme-relative (a host without a scheme), and browsers apply a stylesheet only from the sitemap's own origin",
        );
    }
    let scheme = href.split_once(':').map(|(s, _)| s);
    if scheme.is_some_and(|s| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    }) && !href.starts_with("http://")
        && !href.starts_with("https://")
    {
        return Some("is not http(s) or a path on the site");
    }
    None
}

/// Writes the bundled stylesheet as `public_dir/sitemap.xsl` (atomically, under the
/// directory's lock, replacing only a regular file), unless it is there already.
pub fn write_bundled(public_dir: &Path) -> Result<PathBuf, WriteError> {
    let path = public_dir.join(FILE_NAME);
    fsutil::write_locked(public_dir, FILE_NAME, BUNDLED.as_bytes()).at(&path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        let table = [
            ("/sitemap.xsl", Ok("/sitemap.xsl")),
            (
                "https://example.org/s.xsl?v=1&x=2",
                Ok("https://example.org/s.xsl?v=1&x=2"),
            ),
            ("style/map.xsl", Ok("style/map.xsl")),
            ("default", Ok("/docs/sitemap.xsl")),
            ("", Err("is empty")),
            (
                "/a b.xsl",
                Err("holds whitespace or a control character; percent-encode it (%20)"),
            ),
            (
                "/a\u{1b}.xsl",
                Err("holds whitespace or a control character; percent-encode it (%20)"),
            ),
            (
                "/a\".xsl",
                Err("holds a character a URL may not (\" < > \\)"),
            ),
            (
                "/a?>.xsl",
                Err("holds a character a URL may not (\" < > \\)"),
            ),
            (
                "javascript:alert(1)",
                Err("is not http(s) or a path on the site"),
            ),
            (
                "file:///etc/x.xsl",
                Err("is not http(s) or a path on the site"),
            ),
            (
                "//cdn.example.net/x.xsl",
                Err(
                    "is scheme-relative (a host without a scheme), and browsers apply a stylesheet only from the sitemap's own origin",
                ),
            ),
        ];
        for (value, want) in table {
            let got = Stylesheet::new(value, "/docs/").map(|s| s.href);
            assert_eq!(got.as_deref().map_err(|e| *e), want, "{value:?}");
        }
        assert!(Stylesheet::new("default", "/").unwrap().bundled);
        assert!(!Stylesheet::new("/default", "/").unwrap().bundled);
    }
}
