//! Fitting in: shell completions, the man page, `init`, the GitHub Action.

use std::process::Command;

use predicates::prelude::*;

use crate::tools;
use crate::util::bin;

#[test]
fn completions_are_valid_scripts_that_know_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = bin().args(["completions", shell]).assert().success();
        let script = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        for word in ["check", "index", "base-url", "strict"] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    // Where the shell is here, it must accept the script's syntax.
    let shells = [
        (&tools::BASH, "bash", "-n"),
        (&tools::ZSH, "zsh", "-n"),
        (&tools::FISH, "fish", "--no-execute"),
    ];
    for (tool, shell, check) in shells {
        if !tool.present() {
            continue;
        }
        let out = bin().args(["completions", shell]).output().unwrap();
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), &out.stdout).unwrap();
        let status = Command::new(shell)
            .arg(check)
            .arg(file.path())
            .status()
            .unwrap();
        assert!(status.success(), "{shell} rejects its completion script");
    }
}

#[test]
fn an_unknown_shell_names_the_ones_there_are() {
    bin()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "possible values: bash, elvish, fish, powershell, zsh",
        ));
}

#[test]
fn the_man_page_is_roff_with_every_command() {
    let out = bin().arg("man").assert().success();
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(page.contains(".TH sitemapgen 1"), "{page}");
    for word in ["build", "check", "index", "completions", "\\-\\-base\\-url"] {
        assert!(page.contains(word), "no {word}");
    }
    // Where man is installed, it must render the page without complaint.
    if tools::MAN.present() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), &page).unwrap();
        let rendered = Command::new("man")
            .arg("-l")
            .arg(file.path())
            .env("MANWIDTH", "80")
            .env("MAN_KEEP_STDERR", "1")
            .output()
            .unwrap();
        assert!(rendered.status.success());
        assert!(String::from_utf8_lossy(&rendered.stdout).contains("sitemapgen"));
    }
    assert!(page.contains("Exit status"), "{page}");
}

/// `man --dir` writes every page the main page's SUBCOMMANDS section names, into a folder
/// it creates; `--help` names the exit codes.
#[test]
fn man_dir_writes_a_page_for_every_command_named() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("share/man/man1");
    bin().args(["man", "--dir"]).arg(&dir).assert().success();
    let main = std::fs::read_to_string(dir.join("sitemapgen.1")).unwrap();
    for command in [
        "build",
        "check",
        "index",
        "init",
        "submit",
        "completions",
        "man",
    ] {
        assert!(
            main.contains(&format!("sitemapgen\\-{command}(1)")),
            "{command}"
        );
        let page = std::fs::read_to_string(dir.join(format!("sitemapgen-{command}.1"))).unwrap();
        assert!(
            page.contains(&format!(".TH sitemapgen-{command} 1")),
            "{command}"
        );
    }
    assert!(!main.contains("sitemapgen\\-help"));
    let help = bin().arg("--help").assert().success();
    let help = String::from_utf8_lossy(&help.get_output().stdout).to_string();
    assert!(
        help.contains("Exit status:") && help.contains("2  bad usage"),
        "{help}"
    );
}

#[test]
fn init_in_a_hugo_project_writes_a_config_that_builds_its_site() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hugo");
    crate::util::copy_tree(&fixture.join("source"), dir.path());
    crate::util::copy_tree(&fixture.join("public"), &dir.path().join("public"));
    std::fs::remove_file(dir.path().join("public/sitemap.xml")).unwrap();
    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .success()
        .stderr(concat!(
            "wrote ./sitemap.toml for Hugo; base_url https://hugo.example.org/\n",
            "hint: Hugo writes its own sitemap.xml over ours on every build: add disableKinds = [\"sitemap\"] to config.toml\n",
            "hint: Hugo leaves removed pages in public/: build with `hugo --cleanDestinationDir`, then run sitemapgen\n",
        ));
    let config = std::fs::read_to_string(dir.path().join("sitemap.toml")).unwrap();
    assert!(config.contains("public_dir = \"public\""), "{config}");
    assert!(
        config.contains("# match = [\"**/page/*/index.html\""),
        "{config}"
    );
    bin().current_dir(dir.path()).assert().success();
    let urls = crate::util::locs(&dir.path().join("public/sitemap.xml"));
    assert!(
        urls.contains(&"https://hugo.example.org/posts/post-1/".to_string()),
        "{urls:?}"
    );

    // A second init keeps the file, unless told otherwise.
    std::fs::write(dir.path().join("sitemap.toml"), "# mine\n").unwrap();
    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .code(2)
        .stderr("error: ./sitemap.toml already exists; run `sitemapgen init --update` to add what it lacks, or pass --force to replace it\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sitemap.toml")).unwrap(),
        "# mine\n"
    );
    bin()
        .current_dir(dir.path())
        .args(["init", "--force"])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sitemap.toml")).unwrap(),
        config
    );
}

