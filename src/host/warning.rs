//! What of the host's files is not applied, as a warning: the run goes on without it.

use std::path::PathBuf;

use super::rules::BadPattern;
use super::{MAX_NAMED_BAD, MAX_RULES};

/// Something of the host's files that is not applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostWarning {
    /// A file that cannot be read or parsed.
    #[error("{0}; its rules are not applied")]
    Unread(Unread),
    /// More rules of a kind than are applied.
    #[error("the host's files hold {count} {kind} rules; the first {MAX_RULES} are applied")]
    TooMany {
        /// `headers` or `redirects`.
        kind: &'static str,
        /// How many the files hold.
        count: usize,
    },
    /// A rule whose pattern is not applied.
    #[error("{0}; that rule is not applied")]
    Pattern(BadPattern),
    /// How many more such rules there are than are named.
    #[error(
        "{} more of the host's rules are not applied for their patterns (the first {MAX_NAMED_BAD} are named above)",
        crate::text::thousands(*.0)
    )]
    MorePatterns(usize),
    /// The host serves another URL form than a key of `sitemap.toml` lists.
    #[error(
        "{by} serves {name}: {host}, but {key} = {ours} lists URLs the host redirects; \
         remove {key} from sitemap.toml"
    )]
    Form {
        /// What sets the host's form: `vercel.json:2`, or `Cloudflare Pages`.
        by: String,
        /// The host's name for it (`trailingSlash`).
        name: &'static str,
        /// Ours (`trailing_slash`).
        key: &'static str,
        /// The host's value.
        host: bool,
        /// Ours.
        ours: bool,
    },
}

/// A host file that cannot be read or parsed: where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {why}", crate::text::path(file), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct Unread {
    /// The file.
    pub file: PathBuf,
    /// The line at fault, when the parser names one.
    pub line: Option<usize>,
    /// What the OS or the parser said.
    pub why: String,
}
