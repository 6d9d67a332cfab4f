//! The path patterns of a host's rules, as Netlify and Cloudflare Pages match them:
//! `:name` is one segment, `*` alone is the rest of the path (maybe nothing), `*` in a
//! segment is any characters; case does not matter, and a trailing slash is optional.
//!
//! Written by hand: the hosts define this small language themselves (Netlify's
//! `@netlify/headers-parser` turns a pattern into a regular expression the same way),
//! and no crate implements it.

/// One part of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// Characters to match as they are (lower-case).
    Literal(String),
    /// One or more characters up to the next `/`.
    Segment,
    /// Any characters, `/` included, maybe none.
    Any,
}

/// A compiled path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    tokens: Vec<Token>,
}

impl Pattern {
    /// Compiles a path pattern (`/docs/*`, `/blog/:year/*.html`).
    pub fn new(pattern: &str) -> Pattern {
        let mut tokens = vec![Token::Literal("/".to_string())];
        let parts: Vec<&str> = (pattern.split('/').map(str::trim_end))
            .filter(|p| !p.is_empty())
            .collect();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                push_literal(&mut tokens, "/");
            }
            if part.starts_with(':') {
                tokens.push(Token::Segment);
            } else if *part == "*" {
                // `/docs/*` matches `/docs` too: the slash before the splat is optional
                // (`^/docs/?(.*)`, as Netlify's parser has it, so `/docsx` as well).
                if let Some(Token::Literal(text)) = tokens.last_mut() {
                    text.pop();
                    if text.is_empty() {
                        tokens.pop();
                    }
                }
                tokens.push(Token::Any);
            } else {
                for (j, piece) in part.split('*').enumerate() {
                    if j > 0 {
                        tokens.push(Token::Any);
                    }
                    push_literal(&mut tokens, &piece.to_lowercase());
                }
            }
        }
        Pattern { tokens }
    }

    /// Whether the path (decoded, starting with `/`) matches; a trailing `/` is optional.
    pub fn matches(&self, path: &str) -> bool {
        let path = path.to_lowercase();
        let trimmed = path.strip_suffix('/').filter(|p| !p.is_empty());
        let mut budget = MAX_STEPS;
        matches_from(&self.tokens, path.as_bytes(), &mut budget)
            || trimmed.is_some_and(|p| matches_from(&self.tokens, p.as_bytes(), &mut budget))
    }
}

/// The most steps one match may take: a pattern of many `*` against a long path cannot
/// make the run slow.
const MAX_STEPS: usize = 100_000;

fn push_literal(tokens: &mut Vec<Token>, text: &str) {
    if text.is_empty() {
        return;
    }
    match tokens.last_mut() {
        Some(Token::Literal(before)) => before.push_str(text),
        _ => tokens.push(Token::Literal(text.to_string())),
    }
}

/// Backtracking over the tokens; each `Any` tries every split, within the budget.
fn matches_from(tokens: &[Token], path: &[u8], budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Some((token, rest)) = tokens.split_first() else {
        return path.is_empty();
    };
    match token {
        Token::Literal(text) => path
            .strip_prefix(text.as_bytes())
            .is_some_and(|after| matches_from(rest, after, budget)),
        Token::Segment => {
            let end = path.iter().position(|&b| b == b'/').unwrap_or(path.len());
            (1..=end).any(|n| matches_from(rest, &path[n..], budget))
        }
        Token::Any => (0..=path.len()).any(|n| matches_from(rest, &path[n..], budget)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_the_hosts_match_them() {
        let table: &[(&str, &str, bool)] = &[
            ("/*", "/", true),
            ("/*", "/docs/a/b/", true),
            ("/docs/*", "/docs", true),
            ("/docs/*", "/docs/", true),
            ("/docs/*", "/docs/a/b.html", true),
            // As Netlify's own parser matches (`^/docs/?(.*)/?$`).
            ("/docs/*", "/docsx/a", true),
            ("/docs/*", "/doc", false),
            ("/docs", "/docs/", true),
            ("/docs/", "/docs", true),
            ("/Docs/", "/docs/", true),
            ("/blog/:year/*", "/blog/2024/post/", true),
            ("/blog/:year/*", "/blog//post/", false),
            ("/blog/:year", "/blog/2024/post/", false),
            ("/*.pdf", "/files/a.pdf", true),
            ("/drafts-*", "/drafts-2024/", true),
            ("/drafts-*", "/draft", false),
            ("/", "/", true),
            ("/", "/a", false),
        ];
        for &(pattern, path, want) in table {
            assert_eq!(
                Pattern::new(pattern).matches(path),
                want,
                "{pattern} {path}"
            );
        }
    }

    #[test]
    fn many_stars_against_a_long_path_give_up_within_the_budget() {
        // Exponential by backtracking alone; the budget ends it (a hang fails the run).
        let pattern = Pattern::new(&format!("{}b", "/*a".repeat(40)));
        let path = format!("/{}", "a".repeat(4000));
        assert!(!pattern.matches(&path));
    }
}
