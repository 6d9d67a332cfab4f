use super::*;

fn md(html: &str) -> String {
    Converter::new().page(html.as_bytes()).unwrap()
}

/// The region read is `<main>`, else every `<article>`, else the body; the page's
/// frame and machinery are left out.
#[test]
fn the_main_content_is_converted() {
    let table: &[(&str, &str)] = &[
        (
            "<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav>\
             <main><h1>Title</h1><p>Body &amp; more</p></main><footer>f</footer></body></html>",
            "# Title\n\nBody & more",
        ),
        (
            "<body><article><h2>One</h2></article><p>between</p><article><h2>Two</h2></article></body>",
            "## One\n\n## Two",
        ),
        (
            "<body><p>just the body</p><script>x()</script></body>",
            "just the body",
        ),
        (
            "<main><ul><li>a</li><li>b</li></ul><p><a href=\"/x/\">link</a></p></main>",
            "*   a\n*   b\n\n[link](/x/)",
        ),
        (
            "<main><pre><code>fn main() {}\n</code></pre></main>",
            "```\nfn main() {}\n```",
        ),
        (
            "<main><p>x</p><img src=/a.png alt=\" A picture \"><img src=/b.png></main>",
            "x\n\nA picture",
        ),
        (
            "<main><form><input value=q><button>Go</button></form><noscript>ns</noscript>\
             <template><p>t</p></template><style>p{}</style><svg><text>s</text></svg><p>kept</p></main>",
            "kept",
        ),
        (
            "<main><h1>Café — 日本語</h1><p>\n\n\n\nspaced</p></main>",
            "# Café — 日本語\n\nspaced",
        ),
        (
            "<body><article><p>article</p></article><main><p>main</p></main></body>",
            "main",
        ),
        (
            "<html><head><title>Only the title</title></head><body><p>b</p></body></html>",
            "b",
        ),
        (
            "<main><h3>Three</h3><ol><li>one</li><li>two</li></ol><p><a href=\"/a?x=1&amp;y=2\">q</a></p></main>",
            "### Three\n\n1.  one\n2.  two\n\n[q](/a?x=1&y=2)",
        ),
        (
            "<main><p><img alt=\"[x](y) *z*\" src=a.png> text</p></main>",
            "\\[x&#93;(y) \\*z\\* text",
        ),
        ("", ""),
    ];
    for &(html, want) in table {
        assert_eq!(md(html), want, "{html}");
    }
}

/// Code keeps its lines, blank ones included, and a `<pre>` without a `<code>` (as
/// Sphinx writes highlighted code) is a fenced block of its text as written.
#[test]
fn code_keeps_its_lines() {
    let table: &[(&str, &str)] = &[
        (
            "<main><pre><code class=\"language-py\">def f():\n    pass\n\n\nx = 1\n</code></pre>\
             <p>a</p>\n\n\n<p>b</p></main>",
            "```py\ndef f():\n    pass\n\n\nx = 1\n```\n\na\n\nb",
        ),
        (
            "<main><pre><span class=gp>&gt;&gt;&gt; </span><b>def</b> f(a_b):\n    return *a_b\n\n\ny = 1\n</pre></main>",
            "```\n>>> def f(a_b):\n    return *a_b\n\n\ny = 1\n```",
        ),
        (
            "<main><pre>a\n```\nb<script>x</script></pre><pre> </pre><p>after</p></main>",
            "````\na\n```\nb\n````\n\nafter",
        ),
    ];
    for &(html, want) in table {
        assert_eq!(md(html), want, "{html}");
    }
}

/// A table survives as a Markdown table.
#[test]
fn tables_stay_tables() {
    let out = md(
        "<main><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></main>",
    );
    assert!(
        out.contains("| k | v |") && out.contains("| a | 1 |"),
        "{out}"
    );
}

/// Broken and hostile markup converts without a panic, the same way every time, and
/// a script's `</main>` inside a string does not end the region.
#[test]
fn hostile_pages_convert_the_same_every_time() {
    let pages = [
        "<main><p>unclosed <b>bold <i>both",
        "<main><script>var s = '</main><h1>injected</h1>';</script><p>after</p></main>",
        "<<<>>><main></article></main></main><p>x",
        "\u{0}<main>\u{0}nul</main>",
        "<main>",
    ];
    for page in pages {
        let once = md(page);
        assert_eq!(once, md(page), "{page}");
        assert!(!once.contains("injected"), "{page}: {once}");
    }
    let invalid = md_bytes(b"<main><p>caf\xe9</p></main>");
    assert_eq!(invalid, "caf\u{fffd}");
}

