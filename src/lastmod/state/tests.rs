use std::collections::BTreeMap;

use super::*;
use crate::page::made_up;

fn state(pages: &[(&str, &str, Option<i64>)]) -> State {
    let mut state = State::default();
    for &(url, fingerprint, lastmod) in pages {
        let lastmod = lastmod.map(|s| Timestamp::from_second(s).unwrap());
        state.push(
            url,
            PageState {
                fingerprint: made_up(fingerprint),
                lastmod,
            },
        );
    }
    state.sorted()
}

use super::save_pages as save;

fn urls(state: &State) -> Vec<&str> {
    state.pages().map(|(url, _)| url).collect()
}

#[test]
fn round_trips_sorted_and_keeps_other_bases() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let none = State::load(&path).unwrap();
    assert!(none.get("x").is_none() && !none.found());
    let ts = 1_700_000_000;
    let pages = state(&[
        ("https://e.org/b", "ab", Some(ts)),
        ("https://e.org/a", "ab", Some(ts)),
    ]);
    save(&path, "https://e.org/", &pages, &none).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.find("e.org/a").unwrap() < text.find("e.org/b").unwrap(),
        "{text}"
    );
    let loaded = State::load(&path).unwrap();
    assert!(loaded.found());
    let a = loaded.get("https://e.org/a").unwrap();
    assert_eq!(a.lastmod.map(|t| t.as_second()), Some(ts));
    assert_eq!(a.fingerprint, made_up("ab"));
    // A shard under another base URL keeps these pages; a later run of the first
    // drops its own page that is gone, not the shard's.
    let shard = state(&[("https://e.org/docs/x", "ab", Some(ts))]);
    save(&path, "https://e.org/docs/", &shard, &loaded).unwrap();
    let first = state(&[("https://e.org/b", "ab", Some(ts))]);
    save(&path, "https://e.org/blog/", &first, &loaded).unwrap();
    let state_now = State::load(&path).unwrap();
    assert_eq!(
        urls(&state_now),
        ["https://e.org/a", "https://e.org/b", "https://e.org/docs/x"]
    );
    save(&path, "https://e.org/", &first, &state_now).unwrap();
    assert_eq!(urls(&State::load(&path).unwrap()), ["https://e.org/b"]);
}

/// A file that is not a state file of ours, or a damaged one, is refused with one line
/// naming it and saying what is wrong and where.
#[test]
fn foreign_and_damaged_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let table = [
        ("{not json", "is not valid JSON"),
        (r#"{"name": "some-package"}"#, "not a sitemapgen state file"),
        (
            r#"{"sitemapgen_state": 9, "pages": {}}"#,
            "format version 9",
        ),
        (
            r#"{"sitemapgen_state": 1, "pages": {}}"#,
            "format version 1 (blake3 fingerprints, from before the first release), this sitemapgen reads 2",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"fingerprint": 3}}}"#,
            "is damaged",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"lastmod": null}}}"#,
            "is damaged (missing field `fingerprint`",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"fingerprint": "a", "x": 1}}}"#,
            "is damaged (unknown field `x`",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"fingerprint": "a"}}}"#,
            "is damaged (the fingerprint of u is not 32 lower-case hex digits",
        ),
        (r#"{"sitemapgen_state": 2}"#, "is damaged"),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"fingerprint": "a", "lastmod": 5}}}"#,
            "is damaged (invalid type: integer `5`, expected a date and time, or null",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {"u": {"fingerprint": "a", "lastmod": "May"}}}"#,
            "is damaged (",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {}} x"#,
            "is not valid JSON",
        ),
        (
            r#"{"sitemapgen_state": "2", "pages": {}}"#,
            "has sitemapgen_state \"2\", not a number (this sitemapgen reads format version 2)",
        ),
        (
            r#"{"sitemapgen_state": [2], "pages": {}}"#,
            "has sitemapgen_state an array, not a number",
        ),
        (
            r#"{"sitemapgen_state": -2, "pages": {}}"#,
            "has sitemapgen_state -2, not a number",
        ),
        // Another version is not read on: its pages may be anything.
        (
            r#"{"sitemapgen_state": 3, "pages": {"u": 1}"#,
            "format version 3, this sitemapgen reads 2",
        ),
        (
            r#"{"name": "x", "sitemapgen_state": 2, "pages": {}}"#,
            "is damaged (unknown field `name`",
        ),
        (
            r#"{"sitemapgen_state": 2, "pages": {}, "name": "x"}"#,
            "is damaged (unknown field `name`",
        ),
        (r#"{"pages": {}}"#, "is not a sitemapgen state file"),
        (r#"[1, 2]"#, "is not a sitemapgen state file"),
        // Where it is wrong, from the one parse.
        (
            "{\"sitemapgen_state\": 2,\n \"pages\": {\"u\": {\"fingerprint\": \"a\"}}}",
            "not 32 lower-case hex digits at line 2 column",
        ),
        (
            "{\"sitemapgen_state\": 2,\n\n \"pages\": {\"u\": ",
            "is not valid JSON (EOF while parsing a value at line 3 column",
        ),
    ];
    for (text, want) in table {
        std::fs::write(&path, text).unwrap();
        let err = State::load(&path).unwrap_err().to_string();
        assert!(
            err.contains(want) && err.contains("state.json"),
            "{text}: {err}"
        );
        assert!(!err.contains('\n'), "{err}");
    }
}

