//! The `sitemap.toml` that `init` writes.

use super::{Detected, Generator};

/// The `sitemap.toml` for what was detected: every value filled in that could be, the
/// others commented with what to put there.
pub fn render(found: &Detected) -> String {
    let mut out = String::new();
    out.push_str("# sitemap.toml for sitemapgen: every key is described in sitemap.toml.example\n");
    out.push_str("# and the README. Run `sitemapgen` after building the site.\n\n");
    match (found.generator, &found.source) {
        (Some(g), Some(source)) => out.push_str(&format!(
            "# Written for {} (recognised by {}).\n",
            g.name(),
            source.display()
        )),
        _ => {
            out.push_str(
                "# No generator recognised: set public_dir to the directory your build writes:\n",
            );
            for g in Generator::ALL {
                out.push_str(&format!("#   {}: {}\n", g.name(), g.public_dir()));
            }
        }
    }
    for note in &found.notes {
        out.push_str(&format!("# Carried over: {note}.\n"));
    }
    for hint in &found.hints {
        out.push_str(&format!("# Hint: {hint}.\n"));
    }
    out.push('\n');
    out.push_str("# The site's public address; every URL in the sitemap starts with it.\n");
    match &found.base_url {
        Some(url) => out.push_str(&format!("base_url = {}\n\n", toml_string(url))),
        None => out.push_str(
            "# Not found in the generator's config: set it (or pass --base-url).\n\
             # base_url = \"https://example.org/\"\n\n",
        ),
    }
    out.push_str("# The built site, relative to this file.\n");
    out.push_str(&format!(
        "public_dir = {}\n\n",
        toml_string(&found.public_dir)
    ));
    render_style(&mut out, found);
    render_lastmod(&mut out, found);
    let excludes = found.generator.map_or(&[][..], Generator::excludes);
    if excludes.is_empty() {
        out.push_str(
            "# Pages to leave out, as globs relative to public_dir.\n\
             # exclude = [\"drafts/**\"]\n\n",
        );
    } else {
        let list: Vec<String> = excludes.iter().map(|e| toml_string(e)).collect();
        out.push_str(&format!(
            "# Pages to leave out, as globs relative to public_dir: those {}'s own sitemap\n\
             # leaves out.\nexclude = [{}]\n\n",
            found.generator.map_or("", Generator::name),
            list.join(", ")
        ));
    }
    // Top-level keys, before the first table.
    out.push_str(VIEWS);
    out.push_str(found.generator.map_or(
        "# [[rule]]\n# match = [\"blog/page/**\"]\n# exclude = true\n",
        Generator::suggested_rules,
    ));
    render_sections(&mut out, found.generator);
    render_source(&mut out, found);
    out
}

/// The views, commented: each is a choice the site's owner makes.
const VIEWS: &str =
    "# A page of links to every listed page, titled and grouped as the sitemap is, for
# visitors: public_dir/sitemap.html (browsers no longer show sitemaps with XSLT).
# html_sitemap = true

# llms.txt (llmstxt.org): the site's pages with their titles and descriptions, for
# language models; llms-full.txt beside it holds their main content as Markdown.
# llms_txt = true
# llms_txt_max_pages = 300
# llms_full_txt = true
# site_name = \"My site\"        # default: the home page's title

";

/// `lastmod`: from the pages' sources when the generator's routing is known.
fn render_lastmod(out: &mut String, found: &Detected) {
    if found.source_setup.is_some() {
        out.push_str(
            "# Where modified dates come from, first found wins. \"source\" dates each page by\n\
             # its source file (see [source] below): the front matter's updated date, else the\n\
             # source's last commit (check out the full history: fetch-depth: 0); a list page\n\
             # by the newest page below it. \"meta\" is a modified date in the page's head.\n\
             # Pages neither dates get no lastmod, never the build time (add \"mtime\" for it).\n\
             lastmod = [\"source\", \"meta\"]\n\n",
        );
    } else {
        out.push_str(
            "# Where modified dates come from, first found wins. In CI every file's mtime is\n\
             # the build time: add \"git\" (with fetch-depth: 0) or \"content\" before \"mtime\".\n\
             lastmod = [\"meta\", \"mtime\"]\n\n",
        );
    }
}

/// `[source]`: the routing and the sources' directories, for the `"source"` dates.
fn render_source(out: &mut String, found: &Detected) {
    let Some(setup) = &found.source_setup else {
        return;
    };
    let content: Vec<String> = setup.content.iter().map(|c| toml_string(c)).collect();
    let updated: Vec<String> = setup
        .routing
        .default_updated()
        .iter()
        .map(|k| toml_string(k))
        .collect();
    out.push_str(&format!(
        "\n# How pages map to the files they are built from, for lastmod \"source\".\n\
         [source]\n\
         generator = {}\n\
         # Where the pages' sources are, relative to this file.\n\
         content = [{}]\n\
         # Front-matter keys of a page's modified date, first present wins.\n\
         # updated = [{}]\n",
        toml_string(setup.routing.name()),
        content.join(", "),
        updated.join(", ")
    ));
    if let Some(permalink) = &setup.permalink {
        out.push_str(&format!(
            "# The posts' URL pattern, from the generator's config.\npermalink = {}\n",
            toml_string(permalink)
        ));
    }
}

