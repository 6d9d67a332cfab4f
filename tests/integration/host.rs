//! The host's own files: `_headers`, `_redirects`, `netlify.toml`, `vercel.json`.

use predicates::prelude::PredicateBooleanExt;
use std::fs;

use crate::util::{Site, locs, validate_set};

#[test]
fn pages_the_host_serves_with_noindex_are_left_out_naming_the_line() {
    let site = Site::new(&[
        "index.html",
        "drafts/a.html",
        "drafts/public/b.html",
        "docs/c.html",
    ]);
    fs::write(
        site.public().join("_headers"),
        "# previews\nhttps://preview.example.org/*\n  X-Robots-Tag: noindex\n/drafts/*\n  Cache-Control: no-store\n  X-Robots-Tag: noindex\n/drafts/public/*\n  ! X-Robots-Tag\n/docs/*\n  X-Robots-Tag: nofollow\n",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "drafts/a.html: noindex (host headers: public/_headers:6)",
        ))
        .stderr(predicates::str::contains("1 noindex"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/docs/c.html",
            "https://example.org/drafts/public/b.html"
        ]
    );
    // Turned off, the host's rules are not read.
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nhost_config = false\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(locs(&site.public().join("sitemap.xml")).len(), 4);
}

#[test]
fn pages_the_host_redirects_are_left_out_naming_the_rule() {
    let site = Site::new(&[
        "index.html",
        "old/a.html",
        "kept/b.html",
        "moved/c.html",
        "fr/d.html",
    ]);
    fs::write(
        site.public().join("_redirects"),
        "# forced over pages that still exist\n/old/*  /new/:splat  301!\n# a file is served before an unforced rule\n/kept/*  /new/  301\n",
    )
    .unwrap();
    fs::write(
        site.root().join("netlify.toml"),
        "[build]\npublish = \"public\"\n\n[[redirects]]\nfrom = \"/moved/c.html\"\nto = \"/c/\"\nstatus = 302\nforce = true\n\n[[redirects]]\nfrom = \"/fr/*\"\nto = \"/fr/\"\nforce = true\nconditions = {Language = [\"fr\"]}\n",
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/a.html: redirected (public/_redirects:2)",
        ))
        .stderr(predicates::str::contains(
            "moved/c.html: redirected (netlify.toml:5)",
        ))
        .stderr(predicates::str::contains("2 redirects"));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/fr/d.html",
            "https://example.org/kept/b.html",
        ]
    );
    validate_set(&site.public().join("sitemap.xml"));
}

#[test]
fn vercel_json_sets_the_url_form_and_its_rules_apply() {
    let site = Site::new(&[
        "index.html",
        "about.html",
        "docs/index.html",
        "docs/setup.html",
        "private/p.html",
        "old/o.html",
    ]);
    fs::write(
        site.root().join("vercel.json"),
        r#"{
  "cleanUrls": true,
  "trailingSlash": false,
  "redirects": [{ "source": "/old/:path*", "destination": "/docs/:path*" }],
  "headers": [
    { "source": "/private/(.*)", "headers": [{ "key": "X-Robots-Tag", "value": "noindex" }] }
  ]
}"#,
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/o.html: redirected (vercel.json:4)",
        ))
        .stderr(predicates::str::contains(
            "private/p.html: noindex (host headers: vercel.json:6)",
        ));
    let listed = [
        "https://example.org/",
        "https://example.org/about",
        "https://example.org/docs",
        "https://example.org/docs/setup",
    ];
    assert_eq!(locs(&site.public().join("sitemap.xml")), listed);
    validate_set(&site.public().join("sitemap.xml"));
    // The file's own keys win over the host's form.
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nclean_urls = false\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert!(
        locs(&site.public().join("sitemap.xml"))
            .contains(&"https://example.org/about.html".to_string())
    );
}

