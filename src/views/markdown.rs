//! A page's main content as Markdown, for `llms-full.txt`: the same region the images
//! and the content fingerprint read (every outermost `<main>`, else every outermost
//! `<article>`, else the `<body>`), converted by htmd, the crate of the field, over
//! html5ever's tree of the page.

use std::io::{self, Read};
use std::rc::Rc;

use htmd::element_handler::{HandlerResult, Handlers};
use htmd::{Element, HtmlToMarkdown, Node};
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};
use markup5ever_rcdom::NodeData;

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
    /// than one blank line; the same bytes every time.
    pub(super) fn page(&self, html: &[u8]) -> String {
        let text = String::from_utf8_lossy(html);
        let Ok(tree) = self.html.html_to_tree(&text) else {
            return String::new();
        };
        flatten(&tree);
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
        out.push_str(line);
        open = match open {
            Some(fence) => (!closes(line, fence)).then_some(fence),
            None => opens(line),
        };
    }
    out
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

/// The deepest elements may nest in a page converted. html5ever checks the open
/// elements at each start tag, so its time grows with the square of the nesting:
/// 40,000 nested `<div>`s (200 KB) took 4.7 s, and 4 MiB of them would take half an
/// hour; 4,096 take some 50 ms. Real pages nest a few dozen deep.
pub(super) const MAX_NESTING: usize = 4096;

/// Start tags that do not deepen the tree: void elements, and those the next of their
/// kind (or their parent's end) closes, which HTML lets a page leave open.
const FLAT: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "rb", "rt", "rp", "rtc",
    "html", "head", "body", "tbody", "thead", "tfoot", "colgroup", "caption",
];

fn flat(name: &[u8]) -> bool {
    FLAT.iter().any(|f| f.as_bytes() == name)
}

/// Whether `html` nests elements deeper than [`MAX_NESTING`], counted over html5gum's
/// tokens before html5ever builds anything (an upper bound: what the tree builder
/// would close on its own counts as open). `/>` closes an element only in SVG and
/// MathML, as it does in HTML.
pub(super) fn nests_too_deep(html: &[u8]) -> bool {
    let (mut depth, mut foreign, mut counted) = (0usize, 0usize, None);
    let mut emitter = CallbackEmitter::new(move |event: CallbackEvent<'_>, _: Span<()>| {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                let outer = matches!(name, b"svg" | b"math");
                counted = (!flat(name)).then_some(outer);
            }
            CallbackEvent::CloseStartTag { self_closing } => match counted.take() {
                Some(_) if self_closing && foreign > 0 => {}
                Some(outer) => {
                    depth += 1;
                    foreign += usize::from(outer);
                }
                None => {}
            },
            CallbackEvent::EndTag { name } if !flat(name) => {
                depth = depth.saturating_sub(1);
                if matches!(name, b"svg" | b"math") {
                    foreign = foreign.saturating_sub(1);
                }
            }
            _ => {}
        }
        (depth > MAX_NESTING).then_some(())
    });
    emitter.naively_switch_states(true);
    Tokenizer::new_with_emitter(html, emitter).next().is_some()
}

/// The page read from `file`, or `None` when it is larger than [`PAGE_LIMIT`].
pub(super) fn read_page(file: impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut html = Vec::new();
    file.take(PAGE_LIMIT + 1).read_to_end(&mut html)?;
    Ok((html.len() as u64 <= PAGE_LIMIT).then_some(html))
}

#[cfg(test)]
mod tests;