#[test]
fn init_in_an_unknown_project_writes_a_generic_file_that_asks_for_the_base_url() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("public")).unwrap();
    std::fs::write(dir.path().join("public/index.html"), "<title>x</title>").unwrap();
    bin()
        .current_dir(dir.path())
        .args(["init", "."])
        .assert()
        .success()
        .stderr(predicate::str::contains("no generator recognised"));
    // Until base_url is set, a build says what is missing.
    bin()
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("base_url"));
    bin()
        .current_dir(dir.path())
        .args(["--base-url", "https://example.org/"])
        .assert()
        .success();
}

#[test]
fn init_reads_jekylls_url_and_baseurl() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("_config.yml"),
        "title: Blog\nurl: \"https://blog.example\"\nbaseurl: \"/notes\"\n",
    )
    .unwrap();
    bin().current_dir(dir.path()).arg("init").assert().success();
    let config = std::fs::read_to_string(dir.path().join("sitemap.toml")).unwrap();
    assert!(
        config.contains("base_url = \"https://blog.example/notes/\""),
        "{config}"
    );
    assert!(config.contains("public_dir = \"_site\""), "{config}");
}

/// The GitHub Action: `action.yml` parsed as YAML, its inputs and outputs those the
/// guide documents, and its run step executed here against a site, with our binary as
/// `sitemapgen`. (Its install step is run against a local release server by
/// `tests/dist.sh`.)
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege).
#[cfg(unix)]
#[test]
fn the_action_is_valid_yaml_and_its_run_step_writes_a_checked_sitemap() {
    use yaml_rust2::{Yaml, YamlLoader};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("action.yml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let action = &docs[0];
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs: Vec<&str> = action["inputs"]
        .as_hash()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            assert!(
                v["description"].as_str().is_some(),
                "{k:?} has no description"
            );
            k.as_str().unwrap()
        })
        .collect();
    assert_eq!(
        inputs,
        [
            "version",
            "config",
            "base-url",
            "public-dir",
            "args",
            "command",
            "shard",
            "manifests",
            "sitemap-url",
            "indexnow-key",
            "google-credentials",
            "bing-api-key",
            "state-file"
        ]
    );
    let outputs: Vec<&str> = action["outputs"]
        .as_hash()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(outputs, ["sitemap", "urls"]);
    let guide = std::fs::read_to_string(root.join("docs/GUIDE.md")).unwrap();
    for input in inputs.iter().chain(&outputs) {
        assert!(
            guide.contains(&format!("| `{input}` |")),
            "docs/GUIDE.md does not document {input}"
        );
    }
    let steps = action["runs"]["steps"].as_vec().unwrap();
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs.iter()
            .any(|r| r.contains("cargo install --locked --path \"$ACTION_PATH\"")),
        "{runs:?}"
    );
    for run in &runs {
        assert!(
            !run.contains("${{"),
            "inputs must reach scripts through env: {run}"
        );
    }
    let last = steps
        .iter()
        .find(|s| s["id"].as_str() == Some("run"))
        .unwrap();
    assert_eq!(last["shell"].as_str(), Some("bash"));
    assert_eq!(
        last["run"].as_str(),
        Some("bash \"$ACTION_PATH/action/run.sh\"")
    );
    // The state file is kept in the cache around the run: restored before, saved after.
    let uses: Vec<(&str, &str)> = steps
        .iter()
        .filter_map(|s| {
            Some((
                s["uses"].as_str()?,
                s["with"]["path"].as_str().unwrap_or(""),
            ))
        })
        .collect();
    let at = |u: &str| {
        uses.iter()
            .position(|(x, p)| x.starts_with(u) && *p == "${{ steps.state-file.outputs.path }}")
    };
    let run_at = steps
        .iter()
        .position(|s| s["id"].as_str() == Some("run"))
        .unwrap();
    let restore = at("actions/cache/restore@").expect("a restore step");
    let save = at("actions/cache/save@").expect("a save step");
    let place = |i: usize| {
        steps
            .iter()
            .position(|s| s["uses"].as_str() == Some(uses[i].0))
            .unwrap()
    };
    assert!(place(restore) < run_at && run_at < place(save));
    for input in inputs
        .iter()
        .filter(|i| !["version", "state-file"].contains(i))
    {
        let var = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(
            matches!(last["env"][var.as_str()], Yaml::String(_)),
            "{var}"
        );
    }

    // Run the step as the runner would.
    let site = crate::util::Site::new(&["index.html", "a.html"]);
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin!("sitemapgen"),
        bin_dir.path().join("sitemapgen"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let github_output = site.root().join("github-output");
    let out = Command::new("bash")
        .arg(root.join("action/run.sh"))
        .current_dir(site.root())
        .env("PATH", path)
        .env("GITHUB_OUTPUT", &github_output)
        .env("INPUT_CONFIG", "")
        .env("INPUT_BASE_URL", "https://example.org/")
        .env("INPUT_PUBLIC_DIR", "public")
        .env("INPUT_ARGS", "--gzip  -v")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("wrote public/sitemap.xml.gz with 2 URLs"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&github_output).unwrap(),
        "sitemap=public/sitemap.xml.gz\nurls=2\n"
    );
    assert!(site.public().join("sitemap.xml.gz").is_file());
}

