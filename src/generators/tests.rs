//! Each generator's routing: sections and bundles, URL overrides, dated posts by their
//! permalink, number prefixes, slugs, and what builds no page.

use std::path::Path;

use super::*;
use crate::lastmod::source::front_matter;

type Case<'a> = (
    &'static Generator,
    &'a str,
    &'a str,
    &'a str,
    Option<&'a str>,
    &'a [&'a str],
);

const NONE: &str = "";

/// Checks each case: the output paths a source may be built to, in any order.
fn assert_routes(table: &[Case]) {
    for (routing, dir, rel, fm_text, permalink, want) in table {
        let fm = front_matter::parse(fm_text, &[]);
        let source = Source {
            dir,
            rel: Path::new(rel),
            fm: &fm,
        };
        let cx = Context {
            permalink: *permalink,
            ..Context::default()
        };
        let mut got = (routing.route)(&cx, source);
        got.sort();
        let mut want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
        want.sort();
        assert_eq!(
            got, want,
            "{routing:?} {dir} {rel} {fm_text:?} {permalink:?}"
        );
    }
}

/// Each generator's hints, given until its config follows them.
#[test]
fn hints_are_given_until_the_config_follows_them() {
    let table: &[(&Generator, &str, &str, &[&str])] = &[
        (
            &HUGO,
            "hugo.toml",
            "baseURL = 'x'\n",
            &[
                "disableKinds = [\"sitemap\"] to hugo.toml",
                "--cleanDestinationDir",
            ],
        ),
        (
            &HUGO,
            "hugo.toml",
            "disableKinds = [\"sitemap\", \"RSS\"]\n",
            &["--cleanDestinationDir"],
        ),
        (
            &HUGO,
            "hugo.yaml",
            "disableKinds:\n  - sitemap\n",
            &["--cleanDestinationDir"],
        ),
        (
            &HUGO,
            "hugo.toml",
            "disableKinds = ['RSS']\n[sitemap]\nchangefreq = 'daily'\n",
            &["disableKinds", "--cleanDestinationDir"],
        ),
        (
            &ZOLA,
            "config.toml",
            "base_url = 'x'\n",
            &["generate_sitemap = false to config.toml"],
        ),
        (&ZOLA, "config.toml", "generate_sitemap = false\n", &[]),
        (
            &ZOLA,
            "config.toml",
            "# generate_sitemap = true (the default)\n",
            &["generate_sitemap = false"],
        ),
        (
            &ZOLA,
            "config.toml",
            "generate_sitemap = true\n",
            &["generate_sitemap = false"],
        ),
        (
            &JEKYLL,
            "_config.yml",
            "url: x\nplugins:\n  - jekyll-sitemap\n",
            &[
                "add sitemap.toml to exclude: in _config.yml",
                "remove it from plugins: in _config.yml",
            ],
        ),
        (&JEKYLL, "_config.yml", "exclude: [sitemap.toml]\n", &[]),
        (&ASTRO, "astro.config.mjs", "export default {}", &[]),
    ];
    for (generator, name, config, want) in table {
        let project = Project {
            dir: std::path::Path::new("/nonexistent"),
            config: std::path::Path::new(name),
            text: config,
        };
        let got = (generator.hints)(&project);
        assert_eq!(got.len(), want.len(), "{config}: {got:?}");
        for (got, want) in got.iter().zip(want.iter()) {
            assert!(got.contains(want), "{config}: {got} lacks {want}");
        }
    }
}

/// Every description sets what `Generator::BASE` only holds a place for, and the list
/// holds each once.
#[test]
fn every_generator_is_described_in_full() {
    let project = Path::new("/nonexistent");
    for g in ALL {
        assert!(
            !g.id.is_empty() && !g.name.is_empty() && !g.public_dir.is_empty(),
            "{g:?}"
        );
        assert!(!g.markers.is_empty() && !g.content.is_empty(), "{g:?}");
        assert!(
            !g.extensions.is_empty() && !g.suggested_rules.is_empty(),
            "{g:?}"
        );
        assert!(!g.suggested_sections.is_empty(), "{g:?}");
        assert_eq!(ALL.iter().filter(|o| o.id == g.id).count(), 1, "{g:?}");
        // Its own routing: a page source at the top of its first content folder is a
        // page (a Next or SvelteKit route file, a Nikola post, an mdBook chapter...).
        let name = match g.id {
            "next" => "about/page.tsx",
            "sveltekit" => "about/+page.svelte",
            "nuxt" => "about.vue",
            "gatsby" => "about.js",
            "quarto" => "about.qmd",
            "nikola" => "about.rst",
            _ => "about.md",
        };
        let fm = FrontMatter::default();
        let source = Source {
            dir: g.content[0],
            rel: Path::new(name),
            fm: &fm,
        };
        assert!(
            !(g.route)(&Context::default(), source).is_empty(),
            "{g:?} routes no page"
        );
        let mut settings = Settings::of(g);
        let text = String::new();
        let marker = g.markers[0].paths().remove(0);
        let p = Project {
            dir: project,
            config: Path::new(&marker),
            text: &text,
        };
        (g.read_config)(&mut settings, &p);
        assert!(!settings.public_dir.is_empty(), "{g:?}");
    }
}

mod defaults;
mod frameworks;
mod patterns;
mod setups;

/// The flags a `package.json` script gives a command, in either form, and none for
/// another command's.
#[test]
fn script_flags_are_read_from_package_json() {
    let json = r#"{"scripts": {"build": "npx @11ty/eleventy --input=src --output dist",
        "lint": "eslint --input=nope"}}"#;
    let flag = |f| read::script_flag(json, "eleventy", f);
    assert_eq!(flag("--input").as_deref(), Some("src"));
    assert_eq!(flag("--output").as_deref(), Some("dist"));
    assert_eq!(read::script_flag(json, "eslint", "--output"), None);
    assert_eq!(read::script_flag("not json", "eleventy", "--input"), None);
}
