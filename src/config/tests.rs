use super::*;
use crate::rules::Priority;

mod errors;
mod source;

fn load(text: &str) -> Result<Config, ConfigError> {
    let dir = std::env::temp_dir();
    let file = FileConfig::parse(text, "sitemap.toml")?;
    let overrides = Overrides {
        public_dir: Some(dir.clone()),
        ..Overrides::default()
    };
    Config::from_parts(file, Some((&dir, "sitemap.toml")), text, &overrides)
}

fn error(text: &str) -> String {
    load(text).unwrap_err().to_string()
}

/// Each config of `table` fails with a one-line error holding every expected part.
fn assert_errors(table: &[(String, &[&str])]) {
    for (text, wants) in table {
        let err = error(text);
        assert!(!err.contains('\n'), "not one line: {err}");
        for want in *wants {
            assert!(
                err.contains(want),
                "config {text:?}\n  error {err:?}\n  lacks {want:?}"
            );
        }
    }
}

#[test]
fn a_full_config_loads() {
    let c = load(
        r#"
base_url = "https://example.org/docs"
output = "maps/sitemap.xml"
extensions = [".HTML", "htm"]
exclude = ["drafts/**"]
trailing_slash = false
clean_urls = true
follow_symlinks = true
max_urls_per_file = 10
lastmod = "none"
lastmod_format = "date"
respect_noindex = false
noindex_agents = ["Robots", "googlebot"]
skip_redirects = false
respect_canonical = false
alternates = false
state_file = "cache/state.json"
respect_robots = false
robots_agent = "Googlebot"
robots_txt = "leave"
[defaults]
changefreq = "weekly"
priority = 1
[[rule]]
match = "blog/**"
changefreq = "daily"
priority = 0.8
[[rule]]
match = ["blog/page/**", "tags/**"]
exclude = true
"#,
    )
    .unwrap();
    assert_eq!(c.base_url.as_str(), "https://example.org/docs/");
    assert_eq!(
        c.output,
        Output::File(std::env::temp_dir().join("maps/sitemap.xml"))
    );
    assert_eq!(c.extensions, ["html", "htm"]);
    assert!(!c.url_style.trailing_slash && c.url_style.clean_urls && c.follow_symlinks);
    assert_eq!(c.max_urls_per_file, 10);
    assert_eq!(c.lastmod, [LastmodSource::None]);
    assert_eq!(c.lastmod_format, LastmodFormat::Date);
    assert!(!c.head.any());
    assert_eq!(c.head.noindex_agents, ["robots", "googlebot"]);
    assert_eq!(c.state_file, std::env::temp_dir().join("cache/state.json"));
    assert!(!c.respect_robots);
    assert_eq!(
        (c.robots_agent.as_str(), c.robots_txt),
        ("googlebot", RobotsTxt::Leave)
    );
    let v = c.rules.apply(Path::new("tags/x.html"), &mut Vec::new());
    assert!(v.excluded.is_some());
    assert_eq!(v.priority.map(Priority::get), Some(1.0));
    let c = load("base_url = 'https://example.org'\nrobots_txt = 'create'").unwrap();
    assert_eq!(c.robots_txt, RobotsTxt::Create);
}

#[test]
fn defaults_apply_when_keys_are_absent() {
    let c = load("base_url = 'https://example.org'").unwrap();
    assert_eq!(
        c.output,
        Output::File(std::env::temp_dir().join("sitemap.xml"))
    );
    assert_eq!(c.extensions, ["html", "htm"]);
    assert!(c.url_style.trailing_slash && !c.url_style.clean_urls && !c.follow_symlinks);
    assert_eq!(c.max_urls_per_file, 50_000);
    assert_eq!(c.lastmod, [LastmodSource::Meta, LastmodSource::Mtime]);
    assert_eq!(c.lastmod_format, LastmodFormat::Datetime);
    let all_on = HeadRules {
        respect_noindex: true,
        noindex_agents: vec!["robots".into()],
        skip_redirects: true,
        respect_canonical: true,
        alternates: true,
    };
    assert_eq!(c.head, all_on);
    assert_eq!(
        c.state_file,
        std::env::temp_dir().join(".sitemap-state.json")
    );
}

