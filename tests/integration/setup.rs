//! Fitting in: shell completions, the man page, `init`, the GitHub Action.

use std::process::Command;

use predicates::prelude::*;

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
    for (shell, check) in [("bash", "-n"), ("zsh", "-n"), ("fish", "--no-execute")] {
        if Command::new(shell).arg("-c").arg("true").output().is_err() {
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
    if Command::new("man").arg("--version").output().is_ok() {
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
}
