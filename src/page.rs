//! What a page says about itself, read from the built file: its head (noindex, redirect
//! stubs, canonical URL, hreflang alternates, modified dates, and for the views its
//! title, description and language), its images, its content fingerprint, a modified
//! date some generators keep in the body, and the link naming its source.
//!
//! One tokenizer reads a page (`crate::html`: the fast scan, html5gum where it gives
//! up), and each of those is a reader fed by it in one pass. A run chooses the readers
//! once ([`Wants`]); `read.rs` decides how much of each page is read: the first 16 KiB,
//! more only while a reader wants more, never more than the head's readers need
//! unless the images or the fingerprint want the whole page.

mod fingerprint;
mod head;
mod marks;
mod read;
mod text;
mod values;

pub use fingerprint::Fingerprint;
#[cfg(test)]
pub(crate) use fingerprint::made_up;
pub use head::{
    DESCRIPTION_LIMIT, GENERATOR_LIMIT, Head, HeadAlternate, HeadOptions, ModifiedSource,
    TITLE_LIMIT,
};
pub use marks::{MAX_MARK, SourceLinks};
pub use read::{FIRST_READ, MAX_HELD, Reader, read_by_html5gum, read_in_parts};
pub use text::{Shown, shown};
pub use values::{LANG_LIMIT, refresh_target, robots_tag_says_noindex};

/// Pages larger than this are cut short by Googlebot, which fetches the first 2 MB of an
/// HTML file: the audit warns of them.
pub const LARGE_PAGE_BYTES: u64 = 2 * 1024 * 1024;

use crate::images::Sources;

/// What a run reads each page for, chosen once for the run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wants {
    /// The head, under these options; not read when `None`.
    pub head: Option<HeadOptions>,
    /// Its image sources (`images = true`).
    pub images: bool,
    /// Its content fingerprint (the `"content"` source, and `changes`).
    pub fingerprint: bool,
    /// The modified date in the body of a page whose generator dates pages there
    /// (Docusaurus), when its head has none (the `"meta"` source).
    pub body_date: bool,
    /// The shown text of the pages read for their source link (no route reached them),
    /// for the text match: read with the link, not again after the walk.
    pub text: bool,
}

impl Wants {
    /// Whether a reader wants the whole page.
    fn whole(&self) -> bool {
        self.images || self.fingerprint
    }

    /// Whether anything is read from a page at all (a source link may still be looked
    /// for, page by page).
    pub fn reads(&self) -> bool {
        self.head.is_some() || self.whole()
    }
}

/// What a page gave, each part as it was wanted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PageRead {
    /// What its head says (its modified date may come from its body; see
    /// [`Wants::body_date`]); empty when the head was not wanted.
    pub head: Head,
    /// Its image sources, as written.
    pub images: Option<Sources>,
    /// Its content fingerprint.
    pub fingerprint: Option<Fingerprint>,
    /// The best of the links that name its source, when those were looked for.
    pub source_link: Option<String>,
    /// Its shown text, when it was read for its source link and [`Wants::text`].
    pub text: Option<Shown>,
}

/// Reads the page `html`, held in memory, for what `wants` asks, with fresh readers.
pub fn read_held(html: &[u8], wants: &Wants, links: Option<SourceLinks>) -> PageRead {
    let size = Some(html.len() as u64);
    // Reading from memory cannot fail.
    Reader::new(wants)
        .read(html, size, links)
        .unwrap_or_default()
}
