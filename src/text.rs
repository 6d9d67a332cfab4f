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

/// `n` with thousands separators and the noun in the number it takes: `1 URL`,
/// `1,234 URLs`, `0 URLs`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
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
    fn control_characters_are_escaped() {
        assert_eq!(one_line("a\nb\tc\u{7}"), "a\\nb\\tc\\u{7}");
        assert_eq!(one_line("plain ü"), "plain ü");
    }
}
