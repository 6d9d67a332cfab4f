//! Integration tests: one test binary, each test on a fresh temporary site.

mod build;
mod canonical;
mod changes;
mod check;
mod check_hardening;
mod dates;
mod faults;
mod formats;
mod frameworks;
mod generators;
mod hardening;
mod heads;
mod images;
mod index;
mod json;
mod lastmod;
mod properties;
mod robots;
mod sections;
mod setup;
mod stylesheet;
mod submit;
mod syscalls;
mod tools;
mod util;
mod writes;