/// A date no sitemap can hold (year 0, a negative year) is read as no record, however
/// often it repeats (a run of pages shares one parse), and the first is kept to report.
#[test]
fn out_of_range_dates_are_read_as_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let fp = "0123456789abcdef0123456789abcdef";
    let page = |url: &str, date: &str| {
        format!("\"{url}\": {{\"fingerprint\": \"{fp}\", \"lastmod\": {date}}}")
    };
    let pages = [
        page("a", "\"0000-06-01T00:00:00Z\""),
        page("b", "\"0000-06-01T00:00:00Z\""),
        page("c", "\"2024-01-01T00:00:00Z\""),
        page("d", "\"-000001-01-01T00:00:00Z\""),
        page("e", "null"),
        page("f", "\"9999-12-30T00:00:00Z\""),
    ];
    let text = format!(
        "{{\"sitemapgen_state\": 2, \"pages\": {{{}}}}}",
        pages.join(", ")
    );
    std::fs::write(&path, text).unwrap();
    let state = State::load(&path).unwrap();
    assert_eq!(urls(&state), ["c", "e", "f"]);
    let refused = state.refused_dates().unwrap();
    assert_eq!(
        (refused.count, refused.first.as_str()),
        (3, "0000-06-01T00:00:00Z")
    );
}

/// Neighbours sharing a date, then not, then null, then the first again: each date read
/// is its own page's (a date is parsed once for a run of pages sharing it).
#[test]
fn each_page_reads_its_own_date() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let none = State::default();
    let ts = 1_700_000_000;
    let dates = [
        Some(ts),
        Some(ts),
        Some(ts + 1),
        None,
        Some(ts),
        Some(ts + 1),
    ];
    let listed: Vec<(String, Option<i64>)> = dates
        .iter()
        .enumerate()
        .map(|(i, &d)| (format!("https://e.org/{i}"), d))
        .collect();
    let spec: Vec<(&str, &str, Option<i64>)> =
        listed.iter().map(|(u, d)| (u.as_str(), "ab", *d)).collect();
    save(&path, "https://e.org/", &state(&spec), &none).unwrap();
    let loaded = State::load(&path).unwrap();
    for (url, date) in &listed {
        let got = loaded.get(url).unwrap().lastmod.map(|t| t.as_second());
        assert_eq!(got, *date, "{url}");
    }
}

