//! Bad configs: each error is one line naming where, which key, what is wrong and the fix.

use super::*;

/// A near miss names what was meant; a key like no other keeps serde's list of keys.
#[test]
fn near_misses_name_what_was_meant() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            format!("{b}publc_dir = 'public'"),
            &[
                "sitemap.toml:2:1",
                "unknown key `publc_dir`; did you mean `public_dir`?",
            ],
        ),
        (
            format!("{b}format = 'xm'"),
            &["unknown value `xm`; did you mean `xml`? (one of `xml`, `txt`)"],
        ),
        (
            format!("{b}lastmod = ['contnet']"),
            &["'contnet' is not a lastmod source (did you mean \"content\"?)"],
        ),
        (
            format!("{b}[source]\ngenerator = 'hgo'"),
            &["'hgo' is not a generator whose sources are known (did you mean hugo?)"],
        ),
        (
            format!("{b}zzzzz = 1"),
            &["unknown field `zzzzz`, expected one of `base_url`, `public_dir`"],
        ),
    ]);
}

/// A top-level key written after a table header is in that table: the error says so,
/// names the table, and says where to move the key.
#[test]
fn top_level_keys_inside_a_table_are_told_to_move() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            format!("{b}[source]\ngenerator = 'hugo'\nrobots_txt = 'update'"),
            &[
                "sitemap.toml:4:1: `robots_txt` is a top-level key, but here it is inside [source]; move it above the first table ([source], line 2)",
            ],
        ),
        (
            format!(
                "{b}[defaults]\npriority = 0.5\n[[rule]] # blog\nmatch = 'a/**'\nimages = true"
            ),
            &[
                "sitemap.toml:6:1: `images` is a top-level key, but here it is inside [[rule]]; move it above the first table ([defaults], line 2)",
            ],
        ),
    ]);
}

/// A value of the wrong type is answered with the form to write.
#[test]
fn wrong_types_show_the_right_form() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            format!("{b}[source]\ncontent = \"content\""),
            &[
                "sitemap.toml:3:11: `content` expected a list, found string \"content\"; write content = [\"content\"]",
            ],
        ),
        (
            format!("{b}extensions = 'html' # pages"),
            &["`extensions` expected a list, found string \"html\"; write extensions = ['html']"],
        ),
        (
            format!("{b}gzip = 'yes'"),
            &[
                "sitemap.toml:2:8: `gzip` expected a boolean, found string \"yes\"; write gzip = true (or false)",
            ],
        ),
        (
            format!("{b}site_name = 3"),
            &["`site_name` expected a string, found integer `3`; write site_name = \"3\""],
        ),
    ]);
}

/// Other tools' names for our keys name ours, never a key that merely looks alike.
#[test]
fn other_tools_keys_name_ours() {
    let b = "base_url = 'https://example.org/'\n";
    let ours = |key: &str, ours: &str| {
        (
            format!("{key} = 'x'"),
            vec![format!(
                "sitemap.toml:1:1: unknown key `{key}`: sitemapgen's is `{ours}`; rename it to {ours}"
            )],
        )
    };
    let mut table: Vec<(String, Vec<String>)> = [
        ("site_url", "base_url"),
        ("siteUrl", "base_url"),
        ("baseURL", "base_url"),
        ("hostname", "base_url"),
        ("url", "base_url"),
        ("outDir", "public_dir"),
        ("publish", "public_dir"),
    ]
    .iter()
    .map(|(k, o)| ours(k, o))
    .collect();
    for key in ["changefreq", "priority"] {
        table.push((
            format!("{b}{key} = 1"),
            vec![format!("sitemap.toml:2:1: unknown key `{key}`: sitemapgen's is `{key}` of [defaults] (every page) or of a [[rule]] (the pages its match takes); write it as `{key}` in one of those tables")],
        ));
    }
    table.push((
        format!("{b}[source]\ngenerator = 'hugo'\nsite_url = 'x'"),
        vec!["unknown key `site_url`: sitemapgen's is `base_url`, a top-level key; move it above the first table ([source], line 2)".into()],
    ));
    for (text, wants) in &table {
        let err = error(text);
        assert!(!err.contains('\n'), "not one line: {err}");
        for want in wants {
            assert!(
                err.contains(want.as_str()),
                "config {text:?}\n  error {err:?}\n  lacks {want:?}"
            );
        }
        for other in ["site_name", "hosting", "rule`", "changes"] {
            assert!(!err.contains(other), "{err} suggests {other}");
        }
    }
}

