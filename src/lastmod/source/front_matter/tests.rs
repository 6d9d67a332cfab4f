//! The scan of flat blocks against the parsers: every case it reads must come out as
//! the whole parse gives it, and what it cannot be sure of must be parsed whole.

use std::path::Path;

use super::{fenced, flat, parse, parse_whole};

/// Every generator's updated keys, and none.
fn key_sets() -> Vec<Vec<String>> {
    let mut sets: Vec<Vec<String>> = (crate::generators::ALL.iter())
        .map(|g| g.updated.iter().map(|k| k.to_string()).collect())
        .collect();
    sets.push(Vec::new());
    sets.push(vec!["date.updated".into(), "updated".into()]);
    sets
}

/// Whether the scan reads `text` itself (rather than handing it to the parsers).
fn scanned(text: &str, keys: &[String]) -> bool {
    let kept = |key: &str| {
        super::READ.contains(&key) || keys.iter().any(|k| k.split('.').next() == Some(key))
    };
    fenced(text).is_some_and(|(yaml, body)| flat::block(body, yaml, &kept).is_some())
}

/// Checks `text` under every key set; returns how many times the scan read it.
fn agrees(text: &str) -> usize {
    let mut read = 0;
    for keys in key_sets() {
        assert_eq!(
            parse(text, &keys),
            parse_whole(text, &keys),
            "{text:?} {keys:?}"
        );
        read += usize::from(scanned(text, &keys));
    }
    read
}

/// Tricky blocks, each with whether the scan must read it itself (`true`) or hand it
/// to the parsers (`false`); both ways, the result is the whole parse's.
#[test]
fn the_scan_agrees_with_the_parsers_on_tricky_blocks() {
    for (text, read) in TRICKY {
        let times = agrees(text);
        assert_eq!(times > 0, *read, "{text:?}: read by the scan {times} times");
    }
}

/// The blocks of [`the_scan_agrees_with_the_parsers_on_tricky_blocks`].
const TRICKY: &[(&str, bool)] = &[
    (
        "+++\ntitle = 'page 1'\nlastmod = 2024-01-02T03:04:05Z\n+++\nText\n",
        true,
    ),
    (
        "---\ntitle: A\nlastmod: 2024-03-05T10:20:30+02:00\n---\nbody",
        true,
    ),
    (
        "---\ntitle: \"Quoted: yes\"\nlastmod: '2024-01-02'\n---\n",
        true,
    ),
    ("---\ntitle: 'It''s'\nslug: a-b # a comment\n---\n", true),
    ("---\ntitle: a#b\nslug: x #y\n---\n", true),
    (
        "---\n# comment\n  # indented comment\n\ntitle: x\n---\n",
        true,
    ),
    ("---\ntags: [a, b c, d.e]\ntitle: x\n---\n", true),
    ("---\ntags:\n  - a\n  - b\ntitle: x\n---\n", true),
    ("---\ntags:\n- a\n- b\ntitle: x\n---\n", true),
    (
        "---\nsummary: |\n  date: 1999-01-01\n  lastmod: 1999-01-01\n\ntitle: x\n---\n",
        true,
    ),
    (
        "---\nsummary: >-\n    folded\n    text\nlastmod: 2024-01-01\n---\n",
        true,
    ),
    ("---\ndraft: true\npublished: false\n---\n", true),
    ("---\ndraft: True\n---\n", true),
    ("---\ndraft: yes\n---\n", true),
    ("---\nslug: 007\nid: 0x1F\ntitle: 1.50\n---\n", true),
    ("---\nslug: +5\nid: .inf\ntitle: ~\n---\n", true),
    (
        "---\nslug: null\ndate: 2024-01-02 10:00:00 +0200\n---\n",
        true,
    ),
    ("---\ncategories: a b\n---\n", true),
    ("---\nstatus: Draft\n---\n", true),
    ("---\ndate-modified: last-modified\n---\n", true),
    (
        "+++\ntitle = \"A\" # comment\nupdated = 2024-03-05\n+++\n",
        true,
    ),
    ("+++\nupdated = 2024-03-05T10:20:30.123-05:00\n+++\n", true),
    (
        "+++\nupdated = 1979-05-27T07:32:00\ndraft = true\n+++\n",
        true,
    ),
    ("+++\ntags = [\"a\", 'b',]\nweight = 10\n+++\n", true),
    ("+++\n  title = 'indented'\n+++\n", true),
    ("+++\ntitle = ''\nslug = \"\"\n+++\n", true),
    // The scan hands these to the parsers.
    (
        "---\nlast_update:\n  date: '2024-11-30T12:00:00-08:00'\n---\n",
        false,
    ),
    (
        "---\ndate:\n  created: 2024-01-01\n  updated: 2024-08-14\n---\n",
        false,
    ),
    ("---\ntitle: a\n  continued\n---\n", false),
    ("---\nparams:\n  date: 1999-01-01\ntitle: x\n---\n", false),
    ("---\ntitle: \"esc\\\"aped\"\n---\n", false),
    ("---\ntitle: \"open\n  line\"\n---\n", false),
    ("---\ntags: [a,\n  b]\nlastmod: 2024-01-01\n---\n", false),
    (
        "---\nlastmod: 2024-01-01\nlastmod: 2024-01-02\n---\n",
        false,
    ),
    ("---\nnot: [closed\n---\n", false),
    ("---\ntitle: a: b\n---\n", false),
    ("---\ntitle: &anchor x\nslug: *anchor\n---\n", false),
    ("---\ntitle: !tag x\n---\n", false),
    ("---\n\"title\": x\n---\n", false),
    ("---\na.b: x\n---\n", false),
    ("---\ntrue: x\ntitle: y\n---\n", false),
    ("---\ntitle: x\r\nslug: y\r\n---\r\n", false),
    ("---\ntitle:\tx\n---\n", false),
    ("---\ncategories: [a, b]\n---\n", false),
    ("---\ncategories:\n  - a\n---\n", false),
    (
        "---\nsummary: |\n    deep\n  shallow\ntitle: x\n---\n",
        false,
    ),
    ("+++\n[params]\nlastmod = 2024-01-01\n+++\n", false),
    ("+++\nlastmod = 2024-01-01 10:00:00Z\n+++\n", false),
    ("+++\ntitle = \"\"\"\nmulti\n\"\"\"\n+++\n", false),
    ("+++\ntags = [\n  \"a\",\n]\n+++\n", false),
    ("+++\ntitle = 'a'\ntitle = 'b'\n+++\n", false),
    ("+++\ntitle = 'a\\b'\n+++\n", false),
    ("+++\nweight = 007\ntitle = 'a'\n+++\n", false),
    ("+++\nmenu.main = 1\n+++\n", false),
    ("+++\nlastmod = 'soon'\nlastmod2 = {a = 1}\n+++\n", false),
    ("---\n---\n", false),
    ("---\n...\n---\n", false),
    ("---\ntitle: no end\n", false),
];