/// The file written streaming is byte for byte what serde_json's pretty printer gives of
/// the same object (the format every earlier state file has), escapes included.
#[test]
fn writes_what_serde_json_writes() {
    #[derive(serde::Serialize)]
    struct Record {
        fingerprint: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        lastmod: Option<Timestamp>,
    }
    #[derive(serde::Serialize)]
    struct File<'a> {
        sitemapgen_state: u32,
        pages: BTreeMap<&'a str, Record>,
    }
    let tables: [&[(&str, &str, Option<i64>)]; 3] = [
        &[],
        &[
            ("https://e.org/a", "0123", Some(1_700_000_000)),
            ("https://e.org/n", "", Some(-1)),
        ],
        &[
            ("https://e.org/\"q\"\\/\u{1}é", "f\n", None),
            ("https://e.org/b", "ff", Some(1)),
            ("https://e.org/a", "", Some(-1)),
        ],
    ];
    for pages in tables {
        let ours = state(pages);
        let mut written = Vec::new();
        let pages = ours.pages().map(|(url, page)| (Url("", url), page));
        file::write(&mut written, pages).unwrap();
        let object = File {
            sitemapgen_state: VERSION,
            pages: ours
                .pages()
                .map(|(url, p)| {
                    let record = Record {
                        fingerprint: p.fingerprint.to_string(),
                        lastmod: p.lastmod,
                    };
                    (url, record)
                })
                .collect(),
        };
        let mut expected = serde_json::to_vec_pretty(&object).unwrap();
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8(written).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }
}

/// Read back, unsorted input is sorted and of a repeated URL the last counts, as it did
/// when the file was read into a map.
#[test]
fn unsorted_and_repeated_urls_read_as_a_map_would() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let text = r#"{"pages": {"c": {"fingerprint": "1"}, "a": {"fingerprint": "2",
        "lastmod": null}, "c": {"fingerprint": "3", "lastmod": "2024-01-02T03:04:05Z"},
        "b": {"fingerprint": "4"}}, "sitemapgen_state": 2}"#;
    let text = ["1", "2", "3", "4"]
        .iter()
        .fold(text.to_string(), |text, label| {
            text.replace(&format!("\"{label}\""), &format!("\"{}\"", made_up(label)))
        });
    std::fs::write(&path, &text).unwrap();
    let state = State::load(&path).unwrap();
    assert_eq!(urls(&state), ["a", "b", "c"]);
    let c = state.get("c").unwrap();
    assert_eq!(c.fingerprint, made_up("3"));
    assert_eq!(c.lastmod.unwrap().to_string(), "2024-01-02T03:04:05Z");
    assert_eq!(state.get("a").unwrap().lastmod, None);
    assert_eq!(state.len(), 3);
}

/// A page's item stays as small as the module says.
#[test]
fn an_item_is_40_bytes() {
    assert_eq!(std::mem::size_of::<Item>(), 40);
}

/// Dates come back as they went in: before 1970, with fractions of a second, or none.
#[test]
fn dates_round_trip_through_the_item() {
    let dates = [
        Some(Timestamp::new(5, 123).unwrap()),
        Some(Timestamp::new(-5, -300).unwrap()),
        Some(Timestamp::MIN),
        Some(Timestamp::MAX),
        None,
    ];
    for lastmod in dates {
        let mut state = State::default();
        state.push(
            "u",
            PageState {
                fingerprint: made_up("f"),
                lastmod,
            },
        );
        assert_eq!(state.get("u").unwrap().lastmod, lastmod);
    }
}

/// What a run keeps of the previous state to save with: another shard's pages, and
/// what the file was (so it is not read again).
#[test]
fn the_pages_outside_are_all_a_save_needs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let both = state(&[
        ("https://e.org/a", "1", None),
        ("https://e.org/docs/d", "2", None),
    ]);
    save(&path, "https://e.org/", &both, &State::default()).unwrap();
    let read = State::load(&path).unwrap();
    let outside = |state: &State, owned| merge::Merge::new(state, owned, false, None).finish();
    let kept = outside(&read, "https://e.org/blog/").outside;
    assert!(kept.found());
    assert_eq!(urls(&kept), ["https://e.org/a", "https://e.org/docs/d"]);
    let kept = outside(&kept, "https://e.org/docs/").outside;
    assert_eq!(urls(&kept), ["https://e.org/a"]);
    let ours = state(&[("https://e.org/docs/e", "3", None)]);
    save(&path, "https://e.org/docs/", &ours, &kept).unwrap();
    assert_eq!(
        urls(&State::load(&path).unwrap()),
        ["https://e.org/a", "https://e.org/docs/e"]
    );
}

