//! `sitemapgen man`: the man page on standard output, or every page written to a folder.

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;

use super::Cli;

/// Prints the man page, or with `dir` writes it and a page per command
/// (`sitemapgen-build.1`, ...) there, creating the folder: the main page's SUBCOMMANDS
/// section names those pages.
pub(super) fn man(dir: Option<&Path>) -> i32 {
    let Some(dir) = dir else {
        let mut out = io::stdout().lock();
        let written = clap_mangen::Man::new(Cli::command()).render(&mut out);
        return super::finish_stdout(written.and_then(|()| out.flush()));
    };
    match write_pages(dir) {
        Ok(n) => {
            super::say(format_args!("wrote {n} man pages to {}", dir.display()));
            0
        }
        Err(e) => {
            super::say(format_args!(
                "error: cannot write the man pages to {}: {e}; pick a folder you can write \
                 (e.g. ~/.local/share/man/man1), or run with sudo for a system one",
                dir.display()
            ));
            1
        }
    }
}

/// Writes the page of the command and of each of its commands into `dir`, each atomically
/// (only a regular file is replaced); returns how many.
fn write_pages(dir: &Path) -> io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let mut cmd = Cli::command().disable_help_subcommand(true);
    // Names the subcommands `sitemapgen-build` and so on, as their pages are named.
    cmd.build();
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    let held = crate::fsutil::lock_dir(dir)?;
    for page in &pages {
        let man = clap_mangen::Man::new(page.clone());
        let mut roff = Vec::new();
        man.render(&mut roff)?;
        let how = crate::fsutil::Atomic {
            prefix: ".sitemapgen.1.",
            clobber: true,
        };
        crate::fsutil::write_atomic(&dir.join(man.get_filename()), &roff, how, &held)?;
    }
    Ok(pages.len())
}
