//! The `sitemap.toml` that `init` writes.

use super::Detected;
use crate::generators::ALL;
// Every value read from the project is escaped for where it lands: a TOML string, or
// a comment, where a newline would start a line (a key) of its own.
use crate::text::{one_line as comment, toml_string};

/// The `sitemap.toml` for what was detected: every value filled in that could be, the
/// others commented with what to put there.
pub fn render(found: &Detected) -> String {
    let mut out = String::new();
    out.push_str("# sitemap.toml for sitemapgen: every key is described in sitemap.toml.example\n");
    out.push_str("# and docs/CONFIG.md. Run `sitemapgen` after building the site.\n\n");
    match (found.generator, &found.source) {
        (Some(g), Some(source)) => out.push_str(&format!(
            "# Written for {} (recognised by {}).\n",
            g.name,
            comment(&crate::text::slashed(source))
        )),
        _ => {
            out.push_str(
                "# No generator recognised: set public_dir to the directory your build writes:\n",
            );
            for g in ALL {
                out.push_str(&format!("#   {}: {}\n", g.name, g.public_dir));
            }
        }
    }
    for note in &found.notes {
        out.push_str(&format!("# Carried over: {}.\n", comment(note)));
    }
    for hint in &found.hints {
        out.push_str(&format!("# Hint: {}.\n", comment(hint)));
    }
    out.push('\n');
    let (host, built): (Vec<_>, Vec<_>) =
        (proposals(found).into_iter()).partition(|p| p.key == "hosting");
    for proposal in host {
        out.push_str(&proposal.text);
        out.push('\n');
    }
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
    render_source(&mut out, found);
    let excludes = found.generator.map_or(&[][..], |g| g.excludes);
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
            found.generator.map_or("", |g| g.name),
            list.join(", ")
        ));
    }
    for proposal in built {
        out.push_str(&proposal.text);
        out.push('\n');
    }
    // Top-level keys, before the first table; the tables suggested are commented, so a
    // key appended at the end of the file is a top-level key too.
    out.push_str(VIEWS);
    out.push_str(found.generator.map_or(
        "# [[rule]]\n# match = [\"blog/page/**\"]\n# exclude = true\n",
        |g| g.suggested_rules,
    ));
    render_sections(&mut out, found);
    out
}

/// The languages for a comment: the first few.
fn shown_languages(languages: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut shown = languages[..languages.len().min(SHOWN)].join(", ");
    if languages.len() > SHOWN {
        shown.push_str(", …");
    }
    shown
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
    if found.generator.is_some() || !found.content.is_empty() {
        out.push_str(
            "# Where modified dates come from, first found wins. \"source\" dates each page by\n\
             # its source file (see source.* below): the front matter's updated date, else the\n\
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

/// `source.*`: the generator and the sources' directories, for the `"source"` dates, as
/// dotted keys among the top-level keys (a `[source]` table would take in every key
/// appended after it).
fn render_source(out: &mut String, found: &Detected) {
    if found.generator.is_none() && found.content.is_empty() {
        return;
    }
    let content: Vec<String> = found.content.iter().map(|c| toml_string(c)).collect();
    let Some(generator) = found.generator else {
        out.push_str(&format!(
            "# How pages map to the files they are built from, for lastmod \"source\": with no\n\
             # generator named, each page is matched to the source whose text it holds.\n\
             # Where the pages' sources are, relative to this file.\n\
             source.content = [{}]\n\n",
            content.join(", ")
        ));
        return;
    };
    let updated: Vec<String> = generator.updated.iter().map(|k| toml_string(k)).collect();
    out.push_str(&format!(
        "# How pages map to the files they are built from, for lastmod \"source\".\n\
         source.generator = {}\n\
         # Where the pages' sources are, relative to this file.\n\
         source.content = [{}]\n\
         # Front-matter keys of a page's modified date, first present wins.\n\
         # source.updated = [{}]\n",
        toml_string(generator.id),
        content.join(", "),
        updated.join(", ")
    ));
    if let Some(permalink) = &found.permalink {
        out.push_str(&format!(
            "# The posts' URL pattern, from the generator's config.\nsource.permalink = {}\n",
            toml_string(permalink)
        ));
    }
    if let Some(lang) = &found.default_language {
        out.push_str(&format!(
            "# The language whose pages are at the root (translations go under their own).\n\
             source.default_language = {}\n",
            toml_string(lang)
        ));
    }
    out.push('\n');
}

/// The suggested sections, commented.
fn render_sections(out: &mut String, found: &Detected) {
    out.push_str(
        "\n# Sections: each gets sitemaps of its own (sitemap-blog-1-....xml), so a search\n\
         # console reports on each part of the site; the other pages go to the rest.\n",
    );
    let sections = found
        .generator
        .map_or(&[("blog", "blog/**")][..], |g| g.suggested_sections);
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

/// A key `init` proposes for what the built site holds or the host it deploys to,
/// commented (the owner decides): `init` writes each, `init --update` the ones a file
/// does not mention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// The top-level key.
    pub key: &'static str,
    /// Why it is proposed, one line.
    pub why: String,
    /// The lines written: comments that say why, then the key, commented.
    pub text: String,
}

/// What the built site and the host call for: `hosting`, `documents`, `split`.
pub fn proposals(found: &Detected) -> Vec<Proposal> {
    let mut proposals = Vec::new();
    if let Some(host) = &found.host {
        proposals.push(host_proposal(host));
    }
    if found.pdfs {
        proposals.push(Proposal {
            key: "documents",
            why: "the built site holds PDFs".to_string(),
            text: "# The built site holds PDFs: list them too (by the same rules, dated as pages\n\
                   # are, \"source\" by their file in the repository).\n\
                   # documents = [\"pdf\"]\n"
                .to_string(),
        });
    }
    if !found.languages.is_empty() {
        let shown = comment(&shown_languages(&found.languages));
        let n = found.languages.len();
        proposals.push(Proposal {
            key: "split",
            why: format!("the built site's pages are in {n} languages ({shown})"),
            text: format!(
                "# The built site's pages are in {n} languages ({shown}): one set of child sitemaps\n\
                 # per language (sitemap-en-1-....xml), so a search console reports each one.\n\
                 # split = \"language\"\n"
            ),
        });
    }
    proposals
}

/// The host the project deploys to: its files that are read, and how to name it.
fn host_proposal(host: &crate::host::Found) -> Proposal {
    let name = host.hosting.name();
    let files: Vec<String> = (host.files.iter())
        .map(|f| comment(&crate::text::slashed(f)))
        .collect();
    let mut text = match host.detected {
        true => format!("# The host: {name}, told by the project's files.\n"),
        false => format!(
            "# The host's files are read as {name} reads them; name the host if it is another:\n"
        ),
    };
    if !files.is_empty() {
        text.push_str(&format!(
            "# Its rules are read from {}: a page it serves with X-Robots-Tag: noindex, or\n\
             # redirects, is left out (host_config: false turns this off).\n",
            files.join(", ")
        ));
    }
    let example = match host.detected {
        true => name,
        false => "cloudflare",
    };
    text.push_str(&format!("# hosting = \"{example}\"\n"));
    let why = match files.is_empty() {
        true => format!("the project deploys to {name}"),
        false => format!(
            "the project deploys to {name}, whose rules are read from {}",
            files.join(", ")
        ),
    };
    Proposal {
        key: "hosting",
        why,
        text,
    }
}
