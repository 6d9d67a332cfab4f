//! The configuration reference (docs/CONFIG.md) and `sitemap.toml.example` name exactly
//! the keys `sitemap.toml` takes, read from the config's own definition (`FileConfig`'s
//! fields, as serde sees them), so neither can drift from the code.

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
