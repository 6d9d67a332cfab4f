//! `sitemapgen man`: the man page on standard output, or every page written to a folder.

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;

use super::Cli;
use crate::fsutil::IoError;

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
            super::say(format_args!(
                "wrote {n} man pages to {}",
                crate::text::path(dir)
            ));
            0
        }
        Err(e) => {
            super::say(format_args!("error: {e}"));
            1
        }
    }
}

/// Why `man --dir` wrote no page, or not all.
#[derive(Debug, thiserror::Error)]
enum ManError {
    /// A page's place is taken by what is not a regular file; found before any page is
    /// written, so none is.
    #[error("{0}; no man page was written")]
    Taken(#[source] IoError),
    /// The folder or a page cannot be written.
    #[error(
        "cannot write the man pages to {0}; pick a folder you can write \
         (e.g. ~/.local/share/man/man1), or run with sudo for a system one"
    )]
    Write(#[source] IoError),
}

/// Writes the page of the command and of each of its commands into `dir`, each atomically
/// (only a regular file is replaced); returns how many. Every page is rendered and every
/// place checked first, so a place taken by a FIFO, a folder or a link stops the run
/// before it has written some pages and not others.
fn write_pages(dir: &Path) -> Result<usize, ManError> {
    let write = |source| ManError::Write(IoError::new(dir, source));
    std::fs::create_dir_all(dir).map_err(write)?;
    let held = crate::fsutil::lock_dir(dir).map_err(write)?;
    let pages = render_pages().map_err(write)?;
    for (name, _) in &pages {
        if let Err(source) = held.dir().replaceable(name.as_ref()) {
            return Err(ManError::Taken(IoError::new(dir.join(name), source)));
        }
    }
    for (name, roff) in &pages {
        let fill = |out: &mut dyn std::io::Write| out.write_all(roff);
        (held
            .dir()
            .write_atomic(name.as_ref(), ".sitemapgen.1.", fill))
        .map_err(write)?;
    }
    Ok(pages.len())
}

/// Each page's file name and roff: the command's, then one per command it has.
fn render_pages() -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    // Names the subcommands `sitemapgen-build` and so on, as their pages are named.
    cmd.build();
    let mut commands = vec![cmd.clone()];
    commands.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    commands
        .into_iter()
        .map(|command| {
            let man = clap_mangen::Man::new(command);
            let mut roff = Vec::new();
            man.render(&mut roff)?;
            Ok((man.get_filename(), roff))
        })
        .collect()
}
