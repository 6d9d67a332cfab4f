//! Views of the listed pages for people and for language models, written into the site
//! beside the sitemap: `sitemap.html` (`html_sitemap = true`), a page of links by
//! section that every browser shows (XSLT, which the stylesheet needs, is leaving
//! browsers), and `llms.txt` (`llms_txt = true`), the llmstxt.org index of the site in
//! Markdown, with `llms-full.txt` (`llms_full_txt = true`) holding each page's main
//! content.
//!
//! They show exactly what the sitemap lists, with each page's title and description
//! from its head, grouped as the sitemap is: by `[[section]]`, else by top directory.
//! Both are deterministic: the same site gives the same bytes. What each view is (its
//! files, key, mark, seal, headers) is one row of [`ALL`].

#[cfg(feature = "markdown")]
mod full;
mod groups;
mod html;
mod llms;
#[cfg(feature = "markdown")]
mod markdown;
mod parts;
mod seal;
mod stale;
mod table;
mod titles;
mod tree;
#[cfg(feature = "markdown")]
mod twins;
mod view;
mod write;

use std::path::Path;

pub use seal::Seal;
pub use seal::proves as is_ours;
pub use table::{ALL, Description, HTML, LLMS, LLMS_FULL, Place, SECTION_LLMS, TWINS, may_be_view};
pub use view::{ViewError, Written};
pub use write::{Site, refuse_foreign, refuse_foreign_at_top, write};

/// The default `llms_txt_max_pages`: some 30,000 tokens of links, a small part of one
/// model's context.
pub const DEFAULT_LLMS_MAX_PAGES: usize = 300;

/// The most `llms_txt_max_pages` may be.
pub const MAX_LLMS_MAX_PAGES: usize = 50_000;

/// The most characters `site_name` may have.
pub const MAX_SITE_NAME: usize = 200;

/// Which views are written, and how (the `html_sitemap`, `llms_*` and `site_name` keys).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewSettings {
    /// Write `sitemap.html`.
    pub html_sitemap: bool,
    /// Show each page's date in `sitemap.html`.
    pub html_sitemap_dates: bool,
    /// Write `llms.txt`.
    pub llms_txt: bool,
    /// The most pages `llms.txt` lists.
    pub llms_txt_max_pages: usize,
    /// Write `llms-full.txt`, the main content of the pages `llms.txt` lists.
    pub llms_full_txt: bool,
    /// Write each page `llms.txt` lists as Markdown at its URL with `.md` appended.
    pub llms_markdown: bool,
    /// Link the twins from `llms.txt` (`llms_links = "markdown"`), not the pages.
    pub llms_links_markdown: bool,
    /// Give each `[[section]]` whose pages share a folder an `llms.txt` of its own.
    pub llms_txt_per_section: bool,
    /// The site's name, over the home page's title.
    pub site_name: Option<String>,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            html_sitemap: false,
            html_sitemap_dates: false,
            llms_txt: false,
            llms_txt_max_pages: DEFAULT_LLMS_MAX_PAGES,
            llms_full_txt: false,
            llms_markdown: false,
            llms_links_markdown: false,
            llms_txt_per_section: false,
            site_name: None,
        }
    }
}

impl ViewSettings {
    /// The views these settings have written, in [`ALL`]'s order.
    pub fn on(&self) -> impl Iterator<Item = &'static Description> + '_ {
        ALL.into_iter().filter(|view| view.is_on(self))
    }

    /// Whether any view is written, so each listed page's title and description are kept.
    pub fn any(&self) -> bool {
        self.on().next().is_some()
    }

    /// Whether a view that writes files below the top of the site (twins, sections'
    /// `llms.txt`) is on: a merge, which walks nothing, then walks the site for an
    /// earlier run's such files, to remove those no page needs now.
    pub fn sweeps(&self) -> bool {
        self.on().any(|view| view.place != Place::Top)
    }

    /// Whether each listed page's file is kept, for converting it to Markdown.
    pub fn needs_paths(&self) -> bool {
        self.on().any(|view| view.reads_pages)
    }

    /// The files at the top of the site served with `X-Robots-Tag: noindex`, by name.
    pub fn noindexed(&self) -> impl Iterator<Item = &'static str> + '_ {
        (self.on())
            .filter(|view| view.place == Place::Top && view.noindex)
            .map(|view| view.name)
    }
}

mod about;

pub use about::Abouts;
pub(crate) use about::{AboutPage, AboutParts};

/// One listed page as the views show it.
#[derive(Debug, Clone, Copy)]
struct Page<'a> {
    /// Its URL after the base URL.
    rest: &'a str,
    /// Its title (see [`crate::page::Head::title`]).
    title: Option<&'a str>,
    /// Its description (see [`crate::page::Head::description`]).
    description: Option<&'a str>,
    /// Its `<lastmod>`, shown with `html_sitemap_dates`.
    lastmod: Option<jiff::Timestamp>,
    /// Its path under the public directory, with [`ViewSettings::needs_paths`].
    #[cfg_attr(not(feature = "markdown"), allow(dead_code))]
    path: Option<&'a Path>,
}

impl<'a> Page<'a> {
    fn title(&self) -> Option<&'a str> {
        self.title
    }

    fn description(&self) -> Option<&'a str> {
        self.description
    }

    /// A page of URL `rest` and nothing more known, for tests.
    #[cfg(test)]
    fn bare(rest: &'a str) -> Page<'a> {
        Page {
            rest,
            title: None,
            description: None,
            lastmod: None,
            path: None,
        }
    }
}

/// What is known of the site as a whole, from the settings and its home page.
#[derive(Debug)]
struct SiteFacts {
    /// `site_name`, else the home page's title, else the base URL's host.
    name: String,
    /// The home page's description.
    description: Option<String>,
    /// The home page's language.
    lang: Option<String>,
    /// The base URL.
    base_url: String,
    /// The base URL's path (`/` or `/docs/`), for links that work on any host serving
    /// the site (a preview, a staging deploy).
    base_path: String,
    /// The sitemap's URL.
    sitemap_url: String,
}

impl SiteFacts {
    /// `url` as a link within the site: its path, when it is under the base URL.
    fn path_of(&self, url: &str) -> String {
        match url.strip_prefix(&self.base_url) {
            Some(rest) => format!("{}{rest}", self.base_path),
            None => url.to_string(),
        }
    }
}