/// URLs are ordered as `str` orders them, whatever their lengths and where they differ.
#[test]
fn urls_compare_as_strings_do() {
    let urls = [
        "",
        "a",
        "https://example.org/",
        "https://example.org/a",
        "https://example.org/a/",
        "https://example.org/ab/",
        "https://example.org/b",
        "https://example.org/é/",
        "https://example.org/section-1/page/2/",
        "https://example.org/section-1/page/10/",
        "https://example.org/section-1/page/1",
        "https://example.org/section-1/page/1/\u{7f}",
        "https://example.org/section-1/page/1/\u{80}",
        "https://example.org/section-1/page/1/\u{ff}",
    ];
    for a in urls {
        for b in urls {
            assert_eq!(super::compare(a, b), a.cmp(b), "{a:?} {b:?}");
        }
    }
}

/// Every lookup answers as a map of the pages would, present URLs and absent ones (URLs
/// that share long prefixes, as a site's do, and other shards' URLs before and after the
/// base). The walk down the state is [`merge`]'s, tested there.
#[test]
fn lookups_answer_as_a_map_would() {
    let base = "https://e.org/";
    let mut urls: Vec<String> = (0..5000)
        .map(|i| format!("{base}section-{}/page/{i}/", i % 7))
        .collect();
    urls.extend(
        [
            "https://d.org/x/",
            "https://e.org",
            "https://e.orgx/",
            "https://f.org/",
        ]
        .map(String::from),
    );
    let mut state = State::default();
    let mut map = BTreeMap::new();
    for (i, url) in urls.iter().enumerate().filter(|(i, _)| i % 3 != 0) {
        let page = PageState {
            fingerprint: made_up(&i.to_string()),
            lastmod: Timestamp::from_second(i as i64).ok(),
        };
        state.push(url, page);
        map.insert(url.as_str(), page);
    }
    let state = state.sorted();
    let absent = ["", "https://e.org/", "https://e.org/section-0/page/0"];
    for url in urls.iter().map(String::as_str).chain(absent) {
        assert_eq!(state.get(url), map.get(url).copied(), "{url}");
    }
}

/// A state file read whole and one read streaming give the same pages, and the same
/// error when damaged.
#[test]
fn read_whole_or_streaming_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    let pages: Vec<(String, String, Option<i64>)> = (0..300)
        .map(|i| {
            (
                format!("https://e.org/p/{i}/\u{e9}\\\"q"),
                i.to_string(),
                Some(i * 1000),
            )
        })
        .collect();
    let pages: Vec<(&str, &str, Option<i64>)> = pages
        .iter()
        .map(|(u, f, l)| (u.as_str(), f.as_str(), *l))
        .collect();
    save(&path, "https://e.org/", &state(&pages), &State::default()).unwrap();
    let read = |whole_up_to| file::load_reading_whole(&path, None, whole_up_to);
    let (whole, streamed) = (read(u64::MAX).unwrap(), read(0).unwrap());
    assert_eq!(whole.len(), 300);
    assert!(whole.pages().eq(streamed.pages()));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("\"lastmod\"", "\"lastmod\" 1", 1)).unwrap();
    let (whole, streamed) = (read(u64::MAX), read(0));
    let (whole, streamed) = (whole.unwrap_err(), streamed.unwrap_err());
    assert!(whole.to_string().contains("is not valid JSON"), "{whole}");
    assert_eq!(whole.to_string(), streamed.to_string());
}

/// A URL in two parts orders against any other as the joined URL does: the base a
/// prefix of the other, the other a prefix of the base, neither.
#[test]
fn urls_in_two_parts_order_as_joined() {
    let urls = [
        "",
        "https://e.org",
        "https://e.org/",
        "https://e.org/a",
        "https://e.org/a/b",
        "https://e.org/b",
        "https://e.orgx/",
        "https://d.org/",
        "https://f.org/",
    ];
    for base in ["", "https://e.org/", "https://e.org/a"] {
        for rest in ["", "a", "a/b", "b", "~"] {
            let joined = format!("{base}{rest}");
            for other in urls {
                let got = Url(base, rest).cmp_str(other);
                assert_eq!(
                    got,
                    joined.as_str().cmp(other),
                    "{base} + {rest} against {other}"
                );
            }
        }
    }
}

mod saving;
