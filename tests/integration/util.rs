//! Test helpers: temporary site trees, running the real binary, reading sitemaps back
//! and validating them against the official schemas.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use sitemapgen::sitemap::read::Document;

/// A temporary directory holding a site under `public/` and maybe a `sitemap.toml`.
pub struct Site {
    pub dir: tempfile::TempDir,
}

impl Site {
    /// A site with the given pages (relative paths under `public/`), each a small page.
    pub fn new(pages: &[&str]) -> Site {
        let site = Site {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::create_dir_all(site.public()).unwrap();
        for page in pages {
            site.page(page);
        }
        site
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn public(&self) -> PathBuf {
        self.root().join("public")
    }

    /// Writes a page (or any file) under `public/`, creating its directories.
    pub fn page(&self, rel: impl AsRef<Path>) -> PathBuf {
        let path = self.public().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "<!doctype html><title>t</title><p>page</p>\n").unwrap();
        path
    }

    /// Writes `sitemap.toml` beside `public/`.
    pub fn config(&self, text: &str) -> &Site {
        fs::write(self.root().join("sitemap.toml"), text).unwrap();
        self
    }

    /// Sets a file's modification time, in seconds since the epoch.
    pub fn set_mtime(&self, rel: &str, secs: u64) {
        let file = fs::File::options()
            .append(true)
            .open(self.public().join(rel))
            .unwrap();
        file.set_modified(UNIX_EPOCH + Duration::from_secs(secs))
            .unwrap();
    }

    /// Sets every page's modification time, so output is reproducible.
    pub fn set_all_mtimes(&self, secs: u64) {
        for entry in walk(&self.public()) {
            if entry.is_file() {
                fs::File::options()
                    .append(true)
                    .open(&entry)
                    .unwrap()
                    .set_modified(UNIX_EPOCH + Duration::from_secs(secs))
                    .unwrap();
            }
        }
    }

    /// The binary, run in the site's directory.
    pub fn cmd(&self) -> assert_cmd::Command {
        let mut cmd = assert_cmd::Command::cargo_bin("sitemapgen").unwrap();
        // Runs are the same in CI and out: `CI` turns on the build-time dates warning.
        cmd.current_dir(self.root()).env_remove("CI");
        cmd
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.public().join(rel)).unwrap()
    }

    /// Names of the files directly in `public/`, sorted; every name in the public directory, dot-files included: nothing of ours but the
    /// sitemap set and robots.txt may be left there.
    pub fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.public())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// A path as the binary's messages and JSON name it: `/` between its parts on every
/// platform.
pub fn slashed(path: &Path) -> String {
    path.display()
        .to_string()
        .replace(std::path::MAIN_SEPARATOR, "/")
}

/// Every regular file below `dir`, links not followed.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            out.extend(walk(&path));
        } else if meta.is_file() {
            out.push(path);
        }
    }
    out
}

/// One `<url>` or `<sitemap>` read back from a file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Url {
    pub loc: String,
    pub lastmod: Option<String>,
    pub changefreq: Option<String>,
    pub priority: Option<String>,
}

/// Parses a sitemap or sitemap index with the library's reader: the root element's name
/// (empty without one) and its entries, references decoded. Panics on anything the
/// reader refuses (an undefined entity, malformed XML).
pub fn parse(xml: &str) -> (String, Vec<Url>) {
    let mut document = Document::new(xml.as_bytes());
    let root = document
        .root()
        .unwrap()
        .map(|r| r.name().to_string())
        .unwrap_or_default();
    let urls = document
        .map(|entry| {
            let entry = entry.unwrap();
            assert!(entry.loc.is_whole(), "a <loc> too long to keep");
            Url {
                loc: entry.loc.as_str().to_string(),
                lastmod: entry.lastmod,
                changefreq: entry.changefreq,
                priority: entry.priority,
            }
        })
        .collect();
    (root, urls)
}

/// The locs of a sitemap file, in file order; the file is validated against the schema
/// first, so every test that reads a sitemap also checks it.
pub fn locs(path: &Path) -> Vec<String> {
    let xml = fs::read_to_string(path).unwrap();
    validate(path, urlset_schema(&xml));
    let (root, urls) = parse(&xml);
    assert_eq!(root, "urlset", "{}", path.display());
    urls.into_iter().map(|u| u.loc).collect()
}

