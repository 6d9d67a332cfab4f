//! Integration tests: one test binary, each test on a fresh temporary site.
//!
//! They compile for Windows too (CI type-checks them for `x86_64-pc-windows-gnu`): a test
//! that needs what only Unix has (symbolic links as Unix makes them, FIFOs and sockets,
//! permission bits, a file name of raw bytes, inode numbers, the prlimit, timeout and GNU
//! time that bound and measure a run) is `#[cfg(unix)]` with the reason above it. They do
//! not yet pass under Wine (`CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine`): a Windows
//! process there cannot start the host's git and xmllint, and messages name paths with
//! `\`; tests/platforms.sh runs the Windows build on the example and real sites instead.

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
