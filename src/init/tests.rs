use super::*;
use std::fs;

mod detect;

fn detect_in(files: &[(&str, &str)]) -> Detected {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    detect(dir.path())
}

type Case<'a> = (
    &'a [(&'a str, &'a str)],
    Option<&'static Generator>,
    Option<&'a str>,
    &'a str,
);

/// Checks each case: the generator, base URL and output directory detected.
fn assert_detected(table: &[Case]) {
    for (files, generator, url, public_dir) in table {
        let found = detect_in(files);
        assert_eq!(found.generator, *generator, "{files:?}");
        assert_eq!(found.base_url.as_deref(), *url, "{files:?}");
        assert_eq!(found.public_dir, *public_dir, "{files:?}");
    }
}

#[test]
fn url_styles_are_carried_over() {
    let table: &[(&str, &str, Option<bool>, Option<bool>)] = &[
        (
            "docusaurus.config.js",
            "module.exports = { url: 'https://d.example', trailingSlash: false }",
            Some(false),
            Some(true),
        ),
        (
            "docusaurus.config.js",
            "module.exports = { url: 'https://d.example', trailingSlash: true }",
            Some(true),
            None,
        ),
        (
            "docusaurus.config.js",
            "module.exports = { url: 'https://d.example' }",
            None,
            None,
        ),
        (
            "astro.config.mjs",
            "export default { site: 'https://a.example', trailingSlash: 'never' }",
            Some(false),
            None,
        ),
        (
            "astro.config.mjs",
            "export default { site: 'https://a.example', build: { format: 'file' } }",
            Some(false),
            Some(true),
        ),
        (
            "astro.config.mjs",
            "export default { site: 'https://a.example', trailingSlash: 'always' }",
            Some(true),
            None,
        ),
        (
            "next.config.js",
            "module.exports = { output: 'export' }",
            Some(false),
            Some(true),
        ),
        (
            "next.config.js",
            "module.exports = { output: 'export', trailingSlash: true }",
            Some(true),
            None,
        ),
        (
            ".vitepress/config.mts",
            "export default { cleanUrls: true }",
            None,
            Some(true),
        ),
        ("nuxt.config.ts", "export default {}", Some(false), None),
        (
            "nuxt.config.ts",
            "export default { site: { url: 'https://n.example', trailingSlash: true } }",
            Some(true),
            None,
        ),
        ("gatsby-config.js", "module.exports = {}", Some(true), None),
        (
            "gatsby-config.js",
            "module.exports = { trailingSlash: 'never' }",
            Some(false),
            None,
        ),
        (
            "gatsby-config.js",
            "module.exports = { trailingSlash: 'ignore' }",
            None,
            None,
        ),
        (
            "svelte.config.js",
            "export default {}",
            Some(false),
            Some(true),
        ),
    ];
    for (name, text, trailing_slash, clean_urls) in table {
        let found = detect_in(&[(name, text)]);
        assert_eq!(found.trailing_slash, *trailing_slash, "{text}");
        assert_eq!(found.clean_urls, *clean_urls, "{text}");
        let rendered = render(&found);
        if let Some(v) = trailing_slash {
            assert!(
                rendered.contains(&format!("\ntrailing_slash = {v}\n")),
                "{rendered}"
            );
        }
    }
}