/// Validates `path` with `xmllint --noout --schema` against `schema` (`sitemap.xsd`,
/// `siteindex.xsd`, ...). Without xmllint or the schemas the check is passed over with a
/// note, or fails under `SITEMAPGEN_REQUIRE_TOOLS` (see `tools`).
pub fn validate(path: &Path, schema: &str) {
    use crate::tools::{SCHEMAS, XMLLINT, schema_dir};
    // Both asked, so each missing one is named.
    let (xmllint, schemas) = (XMLLINT.present(), SCHEMAS.present());
    if !(xmllint && schemas) {
        return;
    }
    let dir = schema_dir();
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(dir.join(schema))
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} does not validate against {schema}:\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The schema for a urlset: with image entries, the one that adds the image and xhtml
/// namespaces; with hreflang links, the one that adds the xhtml namespace.
pub fn urlset_schema(xml: &str) -> &'static str {
    if xml.contains("xmlns:image=") {
        "sitemap+extensions.xsd"
    } else if xml.contains("xmlns:xhtml=") {
        "sitemap+xhtml.xsd"
    } else {
        "sitemap.xsd"
    }
}

/// Validates a sitemap or index by its root element, and each child an index names;
/// returns the children's paths, in index order.
pub fn validate_set(path: &Path) -> Vec<PathBuf> {
    let xml = fs::read_to_string(path).unwrap();
    let (root, entries) = parse(&xml);
    match root.as_str() {
        "urlset" => {
            validate(path, urlset_schema(&xml));
            Vec::new()
        }
        "sitemapindex" => {
            validate(path, "siteindex.xsd");
            let mut children = Vec::new();
            for entry in entries {
                // The child is the longest tail of its URL path found beside the index.
                let segments: Vec<String> = entry
                    .loc
                    .splitn(4, '/')
                    .nth(3)
                    .unwrap_or("")
                    .split('/')
                    .map(|s| {
                        percent_encoding::percent_decode_str(s)
                            .decode_utf8()
                            .unwrap()
                            .into_owned()
                    })
                    .collect();
                let dir = path.parent().unwrap();
                let child = (0..segments.len())
                    .map(|i| {
                        segments[i..]
                            .iter()
                            .fold(dir.to_path_buf(), |p, s| p.join(s))
                    })
                    .find(|p| p.is_file())
                    .unwrap_or_else(|| panic!("{}: child {} not found", path.display(), entry.loc));
                validate(&child, urlset_schema(&fs::read_to_string(&child).unwrap()));
                children.push(child);
            }
            children
        }
        other => panic!("{}: unexpected root {other}", path.display()),
    }
}

/// Whether `name` is a child of `sitemap.xml` as the writer names them,
/// `sitemap-{n}-{12 hex digits}.xml`, and its position `n`.
pub fn child_position(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("sitemap-")?.strip_suffix(".xml")?;
    let (n, hash) = rest.split_once('-')?;
    let hex = hash.len() == 12 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    hex.then(|| n.parse().ok()).flatten()
}

/// Validates XML held in memory (e.g. written to stdout).
pub fn validate_text(xml: &str, schema: &str) {
    let file = tempfile::NamedTempFile::new().unwrap();
    fs::write(file.path(), xml).unwrap();
    validate(file.path(), schema);
}

/// `Command` for the binary, outside a site (for `--help` and the like).
pub fn bin() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("sitemapgen").unwrap();
    // Runs are the same in CI and out: `CI` turns on the build-time dates warning.
    cmd.env_remove("CI");
    cmd
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Copies a directory tree (files and directories only).
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A dated fixture's project (`tests/fixtures/dates/NAME`), cloned with its history into
/// `dir/project`, its built site copied to `output` in it, and `init`'s config written.
pub fn dated_project(name: &str, output: &str, dir: &Path) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dates")
        .join(name);
    let project = dir.join("project");
    let cloned = Command::new("git")
        .args(["clone", "-q", "--branch", "main"])
        .arg(fixture.join("project.bundle"))
        .arg(&project)
        .status()
        .unwrap();
    assert!(cloned.success(), "{name}: git clone of the bundle failed");
    copy_tree(&fixture.join("output"), &project.join(output));
    bin().current_dir(&project).arg("init").assert().success();
    project
}
