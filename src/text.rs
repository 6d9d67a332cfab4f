//! Text for messages: user values quoted on one line, and counted nouns; values read
//! from sitemaps, bounded.

/// Whether `c` controls how text is shown rather than being shown: Unicode's control
/// characters, and the bidirectional formatting characters (marks, embeddings,
/// overrides, isolates), which can show a URL or a line reversed (U+202E).
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// A user's value as quoted in a one-line message: control characters (newlines above
/// all, and bidirectional controls) escaped, so a message is always one line and reads
/// in the order it is written.
pub fn one_line(value: &str) -> String {
    if !value.chars().any(is_control) {
        return value.to_string();
    }
    value
        .chars()
        .flat_map(|c| {
            let text: Vec<char> = if is_control(c) {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            text
        })
        .collect()
}

/// The candidate `wrong` was most likely meant to be (a typo: `publc_dir`, `contnet`),
/// compared without case; `None` when none is close (Jaro-Winkler similarity 0.8, as
/// close as a letter or two in a short word).
pub fn closest<'c>(wrong: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let wrong = wrong.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&wrong, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// A value for a one-line message: [`one_line`], and cut at 120 characters, so a long
/// value (a URL read from a file) cannot drown the message.
pub fn shorten(s: &str) -> String {
    let escaped = one_line(s);
    if escaped.chars().count() > 120 {
        format!("{}...", escaped.chars().take(117).collect::<String>())
    } else {
        escaped
    }
}

/// URLs this long or longer are refused by the sitemaps.org protocol.
pub const MAX_URL_LEN: usize = 2048;

/// The most of one value read from a sitemap that is kept: four times the longest URL
/// the protocol allows, so any value past it is refused by its length alone and a longer
/// prefix would tell nothing more.
pub const KEPT_BYTES: usize = 4 * MAX_URL_LEN;

/// A value read in pieces (XML text, references, CDATA) of which only the first
/// [`KEPT_BYTES`] are kept, with its whole length: a hostile file's gigabyte-long `<loc>`
/// costs no memory, and is still measured.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Bounded {
    kept: String,
    len: usize,
}

impl Bounded {
    /// Appends `piece`, keeping what fits (cut at a character boundary).
    pub fn push(&mut self, piece: &str) {
        self.len = self.len.saturating_add(piece.len());
        let mut end = piece.len().min(KEPT_BYTES.saturating_sub(self.kept.len()));
        while !piece.is_char_boundary(end) {
            end -= 1;
        }
        self.kept.push_str(&piece[..end]);
    }

    /// Empties it for the next value.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.len = 0;
    }

    /// What was kept: the whole value when [`Bounded::is_whole`].
    pub fn as_str(&self) -> &str {
        &self.kept
    }

    /// The value's length in bytes, kept or not.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was pushed (or only empty pieces).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether all of the value was kept.
    pub fn is_whole(&self) -> bool {
        self.len == self.kept.len()
    }
}

/// `n` with thousands separators and the noun in the number it takes: `1 URL`,
/// `1,234 URLs`, `0 URLs`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A size for messages: whole MiB or KiB when it is one (`50 MiB`, `16 KiB`), else bytes.
pub fn bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    match n {
        n if n >= MIB && n.is_multiple_of(MIB) => format!("{} MiB", n / MIB),
        n if n >= KIB && n.is_multiple_of(KIB) => format!("{} KiB", n / KIB),
        n => count(n as usize, "byte", "bytes"),
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A near miss finds what was meant; nothing near finds nothing.
    #[test]
    fn closest_names_a_near_miss_only() {
        let keys = ["base_url", "public_dir", "output", "lastmod", "images"];
        let table = [
            ("publc_dir", Some("public_dir")),
            ("PUBLIC_DIR", Some("public_dir")),
            ("lastmdo", Some("lastmod")),
            ("image", Some("images")),
            ("zzzzz", None),
            ("", None),
        ];
        for (wrong, meant) in table {
            assert_eq!(closest(wrong, keys), meant, "{wrong}");
        }
    }

    #[test]
    fn counts_take_the_right_number() {
        let table = [
            (0, "0 URLs"),
            (1, "1 URL"),
            (2, "2 URLs"),
            (1000, "1,000 URLs"),
            (1_234_567, "1,234,567 URLs"),
        ];
        for (n, want) in table {
            assert_eq!(count(n, "URL", "URLs"), want);
        }
    }

    #[test]
    fn bounded_values_keep_a_prefix_and_the_whole_length() {
        let mut value = Bounded::default();
        value.push("https://e.org/a");
        assert!(value.is_whole());
        assert_eq!(value.as_str(), "https://e.org/a");
        // Past the cap, a two-byte character is not cut in half.
        value.push(&"ü".repeat(KEPT_BYTES));
        assert!(!value.is_whole());
        assert_eq!(value.len(), 15 + 2 * KEPT_BYTES);
        assert_eq!(value.as_str().len(), KEPT_BYTES - 1);
        value.push("more");
        assert_eq!(value.as_str().len(), KEPT_BYTES, "'m' fills the last byte");
        value.clear();
        assert!(value.is_empty() && value.is_whole());
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(one_line("a\nb\tc\u{7}"), "a\\nb\\tc\\u{7}");
        assert_eq!(one_line("gro.\u{202e}elpmaxe"), "gro.\\u{202e}elpmaxe");
        assert_eq!(one_line("a\u{2067}b\u{2069}"), "a\\u{2067}b\\u{2069}");
        assert_eq!(one_line("plain ü"), "plain ü");
    }
}
