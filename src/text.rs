//! Text for messages: user values quoted on one line, and counted nouns.

/// A user's value as quoted in a one-line message: control characters (newlines above
/// all) escaped, so a message is always one line.
pub fn one_line(value: &str) -> String {
    if !value.chars().any(char::is_control) {
        return value.to_string();
    }
    value
        .chars()
        .flat_map(|c| {
            let text: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            text
        })
        .collect()
}

/// The text an XML reference stands for: a character reference (`#38`, `#x26`) or one
/// of the five predefined entities (`amp`, `lt`, `gt`, `apos`, `quot`), given its name
/// without `&` and `;`. `None` for anything else (an undefined entity). Written by hand:
/// these six cases are all XML defines without a DTD, and a sitemap has no DTD.
pub fn xml_reference(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code).filter(|&c| c != '\0');
    }
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => None,
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
    fn xml_references_are_decoded_alike_everywhere() {
        let table = [
            ("amp", Some('&')),
            ("lt", Some('<')),
            ("quot", Some('"')),
            ("#38", Some('&')),
            ("#x26", Some('&')),
            ("#X26", Some('&')),
            ("#252", Some('ü')),
            ("#0", None),
            ("#xD800", None),
            ("#x", None),
            ("nbsp", None),
            ("", None),
        ];
        for (name, want) in table {
            assert_eq!(xml_reference(name), want, "{name}");
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(one_line("a\nb\tc\u{7}"), "a\\nb\\tc\\u{7}");
        assert_eq!(one_line("plain ü"), "plain ü");
    }
}