#[test]
fn llms_txt_is_served_noindex_through_the_hosts_headers_touching_no_other_line() {
    let site = Site::new(&["index.html", "a.html"]);
    let headers = site.public().join("_headers");
    let user = "/*\n  X-Frame-Options: DENY\n";
    fs::write(&headers, user).unwrap();
    let llms = "base_url = 'https://example.org/docs/'\npublic_dir = 'public'\nllms_txt = true\nllms_full_txt = true\n";
    site.config(llms);
    site.cmd()
        .args(["build"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "updated public/_headers: llms.txt served with X-Robots-Tag: noindex",
        ));
    let written = fs::read_to_string(&headers).unwrap();
    assert!(written.starts_with(user), "{written}");
    assert!(written.contains("/docs/llms.txt\n  X-Robots-Tag: noindex\n/docs/llms-full.txt\n  X-Robots-Tag: noindex\n# sitemapgen: end\n"), "{written}");
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(fs::read_to_string(&headers).unwrap(), written);
    // No longer due: ours go, the user's lines stay as they were.
    site.config("base_url = 'https://example.org/docs/'\npublic_dir = 'public'\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(fs::read_to_string(&headers).unwrap(), user);
    // A begin line without its end: one line naming the file and line, exit 1.
    fs::write(
        &headers,
        "/*\n# sitemapgen: begin (these lines are rewritten on every build)\n/a\n",
    )
    .unwrap();
    site.config(llms);
    site.cmd()
        .args(["build", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("public/_headers:2: the line"));
}

#[test]
fn headers_are_created_only_where_the_host_reads_them_or_when_asked() {
    let site = Site::new(&["index.html"]);
    let headers = site.public().join("_headers");
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert!(!headers.exists());
    // Netlify reads _headers from the output folder: netlify.toml says the site is there.
    fs::write(
        site.root().join("netlify.toml"),
        "[build]\npublish = 'public'\n",
    )
    .unwrap();
    site.cmd().args(["build", "-q"]).assert().success();
    assert!(
        fs::read_to_string(&headers)
            .unwrap()
            .contains("/llms.txt\n  X-Robots-Tag: noindex\n")
    );
    fs::remove_file(site.root().join("netlify.toml")).unwrap();
    fs::remove_file(&headers).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\nhost_headers = true\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert!(headers.exists());
    // A link in _headers' place is not followed, nor replaced.
    #[cfg(unix)]
    {
        let outside = site.root().join("outside");
        fs::write(&outside, "mine\n").unwrap();
        fs::remove_file(&headers).unwrap();
        std::os::unix::fs::symlink(&outside, &headers).unwrap();
        site.cmd().args(["build", "-q"]).assert().code(1);
        assert_eq!(fs::read_to_string(&outside).unwrap(), "mine\n");
    }
}

#[test]
fn vercel_with_clean_urls_and_trailing_slashes_lists_pages_with_a_slash() {
    let site = Site::new(&[
        "index.html",
        "about.html",
        "docs/index.html",
        "guide.pdf",
        "x.y.html",
        "v1.2/index.html",
    ]);
    fs::write(
        site.root().join("vercel.json"),
        r#"{ "cleanUrls": true, "trailingSlash": true }"#,
    )
    .unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\ndocuments = ['pdf']\n");
    site.cmd().args(["build", "-q"]).assert().success();
    // A name that ends as a file's does (`x.y`) is served without the slash: Vercel's
    // trailingSlash sends `/x.y/` to `/x.y`.
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/about/",
            "https://example.org/docs/",
            "https://example.org/guide.pdf",
            "https://example.org/v1.2",
            "https://example.org/x.y",
        ]
    );
    site.cmd()
        .args(["explain", "https://example.org/about/"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "  listed:    https://example.org/about/\n",
        ));
}

