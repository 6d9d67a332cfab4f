//! What `init` recognises: each generator by its config, and what wins or is not one.

use super::*;

/// Hugo, Zola, Jekyll and Hexo: TOML and YAML configs.
#[test]
fn recognises_hugo_zola_jekyll_and_hexo() {
    use crate::generators::*;
    assert_detected(&[
        (
            &[("hugo.toml", "baseURL = 'https://h.example/'\ntitle = 'x'\n")],
            Some(&HUGO),
            Some("https://h.example/"),
            "public",
        ),
        (
            &[(
                "hugo.yaml",
                "baseURL: https://h.example\npublishDir: dist\n",
            )],
            Some(&HUGO),
            Some("https://h.example/"),
            "dist",
        ),
        (
            &[("hugo.json", "{\"baseURL\": \"https://h.example/\"}")],
            Some(&HUGO),
            Some("https://h.example/"),
            "public",
        ),
        (
            &[("config.toml", "baseURL = \"https://h.example/docs/\"\n")],
            Some(&HUGO),
            Some("https://h.example/docs/"),
            "public",
        ),
        (
            &[(
                "config.toml",
                "base_url = \"https://z.example\"\noutput_dir = \"out\"\n",
            )],
            Some(&ZOLA),
            Some("https://z.example/"),
            "out",
        ),
        (
            &[(
                "_config.yml",
                "title: x\nurl: \"https://j.example\" # the host\nbaseurl: /blog\n",
            )],
            Some(&JEKYLL),
            Some("https://j.example/blog/"),
            "_site",
        ),
        (
            &[(
                "_config.yml",
                "url: https://j.example\ndestination: ./build/\n",
            )],
            Some(&JEKYLL),
            Some("https://j.example/"),
            "build",
        ),
        (
            &[("_config.yml", "title: no url\n")],
            Some(&JEKYLL),
            None,
            "_site",
        ),
        // Hexo's _config.yml, by its keys or by package.json.
        (
            &[(
                "_config.yml",
                "url: http://example.com\nroot: /\nnew_post_name: :title.md\npublic_dir: public\n",
            )],
            Some(&HEXO),
            Some("http://example.com/"),
            "public",
        ),
        (
            &[
                ("_config.yml", "url: https://x.example/blog\nroot: /blog/\n"),
                ("package.json", "{\"dependencies\": {\"hexo\": \"^8.0.0\"}}"),
            ],
            Some(&HEXO),
            Some("https://x.example/blog/"),
            "public",
        ),
        (
            &[(
                "_config.yml",
                "url: https://x.example\nroot: /blog/\npretty_urls:\n  trailing_index: true\n",
            )],
            Some(&HEXO),
            Some("https://x.example/blog/"),
            "public",
        ),
    ]);
}

/// Eleventy, Astro, Next, Docusaurus and VitePress: JavaScript configs.
#[test]
fn recognises_the_javascript_generators() {
    use crate::generators::*;
    assert_detected(&[
        (
            &[(".eleventy.js", "module.exports = function(c) {};\n")],
            Some(&ELEVENTY),
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
            Some(&ELEVENTY),
            Some("https://e.example/site/"),
            "dist",
        ),
        (
            &[(
                "astro.config.mjs",
                "export default defineConfig({\n  site: 'https://a.example',\n  base: '/docs',\n});\n",
            )],
            Some(&ASTRO),
            Some("https://a.example/docs/"),
            "dist",
        ),
        (
            &[("next.config.js", "module.exports = { output: 'export' };\n")],
            Some(&NEXT),
            None,
            "out",
        ),
        (
            &[(
                "docusaurus.config.js",
                "const config = {\n  title: 'D',\n  url: 'https://d.example',\n  baseUrl: '/',\n};\n",
            )],
            Some(&DOCUSAURUS),
            Some("https://d.example/"),
            "build",
        ),
        (
            &[(
                "docusaurus.config.ts",
                "export default {\n  \"url\": \"https://d.example\",\n  baseUrl: '/site/',\n  themeConfig: { navbar: { url: 'nope' } },\n};\n",
            )],
            Some(&DOCUSAURUS),
            Some("https://d.example/site/"),
            "build",
        ),
        (
            &[(
                "docs/.vitepress/config.mts",
                "export default defineConfig({\n  sitemap: { hostname: 'https://v.example' },\n})\n",
            )],
            Some(&VITEPRESS),
            Some("https://v.example/"),
            "docs/.vitepress/dist",
        ),
        (
            &[(
                ".vitepress/config.js",
                "export default { base: '/guide/', outDir: '../public', sitemap: { hostname: 'https://v.example/' } }\n",
            )],
            Some(&VITEPRESS),
            Some("https://v.example/guide/"),
            "../public",
        ),
    ]);
}

/// MkDocs, Sphinx and Pelican.
#[test]
fn recognises_the_python_generators() {
    use crate::generators::*;
    assert_detected(&[
        (
            &[(
                "mkdocs.yml",
                "site_name: M\nsite_url: https://m.example/docs/\n",
            )],
            Some(&MKDOCS),
            Some("https://m.example/docs/"),
            "site",
        ),
        (
            &[("mkdocs.yml", "site_name: M\nsite_dir: build/site\n")],
            Some(&MKDOCS),
            None,
            "build/site",
        ),
        (
            &[(
                "conf.py",
                "project = 'S'\nhtml_baseurl = 'https://s.example/'\n",
            )],
            Some(&SPHINX),
            Some("https://s.example/"),
            "_build/html",
        ),
        (
            &[("docs/source/conf.py", "project = 'S'\nextensions = []\n")],
            Some(&SPHINX),
            None,
            "docs/build/html",
        ),
        (
            &[
                ("docs/conf.py", "project = 'S'\n"),
                ("docs/Makefile", "SPHINXOPTS ?=\nBUILDDIR      = out\n"),
            ],
            Some(&SPHINX),
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
            Some(&PELICAN),
            Some("https://p.example/"),
            "output",
        ),
        (
            &[(
                "pelicanconf.py",
                "SITEURL = 'https://p.example'\nOUTPUT_PATH = 'public/'\n",
            )],
            Some(&PELICAN),
            Some("https://p.example/"),
            "public",
        ),
    ]);
}

/// Which marker wins, and what is not a base URL or a generator.
#[test]
fn recognises_precedence_and_what_is_not_recognised() {
    use crate::generators::*;
    assert_detected(&[
        // Both present: the specific marker wins over Jekyll's generic name.
        (
            &[
                ("_config.yml", "url: https://j.example\n"),
                ("hugo.toml", "baseURL = 'https://h.example/'\n"),
            ],
            Some(&HUGO),
            Some("https://h.example/"),
            "public",
        ),
        // A relative or missing base URL is not one; a conf.py of something else is not Sphinx.
        (
            &[("hugo.toml", "baseURL = '/'\n")],
            Some(&HUGO),
            None,
            "public",
        ),
        (&[("conf.py", "DEBUG = True\n")], None, None, "public"),
        (&[("package.json", "{}")], None, None, "public"),
    ]);
}
