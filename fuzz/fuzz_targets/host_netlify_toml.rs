//! Arbitrary bytes as `netlify.toml`: a build gives a sitemap or an error, never a panic (see
//! common/host_site.rs).
#![no_main]

#[path = "common/host_site.rs"]
mod host_site;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    host_site::run("netlify.toml", host_site::Place::Project, "netlify", data);
});