/// Vercel's `has` and `missing` are read as a crawler's request for the site: the
/// site's host, Googlebot's user agent, no cookie, query or other header. A rule every
/// crawler meets applies; one none meets, or one that cannot be told, does not.
#[test]
fn vercel_conditions_are_met_as_a_crawlers_request_meets_them() {
    let site = Site::new(&[
        "index.html",
        "a/p.html",
        "b/p.html",
        "c/p.html",
        "d/p.html",
        "e/p.html",
    ]);
    let noindex = r#"[{ "key": "X-Robots-Tag", "value": "noindex" }]"#;
    let rules = [
        // The site's host: every crawler's request.
        r#""/a/(.*)", "has": [{ "type": "host", "value": "example\\.org" }]"#,
        // A header no crawler sends is missing from every request.
        r#""/b/(.*)", "missing": [{ "type": "header", "key": "x-preview" }]"#,
        // Googlebot's user agent.
        r#""/c/(.*)", "has": [{ "type": "header", "key": "user-agent", "value": ".*Googlebot.*" }]"#,
        // A cookie no crawler has; another host.
        r#""/d/(.*)", "has": [{ "type": "cookie", "key": "beta" }]"#,
        r#""/e/(.*)", "has": [{ "type": "host", "value": "preview.example.org" }]"#,
    ];
    let headers: Vec<String> = rules
        .iter()
        .map(|r| format!("    {{ \"source\": {r}, \"headers\": {noindex} }}"))
        .collect();
    let text = format!("{{\n  \"headers\": [\n{}\n  ]\n}}\n", headers.join(",\n"));
    fs::write(site.root().join("vercel.json"), text).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "a/p.html: noindex (host headers: vercel.json:3)",
        ))
        .stderr(predicates::str::contains(
            "c/p.html: noindex (host headers: vercel.json:5)",
        ));
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        [
            "https://example.org/",
            "https://example.org/d/p.html",
            "https://example.org/e/p.html",
        ]
    );
}

/// `firebase.json` is read with its comments, as the Firebase CLI reads it: its form and
/// rules apply, each rule named by its line as written.
#[test]
fn firebase_json_with_comments_is_read_as_the_firebase_cli_reads_it() {
    let site = Site::new(&["index.html", "about.html", "drafts/d.html"]);
    let text = "{\n  // Hosting for the docs.\n  \"hosting\": {\n    \"public\": \"public\",\n    /* Pages without .html,\n       as linked. */\n    \"cleanUrls\": true,\n    \"headers\": [\n      { \"source\": \"/drafts/**\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }] } // drafts\n    ]\n  }\n}\n";
    fs::write(site.root().join("firebase.json"), text).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "drafts/d.html: noindex (host headers: firebase.json:9)",
        ))
        .stderr(predicates::str::contains("warning").not());
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/", "https://example.org/about"]
    );
}

/// A host fixture's project (`tests/fixtures/NAME`): its source, with the built site in
/// `public/` as a deploy has it, and `config` as its sitemap.toml.
fn host_fixture(name: &str, config: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    crate::util::copy_tree(&fixture.join("source"), &project);
    crate::util::copy_tree(&fixture.join("public"), &project.join("public"));
    fs::write(project.join("sitemap.toml"), config).unwrap();
    (tmp, project)
}

/// Builds a host fixture and checks each page against its `expected.tsv`: listed (at the
/// URL given, if one is), or left out for the verdict and the rule named.
fn matches_expected(name: &str, config: &str) {
    let (_tmp, project) = host_fixture(name, config);
    let out = crate::util::bin()
        .current_dir(&project)
        .args(["build", "-v"])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let sitemap = project.join("public/sitemap.xml");
    let listed = locs(&sitemap);
    validate_set(&sitemap);
    let expected = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
            .join("expected.tsv"),
    )
    .unwrap();
    let mut want_listed = 0;
    for row in expected.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (page, verdict) = (cols[0], cols[1]);
        let why = cols.get(2).copied().unwrap_or_default();
        let rule = why.split(' ').next().unwrap_or_default();
        if verdict == "listed" {
            want_listed += 1;
            if rule.starts_with("https://") {
                assert!(
                    listed.contains(&rule.to_string()),
                    "{name}: {page}: {rule} not in {listed:?}"
                );
            }
            assert!(
                !stderr.contains(&format!("left out public/{page}:")),
                "{name}: {page}: {stderr}"
            );
            continue;
        }
        let reason = match verdict {
            "noindex" => format!("noindex (host headers: {rule})"),
            other => format!("{other} ({rule})"),
        };
        let line = format!("left out public/{page}: {reason}");
        assert!(
            stderr.contains(&line),
            "{name}: wanted {line:?} in\n{stderr}"
        );
    }
    assert_eq!(listed.len(), want_listed, "{name}: {listed:?}");
}

#[test]
fn a_real_netlify_deploy_lists_what_netlify_serves() {
    matches_expected(
        "host-netlify",
        "base_url = 'https://netlify.example.org/'\npublic_dir = 'public'\nnoindex_agents = ['robots', 'googlebot']\n",
    );
}

