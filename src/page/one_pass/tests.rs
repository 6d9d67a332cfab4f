//! The one pass against the two it replaces: the same head as the head reader alone, and
//! the same body as the body's pass alone, on every input.

use proptest::prelude::*;

use super::super::{Body, BodyWants, Head, HeadBuffers, HeadOptions, read_body_held, read_head};
use super::super::{HEAD_LIMIT, read_page};

const BOTH: BodyWants = BodyWants {
    images: true,
    fingerprint: true,
};

fn options() -> HeadOptions {
    HeadOptions {
        noindex_agents: vec!["robots".into(), "googlebot".into()],
        about: true,
    }
}

/// The page read by [`read_page`] (with `buffers` kept from earlier pages): its head and
/// its body.
fn one_pass(html: &[u8], wants: BodyWants, buffers: &mut HeadBuffers) -> (Head, Body) {
    let size = Some(html.len() as u64);
    let mut file = std::io::Cursor::new(html);
    let head = read_page(&mut file, &options(), size, buffers, wants).unwrap();
    assert_eq!(buffers.body_read.is_some(), html.len() <= HEAD_LIMIT);
    let body = buffers.read_body(&mut file, size, wants).unwrap();
    (head, body)
}

/// Both ways on `html`, with `buffers` kept from earlier pages; whether the one pass
/// reads its head (rather than leaving it to the head reader alone).
fn same_with(html: &[u8], buffers: &mut HeadBuffers) -> bool {
    let shown = String::from_utf8_lossy(&html[..html.len().min(300)]).into_owned();
    let alone = read_head(
        html,
        &options(),
        Some(html.len() as u64),
        &mut HeadBuffers::default(),
    );
    let together = html.len() <= HEAD_LIMIT
        && super::read(html, &options(), &mut HeadBuffers::default(), BOTH).is_some();
    for wants in [
        BOTH,
        BodyWants {
            images: false,
            ..BOTH
        },
        BodyWants {
            fingerprint: false,
            ..BOTH
        },
    ] {
        let (head, body) = one_pass(html, wants, buffers);
        assert_eq!(head, *alone.as_ref().unwrap(), "head of {shown}");
        assert_eq!(body, read_body_held(html, wants), "body of {shown}");
    }
    together
}

fn same(html: &[u8]) -> bool {
    same_with(html, &mut HeadBuffers::default())
}

/// Pages where the two readers could part: bare and repeated attributes (the head reader
/// counts only valued ones, the body's every one), `<noscript>` before and after the
/// head's end, templates, og:image and `<base>` (the images' head), regions.
#[test]
fn tricky_pages_read_the_same_in_one_pass() {
    let table: &[&str] = &[
        "<head><meta name content=noindex name=robots></head><body><img src=/a.png></body>",
        "<head><meta name=robots content content=noindex><link rel href=/x rel=canonical>",
        "<head><meta name=\"\" name=robots content=noindex><link rel=canonical href=\"\" href=/y/>",
        "<head><meta property=og:image content=/og.png><base href=/b/></head><img src=i.png>",
        "<head><meta property content=/o.png property=og:image></head><p><img src=x>",
        "<head><base href><base href=/c/><meta name=og:image content=/n.png></head><img src=a>",
        "<html><head><noscript><link rel=canonical href=/ns/></noscript></head><main>t</main>",
        "<head><title>T</title></head><body><noscript><img src=/px.gif></noscript><main>m</main>",
        "<head></head><noscript><meta name=robots content=noindex></noscript><body>b",
        "<head><template><meta name=robots content=noindex></template></head><article>a</article>",
        "<head><script type=application/ld+json>{\"dateModified\":\"2024-05-06\"}</script></head>x",
        "<title>no head</title><meta name=robots content=noindex><p>text <a href=/q>q</a>",
        "<head><meta name=robots content=&#110;oindex></head><body>&amp; more &lt;b&gt;",
        "<head><meta name=robots content=noindex>\r\n</head><body>CR\r\nhere",
        "<head><title>a\0b</title></head><body>n\0ul",
        "<head><style>p{}</style><script>var a='</scr'+'ipt>';</script></head><main><p>x",
        "<!DOCTYPE html><html lang=de><head><meta http-equiv=refresh content='0;url=/n/'>",
        "<head><link rel=alternate hreflang=de href=/de/ hreflang=fr></head><img alt=' a ' src=b>",
        "just text, no tags at all",
        "",
        "<head><meta name=robots content=noindex",
        "<svg><title>in body</title></svg><meta name=robots content=noindex>",
    ];
    let mut kept = HeadBuffers::default();
    for html in table {
        same(html.as_bytes());
        same_with(html.as_bytes(), &mut kept);
    }
    // A `<noscript>` before the head's end leaves the head to the head reader alone.
    assert!(!same(table[6].as_bytes()));
    assert!(same(table[8].as_bytes()));
    assert!(same(table[7].as_bytes()));
    assert!(same(table[0].as_bytes()));
}

