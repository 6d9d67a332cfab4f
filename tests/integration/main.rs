//! Integration tests: one test binary, each test on a fresh temporary site.
//!
//! They run on Windows too: `tests/platforms.sh` builds them for `x86_64-pc-windows-gnu`
//! and runs them under Wine (`CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine`). A test
//! that needs what only Unix has (symbolic links as Unix makes them, FIFOs and sockets,
//! permission bits, a file name Windows refuses, `/dev/full`, inode numbers, the sh,
//! prlimit, timeout and GNU time that run and bound a run) is `#[cfg(unix)]` with the
//! reason above it. A Windows process under Wine cannot start the host's git, xmllint or
//! jq: the tests needing one pass its checks over with a note (`tools`), and
//! `tests/platforms.sh` names the two it skips for Wine's sake.

mod audit;
mod build;
mod canonical;
mod changes;
mod check;
mod check_hardening;
mod cleanup;
mod dates;
mod docs;
mod documents;
mod engines;
mod explain;
mod fake;
mod faults;
mod formats;
mod frameworks;
mod generators;
mod hardening;
mod heads;
mod host;
mod hostile;
// Unix only: every test runs under prlimit, timeout and GNU time.
#[cfg(unix)]
mod hostile_host;
mod images;
mod index;
mod init;
mod json;
mod lastmod;
#[cfg(feature = "net")]
mod live;
mod properties;
#[cfg(target_os = "linux")]
mod races;
mod reference;
mod repository;
mod robots;
mod sections;
mod setup;
mod shards;
mod state_file;
mod stylesheet;
#[cfg(feature = "net")]
mod submit;
mod syscalls;
mod tools;
mod util;
mod views;
mod views_site;
mod writes;