#[test]
fn the_file_written_is_a_valid_config() {
    let none = std::iter::once(None);
    for generator in none.chain(crate::generators::ALL.into_iter().map(Some)) {
        for base_url in [None, Some("https://e.example/a \"b\"/".to_string())] {
            let mut found = Detected::none();
            if let Some(g) = generator {
                found.generator = Some(g);
                found.source = Some(PathBuf::from("x"));
                found.settings = crate::generators::Settings::of(g);
            }
            found.settings.base_url = base_url.clone();
            found.settings.trailing_slash = Some(false);
            found.pdfs = true;
            // Undetected: `hosting` is suggested, commented.
            found.host = Some(crate::host::Found {
                hosting: crate::host::Hosting::Netlify,
                detected: false,
                files: vec![PathBuf::from("public/_redirects")],
            });
            let text = render(&found);
            let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(
                table.get("base_url").and_then(|v| v.as_str()),
                base_url.as_deref()
            );
            let want = generator.map_or("public", |g| g.public_dir);
            assert_eq!(table.get("public_dir").and_then(|v| v.as_str()), Some(want));
            let excludes = generator.map_or(&[][..], |g| g.excludes);
            let written: Vec<&str> = table
                .get("exclude")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            assert_eq!(written, excludes, "{text}");
            // Uncommenting the suggested rules gives valid rules too.
            let uncommented: String = text
                .lines()
                .map(|l| {
                    l.strip_prefix("# ")
                        .filter(|r| r.starts_with('[') || r.contains(" = "))
                        .filter(|r| !r.starts_with("exclude") || excludes.is_empty())
                        .unwrap_or(l)
                })
                .collect::<Vec<_>>()
                .join("\n");
            crate::config::FileConfig::parse(&uncommented, "sitemap.toml")
                .unwrap_or_else(|e| panic!("{e}\n{uncommented}"));
            assert!(uncommented.contains("\n[[section]]\nname = "), "{text}");
        }
    }
}

#[test]
fn suggested_sections_are_valid_sections() {
    for generator in crate::generators::ALL {
        let specs: Vec<crate::sections::SectionSpec> = generator
            .suggested_sections
            .iter()
            .map(|(name, glob)| {
                assert_eq!(crate::sections::name_problem(name), None, "{name}");
                crate::sections::SectionSpec {
                    name: name.to_string(),
                    globs: vec![glob.to_string()],
                }
            })
            .collect();
        assert!(!specs.is_empty(), "{generator:?}");
        crate::sections::Sections::new(&specs).unwrap();
    }
}

mod frameworks;

/// Every value read from the project lands escaped: in a TOML string or in a comment,
/// none adds a key or leaves a raw control or bidi character.
#[test]
fn values_from_the_project_are_escaped_where_they_land() {
    let hostile = "x\nrespect_noindex = false\n#\u{1b}\u{202e}\u{2069}";
    let mut found = Detected::none();
    found.generator = Some(&crate::generators::JEKYLL);
    found.source = Some(PathBuf::from(hostile));
    found.settings = crate::generators::Settings::of(&crate::generators::JEKYLL);
    found.settings.base_url = Some(hostile.to_string());
    found.settings.public_dir = hostile.to_string();
    found.settings.content = vec![hostile.to_string()];
    found.settings.permalink = Some(hostile.to_string());
    found.settings.default_language = Some(hostile.to_string());
    found.settings.notes = vec![hostile.to_string()];
    found.hints = vec![hostile.to_string()];
    let text = render(&found);
    let raw = |c: char| c != '\n' && crate::text::is_control(c);
    assert!(!text.chars().any(raw), "{text:?}");
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(!table.contains_key("respect_noindex"), "{text}");
    let source = table["source"].as_table().unwrap();
    let values = [
        &table["base_url"],
        &table["public_dir"],
        &source["content"][0],
        &source["permalink"],
        &source["default_language"],
    ];
    for value in values {
        assert_eq!(value.as_str(), Some(hostile), "{text}");
    }
    let shown = "x\\nrespect_noindex = false\\n#\\u{1b}\\u{202e}\\u{2069}";
    for line in ["# Carried over: ", "# Hint: ", "(recognised by "] {
        assert!(text.contains(&format!("{line}{shown}")), "{line}: {text}");
    }
}

