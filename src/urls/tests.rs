use super::*;

#[test]
fn absolute_urls_spell_out_scheme_and_host() {
    for ok in [
        "https://e.org/",
        "HTTP://e.org",
        "https://e.org?x",
        "http://[::1]/",
    ] {
        assert!(is_absolute_http(ok), "{ok}");
        assert_eq!(LocForm::of(ok).problem(), None, "{ok}");
    }
    for bad in [
        "https:///path",
        "http:example.com",
        "//e.org/",
        "ftp://e.org/",
        "https://",
        "e.org",
        "",
        "javascript:void(0)",
    ] {
        assert!(!is_absolute_http(bad), "{bad}");
        assert_eq!(
            LocForm::of(bad).problem(),
            Some(LocProblem::NotAbsoluteHttp)
        );
    }
    let spaced = LocForm::of("not a url <b>").problem();
    assert_eq!(spaced, Some(LocProblem::Unencoded("a space".into())));
}

fn base(s: &str) -> BaseUrl {
    BaseUrl::parse(s).unwrap()
}

const SLASH: UrlStyle = UrlStyle {
    trailing_slash: true,
    clean_urls: false,
    clean_slash: false,
    dotted_bare: false,
};

#[test]
fn maps_paths_to_urls() {
    let b = base("https://example.org/docs/");
    let clean_no_slash = UrlStyle {
        trailing_slash: false,
        clean_urls: true,
        clean_slash: false,
        dotted_bare: false,
    };
    let vercel = UrlStyle {
        trailing_slash: true,
        clean_urls: true,
        clean_slash: true,
        dotted_bare: true,
    };
    let table: &[(&str, &UrlStyle, &str)] = &[
        ("index.html", &SLASH, "https://example.org/docs/"),
        ("index.htm", &SLASH, "https://example.org/docs/"),
        ("blog/index.html", &SLASH, "https://example.org/docs/blog/"),
        ("about.html", &SLASH, "https://example.org/docs/about.html"),
        (
            "a b/c&d.html",
            &SLASH,
            "https://example.org/docs/a%20b/c&d.html",
        ),
        ("q?x.html", &SLASH, "https://example.org/docs/q%3Fx.html"),
        (
            "über/index.html",
            &SLASH,
            "https://example.org/docs/%C3%BCber/",
        ),
        (
            "x/100%.html",
            &SLASH,
            "https://example.org/docs/x/100%25.html",
        ),
        ("h#a.html", &SLASH, "https://example.org/docs/h%23a.html"),
        (
            "<\"'>.html",
            &SLASH,
            "https://example.org/docs/%3C%22'%3E.html",
        ),
        (
            "a:b@c!$'()*+,;=~-_.html",
            &SLASH,
            "https://example.org/docs/a:b@c!$'()*+,;=~-_.html",
        ),
        (
            "[x]{y}|\\^`.html",
            &SLASH,
            "https://example.org/docs/%5Bx%5D%7By%7D%7C%5C%5E%60.html",
        ),
        (
            "blog/index.html",
            &clean_no_slash,
            "https://example.org/docs/blog",
        ),
        ("index.html", &clean_no_slash, "https://example.org/docs/"),
        (
            "about.html",
            &clean_no_slash,
            "https://example.org/docs/about",
        ),
        (
            "v1.2/notes.htm",
            &clean_no_slash,
            "https://example.org/docs/v1.2/notes",
        ),
        ("INDEX.HTML", &SLASH, "https://example.org/docs/INDEX.HTML"),
        // Vercel with cleanUrls and trailingSlash: a name that ends as a file's does
        // takes no slash.
        ("about.html", &vercel, "https://example.org/docs/about/"),
        ("x.y.html", &vercel, "https://example.org/docs/x.y"),
        ("v1.2/index.html", &vercel, "https://example.org/docs/v1.2"),
        ("v1.2/a.html", &vercel, "https://example.org/docs/v1.2/a/"),
        (
            "x.y-z/index.html",
            &vercel,
            "https://example.org/docs/x.y-z/",
        ),
        ("index.html", &vercel, "https://example.org/docs/"),
    ];
    for (path, style, want) in table {
        assert_eq!(&page_url(&b, Path::new(path), style), want, "path {path:?}");
    }
}

#[test]
fn nfd_names_stay_nfd() {
    // "ü" as u + combining diaeresis (NFD) must not be composed to U+00FC.
    let b = base("https://example.org/");
    let url = page_url(&b, Path::new("u\u{308}ber.html"), &SLASH);
    assert_eq!(url, "https://example.org/u%CC%88ber.html");
}

