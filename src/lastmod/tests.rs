use super::*;
use crate::w3c::{LastmodFormat, format};
use std::time::{Duration, UNIX_EPOCH};

#[test]
fn parses_dates_as_pages_write_them() {
    let table = [
        (
            "2024-03-05T10:20:30+02:00",
            Some("2024-03-05T08:20:30+00:00"),
        ),
        ("2024-03-05T10:20:30Z", Some("2024-03-05T10:20:30+00:00")),
        (
            "2024-03-05T10:20:30.999-05:00",
            Some("2024-03-05T15:20:30+00:00"),
        ),
        (
            "2024-03-05 10:20:30+00:00",
            Some("2024-03-05T10:20:30+00:00"),
        ),
        ("2024-03-05T10:20:30", Some("2024-03-05T10:20:30+00:00")),
        ("2024-03-05T10:20", Some("2024-03-05T10:20:00+00:00")),
        ("2024-03-05", Some("2024-03-05T00:00:00+00:00")),
        ("  2024-03-05  ", Some("2024-03-05T00:00:00+00:00")),
        (
            "Tue, 05 Mar 2024 10:20:30 GMT",
            Some("2024-03-05T10:20:30+00:00"),
        ),
        (
            "Tue, 05 Mar 2024 10:20:30 +0100",
            Some("2024-03-05T09:20:30+00:00"),
        ),
        ("2024-13-45", None),
        ("0000-01-01", None),
        ("0001-01-01T00:30:00+01:00", None),
        ("-0001-01-01T00:00:00Z", None),
        ("0001-01-01", Some("0001-01-01T00:00:00+00:00")),
        ("9999-12-30T12:00:00Z", Some("9999-12-30T12:00:00+00:00")),
        ("yesterday", None),
        ("", None),
    ];
    for (text, want) in table {
        let got = parse_date(text).map(|ts| format(ts, LastmodFormat::Datetime));
        assert_eq!(got.as_deref(), want, "{text:?}");
    }
}

#[test]
fn sources_are_tried_in_order() {
    let facts = PageFacts {
        modified: Some(UNIX_EPOCH + Duration::from_millis(1_709_634_030_500)),
        ..PageFacts::default()
    };
    let ts = resolve(&[LastmodSource::Mtime], &facts).lastmod.unwrap();
    assert_eq!(
        format(ts, LastmodFormat::Datetime),
        "2024-03-05T10:20:30+00:00"
    );
    assert_eq!(resolve(&[LastmodSource::None], &facts).lastmod, None);
    assert_eq!(
        resolve(&[LastmodSource::Mtime], &PageFacts::default()).lastmod,
        None
    );
    assert!(uses(&[LastmodSource::Mtime], LastmodSource::Mtime));
    assert!(!uses(
        &[LastmodSource::None, LastmodSource::Mtime],
        LastmodSource::Mtime
    ));

    let both = [LastmodSource::Meta, LastmodSource::Mtime];
    let meta = PageFacts {
        meta: Some("2020-01-02"),
        ..facts
    };
    let got = resolve(&both, &meta).lastmod.unwrap();
    assert_eq!(format(got, LastmodFormat::Date), "2020-01-02");
    let bad = PageFacts {
        meta: Some("last Tuesday"),
        ..facts
    };
    let got = resolve(&both, &bad);
    assert_eq!(got.lastmod, Some(ts));
    assert_eq!(got.unparseable.as_deref(), Some("last Tuesday"));
    assert!(
        uses(&both, LastmodSource::Meta) && !uses(&[LastmodSource::Mtime], LastmodSource::Meta)
    );
}

#[test]
fn content_keeps_its_date_until_it_changes() {
    use LastmodSource::{Content, Git, Mtime};
    let old = Timestamp::from_second(1_600_000_000).unwrap();
    let mtime = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let now = Timestamp::from_second(1_800_000_000).unwrap();
    let before = state::PageState {
        fingerprint: crate::page::made_up("aaa"),
        lastmod: Some(old),
    };
    let facts = |fp: &str, prev: Option<state::PageState>| PageFacts {
        modified: Some(mtime),
        content: Some(crate::page::made_up(fp)),
        previous: prev,
        now: Some(now),
        ..PageFacts::default()
    };
    let secs = |sources: &[LastmodSource], f: PageFacts| {
        resolve(sources, &f).lastmod.map(|t| t.as_second())
    };
    assert_eq!(
        secs(&[Content, Mtime], facts("aaa", Some(before))),
        Some(1_600_000_000)
    );
    assert_eq!(
        secs(&[Content, Mtime], facts("bbb", Some(before))),
        Some(1_700_000_000)
    );
    assert_eq!(
        secs(&[Content, Mtime], facts("bbb", None)),
        Some(1_700_000_000)
    );
    assert_eq!(
        secs(&[Content], facts("bbb", Some(before))),
        Some(1_800_000_000)
    );
    assert_eq!(
        secs(&[Content, LastmodSource::None], facts("bbb", None)),
        Some(1_800_000_000)
    );
    let git = PageFacts {
        git: Some(old),
        ..facts("x", None)
    };
    assert_eq!(secs(&[Git, Mtime], git), Some(1_600_000_000));
    assert_eq!(secs(&[Git, Mtime], facts("x", None)), Some(1_700_000_000));
}

