//! Every shell block and `sitemap.toml` snippet of the README and the guide, run as a
//! reader would run it, on a fixture: so a documented command or key cannot drift from
//! the tool. The few that cannot run here are named in [`NOT_RUN`], each with why.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{copy_tree, validate_set};

/// The documents whose blocks run.
const DOCS: &[&str] = &["README.md", "docs/GUIDE.md"];

/// Commands shown that do not run here, by how their line starts, and why.
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo ",
        "builds, installs or tests sitemapgen itself: .ci/run runs these",
    ),
    (
        "sitemapgen completions bash > /etc/",
        "writes a system folder; tests/integration/setup.rs checks the scripts",
    ),
    (
        "sudo ",
        "writes a system folder; the man pages are tested by tests/integration/setup.rs",
    ),
    (
        "sitemapgen merge public/sitemap-*.manifest.json --base-url",
        "the merge alone, with no shard built before it in its section: the Hugo segments' block below runs one whole",
    ),
];

/// Commands that build the site: the fixture is built already, so they stand for `true`.
const GENERATORS: &[&str] = &["hugo", "zola", "jekyll", "npx", "mkdocs", "make", "pelican"];

/// A fenced block: where it starts, its language, its text, and the `sitemap.toml`
/// snippets shown before it in its section (what its commands run with).
struct Block {
    at: String,
    lang: String,
    text: String,
    config: String,
}

fn blocks(doc: &str) -> Vec<Block> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join(doc)).unwrap();
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    let mut config = String::new();
    for (n, line) in text.lines().enumerate() {
        match (line.strip_prefix("```"), open.take()) {
            (Some(info), None) => {
                open = Some(Block {
                    at: format!("{doc}:{}", n + 1),
                    lang: info.trim().to_string(),
                    text: String::new(),
                    config: config.clone(),
                })
            }
            (Some(_), Some(block)) => {
                if block.lang == "toml" {
                    config.push_str(&block.text);
                }
                found.push(block)
            }
            (None, None) if line.starts_with('#') => config.clear(),
            (None, Some(mut block)) => {
                block.text.push_str(line);
                block.text.push('\n');
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    found
}

/// A project as a reader has it: a Hugo project with its built `public/` and no
/// `sitemap.toml` (for a block that runs `sitemapgen init`), else the example
/// site as `public/` with a config naming it, and `config` after it.
fn project(dir: &Path, fresh: bool, config: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = dir.join("project");
    if fresh {
        copy_tree(&root.join("tests/fixtures/hugo/source"), &project);
        copy_tree(
            &root.join("tests/fixtures/hugo/public"),
            &project.join("public"),
        );
    } else {
        copy_tree(&root.join("example-site"), &project.join("public"));
        fs::write(project.join("sitemap.toml"), format!("{BASE}{config}")).unwrap();
    }
    project
}

/// What a snippet of `sitemap.toml` is added to: the keys every run needs.
const BASE: &str = "base_url = \"https://example.org/\"\npublic_dir = \"public\"\n";

/// The binary as `sitemapgen` on `PATH`.
fn path_with_binary() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sitemapgen"));
    let dir = bin.parent().unwrap().display().to_string();
    format!("{dir}:{}", std::env::var("PATH").unwrap_or_default())
}

/// A shell block's lines as they run: continuations joined, comments dropped, a
/// generator's build standing for `true`; `None` for a line [`NOT_RUN`] names, which
/// ends the block's run.
fn runnable(line: &str) -> Option<String> {
    let code = match line.find("  #") {
        Some(i) => &line[..i],
        None => line,
    };
    let code = code.trim();
    if NOT_RUN.iter().any(|(start, _)| code.starts_with(start)) {
        return None;
    }
    let parts: Vec<String> = code
        .split("&&")
        .map(|part| {
            let part = part.trim();
            let first = part.split_whitespace().next().unwrap_or_default();
            match GENERATORS.contains(&first) {
                true => "true".to_string(),
                false => part.to_string(),
            }
        })
        .collect();
    Some(parts.join(" && "))
}

/// Runs a shell block; whether any of it ran.
fn run_shell(block: &Block) -> bool {
    let lines = block.text.replace("\\\n", " ");
    // What follows a line that cannot run here depends on it: the block stops there.
    let script: Vec<String> = lines.lines().map_while(runnable).collect();
    if script.is_empty() {
        return false;
    }
    let dir = tempfile::tempdir().unwrap();
    let fresh = script.iter().any(|l| l.starts_with("sitemapgen init"));
    let project = project(dir.path(), fresh, &block.config);
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script.join("\n")])
        .current_dir(&project)
        .env("PATH", path_with_binary())
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: the block fails as written:\n{}\n{}",
        block.at,
        script.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    let sitemap = project.join("public/sitemap.xml");
    if sitemap.is_file() {
        validate_set(&sitemap);
    }
    true
}

