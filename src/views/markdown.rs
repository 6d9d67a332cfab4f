//! A page's main content as Markdown, for `llms-full.txt`: the same region the images
//! and the content fingerprint read (every outermost `<main>`, else every outermost
//! `<article>`, else the `<body>`), converted by htmd, the crate of the field, over
//! html5ever's tree of the page.

use std::io::{self, Read};
use std::rc::Rc;

use htmd::element_handler::Handlers;
use htmd::{Element, HtmlToMarkdown, Node};
use markup5ever_rcdom::NodeData;

/// The most bytes of one page read for its Markdown: htmd builds the whole page's tree,
/// some ten times its size, so one hostile 2 GiB page must not be read.
pub(super) const PAGE_LIMIT: u64 = 4 * 1024 * 1024;

/// Elements left out of the Markdown: the page's frame and machinery, which say nothing
/// of its content (the head, its title included, never has a region's content).
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "template", "nav", "svg", "form", "input", "button", "select",
    "textarea", "iframe", "object", "canvas", "dialog",
];

/// The regions, most specific first (see [`crate::html::Regions`]).
const REGIONS: [&str; 3] = ["main", "article", "body"];

/// Turns pages into Markdown; built once and used for every page.
pub(super) struct Converter {
    html: HtmlToMarkdown,
}

impl Converter {
    pub(super) fn new() -> Converter {
        let html = HtmlToMarkdown::builder()
            .skip_tags(SKIPPED.to_vec())
            // An image is its alt text: a model reads no picture, and the URL of one
            // would only cost it context.
            .add_handler(vec!["img"], |_: &dyn Handlers, img: Element| {
                let alt = img.attrs.iter().find(|a| &*a.name.local == "alt")?;
                let alt = alt.value.trim();
                (!alt.is_empty()).then(|| alt.to_string().into())
            })
            .build();
        Converter { html }
    }

    /// The Markdown of the main content of the page `html`: trimmed, no run of more
    /// than one blank line; the same bytes every time.
    pub(super) fn page(&self, html: &[u8]) -> String {
        let text = String::from_utf8_lossy(html);
        let Ok(tree) = self.html.html_to_tree(&text) else {
            return String::new();
        };
        let mut parts = Vec::new();
        for region in REGIONS {
            outermost(&tree, region, &mut parts);
            if !parts.is_empty() {
                break;
            }
        }
        let markdown: Vec<String> = parts
            .iter()
            .map(|node| self.html.tree_to_markdown(node))
            .filter(|m| !m.trim().is_empty())
            .collect();
        tidy(&markdown.join("\n\n"))
    }
}

/// Every outermost element named `name` under `node`, in document order.
fn outermost(node: &Rc<Node>, name: &str, found: &mut Vec<Rc<Node>>) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Element { name: tag, .. } if &*tag.local == name => {
                found.push(Rc::clone(child));
            }
            NodeData::Element { name: tag, .. } if SKIPPED.contains(&&*tag.local) => {}
            _ => outermost(child, name, found),
        }
    }
}

/// Trimmed, each line's trailing spaces kept (Markdown's line break), and runs of
/// blank lines made one.
fn tidy(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut blank = 0;
    for line in markdown.trim().lines() {
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

/// The page read from `file`, or `None` when it is larger than [`PAGE_LIMIT`].
pub(super) fn read_page(file: impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut html = Vec::new();
    file.take(PAGE_LIMIT + 1).read_to_end(&mut html)?;
    Ok((html.len() as u64 <= PAGE_LIMIT).then_some(html))
}

#[cfg(test)]
mod tests;
