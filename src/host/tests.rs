use std::fs;

use super::*;

/// A project with a `public/` output folder and the given files (paths from the project).
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("public")).unwrap();
    for (path, text) in files {
        fs::write(dir.path().join(path), text).unwrap();
    }
    dir
}

fn load(dir: &Path, hosting: Option<Hosting>) -> (Option<Host>, Vec<String>) {
    let base = url::Url::parse("https://example.org/").unwrap();
    let agents = ["robots".to_string()];
    let style = crate::urls::UrlStyle {
        trailing_slash: true,
        clean_urls: false,
        clean_slash: false,
        dotted_bare: false,
    };
    let places = Places {
        public_dir: &dir.join("public"),
        project: dir,
        hosting,
    };
    match read(places, &base, &agents) {
        Some(files) => {
            let (host, warnings) = Host::load(&files, &style);
            (host, warnings.iter().map(ToString::to_string).collect())
        }
        None => (None, Vec::new()),
    }
}

/// Each path's verdict, as the left-out reason or "listed".
fn verdicts(host: &Host, paths: &[&str]) -> Vec<String> {
    (paths.iter())
        .map(|p| match host.verdict(&format!("https://example.org{p}")) {
            Some(why) => why.to_string(),
            None => "listed".to_string(),
        })
        .collect()
}

