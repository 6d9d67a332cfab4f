//! What the html5gum emitters (a page's head in `page`, its content in
//! `lastmod::content`, its images in `images`) share, so the copies cannot drift.

/// The most bytes of a tag or attribute name kept: names we look for are short, and a
/// hostile page's 2 GiB name must not be held.
pub(crate) const MAX_NAME: usize = 1024;

/// Runs `emitter` over everything `input` holds, read 64 KiB at a time: the page is
/// never held whole.
pub(crate) fn stream<E: html5gum::Emitter<Token = ()>>(
    input: impl std::io::Read,
    emitter: E,
) -> std::io::Result<()> {
    let input = std::io::BufReader::with_capacity(64 * 1024, input);
    let reader = html5gum::IoReader::new(input);
    for token in html5gum::Tokenizer::new_with_emitter(reader, emitter) {
        token?;
    }
    Ok(())
}

/// [`stream`] over HTML held in memory.
pub(crate) fn stream_bytes<E: html5gum::Emitter<Token = ()>>(html: &[u8], emitter: E) {
    for token in html5gum::Tokenizer::new_with_emitter(html, emitter) {
        let Ok(()) = token;
    }
}

/// Appends `s` to `buf` as far as `cap` bytes allow; the rest is dropped.
pub(crate) fn push_capped(buf: &mut Vec<u8>, s: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len());
    buf.extend_from_slice(&s[..s.len().min(room)]);
}

/// The `html5gum::Emitter` methods our emitters write alike: none keeps comments,
/// doctypes or parse errors, and each collects a tag's name into `self.tag`, whether it
/// is an end tag into `self.is_end_tag`, the last start tag's name into
/// `self.last_start_tag` and an attribute's name into `self.attr_name`. Expands inside
/// `impl html5gum::Emitter`; a macro because the trait gives these methods no defaults.
macro_rules! emitter_basics {
    () => {
        fn emit_eof(&mut self) {}

        fn emit_error(&mut self, _: html5gum::Error) {}

        fn should_emit_errors(&mut self) -> bool {
            false
        }

        fn emit_current_comment(&mut self) {}

        fn emit_current_doctype(&mut self) {}

        fn set_self_closing(&mut self) {}

        fn set_force_quirks(&mut self) {}

        fn push_comment(&mut self, _: &[u8]) {}

        fn push_doctype_name(&mut self, _: &[u8]) {}

        fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

        fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

        fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

        fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

        fn push_tag_name(&mut self, s: &[u8]) {
            $crate::html::push_capped(&mut self.tag, s, $crate::html::MAX_NAME);
        }

        fn push_attribute_name(&mut self, s: &[u8]) {
            $crate::html::push_capped(&mut self.attr_name, s, $crate::html::MAX_NAME);
        }

        fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
            self.last_start_tag.clear();
            self.last_start_tag
                .extend_from_slice(last_start_tag.unwrap_or_default());
        }

        fn current_is_appropriate_end_tag_token(&mut self) -> bool {
            self.is_end_tag && !self.last_start_tag.is_empty() && self.last_start_tag == self.tag
        }
    };
}

pub(crate) use emitter_basics;
