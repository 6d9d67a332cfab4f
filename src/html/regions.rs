//! Where a reader of a whole page stands: in its head or not, and inside which of the
//! regions its content is taken from (`<main>`, else `<article>`, else `<body>`), as the
//! images and the content fingerprint both read them.

use super::Tag;

/// The `<main>` region, the most specific.
pub(crate) const MAIN: usize = 0;
/// The `<article>` region.
pub(crate) const ARTICLE: usize = 1;
/// The `<body>`: everything outside the head.
pub(crate) const BODY: usize = 2;

/// The head and the regions open at the current tag, and which regions the page has.
#[derive(Debug, Default)]
pub(crate) struct Regions {
    in_head: bool,
    /// How many `<main>` and `<article>` are open.
    depth: [usize; 2],
    /// A `<main>`, an `<article>` was seen.
    seen: [bool; 2],
}

impl Regions {
    /// Follows a start tag.
    #[inline]
    pub(crate) fn start_tag(&mut self, tag: Tag) {
        // Most tags are neither in a head nor a region's.
        if tag == Tag::Other && !self.in_head {
            return;
        }
        match tag {
            Tag::Head => self.in_head = true,
            Tag::Body => self.in_head = false,
            // The head ends at the first tag that cannot be in one, </head> or not.
            other if self.in_head && !other.in_head() => self.in_head = false,
            _ => {}
        }
        if let Some(r) = region(tag) {
            self.depth[r] += 1;
            self.seen[r] = true;
        }
    }

    /// Follows an end tag.
    #[inline]
    pub(crate) fn end_tag(&mut self, tag: Tag) {
        if let Some(r) = region(tag) {
            self.depth[r] = self.depth[r].saturating_sub(1);
        }
        if tag == Tag::Head {
            self.in_head = false;
        }
    }

    /// Inside the head (by its tags: a page without them has none).
    pub(crate) fn in_head(&self) -> bool {
        self.in_head
    }

    /// Whether the region `r` is open ([`BODY`] always is).
    pub(crate) fn inside(&self, r: usize) -> bool {
        r == BODY || self.depth[r] > 0
    }

    /// The region the page is read from: its `<main>`, else its `<article>`, else its
    /// body.
    pub(crate) fn chosen(&self) -> usize {
        if self.seen[MAIN] {
            MAIN
        } else if self.seen[ARTICLE] {
            ARTICLE
        } else {
            BODY
        }
    }
}

/// The region a tag opens, other than the body.
fn region(tag: Tag) -> Option<usize> {
    match tag {
        Tag::Main => Some(MAIN),
        Tag::Article => Some(ARTICLE),
        _ => None,
    }
}
