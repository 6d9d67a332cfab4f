//! The tags a reader of a page tells apart, each told once per tag read (by the fast
//! scan or the emitter) and handed to every collector with its name: three collectors
//! ride one pass, and each comparing every tag's name with the ones it knows was a
//! twentieth of a run with every feature on.

use html5gum::State;

/// A tag some reader of a page looks for; [`Tag::Other`] for the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    A,
    Article,
    Base,
    Body,
    Head,
    Html,
    Iframe,
    Img,
    Link,
    Main,
    Meta,
    Noembed,
    /// html5gum reads `<noframe>` (not `<noframes>`) as raw text, and the scan follows it.
    Noframe,
    Noscript,
    Plaintext,
    Script,
    Style,
    Template,
    Textarea,
    Title,
    Xmp,
    /// Any other name.
    Other,
}

impl Tag {
    /// The tag named `name` (lower-cased, as the tokenizer gives it).
    pub(crate) fn of(name: &[u8]) -> Tag {
        match name {
            b"a" => Tag::A,
            b"article" => Tag::Article,
            b"base" => Tag::Base,
            b"body" => Tag::Body,
            b"head" => Tag::Head,
            b"html" => Tag::Html,
            b"iframe" => Tag::Iframe,
            b"img" => Tag::Img,
            b"link" => Tag::Link,
            b"main" => Tag::Main,
            b"meta" => Tag::Meta,
            b"noembed" => Tag::Noembed,
            b"noframe" => Tag::Noframe,
            b"noscript" => Tag::Noscript,
            b"plaintext" => Tag::Plaintext,
            b"script" => Tag::Script,
            b"style" => Tag::Style,
            b"template" => Tag::Template,
            b"textarea" => Tag::Textarea,
            b"title" => Tag::Title,
            b"xmp" => Tag::Xmp,
            _ => Tag::Other,
        }
    }

    /// Whether it may stand in a head; any other start tag means the body has begun.
    pub(crate) fn in_head(self) -> bool {
        matches!(
            self,
            Tag::Html
                | Tag::Head
                | Tag::Title
                | Tag::Base
                | Tag::Link
                | Tag::Meta
                | Tag::Style
                | Tag::Script
                | Tag::Noscript
                | Tag::Template
        )
    }

    /// The tokenizer state its content is read in, as html5gum's `naive_next_state`
    /// tells it from the name.
    pub(crate) fn content_state(self) -> Option<State> {
        match self {
            Tag::Textarea | Tag::Title => Some(State::RcData),
            Tag::Plaintext => Some(State::PlainText),
            Tag::Script => Some(State::ScriptData),
            Tag::Style | Tag::Iframe | Tag::Xmp | Tag::Noembed | Tag::Noframe | Tag::Noscript => {
                Some(State::RawText)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name is told as itself, whatever else it resembles, and its content is read
    /// in the state html5gum gives its name.
    #[test]
    fn names_are_told_as_html5gum_reads_them() {
        let names: &[&[u8]] = &[
            b"a",
            b"article",
            b"base",
            b"body",
            b"head",
            b"html",
            b"iframe",
            b"img",
            b"link",
            b"main",
            b"meta",
            b"noembed",
            b"noframe",
            b"noscript",
            b"plaintext",
            b"script",
            b"style",
            b"template",
            b"textarea",
            b"title",
            b"xmp",
        ];
        let mut told = Vec::new();
        for name in names {
            let tag = Tag::of(name);
            assert_ne!(tag, Tag::Other, "{name:?}");
            assert!(!told.contains(&tag), "{name:?}");
            told.push(tag);
        }
        let others: &[&[u8]] = &[b"", b"p", b"div", b"noframes", b"A", b"imgx", b"scrip"];
        let head: &[&[u8]] = &[
            b"html",
            b"head",
            b"title",
            b"base",
            b"link",
            b"meta",
            b"style",
            b"script",
            b"noscript",
            b"template",
        ];
        for name in names.iter().chain(others) {
            let tag = Tag::of(name);
            assert_eq!(
                tag.content_state(),
                html5gum::naive_next_state(name),
                "{name:?}"
            );
            assert_eq!(tag.in_head(), head.contains(name), "{name:?}");
        }
        assert_eq!(Tag::of(b"noframes"), Tag::Other);
    }
}
