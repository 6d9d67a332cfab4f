//! Checks of one URL as a sitemap gives it: form, encoding, length, host, duplicates.

use std::collections::hash_map::{DefaultHasher, Entry};
use std::hash::{Hash, Hasher};
use std::path::Path;

use super::{Checker, Severity, shorten};
use crate::url::MAX_URL_LEN;

impl Checker<'_> {
    /// Checks `loc`, found at `line` of `path`, and counts it.
    pub(super) fn check_loc(&mut self, path: &Path, line: u64, loc: &str) {
        self.report.urls += 1;
        if loc.len() >= MAX_URL_LEN {
            let message = format!(
                "URL is {} characters; the protocol allows fewer than 2,048",
                loc.len()
            );
            self.problem(path, line, Severity::Error, message);
        }
        if let Some(bad) = crate::url::needs_encoding(loc) {
            let message = format!(
                "URL holds {bad}, which must be percent-encoded: {}",
                shorten(loc)
            );
            self.problem(path, line, Severity::Error, message);
        }
        let parsed = url::Url::parse(loc)
            .ok()
            .filter(|u| is_absolute_http(loc) && u.host().is_some());
        let Some(parsed) = parsed else {
            let message = format!("'{}' is not an absolute http(s) URL", shorten(loc));
            self.problem(path, line, Severity::Error, message);
            return;
        };
        if let Some(base) = &self.options.base_url
            && parsed.host_str() != base.url().host_str()
        {
            let message = format!(
                "URL is on {}, not on {}",
                parsed.host_str().unwrap_or(""),
                base.url().host_str().unwrap_or("")
            );
            self.problem(path, line, Severity::Warning, message);
        }
        self.duplicate(path, line, loc);
        if let Some(robots) = &self.robots
            && !robots.allows(loc)
        {
            let message = format!(
                "URL is blocked by {}: {}",
                robots.path.display(),
                shorten(loc)
            );
            self.problem(path, line, Severity::Warning, message);
        }
    }

    /// Warns about a URL seen before in this file or another of the same sitemap (an
    /// index and its children), naming where.
    fn duplicate(&mut self, path: &Path, line: u64, loc: &str) {
        let mut hasher = DefaultHasher::new();
        loc.hash(&mut hasher);
        let file = self.files.len() - 1;
        match self.seen.entry(hasher.finish()) {
            Entry::Occupied(first) => {
                let (first_file, first_line) = *first.get();
                let place = if first_file == file {
                    format!("line {first_line}")
                } else {
                    format!("{}:{first_line}", self.files[first_file].display())
                };
                let message = format!("duplicate URL (also at {place}): {}", shorten(loc));
                self.problem(path, line, Severity::Warning, message);
            }
            Entry::Vacant(slot) => {
                slot.insert((file, line));
            }
        }
    }
}

/// Whether `loc` is written as an absolute http(s) URL with a host: `scheme://host`.
/// The `url` crate reads `http:example.com` and `https:///path` as such (as browsers
/// do); a sitemap must spell it out.
fn is_absolute_http(loc: &str) -> bool {
    let Some((scheme, rest)) = loc.split_once("://") else {
        return false;
    };
    (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
        && !rest.is_empty()
        && !rest.starts_with(['/', '?', '#'])
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
    fn absolute_urls_spell_out_scheme_and_host() {
        for ok in [
            "https://e.org/",
            "HTTP://e.org",
            "https://e.org?x",
            "http://[::1]/",
        ] {
            assert!(is_absolute_http(ok), "{ok}");
        }
        for bad in [
            "https:///path",
            "http:example.com",
            "//e.org/",
            "ftp://e.org/",
            "https://",
            "e.org",
        ] {
            assert!(!is_absolute_http(bad), "{bad}");
        }
    }

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