#[test]
fn a_real_vercel_deploy_lists_what_vercel_serves() {
    matches_expected(
        "host-vercel",
        "base_url = 'https://vercel.example.org/'\npublic_dir = 'public'\n",
    );
    // init finds the host and its form.
    let (_tmp, project) = host_fixture("host-vercel", "");
    fs::remove_file(project.join("sitemap.toml")).unwrap();
    crate::util::bin()
        .current_dir(&project)
        .arg("init")
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "host: vercel; rules from vercel.json",
        ));
    let written = fs::read_to_string(project.join("sitemap.toml")).unwrap();
    assert!(
        written.contains("trailing_slash = true\nclean_urls = true\n"),
        "{written}"
    );
}

#[test]
fn vercel_json_gets_our_llms_headers_only_when_asked_and_loses_them_after() {
    let site = Site::new(&["index.html", "a.html"]);
    let file = site.root().join("vercel.json");
    let user = "{\n  \"headers\": [\n    { \"source\": \"/(.*)\", \"headers\": [{ \"key\": \"X-Frame-Options\", \"value\": \"DENY\" }] }\n  ]\n}\n";
    fs::write(&file, user).unwrap();
    let config = "base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\n";
    site.config(config);
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        user,
        "not asked: untouched"
    );
    assert!(!site.public().join("_headers").exists());
    site.config(&format!("{config}host_headers = true\n"));
    site.cmd()
        .args(["build"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "updated vercel.json: llms.txt served with X-Robots-Tag: noindex",
        ));
    let edited = fs::read_to_string(&file).unwrap();
    assert!(edited.contains("    { \"source\": \"/llms.txt\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }, { \"key\": \"X-Sitemapgen\", \"value\": \"entry rewritten on every build\" }] },\n"), "{edited}");
    serde_json::from_str::<serde_json::Value>(&edited).unwrap();
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(fs::read_to_string(&file).unwrap(), edited);
    // No longer asked: ours go, the file is as it was.
    site.config(config);
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(fs::read_to_string(&file).unwrap(), user);
}

// Hardening, fourth round (issue 61): the host's files are edited byte for byte, read
// with their byte order mark skipped, told ours from the user's by a mark, edited on
// their JSON, and read through a link as every host file is (never passed over).

const LLMS: &str = "base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\nhost_headers = true\n";

/// A Latin-1 byte in `_headers` became U+FFFD (EF BF BD) when our lines went in; a BOM
/// and CRLF line ends are the user's too. Added and taken away, the file is as it was.
#[test]
fn headers_keep_every_byte_of_the_users_whatever_the_encoding() {
    let site = Site::new(&["index.html"]);
    let headers = site.public().join("_headers");
    let no_llms = "base_url = 'https://example.org/'\npublic_dir = 'public'\nhost_headers = true\n";
    let table: [(&[u8], &str); 3] = [
        (b"/*\n  X-Note: caf\xe9\n", "\n"),
        (b"\xef\xbb\xbf/*\r\n  X-Frame-Options: DENY\r\n", "\r\n"),
        (b"\xef\xbb\xbf/*\r\n  X-Note: \xe9t\xe9\r\n", "\r\n"),
    ];
    for (user, eol) in table {
        fs::write(&headers, user).unwrap();
        site.config(LLMS);
        site.cmd().args(["build", "-q"]).assert().success();
        let written = fs::read(&headers).unwrap();
        assert!(written.starts_with(user), "{written:?}");
        let ours = format!("{eol}/llms.txt{eol}  X-Robots-Tag: noindex{eol}# sitemapgen: end{eol}");
        assert!(written.ends_with(ours.as_bytes()), "{written:?}");
        assert_eq!(
            written.windows(3).filter(|w| w == b"\xef\xbf\xbd").count(),
            0
        );
        site.config(no_llms);
        site.cmd().args(["build", "-q"]).assert().success();
        assert_eq!(fs::read(&headers).unwrap(), user);
    }
}

