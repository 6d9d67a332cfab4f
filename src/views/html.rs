//! `sitemap.html`: every listed page as a link titled as the page is, grouped as the
//! sitemap is, in the site's language; light and dark, readable on a phone, no script
//! and nothing fetched from elsewhere. Every value is escaped.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

use super::groups::Group;
use super::tree::{Folder, tree};
use super::view::{View, ViewError, Written};
use super::{HTML, Page, SiteFacts};

/// The page's style: the system's fonts and colours that pass WCAG AA contrast in both
/// schemes.
const STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#555;--link:#0645ad;--rule:#ddd}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#121212;--muted:#b5b5b5;--link:#8ab4f8;--rule:#333}}
body{margin:0 auto;max-width:48rem;padding:1rem;font:1rem/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem;padding-top:.5rem;border-top:1px solid var(--rule)}
p{margin:.25rem 0}
.muted{color:var(--muted)}
ul{padding-left:1.25rem}
li{margin:.25rem 0;overflow-wrap:anywhere}
summary{cursor:pointer}
li:has(>details){list-style:none}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
";

/// Up to how many pages the page shows every folder open; past it, folders start
/// closed, so a browser lays out the headings and counts rather than every link (find
/// in page still opens them).
const OPEN_UP_TO: usize = 2_000;

/// What the HTML view shows.
pub(super) struct Shown<'a> {
    pub site: &'a SiteFacts,
    pub pages: &'a [Page<'a>],
    pub groups: &'a [Group],
    /// Each page's date after its link (`html_sitemap_dates`).
    pub dates: bool,
}

/// Writes `sitemap.html`.
pub(super) fn write(view: &View, written: &mut Written) -> Result<(), ViewError> {
    let shown = Shown {
        site: view.facts,
        pages: view.pages,
        groups: view.groups,
        dates: view.settings.html_sitemap_dates,
    };
    let path = view.save(&HTML, Path::new(HTML.name), |out| render(out, &shown))?;
    written.html = Some(path);
    Ok(())
}

/// The HTML view, written into `out`.
pub(super) fn render(out: &mut dyn Write, shown: &Shown) -> io::Result<()> {
    let (site, pages, groups) = (shown.site, shown.pages, shown.groups);
    // The page's own words ("pages", "the XML sitemap") are English: the language
    // when the home page names none.
    let lang = site.lang.as_deref().unwrap_or("en");
    let name = escape(&site.name);
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>",
        escape(lang)
    )?;
    writeln!(out, "<meta charset=\"utf-8\">")?;
    writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    writeln!(out, "<meta name=\"generator\" content=\"{}\">", HTML.mark)?;
    writeln!(out, "<title>Sitemap: {name}</title>")?;
    writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>")?;
    writeln!(out, "<header>\n<h1>{name}</h1>")?;
    if let Some(description) = &site.description {
        writeln!(out, "<p>{}</p>", escape(description))?;
    }
    let sitemap = site.path_of(&site.sitemap_url);
    let sitemap = escape(&sitemap);
    let count = crate::text::count(pages.len(), "page", "pages");
    writeln!(
        out,
        "<p class=\"muted\">{count}; also as <a href=\"{sitemap}\">the XML sitemap</a>.</p>\n</header>\n<main>"
    )?;
    if groups.len() > 1 {
        contents(out, groups)?;
    }
    for (n, group) in groups.iter().enumerate() {
        section(out, shown, group, n + 1)?;
    }
    writeln!(out, "</main>\n</body>\n</html>")
}

/// The list of groups, each a link to its part of the page.
fn contents(out: &mut dyn Write, groups: &[Group]) -> io::Result<()> {
    writeln!(out, "<nav aria-label=\"Sections\">\n<ul>")?;
    for (n, group) in groups.iter().enumerate() {
        writeln!(
            out,
            "<li><a href=\"#s{}\">{}</a> <span class=\"muted\">({})</span></li>",
            n + 1,
            escape(&group.name),
            group.pages.len()
        )?;
    }
    writeln!(out, "</ul>\n</nav>")
}

/// One group: its heading, then its pages as the tree of their folders.
fn section(out: &mut dyn Write, shown: &Shown, group: &Group, n: usize) -> io::Result<()> {
    writeln!(
        out,
        "<section aria-labelledby=\"s{n}\">\n<h2 id=\"s{n}\">{}</h2>",
        escape(&group.name)
    )?;
    let tree = tree(shown.pages, &group.pages);
    folder(out, shown, &tree)?;
    writeln!(out, "</section>")
}

/// A folder's pages, then each of its folders, closed or open, under its name and count.
fn folder(out: &mut dyn Write, shown: &Shown, folder: &Folder) -> io::Result<()> {
    writeln!(out, "<ul>")?;
    for &i in &folder.pages {
        link(out, shown, &shown.pages[i])?;
    }
    let open = if shown.pages.len() <= OPEN_UP_TO {
        " open"
    } else {
        ""
    };
    for child in &folder.folders {
        writeln!(
            out,
            "<li><details{open}><summary>{} <span class=\"muted\">({})</span></summary>",
            escape(&child.name),
            child.count
        )?;
        self::folder(out, shown, child)?;
        writeln!(out, "</details></li>")?;
    }
    writeln!(out, "</ul>")
}

/// One page: a link titled as the page is, and its date when asked for.
fn link(out: &mut dyn Write, shown: &Shown, page: &Page) -> io::Result<()> {
    let site = shown.site;
    let rest = escape(page.rest);
    write!(out, "<li><a href=\"{}{rest}\">", escape(&site.base_path))?;
    // A page without a title is shown by its URL, as the sitemap lists it.
    match page.title() {
        Some(title) => write!(out, "{}", escape(title))?,
        None => write!(out, "{}{rest}", escape(&site.base_url))?,
    }
    write!(out, "</a>")?;
    if let (true, Some(lastmod)) = (shown.dates, page.lastmod) {
        let day = lastmod.strftime("%Y-%m-%d");
        write!(
            out,
            " <time class=\"muted\" datetime=\"{day}\">{day}</time>"
        )?;
    }
    writeln!(out, "</li>")
}

/// `s` as HTML text or attribute value: markup characters escaped, and control
/// characters (which HTML forbids, and bidirectional ones, which could show a link
/// reversed) dropped; borrowed when there is nothing to change,
/// as for most titles and URLs.
fn escape(s: &str) -> Cow<'_, str> {
    if s.chars().any(crate::text::is_control) {
        let clean: String = s.chars().filter(|&c| !crate::text::is_control(c)).collect();
        return Cow::Owned(quick_xml::escape::escape(clean.as_str()).into_owned());
    }
    quick_xml::escape::escape(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped() {
        let table = [
            ("plain", "plain"),
            (
                "<script>alert(1)</script>",
                "&lt;script&gt;alert(1)&lt;/script&gt;",
            ),
            ("a \"b\" & 'c'", "a &quot;b&quot; &amp; &apos;c&apos;"),
            ("bell\u{7}nul\u{0}", "bellnul"),
            ("Café 日本語", "Café 日本語"),
        ];
        for (value, want) in table {
            assert_eq!(escape(value), want, "{value}");
        }
    }
}
