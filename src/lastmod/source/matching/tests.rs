use super::*;

const A: &str = "Caches lie because they remember a world that has moved on. Every \
    entry is a promise about the past, and the past is the one thing a busy system \
    keeps rewriting while nobody is looking at the clock on the wall.";
const B: &str = "Backpressure is how a slow consumer tells a fast producer to wait. \
    Without it queues grow until memory runs out, and the failure arrives far from \
    the place that caused it, at the worst hour of the night.";
const C: &str = "Migrations that can run twice save the night shift: each step checks \
    what is already there before it changes anything, so a retry after a timeout \
    finishes the work instead of failing half way through it.";

fn page(body: &str) -> Shingles {
    let html = format!(
        "<!doctype html><title>Notes</title><script>var x = 1;</script>\
         <nav>Home About Tags</nav><main>{body}</main><footer>Written by hand.</footer>"
    );
    Shingles::of_page(html.as_bytes())
}

/// What the match makes of each page, its sources `sources` (by number).
fn verdicts(pages: &[Shingles], sources: &[&str]) -> Vec<Verdict> {
    let mut index = Index::new(pages.to_vec());
    for (i, text) in sources.iter().enumerate() {
        let found = index.look_up(i as u32, &Shingles::of_source(text));
        index.keep(found);
    }
    index.verdicts(&vec![0; pages.len()])
}

fn source(v: &Verdict) -> Option<u32> {
    match v {
        Verdict::Matched { source, .. } => Some(*source),
        _ => None,
    }
}

/// A page takes the source whose text it holds; a listing of several, a copy, an
/// excerpt and a page of no source's text take none.
#[test]
fn a_page_takes_the_one_source_whose_text_it_holds() {
    let quoted = format!("As I wrote before: {A} Since then I learned more about it.");
    let excerpts = format!("{} {} {}", &A[..80], &B[..80], &C[..80]);
    let table: Vec<(&str, Shingles, Option<u32>)> = vec![
        (
            "its own source",
            page(&format!("<h1>Why caches lie</h1><p>{A}</p>")),
            Some(0),
        ),
        (
            "markup between the words",
            page(&B.replace("consumer", "<em>consumer</em>")),
            Some(1),
        ),
        (
            "a listing of two whole texts",
            page(&format!("<p>{A}</p><p>{B}</p>")),
            None,
        ),
        ("a listing of excerpts", page(&excerpts), None),
        (
            "no source's text",
            page("Nothing of the kind is said here at all, not a word."),
            None,
        ),
        // A page quoting another source whole is still its own source's.
        ("a page that quotes another", page(&quoted), Some(3)),
    ];
    let pages: Vec<Shingles> = table.iter().map(|(_, p, _)| p.clone()).collect();
    let sources = [A, B, C, quoted.as_str()];
    let got = verdicts(&pages, &sources);
    for ((what, _, want), got) in table.iter().zip(&got) {
        assert_eq!(source(got), *want, "{what}: {got:?}");
    }
    assert!(matches!(got[2], Verdict::Several { .. }), "{:?}", got[2]);
    // The quoted source's own page is its, not the quoting one's.
    let own = verdicts(&[page(A)], &sources);
    assert_eq!(source(&own[0]), Some(0), "{own:?}");
}

/// A listing that shows one text whole among the others' titles is not that text's
/// page when its own page is there too, but in another language's folder it may be
/// (a fallback).
#[test]
fn a_listing_showing_one_text_whole_is_not_its_page() {
    let own = page(&format!("<h1>Why caches lie</h1><p>{A}</p>"));
    let listing = page(&format!(
        "<h2>Why caches lie</h2><p>{A}</p><ul><li>Backpressure in plain words,          published in the spring of last year</li><li>Migrations that can run twice,          published in the autumn</li></ul>"
    ));
    let mut index = Index::new(vec![listing.clone(), own.clone()]);
    let found = index.look_up(0, &Shingles::of_source(A));
    index.keep(found);
    let got = index.verdicts(&[0, 0]);
    assert!(matches!(got[0], Verdict::Listing { own: 1, .. }), "{got:?}");
    assert_eq!(source(&got[1]), Some(0), "{got:?}");
    let mut index = Index::new(vec![own.clone(), own]);
    let found = index.look_up(0, &Shingles::of_source(A));
    index.keep(found);
    let got = index.verdicts(&[0, 1]);
    assert_eq!(
        got.iter().map(source).collect::<Vec<_>>(),
        [Some(0), Some(0)]
    );
}

/// Two sources of the same text: the page is dated by neither.
#[test]
fn two_copies_of_a_text_date_no_page() {
    let got = verdicts(&[page(A)], &[A, A]);
    assert!(matches!(got[0], Verdict::Close { .. }), "{got:?}");
}

/// The front matter is no part of a source's text; words are lower-cased and cut at
/// anything but letters and digits, whatever the script.
#[test]
fn shingles_are_of_the_words_after_the_front_matter() {
    let fenced = format!("---\ntitle: Caches\nupdated: 2024-01-01\n---\n{A}");
    assert_eq!(Shingles::of_source(&fenced), Shingles::of_text(A));
    let nikola = format!("<!--\n.. title: Caches\n.. slug: caches\n-->\n\n{A}");
    assert_eq!(Shingles::of_source(&nikola), Shingles::of_text(A));
    assert_eq!(
        Shingles::of_text("Über das Café, l'été"),
        Shingles::of_text("über DAS café — l’été")
    );
    assert!(Shingles::of_text("three words only").is_empty());
}