/// A page longer than the head reader reads is read in two passes, as before.
#[test]
fn long_pages_are_read_in_two_passes() {
    let body = "<p>words and more words</p>".repeat(HEAD_LIMIT / 20);
    for html in [
        format!("<head><link rel=canonical href=/l/></head><main>{body}</main>"),
        format!(
            "<head><style>{}</style><meta name=robots content=noindex></head>",
            "p{}".repeat(HEAD_LIMIT / 3)
        ),
    ] {
        assert!(html.len() > HEAD_LIMIT);
        assert!(!same(html.as_bytes()));
    }
    let just = format!("<head></head><main>{}</main>", "x".repeat(HEAD_LIMIT - 26));
    assert_eq!(just.len(), HEAD_LIMIT);
    assert!(same(just.as_bytes()));
}

/// Every page of every generator fixture and the head reader's fuzz corpus: the same
/// both ways, with buffers kept from page to page, and nearly every fixture page read in
/// one pass.
#[test]
fn fixtures_and_the_fuzz_corpus_read_the_same_in_one_pass() {
    let mut kept = HeadBuffers::default();
    let (mut pages, mut together) = (0, 0);
    for (path, is_page) in super::super::tests::corpus() {
        let bytes = std::fs::read(&path).unwrap();
        let read = same_with(&bytes, &mut kept);
        if is_page {
            pages += 1;
            together += usize::from(read);
        }
    }
    assert!(pages > 500, "{pages} pages");
    assert!(
        together * 10 >= pages * 9,
        "{together} of {pages} in one pass"
    );
}

/// Pieces of pages that the property test strings together.
const PIECES: &[&str] = &[
    "<head>",
    "</head>",
    "<body>",
    "</body>",
    "<main>",
    "</main>",
    "<article>",
    "<p>",
    "<meta name=robots content=noindex>",
    "<meta name content=none name=googlebot>",
    "<meta property=og:image content=/og.png>",
    "<meta property content=/x.png>",
    "<base href=/b/>",
    "<base href>",
    "<link rel=canonical href=/a/>",
    "<link rel href=/z/>",
    "<img src=/i.png alt=' x '>",
    "<img src srcset='/s.png 2x'>",
    "<a href=/h/>",
    "</a>",
    "<title>",
    "</title>",
    "<noscript>",
    "</noscript>",
    "<template>",
    "</template>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<!--",
    "-->",
    "<!DOCTYPE html>",
    "<html lang=de>",
    "words ",
    "&amp;",
    "&",
    "<",
    ">",
    "\"",
    "'",
    "=",
    " ",
    "\n",
    "\r",
    "\0",
    " name=robots",
    " content=noindex",
    " href=/q/",
    " src=/r.png",
    "<meta",
    "<img",
    "</",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any string of pieces reads the same in one pass as in two.
    #[test]
    fn any_string_of_pieces_reads_the_same_in_one_pass(
        picks in proptest::collection::vec(0..PIECES.len(), 0..48)
    ) {
        let html: String = picks.iter().map(|&i| PIECES[i]).collect();
        same(html.as_bytes());
    }
}