/// A UTF-8 byte order mark before the first rule made it no rule: skipped in every host
/// file read, the first rule applies, named by its line.
#[test]
fn a_byte_order_mark_is_never_part_of_the_first_rule() {
    let site = Site::new(&["index.html", "old/a.html", "drafts/b.html", "gone/c.html"]);
    let bom = "\u{feff}";
    let public = site.public();
    fs::write(
        public.join("_redirects"),
        format!("{bom}/old/*  /new/:splat  301!\n"),
    )
    .unwrap();
    let headers = format!("{bom}/drafts/*\n  X-Robots-Tag: noindex\n");
    fs::write(public.join("_headers"), headers).unwrap();
    let toml = format!("{bom}[[redirects]]\nfrom = \"/gone/*\"\nto = \"/\"\nforce = true\n");
    fs::write(site.root().join("netlify.toml"), toml).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/a.html: redirected (public/_redirects:1)",
        ))
        .stderr(predicates::str::contains(
            "drafts/b.html: noindex (host headers: public/_headers:2)",
        ))
        .stderr(predicates::str::contains(
            "gone/c.html: redirected (netlify.toml:2)",
        ))
        .stderr(predicates::str::contains("warning").not());
    assert_eq!(locs(&public.join("sitemap.xml")), ["https://example.org/"]);
    validate_set(&public.join("sitemap.xml"));
    // Vercel's file too.
    let site = Site::new(&["index.html", "old/a.html"]);
    let vercel = format!(
        "{bom}{{ \"redirects\": [{{ \"source\": \"/old/(.*)\", \"destination\": \"/\" }}] }}\n"
    );
    fs::write(site.root().join("vercel.json"), &vercel).unwrap();
    site.config(LLMS);
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/a.html: redirected (vercel.json:1)",
        ));
    // Edited, it keeps its BOM.
    let edited = fs::read_to_string(site.root().join("vercel.json")).unwrap();
    assert!(
        edited.starts_with(bom) && edited.contains("/llms.txt"),
        "{edited}"
    );
}

/// A user's entry written exactly as ours once were was taken for ours and replaced:
/// their page lost its noindex. Ours carry a mark; theirs are never replaced or removed.
#[test]
fn a_users_vercel_entry_in_our_form_is_theirs() {
    let site = Site::new(&["index.html", "secret.html"]);
    let file = site.root().join("vercel.json");
    let user = "{\n  \"headers\": [\n    { \"source\": \"/secret.html\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }] },\n    { \"source\": \"/llms.txt\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }] }\n  ]\n}\n";
    fs::write(&file, user).unwrap();
    site.config(LLMS);
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "secret.html: noindex (host headers: vercel.json:3)",
        ));
    let edited = fs::read_to_string(&file).unwrap();
    let value: serde_json::Value = serde_json::from_str(&edited).unwrap();
    let sources: Vec<&str> = (value["headers"].as_array().unwrap().iter())
        .map(|entry| entry["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        ["/llms.txt", "/secret.html", "/llms.txt"],
        "{edited}"
    );
    assert!(
        edited.ends_with(&user["{\n  \"headers\": [".len()..]),
        "{edited}"
    );
    // No longer asked: ours go, both of theirs stay, byte for byte.
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd().args(["build", "-q"]).assert().success();
    assert_eq!(fs::read_to_string(&file).unwrap(), user);
    assert_eq!(
        locs(&site.public().join("sitemap.xml")),
        ["https://example.org/"]
    );
}

/// `"headers": {}` got a second `headers` key (Vercel refuses the file), and a value
/// `"headers"` at the top stopped the build ("a key without ':'"): the edit now works on
/// serde_json's parse of the file.
#[test]
fn vercel_json_is_edited_on_its_json_not_its_text() {
    let site = Site::new(&["index.html"]);
    let file = site.root().join("vercel.json");
    site.config(LLMS);
    fs::write(&file, "{ \"headers\": {} }\n").unwrap();
    site.cmd()
        .args(["build", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "vercel.json: \"headers\" is not an array; Vercel wants an array",
        ));
    assert_eq!(fs::read_to_string(&file).unwrap(), "{ \"headers\": {} }\n");
    for user in [
        "{ \"name\": \"headers\" }\n",
        "{\n  \"name\": \"headers\",\n  \"env\": { \"A\": \"{ \\\"headers\\\": [\", \"headers\": \"x\" }\n}\n",
    ] {
        fs::write(&file, user).unwrap();
        site.cmd().args(["build", "-q"]).assert().success();
        let edited = fs::read_to_string(&file).unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&edited).unwrap();
        assert_eq!(edited.matches("\"headers\": [").count(), 2, "{edited}");
        assert_eq!(value["headers"][0]["source"], "/llms.txt");
        value.as_object_mut().unwrap().remove("headers");
        let before: serde_json::Value = serde_json::from_str(user).unwrap();
        assert_eq!(value, before, "{edited}");
    }
}

