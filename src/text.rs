//! Text for messages and files: user values quoted on one line, as TOML strings, and
//! counted nouns; values read from sitemaps, bounded.

/// Whether `c` is a character no value may show raw, in a message or a file we write:
/// a control character (newlines above all), or a bidirectional-text control (U+061C,
/// U+200E/F, U+202A-U+202E, U+2066-U+2069), which reorders what a reader sees around it;
/// and the line and paragraph separators (U+2028, U+2029), which editors show as line
/// breaks.
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// A user's value as quoted in a one-line message or a comment of a file we write:
/// [`is_control`] characters escaped (`\n`, `\u{202e}`), so it is always one line and
/// shows what it holds.
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

/// A path as every message and JSON value names it: with `/` between its parts on every
/// platform, as the config's globs and the site's URLs write them, so output reads and
/// compares the same on Windows (whose `\` is never part of a name there). Not escaped:
/// for JSON, which escapes itself; messages take [`path`].
pub fn slashed(path: &std::path::Path) -> String {
    let shown = path.display().to_string();
    match std::path::MAIN_SEPARATOR {
        '/' => shown,
        separator => shown.replace(separator, "/"),
    }
}

/// A path as every message shows it: [`slashed`] and [`one_line`], so a file name
/// cannot break or reorder the line it is quoted in.
pub fn path(path: &std::path::Path) -> String {
    one_line(&slashed(path))
}

/// `value` as a TOML basic string on one line: quotes and backslashes escaped, and every
/// [`is_control`] character (TOML itself requires it of most of them), so a value read
/// from a file can neither end the line nor hide in it.
pub fn toml_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_control(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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

/// The byte-order mark (U+FEFF), which UTF-8 does not need: where a file of the user's
/// starts with it, it is skipped when read (never part of the first line's value) and
/// kept when the file is edited.
pub const BOM: &str = "\u{feff}";

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
        let table = [
            ("a\nb\tc\u{7}", "a\\nb\\tc\\u{7}"),
            ("plain ü", "plain ü"),
            ("evil\u{202e}txt.exe", "evil\\u{202e}txt.exe"),
            ("\u{2066}a\u{2069}\u{1b}", "\\u{2066}a\\u{2069}\\u{1b}"),
            ("line\u{2028}break", "line\\u{2028}break"),
        ];
        for (value, want) in table {
            assert_eq!(one_line(value), want, "{value:?}");
        }
    }

    /// A path joined by the platform names its parts with `/` on every platform, and a
    /// message's copy of it is one line.
    #[test]
    fn paths_are_shown_with_slashes() {
        let page = std::path::Path::new("public")
            .join("a b")
            .join("index.html");
        assert_eq!(slashed(&page), "public/a b/index.html");
        let odd = std::path::Path::new("public").join("x\ny.html");
        assert_eq!(path(&odd), "public/x\\ny.html");
    }

    /// TOML strings are one line with no raw control, and parse back to the value.
    #[test]
    fn toml_strings_escape_and_read_back() {
        let table = [
            ("plain/ü", r#""plain/ü""#),
            ("a \"b\" \\c", r#""a \"b\" \\c""#),
            ("site\nkey = 1\n#", r#""site\nkey = 1\n#""#),
            ("\t\r\u{1b}\u{7f}", r#""\t\r\u001B\u007F""#),
            ("\u{202e}x\u{2066}", r#""\u202Ex\u2066""#),
        ];
        for (value, want) in table {
            let written = toml_string(value);
            assert_eq!(written, want, "{value:?}");
            let table: toml::Table = format!("k = {written}").parse().unwrap();
            assert_eq!(table["k"].as_str(), Some(value));
        }
    }
}
