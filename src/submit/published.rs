//! Which sitemaps a deploy published, as the engines are told of them: the root the
//! config names (in the form a build wrote it: `sitemap.xml`, or `.gz` when only that is
//! there), the further indexes a merge wrote beside it (`sitemap-index-2.xml`, ...), and
//! each part of a split text sitemap (`sitemap-2.txt`, ...), which has no index.

use std::path::{Path, PathBuf};

use crate::config::{Config, Format, Output};
use crate::sitemap::read::{Document, Root};

/// The published URLs of the sitemaps to submit, the root first. The site's files say
/// which exist; with none found (the site not at hand), the root the config names.
pub fn published(config: &Config) -> Vec<String> {
    let Output::File(output) = &config.output else {
        return Vec::new();
    };
    let root = found_form(output).unwrap_or_else(|| output.clone());
    urls_of(config, &root)
}

/// How many URLs the published set lists, read from the site's files (an index's
/// children found beside it); `None` when the site is not at hand.
pub fn listed(config: &Config) -> Option<u64> {
    let Output::File(output) = &config.output else {
        return None;
    };
    let root = found_form(output)?;
    let dir = crate::fsutil::parent_dir(&root);
    let mut files = vec![root.clone()];
    let mut urls = 0;
    while let Some(file) = files.pop() {
        let input =
            crate::fsutil::content(crate::fsutil::open_regular(&file).ok()?, MAX_READ).ok()?;
        let mut document = Document::new(input);
        let index = matches!(document.root(), Ok(Some(Root::Index)));
        for entry in document.map_while(Result::ok) {
            match index {
                // A child is named by its URL's last segment, beside the index.
                true => files.extend(
                    entry
                        .loc
                        .as_str()
                        .trim()
                        .rsplit('/')
                        .next()
                        .map(|n| dir.join(n)),
                ),
                false => urls += 1,
            }
        }
    }
    Some(urls)
}

/// The most bytes of one sitemap read to count its URLs: the protocol's limit.
const MAX_READ: u64 = crate::sitemap::PROTOCOL_MAX_BYTES as u64;

/// The URLs of the set whose root is `root`.
fn urls_of(config: &Config, root: &Path) -> Vec<String> {
    let (dir, name) = (
        crate::fsutil::parent_dir(root),
        root.file_name().unwrap_or_default(),
    );
    let (stem, ext) = crate::sitemap::split_name(root);
    let further = |k: usize| match config.format {
        Format::Xml => format!("{stem}-index-{k}{ext}"),
        Format::Txt => format!("{stem}-{k}{ext}"),
    };
    let mut files = vec![PathBuf::from(name)];
    files.extend(
        (2..)
            .map(further)
            .map(PathBuf::from)
            .take_while(|f| dir.join(f).is_file()),
    );
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let rel = match (real(dir), real(&config.public_dir)) {
        (Some(dir), Some(public)) => dir.strip_prefix(&public).ok().map(Path::to_path_buf),
        _ => None,
    };
    let rel = rel.unwrap_or_default();
    files
        .iter()
        .map(|f| crate::urls::file_url(config.base_url.as_str(), &rel.join(f)))
        .collect()
}

/// The output as a build left it: the path itself, else its other form (`.gz` or not).
fn found_form(output: &Path) -> Option<PathBuf> {
    let name = output.file_name()?.to_string_lossy();
    let other = match name.strip_suffix(".gz") {
        Some(plain) => plain.to_string(),
        None => format!("{name}.gz"),
    };
    [output.to_path_buf(), output.with_file_name(other)]
        .into_iter()
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Overrides;

    /// (config lines, files in the site, URLs submitted).
    const CASES: &[(&str, &[&str], &[&str])] = &[
        ("", &["sitemap.xml"], &["https://example.org/sitemap.xml"]),
        ("", &[], &["https://example.org/sitemap.xml"]),
        (
            "",
            &["sitemap.xml.gz"],
            &["https://example.org/sitemap.xml.gz"],
        ),
        (
            "gzip = true\n",
            &["sitemap.xml"],
            &["https://example.org/sitemap.xml"],
        ),
        (
            "",
            &[
                "sitemap.xml",
                "sitemap-index-2.xml",
                "sitemap-index-3.xml",
                "sitemap-index-5.xml",
            ],
            &[
                "https://example.org/sitemap.xml",
                "https://example.org/sitemap-index-2.xml",
                "https://example.org/sitemap-index-3.xml",
            ],
        ),
        (
            "format = 'txt'\n",
            &["sitemap.txt", "sitemap-2.txt"],
            &[
                "https://example.org/sitemap.txt",
                "https://example.org/sitemap-2.txt",
            ],
        ),
        (
            "output = 'maps/all.xml'\n",
            &["maps/all.xml"],
            &["https://example.org/maps/all.xml"],
        ),
    ];

    #[test]
    fn the_root_in_the_form_written_and_the_files_beside_it() {
        for (lines, files, want) in CASES {
            let dir = tempfile::tempdir().unwrap();
            let public = dir.path().join("public");
            std::fs::create_dir_all(public.join("maps")).unwrap();
            for file in *files {
                std::fs::write(public.join(file), "x").unwrap();
            }
            let toml = dir.path().join("sitemap.toml");
            let text = format!("base_url = 'https://example.org/'\n{lines}");
            std::fs::write(&toml, text).unwrap();
            let config = Config::load(Some(&toml), &Overrides::default()).unwrap();
            assert_eq!(published(&config), *want, "{lines:?} {files:?}");
        }
    }
}
