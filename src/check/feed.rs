//! A feed listed in a sitemap index. sitemaps.org accepts RSS 2.0 and Atom feeds as
//! sitemaps, and generators (Nikola, Blogger) list theirs in their index; each item's
//! link is a page URL, checked as a sitemap's `<loc>` is (but for repeats: feeds repeat
//! each other's items).

use std::io::BufRead;
use std::path::Path;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;

use super::loc::Role;
use super::{Checker, Severity};
use crate::sitemap::read::{Tokens, reference};
use crate::text::Bounded;

/// Atom's namespace.
pub(super) const ATOM_NAMESPACE: &str = "http://www.w3.org/2005/Atom";

/// The deepest element whose name is kept: an item's link is at depth 4.
const MAX_DEPTH: usize = 8;

/// Which kind of feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Feed {
    /// RSS 2.0: `<rss><channel><item><link>URL</link>`.
    Rss,
    /// Atom: `<feed><entry><link href="URL"/>` (no `rel`, or `rel="alternate"`).
    Atom,
}

impl Feed {
    /// The feed a root element of namespace `ns` and name `local` starts, if any.
    pub(super) fn of_root(ns: &ResolveResult, local: &str) -> Option<Feed> {
        match (ns, local) {
            (ResolveResult::Unbound, "rss") => Some(Feed::Rss),
            (ResolveResult::Bound(n), "feed") if n.as_ref() == ATOM_NAMESPACE => Some(Feed::Atom),
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// Checks the links of the feed in `input` (read from its start).
    pub(super) fn check_feed(&mut self, path: &Path, input: &mut impl BufRead, feed: Feed) {
        let mut tokens = Tokens::new(input);
        let mut stack: Vec<String> = Vec::new();
        let mut depth = 0usize;
        let mut text = Bounded::default();
        let mut items = 0usize;
        loop {
            let (at, event) = match tokens.next_token() {
                Ok(token) => (token.line, token.event),
                Err(e) => {
                    let message = format!("not well-formed XML: {}", e.detail);
                    self.stopped(path, e.line, message);
                    return;
                }
            };
            match event {
                Event::Eof => break,
                Event::Start(ref e) | Event::Empty(ref e) => {
                    let local = e.local_name().into_inner().to_string();
                    let in_item = match feed {
                        Feed::Rss => depth == 2 && local == "item",
                        Feed::Atom => depth == 1 && local == "entry",
                    };
                    items += usize::from(in_item);
                    if feed == Feed::Atom && depth == 2 && local == "link" && is_entry(&stack) {
                        self.atom_link(path, at, e);
                    }
                    text.clear();
                    if matches!(event, Event::Start(_)) {
                        if depth < MAX_DEPTH {
                            stack.push(local);
                        }
                        depth += 1;
                    }
                }
                Event::Text(t) => text.push(&t),
                Event::CData(t) => text.push(&t),
                Event::GeneralRef(r) => {
                    if let Some(c) = reference(&r) {
                        text.push(c.encode_utf8(&mut [0; 4]));
                    }
                }
                Event::End(_) => {
                    if feed == Feed::Rss
                        && depth == 4
                        && stack == ["rss", "channel", "item", "link"]
                    {
                        self.feed_link(path, at, text.as_str().trim(), &text);
                    }
                    if depth <= MAX_DEPTH {
                        stack.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
        }
        if items == 0 {
            self.problem(
                path,
                tokens.line(),
                Severity::Warning,
                "feed lists no items",
            );
        }
    }

    fn atom_link(&mut self, path: &Path, line: u64, link: &BytesStart) {
        let (mut rel, mut href) = (None, None);
        for attr in link.attributes().flatten() {
            let value = quick_xml::escape::unescape(&attr.value)
                .map(|v| v.into_owned())
                .ok();
            match attr.key.as_ref() {
                "rel" => rel = value,
                "href" => href = value,
                _ => {}
            }
        }
        if rel.as_deref().is_none_or(|r| r.trim() == "alternate")
            && let Some(href) = href
        {
            let mut kept = Bounded::default();
            kept.push(&href);
            self.feed_link(path, line, href.trim(), &kept);
        }
    }

    fn feed_link(&mut self, path: &Path, line: u64, link: &str, kept: &Bounded) {
        if kept.is_whole() {
            self.check_loc(path, line, link, Role::FeedItem);
        } else {
            self.long_loc(path, line, kept.len(), Role::FeedItem);
        }
    }
}

fn is_entry(stack: &[String]) -> bool {
    stack == ["feed", "entry"]
}