/// A key that only looks like one of ours is not offered as it.
#[test]
fn did_you_mean_offers_only_near_misses() {
    for (text, not) in [
        ("hostnames = 1", "hosting"),
        ("changefreqs = 1", "changes"),
        ("site_urls = 1", "site_name"),
    ] {
        let err = error(text);
        assert!(!err.contains("did you mean"), "{err} suggests {not}");
    }
}

#[test]
fn bad_configs_get_one_line_errors_that_say_where_and_what() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            "base_url = 'https://x.org/'\nbsae = 1".into(),
            &["sitemap.toml:2:1", "unknown field `bsae`"],
        ),
        ("base_url = ".into(), &["sitemap.toml:1:"]),
        (
            format!("{b}[defaults]\nchangefreq = 'dayly'"),
            &["sitemap.toml:3:14", "dayly", "always", "never"],
        ),
        (
            format!("{b}[defaults]\npriority = 1.5"),
            &["sitemap.toml:3:12", "[defaults] priority", "1.5", "0.0-1.0"],
        ),
        (
            format!("{b}[defaults]\npriority = nan"),
            &["priority NaN is outside 0.0-1.0"],
        ),
        (
            format!("{b}[[rule]]\nmatch = 'a/**'\npriority = -0.1"),
            &["sitemap.toml:4:12", "[[rule]] #1 priority"],
        ),
        (
            format!("{b}[[rule]]\nmatch = 'a/**'\n[[rule]]\nmatch = 'blog/[x'"),
            &["sitemap.toml:5:9", "invalid glob 'blog/[x' in [[rule]] #2"],
        ),
        (
            format!("{b}exclude = ['{{a']"),
            &["sitemap.toml:2:11", "invalid glob '{a' in exclude"],
        ),
        (
            format!("{b}[[rule]]\nmatch = 3"),
            &["sitemap.toml:3:9", "a glob or a list of globs"],
        ),
        (
            format!("{b}[[rule]]\nmatch = []"),
            &["[[rule]] #1 match", "empty list"],
        ),
        (
            format!("{b}[[rule]]\npriority = 0.5"),
            &["missing field `match`"],
        ),
        (
            format!("{b}[[rule]]\nmatch = 'x'\ncolour = 'red'"),
            &["sitemap.toml:4:1", "unknown field `colour`"],
        ),
        (
            format!("{b}max_urls_per_file = 50001"),
            &["max_urls_per_file", "50001", "50,000"],
        ),
        (
            format!("{b}max_urls_per_file = 0"),
            &["max_urls_per_file", "outside 1-50000"],
        ),
        (
            format!("{b}output = '../sitemap.xml'"),
            &["output", "inside public_dir"],
        ),
        (
            format!("{b}output = '/tmp/sitemap.xml'"),
            &["output", "inside public_dir"],
        ),
        (format!("{b}extensions = []"), &["extensions", "non-empty"]),
        (
            format!("{b}noindex_agents = ['robots', ' ']"),
            &["noindex_agents", "empty name"],
        ),
        (
            format!("{b}respect_noindex = 'yes'"),
            &["sitemap.toml:2:19", "expected a boolean"],
        ),
        (
            "base_url = 'ftp://example.org/'".into(),
            &["sitemap.toml:1:12", "http or https"],
        ),
        ("base_url = 'https://example.org/?q=1'".into(), &["query"]),
        (
            "public_dir = 'x'".into(),
            &["base_url is not set", "--base-url"],
        ),
    ]);
}