/// A host file that is a link was passed over: a Vercel project whose `vercel.json`
/// links to a shared config was taken for Netlify and got a `_headers`. Every host file
/// is now read as robots.txt is: through a link that stays in its folder, and one that
/// leads out refused with a warning naming it; the host stays the one it names.
#[test]
#[cfg(unix)]
fn a_host_file_that_is_a_link_is_read_or_refused_never_passed_over() {
    use std::os::unix::fs::symlink;
    let site = Site::new(&["index.html", "old/a.html"]);
    let shared = tempfile::tempdir().unwrap();
    let outside = shared.path().join("vercel.json");
    let config = "{ \"redirects\": [{ \"source\": \"/old/(.*)\", \"destination\": \"/\" }] }\n";
    fs::write(&outside, config).unwrap();
    let link = site.root().join("vercel.json");
    symlink(&outside, &link).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\nllms_txt = true\n");
    site.cmd()
        .args(["build"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "warning: vercel.json: is a symbolic link to",
        ))
        .stderr(predicates::str::contains("its rules are not applied"));
    assert!(
        !site.public().join("_headers").exists(),
        "taken for Netlify"
    );
    // Asked to edit it: refused, naming it; the shared file untouched.
    site.config(LLMS);
    site.cmd()
        .args(["build", "-q"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "cannot update vercel.json: is a symbolic link to",
        ));
    assert_eq!(fs::read_to_string(&outside).unwrap(), config);
    assert!(!site.public().join("_headers").exists());
    // A link that stays in the project is read, and edited through.
    fs::create_dir(site.root().join("config")).unwrap();
    let inside = site.root().join("config/vercel.json");
    fs::write(&inside, config).unwrap();
    fs::remove_file(&link).unwrap();
    symlink("config/vercel.json", &link).unwrap();
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/a.html: redirected (vercel.json:1)",
        ))
        .stderr(predicates::str::contains("updated vercel.json"));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(fs::read_to_string(&inside).unwrap().contains("/llms.txt"));
    assert!(!site.public().join("_headers").exists());
    validate_set(&site.public().join("sitemap.xml"));
}

/// The same for the output folder's files: `_redirects` linked inside it is read, and
/// `_headers` or `netlify.toml` linked out of their folder is a warning naming it.
#[test]
#[cfg(unix)]
fn linked_redirects_and_headers_are_read_in_the_site_and_refused_out_of_it() {
    use std::os::unix::fs::symlink;
    let site = Site::new(&["index.html", "old/a.html"]);
    let public = site.public();
    fs::create_dir(public.join("conf")).unwrap();
    fs::write(public.join("conf/redirects.txt"), "/old/*  /  301!\n").unwrap();
    symlink("conf/redirects.txt", public.join("_redirects")).unwrap();
    let shared = tempfile::tempdir().unwrap();
    fs::write(shared.path().join("h"), "/*\n  X-Robots-Tag: noindex\n").unwrap();
    fs::write(shared.path().join("n"), "[build]\npublish = 'public'\n").unwrap();
    symlink(shared.path().join("h"), public.join("_headers")).unwrap();
    symlink(shared.path().join("n"), site.root().join("netlify.toml")).unwrap();
    site.config("base_url = 'https://example.org/'\npublic_dir = 'public'\n");
    site.cmd()
        .args(["build", "-v"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "old/a.html: redirected (public/_redirects:1)",
        ))
        .stderr(predicates::str::contains(
            "warning: public/_headers: is a symbolic link to",
        ))
        .stderr(predicates::str::contains(
            "warning: netlify.toml: is a symbolic link to",
        ));
    assert_eq!(locs(&public.join("sitemap.xml")), ["https://example.org/"]);
}
