//! `llms.txt` (llmstxt.org): `# ` the site's name, `> ` its description, a paragraph
//! saying what the list holds, then one `## ` part per group with
//! `- [Title](URL): description` per page, at most `llms_txt_max_pages` of them,
//! the shallowest first (a section's index page before its leaves).
//!
//! Written so the format's reference parser (`llms_txt.parse_llms_txt`) reads it: no
//! `]` in a link's text nor `)` in its URL, each part's heading on one line.

use std::io::{self, Write};

use super::view::View;
use super::{LLMS, Page, SiteFacts, TWINS};

/// Which pages `llms.txt` lists when there are more than `max`: the `max` shallowest
/// (fewest path segments: a section's index before its pages), by URL among equals.
/// `true` for each page listed.
pub(super) fn select(pages: &[Page], max: usize) -> Vec<bool> {
    if pages.len() <= max {
        return vec![true; pages.len()];
    }
    let depth = |p: &Page| p.rest.trim_end_matches('/').split('/').count();
    // Each key once, then the `max` smallest found without sorting them all.
    let mut keys: Vec<(bool, usize, &str, usize)> = pages
        .iter()
        .enumerate()
        .map(|(i, p)| (!p.rest.is_empty(), depth(p), p.rest, i))
        .collect();
    if max > 0 {
        keys.select_nth_unstable(max - 1);
    }
    let mut chosen = vec![false; pages.len()];
    for &(.., i) in &keys[..max] {
        chosen[i] = true;
    }
    chosen
}

/// One `llms.txt`: the root one, or a section's own (`llms_txt_per_section`).
pub(super) struct Index<'a> {
    /// The section it is of, for a section's own.
    pub section: Option<&'a str>,
    /// The groups it lists, by place in the view's groups.
    pub groups: &'a [usize],
    /// For each group of the view, the URL of its own `llms.txt` when it has one: the
    /// root links it instead of listing its pages.
    pub own: &'a [Option<String>],
    /// Which pages have a Markdown twin, when links point to twins
    /// (`llms_links = "markdown"`).
    pub twins: Option<&'a [bool]>,
}

/// The index, and where its header ends (where its seal goes: its last part is read
/// as links to the end); `chosen` says which pages it lists (see [`select`]).
pub(super) fn render(view: &View, chosen: &[bool], index: &Index) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let site = view.facts;
    // Writing into memory cannot fail.
    let _ = match index.section {
        None => header(&mut out, site),
        Some(section) => writeln!(out, "# {}: {}\n", text(&site.name), text(section)),
    };
    let header = out.len();
    let _ = body(&mut out, view, chosen, index);
    (out, header)
}

/// What follows the header: what the index lists, where the sitemap is, each part.
fn body(out: &mut dyn Write, view: &View, chosen: &[bool], index: &Index) -> io::Result<()> {
    let site = view.facts;
    let own = |g: usize| index.own.get(g).is_some_and(Option::is_some);
    let pages: usize = index
        .groups
        .iter()
        .map(|&g| view.groups[g].pages.len())
        .sum();
    let listed = (index.groups.iter().filter(|&&g| !own(g)))
        .flat_map(|&g| view.groups[g].pages.iter())
        .filter(|&&i| chosen[i])
        .count();
    let of = match index.section {
        None => "the site's",
        Some(_) => "this section's",
    };
    let pages_word = crate::text::count(pages, "page", "pages");
    if index.groups.iter().any(|&g| own(g)) {
        writeln!(
            out,
            "This index lists {listed} of {of} {pages_word}; each section that links an llms.txt below lists its own."
        )?;
    } else if listed == pages {
        writeln!(out, "This index lists {of} {pages_word}.")?;
    } else {
        writeln!(
            out,
            "This index lists {listed} of {of} {pages_word}, the top of each part first."
        )?;
    }
    // The reader is told where the file comes from.
    writeln!(
        out,
        "Every page is in the sitemap: {}. {}.",
        url(&site.sitemap_url),
        LLMS.mark
    )?;
    for &g in index.groups {
        part(out, view, chosen, index, g)?;
    }
    Ok(())
}

/// One `## ` part: its pages, or the link to its own `llms.txt`.
fn part(
    out: &mut dyn Write,
    view: &View,
    chosen: &[bool],
    index: &Index,
    g: usize,
) -> io::Result<()> {
    let group = &view.groups[g];
    if let Some(Some(own)) = index.own.get(g) {
        let pages = crate::text::count(group.pages.len(), "page", "pages");
        let name = text(&group.name);
        writeln!(out, "\n## {name}\n")?;
        return writeln!(out, "- [{name}: llms.txt]({}): its {pages}", url(own));
    }
    let mut in_group = group.pages.iter().filter(|&&i| chosen[i]).peekable();
    if in_group.peek().is_none() {
        return Ok(());
    }
    writeln!(out, "\n## {}\n", text(&group.name))?;
    for &i in in_group {
        let twin = index.twins.is_some_and(|t| t[i]);
        link(out, view.facts, &view.pages[i], twin)?;
    }
    Ok(())
}

