use super::*;
use std::fs;

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
    Option<Generator>,
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

/// Hugo, Zola, Jekyll and Hexo: TOML and YAML configs.
#[test]
fn recognises_hugo_zola_jekyll_and_hexo() {
    use Generator::*;
    assert_detected(&[
        (
            &[("hugo.toml", "baseURL = 'https://h.example/'\ntitle = 'x'\n")],
            Some(Hugo),
            Some("https://h.example/"),
            "public",
        ),
        (
            &[(
                "hugo.yaml",
                "baseURL: https://h.example\npublishDir: dist\n",
            )],
            Some(Hugo),
            Some("https://h.example/"),
            "dist",
        ),
        (
            &[("hugo.json", "{\"baseURL\": \"https://h.example/\"}")],
            Some(Hugo),
            Some("https://h.example/"),
            "public",
        ),
        (
            &[("config.toml", "baseURL = \"https://h.example/docs/\"\n")],
            Some(Hugo),
            Some("https://h.example/docs/"),
            "public",
        ),
        (
            &[(
                "config.toml",
                "base_url = \"https://z.example\"\noutput_dir = \"out\"\n",
            )],
            Some(Zola),
            Some("https://z.example/"),
            "out",
        ),
        (
            &[(
                "_config.yml",
                "title: x\nurl: \"https://j.example\" # the host\nbaseurl: /blog\n",
            )],
            Some(Jekyll),
            Some("https://j.example/blog/"),
            "_site",
        ),
        (
            &[(
                "_config.yml",
                "url: https://j.example\ndestination: ./build/\n",
            )],
            Some(Jekyll),
            Some("https://j.example/"),
            "build",
        ),
        (
            &[("_config.yml", "title: no url\n")],
            Some(Jekyll),
            None,
            "_site",
        ),
        // Hexo's _config.yml, by its keys or by package.json.
        (
            &[(
                "_config.yml",
                "url: http://example.com\nroot: /\nnew_post_name: :title.md\npublic_dir: public\n",
            )],
            Some(Hexo),
            Some("http://example.com/"),
            "public",
        ),
        (
            &[
                ("_config.yml", "url: https://x.example/blog\nroot: /blog/\n"),
                ("package.json", "{\"dependencies\": {\"hexo\": \"^8.0.0\"}}"),
            ],
            Some(Hexo),
            Some("https://x.example/blog/"),
            "public",
        ),
        (
            &[(
                "_config.yml",
                "url: https://x.example\nroot: /blog/\npretty_urls:\n  trailing_index: true\n",
            )],
            Some(Hexo),
            Some("https://x.example/blog/"),
            "public",
        ),
    ]);
}

/// Eleventy, Astro, Next, Docusaurus and VitePress: JavaScript configs.
#[test]
fn recognises_the_javascript_generators() {
    use Generator::*;
    assert_detected(&[
        (
            &[(".eleventy.js", "module.exports = function(c) {};\n")],
            Some(Eleventy),
            None,
            "_site",
        ),
        (
            &[
                (
                    "eleventy.config.js",
                    "export const config = { dir: { input: 'content', output: 'dist' }, pathPrefix: '/site/' };\n",
                ),
                (
                    "content/_data/metadata.js",
                    "export default { title: 'x', url: 'https://e.example/' };\n",
                ),
            ],
            Some(Eleventy),
            Some("https://e.example/site/"),
            "dist",
        ),
        (
            &[(
                "astro.config.mjs",
                "export default defineConfig({\n  site: 'https://a.example',\n  base: '/docs',\n});\n",
            )],
            Some(Astro),
            Some("https://a.example/docs/"),
            "dist",
        ),
        (
            &[("next.config.js", "module.exports = { output: 'export' };\n")],
            Some(Next),
            None,
            "out",
        ),
        (
            &[(
                "docusaurus.config.js",
                "const config = {\n  title: 'D',\n  url: 'https://d.example',\n  baseUrl: '/',\n};\n",
            )],
            Some(Docusaurus),
            Some("https://d.example/"),
            "build",
        ),
        (
            &[(
                "docusaurus.config.ts",
                "export default {\n  \"url\": \"https://d.example\",\n  baseUrl: '/site/',\n  themeConfig: { navbar: { url: 'nope' } },\n};\n",
            )],
            Some(Docusaurus),
            Some("https://d.example/site/"),
            "build",
        ),
        (
            &[(
                "docs/.vitepress/config.mts",
                "export default defineConfig({\n  sitemap: { hostname: 'https://v.example' },\n})\n",
            )],
            Some(VitePress),
            Some("https://v.example/"),
            "docs/.vitepress/dist",
        ),
        (
            &[(
                ".vitepress/config.js",
                "export default { base: '/guide/', outDir: '../public', sitemap: { hostname: 'https://v.example/' } }\n",
            )],
            Some(VitePress),
            Some("https://v.example/guide/"),
            "../public",
        ),
    ]);
}

