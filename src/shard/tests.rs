use std::path::Path;

use super::*;

#[test]
fn a_shard_names_its_files_after_the_output_and_its_name() {
    let table = [
        (
            "public/sitemap.xml",
            "public/sitemap-docs.xml",
            "public/sitemap-docs.manifest.json",
        ),
        (
            "out/map.xml.gz",
            "out/map-docs.xml.gz",
            "out/map-docs.manifest.json",
        ),
    ];
    for (output, shard, manifest) in table {
        assert_eq!(output_of(Path::new(output), "docs"), Path::new(shard));
        assert_eq!(manifest_of(Path::new(output), "docs"), Path::new(manifest));
    }
    let states = [
        (".sitemap-state.json", ".sitemap-state-docs.json"),
        ("cache/state.json", "cache/state-docs.json"),
        ("cache/.state", "cache/.state-docs"),
        ("state", "state-docs"),
    ];
    for (state, want) in states {
        assert_eq!(
            state_file_of(Path::new(state), "docs"),
            Path::new(want),
            "{state}"
        );
    }
}

#[test]
fn a_shard_owns_the_children_of_its_name_and_no_other_shard_s() {
    let root = Path::new("sitemap.xml");
    let table = [
        ("blog", "sitemap-blog.1-0123456789ab.xml", true),
        ("blog", "sitemap-blog.news-2-0123456789ab.xml", true),
        ("blog-x", "sitemap-blog-x.1-0123456789ab.xml", true),
        // Another shard's, whichever name is the longer.
        ("blog", "sitemap-blog-x.1-0123456789ab.xml", false),
        ("blog-x", "sitemap-blog.x-1-0123456789ab.xml", false),
        // The first format's names, and names of no child.
        ("blog", "sitemap-blog-1-0123456789ab.xml", false),
        ("blog", "sitemap-blog-x-1-0123456789ab.xml", false),
        ("blog", "sitemap-blog.3.xml", false),
        ("blog", "sitemap-blog.manifest.json", false),
    ];
    for (shard, file, owned) in table {
        assert_eq!(owns_child(root, shard, file), owned, "{shard}: {file}");
    }
}

#[test]
fn url_hashes_are_xxh3_and_stay_the_same_across_versions() {
    // Manifests written by one version are merged by another: the values are fixed.
    assert_eq!(url_hash(""), 0x2d06_8005_38d3_94c2);
    assert_ne!(
        url_hash("https://example.org/a"),
        url_hash("https://example.org/b")
    );
}

#[test]
fn a_manifest_of_another_version_or_shape_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    let table = [
        (
            r#"{"sitemapgen_shard": 3, "anything": []}"#,
            "format version 3",
        ),
        // The first format's, named as shards then named their children.
        (
            r#"{"sitemapgen_shard": 1, "name": "docs"}"#,
            "format version 1, and this sitemapgen reads version 2",
        ),
        (r#"{"name": "docs"}"#, "no sitemapgen_shard version"),
        (
            r#"{"sitemapgen_shard": 2, "name": "docs"}"#,
            "is not a shard manifest",
        ),
        ("[1, 2", "is not a shard manifest"),
    ];
    for (text, says) in table {
        std::fs::write(&path, text).unwrap();
        let read = manifest::read_within(&path, manifest::MAX_TOTAL_BYTES, 0);
        let problem = read.err().unwrap().to_string();
        assert!(problem.contains(says), "{text}: {problem}");
    }
}

#[test]
fn a_page_goes_to_the_first_shard_that_matches_else_to_the_one_without_match() {
    let spec = |name: &str, globs: &[&str]| SectionSpec {
        name: name.to_string(),
        globs: globs.iter().map(|g| g.to_string()).collect(),
    };
    let parts = Parts::new(&[
        spec("docs", &["docs/**"]),
        spec("api", &["docs/api/**", "api/**"]),
        spec("rest", &[]),
    ])
    .unwrap();
    let mut matched = Vec::new();
    let table = [
        ("docs/api/x.html", Some("docs")),
        ("api/y/index.html", Some("api")),
        ("about.html", Some("rest")),
    ];
    for (rel, owner) in table {
        assert_eq!(parts.owner(Path::new(rel), &mut matched), owner, "{rel}");
    }
    let without_rest = Parts::new(&[spec("docs", &["docs/**"])]).unwrap();
    assert_eq!(
        without_rest.owner(Path::new("about.html"), &mut matched),
        None
    );
    assert!(Parts::default().is_empty());
}

#[test]
fn a_shard_s_children_are_named_after_its_output_and_the_separator() {
    let hash = blake3::Hash::from_bytes([0xd9; 32]);
    let shard = Path::new("public/sitemap-blog.xml");
    assert_eq!(
        sitemap::child_name(shard, SEPARATOR, None, 1, &hash),
        "sitemap-blog.1-d9d9d9d9d9d9.xml"
    );
    assert_eq!(
        sitemap::child_name(shard, SEPARATOR, Some("news"), 2, &hash),
        "sitemap-blog.news-2-d9d9d9d9d9d9.xml"
    );
    let table = [
        ("sitemap-blog.1-d9d9d9d9d9d9.xml", Some(ChildShape::Hashed)),
        (
            "sitemap-blog.news-2-d9d9d9d9d9d9.xml",
            Some(ChildShape::Sectioned("news".into())),
        ),
        ("sitemap-blog.2.xml", None),
        ("sitemap-blog-1-d9d9d9d9d9d9.xml", None),
        ("sitemap-blog-x.1-d9d9d9d9d9d9.xml", None),
    ];
    for (name, want) in table {
        assert_eq!(child_shape(shard, name), want, "{name}");
    }
}