/// Every source of every fixture project, as written by the generators' own starters.
#[test]
fn the_scan_agrees_with_the_parsers_on_every_fixture_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (mut files, mut read) = (0, 0);
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if text.len() <= super::FRONT_MATTER_LIMIT && fenced(&text).is_some() {
                files += 1;
                read += agrees(&text).min(1);
            }
        }
    }
    assert!(files > 100, "{files} fixture sources with front matter");
    assert!(read * 2 > files, "the scan read {read} of {files}");
}

/// Random blocks strung from tricky lines: the scan agrees with the parsers on each.
#[test]
fn the_scan_agrees_with_the_parsers_on_random_blocks() {
    const YAML: &[&str] = &[
        "title: A",
        "title: 'x''y'",
        "title: \"q\"",
        "lastmod: 2024-01-02",
        "date: 2023-05-06 07:08:09 +0100",
        "slug: 12",
        "draft: true",
        "draft: no",
        "tags: [a, b]",
        "tags:",
        "  - a",
        "- b",
        "summary: |",
        "  lastmod: 1999-01-01",
        "",
        "# c",
        "  x",
        "url: /a/b/",
        "updated: x: y",
        "categories: a b",
        "date:",
        "  created: 2024-01-01",
        "lastMod: ~",
        "a: [",
        "modified: 2024-02-02T10:00:00Z",
    ];
    const TOML: &[&str] = &[
        "title = 'A'",
        "title = \"B\"",
        "lastmod = 2024-01-02",
        "lastmod = 2024-01-02T03:04:05Z",
        "draft = true",
        "weight = 3",
        "tags = ['a', \"b\"]",
        "",
        "# c",
        "[params]",
        "date = 1979-05-27",
        "slug = 'x' # s",
        "updated = 'soon'",
        "x = [",
        "]",
        "id = 5",
        "path = '/p/'",
    ];
    let mut rng = fastrand::Rng::with_seed(46);
    for _ in 0..3000 {
        let (fence, lines) = match rng.bool() {
            true => ("---", YAML),
            false => ("+++", TOML),
        };
        let body: Vec<&str> = (0..rng.usize(1..8))
            .map(|_| lines[rng.usize(..lines.len())])
            .collect();
        let text = format!("{fence}\n{}\n{fence}\nText\n", body.join("\n"));
        agrees(&text);
    }
}

/// The dates generators write in front matter, each read to its instant: Nikola's
/// `UTC` forms among them.
#[test]
fn front_matter_dates_in_the_generators_forms() {
    for (text, want) in [
        ("2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"),
        ("2024-03-05 10:20:30 +0200", "2024-03-05T08:20:30Z"),
        ("2025-06-01 09:00:00 UTC", "2025-06-01T09:00:00Z"),
        ("2025-01-04 12:00:00 UTC+02:00", "2025-01-04T10:00:00Z"),
        ("2024-03-10 22:30:00-05:00", "2024-03-11T03:30:00Z"),
        ("'2024-03-10 22:30:00 GMT'", "2024-03-10T22:30:00Z"),
    ] {
        let got = super::parse_date(text).map(|t| t.to_string());
        assert_eq!(got.as_deref(), Some(want), "{text}");
    }
    assert_eq!(super::parse_date("next tuesday"), None);
}
