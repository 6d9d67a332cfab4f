use super::*;
use std::io::Write;

const URLSET: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

fn base() -> BaseUrl {
    BaseUrl::parse("https://example.org/").unwrap()
}

fn urlset(lastmods: &[&str]) -> String {
    let mut xml = URLSET.to_string();
    for (i, lastmod) in lastmods.iter().enumerate() {
        xml.push_str(&format!(
            "<url><loc>https://example.org/{i}</loc><lastmod>{lastmod}</lastmod></url>\n"
        ));
    }
    xml + "</urlset>\n"
}

fn index(locs: &[&str]) -> String {
    let mut xml =
        "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".to_string();
    for loc in locs {
        xml.push_str(&format!(
            "<sitemap><loc>{loc}</loc><lastmod>2024-01-02</lastmod></sitemap>\n"
        ));
    }
    xml + "</sitemapindex>\n"
}

fn ts(s: &str) -> Option<Timestamp> {
    w3c::parse(s)
}

/// A sitemap is listed at its path under the root, with its newest lastmod; an index
/// is flattened to its children, whose `<loc>` is decoded as XML, character references
/// included (`&#38;` once came out as nothing: `?x=1y=2`).
#[test]
fn sitemaps_are_listed_and_indexes_flattened_with_every_reference_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("blog")).unwrap();
    std::fs::write(
        root.join("blog/sitemap.xml"),
        urlset(&["2024-03-01", "2024-05-01T10:00:00Z", "2023-01-01"]),
    )
    .unwrap();
    std::fs::write(
        root.join("docs.xml"),
        index(&[
            "https://example.org/docs/a.xml?x=1&#38;y=2",
            "https://example.org/docs/b.xml?x=1&amp;y=&#x33;",
        ]),
    )
    .unwrap();
    let inputs = [root.join("blog/sitemap.xml"), root.join("docs.xml")];
    let got = children(&inputs, root, &base(), Hosts::default()).unwrap();
    let want = [
        (
            "https://example.org/blog/sitemap.xml",
            ts("2024-05-01T10:00:00Z"),
        ),
        ("https://example.org/docs/a.xml?x=1&y=2", ts("2024-01-02")),
        ("https://example.org/docs/b.xml?x=1&y=3", ts("2024-01-02")),
    ];
    let got: Vec<(&str, Option<Timestamp>)> =
        got.iter().map(|c| (c.loc.as_str(), c.lastmod)).collect();
    assert_eq!(got, want);
}

/// Gzipped input is told by its bytes, not its name.
#[test]
fn gzipped_inputs_are_read_whatever_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(urlset(&["2024-03-01"]).as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    for name in ["a.xml.gz", "b.xml", "c.GZ"] {
        std::fs::write(dir.path().join(name), &bytes).unwrap();
    }
    let inputs: Vec<PathBuf> = ["a.xml.gz", "b.xml", "c.GZ"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    let got = children(&inputs, dir.path(), &base(), Hosts::default()).unwrap();
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|c| c.lastmod == ts("2024-03-01")), "{got:?}");
}

#[test]
fn bad_inputs_are_named_with_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir(&root).unwrap();
    let write = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let table: Vec<(PathBuf, &str)> = vec![
        (
            write("page.xml", "<html></html>"),
            "is not a sitemap (its root is <html>)",
        ),
        (write("empty.xml", ""), "is empty or not XML"),
        (
            write("broken.xml", "<urlset><url></urlset>"),
            "is not well-formed XML",
        ),
        (
            write("entity.xml", &index(&["https://example.org/a&nbsp;b"])),
            "undefined entity &nbsp;",
        ),
        (root.join("missing.xml"), "cannot be read"),
    ];
    for (path, want) in table {
        let err = children(
            std::slice::from_ref(&path),
            &root,
            &base(),
            Hosts::default(),
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains(want), "{}: {text}", path.display());
        assert!(text.contains(&path.display().to_string()), "{text}");
    }
    let outside = dir.path().join("outside.xml");
    std::fs::write(&outside, urlset(&["2024-01-01"])).unwrap();
    let err = children(&[outside], &root, &base(), Hosts::default()).unwrap_err();
    assert!(matches!(err, IndexError::OutsideRoot { .. }), "{err}");
}

#[test]
fn each_child_is_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.xml");
    std::fs::write(&path, urlset(&["2024-01-01"])).unwrap();
    let got = children(&[path.clone(), path], dir.path(), &base(), Hosts::default()).unwrap();
    assert_eq!(got.len(), 1);
}

#[test]
fn an_output_that_is_an_input_under_another_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a.xml");
    std::fs::write(&input, urlset(&[])).unwrap();
    let other = dir.path().join("b.xml");
    std::fs::write(&other, urlset(&[])).unwrap();
    // A hard link is the same file by another name, and not by its canonical path.
    let link = dir.path().join("link.xml");
    std::fs::hard_link(&input, &link).unwrap();
    assert!(same_file(&input, &link));
    assert!(!same_file(&input, &other));
    assert!(!same_file(&input, &dir.path().join("missing.xml")));
    let refused = refuse_output_among_inputs(&link, std::slice::from_ref(&input));
    assert!(matches!(refused, Err(IndexError::OutputIsInput { .. })));
    assert!(refuse_output_among_inputs(&other, &[input]).is_ok());
}