fn md_bytes(html: &[u8]) -> String {
    Converter::new().page(html).unwrap()
}

/// Pages past the limit are not read whole.
#[test]
fn pages_past_the_limit_are_passed_over() {
    let limit = PAGE_LIMIT as usize;
    let at_limit = vec![b'a'; limit];
    assert_eq!(read_page(&at_limit[..]).unwrap().unwrap().len(), limit);
    let over = vec![b'a'; limit + 1];
    assert!(read_page(&over[..]).unwrap().is_none());
}

/// Elements nested far deeper than any real page converts on a small stack (a
/// library caller's thread; Windows gives the main thread 1 MiB), keeping the text.
#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    for depth in [600, 1_000] {
        for tag in ["div", "b", "li", "blockquote"] {
            let html = format!("<main>{}text</main>", format!("<{tag}>").repeat(depth));
            let run = move || md(&html);
            let thread = std::thread::Builder::new().stack_size(1 << 20);
            let out = thread.spawn(run).unwrap().join().unwrap();
            assert!(out.contains("text"), "{depth} {tag}: {out}");
        }
    }
}

/// A page whose tree or Markdown would cost more than its budget is refused, however
/// the cost is hidden; real pages of the same size are converted.
#[test]
fn pages_over_their_budget_are_refused() {
    let cases = [
        // Formatting re-created at each paragraph.
        (
            format!("<main><p>{}{}", bold(200), "<p>x".repeat(20_000)),
            Some(Refused::Tree),
        ),
        // Nesting that html5ever checks at each tag: ruby, and end tags of what is not open.
        (
            format!("<main>{}", "<rb>".repeat(20_000)),
            Some(Refused::Tree),
        ),
        (
            format!("<main>{}", "<div></span>".repeat(10_000)),
            Some(Refused::Tree),
        ),
        // Quotes nested around many lines.
        (
            format!(
                "<main>{}<p>{}</p>",
                "<blockquote>".repeat(250),
                "x\n".repeat(50_000)
            ),
            Some(Refused::Conversion),
        ),
        (
            format!("<main>{}", "<p><b>x</b> y</p>\n".repeat(20_000)),
            None,
        ),
        (
            format!("<main><ul>{}</ul>", "<li><a href=/x>x</a>".repeat(20_000)),
            None,
        ),
        (format!("<main>{}x", "<div>".repeat(500)), None),
    ];
    let converter = Converter::new();
    for (html, want) in cases {
        let started = std::time::Instant::now();
        let got = converter.page(html.as_bytes()).err();
        assert_eq!(got, want, "{}", &html[..60]);
        // Generous for a debug build on a busy machine; unbounded, these took minutes.
        assert!(started.elapsed().as_secs() < 20, "{}", &html[..60]);
    }
}

/// `n` open `<b>`s, each its own (html5ever re-creates no more than three alike).
fn bold(n: usize) -> String {
    (0..n).map(|i| format!("<b id={i}>")).collect()
}

/// A line of dashes in a page cannot start a record of `llms-full.txt`; code keeps its
/// lines.
#[test]
fn dashes_cannot_start_a_record() {
    let page = "<main><p>---</p><h1>Install</h1><hr><p>- - -</p><pre>---</pre></main>";
    let want = "***\n\n# Install\n\n* * *\n\n\\- - -\n\n```\n---\n```";
    assert_eq!(md(page), want);
}

/// Every page of the real builds converts within its budget.
#[test]
fn every_fixture_page_converts() {
    let mut pages = 0;
    let mut dirs = vec![std::path::PathBuf::from("tests/fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let html = std::fs::read(&path).unwrap();
                let converted = Converter::new().page(&html);
                assert!(converted.is_ok(), "{}: {converted:?}", path.display());
                pages += 1;
            }
        }
    }
    assert!(pages > 500, "{pages} pages");
}
