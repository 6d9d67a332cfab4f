//! The fast scan against html5gum: the same calls, in the same order, on every input it
//! does not give up on, and it does not give up on what it claims to follow.

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use super::super::{Collect, Names, Reset, Tag, stream_bytes};
use super::{Resume, Scanned, scan, scan_part};

/// One call made to a collector; text and values cut into pieces are joined.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Call {
    Text(Vec<u8>),
    Boundary,
    Attribute(Tag, Vec<u8>),
    Value(Vec<u8>),
    AttributeEnd,
    Start(Tag, Vec<u8>),
    End(Tag, Vec<u8>),
}

/// Records every call; wants every attribute, and nothing more after a `stop` tag. A
/// boundary forgets the calls of a token left unfinished before it (a tag cut off by the
/// end of the part read, and read again from its start), and runs of boundaries count
/// as one.
#[derive(Debug, Default)]
struct Record(Vec<Call>);

impl Collect for Record {
    type Slot = ();

    fn attribute(&mut self, tag: Tag, name: &[u8]) -> Option<()> {
        self.0.push(Call::Attribute(tag, name.to_vec()));
        Some(())
    }

    fn value(&mut self, (): (), s: &[u8]) {
        if let Some(Call::Value(v)) = self.0.last_mut() {
            v.extend_from_slice(s);
        } else {
            self.0.push(Call::Value(s.to_vec()));
        }
    }

    fn attribute_end(&mut self, (): ()) {
        self.0.push(Call::AttributeEnd);
    }

    fn text(&mut self, s: &[u8]) {
        if let Some(Call::Text(t)) = self.0.last_mut() {
            t.extend_from_slice(s);
        } else {
            self.0.push(Call::Text(s.to_vec()));
        }
    }

    fn boundary(&mut self) {
        while let Some(Call::Boundary | Call::Attribute(..) | Call::Value(_) | Call::AttributeEnd) =
            self.0.last()
        {
            self.0.pop();
        }
        self.0.push(Call::Boundary);
    }

    fn start_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        assert_eq!(tag, Tag::of(name));
        self.0.push(Call::Start(tag, name.to_vec()));
        name == b"stop"
    }

    fn end_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        assert_eq!(tag, Tag::of(name));
        self.0.push(Call::End(tag, name.to_vec()));
        name == b"stop"
    }
}

impl Reset for Record {
    fn reset(&mut self) {
        self.0.clear();
    }
}

/// The calls the scan makes, `None` when it gives up.
fn scanned(html: &[u8]) -> Option<Vec<Call>> {
    let mut record = Record::default();
    scan(html, &mut record, &mut Names::default()).then_some(record.0)
}

/// The calls the scan makes reading `html` in parts, `step` bytes more each time it
/// asks for more; `None` when it gives up.
fn scanned_in_parts(html: &[u8], step: usize) -> Option<Vec<Call>> {
    let (mut record, mut names) = (Record::default(), Names::default());
    let (mut len, mut from) = (step.min(html.len()), Resume::START);
    loop {
        let whole = len == html.len();
        match scan_part(&html[..len], from, whole, &mut record, &mut names) {
            Scanned::Done => return Some(record.0),
            Scanned::GaveUp => return None,
            Scanned::More(resume) => {
                assert!(!whole && resume.at() <= len);
                from = resume;
                len = (len + step).min(html.len());
            }
        }
    }
}

fn tokenized(html: &[u8]) -> Vec<Call> {
    stream_bytes(html, Record::default(), &mut Names::default()).0
}

/// Where the scan reads `html`, whole or in parts, it makes html5gum's calls; `true`
/// when it read it.
fn same(html: &[u8]) -> bool {
    let shown = String::from_utf8_lossy(html);
    let whole = scanned(html);
    if let Some(calls) = &whole {
        assert_eq!(calls, &tokenized(html), "{shown:?}");
    }
    // In parts it may stop before a NUL the whole page's scan gives up on at once.
    for step in [1, 3, 16] {
        let parts = scanned_in_parts(html, step);
        assert!(
            parts.is_some() || whole.is_none(),
            "in parts of {step}: {shown:?}"
        );
        if let Some(calls) = parts {
            assert_eq!(calls, tokenized(html), "in parts of {step}: {shown:?}");
        }
    }
    whole.is_some()
}