/// MkDocs, Sphinx and Pelican.
#[test]
fn recognises_the_python_generators() {
    use Generator::*;
    assert_detected(&[
        (
            &[(
                "mkdocs.yml",
                "site_name: M\nsite_url: https://m.example/docs/\n",
            )],
            Some(MkDocs),
            Some("https://m.example/docs/"),
            "site",
        ),
        (
            &[("mkdocs.yml", "site_name: M\nsite_dir: build/site\n")],
            Some(MkDocs),
            None,
            "build/site",
        ),
        (
            &[(
                "conf.py",
                "project = 'S'\nhtml_baseurl = 'https://s.example/'\n",
            )],
            Some(Sphinx),
            Some("https://s.example/"),
            "_build/html",
        ),
        (
            &[("docs/source/conf.py", "project = 'S'\nextensions = []\n")],
            Some(Sphinx),
            None,
            "docs/build/html",
        ),
        (
            &[
                ("docs/conf.py", "project = 'S'\n"),
                ("docs/Makefile", "SPHINXOPTS ?=\nBUILDDIR      = out\n"),
            ],
            Some(Sphinx),
            None,
            "docs/out/html",
        ),
        (
            &[
                ("pelicanconf.py", "SITEURL = ''\nPATH = 'content'\n"),
                (
                    "publishconf.py",
                    "from pelicanconf import *\nSITEURL = \"https://p.example\"\n",
                ),
            ],
            Some(Pelican),
            Some("https://p.example/"),
            "output",
        ),
        (
            &[(
                "pelicanconf.py",
                "SITEURL = 'https://p.example'\nOUTPUT_PATH = 'public/'\n",
            )],
            Some(Pelican),
            Some("https://p.example/"),
            "public",
        ),
    ]);
}

/// Which marker wins, and what is not a base URL or a generator.
#[test]
fn recognises_precedence_and_what_is_not_recognised() {
    use Generator::*;
    assert_detected(&[
        // Both present: the specific marker wins over Jekyll's generic name.
        (
            &[
                ("_config.yml", "url: https://j.example\n"),
                ("hugo.toml", "baseURL = 'https://h.example/'\n"),
            ],
            Some(Hugo),
            Some("https://h.example/"),
            "public",
        ),
        // A relative or missing base URL is not one; a conf.py of something else is not Sphinx.
        (
            &[("hugo.toml", "baseURL = '/'\n")],
            Some(Hugo),
            None,
            "public",
        ),
        (&[("conf.py", "DEBUG = True\n")], None, None, "public"),
        (&[("package.json", "{}")], None, None, "public"),
    ]);
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
    for generator in none.chain(Generator::ALL.into_iter().map(Some)) {
        for base_url in [None, Some("https://e.example/a \"b\"/".to_string())] {
            let mut found = match generator {
                Some(g) => Detected::new(g, PathBuf::from("x")),
                None => Detected::none(),
            };
            found.base_url = base_url.clone();
            found.trailing_slash = Some(false);
            let text = render(&found);
            let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(
                table.get("base_url").and_then(|v| v.as_str()),
                base_url.as_deref()
            );
            let want = generator.map_or("public", Generator::public_dir);
            assert_eq!(table.get("public_dir").and_then(|v| v.as_str()), Some(want));
            let excludes = generator.map_or(&[][..], Generator::excludes);
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
    for generator in Generator::ALL {
        let specs: Vec<crate::sections::SectionSpec> = generator
            .suggested_sections()
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