#[test]
fn flags_override_the_file() {
    let dir = std::env::temp_dir();
    let text = "base_url = 'https://example.org/'\npublic_dir = 'nowhere'\noutput = 'x.xml'";
    let file = FileConfig::parse(text, "s.toml").unwrap();
    let overrides = Overrides {
        public_dir: Some(dir.clone()),
        base_url: Some("https://other.example/".into()),
        output: Some(PathBuf::from("-")),
        threads: Some(3),
        ..Overrides::default()
    };
    let c =
        Config::from_parts(file, Some((Path::new("conf"), "s.toml")), text, &overrides).unwrap();
    assert_eq!(c.threads, 3);
    assert_eq!(c.base_url.as_str(), "https://other.example/");
    assert_eq!(c.public_dir, dir);
    assert_eq!(c.output, Output::Stdout);
}

#[test]
fn public_dir_must_exist_and_be_a_directory() {
    let text = "base_url = 'https://example.org/'\npublic_dir = 'surely-not-here'";
    let file = FileConfig::parse(text, "s.toml").unwrap();
    let err = Config::from_parts(
        file,
        Some((Path::new(""), "s.toml")),
        text,
        &Overrides::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("public_dir 'surely-not-here' cannot be read"),
        "{err}"
    );
    assert!(err.contains("build the site first"), "{err}");
    let no_dir = Config::from_parts(
        FileConfig::default(),
        None,
        "",
        &Overrides {
            base_url: Some("https://example.org/".into()),
            ..Overrides::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(no_dir.starts_with("public_dir is not set"), "{no_dir}");
}

/// The settings a run ignores, each named with how to make it count.
#[test]
fn settings_that_do_nothing_are_warnings() {
    let b = "base_url = 'https://example.org/'\n";
    let unused = |text: &str, overrides: Overrides| {
        let dir = std::env::temp_dir();
        let file = FileConfig::parse(text, "sitemap.toml").unwrap();
        let overrides = Overrides {
            public_dir: Some(dir.clone()),
            ..overrides
        };
        let config = Config::from_parts(file, Some((&dir, "sitemap.toml")), text, &overrides);
        let unused = config.unwrap().unused.into_iter();
        unused.map(|u| u.to_string()).collect::<Vec<_>>()
    };
    let none = Overrides::default;
    assert_eq!(
        unused(
            &format!("{b}lastmod = ['meta', 'none', 'git']\n[source]\ngenerator = 'hugo'"),
            none()
        ),
        [
            "sitemap.toml:3:1: [source] does nothing: lastmod does not name \"source\", which alone reads it; write lastmod = [\"source\", \"meta\"]"
        ]
    );
    assert_eq!(
        unused(&format!("{b}[source]\ngenerator = 'hugo'"), none()),
        [
            "sitemap.toml:2:1: [source] does nothing: lastmod does not name \"source\", which alone reads it; write lastmod = [\"source\", \"meta\", \"mtime\"]"
        ]
    );
    assert!(
        unused(
            &format!("{b}lastmod = ['source']\n[source]\ngenerator = 'hugo'"),
            none()
        )
        .is_empty()
    );
    let flags = Overrides {
        base_url: Some("https://preview.example.org/".into()),
        output: Some(std::env::temp_dir().join("x.xml")),
        format: Some(Format::Txt),
        ..Overrides::default()
    };
    let warned = unused(&format!("{b}output = 'map.xml'\nformat = 'xml'"), flags);
    assert_eq!(warned.len(), 3, "{warned:?}");
    assert_eq!(
        warned[0],
        "sitemap.toml:1:12: base_url does nothing: --base-url https://preview.example.org/ overrides it this run; drop the flag or the key"
    );
    assert!(warned[1].starts_with("sitemap.toml:2:10: output does nothing: --output "));
    assert_eq!(
        warned[2],
        "sitemap.toml: format does nothing: --format txt overrides it this run; drop the flag or the key"
    );
    let same = Overrides {
        base_url: Some("https://example.org/".into()),
        ..Overrides::default()
    };
    assert!(unused(b, same).is_empty());
    let shards =
        format!("{b}[[shards]]\nname = 'docs'\nmatch = 'docs/**'\n[[shards]]\nname = 'rest'");
    assert_eq!(
        unused(&shards, none()),
        [
            "sitemap.toml:3:8: [[shards]] does nothing: this build is no shard's (neither shard = nor --shard), so it maps the whole site; build each shard with --shard NAME, then join them with sitemapgen merge"
        ]
    );
    let docs = Overrides {
        shard: Some("docs".into()),
        ..Overrides::default()
    };
    assert!(unused(&shards, docs).is_empty());
}