/// The sources tried in one go, as they were before the state could wait: what
/// [`resolve`] (before the state, then settled by it) must agree with.
fn resolve_at_once(sources: &[LastmodSource], facts: &PageFacts) -> Resolved {
    let mut resolved = Resolved::default();
    let mut content_changed = false;
    for source in sources {
        let found = match source {
            LastmodSource::None => break,
            LastmodSource::Content => match (facts.content, facts.previous) {
                (Some(now), Some(before)) if before.fingerprint == now => before.lastmod,
                (Some(_), _) => {
                    content_changed = true;
                    None
                }
                (None, _) => None,
            },
            other => date_of(*other, facts, &mut resolved.unparseable),
        };
        if found.is_some() {
            resolved.lastmod = found;
            resolved.from = Some(*source);
            return resolved;
        }
    }
    if content_changed {
        resolved.lastmod = facts.now;
        resolved.from = Some(LastmodSource::Content);
    }
    resolved
}

/// Every list of up to four sources, over facts each present or not (a meta date good or
/// unparseable, content unchanged, changed or new, its record dated or not): the date,
/// its source and the unparseable date are those of trying the sources in one go.
#[test]
fn resolving_before_the_state_then_settling_agrees_with_resolving_at_once() {
    let ts = |s| Timestamp::from_second(s).ok();
    let fp = crate::page::made_up;
    let records = [
        None,
        Some(state::PageState {
            fingerprint: fp("same"),
            lastmod: ts(1_500_000_000),
        }),
        Some(state::PageState {
            fingerprint: fp("same"),
            lastmod: None,
        }),
        Some(state::PageState {
            fingerprint: fp("before"),
            lastmod: ts(1_500_000_000),
        }),
    ];
    let mut rng = fastrand::Rng::with_seed(29);
    let sources: Vec<LastmodSource> = LastmodSource::NAMES.iter().map(|(_, s)| *s).collect();
    for _ in 0..20_000 {
        let list: Vec<LastmodSource> = (0..rng.usize(0..=4))
            .map(|_| sources[rng.usize(..sources.len())])
            .collect();
        let facts = PageFacts {
            modified: rng
                .bool()
                .then(|| UNIX_EPOCH + Duration::from_secs(1_600_000_000)),
            meta: [None, Some("2020-01-02"), Some("last Tuesday")][rng.usize(..3)],
            git: rng.bool().then(|| ts(1_550_000_000)).flatten(),
            source: rng.bool().then(|| ts(1_560_000_000)).flatten(),
            content: rng.bool().then(|| fp("same")),
            previous: records[rng.usize(..records.len())],
            now: rng.bool().then(|| ts(1_800_000_000)).flatten(),
        };
        let want = resolve_at_once(&list, &facts);
        assert_eq!(resolve(&list, &facts), want, "{list:?} {facts:?}");
        // A waiting page whose fingerprint never came is dated as one "content" cannot
        // read.
        if let Resolution::Pending(d) = resolve_before_state(&list, &facts) {
            let unread = PageFacts {
                content: None,
                ..facts
            };
            let want = resolve_at_once(&list, &unread);
            let settled = d.pending.unread(d.after.lastmod);
            assert_eq!((settled.lastmod, settled.from), (want.lastmod, want.from));
        }
        // The date waiting in the entry is what the sources after "content" gave.
        if let Resolution::Pending(d) = resolve_before_state(&list, &facts) {
            assert!(facts.content.is_some(), "{list:?}");
            let settled = d
                .pending
                .settle(d.after.lastmod, fp("same"), facts.previous, facts.now);
            assert_eq!((settled.lastmod, settled.from), (want.lastmod, want.from));
        }
    }
}
