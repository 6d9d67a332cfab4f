//! A list of URLs kept as one text, for change lists of millions of URLs.

use std::fmt;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::packed::Packed;

/// URLs kept as one text and where each ends (`packed::Packed`): a list costs its bytes and a
/// word per URL, not an allocation per URL. Read and written as a JSON array of strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UrlList(Packed);

impl UrlList {
    /// How many URLs it holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// The `i`th URL; panics past the end, as indexing does.
    pub fn get(&self, i: usize) -> &str {
        as_str(self.0.get(i))
    }

    /// Every URL, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(as_str)
    }

    /// Adds `url` at the end.
    pub fn push(&mut self, url: &str) {
        self.0.push(url.as_bytes());
    }
}

/// A URL's bytes as [`UrlList::push`] pushed them: whole `str`s, so valid UTF-8.
fn as_str(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("a UrlList holds only whole strs")
}

impl<'a> FromIterator<&'a str> for UrlList {
    fn from_iter<I: IntoIterator<Item = &'a str>>(urls: I) -> UrlList {
        let mut list = UrlList::default();
        urls.into_iter().for_each(|u| list.push(u));
        list
    }
}

impl Serialize for UrlList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for UrlList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UrlList, D::Error> {
        deserializer.deserialize_seq(ListVisitor)
    }
}

/// Reads the array, each string appended where it is read.
struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = UrlList;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of URLs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UrlList, A::Error> {
        let mut list = UrlList::default();
        while seq.next_element_seed(Append(&mut list))?.is_some() {}
        list.0.shrink_to_fit();
        Ok(list)
    }
}

/// Appends one string of the array to the list, borrowed from the parser's buffer.
struct Append<'l>(&'l mut UrlList);

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Append<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a URL")
    }

    fn visit_str<E: de::Error>(self, url: &str) -> Result<(), E> {
        self.0.push(url);
        Ok(())
    }
}