#[test]
fn the_host_and_its_files_are_named_and_its_url_form_written() {
    let found = detect_in(&[
        ("hugo.toml", "baseURL = 'https://h.example/'\n"),
        ("netlify.toml", "[build]\npublish = 'public'\n"),
        ("public/_headers", "/drafts/*\n  X-Robots-Tag: noindex\n"),
    ]);
    let host = found.host.clone().unwrap();
    assert_eq!(
        (host.hosting, host.detected),
        (crate::host::Hosting::Netlify, true)
    );
    assert_eq!(
        host.files,
        [Path::new("public/_headers"), Path::new("netlify.toml")]
    );
    let text = render(&found);
    assert!(
        text.contains("# The host: netlify, told by the project's files.\n"),
        "{text}"
    );
    assert!(
        text.contains("# Its rules are read from public/_headers, netlify.toml:"),
        "{text}"
    );

    let found = detect_in(&[(
        "vercel.json",
        r#"{"cleanUrls": true, "trailingSlash": false}"#,
    )]);
    let text = render(&found);
    assert!(
        text.contains("trailing_slash = false\nclean_urls = true\n"),
        "{text}"
    );
    assert!(
        text.contains("# Carried over: trailing_slash from vercel.json's trailingSlash: false."),
        "{text}"
    );
    crate::config::FileConfig::parse(&text, "sitemap.toml").unwrap();

    // PDFs in the built site: documents offered.
    let found = detect_in(&[("public/papers/a.pdf", "%PDF"), ("public/index.html", "")]);
    assert!(render(&found).contains("\n# documents = [\"pdf\"]\n"));
    assert!(!render(&detect_in(&[("public/index.html", "")])).contains("documents"));
    // `_redirects` alone: read as Netlify reads them, and how to name another host.
    let found = detect_in(&[("public/_redirects", "/a /b 301!\n")]);
    assert!(render(&found).contains("# hosting = \"cloudflare\"\n"));
    assert_eq!(detect_in(&[]).host, None);
}

/// A key appended at the end of the file `init` writes is a top-level key: the
/// generator's settings are dotted keys, the tables suggested are commented.
#[test]
fn a_key_appended_to_the_file_written_is_a_top_level_key() {
    let found = detect_in(&[
        (
            "hugo.toml",
            "baseURL = 'https://h.example/'\ndefaultContentLanguage = 'de'\n",
        ),
        ("public/a.pdf", "%PDF"),
    ]);
    let text = render(&found) + "robots_txt = \"update\"\n";
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(table["robots_txt"].as_str(), Some("update"), "{text}");
    assert_eq!(
        table["source"]["generator"].as_str(),
        Some("hugo"),
        "{text}"
    );
    crate::config::FileConfig::parse(&text, "sitemap.toml").unwrap();
}

/// `update` adds, commented and before the first table, each proposal the file neither
/// sets nor mentions, and keeps every byte of the file; a second run adds nothing.
#[test]
fn update_adds_what_is_missing_and_keeps_every_byte() {
    let mut found = Detected::none();
    found.pdfs = true;
    found.languages = vec!["de".to_string(), "en".to_string()];
    let path = Path::new("sitemap.toml");
    let mine = "base_url = 'https://x.example/'  # mine\r\nsplit = 'section'\n\n# about source\n[source]\ngenerator = \"hugo\"\n[[section]]\nname = 'a'\nmatch = ['a/**']\n";
    let updated = update(path, mine, &found).unwrap();
    let keys: Vec<&str> = updated.added.iter().map(|p| p.key).collect();
    assert_eq!(keys, ["documents"]);
    let at = mine.find("[source]").unwrap();
    let inserted = &updated.text[at..updated.text.len() - (mine.len() - at)];
    assert_eq!(
        format!("{}{inserted}{}", &mine[..at], &mine[at..]),
        updated.text
    );
    assert!(
        inserted.ends_with("# documents = [\"pdf\"]\n\n"),
        "{inserted}"
    );
    let before: toml::Table = mine.parse().unwrap();
    let after: toml::Table = updated.text.parse().unwrap();
    assert_eq!(before, after);
    // Uncommented, the key is a top-level one.
    let uncommented = updated.text.replace("# documents = ", "documents = ");
    let table: toml::Table = uncommented.parse().unwrap();
    assert!(table.contains_key("documents"), "{uncommented}");
    let again = update(path, &updated.text, &found).unwrap();
    assert_eq!((again.added, again.text), (vec![], updated.text.clone()));

    // No table: at the end, on a line of its own.
    let updated = update(path, "base_url = 'https://x.example/'", &found).unwrap();
    assert!(
        updated
            .text
            .starts_with("base_url = 'https://x.example/'\n\n# The built site holds PDFs"),
        "{}",
        updated.text
    );
    // What init writes has every proposal already.
    let written = render(&found);
    assert!(update(path, &written, &found).unwrap().added.is_empty());
    // Not TOML: refused, with the file's name.
    let e = update(path, "a = 1\n[source\n", &found)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("sitemap.toml:2: not valid TOML ("), "{e}");
}
