//! The configuration reference (docs/CONFIG.md) and `sitemap.toml.example` name exactly
//! the keys `sitemap.toml` takes, read from the config's own definition (`FileConfig`'s
//! fields, as serde sees them), so neither can drift from the code; and the defaults the
//! reference gives are the code's.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};

/// The keys a struct's `Deserialize` asks for: serde names them when it asks a
/// deserializer for the struct, and this one answers with them as its error.
fn fields_of<'de, T: de::Deserialize<'de>>() -> Vec<&'static str> {
    match T::deserialize(Fields) {
        Err(Found(fields)) => fields.to_vec(),
        Ok(_) => unreachable!("Fields never gives a value"),
    }
}

struct Fields;

#[derive(Debug)]
struct Found(&'static [&'static str]);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Found(&[])
    }
}

impl<'de> Deserializer<'de> for Fields {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found(&[]))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found(fields))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
        identifier ignored_any
    }
}

/// The keys of `keys` that `text` shows as written (`key =`, `[key]`, `[[key]]`), commented
/// out or not.
fn shown_in(text: &str, keys: &BTreeSet<String>) -> BTreeSet<String> {
    let shown = |key: &String| {
        [format!("{key} ="), format!("[{key}]"), format!("[[{key}]]")]
            .iter()
            .any(|w| text.contains(w.as_str()))
    };
    keys.iter().filter(|k| shown(k)).cloned().collect()
}

#[test]
fn the_reference_and_the_example_name_every_key_and_no_other() {
    let keys: BTreeSet<String> = fields_of::<sitemapgen::config::FileConfig>()
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert!(keys.contains("base_url") && keys.len() > 30, "{keys:?}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("docs/CONFIG.md")).unwrap();
    // Each row of the reference's tables: `| `key` |`, `| `[source]` |`, `| `[[rule]]` |`.
    let rows: BTreeSet<String> = reference
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(|k| k.trim_matches(['[', ']']).to_string())
        .filter(|k| !k.is_empty() && !k.contains(' '))
        .collect();
    let undocumented: Vec<_> = keys.difference(&rows).collect();
    assert!(
        undocumented.is_empty(),
        "docs/CONFIG.md has no row for {undocumented:?}"
    );
    let unknown: Vec<_> = rows.difference(&keys).collect();
    assert!(
        unknown.is_empty(),
        "docs/CONFIG.md documents keys sitemap.toml does not take: {unknown:?}"
    );
    let example = std::fs::read_to_string(root.join("sitemap.toml.example")).unwrap();
    let shown = shown_in(&example, &keys);
    let missing: Vec<_> = keys.difference(&shown).collect();
    assert!(
        missing.is_empty(),
        "sitemap.toml.example does not show {missing:?}"
    );
}

/// The rows of the reference whose default is not a value one could write, each with
/// what it says instead: a new row lands here only by choice.
const DEFAULTS_IN_WORDS: [&str; 16] = [
    "google",
    "bing",
    "base_url",
    "source",
    "indexnow_key",
    "stylesheet",
    "site_name",
    "split",
    "default_language",
    "hosting",
    "host_headers",
    "shard",
    "shards",
    "defaults",
    "rule",
    "section",
];

/// Keys that apply only beside another, which both configs then hold.
const NEEDS: [(&str, &str); 4] = [
    ("llms_txt_max_pages", "llms_txt = true\n"),
    ("llms_full_txt", "llms_txt = true\n"),
    ("llms_markdown", "llms_txt = true\n"),
    ("llms_links", "llms_txt = true\n"),
];

/// What the reference (and the README's table) says each key's default is, written into
/// a config, gives the configuration the key left out gives: the docs' defaults are the
/// code's.
#[test]
fn the_reference_gives_the_codes_defaults() {
    let keys = fields_of::<sitemapgen::config::FileConfig>();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |doc: &str| std::fs::read_to_string(root.join(doc)).unwrap();
    // The README's table of the keys most sites set, in its Configuration section.
    let readme = read("README.md");
    let configuration = readme
        .split("\n## ")
        .find(|s| s.starts_with("Configuration\n"));
    let reference = read("docs/CONFIG.md") + configuration.expect("README: ## Configuration");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("public")).unwrap();
    let load = |text: &str| {
        let file = dir.path().join("sitemap.toml");
        std::fs::write(&file, format!("base_url = 'https://example.org/'\n{text}")).unwrap();
        let overrides = sitemapgen::config::Overrides::default();
        match sitemapgen::Config::load(Some(&file), &overrides) {
            Ok(config) => format!("{config:#?}"),
            Err(err) => panic!("{text}: {err}"),
        }
    };
    let mut tried = 0;
    for row in reference.lines().filter_map(|l| l.strip_prefix("| `")) {
        let mut cells = row.split(" | ");
        let key = cells.next().unwrap().trim_end_matches('`');
        let key = key.trim_matches(['[', ']']);
        let default = cells.next().unwrap_or_default();
        if DEFAULTS_IN_WORDS.contains(&key) || !keys.contains(&key) {
            continue;
        }
        let value = default.strip_prefix('`').and_then(|d| d.split('`').next());
        let value = value.unwrap_or_else(|| panic!("{key}: default {default:?} is no value"));
        let needs = NEEDS.iter().find(|(k, _)| *k == key).map_or("", |(_, n)| n);
        assert_eq!(
            load(&format!("{needs}{key} = {value}\n")),
            load(needs),
            "the docs say {key} defaults to {value}, and the code's default differs"
        );
        tried += 1;
    }
    assert!(tried > 30, "{tried}");
}
