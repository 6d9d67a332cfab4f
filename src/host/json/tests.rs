use super::*;

/// How the tests read a file: for `example.org`, its output folder `public`.
fn reading(hosting: super::super::Hosting, agents: &[String]) -> Reading<'_> {
    Reading {
        hosting,
        agents,
        public_dir: Path::new("public"),
        site_host: "example.org",
    }
}

fn agents() -> Vec<String> {
    vec!["robots".to_string()]
}

#[test]
fn vercel_json_gives_its_redirects_headers_and_url_form() {
    let text = r#"{
  "cleanUrls": true,
  "trailingSlash": false,
  "redirects": [
    { "source": "/old/:path*", "destination": "/new/:path*" },
    { "source": "/temp", "destination": "/t", "permanent": false },
    { "source": "/gone", "destination": "/", "statusCode": 301 },
    { "source": "/beta", "destination": "/", "has": [{ "type": "cookie", "key": "b" }] }
  ],
  "headers": [
    { "source": "/private/(.*)", "headers": [{ "key": "X-Robots-Tag", "value": "noindex" }] },
    { "source": "/blog/:slug", "headers": [{ "key": "Cache-Control", "value": "max-age=0" }] }
  ]
}"#;
    let p = parse(
        text,
        Path::new("vercel.json"),
        Json::Vercel,
        &reading(super::super::Hosting::Vercel, &agents()),
    )
    .unwrap();
    let redirects: Vec<(usize, u16)> = p
        .redirects
        .iter()
        .map(|r| (r.origin.line, r.what.status))
        .collect();
    assert_eq!(redirects, [(5, 308), (6, 307), (7, 301)]);
    assert_eq!(p.headers.len(), 1);
    assert_eq!(p.headers[0].origin.to_string(), "vercel.json:11");
    assert_eq!(
        (p.form.clean_urls, p.form.trailing_slash),
        (Some(true), Some(false))
    );
    assert_eq!(p.form.origin.unwrap().line, 2);
}

#[test]
fn firebase_json_gives_the_site_that_serves_the_output_folder() {
    let text = r#"{
  "hosting": [
    { "target": "docs", "public": "docs/out", "redirects": [{ "source": "/x", "destination": "/y" }] },
    {
      "target": "main",
      "public": "public",
      "trailingSlash": true,
      "redirects": [
        { "source": "/blog/:post*", "destination": "/posts/:post", "type": 302 },
        { "regex": "\/old\/(\\d+)", "destination": "/new" },
        { "glob": "/docs/**", "destination": "/manual/" }
      ],
      "headers": [{ "source": "**/drafts/**", "headers": [{ "key": "x-robots-tag", "value": "none" }] }]
    }
  ]
}"#;
    let p = parse(
        text,
        Path::new("firebase.json"),
        Json::Firebase,
        &reading(super::super::Hosting::Firebase, &agents()),
    )
    .unwrap();
    let redirects: Vec<(usize, u16)> = p
        .redirects
        .iter()
        .map(|r| (r.origin.line, r.what.status))
        .collect();
    // A pattern written with escapes is named by its rule's line too.
    assert_eq!(redirects, [(9, 302), (10, 301), (11, 301)]);
    assert_eq!(p.redirects[1].origin.to_string(), "firebase.json:10");
    assert_eq!(p.headers.len(), 1);
    assert_eq!(p.form.trailing_slash, Some(true));
    assert!(
        parse(
            "{",
            Path::new("firebase.json"),
            Json::Firebase,
            &reading(super::super::Hosting::Firebase, &agents()),
        )
        .is_err()
    );
}

/// The Firebase CLI reads `firebase.json` with comments (its `cjson`): so do we, each
/// rule named by its line as written. Vercel's CLI reads strict JSON.
#[test]
fn firebase_json_is_read_with_its_comments() {
    let text = r#"{
  // The docs site.
  "hosting": {
    "public": "public", /* served as built */
    "cleanUrls": true,
    /* Old paths,
       kept for links from elsewhere. */
    "redirects": [{ "source": "/old/**", "destination": "/" }],
    "headers": [{ "source": "/drafts/**", "headers": [{ "key": "X-Robots-Tag", "value": "noindex // not a comment" }] }]
  }
}"#;
    let agents = agents();
    let firebase = reading(super::super::Hosting::Firebase, &agents);
    let p = parse(text, Path::new("firebase.json"), Json::Firebase, &firebase).unwrap();
    assert_eq!(p.redirects[0].origin.to_string(), "firebase.json:8");
    assert_eq!(p.headers[0].origin.to_string(), "firebase.json:9");
    assert_eq!(p.form.clean_urls, Some(true));
    assert_eq!(p.form.origin.unwrap().line, 5);
    let vercel = reading(super::super::Hosting::Vercel, &agents);
    let commented = "{\n  // no\n  \"cleanUrls\": true\n}";
    assert!(parse(commented, Path::new("vercel.json"), Json::Vercel, &vercel).is_err());
    // A comment not closed: the text as written, and serde_json's error names its line.
    let open = "{\n  \"hosting\": {} /* open\n}";
    let e = parse(open, Path::new("firebase.json"), Json::Firebase, &firebase).unwrap_err();
    assert_eq!(e.line(), 2);
}
