//! What sitemapgen knows of each host, in one table ([`ALL`]): the project files that
//! name it, the files it reads and in which format, how it answers (redirects before
//! files or after, how header values of several rules join, the path its header rules
//! see) and the URL form it serves whatever its files say. Adding a host is a row here
//! and, for a format no host has yet, a parser.

use super::json::Json;
use super::pattern::Syntax;
use super::rules::Joined;
use super::{FIREBASE_JSON, HEADERS_FILE, Hosting, NETLIFY_TOML, REDIRECTS_FILE, VERCEL_JSON};

/// Where a host's file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// In the output folder, deployed with the site (`_headers`).
    Output,
    /// In the project: the config file's folder, else beside the output folder.
    Project,
}

/// How a host file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// `_headers`: paths, each with its headers below it, the paths in `Syntax`.
    Headers(Syntax),
    /// `_redirects`: a rule a line, the paths in `Syntax`, `u16` when no status is given.
    Redirects(Syntax, u16),
    /// `netlify.toml`'s `[[headers]]` and `[[redirects]]`.
    NetlifyToml,
    /// `vercel.json` or `firebase.json`.
    Json(Json),
}

/// One file a host reads.
#[derive(Debug, Clone, Copy)]
pub(super) struct File {
    pub name: &'static str,
    pub place: Place,
    pub format: Format,
}

/// The file of its own in which a host is told to serve our views with noindex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OwnHeaders {
    /// `_headers` in the output folder: edited when there, and made when `create` (the
    /// host's marker says it reads one) or `host_headers = true` asks.
    HeadersFile { create: bool },
    /// `vercel.json`, only when `host_headers = true` asks.
    VercelJson,
}

/// What a host does with the site's paths.
#[derive(Debug)]
pub(super) struct Description {
    pub hosting: Hosting,
    /// The name `hosting` takes in `sitemap.toml`.
    pub name: &'static str,
    /// Project files any one of which names the host.
    pub markers: &'static [&'static str],
    /// The files it reads, in the order their rules apply.
    pub files: &'static [File],
    /// How the `X-Robots-Tag` of several rules that match a path are joined.
    pub joined: Joined,
    /// Whether its header rules match the path as the request sends it, percent-encoded
    /// (else decoded).
    pub headers_encoded: bool,
    /// Whether a page's own file is served before an unforced redirect (Netlify's
    /// shadowing); else redirects are answered first.
    pub files_shadow: bool,
    /// Whether it serves `about.html` as `/about` whatever its files say.
    pub clean_urls: bool,
    /// Where our views' noindex header goes.
    pub own_headers: OwnHeaders,
}

const NETLIFY_HEADERS: File = File {
    name: HEADERS_FILE,
    place: Place::Output,
    format: Format::Headers(Syntax::Netlify { ignore_case: true }),
};

const NETLIFY_REDIRECTS: File = File {
    name: REDIRECTS_FILE,
    place: Place::Output,
    format: Format::Redirects(Syntax::Netlify { ignore_case: false }, 301),
};

/// Every host, in the order their markers are looked for; the first is also how
/// `_headers` and `_redirects` are read when no host is named (the format is Netlify's).
pub(super) const ALL: [Description; 4] = [
    Description {
        hosting: Hosting::Netlify,
        name: "netlify",
        markers: &[NETLIFY_TOML],
        files: &[
            NETLIFY_HEADERS,
            NETLIFY_REDIRECTS,
            File {
                name: NETLIFY_TOML,
                place: Place::Project,
                format: Format::NetlifyToml,
            },
        ],
        // As netlify-cli and `@netlify/headers-parser` merge them.
        joined: Joined::Last,
        headers_encoded: false,
        files_shadow: true,
        clean_urls: false,
        own_headers: OwnHeaders::HeadersFile { create: true },
    },
    Description {
        hosting: Hosting::Cloudflare,
        name: "cloudflare",
        markers: &["wrangler.toml", "wrangler.json", "wrangler.jsonc"],
        files: &[
            File {
                name: HEADERS_FILE,
                place: Place::Output,
                format: Format::Headers(Syntax::Cloudflare),
            },
            File {
                name: REDIRECTS_FILE,
                place: Place::Output,
                format: Format::Redirects(Syntax::Cloudflare, 302),
            },
        ],
        joined: Joined::ByPattern,
        headers_encoded: true,
        files_shadow: false,
        clean_urls: true,
        own_headers: OwnHeaders::HeadersFile { create: false },
    },
    Description {
        hosting: Hosting::Vercel,
        name: "vercel",
        markers: &[VERCEL_JSON],
        files: &[File {
            name: VERCEL_JSON,
            place: Place::Project,
            format: Format::Json(Json::Vercel),
        }],
        joined: Joined::Last,
        headers_encoded: false,
        files_shadow: false,
        clean_urls: false,
        own_headers: OwnHeaders::VercelJson,
    },
    Description {
        hosting: Hosting::Firebase,
        name: "firebase",
        markers: &[FIREBASE_JSON],
        files: &[File {
            name: FIREBASE_JSON,
            place: Place::Project,
            format: Format::Json(Json::Firebase),
        }],
        // superstatic sets each matching rule's headers in turn.
        joined: Joined::Last,
        headers_encoded: true,
        files_shadow: false,
        clean_urls: false,
        own_headers: OwnHeaders::HeadersFile { create: false },
    },
];

impl Hosting {
    /// What sitemapgen knows of the host.
    pub(super) fn described(self) -> &'static Description {
        (ALL.iter())
            .find(|d| d.hosting == self)
            .expect("every host has its row")
    }
}

impl Description {
    /// How the file of this name is read, when the host reads one of that name.
    pub(super) fn format_of(&self, name: &str) -> Option<Format> {
        self.files.iter().find(|f| f.name == name).map(|f| f.format)
    }
}