/// The suggested sections, commented.
fn render_sections(out: &mut String, generator: Option<Generator>) {
    out.push_str(
        "\n# Sections: each gets sitemaps of its own (sitemap-blog-1-....xml), so a search\n\
         # console reports on each part of the site; the other pages go to the rest.\n",
    );
    let sections = generator.map_or(&[("blog", "blog/**")][..], Generator::suggested_sections);
    for (name, glob) in sections {
        out.push_str(&format!(
            "# [[section]]\n# name = {}\n# match = [{}]\n",
            toml_string(name),
            toml_string(glob)
        ));
    }
}

fn render_style(out: &mut String, found: &Detected) {
    if found.trailing_slash.is_none() && found.clean_urls.is_none() {
        return;
    }
    out.push_str("# How files map to URLs, as the generator links its pages.\n");
    if let Some(v) = found.trailing_slash {
        out.push_str(&format!("trailing_slash = {v}\n"));
    }
    if let Some(v) = found.clean_urls {
        out.push_str(&format!("clean_urls = {v}\n"));
    }
    out.push('\n');
}

/// A TOML basic string.
fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

impl Generator {
    /// Rules for the pages that generator makes which rarely belong in a sitemap
    /// (pagination, taxonomy lists), written commented out: a matter of taste.
    pub(super) fn suggested_rules(self) -> &'static str {
        match self {
            Generator::Hugo | Generator::Zola => {
                "# Pagination pages (/posts/page/2/) and taxonomy lists (/tags/, /categories/):\n\
                 # [[rule]]\n\
                 # match = [\"**/page/*/index.html\", \"tags/**\", \"categories/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Jekyll => {
                "# jekyll-paginate pages (/page2/, /blog/page3/) and tag or category archives:\n\
                 # [[rule]]\n\
                 # match = [\"**/page[0-9]*/index.html\", \"tag/**\", \"category/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Hexo => {
                "# Tag and category lists and their pagination:\n\
                 # [[rule]]\n\
                 # match = [\"tags/**\", \"categories/**\"]\n\
                 # exclude = true\n"
            }
            Generator::Docusaurus => {
                "# Blog pagination, tag and author pages, and the search page:\n\
                 # [[rule]]\n\
                 # match = [\"blog/page/**\", \"**/tags/**\", \"blog/authors/**\", \"search/index.html\"]\n\
                 # exclude = true\n"
            }
            Generator::Pelican => {
                "# Tag, category, author and archive lists, and index pagination (index2.html):\n\
                 # [[rule]]\n\
                 # match = [\"tag/**\", \"category/**\", \"author/**\", \"tags.html\", \"categories.html\", \"authors.html\", \"archives.html\", \"index[0-9]*.html\"]\n\
                 # exclude = true\n"
            }
            Generator::Nikola => {
                "# Tag and category lists, archives and index pagination (index-2.html):\n\
                 # [[rule]]\n\
                 # match = [\"categories/**\", \"archive/**\", \"archive.html\", \"index-[0-9]*.html\"]\n\
                 # exclude = true\n"
            }
            Generator::MkDocs
            | Generator::Sphinx
            | Generator::VitePress
            | Generator::VuePress
            | Generator::MdBook
            | Generator::Quarto
            | Generator::Rspress => {
                "# Pages to give a higher priority, e.g. the guides:\n\
                 # [[rule]]\n\
                 # match = [\"guide/**\"]\n\
                 # priority = 0.8\n"
            }
            Generator::Eleventy
            | Generator::Astro
            | Generator::Next
            | Generator::Nuxt
            | Generator::Gatsby
            | Generator::SvelteKit => {
                "# Pagination and tag pages, if your templates make them (e.g. /blog/2/, /tags/x/):\n\
                 # [[rule]]\n\
                 # match = [\"blog/[0-9]*/index.html\", \"tags/**\"]\n\
                 # exclude = true\n"
            }
        }
    }
}

impl Generator {
    /// Sections for the generator's usual layout, `(name, glob)`: suggested commented,
    /// since which parts of a site deserve their own report is the owner's call.
    pub(super) fn suggested_sections(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Generator::Hugo => &[("posts", "posts/**")],
            // Dated permalinks (/2024/03/05/title.html) by default.
            Generator::Jekyll | Generator::Hexo => &[("posts", "[0-9][0-9][0-9][0-9]/**")],
            Generator::Zola
            | Generator::Eleventy
            | Generator::Astro
            | Generator::Next
            | Generator::Nuxt
            | Generator::Gatsby
            | Generator::SvelteKit => &[("blog", "blog/**")],
            Generator::Docusaurus => &[("docs", "docs/**"), ("blog", "blog/**")],
            Generator::MkDocs
            | Generator::Sphinx
            | Generator::VitePress
            | Generator::VuePress
            | Generator::MdBook
            | Generator::Quarto
            | Generator::Rspress => &[("guide", "guide/**"), ("api", "api/**")],
            Generator::Pelican => &[("pages", "pages/**")],
            Generator::Nikola => &[("posts", "posts/**"), ("pages", "pages/**")],
        }
    }
}
