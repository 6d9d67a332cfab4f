use super::*;

const PAGE: &str = "https://example.org/blog/post/";

fn images_of(html: &str) -> Vec<String> {
    let page = url::Url::parse(PAGE).unwrap();
    let (images, over) = resolve(&page, &read_bytes(html.as_bytes()));
    assert!(!over, "{html}");
    images.into_iter().map(String::from).collect()
}

fn doc(head: &str, body: &str) -> String {
    format!("<!doctype html><html><head><title>t</title>{head}</head><body>{body}</body></html>")
}

#[test]
fn images_come_from_main_else_article_else_body() {
    let table: &[(&str, &str, &[&str])] = &[
        // (head, body, images)
        (
            "",
            "<nav><img src=/logo.png></nav><main><img src=a.jpg><p><img src=/b.jpg></main><footer><img src=c.jpg></footer>",
            &[
                "https://example.org/blog/post/a.jpg",
                "https://example.org/b.jpg",
            ],
        ),
        (
            "",
            "<img src=/logo.png><article><img src=x.png></article><article><img src=y.png></article>",
            &[
                "https://example.org/blog/post/x.png",
                "https://example.org/blog/post/y.png",
            ],
        ),
        (
            "",
            "<img src=/logo.png><div><img src='../z.png'></div>",
            &[
                "https://example.org/logo.png",
                "https://example.org/blog/z.png",
            ],
        ),
        // <main> wins over <article>, even an <article> outside it.
        (
            "",
            "<article><img src=/out.png></article><main><article><img src=/in.png></article></main>",
            &["https://example.org/in.png"],
        ),
        // An empty <main> means no images, not the body's.
        ("", "<img src=/logo.png><main><p>text</p></main>", &[]),
    ];
    for (head, body, want) in table {
        assert_eq!(images_of(&doc(head, body)), *want, "{body}");
    }
}

#[test]
fn sources_are_resolved_filtered_and_listed_once() {
    let table: &[(&str, &str, &[&str])] = &[
        // og:image first, from the head only.
        (
            "<meta property=\"og:image\" content=\"https://cdn.example.net/og.png\">",
            "<img src=/a.png>",
            &[
                "https://cdn.example.net/og.png",
                "https://example.org/a.png",
            ],
        ),
        (
            "",
            "<meta property=og:image content=/body-meta.png><img src=/a.png>",
            &["https://example.org/a.png"],
        ),
        // The property trimmed, its case ignored; a property that is not og:image hides
        // a name that is.
        (
            "<meta property=' OG:Image ' content=/og.png>",
            "",
            &["https://example.org/og.png"],
        ),
        (
            "<meta property=og:title name=og:image content=/og.png>",
            "",
            &[],
        ),
        (
            "<meta name=og:image content=/named.png>",
            "",
            &["https://example.org/named.png"],
        ),
        // srcset's first candidate when there is no src (or an empty one).
        (
            "",
            "<img srcset=\"/s-1x.png 1x, /s-2x.png 2x\"><img src=\"\" srcset=\" /t.png 480w\"><img src=/u.png srcset=/v.png>",
            &[
                "https://example.org/s-1x.png",
                "https://example.org/t.png",
                "https://example.org/u.png",
            ],
        ),
        // Protocol-relative, absolute on a CDN, whitespace trimmed, encoded like pages.
        (
            "",
            "<img src=//cdn.example.net/x.png><img src=' http://other.example/y.png '><img src='/a b/ü.png'><img src='/q.png?x=1&amp;y=2'>",
            &[
                "https://cdn.example.net/x.png",
                "http://other.example/y.png",
                "https://example.org/a%20b/%C3%BC.png",
                "https://example.org/q.png?x=1&y=2",
            ],
        ),
        // data:, javascript:, mailto: and unparseable sources are skipped.
        (
            "",
            "<img src='data:image/png;base64,AAAA'><img src='javascript:alert(1)'><img src='mailto:a@b'><img src='http://[::1'><img src=/ok.png>",
            &["https://example.org/ok.png"],
        ),
        // Duplicates (also after resolving) once, in first-seen order.
        (
            "<meta property=og:image content=/a.png>",
            "<img src=/b.png><img src=/a.png><img src=../../b.png><img src=/b.png#top>",
            &["https://example.org/a.png", "https://example.org/b.png"],
        ),
        // <base href> changes what relative sources resolve against.
        (
            "<base href=\"https://static.example.org/assets/\">",
            "<img src=p.png><img src=/r.png>",
            &[
                "https://static.example.org/assets/p.png",
                "https://static.example.org/r.png",
            ],
        ),
    ];
    for (head, body, want) in table {
        assert_eq!(images_of(&doc(head, body)), *want, "{head}{body}");
    }
}

#[test]
fn a_thousand_images_at_most() {
    let page = url::Url::parse(PAGE).unwrap();
    let body: String = (0..1001).map(|i| format!("<img src=/i{i}.png>")).collect();
    let (images, over) = resolve(&page, &read_bytes(doc("", &body).as_bytes()));
    assert_eq!(images.len(), MAX_PER_PAGE);
    assert!(over);
    assert_eq!(&*images[999], "https://example.org/i999.png");
    let body: String = (0..1000)
        .map(|i| format!("<img src=/i{i}.png><img src=/i{i}.png>"))
        .collect();
    let (images, over) = resolve(&page, &read_bytes(doc("", &body).as_bytes()));
    assert_eq!((images.len(), over), (1000, false));
}

/// However many and however long the sources, what is kept stays bounded.
#[test]
fn memory_is_bounded_whatever_the_page() {
    let long = "a".repeat(4 << 20);
    let many: String = (0..20_000)
        .map(|i| format!("<img src=/{i}-{}.png>", "x".repeat(900)))
        .collect();
    let html = format!("<body><img src=\"/{long}\"><main>{many}</main>{many}</body>");
    let mut images =
        crate::html::stream_bytes(html.as_bytes(), Images::default(), &mut Default::default());
    assert!(images.bytes <= KEPT_BYTES);
    assert!(images.attrs.capacities().all(|c| c <= 2 * (MAX_SOURCE + 1)));
    let sources = images.finish();
    assert!(sources.overflowed);
    assert!(sources.sources.len() <= KEPT_PER_REGION);
    assert!(sources.sources.iter().all(|s| s.len() <= MAX_SOURCE));
}
