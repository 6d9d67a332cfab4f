//! Checks of one URL as a sitemap gives it: form, encoding, length, host, duplicates.

use std::collections::hash_map::{DefaultHasher, Entry};
use std::hash::{Hash, Hasher};
use std::path::Path;

use quick_xml::XmlVersion;
use quick_xml::events::BytesStart;

use super::{Checker, Severity, shorten};
use crate::text::KEPT_BYTES;

/// What a URL is to the file it is in, for its checks and messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A page's `<loc>` in a `<urlset>` (or a line of a text sitemap).
    Page,
    /// A child sitemap's `<loc>` in a `<sitemapindex>`.
    Child,
    /// The `href` of an `<xhtml:link rel="alternate">`.
    Alternate,
    /// The `<image:loc>` of an `<image:image>`.
    Image,
    /// An item's link in a feed listed in an index: a page URL, but not a duplicate when
    /// it repeats, since feeds repeat each other's items by design (a tag's feed and the
    /// site's).
    FeedItem,
}

impl Role {
    fn noun(self) -> &'static str {
        match self {
            Role::Page | Role::Child | Role::FeedItem => "URL",
            Role::Alternate => "alternate href",
            Role::Image => "image URL",
        }
    }
}

impl Checker<'_> {
    /// Checks `loc`, found at `line` of `path`, and counts it.
    pub(super) fn check_loc(&mut self, path: &Path, line: u64, loc: &str, role: Role) {
        self.counts.urls += 1;
        if role == Role::Page {
            self.reporter.page_url(path, line, loc);
        }
        let Some(parsed) = self.url_form(path, line, loc, role) else {
            return;
        };
        if let Some(base) = &self.options.base_url
            && !base.same_host(&parsed)
        {
            let message = format!(
                "URL is on {}, not on {}",
                parsed.host_str().unwrap_or(""),
                base.url().host_str().unwrap_or("")
            );
            self.problem(path, line, Severity::Warning, message);
        }
        if role != Role::FeedItem {
            self.duplicate(path, line, loc, role);
        }
        if let Some(robots) = &self.robots
            && !robots.allows(loc)
        {
            let message = format!(
                "URL is blocked by {}: {}",
                crate::text::path(&robots.path),
                shorten(loc)
            );
            self.problem(path, line, Severity::Warning, message);
        }
    }

    /// A URL too long to be kept whole ([`crate::text::KEPT_BYTES`]), whose length of
    /// `len` bytes is all there is to say of it; counted as [`Checker::check_loc`] would.
    pub(super) fn long_loc(&mut self, path: &Path, line: u64, len: usize, role: Role) {
        if matches!(role, Role::Page | Role::Child | Role::FeedItem) {
            self.counts.urls += 1;
        }
        self.problem(path, line, Severity::Error, too_long(role, len));
    }

    /// Checks an alternate link's `href` as a URL is checked; it is not counted, and may
    /// be on another host or repeat a `<loc>`.
    pub(super) fn check_alternate(&mut self, path: &Path, line: u64, href: &str) {
        self.url_form(path, line, href, Role::Alternate);
    }

    /// An `<xhtml:link>` in a `<urlset>`: one with `rel="alternate"` needs a language tag
    /// and an `href` that is an absolute, percent-encoded URL, as search engines and the
    /// xhtml schema (`xs:anyURI`: `%zz` is refused) require.
    pub(super) fn xml_alternate(&mut self, path: &Path, link: &BytesStart, line: u64) {
        let (mut rel, mut hreflang, mut href) = (None, None, None);
        for attr in link.attributes().flatten() {
            let slot = match attr.key.as_ref() {
                "rel" => &mut rel,
                "hreflang" => &mut hreflang,
                "href" => &mut href,
                _ => continue,
            };
            *slot = Some(attr);
        }
        if rel.is_none_or(|rel| rel.value != "alternate") {
            return;
        }
        let hreflang = hreflang.map(|a| a.value).unwrap_or_default();
        if !crate::urls::is_hreflang(&hreflang) {
            let message = format!(
                "hreflang '{}' is not a language tag (en, de-AT, zh-Hant-TW, x-default)",
                shorten(&hreflang)
            );
            self.problem(path, line, Severity::Error, message);
        }
        let Some(href) = href else {
            let message =
                "<xhtml:link rel=\"alternate\"> without href; give the alternate page's URL";
            self.problem(path, line, Severity::Error, message);
            return;
        };
        if href.value.len() > KEPT_BYTES {
            return self.long_loc(path, line, href.value.len(), Role::Alternate);
        }
        match href.normalized_value(XmlVersion::Implicit1_0) {
            Ok(href) => self.check_alternate(path, line, &href),
            Err(e) => {
                let detail = crate::text::one_line(&e.to_string());
                let message =
                    format!("alternate href cannot be read ({detail}); escape & as &amp;");
                self.problem(path, line, Severity::Error, message);
            }
        }
    }

    /// Checks an `<image:loc>` as a URL is checked; it is not counted, and may be on
    /// another host (a CDN) or repeat on many pages.
    pub(super) fn check_image(&mut self, path: &Path, line: u64, loc: &str) {
        self.url_form(path, line, loc, Role::Image);
    }

    /// Checks the form of a URL: its length, characters that must be percent-encoded, an
    /// absolute http(s) URL with a host. Returns it parsed when it is one.
    fn url_form(&mut self, path: &Path, line: u64, loc: &str, role: Role) -> Option<url::Url> {
        let form = crate::urls::LocForm::of(loc);
        if let Some(len) = form.too_long {
            self.problem(path, line, Severity::Error, too_long(role, len));
        }
        if let Some(bad) = form.unencoded {
            let message = format!(
                "{} holds {bad}, which must be percent-encoded: {}",
                role.noun(),
                shorten(loc)
            );
            self.problem(path, line, Severity::Error, message);
        }
        if form.url.is_none() {
            let what = match role {
                Role::Alternate => "alternate href ",
                Role::Image => "image:loc ",
                Role::Page | Role::Child | Role::FeedItem => "",
            };
            let message = format!("{what}'{}' is not an absolute http(s) URL", shorten(loc));
            self.problem(path, line, Severity::Error, message);
        }
        form.url
    }

    /// Warns about a URL seen before in this file or another of the same sitemap (an
    /// index and its children), naming where.
    fn duplicate(&mut self, path: &Path, line: u64, loc: &str, role: Role) {
        let mut hasher = DefaultHasher::new();
        loc.hash(&mut hasher);
        let file = self.files.len() - 1;
        match self.seen.entry(hasher.finish()) {
            Entry::Occupied(first) => {
                let (first_file, first_line) = *first.get();
                let place = if first_file == file {
                    format!("line {first_line}")
                } else {
                    let first = crate::text::path(&self.files[first_file]);
                    format!("{first}:{first_line}")
                };
                let message = match role {
                    Role::Child => format!(
                        "child sitemap listed again (first at {place}): {}; list each child once",
                        shorten(loc)
                    ),
                    Role::Page | Role::Alternate | Role::Image | Role::FeedItem => {
                        format!("duplicate URL (also at {place}): {}", shorten(loc))
                    }
                };
                self.problem(path, line, Severity::Warning, message);
            }
            Entry::Vacant(slot) => {
                slot.insert((file, line));
            }
        }
    }
}

/// The problem of a URL of `len` bytes, past the protocol's limit.
fn too_long(role: Role, len: usize) -> String {
    format!("{} {}", role.noun(), crate::urls::LocProblem::TooLong(len))
}

/// Whether `value` is an `xs:decimal` from 0.0 to 1.0, as `<priority>` must be: digits
/// with at most one `.`, an optional sign.
pub(super) fn is_priority(value: &str) -> bool {
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    let decimal = digits.bytes().any(|b| b.is_ascii_digit())
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().filter(|&b| b == b'.').count() <= 1;
    decimal && value.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priorities_are_decimals_from_0_to_1() {
        for ok in [
            "0", "0.5", "1", "1.0", "+0.5", ".5", "0.", "-0", "-0.0", "1.000",
        ] {
            assert!(is_priority(ok), "{ok}");
        }
        for bad in [
            "", ".", "+", "1.1", "-0.5", "0,5", "1e-1", "0.5.1", "NaN", "++1", " 0.5",
        ] {
            assert!(!is_priority(bad), "{bad}");
        }
    }
}