const REDIRECTS: &str = "\
/kept       /elsewhere   301
/forced     /elsewhere   301!
/docs       /docs/       301!
/rewrite/*  /index.html  200!
/rewrite/x  /elsewhere   301!
/gone       /404.html    404!
/Case       /elsewhere   301!
";

#[test]
fn netlify_shadows_unforced_rules_and_reads_netlify_toml_after_redirects() {
    let dir = project(&[
        ("public/_redirects", REDIRECTS),
        ("public/_headers", "/private/*\n  X-Robots-Tag: noindex\n"),
        (
            "netlify.toml",
            "[[redirects]]\nfrom = \"/forced\"\nto = \"/x\"\nforce = true\n\n[[redirects]]\nfrom = \"/late\"\nto = \"/x\"\nforce = true\n\n[[redirects]]\nfrom = \"/fr/*\"\nto = \"/fr/\"\nforce = true\nconditions = {Language = [\"fr\"]}\n\n[[headers]]\nfor = \"/hidden/\"\n[headers.values]\nX-Robots-Tag = \"noindex\"\n",
        ),
    ]);
    let (host, warnings) = load(dir.path(), None);
    assert!(warnings.is_empty(), "{warnings:?}");
    let host = host.unwrap();
    let got = verdicts(
        &host,
        &[
            "/kept",
            "/forced/",
            "/docs/",
            "/rewrite/x",
            "/gone",
            "/case",
            "/late",
            "/fr/a/",
            "/hidden/",
            "/private/p.html",
        ],
    );
    let redirects = dir.path().join("public/_redirects").display().to_string();
    let toml = dir.path().join("netlify.toml").display().to_string();
    let headers = dir.path().join("public/_headers").display().to_string();
    assert_eq!(
        got,
        [
            "listed".to_string(),
            format!("redirected ({redirects}:2)"),
            // A forced rule to the page itself is a loop: Netlify redirects all the same.
            format!("redirected ({redirects}:3)"),
            "listed".to_string(),
            format!("served as 404 ({redirects}:6)"),
            "listed".to_string(),
            format!("redirected ({toml}:7)"),
            "listed".to_string(),
            format!("noindex (host headers: {toml}:20)"),
            format!("noindex (host headers: {headers}:2)"),
        ]
    );
}

#[test]
fn cloudflare_follows_every_rule_exactly_with_302_by_default() {
    let dir = project(&[
        ("public/_redirects", REDIRECTS),
        ("wrangler.toml", "name = \"site\"\n"),
    ]);
    let host = load(dir.path(), None).0.unwrap();
    let redirects = dir.path().join("public/_redirects").display().to_string();
    assert_eq!(
        verdicts(&host, &["/kept", "/kept/", "/docs", "/Case"]),
        [
            format!("redirected ({redirects}:1)"),
            "listed".to_string(),
            // Sent to `/docs/`, a slash apart, and redirected all the same.
            format!("redirected ({redirects}:3)"),
            format!("redirected ({redirects}:7)"),
        ]
    );
    // Named in sitemap.toml, the host need not be detected.
    let dir = project(&[("public/_redirects", "/a /b\n")]);
    let host = load(dir.path(), Some(Hosting::Cloudflare)).0.unwrap();
    assert_eq!(host.redirect("/a").unwrap().what.status, 302);
}

#[test]
fn vercel_and_firebase_redirect_before_files_and_keep_the_last_header() {
    let dir = project(&[(
        "vercel.json",
        r#"{"redirects": [{"source": "/old/:path*", "destination": "/new/:path*"}],
            "headers": [
              {"source": "/(.*)", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]},
              {"source": "/open/(.*)", "headers": [{"key": "X-Robots-Tag", "value": "all"}]}
            ]}"#,
    )]);
    let host = load(dir.path(), None).0.unwrap();
    let file = dir.path().join("vercel.json").display().to_string();
    assert_eq!(
        verdicts(&host, &["/old/a", "/open/b", "/c"]),
        [
            format!("redirected ({file}:1)"),
            "listed".to_string(),
            format!("noindex (host headers: {file}:3)"),
        ]
    );
    let dir = project(&[(
        "firebase.json",
        r#"{"hosting": {"public": "public", "redirects": [{"source": "/blog/**", "destination": "/posts/", "type": 302}]}}"#,
    )]);
    let host = load(dir.path(), None).0.unwrap();
    assert_eq!(verdicts(&host, &["/blog/a/", "/posts/"])[1], "listed");
}

/// Firebase's and Cloudflare's header rules match the path as the request sends it,
/// percent-encoded; Netlify's and Vercel's match it decoded.
#[test]
fn header_rules_match_the_path_as_each_host_matches_it() {
    let noindex = r#"{"key": "X-Robots-Tag", "value": "noindex"}"#;
    let firebase = format!(
        r#"{{"hosting": {{"public": "public", "headers": [{{"source": "/a b.html", "headers": [{noindex}]}}, {{"source": "/c%20d.html", "headers": [{noindex}]}}]}}}}"#
    );
    let cases = [
        ("firebase.json", firebase.as_str(), ["listed", "noindex"]),
        (
            "public/_headers",
            "/a b.html\n  X-Robots-Tag: noindex\n/c%20d.html\n  X-Robots-Tag: noindex\n",
            ["noindex", "listed"],
        ),
    ];
    for (name, text, want) in cases {
        let dir = project(&[(name, text)]);
        let host = load(dir.path(), None).0.unwrap();
        let got = verdicts(&host, &["/a%20b.html", "/c%20d.html"]);
        let got: Vec<&str> = got.iter().map(|v| v.split(' ').next().unwrap()).collect();
        assert_eq!(got, want, "{name}");
    }
    let dir = project(&[
        ("public/_headers", "/c%20d.html\n  X-Robots-Tag: noindex\n"),
        ("wrangler.toml", "name = \"site\"\n"),
    ]);
    let host = load(dir.path(), None).0.unwrap();
    assert_eq!(
        verdicts(&host, &["/c%20d.html"])[0].split(' ').next(),
        Some("noindex")
    );
}

#[test]
fn what_cannot_be_read_is_a_warning_and_the_rest_applies() {
    let dir = project(&[
        ("public/_redirects", "/ok /x 301!\n"),
        ("netlify.toml", "[[redirects]\n"),
    ]);
    let (host, warnings) = load(dir.path(), None);
    assert!(host.is_some());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("netlify.toml") && warnings[0].ends_with("its rules are not applied")
    );
    let dir = project(&[(
        "vercel.json",
        r#"{"redirects": [{"source": "/a/(b", "destination": "/"}]}"#,
    )]);
    let (host, warnings) = load(dir.path(), None);
    assert!(host.is_none());
    assert!(warnings[0].contains("\"/a/(b\""), "{warnings:?}");
}

#[test]
fn the_url_form_comes_from_the_host() {
    let form_of = |dir: &Path| {
        let public_dir = dir.join("public");
        let places = Places {
            public_dir: &public_dir,
            project: dir,
            hosting: None,
        };
        (url_form(places), detect(places))
    };
    let dir = project(&[(
        "vercel.json",
        r#"{"cleanUrls": true, "trailingSlash": false}"#,
    )]);
    let (form, _) = form_of(dir.path());
    assert_eq!(
        (form.clean_urls, form.trailing_slash),
        (Some(true), Some(false))
    );
    let dir = project(&[("wrangler.jsonc", "{}")]);
    let (form, found) = form_of(dir.path());
    let found = found.unwrap();
    assert_eq!(
        (found.hosting, found.detected, found.files.len()),
        (Hosting::Cloudflare, true, 0)
    );
    assert_eq!(form.clean_urls, Some(true));
    let dir = project(&[]);
    assert_eq!(form_of(dir.path()), (UrlForm::default(), None));
}
