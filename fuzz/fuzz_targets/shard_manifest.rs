//! Arbitrary bytes as a shard's manifest, merged as `sitemapgen merge` merges it (views
//! on): the merge gives a result or an error, never a panic, and every error is one line.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sitemapgen::config::{Config, Output, Overrides};
use sitemapgen::shard::MergeOptions;

/// The merge's folder, made once a process.
fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        std::fs::create_dir_all(dir.join("public")).unwrap();
        // The files a real shard build wrote beside the seed manifest, so a manifest
        // that names them reaches the checks past its checksums.
        let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/shard_manifest");
        for file in std::fs::read_dir(built).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), dir.join("public").join(file.file_name())).unwrap();
        }
        let toml = "base_url = 'https://example.org/'\npublic_dir = 'public'\n\
                    html_sitemap = true\nllms_txt = true\n";
        std::fs::write(dir.join("sitemap.toml"), toml).unwrap();
        dir
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = dir();
    let manifest = dir.join("public/sitemap-a.manifest.json");
    std::fs::write(&manifest, data).unwrap();
    let config = Config::load(Some(&dir.join("sitemap.toml")), &Overrides::default()).unwrap();
    let Output::File(output) = &config.output else {
        unreachable!("the config names a file");
    };
    let root = output.file_name().unwrap().to_string_lossy();
    let changes_file = sitemapgen::changes::path_beside(&config.state_file);
    let manifests = [manifest];
    let options = MergeOptions {
        manifests: &manifests,
        base_url: &config.base_url,
        dir: &config.public_dir,
        root: &root,
        lastmod_format: config.lastmod_format,
        stylesheet: None,
        robots_txt: config.robots_txt,
        changes_file: &changes_file,
        views: &config.views,
        declared: &config.shards,
    };
    let result = sitemapgen::shard::check(&options)
        .and_then(|checked| sitemapgen::shard::write_merged(&options, checked));
    if let Err(e) = result {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
});
