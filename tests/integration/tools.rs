//! The tools some tests check with (xmllint and the sitemap schemas, strace, the
//! shells and man), and what a missing one does. Under `SITEMAPGEN_REQUIRE_TOOLS=1`
//! (set by `.ci/run`) a missing required tool fails every test that needs it, naming the
//! tool and how to install it; otherwise those checks are passed over and one line says
//! so, written where the test runner shows it (`eprintln!` in a passing test is hidden).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Set to anything but empty or `0`: a missing required tool fails the tests.
pub const REQUIRE_TOOLS: &str = "SITEMAPGEN_REQUIRE_TOOLS";

/// The directory of the schemas, when not `../shared/schemas` beside the project.
pub const SCHEMAS_DIR: &str = "SITEMAPGEN_SCHEMAS";

/// The schemas the tests validate against, all in one directory.
const SCHEMA_FILES: [&str; 4] = [
    "sitemap.xsd",
    "siteindex.xsd",
    "sitemap+xhtml.xsd",
    "sitemap+extensions.xsd",
];

/// A tool the tests run, looked for once per test process.
pub struct Tool {
    /// Its name in messages.
    name: &'static str,
    /// How to get it.
    install: &'static str,
    /// What goes unchecked without it.
    unchecked: &'static str,
    /// Whether `SITEMAPGEN_REQUIRE_TOOLS` requires it (`.ci/run` installs it).
    required: bool,
    probe: fn() -> bool,
    found: OnceLock<bool>,
    noted: OnceLock<()>,
}

pub static XMLLINT: Tool = Tool::new(
    "xmllint",
    "apt-get install libxml2-utils",
    "sitemaps are not validated against the schemas",
    || runs(&["xmllint", "--version"]),
);

pub static SCHEMAS: Tool = Tool::new(
    "the sitemap schemas (sitemap.xsd, siteindex.xsd, sitemap+xhtml.xsd, sitemap+extensions.xsd)",
    "put them in ../shared/schemas beside the project, or set SITEMAPGEN_SCHEMAS to their directory",
    "sitemaps are not validated against the schemas",
    || SCHEMA_FILES.iter().all(|f| schema_dir().join(f).is_file()),
);

pub static GIT: Tool = Tool::new(
    "git",
    "apt-get install git",
    "the dates from git and the dated real projects are not tried",
    || runs(&["git", "--version"]),
);

pub static STRACE: Tool = Tool::new(
    "strace",
    "apt-get install strace",
    "the system calls per page are not counted",
    || runs(&["strace", "-V"]),
);

pub static JQ: Tool = Tool::new(
    "jq",
    "apt-get install jq",
    "the Action's run step (action/run.sh) is not run",
    || runs(&["jq", "--version"]),
);

pub static OPENSSL: Tool = Tool::new(
    "openssl",
    "apt-get install openssl",
    "submit to Google is not tried (its test key is made with openssl)",
    || runs(&["openssl", "version"]),
);

// Checked where installed; CI does not install the rarer ones, so never required.
const SHELL_UNCHECKED: &str = "its completion script's syntax is not checked";
pub static BASH: Tool = Tool::optional("bash", "apt-get install bash", SHELL_UNCHECKED, || {
    runs(&["bash", "-c", "true"])
});
pub static ZSH: Tool = Tool::optional("zsh", "apt-get install zsh", SHELL_UNCHECKED, || {
    runs(&["zsh", "-c", "true"])
});
pub static FISH: Tool = Tool::optional("fish", "apt-get install fish", SHELL_UNCHECKED, || {
    runs(&["fish", "-c", "true"])
});
pub static SCRIPT: Tool = Tool::optional(
    "script",
    "apt-get install util-linux",
    "a run whose standard output is a terminal is not tried",
    || runs(&["script", "-qec", "true", "/dev/null"]),
);
pub static MAN: Tool = Tool::optional(
    "man",
    "apt-get install man-db",
    "the man page is not rendered",
    || runs(&["man", "--version"]),
);

/// Whether `SITEMAPGEN_REQUIRE_TOOLS` is set (not empty, not `0`).
pub fn required() -> bool {
    std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty() && v != "0")
}

/// `$SITEMAPGEN_SCHEMAS`, or `shared/schemas` beside the project.
pub fn schema_dir() -> PathBuf {
    std::env::var_os(SCHEMAS_DIR)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas"))
}

/// Whether the command runs and succeeds.
fn runs(argv: &[&str]) -> bool {
    Command::new(argv[0])
        .args(&argv[1..])
        .output()
        .is_ok_and(|o| o.status.success())
}

impl Tool {
    /// A tool `SITEMAPGEN_REQUIRE_TOOLS` requires.
    const fn new(
        name: &'static str,
        install: &'static str,
        unchecked: &'static str,
        probe: fn() -> bool,
    ) -> Tool {
        Tool::with(true, name, install, unchecked, probe)
    }

    /// A tool used where installed, never required.
    const fn optional(
        name: &'static str,
        install: &'static str,
        unchecked: &'static str,
        probe: fn() -> bool,
    ) -> Tool {
        Tool::with(false, name, install, unchecked, probe)
    }

    const fn with(
        required: bool,
        name: &'static str,
        install: &'static str,
        unchecked: &'static str,
        probe: fn() -> bool,
    ) -> Tool {
        Tool {
            name,
            install,
            unchecked,
            required,
            probe,
            found: OnceLock::new(),
            noted: OnceLock::new(),
        }
    }

    fn found(&self) -> bool {
        *self.found.get_or_init(self.probe)
    }

    /// Whether the tool is here. A missing required one panics under
    /// `SITEMAPGEN_REQUIRE_TOOLS`; otherwise the first call notes what goes unchecked.
    pub fn present(&self) -> bool {
        let found = self.found();
        if !found {
            assert!(!(self.required && required()), "{}", self.missing());
            self.noted
                .get_or_init(|| note(&format!("note: {}", self.missing())));
        }
        found
    }

    /// What is missing, how to get it, and what goes unchecked without it.
    fn missing(&self) -> String {
        let then = match (self.required, required()) {
            (true, true) => format!("; {REQUIRE_TOOLS} is set, so this fails"),
            (true, false) => format!("; {REQUIRE_TOOLS}=1 (as in .ci/run) makes this a failure"),
            (false, _) => String::new(),
        };
        format!(
            "{}: missing ({}); {}{then}",
            self.name, self.install, self.unchecked
        )
    }
}

/// Writes a line straight to the process's stderr: the test runner captures only what
/// `print!` and `eprint!` write, and shows it only for failing tests.
fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Every tool the tests need: under `SITEMAPGEN_REQUIRE_TOOLS` this fails, naming each
/// missing required tool, even where no other test reached it; otherwise each missing
/// tool is noted.
#[test]
fn tools_present() {
    let all = [&XMLLINT, &SCHEMAS, &GIT, &STRACE, &BASH, &ZSH, &FISH, &MAN];
    let missing: Vec<String> = all
        .iter()
        .filter(|t| t.required && required() && !t.found())
        .map(|t| t.missing())
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    for tool in all {
        tool.present();
    }
}
