//! The pre-scan against html5gum: the same head and the same "complete" on every input,
//! and the pre-scan itself (not its fallback) used wherever it claims to be exact.

use proptest::prelude::*;

use super::super::{Collector, HeadOptions, parse_head, parse_head_tokenized};
use super::{Scratch, scan};

/// Whether the pre-scan reads `html` on its own (without falling back to html5gum).
fn scanned_alone(html: &[u8], options: &HeadOptions) -> bool {
    scan(html, &mut Collector::new(options), &mut Scratch::default())
}

fn options() -> HeadOptions {
    HeadOptions {
        noindex_agents: vec!["robots".into(), "googlebot".into()],
        about: true,
    }
}

/// Both readers on `html`: what each made of it must be the same.
fn same(html: &[u8]) {
    let options = options();
    assert_eq!(
        parse_head(html, &options),
        parse_head_tokenized(html, &options),
        "{}",
        String::from_utf8_lossy(&html[..html.len().min(300)])
    );
}

/// Heads the pre-scan reads alone, each with something that trips a naive scan.
#[test]
fn the_prescan_reads_tricky_heads_alone_as_html5gum_does() {
    let table: &[&str] = &[
        "<head><meta name=robots content=noindex></head>",
        "<HEAD><META NAME=ROBOTS CONTENT=NOINDEX><LINK REL=CANONICAL HREF=/a/></HEAD>",
        "<head><!-- <meta name=robots content=noindex> --><link rel=canonical href=/b/>",
        "<head><!--><meta name=robots content=noindex>",
        "<head><!---><meta name=robots content=noindex>",
        "<head><!----><meta name=robots content=noindex>",
        "<head><!-- a --!><meta name=robots content=noindex>",
        "<head><!-- a -- b -> c ---><meta name=robots content=noindex>",
        "<head><!--<!-- x --><meta name=robots content=noindex>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x>y\"><meta name=robots content=noindex>",
        "<?xml version=\"1.0\"?><head><meta name=robots content=noindex>",
        "<!x <meta name=robots content=noindex>> <link rel=canonical href=/c/>",
        "<head><meta content=\"a>b\" name=robots><link rel=canonical href='/d/>'>",
        "<head><meta name=robots content=noindex/><link rel=canonical href=/e/ />",
        "<head><meta name=robots content= noindex ><link rel = canonical href = /f/>",
        "<head><meta name=\"\" name=robots content=noindex></head>",
        "<head><meta name=robots name=googlebot content=noindex content=index></head>",
        "<head><meta =name robots content=noindex><meta name=robots content=none>",
        "<head><meta name=robots content=\"noindex\"x=y><link rel=canonical href=\"/g/\"/x>",
        "<head><meta/name=robots/content=noindex></head>",
        "<head><meta name='robots' content=noindex\t\n><link\x0crel=canonical\rhref=/h/>",
        "<head><title>a <meta name=robots content=noindex> </titlex> </title></head>",
        "<head><style>p::after{content:'</style '}</style><meta name=robots content=noindex>",
        "<head><style></STYLE><meta name=robots content=noindex>",
        "<head><style></style-x><meta name=robots content=noindex></style/>",
        "<head><noscript><meta name=robots content=noindex></noscript></head>",
        "<head><script>if (a<b) document.write('<meta name=robots content=noindex>')</script>",
        "<head><script>x='</scripty>'</script ><meta name=robots content=noindex>",
        "<head><script type=application/ld+json>{\"dateModified\":\"2024-01-02\"}</script>",
        "<head><script type=\" application/LD+JSON \">{\"@graph\":[{\"dateModified\":\"2024-03-04\"}]}</SCRIPT></head>",
        "<head><script type=application/ld+json>{\"dateModified\":\"2024-01-02\"}</script a=\">\">",
        "<head><script type=application/ld+json/>{\"dateModified\":\"2024-01-02\"}</script>",
        "<head><meta property=article:modified_time content=2024-05-06><meta itemprop=dateModified content=2024-01-01>",
        "<head><meta http-equiv=refresh content=\"0; url=/new/\"></head>",
        "<head><link rel=\"alternate canonical\" hreflang=de href=/de/><link rel=alternate hreflang=en href=/en/>",
        "<head></head><meta name=robots content=noindex>",
        "<head><meta name=robots content=noindex></body>",
        "<head><p><meta name=robots content=noindex>",
        "<head><body><meta name=robots content=noindex>",
        "<head><template><meta name=robots content=noindex></template>",
        "<head><template><template></template><meta name=robots content=noindex></template><link rel=canonical href=/u/>",
        "<head><template><div></head><body></template><meta name=robots content=noindex>",
        "<head><noscript><meta http-equiv=refresh content=\"0; url=https://example.org/a/\"></noscript></head>",
        "<head><noscript><img src=/px.gif></noscript><link rel=canonical href=/c/></head>",
        "<head><noscript><p><body><meta name=robots content=noindex>",
        "<head><noscript><style></noscript></style><meta name=robots content=noindex>",
        "<head><link rel=alternate type=application/rss+xml hreflang=en href=rss.xml><link rel=alternate hreflang=de href=/de/>",
        "<head><plaintext><meta name=robots content=noindex>",
        "< meta name=robots content=noindex><a<b <3 <meta name=robots content=noindex>",
        "<head><meta name=caf\u{e9} content=noindex><meta name=robots content=n\u{f6}index,none>",
        // Cut short anywhere: in a tag, a value, a comment, a script, an end tag.
        "<head><meta name=robots content=\"noindex",
        "<head><meta name=robots content=noindex",
        "<head><!-- <meta name=robots content=noindex>",
        "<head><script>a<",
        "<head><script type=application/ld+json>{\"dateModified\":\"x\"}</script",
        "<head><title>x</title",
        // Titles (their references decoded by the tokenizer), descriptions, the language.
        "<html lang=de><head><title> Caf\u{e9}\n\t \u{dc}ber  uns </title><meta name=description content='a  b'>",
        "<head><title></title><meta property=og:title content=\"OG\"><meta property=og:description content=d>",
        "<head><meta property=og:description content=og><meta name=Description content=first><meta name=description content=second>",
        "<head><title>one</title><title>two</title>",
        "<head><template><title>no</title></template><title>yes</title>",
        "<head><noscript><title>no</title></noscript><title>yes</title>",
        "<head></head><body><title>late</title>",
        "<html lang=\" pt-BR \"><title><b>not a tag</b></title>",
        "<html lang=en_US lang=de><title>x</title>",
        "<HTML LANG=fr><TITLE>T</TITLE >",
        "<head><title>Fish &amp; Chips &lt;script&gt; &#39;q&#x27; &amp &notin; &copy</title>",
        "<head><title>&</title><title>&amp;</title>",
        "<head><link rel=canonical href=/z/></hea",
        "<",
        "",
    ];
    for html in table {
        assert!(
            scanned_alone(html.as_bytes(), &options()),
            "gave up on {html}"
        );
        same(html.as_bytes());
    }
}

