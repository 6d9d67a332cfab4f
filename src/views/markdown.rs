//! A page's main content as Markdown, for `llms-full.txt`: the same region the images
//! and the content fingerprint read (every outermost `<main>`, else every outermost
//! `<article>`, else the `<body>`), converted by htmd, the crate of the field, over
//! html5ever's tree of the page.

use std::io::{self, Read};
use std::rc::Rc;

use htmd::element_handler::{HandlerResult, Handlers};
use htmd::{Element, HtmlToMarkdown, Node};
use markup5ever_rcdom::NodeData;

mod tree;

/// The most bytes of one page read for its Markdown: htmd builds the whole page's tree,
/// and converting a 4 MiB page peaks at 16 to 40 times its size (67 MB and 0.14 s for
/// 21,000 paragraphs, 165 MB and 0.5 s for 440,000 elements, release build), so one
/// hostile 2 GiB page must not be read.
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
                // Escaped as a title is: htmd escapes text, not an attribute we hand
                // back, and an alt of `[x](y)` must not become a link.
                (!alt.is_empty()).then(|| super::llms::text(alt).into())
            })
            .add_handler(vec!["pre"], pre)
            .build();
        Converter { html }
    }

    /// The Markdown of the main content of the page `html`: trimmed, no run of more
    /// than one blank line; the same bytes every time. `Err` when the page would cost
    /// more than its budget to convert.
    pub(super) fn page(&self, html: &[u8]) -> Result<String, Refused> {
        let text = String::from_utf8_lossy(html);
        let tree = tree::parse(&text).map_err(|_| Refused::Tree)?;
        flatten(&tree);
        let mut parts = Vec::new();
        for region in REGIONS {
            outermost(&tree, region, &mut parts);
            if !parts.is_empty() {
                break;
            }
        }
        let cost: u64 = parts.iter().map(conversion_cost).sum();
        if cost > budget(html.len(), CONVERSION_PER_BYTE) {
            return Err(Refused::Conversion);
        }
        let markdown: Vec<String> = parts
            .iter()
            .map(|node| self.html.tree_to_markdown(node))
            .filter(|m| !m.trim().is_empty())
            .collect();
        Ok(tidy(&markdown.join("\n\n")))
    }
}

/// Why a page is not converted: the work would pass its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum Refused {
    /// Building its tree ([`tree`]).
    #[error(
        "its HTML takes more than {} steps per byte to build",
        tree::STEPS_PER_BYTE
    )]
    Tree,
    /// Converting its tree: nesting multiplies what htmd copies and writes.
    #[error("its nesting would make its Markdown more than {CONVERSION_PER_BYTE} times its size")]
    Conversion,
}

/// The work, and bytes written, allowed per byte of a page converted by htmd: the
/// pages of our fixtures cost at most four per byte.
const CONVERSION_PER_BYTE: u64 = 16;

/// `per_byte` times a page of `len` bytes, and 1 MiB whatever the page.
fn budget(len: usize, per_byte: u64) -> u64 {
    (len as u64)
        .saturating_mul(per_byte)
        .saturating_add(1 << 20)
}

/// What htmd does to convert the tree under `root`: each element hands its content up
/// to the one around it, and a quote or list item prefixes each line of it again, so a
/// text's bytes and lines count once per element around them. 250 nested quotes around
/// 100,000 lines (500 KB) wrote 50 MB.
fn conversion_cost(root: &Rc<Node>) -> u64 {
    /// A line break's share: a quote prefixes each line anew.
    const LINE: u64 = 4;
    let mut cost = 0u64;
    let mut stack = vec![(Rc::clone(root), 1u64)];
    while let Some((node, depth)) = stack.pop() {
        match &node.data {
            NodeData::Text { contents } => {
                let text = contents.borrow();
                let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
                cost = cost.saturating_add((text.len() as u64 + lines * LINE) * depth);
            }
            NodeData::Element { name, .. } if SKIPPED.contains(&&*name.local) => continue,
            _ => {}
        }
        let children = node.children.borrow();
        stack.extend(children.iter().map(|c| (Rc::clone(c), depth + 1)));
    }
    cost
}

/// The deepest an element is nested in the tree converted: htmd walks the tree by
/// recursion, and 10,000 nested `<div>`s (a 60 KB page) overflowed an 8 MiB stack and
/// aborted the run. Browsers put what is deeper than 512 beside each other at 512.
const MAX_DEPTH: usize = 256;

