//! `images = true`: each page's images as `<image:image>` entries, through the real
//! binary on temporary sites.

use std::fs;
#[cfg(unix)]
use std::io::Write;

use predicates::prelude::*;

#[cfg(unix)]
use crate::check_hardening::measured;
use crate::util::{Site, validate};

const CONFIG: &str = "base_url = 'https://example.org/'\nimages = true\n";

/// The `image:loc` values of each `<url>` of a sitemap, by page URL, in file order.
fn images_by_page(xml: &str) -> Vec<(String, Vec<String>)> {
    let mut pages = Vec::new();
    for url in xml.split("<url>").skip(1) {
        let loc = url
            .split("<loc>")
            .nth(1)
            .unwrap()
            .split("</loc>")
            .next()
            .unwrap();
        let images = url
            .split("<image:loc>")
            .skip(1)
            .map(|i| i.split("</image:loc>").next().unwrap().to_string())
            .collect();
        pages.push((loc.to_string(), images));
    }
    pages
}

fn write(site: &Site, rel: &str, html: &str) {
    let path = site.page(rel);
    fs::write(path, html).unwrap();
}

/// Each page lists exactly its images: og:image, then those of <main> (else <article>,
/// else <body>), resolved, encoded, de-duplicated; `data:` and non-http(s) skipped; CDN
/// hosts kept. The file validates against the schema with the image extension, and
/// `check` accepts it.
#[test]
fn each_page_lists_exactly_its_images() {
    let site = Site::new(&[]);
    write(
        &site,
        "index.html",
        r#"<!doctype html><html><head><title>Home</title>
<meta property="og:image" content="/og/home.png"></head>
<body><header><img src="/logo.svg"></header><main>
<img src="hero.jpg" alt="Hero"><img srcset="/r-1x.png 1x, /r-2x.png 2x">
<img src="data:image/gif;base64,R0lGODlh"><img src="javascript:void(0)">
<img src="https://cdn.example.net/p/ü x.webp"><img src="/hero.jpg"><img src="./hero.jpg#x">
</main><footer><img src="/badge.png"></footer></body></html>"#,
    );
    write(
        &site,
        "blog/post/index.html",
        r#"<html><head><title>P</title></head><body>
<img src="/sidebar.png"><article><img src="../../img/a.png"><img src="b.png?w=800&amp;h=600"></article></body></html>"#,
    );
    write(
        &site,
        "about.html",
        "<title>About</title><p><img src=//static.example.org/me.jpg>",
    );
    write(&site, "plain.html", "<title>Plain</title><p>no images</p>");
    site.config(CONFIG);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains("4 URLs in"))
        .stderr(predicate::str::contains("; 7 image entries"));
    let path = site.public().join("sitemap.xml");
    let xml = fs::read_to_string(&path).unwrap();
    validate(&path, "sitemap+extensions.xsd");
    assert!(xml.contains("xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\""));
    assert!(!xml.contains("xmlns:xhtml"));
    let want: Vec<(String, Vec<String>)> = [
        (
            "https://example.org/",
            &[
                "https://example.org/og/home.png",
                "https://example.org/hero.jpg",
                "https://example.org/r-1x.png",
                "https://cdn.example.net/p/%C3%BC%20x.webp",
            ][..],
        ),
        (
            "https://example.org/about.html",
            &["https://static.example.org/me.jpg"][..],
        ),
        (
            "https://example.org/blog/post/",
            &[
                "https://example.org/img/a.png",
                "https://example.org/blog/post/b.png?w=800&amp;h=600",
            ][..],
        ),
        ("https://example.org/plain.html", &[][..]),
    ]
    .iter()
    .map(|(loc, images)| {
        (
            loc.to_string(),
            images.iter().map(|i| i.to_string()).collect(),
        )
    })
    .collect();
    assert_eq!(images_by_page(&xml), want);
    site.cmd()
        .args(["check", "public", "--strict"])
        .assert()
        .success();

    let out = site.cmd().args(["build", "--json"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["images"], 7);
}

/// Images are off by default, and with them on a site without images declares no image
/// namespace: the file is a plain sitemap.
#[test]
fn no_images_no_namespace() {
    let site = Site::new(&["plain.html"]);
    write(&site, "pic.html", "<title>P</title><img src=/a.png>");
    site.config("base_url = 'https://example.org/'\n");
    site.cmd().assert().success();
    let xml = site.read("sitemap.xml");
    assert!(!xml.contains("image"), "{xml}");
    fs::remove_file(site.public().join("pic.html")).unwrap();
    site.config(CONFIG);
    site.cmd().assert().success();
    let xml = site.read("sitemap.xml");
    assert!(!xml.contains("image"), "{xml}");
    validate(&site.public().join("sitemap.xml"), "sitemap.xsd");
}

/// A page with 1,001 images lists the first 1,000, with a warning naming it.
#[test]
fn a_thousand_images_per_page_at_most() {
    let site = Site::new(&[]);
    let body: String = (0..1001).map(|i| format!("<img src=/i/{i}.png>")).collect();
    write(
        &site,
        "gallery.html",
        &format!("<title>G</title><main>{body}</main>"),
    );
    site.config(CONFIG);
    site.cmd()
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "gallery.html: more than 1,000 images; the first 1,000 are listed",
        ));
    let path = site.public().join("sitemap.xml");
    validate(&path, "sitemap+extensions.xsd");
    let pages = images_by_page(&fs::read_to_string(&path).unwrap());
    let want: Vec<String> = (0..1000)
        .map(|i| format!("https://example.org/i/{i}.png"))
        .collect();
    assert_eq!(pages[0].1, want);
}

/// A 50 MB page full of images and text is read streamed: the run's peak memory stays
/// far below the page's size.
// Unix only: run under GNU time, which measures its peak memory.
#[cfg(unix)]
#[test]
fn memory_stays_bounded_on_a_50_mb_page() {
    let site = Site::new(&["index.html"]);
    let path = site.public().join("big.html");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    write!(file, "<title>Big</title><main>").unwrap();
    let mut n = 0;
    while file.get_ref().metadata().unwrap().len() < 50_000_000 {
        for _ in 0..1000 {
            write!(
                file,
                "<p>{}</p><img src=\"/img/{n}.png\" alt=\"{}\">",
                "text ".repeat(40),
                "a".repeat(300)
            )
            .unwrap();
            n += 1;
        }
        file.flush().unwrap();
    }
    writeln!(file, "</main>").unwrap();
    drop(file);
    site.config(CONFIG);
    let run = measured(site.root(), &["build"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("big.html: more than 1,000 images"),
        "{}",
        run.stderr
    );
    assert!(
        run.peak_rss_kib < 64 * 1024,
        "peak RSS {} KiB",
        run.peak_rss_kib
    );
}
