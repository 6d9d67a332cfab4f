//! The host's own files in the output folder: `_headers`.

use std::fs;

use crate::util::{Site, locs};

#[test]
fn pages_the_host_serves_with_noindex_are_left_out_naming_the_line() {
    let site = Site::new(&[
        "index.html",
        "drafts/a.html",
        "drafts/public/b.html",
        "docs/c.html",
    ]);
    fs::write(
        site.public().join("_headers"),
        "# previews\nhttps://preview.example.org/*\n  X-Robots-Tag: noindex\n/drafts/*\n  Cache-Control: no-store\n  X-Robots-Tag: noindex\n/drafts/public/*\n  ! X-Robots-Tag\n/docs/*\n  X-Robots-Tag: nofollow\n",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "drafts/a.html: noindex (host headers: public/_headers:6)",
        ))
        .stderr(predicates::str::contains("1 noindex"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/docs/c.html",
            "https://example.org/drafts/public/b.html"
        ]
    );
    // Turned off, the host's rules are not read.
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nhost_config = false\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), 4);
}