/// A `sitemap.toml` snippet, added to [`BASE`], builds the example site with no
/// warning: a key that does nothing as written is a warning.
fn run_toml(block: &Block) {
    let dir = tempfile::tempdir().unwrap();
    let project = project(dir.path(), false, &block.text);
    let out = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(["build", "--dry-run", "--json"])
        .current_dir(&project)
        .env_remove("CI")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{}: the snippet does not build:\n{}\n{stderr}",
        block.at,
        block.text
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = json["warnings"].as_array().cloned().unwrap_or_default();
    let config_warnings: Vec<_> = warnings
        .iter()
        .filter_map(|w| w.as_str())
        .filter(|w| w.contains("sitemap.toml"))
        .collect();
    assert!(
        config_warnings.is_empty(),
        "{}: the snippet warns:\n{}\n{config_warnings:?}",
        block.at,
        block.text
    );
}

#[test]
fn every_shell_block_of_the_docs_runs() {
    // The blocks are written for a Unix shell: bash runs them.
    if !crate::tools::BASH.present() {
        return;
    }
    let mut ran = 0;
    for doc in DOCS {
        for block in blocks(doc).iter().filter(|b| b.lang == "sh") {
            ran += usize::from(run_shell(block));
        }
    }
    assert!(ran >= 3, "only {ran} blocks ran");
}

#[test]
fn every_sitemap_toml_snippet_of_the_docs_builds() {
    let mut seen = 0;
    for doc in DOCS {
        // `toml` alone is a snippet of sitemap.toml; another file says so after the
        // language (`toml Cargo.toml`).
        let blocks = blocks(doc);
        // A snippet a shell block of its section runs with is checked there, with the
        // commands it is shown for (a `[[shards]]` table warns in a build of no shard).
        let run_by_shell =
            |toml: &Block| (blocks.iter()).any(|b| b.lang == "sh" && b.config.contains(&toml.text));
        for block in blocks.iter().filter(|b| b.lang == "toml") {
            if !run_by_shell(block) {
                run_toml(block);
            }
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} snippets found");
}

/// The README's usage block names every command and each of its flags, as `--help`
/// lists them.
#[test]
fn the_readmes_usage_names_every_command_and_flag() {
    let readme = blocks("README.md");
    let usage = readme
        .iter()
        .find(|b| b.lang == "text" && b.text.starts_with("sitemapgen "))
        .expect("the README's usage block");
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
            .args(args)
            .arg("--help")
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    // `Commands:` lists one a line, two spaces in, up to the next heading.
    let top = help(&[]);
    let commands: Vec<&str> = top
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    for command in commands {
        let lines: String = (usage.text.lines())
            .filter(|l| l.starts_with(&format!("sitemapgen {command}")))
            .collect();
        assert!(
            !lines.is_empty(),
            "the README's usage has no `sitemapgen {command}`"
        );
        // Each option line: `-o, --output <PATH>` or `--gzip`; either spelling will do.
        for option in help(&[command]).lines().map(str::trim_start) {
            let mut names = option
                .split([' ', ','])
                .take_while(|w| w.starts_with('-') || w.is_empty())
                .filter(|w| !w.is_empty());
            let spellings: Vec<&str> = names.by_ref().collect();
            if spellings.is_empty() || spellings.contains(&"--help") {
                continue;
            }
            let shown = |flag: &&str| {
                let words = lines.split([' ', '[', ']', '|', '=']);
                words.map(|w| w.trim_end_matches('.')).any(|w| w == *flag)
            };
            assert!(
                spellings.iter().any(shown),
                "the README's usage of `sitemapgen {command}` lacks {spellings:?}"
            );
        }
    }
}
