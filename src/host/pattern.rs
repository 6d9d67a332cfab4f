//! The path patterns of the hosts' rules, each read as the regular expression its host
//! builds from it ([`translate`]). Most are a literal path, or a literal path and all
//! the paths under it: those keep their [`Shape`], and are matched by a lookup (see
//! `matcher`); only the others need their regular expression built, all of a kind into
//! one automaton.
//!
//! A pattern is refused by its length before anything is built of it.

mod shape;
mod translate;

pub(super) use shape::Shape;

/// The longest pattern read, in bytes as written: real ones are tens of bytes. A longer
/// one is refused before anything is built of it (a 4 MiB line took 423 MB to refuse).
pub(super) const MAX_PATTERN_BYTES: usize = 1024;

/// A path pattern: the regular expression its host builds from it, and its shape.
#[derive(Debug, Clone)]
pub struct Pattern {
    regex: String,
    shape: Shape,
}

/// The pattern languages the hosts use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Netlify: `:name` is one segment, a `*` segment is the rest of the path (the slash
    /// before it optional), a trailing slash is optional. Headers ignore case; redirects
    /// do not.
    Netlify {
        /// Whether case is ignored (headers).
        ignore_case: bool,
    },
    /// Cloudflare Pages: `*` is any characters, `:name` one segment, matched exactly.
    Cloudflare,
    /// Vercel's `path-to-regexp`: `:name`, `:name*`, `:name+`, `:name?`, `(regex)`,
    /// `{group}`; case ignored and a trailing slash optional.
    PathToRegexp,
    /// Firebase `source` globs: `**`, `*`, `?`, `{a,b}`, `@(a|b)`; and `:name` segments
    /// where a redirect's destination takes them (superstatic reads such a source with
    /// `path-to-regexp`; elsewhere `:name` is the text it is).
    Glob {
        /// Whether `:name` is a segment.
        names: bool,
    },
    /// Firebase `regex`: an RE2 expression, matched against the whole path.
    Regex,
}

/// Why a pattern the host's language allows is not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// Longer than [`MAX_PATTERN_BYTES`].
    #[error(
        "it is {} bytes long, and the most read is {}; shorten it",
        crate::text::thousands(*len),
        crate::text::thousands(MAX_PATTERN_BYTES)
    )]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// Not a pattern of its language, or one not supported here.
    #[error("{0}")]
    Syntax(String),
}

/// What is wrong with a regular expression, in one line: the regex crate's own message
/// draws the expression over several lines with a caret under the fault, and the
/// expression is the one translated from the pattern, not the pattern as written.
fn regex_error(e: &regex_syntax::Error) -> String {
    let why = match e {
        regex_syntax::Error::Parse(e) => e.kind().to_string(),
        regex_syntax::Error::Translate(e) => e.kind().to_string(),
        other => other.to_string(),
    };
    format!(
        "not a regular expression the host reads ({})",
        crate::text::one_line(&why)
    )
}

impl Pattern {
    /// Reads `pattern`, written in `syntax`: its length is checked first, then it is
    /// translated, and a regular expression is parsed (not compiled) to check it.
    pub fn new(pattern: &str, syntax: Syntax) -> Result<Pattern, PatternError> {
        if pattern.len() > MAX_PATTERN_BYTES {
            return Err(PatternError::TooLong { len: pattern.len() });
        }
        let regex = match syntax {
            Syntax::Netlify { ignore_case } => translate::netlify(pattern, ignore_case),
            Syntax::Cloudflare => translate::cloudflare(pattern),
            Syntax::PathToRegexp => {
                translate::path_to_regexp(pattern).map_err(PatternError::Syntax)?
            }
            Syntax::Glob { names } => {
                translate::glob(pattern, names).map_err(PatternError::Syntax)?
            }
            Syntax::Regex => format!("^(?:{pattern})$"),
        };
        let mut shape = shape::of(pattern, syntax);
        if let Shape::Regex { lead, fold } = &mut shape {
            // The whole syntax, as the regex crate reads it: a parse, not an automaton.
            let hir = regex_syntax::Parser::new().parse(&regex);
            let hir = hir.map_err(|e| PatternError::Syntax(regex_error(&e)))?;
            (*lead, *fold) = match regex.strip_prefix("(?i)") {
                Some(sensitive) => (
                    lead_of(&regex_syntax::parse(sensitive).unwrap_or(hir)),
                    true,
                ),
                None => (lead_of(&hir), false),
            };
            if *fold {
                *lead = self::fold(lead);
            }
        }
        Ok(Pattern { regex, shape })
    }

    /// The regular expression its host builds from it.
    pub fn regex(&self) -> &str {
        &self.regex
    }

    /// How it is matched.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
}

/// The text every match of `hir` starts with (the longest prefix of its literal
/// prefixes); empty when there is none.
fn lead_of(hir: &regex_syntax::hir::Hir) -> String {
    let seq = regex_syntax::hir::literal::Extractor::new().extract(hir);
    let bytes = seq.longest_common_prefix().unwrap_or_default();
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(e) => String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned(),
    }
}

/// `text` with each character replaced by the first of those the regex crate's `(?i)`
/// takes for it (its simple case folding: `k`, `K` and the Kelvin sign are one), so two
/// texts match without case exactly when their folds are equal. Character for character:
/// the `n`th character of the fold is that of `text`.
pub(super) fn fold(text: &str) -> String {
    text.chars().map(fold_char).collect()
}

fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let range = regex_syntax::hir::ClassUnicodeRange::new(c, c);
    let mut class = regex_syntax::hir::ClassUnicode::new([range]);
    class.case_fold_simple();
    class.ranges().first().map_or(c, |r| r.start())
}

#[cfg(test)]
mod tests;