/// What the pre-scan leaves to html5gum: read the same all the same.
#[test]
fn what_the_prescan_gives_up_on_html5gum_reads() {
    let table: &[&str] = &[
        "<head><link rel=canonical href=\"/a?b=1&amp;c=2\"><meta name=robots content=noindex>",
        "<head><meta name=robots content=&#110;oindex>",
        "<head><meta name=robots\0 content=noindex><link rel=canonical href=/a\0/>",
        "<head><meta name=robots content=\"no\rindex\"><link rel=canonical href=\"/a\r\n/\">",
        "<head><script>a='<!--'; b='<script>'; c='</script>'; d='-->'</script><meta name=robots content=noindex>",
        "<head><script type=application/ld+json>{\"dateModified\":\r\n\"2024-01-02\"}</script>",
        "<head><![CDATA[ <meta name=robots content=noindex> ]]><link rel=canonical href=/b/>",
        "<head></ x><meta name=robots content=noindex></3><link rel=canonical href=/c/>",
        "<head><title>a\rb</title>",
        "<head><title>a\0b</title>",
        "<head><meta name=description content=\"x &amp; y\">",
    ];
    for html in table {
        assert!(
            !scanned_alone(html.as_bytes(), &options()),
            "read alone: {html}"
        );
        same(html.as_bytes());
    }
}

/// Every page of every generator fixture, and the head reader's fuzz corpus: the same
/// result both ways, and the pre-scan alone on nearly all the fixtures' pages.
#[test]
fn fixtures_and_the_fuzz_corpus_read_the_same_both_ways() {
    let files = super::super::tests::corpus();
    let (mut pages, mut alone) = (0, 0);
    for (path, is_page) in &files {
        let bytes = std::fs::read(path).unwrap();
        same(&bytes);
        if *is_page {
            pages += 1;
            alone += usize::from(scanned_alone(&bytes, &options()));
        }
    }
    assert!(files.len() > 1000, "{} files", files.len());
    assert!(
        alone * 10 >= pages * 9,
        "{alone} of {pages} pages read alone"
    );
}

/// Pieces of heads that the differential property test strings together.
const PIECES: &[&str] = &[
    "<head>",
    "</head>",
    "<body>",
    "<p>",
    "<meta name=robots content=noindex>",
    "<meta name=\"robots\" content='none'>",
    "<META NAME=GOOGLEBOT CONTENT=NOINDEX>",
    "<link rel=canonical href=/a/>",
    "<link rel=\"alternate\" hreflang=de href='/de/'>",
    "<meta property=article:modified_time content=2024-01-02>",
    "<meta http-equiv=refresh content='0;url=/x/'>",
    "<title>",
    "</title>",
    "<html lang=de>",
    "<meta name=description content='d  e'>",
    "<meta property=og:title content=og>",
    "<template>",
    "</template>",
    "T\u{ed}tulo",
    "&lt;",
    "&",
    "<style>",
    "</style>",
    "<script>",
    "</script>",
    "<script type=application/ld+json>",
    "{\"dateModified\":\"2024-05-06\"}",
    "<noscript>",
    "</noscript>",
    "<!--",
    "-->",
    "--!>",
    "<!DOCTYPE html>",
    "<?x?>",
    "<![CDATA[",
    "]]>",
    "<",
    ">",
    "/",
    "=",
    "\"",
    "'",
    " ",
    "\n",
    "\r",
    "\0",
    "&amp;",
    "a",
    "x=y",
    "</",
    "</x y='>'>",
    "<!",
    "-",
    "<meta",
    "<link",
    " name=robots",
    " content=noindex",
    " href=/q/",
    " rel=canonical",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any string of head pieces reads the same both ways.
    #[test]
    fn any_string_of_pieces_reads_the_same_both_ways(
        picks in proptest::collection::vec(0..PIECES.len(), 0..40)
    ) {
        let html: String = picks.iter().map(|&i| PIECES[i]).collect();
        let options = options();
        prop_assert_eq!(
            parse_head(html.as_bytes(), &options),
            parse_head_tokenized(html.as_bytes(), &options),
            "{:?}", html
        );
    }
}