/// Puts everything nested deeper than [`MAX_DEPTH`] under its ancestor at that depth,
/// in document order, as browsers do (text, images and breaks; not the emptied
/// elements around them).
fn flatten(tree: &Rc<Node>) {
    let mut stack = vec![(Rc::clone(tree), 0)];
    while let Some((node, depth)) = stack.pop() {
        if depth < MAX_DEPTH {
            let children = node.children.borrow();
            stack.extend(children.iter().map(|child| (Rc::clone(child), depth + 1)));
            continue;
        }
        let mut below = Vec::new();
        let mut pending = std::mem::take(&mut *node.children.borrow_mut());
        pending.reverse();
        while let Some(child) = pending.pop() {
            let grandchildren = std::mem::take(&mut *child.children.borrow_mut());
            // An element emptied of its content would only leave marks (`****`).
            if grandchildren.is_empty() {
                child.parent.set(Some(Rc::downgrade(&node)));
                below.push(child);
            }
            pending.extend(grandchildren.into_iter().rev());
        }
        *node.children.borrow_mut() = below;
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

/// A `<pre>` without a `<code>` (Sphinx's highlighted code, hand-written listings) as
/// a fenced code block of its text: htmd would leave it a paragraph, whose line breaks
/// and indentation Markdown does not keep. One with a `<code>` is htmd's own.
fn pre(handlers: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    let has_code = element.node.children.borrow().iter().any(
        |child| matches!(&child.data, NodeData::Element { name, .. } if &*name.local == "code"),
    );
    if has_code {
        return handlers.fallback(element);
    }
    let mut text = String::new();
    raw_text(element.node, &mut text);
    let text = text.trim_end();
    if text.trim().is_empty() {
        return Some("".into());
    }
    // Longer than any run of backticks in the text, so no line of it closes the fence.
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    Some(format!("\n\n{fence}\n{text}\n{fence}\n\n").into())
}

/// The text under `node` as written, without that of [`SKIPPED`] elements.
fn raw_text(node: &Rc<Node>, out: &mut String) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. } if &*name.local == "br" => out.push('\n'),
            NodeData::Element { name, .. } if SKIPPED.contains(&&*name.local) => {}
            _ => raw_text(child, out),
        }
    }
}

/// Trimmed, each line's trailing spaces kept (Markdown's line break), and runs of
/// blank lines made one, except inside a fenced code block, whose lines are the code's.
/// A line of `-`s outside code (an `<hr>`, or a paragraph of dashes, which htmd leaves
/// as it is) is written `***`: `---` separates `llms-full.txt`'s records, and a page
/// must not be able to start one of its own.
fn tidy(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut blank = false;
    let mut open = None;
    for line in markdown.trim().lines() {
        if open.is_none() && line.trim().is_empty() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        let dashes = open.is_none() && is_dash_rule(line);
        out.push_str(if dashes { "***" } else { line });
        open = match open {
            Some(fence) => (!closes(line, fence)).then_some(fence),
            None => opens(line),
        };
    }
    out
}

/// Whether a line is a thematic break of `-`s as CommonMark reads one (or a setext
/// heading's underline, which is one too where no paragraph is above it).
fn is_dash_rule(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let mut marks = line.trim().chars().filter(|&c| c != ' ' && c != '\t');
    indent < 4
        && line.trim().starts_with('-')
        && marks.clone().count() >= 3
        && marks.all(|c| c == '-')
}

/// The fence a line opens (its character and length), as CommonMark reads one: three
/// or more backticks (with none after them) or tildes, after the indentation.
fn opens(line: &str) -> Option<(char, usize)> {
    let line = line.trim_start();
    let c = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = line.len() - line.trim_start_matches(c).len();
    let info = &line[len..];
    (len >= 3 && !(c == '`' && info.contains('`'))).then_some((c, len))
}

/// Whether a line closes the fence opened by `c` repeated `len` times.
fn closes(line: &str, (c, len): (char, usize)) -> bool {
    let line = line.trim();
    line.len() >= len && line.chars().all(|x| x == c)
}

/// The page read from `file`, or `None` when it is larger than [`PAGE_LIMIT`].
pub(super) fn read_page(file: impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut html = Vec::new();
    file.take(PAGE_LIMIT + 1).read_to_end(&mut html)?;
    Ok((html.len() as u64 <= PAGE_LIMIT).then_some(html))
}

#[cfg(test)]
mod tests;
