//! The Search Console API's sitemap calls: their URLs, and `sitemaps.get`'s answer read
//! into a [`SitemapStatus`].

use jiff::Timestamp;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

use super::GoogleError;
use super::property::Property;

/// Everything but RFC 3986's unreserved characters: the property and the sitemap are
/// each one path segment, so their `/`, `:` and `?` are encoded too.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `{api}sites/{property}/sitemaps/{sitemap}`, both percent-encoded whole: the URL of
/// `sitemaps.submit` (PUT) and `sitemaps.get` (GET). `api` ends in `/`.
pub(crate) fn sitemap_url(api: &str, property: &Property, sitemap: &str) -> String {
    format!(
        "{api}sites/{}/sitemaps/{}",
        utf8_percent_encode(property.as_str(), SEGMENT),
        utf8_percent_encode(sitemap, SEGMENT)
    )
}

/// What Search Console says of a sitemap (`sitemaps.get`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SitemapStatus {
    /// The sitemap's URL.
    pub path: String,
    /// When it was last submitted.
    pub last_submitted: Option<Timestamp>,
    /// When Google last read it.
    pub last_downloaded: Option<Timestamp>,
    /// Submitted, not read yet.
    pub is_pending: bool,
    /// A sitemap index.
    pub is_sitemaps_index: bool,
    /// Errors Google found in it.
    pub errors: u64,
    /// Warnings Google found in it.
    pub warnings: u64,
    /// URLs listed and indexed, by kind (`web`, `image`, `video`...).
    pub contents: Vec<SitemapContent>,
}

/// One kind of URL a sitemap lists.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SitemapContent {
    /// `web`, `image`, `video`, `news`...
    pub kind: String,
    /// URLs of that kind listed.
    pub submitted: u64,
    /// Of them, indexed (Google stopped filling this in for most sites: `None`).
    pub indexed: Option<u64>,
}

impl SitemapStatus {
    /// `sitemaps.get`'s JSON answer from `url` (counts come as strings: int64 in JSON);
    /// the error says what is not as documented.
    pub fn parse(json: &str, url: &str) -> Result<SitemapStatus, GoogleError> {
        let read = Reader { url };
        let value: Value = serde_json::from_str(json)
            .map_err(|e| read.bad(format!("a body that is not JSON ({e})")))?;
        if !value.is_object() {
            return Err(read.bad("a body that is not a JSON object".to_string()));
        }
        let contents = match value.get("contents") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => (items.iter())
                .map(|item| read.content(item))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(read.bad("contents that are not a list".to_string())),
        };
        Ok(SitemapStatus {
            path: read.text(&value, "path")?.unwrap_or_default(),
            last_submitted: read.time(&value, "lastSubmitted")?,
            last_downloaded: read.time(&value, "lastDownloaded")?,
            is_pending: read.flag(&value, "isPending")?,
            is_sitemaps_index: read.flag(&value, "isSitemapsIndex")?,
            errors: read.number(&value, "errors")?.unwrap_or(0),
            warnings: read.number(&value, "warnings")?.unwrap_or(0),
            contents,
        })
    }
}

/// Reads an answer's fields, an error naming the field and where it came from.
struct Reader<'a> {
    url: &'a str,
}

impl Reader<'_> {
    fn bad(&self, problem: String) -> GoogleError {
        GoogleError::Answer {
            endpoint: self.url.to_string(),
            problem,
        }
    }

    fn content(&self, item: &Value) -> Result<SitemapContent, GoogleError> {
        Ok(SitemapContent {
            kind: self.text(item, "type")?.unwrap_or_default(),
            submitted: self.number(item, "submitted")?.unwrap_or(0),
            indexed: self.number(item, "indexed")?,
        })
    }

    fn text(&self, value: &Value, field: &str) -> Result<Option<String>, GoogleError> {
        match value.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.bad(format!("a {field} that is not a string"))),
        }
    }

    fn time(&self, value: &Value, field: &str) -> Result<Option<Timestamp>, GoogleError> {
        let Some(text) = self.text(value, field)? else {
            return Ok(None);
        };
        (text.parse().map(Some))
            .map_err(|_| self.bad(format!("a {field} that is not an RFC 3339 time")))
    }

    fn flag(&self, value: &Value, field: &str) -> Result<bool, GoogleError> {
        match value.get(field) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.bad(format!("an {field} that is not true or false"))),
        }
    }

    /// An int64, which Google's JSON gives as a string (a number is taken too).
    fn number(&self, value: &Value, field: &str) -> Result<Option<u64>, GoogleError> {
        let bad = || self.bad(format!("a {field} that is not a count"));
        match value.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => s.parse().map(Some).map_err(|_| bad()),
            Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(bad),
            Some(_) => Err(bad()),
        }
    }
}