#[test]
#[cfg(unix)]
fn non_utf8_names_are_encoded_byte_for_byte() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let b = base("https://example.org/");
    let rel = std::path::PathBuf::from(OsStr::from_bytes(b"caf\xe9/index.html"));
    assert_eq!(page_url(&b, &rel, &SLASH), "https://example.org/caf%E9/");
}

#[test]
fn base_urls_are_normalised() {
    let table = [
        ("https://example.org", "https://example.org/"),
        ("HTTPS://Example.ORG:443/Docs", "https://example.org/Docs/"),
        ("http://example.org:80/", "http://example.org/"),
        ("http://example.org:8080/a/", "http://example.org:8080/a/"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        (
            "https://example.org/ä b/",
            "https://example.org/%C3%A4%20b/",
        ),
        ("  https://example.org/  ", "https://example.org/"),
    ];
    for (input, want) in table {
        assert_eq!(base(input).as_str(), want, "input {input:?}");
    }
    assert!(base("https://example.org").is_host_root());
    assert!(!base("https://example.org/docs").is_host_root());
}

#[test]
fn bad_base_urls_are_refused_with_the_reason() {
    let table = [
        ("example.org", "not an absolute URL"),
        ("/docs/", "not an absolute URL"),
        ("ftp://example.org/", "http or https"),
        ("https://example.org/?a=1", "query"),
        ("https://example.org/#top", "fragment"),
        ("https://user:pw@example.org/", "user name"),
        ("mailto:a@example.org", "http or https"),
        ("https://example.org/a^b|c/", "holds '^'"),
        (
            "https://example.org/100%/",
            "holds a '%' not followed by two hex digits",
        ),
    ];
    for (input, want) in table {
        let err = BaseUrl::parse(input).unwrap_err().to_string();
        assert!(err.contains(want), "{input:?}: {err}");
        assert!(err.contains(input), "{input:?}: {err}");
    }
}

#[test]
fn equivalent_urls_compare_equal() {
    let page = url::Url::parse("https://example.org/docs/a%C3%A9/").unwrap();
    let same = [
        "https://example.org/docs/a%C3%A9/",
        "HTTPS://EXAMPLE.ORG:443/docs/a%c3%a9/",
        "/docs/a%c3%a9/",
        "./",
        "",
        "#section",
        "/docs/x/../a%C3%A9/",
        "https://example.org/%64ocs/a%C3%A9/",
        "https://example.org/docs/aé/",
    ];
    for href in same {
        let got = resolve_href(&page, href).unwrap();
        assert_eq!(comparable(&got), comparable(&page), "{href:?}");
    }
    let different = [
        "/docs/a%C3%A9",
        "http://example.org/docs/a%C3%A9/",
        "https://www.example.org/docs/a%C3%A9/",
        "../other/",
        "?page=2",
    ];
    for href in different {
        let got = resolve_href(&page, href).unwrap();
        assert_ne!(comparable(&got), comparable(&page), "{href:?}");
    }
    for href in ["javascript:alert(1)", "data:text/html,x", "mailto:a@b.c"] {
        assert!(
            resolve_href(&page, href).unwrap_err().contains("scheme"),
            "{href}"
        );
    }
    assert!(resolve_href(&page, "https://exa mple.org/").is_err());
    // What the url crate leaves raw is encoded, so every result passes the schema.
    for (href, want) in [
        ("https://example.org/%zz/%", "https://example.org/%25zz/%25"),
        (
            "/a|b^c/[x]?q=%",
            "https://example.org/a%7Cb%5Ec/%5Bx%5D?q=%25",
        ),
        ("https://[::1]/ok%20", "https://[::1]/ok%20"),
    ] {
        let got = resolve_href(&page, href).unwrap();
        assert_eq!(got.as_str(), want, "{href}");
        assert_eq!(needs_encoding(got.as_str()), None, "{href}");
    }
}

#[test]
fn hreflang_values_are_checked() {
    for ok in [
        "en",
        "de-AT",
        "zh-Hant-TW",
        "x-default",
        "X-Default",
        "es-419",
        "fil",
    ] {
        assert!(is_hreflang(ok), "{ok}");
    }
    for bad in [
        "", "e", "english", "en_US", "de-", "en-a", "x-def", "de AT", "\"><x",
    ] {
        assert!(!is_hreflang(bad), "{bad}");
    }
}

/// Found by fuzzing (config_loader, crash-7e3c52fb): a base_url with a newline was
/// quoted raw in the error.
#[test]
fn fuzz_crash_base_url_with_newline_errors_on_one_line() {
    let err = BaseUrl::parse("'ht:x\n#y").unwrap_err().to_string();
    assert!(!err.contains('\n'), "{err}");
    assert!(err.contains("'ht:x\\n#y"), "{err}");
}

#[test]
fn encodes_paths_for_written_files() {
    assert_eq!(
        file_url("", Path::new("a b/sitemap-1.xml")),
        "a%20b/sitemap-1.xml"
    );
    assert_eq!(file_url("", Path::new("ü x")), "%C3%BC%20x");
    let b = base("https://example.org/docs/");
    assert_eq!(
        file_url(b.as_str(), Path::new("guide/index.html")),
        "https://example.org/docs/guide/index.html"
    );
    assert_eq!(
        own_forms(&b, Path::new("guide/index.htm")),
        (
            "https://example.org/docs/guide/index.htm".to_string(),
            Some("https://example.org/docs/guide/".to_string())
        )
    );
    for rel in ["index.html", "a.html"] {
        assert_eq!(own_forms(&b, Path::new(rel)).1, None, "{rel}");
    }
}

#[test]
fn a_url_splits_before_its_path() {
    let table = [
        ("https://e.org/a%20b/?q=/x#f", ("https://e.org", "/a%20b/")),
        ("https://e.org", ("https://e.org", "/")),
        ("https://e.org?x=/a", ("https://e.org", "/")),
        ("https://e.org#/a", ("https://e.org", "/")),
        ("http://[::1]:8080/x", ("http://[::1]:8080", "/x")),
        ("/rel/path?q", ("", "/rel/path")),
    ];
    for (url, want) in table {
        assert_eq!(split(url), want, "{url}");
        assert_eq!(path_of(url), want.1, "{url}");
    }
}

/// The files a host serves at a URL: for each form of URL [`page_url`] gives in any
/// style, the file it was made from is among them (the inverse holds both ways).
#[test]
fn the_files_served_at_a_url_are_the_inverse_of_page_url() {
    let b = base("https://example.org/docs/");
    let files = |path: &str| -> Result<Vec<String>, NoFile> {
        let site = SitePath::of(&b, path)?;
        Ok((site.files().iter())
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect())
    };
    let ok = |v: &[&str]| Ok(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let table: &[(&str, Result<Vec<String>, NoFile>)] = &[
        ("/docs/", ok(&["index.html", "index.htm"])),
        ("/docs", ok(&["index.html", "index.htm"])),
        (
            "/docs/p",
            ok(&["p", "p.html", "p/index.html", "p/index.htm", "p.htm"]),
        ),
        (
            "/docs/p/",
            ok(&["p/index.html", "p/index.htm", "p.html", "p.htm"]),
        ),
        (
            "/docs/./a%20b/",
            ok(&["a b/index.html", "a b/index.htm", "a b.html", "a b.htm"]),
        ),
        ("/docs/../etc/passwd", Err(NoFile::DotDot)),
        ("/docs//a", Err(NoFile::BadName)),
        ("/docs/a%2Fb", Err(NoFile::BadName)),
        ("/other/", Err(NoFile::Outside)),
        ("/", Err(NoFile::Outside)),
    ];
    for (path, want) in table {
        assert_eq!(&files(path), want, "{path}");
    }
    let styles = [
        SLASH,
        UrlStyle {
            trailing_slash: false,
            clean_urls: true,
            clean_slash: false,
            dotted_bare: false,
        },
        UrlStyle {
            trailing_slash: true,
            clean_urls: true,
            clean_slash: true,
            dotted_bare: true,
        },
    ];
    for rel in [
        "index.html",
        "a b.html",
        "x/index.htm",
        "v1.2/index.html",
        "x/y.htm",
    ] {
        for style in &styles {
            let url = page_url(&b, Path::new(rel), style);
            let site = SitePath::of(&b, path_of(&url)).unwrap();
            assert!(
                site.files().contains(&rel.as_bytes().to_vec()),
                "{rel} at {url}"
            );
            assert_eq!(format!("{}{}", b.as_str(), site.suffix()), url, "{rel}");
        }
    }
}

#[test]
fn characters_that_need_encoding_are_named() {
    let table = [
        ("https://e.org/a%20b", None),
        ("https://e.org/a b", Some("a space")),
        ("https://e.org/ü", Some("non-ASCII 'ü'")),
        ("https://e.org/<x>", Some("'<'")),
        ("https://e.org/\"", Some("'\"'")),
        (
            "https://e.org/100%",
            Some("a '%' not followed by two hex digits"),
        ),
        (
            "https://e.org/%zz",
            Some("a '%' not followed by two hex digits"),
        ),
        ("https://e.org/a?b=c&d=e;f", None),
        ("https://e.org/a[1]", Some("'[' outside the host")),
        ("https://e.org/?q=]", Some("']' outside the host")),
        ("https://[2001:db8::1]/a", None),
        ("https://e.org/a#top", None),
        ("https://e.org/#a#b", Some("a second '#'")),
    ];
    for (loc, want) in table {
        assert_eq!(needs_encoding(loc).as_deref(), want, "{loc}");
    }
}