/// `# ` the site's name, `> ` its description, and the blank line after.
pub(super) fn header(out: &mut dyn Write, site: &SiteFacts) -> io::Result<()> {
    writeln!(out, "# {}\n", text(&site.name))?;
    if let Some(description) = &site.description {
        writeln!(out, "> {}\n", text(description))?;
    }
    Ok(())
}

/// `- [Title](URL): description`, the URL its twin's with `twin`; a page without a
/// title is named by its URL.
fn link(out: &mut dyn Write, site: &SiteFacts, page: &Page, twin: bool) -> io::Result<()> {
    let full = format!("{}{}", site.base_url, page.rest);
    let title = text(page.title().unwrap_or(&full));
    let target = match (twin, full.ends_with('/')) {
        (false, _) => full,
        (true, true) => format!("{full}index.html{}", TWINS.name),
        (true, false) => format!("{full}{}", TWINS.name),
    };
    write!(out, "- [{}]({})", title, url(&target))?;
    match page.description() {
        Some(d) => writeln!(out, ": {}", text(d)),
        None => writeln!(out),
    }
}

/// One page as Markdown: `# Title`, `Source: URL`, then its content.
#[cfg_attr(not(feature = "markdown"), allow(dead_code))]
pub(super) fn entry(
    out: &mut dyn Write,
    site: &SiteFacts,
    page: &Page,
    body: &str,
) -> io::Result<()> {
    let full = format!("{}{}", site.base_url, page.rest);
    let title = text(page.title().unwrap_or(&full));
    writeln!(out, "# {title}\n\nSource: {}", url(&full))?;
    if !body.is_empty() {
        writeln!(out, "\n{body}")?;
    }
    Ok(())
}

/// A page's absolute URL as a link target: its parentheses percent-encoded, so the
/// target ends at the first `)` for every Markdown reader.
pub(super) fn url(url: &str) -> String {
    url.replace('(', "%28").replace(')', "%29")
}

/// `s` as Markdown text on one line: characters that would start markup where the views
/// put text (inside a link's text, after `# `, `> ` or `: `) escaped with a backslash,
/// `]` as a character reference (which the reference parser's link pattern allows, where
/// `\]` ends the link text), control characters dropped. `|`, `#`, `>` and `!` start
/// nothing there, so they stay as they are.
pub(super) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ']' => out.push_str("&#93;"),
            '\\' | '`' | '*' | '_' | '[' | '<' => {
                out.push('\\');
                out.push(c);
            }
            c if crate::text::is_control(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_urls_are_escaped() {
        let table = [
            ("Plain title", "Plain title"),
            ("[x] *y* _z_ `c`", "\\[x&#93; \\*y\\* \\_z\\_ \\`c\\`"),
            ("<script>", "\\<script>"),
            // Nothing there to start: a theme's separator, a heading or quote mark.
            ("About | Site #1 > all!", "About | Site #1 > all!"),
            ("a\nb\tc", "a b c"),
            ("moc.elpmaxe\u{202e} \u{2067}x\u{2069}", "moc.elpmaxe   x "),
            ("Café & 日本語", "Café & 日本語"),
        ];
        for (value, want) in table {
            assert_eq!(text(value), want, "{value}");
        }
        assert_eq!(url("https://x.org/a_(b)/"), "https://x.org/a_%28b%29/");
    }

    #[test]
    fn the_shallowest_pages_are_chosen() {
        let rests = [
            "",
            "blog/",
            "blog/2024/a/",
            "blog/b/",
            "docs/",
            "docs/x/y/z/",
        ];
        let pages: Vec<Page> = rests.iter().map(|rest| Page::bare(rest)).collect();
        let chosen = |max| -> Vec<&str> {
            let chosen = select(&pages, max);
            rests
                .iter()
                .zip(chosen)
                .filter_map(|(r, c)| c.then_some(*r))
                .collect()
        };
        assert_eq!(chosen(10).len(), 6);
        assert_eq!(chosen(1), [""]);
        assert_eq!(chosen(3), ["", "blog/", "docs/"]);
        assert_eq!(chosen(4), ["", "blog/", "blog/b/", "docs/"]);
    }
}