/// Without jq the run step fails, naming it, instead of a green step with empty outputs
/// and its warnings dropped.
// Unix only: the Action's run step is a bash script.
#[cfg(unix)]
#[test]
fn the_action_run_step_fails_without_jq() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new("/bin/bash")
        .arg(root.join("action/run.sh"))
        .env("PATH", empty.path())
        .env("GITHUB_OUTPUT", empty.path().join("out"))
        .env("INPUT_BASE_URL", "https://example.org/")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("::error::sitemapgen: jq is not installed"),
        "{stdout}"
    );
    assert!(!empty.path().join("out").exists());
}

/// A real Jekyll build (`tests/fixtures/jekyll`, with `baseurl`): `init` reads its
/// config, and the sitemap lists exactly the URLs Jekyll gave its pages, less the 404
/// page and the one marked noindex. Its pages have no layout, so Jekyll wrote each as a
/// bare `<p>`: hosts serve them as pages and Jekyll lists them, and so do we.
#[test]
fn init_then_build_on_a_real_jekyll_site_lists_jekylls_own_urls() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jekyll");
    crate::util::copy_tree(&fixture.join("source"), dir.path());
    crate::util::copy_tree(&fixture.join("_site"), &dir.path().join("_site"));
    bin()
        .current_dir(dir.path())
        .arg("init")
        .assert()
        .success()
        .stderr(concat!(
            "wrote ./sitemap.toml for Jekyll; base_url https://jekyll.example.org/blog/\n",
            "hint: Jekyll publishes every file of the source: add sitemap.toml to exclude: in _config.yml, or it is copied to _site/sitemap.toml\n",
        ));
    bin()
        .current_dir(dir.path())
        .arg("--check")
        .assert()
        .success()
        .stderr(predicate::str::contains("1 noindex"));
    let mut ours = crate::util::locs(&dir.path().join("_site/sitemap.xml"));
    ours.sort();
    let jekylls = std::fs::read_to_string(dir.path().join("_site/urls.txt")).unwrap();
    let mut want: Vec<String> = jekylls
        .lines()
        .filter(|u| !u.is_empty() && !u.ends_with("/404.html") && !u.ends_with("/docs/guide/"))
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(ours, want);
    assert!(
        ours.contains(&"https://jekyll.example.org/blog/2024/03/%C3%BCber-caf%C3%A9/".to_string())
    );
    assert!(ours.contains(&"https://jekyll.example.org/blog/about/".to_string()));
}

/// The one list of generators is what `init --help`, the man page and the guide's table
/// name: none is left out of any of them.
#[test]
fn every_generator_is_named_by_init_help_the_man_page_and_the_guide() {
    let help = bin().args(["init", "--help"]).assert().success();
    let help = String::from_utf8(help.get_output().stdout.clone()).unwrap();
    let man = bin().arg("man").assert().success();
    let man = String::from_utf8(man.get_output().stdout.clone()).unwrap();
    let guide = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/GUIDE.md");
    let guide = std::fs::read_to_string(guide).unwrap();
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (help, man) = (one_line(&help), one_line(&man));
    for generator in sitemapgen::generators::ALL {
        let name = generator.name;
        assert!(help.contains(name), "init --help lacks {name}: {help}");
        assert!(man.contains(name), "the man page lacks {name}");
        let row = name.split(" (").next().unwrap();
        assert!(
            guide.lines().any(|l| l.starts_with(&format!("| {row}"))),
            "the guide's generator table has no row for {name}"
        );
    }
}

