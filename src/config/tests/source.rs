//! `[source]`: what the `"source"` lastmod source needs, its routes and folders.

use super::*;

/// `[source]`: what the `"source"` lastmod source needs, and its defaults.
#[test]
fn the_source_table_is_checked_and_filled_in() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            format!("{b}lastmod = ['source', 'meta']\n"),
            &[
                "sitemap.toml:2:11",
                "lastmod",
                "needs [source] generator = one of hugo, zola",
                "sitemapgen init writes it",
            ],
        ),
        (
            // (Content folders alone are a [source]: their pages are matched by text.)
            format!("{b}[source]\nupdated = ['changed']\n"),
            &[
                "sitemap.toml:2:1",
                "source",
                "has no generator",
                "one of hugo",
                "content = [\"notes\"]",
            ],
        ),
        (
            format!("{b}[source]\ngenerator = 'gatsbi'\n"),
            &[
                "sitemap.toml:3:13",
                "source.generator",
                "'gatsbi' is not a generator whose sources are known (did you mean gatsby?)",
                "sphinx",
            ],
        ),
        (
            format!("{b}[source]\ngenerator = 'hugo'\ncontnet = ['x']\n"),
            &["unknown key `contnet`; did you mean `content`?"],
        ),
    ]);
    let c = load(&format!(
        "{b}lastmod = ['source', 'meta']\n[source]\ngenerator = 'docusaurus'\n"
    ))
    .unwrap();
    let source = c.source.unwrap();
    assert_eq!(source.generator.map(|g| g.id), Some("docusaurus"));
    assert_eq!(
        source.content,
        [PathBuf::from("docs"), "blog".into(), "src/pages".into()]
    );
    assert_eq!(source.updated, ["last_update.date"]);
    assert_eq!(source.project, std::env::temp_dir());
    let c = load(&format!("{b}[source]\ngenerator = 'jekyll'\ncontent = ['site']\nupdated = ['changed']\npermalink = 'pretty'\n")).unwrap();
    let source = c.source.unwrap();
    assert_eq!(
        (source.content, source.updated, source.permalink.as_deref()),
        (
            vec![PathBuf::from("site")],
            vec!["changed".to_string()],
            Some("pretty")
        )
    );
}

/// `[[source.route]]`: a generator sitemapgen does not know is described by routes;
/// their folders are read as content; a bad glob or URL is named with its place.
#[test]
fn source_routes_are_checked_and_read_as_content() {
    let b = "base_url = 'https://example.org/'\n";
    let c = load(&format!(
        "{b}[source]\ngenerator = 'mytool'\n[[source.route]]\nfrom = 'notes/**/*.md'\nto = '/n/{{path}}/'\n"
    ))
    .unwrap();
    let source = c.source.unwrap();
    assert_eq!(source.generator, None);
    assert_eq!(source.content, [PathBuf::from("notes")]);
    assert_eq!(source.routes.len(), 1);
    assert!(source.updated.contains(&"updated".to_string()));
    assert_errors(&[
        (
            format!("{b}[source]\n[[source.route]]\nfrom = 'a/[x'\nto = '/{{path}}/'\n"),
            &[
                "sitemap.toml:4:8",
                "source.route",
                "'a/[x' is not a valid glob",
            ],
        ),
        (
            format!("{b}[source]\n[[source.route]]\nfrom = 'a/*.md'\nto = '{{path}}'\n"),
            &["sitemap.toml:5:6", "source.route", "must start with /"],
        ),
        (
            format!("{b}[source]\n[[source.route]]\nfrom = 'a/*.md'\n"),
            &["missing field `to`"],
        ),
    ]);
}

/// `[source] content` names folders of the project: an absolute path or a step up
/// (`..`) is refused, naming the key and the value at its place; a relative folder is
/// kept.
#[test]
fn source_content_stays_in_the_project() {
    let b = "base_url = 'https://example.org/'\n[source]\ngenerator = 'hugo'\n";
    let table: [(&str, Option<&str>); 9] = [
        ("/", Some("is an absolute path")),
        ("/etc", Some("is an absolute path")),
        ("..", Some("leads out of the project (..)")),
        ("../site", Some("leads out of the project (..)")),
        ("docs/../../x", Some("leads out of the project (..)")),
        ("content", None),
        ("./docs", None),
        ("site/content", None),
        (".", None),
    ];
    for (value, problem) in table {
        let text = format!("{b}content = ['ok', '{value}']\n");
        let Some(problem) = problem else {
            let source = load(&text).unwrap().source.unwrap();
            assert_eq!(source.content[1], PathBuf::from(value));
            continue;
        };
        assert_errors(&[(
            text,
            &[
                "sitemap.toml:4:18",
                &format!("source.content: '{value}' {problem}"),
                "give a folder relative to the project",
            ],
        )]);
    }
    // A route's folder is read as content too.
    assert_errors(&[(
        format!("{b}[[source.route]]\nfrom = '../x/*.md'\nto = '/{{path}}/'\n"),
        &[
            "sitemap.toml:5:8",
            "source.route: '../x/*.md' leads out of the project (..)",
        ],
    )]);
}
