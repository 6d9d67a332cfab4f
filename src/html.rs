//! What the two html5gum emitters (a page's head in `page`, a page's content in
//! `lastmod::content`) share, so the copies cannot drift.

/// The most bytes of a tag or attribute name kept: names we look for are short, and a
/// hostile page's 2 GiB name must not be held.
pub(crate) const MAX_NAME: usize = 1024;

/// Appends `s` to `buf` as far as `cap` bytes allow; the rest is dropped.
pub(crate) fn push_capped(buf: &mut Vec<u8>, s: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len());
    buf.extend_from_slice(&s[..s.len().min(room)]);
}

/// The `html5gum::Emitter` methods both emitters write alike: neither keeps comments,
/// doctypes or parse errors, and both collect a tag's name into `self.tag` and an
/// attribute's name into `self.attr_name`. Expands inside `impl html5gum::Emitter`;
/// a macro because the trait gives these methods no defaults.
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
    };
}

pub(crate) use emitter_basics;