/// Pages the scan reads alone, each with something that trips a naive scan.
#[test]
fn the_scan_reads_tricky_pages_alone_as_html5gum_does() {
    let table: &[&str] = &[
        "",
        "plain text only",
        "<p>a <b>bold</b> word</p>",
        "<P CLASS=X>Upper</P>",
        "a < b > c <3 <> <= <",
        "</",
        "x </> y </ z> w </3>",
        "<!DOCTYPE html><html><head><title>T</title></head><body>b</body></html>",
        "<!doctype html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"x>y\">text",
        "<!DOCTYPE",
        "<!DOCTYPEhtml>",
        "<!-- a --> b <!--> c <!---> d <!----> e <!-- f --!> g <!-- h --!--> i",
        "<!-- <!-- nested --> after",
        "<!-- never closed",
        "<!x bogus> <![CDATA[ x ]]> <?xml version=\"1.0\"?> <!- x>",
        "<!",
        "Tom &amp; Jerry &lt;3 &#65;&#x42; &nbsp; & more &unknown; &notin &notit; &amp",
        "<a href=\"/a?x=1&amp;y=2\">1</a><a href='/b?c&copy=3'>2</a><a href=/c?d&amp;e>3</a>",
        "<a href=\"&\">x</a><a href=&amp>y</a><a href=&amp;>z</a><a href=\"&ampx\">w</a>",
        "<img src=\"\" alt='' srcset=x title = 'a b' data-x = y bare>",
        "<img src=a src=b =eq \"q'uo\"te<lt=1 a=b=c a='x'y='z'>",
        "<img/src=/x.png/alt=a/><br/><hr / ><img src=/y.png/>",
        "<a href=x/ >t</a><a href = \"y\"\t\nclass=z>u</a>",
        "<script>if (a < b && c > d) { x = '</div>'; }</script>after",
        "<script>document.write('</scr' + 'ipt>')</SCRIPT >after",
        "<script>a</scriptx>b</script/>c</script1>d</script>e",
        "<style>p::after { content: '</style '; }</style>x",
        "<title>A &amp; B </titlex> &lt;</title>after",
        "<textarea>&lt;b&gt; </textarea x=1>after",
        "<xmp>&amp; <b></xmp>after",
        "<title>never closed &amp;",
        "<script>never closed </scri",
        "<plaintext>everything <b>is</b> &amp; text",
        "<p>a<plaintext>",
        "<noscript><img src=/n.png></noscript><template><p>t</template>",
        "<main><h1>T</h1><p>word&nbsp;word</p></main><article>a</article>",
        "<a href=\"/é\">é – ünïcode</a>",
        "<stop><p>after the stop",
        "<p></stop><p>after the stop",
        "<meta name=robots content=noindex/><meta content=\"a>b\" name=x>",
        "<p>\x0cform\tfeed</p\x0c>",
        "<p>a\r\nb\rc\n\r</p\r>\r\n<img\rsrc=\"x\r\ny\"\ralt=z\r>",
        "<title>a\r\n&amp;\r</title><script>x\r\n</script\r\n>",
        "<a href='&amp;\r\n'>\r&amp;\r\n</a>\r",
    ];
    for page in table {
        assert!(same(page.as_bytes()), "the scan gave up on {page:?}");
    }
}

/// What the scan gives up on, html5gum reads: the same as reading with html5gum.
#[test]
fn what_the_scan_gives_up_on_html5gum_reads() {
    let table: &[&str] = &[
        "<p>a\0b</p>",
        "<script><!-- if (a) { </script> } --></script>x",
        "<p class=\"never closed>",
        "<p",
        "<img src=x alt",
        "</p",
        "<a href=x",
    ];
    for page in table {
        assert_eq!(scanned(page.as_bytes()), None, "{page:?}");
        let mut names = Names::default();
        let mut read = Record::default();
        super::super::read_held(page.as_bytes(), &mut read, &mut names);
        assert_eq!(read.0, tokenized(page.as_bytes()), "{page:?}");
    }
}

/// Pieces that make tokenizing hard, put together at random.
fn pieces() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop::sample::select(vec![
        "<",
        ">",
        "</",
        "<!--",
        "-->",
        "--!>",
        "-",
        "!",
        "<!",
        "<?",
        "&amp;",
        "&",
        "&#x41;",
        "&#0;",
        "&notin",
        "&amp",
        "=",
        "\"",
        "'",
        " ",
        "\n",
        "\t",
        "/",
        "a",
        "b",
        "p",
        "x",
        "script",
        "title",
        "style",
        "textarea",
        "plaintext",
        "img",
        "src",
        "href",
        "stop",
        "<!DOCTYPE html>",
        "doctype",
        "[CDATA[",
        "é",
        "\u{c}",
        "A",
        "1",
        "<script>",
        "</script>",
        "<title>",
        "</title>",
        "<style>",
        "</style>",
        "<textarea>",
        "<img src=",
        "<a href=\"",
        "\">",
        "<p>",
        "</p>",
        "</scr",
        "<b ",
        "<stop>",
        "</stop>",
        "\r",
        "\r\n",
    ]);
    let rare = prop::sample::select(vec!["\0", "<p"]);
    let pieces = prop::collection::vec(piece, 0..48);
    (
        pieces,
        prop::option::weighted(0.05, rare),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut pieces, rare, at)| {
            if let Some(rare) = rare {
                pieces.insert(at.index(pieces.len() + 1), rare);
            }
            pieces.concat().into_bytes()
        })
}

/// Most of those mixes are read by the scan alone, so the property below tests it, not
/// its fallback.
#[test]
fn the_scan_reads_most_mixes_alone() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = pieces();
    let alone = (0..1000)
        .filter(|_| {
            let html = strategy.new_tree(&mut runner).unwrap().current();
            same(&html)
        })
        .count();
    assert!(alone > 600, "{alone} of 1000");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// Any mix of those pieces: the scan's calls are html5gum's wherever it reads.
    #[test]
    fn the_scan_calls_what_html5gum_calls(html in pieces()) {
        same(&html);
    }

    /// Arbitrary bytes too.
    #[test]
    fn the_scan_calls_what_html5gum_calls_on_any_bytes(html in prop::collection::vec(any::<u8>(), 0..256)) {
        same(&html);
    }
}
