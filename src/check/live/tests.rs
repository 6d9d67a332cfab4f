use super::*;

#[test]
#[cfg(feature = "net")]
fn a_listed_lastmod_later_than_the_pages_own_date_is_found() {
    let cases: &[(Option<&str>, Option<&str>, bool)] = &[
        (Some("2026-05-02"), Some("2026-05-01"), true),
        (Some("2026-05-01"), Some("2026-05-01T00:00:00Z"), false),
        (
            Some("2026-05-01T10:00:00+00:00"),
            Some("2026-05-01T11:00:00+02:00"),
            true,
        ),
        (Some("2026-04-30"), Some("2026-05-01"), false),
        (None, Some("2026-05-01"), false),
        (Some("2026-05-02"), None, false),
        (Some("not a date"), Some("2026-05-01"), false),
    ];
    for (listed, page, want) in cases {
        assert_eq!(
            super::pages::lastmod_newer(*listed, *page).is_some(),
            *want,
            "{listed:?} {page:?}"
        );
    }
}

#[test]
fn each_finding_is_one_line_naming_the_url_and_the_fix() {
    let kinds = [
        LiveKind::Status {
            status: 301,
            location: Some("https://e.org/b/".into()),
        },
        LiveKind::Status {
            status: 404,
            location: None,
        },
        LiveKind::Unanswered {
            problem: "timed out".into(),
        },
        LiveKind::Noindex {
            header: Some("noindex".into()),
        },
        LiveKind::Noindex { header: None },
        LiveKind::Canonical {
            canonical: "https://e.org/c/".into(),
        },
        LiveKind::NoReturnLink {
            alternate: "https://e.org/de/".into(),
        },
        LiveKind::LastmodNewer {
            listed: "2026-05-02".into(),
            page: "2026-05-01".into(),
        },
        LiveKind::OtherHost {
            host: "e.org".into(),
        },
        LiveKind::Disallowed,
    ];
    let mut names = std::collections::HashSet::new();
    for kind in kinds {
        let problem = LiveProblem {
            url: "https://e.org/a/".into(),
            sitemap: "https://e.org/sitemap.xml".into(),
            line: 7,
            kind: kind.clone(),
        };
        let text = problem.to_string();
        assert!(text.starts_with("https://e.org/sitemap.xml:7: "), "{text}");
        assert!(text.contains(" https://e.org/a/ "), "{text}");
        assert!(!text.contains('\n'), "{text}");
        names.insert(kind.name());
    }
    assert_eq!(names.len(), 8);
}

/// robots.txt is read for our own agent: its group, its rules, and its Crawl-delay
/// slowing the pace (never speeding it up, at most a minute).
#[test]
#[cfg(feature = "net")]
fn robots_txt_is_obeyed_for_our_agent_and_its_crawl_delay_paces() {
    use crate::robots::Robots;
    let text = b"User-agent: *\nDisallow: /\n\nUser-agent: sitemapgen\nDisallow: /private/\nCrawl-delay: 2\n";
    let robots = Robots::parse(text, crate::http::ROBOTS_AGENT, "robots.txt".into());
    assert!(robots.allows("https://e.org/a/"));
    assert!(!robots.allows("https://e.org/private/a"));
    let cases = [(10.0, 2000), (0.0, 2000), (0.1, 10_000)];
    for (rate, ms) in cases {
        let mut options = LiveOptions::new("https://e.org/sitemap.xml".into());
        options.rate = rate;
        let fetcher = super::fetch::Fetcher::new(&options).paced(Some(&robots));
        assert_eq!(fetcher.interval().as_millis(), ms, "{rate}");
    }
    let slow = Robots::parse(
        b"User-agent: *\nCrawl-delay: 3600\n",
        "sitemapgen",
        "r".into(),
    );
    let fetcher = super::fetch::Fetcher::new(&LiveOptions::new(String::new())).paced(Some(&slow));
    assert_eq!(fetcher.interval().as_secs(), 60);
}