/// A raw control or bidi character (U+202A-U+202E, U+2066-U+2069) other than a newline.
fn raw_control(c: char) -> bool {
    (c.is_control() && c != '\n')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// A value of a project's config is escaped where `init` writes it: in its TOML string
/// and in the `# Carried over:` comment, so it can add no key (a newline ended the
/// comment), break no parse (an ESC) and hide nothing (a bidi override); the terminal
/// line shows it escaped too.
#[test]
fn init_escapes_config_values_in_strings_and_comments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mkdocs.yml"),
        "site_url: \"https://m.example/\\u202E\"\nsite_dir: \"site\\nrespect_noindex = false\\n#\\e\\u2066\"\n",
    )
    .unwrap();
    let out = bin().current_dir(dir.path()).arg("init").assert().success();
    let text = std::fs::read_to_string(dir.path().join("sitemap.toml")).unwrap();
    assert!(!text.chars().any(raw_control), "{text:?}");
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(!table.contains_key("respect_noindex"), "{text}");
    let dir_value = "site\nrespect_noindex = false\n#\u{1b}\u{2066}";
    assert_eq!(table["public_dir"].as_str(), Some(dir_value), "{text}");
    assert_eq!(
        table["base_url"].as_str(),
        Some("https://m.example/\u{202e}/")
    );
    let note = "# Carried over: public_dir from site_dir = site\\nrespect_noindex = false\\n#\\u{1b}\\u{2066}.\n";
    assert!(text.contains(note), "{text}");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(!stderr.chars().any(raw_control), "{stderr:?}");
    assert!(stderr.contains("https://m.example/\\u{202e}/"), "{stderr}");
}

/// `init`'s JavaScript scans are linear: a key repeated a hundred thousand times in a
/// 700 KB config (a value that is no string; an object holding the next) took minutes.
#[test]
fn init_reads_hostile_javascript_configs_in_linear_time() {
    let cases = [
        ("astro.config.mjs", "site:x ".repeat(100_000)),
        ("docusaurus.config.js", "url:a|| ".repeat(100_000)),
        ("nuxt.config.ts", "site:{ ".repeat(100_000)),
        ("svelte.config.js", "paths:{".repeat(100_000)),
    ];
    for (name, text) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), text).unwrap();
        bin()
            .current_dir(dir.path())
            .arg("init")
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .success();
    }
}

/// A config `init` cannot read is named with the reason, not passed over in silence (a
/// FIFO, without waiting for a writer; a file over the 4 MiB limit).
// Unix only: a FIFO.
#[cfg(unix)]
#[test]
fn init_warns_naming_a_config_it_skips() {
    let fifo = tempfile::tempdir().unwrap();
    crate::util::mkfifo(&fifo.path().join("astro.config.mjs"));
    let large = tempfile::tempdir().unwrap();
    let text = format!("{}site: 'https://a.example'\n", " ".repeat(4 << 20));
    std::fs::write(large.path().join("astro.config.mjs"), text).unwrap();
    let cases = [
        (fifo, "not a regular file (a FIFO)"),
        (large, "larger than 4 MiB, the limit for a project file"),
    ];
    for (dir, why) in cases {
        bin()
            .current_dir(dir.path())
            .arg("init")
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "warning: astro.config.mjs: {why}; skipped\n"
            )));
    }
}

/// `man --dir` checks where every page goes before it writes one: a page's place taken
/// by a FIFO, a folder or a link is named, and no page is written.
// Unix only: symbolic links as Unix makes them (Windows makes them only with a privilege) and /dev/null.
#[cfg(unix)]
#[test]
fn man_dir_writes_nothing_when_a_page_cannot_be_written() {
    type Make = fn(&std::path::Path);
    let cases: [(&str, Make); 3] = [
        ("a FIFO", crate::util::mkfifo),
        ("a directory", |p| std::fs::create_dir(p).unwrap()),
        ("a symbolic link", |p| {
            std::os::unix::fs::symlink("/dev/null", p).unwrap()
        }),
    ];
    for (what, make) in cases {
        let dir = tempfile::tempdir().unwrap();
        let last = dir.path().join("sitemapgen-man.1");
        make(&last);
        bin()
            .args(["man", "--dir"])
            .arg(dir.path())
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "{}: is {what}",
                last.display()
            )));
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "{what}: {names:?}");
    }
}
