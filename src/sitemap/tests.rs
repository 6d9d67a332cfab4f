use super::split::write_urlsets;
use super::xml::URLSET_CLOSE;
use super::*;

fn entry(loc: &str, secs: Option<i64>) -> Entry {
    Entry {
        loc: loc.into(),
        lastmod: secs.map(|s| Timestamp::from_second(s).unwrap()),
        changefreq: None,
        priority: None,
        extras: None,
    }
}

/// `entries` as the writer takes them.
fn all(entries: &[Entry]) -> Entries {
    entries.iter().cloned().collect()
}

fn serialised(entries: &[Entry], limits: Limits) -> Vec<String> {
    write_urlsets(
        all(entries).as_slice(),
        limits,
        Form::default(),
        || Ok(Vec::new()),
        Ok,
    )
    .unwrap()
    .into_iter()
    .map(|p| String::from_utf8(p.written).unwrap())
    .collect()
}

#[test]
fn a_urlset_is_escaped_and_exact() {
    let entries = [
        Entry {
            loc: "https://example.org/a&b'c\"<>.html".into(),
            lastmod: Some(Timestamp::from_second(1_709_634_030).unwrap()),
            changefreq: Some(Changefreq::Daily),
            priority: Priority::new(0.8),
            extras: None,
        },
        entry("https://example.org/", None),
    ];
    let out = serialised(&entries, Limits::default());
    insta::assert_snapshot!(out[0], @r#"
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url>
        <loc>https://example.org/a&amp;b&apos;c&quot;&lt;&gt;.html</loc>
        <lastmod>2024-03-05T10:20:30+00:00</lastmod>
        <changefreq>daily</changefreq>
        <priority>0.8</priority>
      </url>
      <url>
        <loc>https://example.org/</loc>
      </url>
    </urlset>
    "#);
}

/// Images declare their namespace (beside xhtml's when both are used), are escaped, and
/// count towards the byte limit: pages whose `<loc>` alone would fit one file split
/// once their images are written.
#[test]
fn images_declare_their_namespace_and_count_towards_the_size_limit() {
    let mut page = entry("https://example.org/a/", None);
    page.extras = Extras::boxed(
        vec![Alternate {
            hreflang: "de".into(),
            href: "https://example.org/de/a/".into(),
        }],
        Box::new(["https://cdn.example.net/x.png?w=1&h=2".into()]),
    );
    insta::assert_snapshot!(serialised(&[page], Limits::default())[0], @r#"
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <url>
        <loc>https://example.org/a/</loc>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/a/"/>
        <image:image>
          <image:loc>https://cdn.example.net/x.png?w=1&amp;h=2</image:loc>
        </image:image>
      </url>
    </urlset>
    "#);
    let plain: Vec<Entry> = (0..10)
        .map(|i| entry(&format!("https://example.org/{i}"), None))
        .collect();
    let limits = Limits {
        max_urls: 50_000,
        max_bytes: 2_000,
    };
    assert_eq!(serialised(&plain, limits).len(), 1);
    let with_images: Vec<Entry> = plain
        .into_iter()
        .map(|mut e| {
            let images = (0..3)
                .map(|n| format!("https://example.org/img/{n}.png").into())
                .collect();
            e.extras = Extras::boxed(Vec::new(), images);
            e
        })
        .collect();
    let parts = serialised(&with_images, limits);
    assert!(parts.len() > 1);
    for part in &parts {
        assert!(part.len() <= limits.max_bytes, "{}", part.len());
        assert!(part.contains("xmlns:image="));
    }
}

#[test]
fn alternates_declare_the_xhtml_namespace_only_when_present() {
    let mut page = entry("https://example.org/en/", None);
    assert!(!serialised(&[page.clone()], Limits::default())[0].contains("xhtml"));
    let alternates = vec![
        Alternate {
            hreflang: "de".into(),
            href: "https://example.org/de/?a=1&b=2".into(),
        },
        Alternate {
            hreflang: "x-default".into(),
            href: "https://example.org/".into(),
        },
    ];
    page.extras = Extras::boxed(alternates, Box::default());
    insta::assert_snapshot!(serialised(&[page], Limits::default())[0], @r#"
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <url>
        <loc>https://example.org/en/</loc>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/?a=1&amp;b=2"/>
        <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/"/>
      </url>
    </urlset>
    "#);
}

#[test]
fn splits_by_count() {
    let entries: Vec<Entry> = (0..7)
        .map(|i| entry(&format!("https://e.org/{i}"), Some(i)))
        .collect();
    let parts = write_urlsets(
        all(&entries).as_slice(),
        Limits {
            max_urls: 3,
            max_bytes: PROTOCOL_MAX_BYTES,
        },
        Form {
            lastmod: LastmodFormat::Date,
            ..Form::default()
        },
        || Ok(Vec::new()),
        Ok,
    )
    .unwrap();
    let counts: Vec<usize> = parts
        .iter()
        .map(|p| String::from_utf8_lossy(&p.written).matches("<url>").count())
        .collect();
    assert_eq!(counts, [3, 3, 1]);
    let newest: Vec<i64> = parts
        .iter()
        .map(|p| p.newest.unwrap().as_second())
        .collect();
    assert_eq!(newest, [2, 5, 6]);
}

#[test]
fn splits_by_bytes_and_never_exceeds_the_limit() {
    let entries: Vec<Entry> = (0..50)
        .map(|i| entry(&format!("https://e.org/{i:03}/{}", "x".repeat(i)), None))
        .collect();
    for max_bytes in [400, 1000, 2000] {
        let out = serialised(
            &entries,
            Limits {
                max_urls: 50_000,
                max_bytes,
            },
        );
        assert!(out.len() > 1, "{max_bytes}");
        let mut seen = 0;
        for part in &out {
            assert!(part.len() <= max_bytes, "{} > {max_bytes}", part.len());
            assert!(part.ends_with(URLSET_CLOSE));
            seen += part.matches("<url>").count();
        }
        assert_eq!(seen, 50);
    }
}

#[test]
fn the_size_limit_counts_bytes_before_gzip() {
    // 40 entries of ~80 bytes compress to far under 1,000 bytes, but not before.
    let entries: Vec<Entry> = (0..40)
        .map(|i| {
            entry(
                &format!("https://e.org/a/long/path/to/page-{i:03}.html"),
                None,
            )
        })
        .collect();
    let mut out = Vec::new();
    let form = Form {
        gzip: true,
        ..Form::default()
    };
    let limits = Limits {
        max_urls: PROTOCOL_MAX_ENTRIES,
        max_bytes: 1_000,
    };
    let err = write_single(&mut out, all(&entries).as_slice(), limits, form).unwrap_err();
    assert!(matches!(err, WriteError::NeedsIndex { .. }), "{err}");
    let limits = Limits {
        max_urls: PROTOCOL_MAX_ENTRIES,
        max_bytes: 10_000,
    };
    write_single(&mut out, all(&entries).as_slice(), limits, form).unwrap();
    assert!(out.len() < 1_000, "{} bytes compressed", out.len());
    let mut text = String::new();
    flate2::read::GzDecoder::new(&out[..])
        .read_to_string(&mut text)
        .unwrap();
    assert!(text.len() > 2_000 && text.ends_with(URLSET_CLOSE));
}

#[test]
fn text_parts_are_lines_with_no_markup() {
    let entries = [
        entry("https://e.org/a", Some(0)),
        entry("https://e.org/b?x=1&y", None),
    ];
    let form = Form {
        format: Format::Txt,
        ..Form::default()
    };
    let parts = write_urlsets(
        all(&entries).as_slice(),
        Limits::default(),
        form,
        || Ok(Vec::new()),
        Ok,
    )
    .unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(
        parts[0].written,
        b"https://e.org/a\nhttps://e.org/b?x=1&y\n"
    );
}

#[test]
fn stdout_refuses_what_needs_an_index() {
    let entries: Vec<Entry> = (0..3)
        .map(|i| entry(&format!("https://e.org/{i}"), None))
        .collect();
    let mut out = Vec::new();
    let err = write_single(
        &mut out,
        all(&entries).as_slice(),
        Limits {
            max_urls: 2,
            max_bytes: PROTOCOL_MAX_BYTES,
        },
        Form::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--output sitemap.xml"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn child_names_come_from_the_output_stem() {
    let hash = blake3::Hash::from_bytes([0xd9; 32]);
    assert_eq!(
        child_name(Path::new("public/sitemap.xml"), JOINT, None, 2, &hash),
        "sitemap-2-d9d9d9d9d9d9.xml"
    );
    assert_eq!(
        child_name(Path::new("maps/site.xml.gz"), JOINT, None, 1, &hash),
        "site-1-d9d9d9d9d9d9.xml.gz"
    );
    assert_eq!(
        child_name(Path::new("sitemap"), JOINT, None, 3, &hash),
        "sitemap-3-d9d9d9d9d9d9"
    );
    assert_eq!(
        child_name(
            Path::new("public/sitemap.xml"),
            JOINT,
            Some("docs-v2"),
            4,
            &hash
        ),
        "sitemap-docs-v2-4-d9d9d9d9d9d9.xml"
    );
}

#[test]
fn recognises_the_names_of_children() {
    let output = Path::new("public/sitemap.xml");
    let table = [
        ("sitemap-1-0123456789ab.xml", Some(ChildShape::Hashed)),
        ("sitemap-12-d9d9d9d9d9d9.xml", Some(ChildShape::Hashed)),
        ("sitemap-3.xml", Some(ChildShape::Numbered(3))),
        (
            "sitemap-blog-1-0123456789ab.xml",
            Some(ChildShape::Sectioned("blog".into())),
        ),
        (
            "sitemap-docs-v2-12-0123456789ab.xml",
            Some(ChildShape::Sectioned("docs-v2".into())),
        ),
        (
            "sitemap-2024-1-0123456789ab.xml",
            Some(ChildShape::Sectioned("2024".into())),
        ),
        ("sitemap-Blog-1-0123456789ab.xml", None),
        ("sitemap-blog-0-0123456789ab.xml", None),
        ("sitemap-blog--1-0123456789ab.xml", None),
        ("sitemap--1-0123456789ab.xml", None),
        ("sitemap-blog-x-0123456789ab.xml", None),
        ("sitemap-blog-1-0123456789ab.xml.gz", None),
        ("sitemap-0-0123456789ab.xml", None),
        ("sitemap-01.xml", None),
        ("sitemap-1-0123456789AB.xml", None),
        ("sitemap-1-0123456789a.xml", None),
        ("sitemap-1-0123456789abc.xml", None),
        ("sitemap-news.xml", None),
        ("sitemap-1-.xml", None),
        ("sitemap-.xml", None),
        ("sitemap-1.xml.gz", None),
        ("other-1.xml", None),
        ("sitemap.xml", None),
    ];
    for (name, want) in table {
        assert_eq!(child_shape(output, JOINT, name), want, "{name}");
    }
}

/// Runs of `max_urls` entries are written on all cores: the files must be the ones a
/// single thread writes, byte for byte, also where the byte limit splits a run.
#[test]
fn files_written_on_all_cores_are_those_of_one_thread() {
    let mut entries: Vec<Entry> = (0..230)
        .map(|i| {
            entry(
                &format!("https://e.org/{i:03}/{}", "x".repeat(i % 37)),
                Some(i as i64),
            )
        })
        .collect();
    // Only the first run has a language alternate: every file still declares xhtml.
    entries[3].extras = Extras::boxed(
        vec![Alternate {
            hreflang: "de".into(),
            href: "https://e.org/de/".into(),
        }],
        Box::default(),
    );
    let limits = [
        (50, PROTOCOL_MAX_BYTES),
        (50, 3000),
        (7, 900),
        (1000, 5000),
        (300, PROTOCOL_MAX_BYTES),
    ];
    for (max_urls, max_bytes) in limits {
        let limits = Limits {
            max_urls,
            max_bytes,
        };
        let want = serialised(&entries, limits);
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("sitemap.xml");
        let prefix = ChildPrefix {
            loc_prefix: "https://e.org/".into(),
        };
        let all = all(&entries);
        let group = Group {
            section: None,
            entries: all.as_slice(),
        };
        let written = write_files(&output, &prefix, &[group], limits, Form::default()).unwrap();
        let files = if written.children.is_empty() {
            vec![output.clone()]
        } else {
            written.children.clone()
        };
        let got: Vec<String> = files
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        assert_eq!(got, want, "max_urls {max_urls}, max_bytes {max_bytes}");
    }
}

/// Files are counted per group before anything is written: three groups of 33,333
/// entries two to a file need 3 × 16,667 = 50,001 files (all of them together would
/// fit 50,000), more than one index may list; the directory stays empty. Text has no
/// index, so no such limit.
#[test]
fn too_many_files_are_counted_per_group_and_refused_before_writing() {
    let entries: Vec<Entry> = (0..99_999)
        .map(|i| entry(&format!("https://e.org/{i}"), None))
        .collect();
    let all = all(&entries);
    let (a, rest) = all.as_slice().split_at(33_333);
    let (b, c) = rest.split_at(33_333);
    let groups = [
        Group {
            section: Some("a"),
            entries: a,
        },
        Group {
            section: Some("b"),
            entries: b,
        },
        Group {
            section: None,
            entries: c,
        },
    ];
    let limits = Limits {
        max_urls: 2,
        max_bytes: PROTOCOL_MAX_BYTES,
    };
    let whole = [Group {
        section: None,
        entries: all.as_slice(),
    }];
    assert!(refuse_too_many_files(&whole, limits, Format::Xml).is_ok());
    assert!(refuse_too_many_files(&groups, limits, Format::Txt).is_ok());
    let err = refuse_too_many_files(&groups, limits, Format::Xml).unwrap_err();
    assert!(
        matches!(err, WriteError::TooManyFiles { files: 50_001 }),
        "{err}"
    );
    // Into a directory that is not there: refused before its lock is even tried.
    let dir = tempfile::tempdir().unwrap();
    let prefix = ChildPrefix {
        loc_prefix: "https://e.org/".into(),
    };
    let output = dir.path().join("gone/sitemap.xml");
    let err = write_files(&output, &prefix, &groups, limits, Form::default()).unwrap_err();
    assert!(
        matches!(err, WriteError::TooManyFiles { files: 50_001 }),
        "{err}"
    );
}

#[test]
fn indexes_past_one_are_named_beside_the_root_and_the_surplus_removed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("sitemap.xml");
    let child = |n: usize| Child {
        loc: format!("https://example.org/sitemap-a-{n}.xml"),
        ..Child::default()
    };
    let all: Vec<_> = (1..=5).map(child).collect();
    let chunks: Vec<&[Child]> = all.chunks(2).collect();
    let written = write_indexes(&root, &chunks, LastmodFormat::Datetime, None).unwrap();
    let names: Vec<String> = (written.indexes.iter())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["sitemap.xml", "sitemap-index-2.xml", "sitemap-index-3.xml"]
    );
    let third = std::fs::read_to_string(dir.path().join("sitemap-index-3.xml")).unwrap();
    assert!(third.contains("sitemap-a-5.xml") && !third.contains("sitemap-a-4.xml"));
    // A file of that shape that is no index is not ours to remove.
    std::fs::write(dir.path().join("sitemap-index-4.xml"), "not an index").unwrap();
    let written = write_indexes(&root, &chunks[..1], LastmodFormat::Datetime, None).unwrap();
    assert_eq!(written.indexes, vec![root]);
    assert_eq!(
        written.removed,
        [
            dir.path().join("sitemap-index-2.xml"),
            dir.path().join("sitemap-index-3.xml")
        ]
    );
    assert!(dir.path().join("sitemap-index-4.xml").exists());
}
