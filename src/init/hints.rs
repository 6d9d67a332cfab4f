//! What a new user of a generator meets on the first day, told by `init`: the
//! generator's own sitemap written over ours, old pages left in the output, our config
//! published with the site.

use std::path::Path;

use super::{Detected, Generator, read_text};

/// The hints for the project in `dir`, as recognised in `found`; each one line that
/// says what to change and where.
pub(super) fn for_project(found: &Detected, dir: &Path) -> Vec<String> {
    let (Some(generator), Some(source)) = (found.generator, &found.source) else {
        return Vec::new();
    };
    let config = read_text(&dir.join(source)).unwrap_or_default();
    let source = source.display();
    let mut hints = Vec::new();
    match generator {
        Generator::Hugo => {
            if !(config.contains("disableKinds") && names_sitemap(&config)) {
                hints.push(format!(
                    "Hugo writes its own sitemap.xml over ours on every build: add disableKinds = [\"sitemap\"] to {source}"
                ));
            }
            hints.push(
                "Hugo leaves removed pages in public/: build with `hugo --cleanDestinationDir`, then run sitemapgen".into(),
            );
        }
        Generator::Zola if !zola_sitemap_off(&config) => hints.push(format!(
            "Zola writes its own sitemap.xml over ours on every build: add generate_sitemap = false to {source} (Zola 0.19 and later)"
        )),
        Generator::Jekyll => {
            if !config.contains("sitemap.toml") {
                hints.push(format!(
                    "Jekyll publishes every file of the source: add sitemap.toml to exclude: in {source}, or it is copied to _site/sitemap.toml"
                ));
            }
            if config.contains("jekyll-sitemap") {
                hints.push(format!(
                    "jekyll-sitemap writes its own sitemap.xml over ours on every build: remove it from plugins: in {source} (and the Gemfile)"
                ));
            }
        }
        _ => {}
    }
    hints
}

/// Whether Zola's `config.toml` sets `generate_sitemap = false` (a comment naming the
/// key is not enough).
fn zola_sitemap_off(config: &str) -> bool {
    let table = config.parse::<toml::Table>().ok();
    table.and_then(|t| t.get("generate_sitemap")?.as_bool()) == Some(false)
}

/// Whether a config names the `sitemap` kind in a list (`"sitemap"`, `'sitemap'` or a
/// YAML `- sitemap`), not only a `[sitemap]` table.
fn names_sitemap(config: &str) -> bool {
    config.contains("\"sitemap\"")
        || config.contains("'sitemap'")
        || config.lines().any(|l| l.trim() == "- sitemap")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints(generator: Generator, name: &str, config: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), config).unwrap();
        let mut found = Detected::new(generator, name.into());
        found.generator = Some(generator);
        for_project(&found, dir.path())
    }

    #[test]
    fn hints_are_given_until_the_config_follows_them() {
        use Generator::*;
        let table: &[(Generator, &str, &str, &[&str])] = &[
            (
                Hugo,
                "hugo.toml",
                "baseURL = 'x'\n",
                &[
                    "disableKinds = [\"sitemap\"] to hugo.toml",
                    "--cleanDestinationDir",
                ],
            ),
            (
                Hugo,
                "hugo.toml",
                "disableKinds = [\"sitemap\", \"RSS\"]\n",
                &["--cleanDestinationDir"],
            ),
            (
                Hugo,
                "hugo.yaml",
                "disableKinds:\n  - sitemap\n",
                &["--cleanDestinationDir"],
            ),
            (
                Hugo,
                "hugo.toml",
                "disableKinds = ['RSS']\n[sitemap]\nchangefreq = 'daily'\n",
                &["disableKinds", "--cleanDestinationDir"],
            ),
            (
                Zola,
                "config.toml",
                "base_url = 'x'\n",
                &["generate_sitemap = false to config.toml"],
            ),
            (Zola, "config.toml", "generate_sitemap = false\n", &[]),
            (
                Zola,
                "config.toml",
                "# generate_sitemap = true (the default)\n",
                &["generate_sitemap = false"],
            ),
            (
                Zola,
                "config.toml",
                "generate_sitemap = true\n",
                &["generate_sitemap = false"],
            ),
            (
                Jekyll,
                "_config.yml",
                "url: x\nplugins:\n  - jekyll-sitemap\n",
                &[
                    "add sitemap.toml to exclude: in _config.yml",
                    "remove it from plugins: in _config.yml",
                ],
            ),
            (Jekyll, "_config.yml", "exclude: [sitemap.toml]\n", &[]),
            (Astro, "astro.config.mjs", "export default {}", &[]),
        ];
        for (generator, name, config, want) in table {
            let got = hints(*generator, name, config);
            assert_eq!(got.len(), want.len(), "{config}: {got:?}");
            for (got, want) in got.iter().zip(want.iter()) {
                assert!(got.contains(want), "{config}: {got} lacks {want}");
            }
        }
    }
}
