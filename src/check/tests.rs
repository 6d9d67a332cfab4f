use super::*;

fn options() -> CheckOptions {
    CheckOptions {
        base_url: None,
        now: Timestamp::from_second(1_800_000_000).unwrap(),
        written_by_us: false,
    }
}

/// Found by fuzzing (check_parser, crash-c8524f6b): a namespace URI with newlines
/// was quoted raw, so one problem took several lines of output.
#[test]
fn fuzz_crash_namespace_with_newlines_stays_on_one_line() {
    let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org\n  <loc>x</loc>\n\">\n</urlset>\n";
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    assert_eq!(report.errors(), 1);
    let line = report.problems[0].to_string();
    assert!(!line.contains('\n'), "{line}");
    assert!(
        line.starts_with(
            "sitemap.xml:2: error: root element is <urlset> in http://www.sitemaps.org\\n"
        ),
        "{line}"
    );
}

/// Every problem of `report` prints on one line.
fn assert_one_line_each(report: &Report) {
    assert!(
        report
            .problems
            .iter()
            .all(|p| !p.to_string().contains('\n')),
        "{:?}",
        report.problems
    );
}

/// Found by fuzzing (check_parser, crash-d2688bec): a declared encoding with a
/// newline was quoted raw.
#[test]
fn fuzz_crash_encoding_with_newline_stays_on_one_line() {
    let xml = "<?xml version=\"1.0\" encoding=\"ut\nf-8\"?>\n<urlset/>\n";
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    assert_one_line_each(&report);
    assert!(
        report.problems[0]
            .message
            .contains("declares encoding ut\\nf-8"),
        "{:?}",
        report.problems
    );
}

/// Found by fuzzing (check_parser, crash-4f35b97b): a parse error quoting the
/// document spanned lines, and its text mentioning UTF-8 made it "not UTF-8".
#[test]
fn fuzz_crash_parse_error_quoting_the_document() {
    let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>x</<?xml encoding=\"loc>\nUTF-8\"?>\n";
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    let line = report.problems[0].to_string();
    assert!(!line.contains('\n'), "{line}");
    assert!(line.contains("not well-formed XML"), "{line}");
}

/// Found by fuzzing (check_parser, crash-77918233): an undefined entity's name,
/// newlines included, was quoted raw.
#[test]
fn fuzz_crash_undefined_entity_with_newline() {
    let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>&op\ng/;</loc></url></urlset>";
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    assert!(!report.problems.is_empty());
    assert_one_line_each(&report);
}

/// Lines are read whole up to [`KEPT_BYTES`], measured past it, their end not counted.
#[test]
fn text_lines_are_kept_up_to_a_bound_and_measured_whole() {
    let long = "a".repeat(KEPT_BYTES + 10);
    let input = format!("one\ntwo\r\n\n{long}\r\nlast");
    let table: [(&[u8], usize); 5] = [
        (b"one", 3),
        (b"two\r", 3),
        (b"", 0),
        (&long.as_bytes()[..KEPT_BYTES], KEPT_BYTES + 10),
        (b"last", 4),
    ];
    let mut reader = std::io::BufReader::with_capacity(7, input.as_bytes());
    let mut line = Vec::new();
    for (kept, len) in table {
        line.clear();
        assert_eq!(read_line(&mut reader, &mut line).unwrap(), Some(len));
        assert_eq!(line, kept);
    }
    assert_eq!(read_line(&mut reader, &mut line).unwrap(), None);
}

/// Past [`PROBLEMS_PER_FILE`], a file's problems are counted, not kept; but the one
/// that stops its reading is kept, as it says why no more follow.
#[test]
fn problems_past_the_cap_are_counted_not_kept() {
    let xml = format!(
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{}</oops>",
        "<url/>".repeat(PROBLEMS_PER_FILE + 500)
    );
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    assert_eq!(report.problems.len(), PROBLEMS_PER_FILE + 1);
    assert!(
        report.problems[PROBLEMS_PER_FILE]
            .message
            .starts_with("not well-formed XML"),
        "{:?}",
        report.problems.last()
    );
    assert_eq!(report.errors(), PROBLEMS_PER_FILE + 501);
    let omitted = Omitted {
        file: PathBuf::from("sitemap.xml"),
        count: 500,
    };
    assert_eq!(omitted.to_string(), "and 500 more problems in sitemap.xml");
    assert_eq!(report.omitted, [omitted]);
}

/// `<image:loc>` values are checked as URLs (absolute http(s), encoded, under 2,048
/// characters) but neither counted nor held to the site's host, and the same image on
/// two pages is no duplicate; other image tags and `<loc>` outside `image:` are left to
/// the sitemap's rules.
#[test]
fn image_locs_are_checked_as_urls() {
    let long = format!("https://cdn.example.net/{}.png", "a".repeat(KEPT_BYTES));
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://example.org/a/</loc>
<image:image><image:loc>https://cdn.example.net/x.png</image:loc><image:caption>free text</image:caption></image:image>
<image:image><image:loc>/relative.png</image:loc></image:image>
</url>
<url><loc>https://example.org/b/</loc>
<image:image><image:loc>https://cdn.example.net/x.png</image:loc></image:image>
<image:image><image:loc>https://cdn.example.net/a b.png</image:loc></image:image>
<image:image><image:loc>{long}</image:loc></image:image>
</url>
</urlset>
"#
    );
    let report = check_bytes("sitemap.xml", xml.as_bytes(), &options());
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    let long_len = long.len();
    assert_eq!(
        problems,
        [
            "sitemap.xml:5: error: image:loc '/relative.png' is not an absolute http(s) URL"
                .to_string(),
            "sitemap.xml:9: error: image URL holds a space, which must be percent-encoded: https://cdn.example.net/a b.png".to_string(),
            format!("sitemap.xml:10: error: image URL is {long_len} characters; the protocol allows fewer than 2,048"),
        ]
    );
    assert_eq!(report.counts.urls, 2);
}