#[test]
fn bad_lastmod_sources_are_named_with_the_valid_ones() {
    let b = "base_url = 'https://example.org/'\n";
    assert_errors(&[
        (
            format!("{b}lastmod = 'git-blame'"),
            &[
                "sitemap.toml:2:11",
                "lastmod: 'git-blame' is not a lastmod source",
                "\"meta\", \"git\", \"content\", \"mtime\", \"none\"",
            ],
        ),
        (
            format!("{b}lastmod = 5"),
            &["sitemap.toml:2:11", "lastmod: 5 is not a source name"],
        ),
        (
            format!("{b}lastmod = ['meta', 'gut-feeling']"),
            &["sitemap.toml:2:11", "'gut-feeling' is not a lastmod source"],
        ),
    ]);
}

/// Every error a config's values can meet, each its one whole line: where, which key,
/// what is wrong and what to write instead.
/// Each config's text, and the whole line of its error.
const ONE_LINE_ERRORS: &[(&str, &str)] = &[
    (
        "base_url = 'https://example.org/'\n[google]\nproperty = 'example.org'",
        "sitemap.toml:3:12: [google] property: 'example.org' is not a Search Console property; write \"sc-domain:example.org\" (a domain property) or \"https://example.org/\" (a URL-prefix property), as Search Console shows it",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nproperty = 'https://example.org/docs'",
        "sitemap.toml:3:12: [google] property: 'https://example.org/docs' is a URL-prefix property without its final '/'; write \"https://example.org/docs/\"",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nproperty = 'sc-domain:'",
        "sitemap.toml:3:12: [google] property: 'sc-domain:' names no domain after sc-domain:; write \"sc-domain:example.org\" (a domain property) or \"https://example.org/\" (a URL-prefix property), as Search Console shows it",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nservice_account = 'sa@p.iam.gserviceaccount.com'",
        "sitemap.toml:3:19: [google] service_account: is set, and workload_identity_provider is not: the keyless route from GitHub Actions needs both (or neither, with a key in SITEMAPGEN_GOOGLE_CREDENTIALS or GOOGLE_APPLICATION_CREDENTIALS)",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nservice_account = 'sitemaps'\nworkload_identity_provider = 'projects/1/locations/global/workloadIdentityPools/p/providers/g'",
        "sitemap.toml:3:19: [google] service_account: 'sitemaps' is not a service account's email; write it as the Google Cloud console shows it, e.g. \"sitemaps@my-project.iam.gserviceaccount.com\"",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nservice_account = 'sa@p.iam.gserviceaccount.com'\nworkload_identity_provider = 'projects/my-project/locations/global/workloadIdentityPools/p/providers/g'",
        "sitemap.toml:4:30: [google] workload_identity_provider: 'projects/my-project/locations/global/workloadIdentityPools/p/providers/g' is not a provider's full name; write projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/providers/PROVIDER (gcloud iam workload-identity-pools providers describe shows it)",
    ),
    (
        "base_url = 'https://example.org/'\n[bing]\napi_key = 'x'",
        "sitemap.toml:3:1: unknown key `api_key`: credentials are never read from sitemap.toml; remove this line and set BING_WEBMASTER_API_KEY in the environment (from a CI secret)",
    ),
    (
        "base_url = 'https://example.org/'\n[google]\nkey_file = 'key.json'",
        "sitemap.toml:3:1: unknown key `key_file`: credentials are never read from sitemap.toml; remove this line and set SITEMAPGEN_GOOGLE_CREDENTIALS (a service account key's JSON, from a CI secret) or GOOGLE_APPLICATION_CREDENTIALS (its file's path), or go keyless with service_account and workload_identity_provider",
    ),
    (
        "base_url = 'https://example.org/'\n[bing]\nsite_url = 'example.org'",
        "sitemap.toml:3:12: [bing] site_url: 'example.org' is not an http(s) URL; write the site as Bing Webmaster Tools shows it, e.g. \"https://example.org/\"",
    ),
    (
        "base_url = 'https://example.org/'\n[bing]\napi_endpoint = 'ftp://x'",
        "sitemap.toml:3:16: [bing] api_endpoint: 'ftp://x' is not an http(s) URL; leave it out for the engine's own",
    ),
    (
        "public_dir = 'x'",
        "base_url is not set: pass --base-url https://example.org/ or set base_url in sitemap.toml",
    ),
    (
        "base_url = 'https://example.org/'\nchanges = false\nlastmod = ['content']",
        "sitemap.toml: changes: is false, but the \"content\" lastmod source keeps the state a change list needs and always writes one; remove changes = false",
    ),
    (
        "base_url = 'https://example.org/'\nindexnow_key = 'short'",
        "sitemap.toml:2:16: indexnow_key: 'short' is not an IndexNow key: 8 to 128 letters, digits or '-' (generate one, e.g. with `openssl rand -hex 16`)",
    ),
    (
        "base_url = 'https://example.org/'\nindexnow_key_file = true",
        "sitemap.toml: indexnow_key_file: is true, but there is no key: set indexnow_key or the INDEXNOW_KEY environment variable",
    ),
    (
        "base_url = 'https://example.org/'\nindexnow_endpoint = 'ftp://x'",
        "sitemap.toml:2:21: indexnow_endpoint: 'ftp://x' is not an http(s) URL; use e.g. \"https://api.indexnow.org/indexnow\"",
    ),
    (
        "base_url = 'https://example.org/'\nmax_urls_per_file = 50001",
        "sitemap.toml:2:21: max_urls_per_file: 50001 is outside 1-50000 (the protocol allows at most 50,000 URLs per file)",
    ),
    (
        "base_url = 'https://example.org/'\nlastmod = 3",
        "sitemap.toml:2:11: lastmod: 3 is not a source name; use one of \"source\", \"meta\", \"git\", \"content\", \"mtime\", \"none\" or a list of them",
    ),
    (
        "base_url = 'https://example.org/'\n[defaults]\npriority = 2",
        "sitemap.toml:3:12: [defaults] priority: priority 2 is outside 0.0-1.0; use a value such as 0.5",
    ),
    (
        "base_url = 'https://example.org/'\n[[rule]]\nmatch = []",
        "sitemap.toml:3:9: [[rule]] #1 match: is an empty list; give at least one glob such as \"blog/**\"",
    ),
    (
        "base_url = 'https://example.org/'\nnoindex_agents = ['']",
        "sitemap.toml:2:18: noindex_agents: holds an empty name; list meta names such as [\"robots\", \"googlebot\"]",
    ),
    (
        "base_url = 'https://example.org/'\nrobots_agent = ''",
        "sitemap.toml:2:16: robots_agent: is empty; name a user agent such as \"*\" or \"Googlebot\"",
    ),
    (
        "base_url = 'https://example.org/docs/'\nrobots_txt = 'update'",
        "sitemap.toml:2:14: robots_txt: needs base_url at the root of its host, but 'https://example.org/docs/' has a path: crawlers only read /robots.txt",
    ),
    (
        "base_url = 'https://example.org/'\n[[section]]\nname = 'a'\nmatch = 'a/**'\n[[section]]\nname = 'a'\nmatch = 'b/**'",
        "sitemap.toml:6:8: [[section]] #2 name: 'a' names an earlier section too; give each section its own name",
    ),
    (
        "base_url = 'https://example.org/'\nformat = 'txt'\n[[section]]\nname = 'a'\nmatch = 'a/**'",
        "sitemap.toml:4:8: [[section]]: text sitemaps have no index to name each section's files; use format = \"xml\" or remove the sections",
    ),
    (
        "base_url = 'https://example.org/'\nformat = 'txt'\nstylesheet = 'default'",
        "sitemap.toml:3:14: stylesheet: text sitemaps cannot link a stylesheet; use format = \"xml\" or remove stylesheet",
    ),
    (
        "base_url = 'https://example.org/'\nstylesheet = 'javascript:x'",
        "sitemap.toml:2:14: stylesheet: 'javascript:x' is not http(s) or a path on the site; give \"default\" (sitemapgen's own) or a path such as \"/sitemap.xsl\"",
    ),
    (
        "base_url = 'https://example.org/'\nllms_txt_max_pages = 5",
        "sitemap.toml: llms_txt_max_pages: applies to llms.txt; set llms_txt = true as well, or remove it",
    ),
    (
        "base_url = 'https://example.org/'\nllms_txt = true\nllms_txt_max_pages = 0",
        "sitemap.toml:3:22: llms_txt_max_pages: 0 is outside 1-50000; give how many pages llms.txt lists at most",
    ),
    (
        "base_url = 'https://example.org/'\nhtml_sitemap_dates = true",
        "sitemap.toml: html_sitemap_dates: applies to sitemap.html; set html_sitemap = true as well, or remove it",
    ),
    (
        "base_url = 'https://example.org/'\nllms_full_txt = true",
        "sitemap.toml: llms_full_txt: applies to llms.txt; set llms_txt = true as well, or remove it",
    ),
    (
        "base_url = 'https://example.org/'\nllms_txt = true\nllms_links = 'markdown'",
        "sitemap.toml: llms_links: \"markdown\" links the Markdown twins; set llms_markdown = true as well, or llms_links = \"page\"",
    ),
    (
        "base_url = 'https://example.org/'\nllms_txt = true\nllms_txt_per_section = true",
        "sitemap.toml: llms_txt_per_section: gives each [[section]] an llms.txt, and there is none; add [[section]] tables, or remove it",
    ),
    (
        "base_url = 'https://example.org/'\ndefault_language = 'en'",
        "sitemap.toml:2:20: default_language: applies to split = \"language\"; set that as well, or remove it",
    ),
    (
        "base_url = 'https://example.org/'\nsplit = 'lang'",
        "sitemap.toml:2:9: split: 'lang' is not a way to split; give \"language\" (one set of child sitemaps per language), or remove it",
    ),
    (
        "base_url = 'https://example.org/'\nsplit = 'language'\n[[section]]\nname = 'a'\nmatch = 'a/**'",
        "sitemap.toml:2:9: split: and [[section]] both decide the child sitemaps; keep one of them",
    ),
    (
        "base_url = 'https://example.org/'\nsplit = 'language'\nformat = 'txt'",
        "sitemap.toml:2:9: split: text sitemaps have no index to name each language's files; use format = \"xml\"",
    ),
    (
        "base_url = 'https://example.org/'\nsplit = 'language'\ndefault_language = 'e n'",
        "sitemap.toml:3:20: default_language: 'e n' is not a language tag; give one such as \"en\" or \"pt-BR\"",
    ),
    (
        "base_url = 'https://example.org/'\n[[section]]\nname = 'a b'\nmatch = 'a/**'",
        "sitemap.toml:3:8: [[section]] #1 name: 'a b' may hold only lowercase letters a-z, digits and '-'; name it like \"blog\" or \"docs-v2\"",
    ),
    (
        "base_url = 'https://example.org/'\n[[section]]\nname = 'a'\nmatch = []",
        "sitemap.toml:4:9: [[section]] #1 match: is an empty list; give at least one glob such as \"blog/**\"",
    ),
    (
        "base_url = 'https://example.org/'\n[[shards]]\nname = 'a b'",
        "sitemap.toml:3:8: [[shards]] #1 name: 'a b' may hold only lowercase letters a-z, digits and '-'; name it like \"docs\"",
    ),
    (
        "base_url = 'https://example.org/'\n[[shards]]\nname = 'a'\n[[shards]]\nname = 'a'\nmatch = 'x'",
        "sitemap.toml:5:8: [[shards]] #2 name: 'a' names an earlier shard too; give each its own name",
    ),
    (
        "base_url = 'https://example.org/'\n[[shards]]\nname = 'a'\nmatch = []",
        "sitemap.toml:4:9: [[shards]] #1 match: is an empty list; give a glob such as \"docs/**\", or leave match out for the shard of the pages no other shard takes",
    ),
    (
        "base_url = 'https://example.org/'\n[[shards]]\nname = 'a'\n[[shards]]\nname = 'b'",
        "sitemap.toml:5:8: [[shards]] #2: has no match, and an earlier shard takes the pages no other shard takes; give it a match",
    ),
    (
        "base_url = 'https://example.org/'\nshard = 'a'\nformat = 'txt'",
        "sitemap.toml:2:9: shard: 'a' is a shard, and text sitemaps have no index for the merge to name their files in; use format = \"xml\"",
    ),
    (
        "base_url = 'https://example.org/'\nshard = 'c'\n[[shards]]\nname = 'a'",
        "sitemap.toml:2:9: shard: 'c' is not one of the [[shards]] of sitemap.toml: a; give one of them, or declare it",
    ),
    (
        "base_url = 'https://example.org/'\nextensions = []",
        "sitemap.toml:2:14: extensions: must be a non-empty list of extensions such as [\"html\", \"htm\"]",
    ),
    (
        "base_url = 'https://example.org/'\ndocuments = ['.']",
        "sitemap.toml:2:13: documents: '' is not an extension such as \"pdf\"",
    ),
    (
        "base_url = 'https://example.org/'\ndocuments = ['html']",
        "sitemap.toml:2:13: documents: 'html' is a page extension (extensions); a document is a file listed unread",
    ),
    (
        "base_url = 'https://example.org/'\nerror_pages = ['/404.html']",
        "sitemap.toml:2:15: error_pages: '/404.html' is not a file name or dir/file such as \"404.html\" or \"404/index.html\" (no globs, no leading /)",
    ),
    (
        "base_url = 'https://example.org/'\nlastmod = ['source']",
        "sitemap.toml:2:11: lastmod: names \"source\", which needs [source] generator = one of hugo, zola, jekyll, hexo, eleventy, starlight, astro, next, docusaurus, vitepress, mkdocs, nikola, sphinx, pelican, nuxt, gatsby, sveltekit, vuepress, mdbook, quarto, rspress (sitemapgen init writes it)",
    ),
    (
        "base_url = 'https://example.org/'\nlastmod = ['source']\n[source]\nupdated = ['x']",
        "sitemap.toml:3:1: source: has no generator; set generator = one of hugo, zola, jekyll, hexo, eleventy, starlight, astro, next, docusaurus, vitepress, mkdocs, nikola, sphinx, pelican, nuxt, gatsby, sveltekit, vuepress, mdbook, quarto, rspress, give [[source.route]] tables, or set content = [\"notes\"] to find each page's source by its text",
    ),
    (
        "base_url = 'https://example.org/'\n[source]\ncontent = ['../x']",
        "sitemap.toml:3:12: source.content: '../x' leads out of the project (..); give a folder relative to the project (the config file's folder), such as \"content\"",
    ),
    (
        "base_url = 'https://example.org/'\n[source]\n[[source.route]]\nfrom = '/abs/**'\nto = '/{path}/'",
        "sitemap.toml:4:8: source.route: '/abs/**' is an absolute path; give a folder relative to the project (the config file's folder), such as \"content\"",
    ),
    (
        "base_url = 'https://example.org/'\n[source]\n[[source.route]]\nfrom = 'a/**'\nto = '/{nope}/'",
        "sitemap.toml:5:6: source.route: '/{nope}/' is not a route's URL: it may name only {path}, {dir}, {name}, {slug}",
    ),
];

#[test]
fn every_config_error_is_one_line_naming_the_fix() {
    for (text, want) in ONE_LINE_ERRORS {
        assert_eq!(&error(text), want, "config {text:?}");
    }
}
