//! What a run reports: the summary line, JSON, the progress bar, warnings and details.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::Collection;
use crate::check::{Counts, Omitted, Problem, Report};
use crate::config::Config;

/// Whether to draw a progress bar: only for a person watching a terminal, never in a
/// CI log (`CI` set), nor with `-q` or `--json`.
fn wants_progress(quiet: bool, stderr_is_terminal: bool, in_ci: bool) -> bool {
    !quiet && stderr_is_terminal && !in_ci
}

/// How long a run goes before it gets a progress bar: shorter runs never flash one.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// What a progress bar counts: the work known so far, the work done, what the spinner
/// says before any is known, and the noun of a unit of work.
pub(super) struct Counted<'a> {
    pub total: &'a AtomicUsize,
    pub done: &'a AtomicUsize,
    pub waiting: &'a str,
    pub noun: &'a str,
}

/// Runs `work`, with a progress bar of `counted` drawn on stderr from another thread
/// meanwhile when a person is watching ([`wants_progress`]; `quiet` for `-q` or
/// `--json`).
pub(super) fn with_progress<T>(
    quiet: bool,
    counted: Counted<'_>,
    start: Instant,
    work: impl FnOnce() -> T,
) -> T {
    use std::io::IsTerminal;
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    let show = wants_progress(quiet, io::stderr().is_terminal(), in_ci);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if show {
            scope.spawn(|| draw_progress(counted, &finished, start));
        }
        let done = work();
        finished.store(true, Ordering::Relaxed);
        done
    })
}

/// Draws a progress bar on stderr from `progress` once the run has taken
/// [`PROGRESS_AFTER`], until `finished`; then clears it, leaving the summary line alone.
fn draw_progress(progress: Counted<'_>, finished: &AtomicBool, start: Instant) {
    let tick = Duration::from_millis(50);
    while start.elapsed() < PROGRESS_AFTER {
        if finished.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(tick);
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(progress.waiting.to_string());
    let mut sized = false;
    while !finished.load(Ordering::Relaxed) {
        let total = progress.total.load(Ordering::Relaxed) as u64;
        if total > 0 && !sized {
            let template = format!(
                "{{bar:40}} {{human_pos}}/{{human_len}} {}, {{eta}} left",
                progress.noun
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template(&template).expect("a valid template"),
            );
            sized = true;
        }
        if sized {
            // The total may grow until it is known (pages are read as the walk finds them).
            bar.set_length(total);
            bar.set_position(progress.done.load(Ordering::Relaxed) as u64);
        } else {
            bar.tick();
        }
        std::thread::sleep(tick * 2);
    }
    bar.finish_and_clear();
}

/// Prints one JSON document on stdout.
/// A failure to write is the caller's to report; a closed pipe is one too (see
/// `finish_stdout`).
pub(super) fn print_json(value: &serde_json::Value) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()
}

/// A check's report as JSON.
pub(super) fn report_json(report: &Report) -> serde_json::Value {
    let mut value = counts_json(&report.counts, &report.omitted);
    value["problems"] = report.problems.iter().map(problem_json).collect();
    value
}

/// One problem of a check, as JSON.
pub(super) fn problem_json(p: &Problem) -> serde_json::Value {
    serde_json::json!({
        "file": crate::text::slashed(&p.file),
        "line": p.line,
        "severity": p.severity.to_string(),
        "message": p.message,
    })
}

/// A check's totals, and the problems not listed of each file, as JSON.
pub(super) fn counts_json(counts: &Counts, omitted: &[Omitted]) -> serde_json::Value {
    let omitted: Vec<serde_json::Value> = omitted
        .iter()
        .map(|o| serde_json::json!({"file": crate::text::slashed(&o.file), "problems": o.count}))
        .collect();
    serde_json::json!({
        "files": counts.files,
        "urls": counts.urls,
        "errors": counts.errors,
        "warnings": counts.warnings,
        "omitted": omitted,
    })
}

/// The summary of a build as JSON: what was listed, left out and written.
pub(super) fn build_json(
    collection: &Collection,
    written: Option<&crate::sitemap::Written>,
    dry_run: bool,
    phases: &[(&str, Duration)],
    elapsed: Duration,
) -> serde_json::Value {
    let counts = &collection.counts;
    let path = |p: &std::path::Path| crate::text::slashed(p);
    let mut value = serde_json::json!({
        "status": "ok",
        "urls": collection.entries.len(),
        "left_out": counts
            .each()
            .map(|(reason, n)| (reason.key().to_string(), serde_json::Value::from(n)))
            .collect::<serde_json::Map<_, _>>(),
        "skipped": collection.skipped_count,
        "lastmod": dated_json(&collection.dated),
        "warnings": collection.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "duration_ms": elapsed.as_millis() as u64,
        "durations_ms": phases
            .iter()
            .map(|(name, d)| (name.to_string(), serde_json::Value::from(d.as_millis() as u64)))
            .collect::<serde_json::Map<_, _>>(),
    });
    if dry_run {
        value["dry_run"] = true.into();
        value["list"] = collection
            .entries
            .iter()
            .map(|e| e.loc().to_string())
            .collect();
    }
    if let Some(changes) = &collection.changes {
        value["changes"] = serde_json::to_value(changes).unwrap_or_default();
    }
    let images = image_count(collection);
    if images > 0 {
        value["images"] = images.into();
    }
    if !collection.sections.is_empty() {
        value["sections"] = serde_json::to_value(&collection.sections).unwrap_or_default();
    }
    if let Some(w) = written {
        value["sitemap"] = path(&w.path).into();
        value["index"] = w.indexed.into();
        value["children"] = w.children.iter().map(|c| path(c)).collect();
        value["removed"] = w.removed.iter().map(|c| path(c)).collect();
        value["removed_other_form"] = w.other_form.iter().map(|c| path(c)).collect();
    }
    value
}

/// How many warnings of one kind are printed without `-v`: a problem every page has
/// (a date format, a canonical's form) would otherwise print a line per page.
const WARNINGS_SHOWN_PER_KIND: usize = 20;

/// Prints each of `warnings` as a `warning:` line: all with `all`, else the first
/// [`WARNINGS_SHOWN_PER_KIND`] of each kind (`kind` tells them apart) and a note
/// counting the rest.
pub(super) fn print_warnings<T: std::fmt::Display, K: Eq + std::hash::Hash>(
    stderr: &mut impl Write,
    warnings: impl IntoIterator<Item = T>,
    kind: impl Fn(&T) -> K,
    all: bool,
) {
    let mut per_kind = std::collections::HashMap::new();
    let mut unshown = 0;
    for warning in warnings {
        let n = per_kind.entry(kind(&warning)).or_insert(0);
        *n += 1;
        match all || *n <= WARNINGS_SHOWN_PER_KIND {
            true => super::say_to(stderr, format_args!("warning: {warning}")),
            false => unshown += 1,
        }
    }
    if unshown > 0 {
        let more = crate::text::count(unshown, "more warning", "more warnings");
        super::say_to(
            stderr,
            format_args!(
                "note: {more} like those above ({WARNINGS_SHOWN_PER_KIND} of a kind are printed; -v prints all, --json lists all)"
            ),
        );
    }
}

/// Prints the warnings of a collection ([`print_warnings`]: all with `verbose`), and
/// with `verbose` every file skipped or left out with the reason.
pub(super) fn print_collected(
    stderr: &mut impl Write,
    config: &Config,
    collection: &Collection,
    verbose: bool,
) {
    let kind = |warning: &&crate::Warning| std::mem::discriminant(*warning);
    print_warnings(stderr, &collection.warnings, kind, verbose);
    if verbose {
        if let Some(changes) = &collection.changes {
            let lists = [
                ("added", &changes.added),
                ("updated", &changes.updated),
                ("removed", &changes.removed),
            ];
            for (what, urls) in lists {
                for url in urls {
                    super::say_to(stderr, format_args!("{what} {url}"));
                }
            }
        }
        for skipped in &collection.skipped {
            let path = config.public_dir.join(&skipped.rel);
            super::say_to(
                stderr,
                format_args!("skipped {}: {}", crate::text::path(&path), skipped.reason),
            );
        }
        for (rel, why) in &collection.left_out {
            let path = config.public_dir.join(rel);
            super::say_to(
                stderr,
                format_args!("left out {}: {why}", crate::text::path(&path)),
            );
        }
        for (rel, miss, from) in &collection.undated {
            let path = config.public_dir.join(rel);
            let dated = match from {
                Some(source) => format!("dated by {}", source.name()),
                None => "no lastmod".to_string(),
            };
            super::say_to(
                stderr,
                format_args!(
                    "lastmod {}: not from source, {miss}; {dated}",
                    crate::text::path(&path)
                ),
            );
        }
    }
}

/// How the pages were dated, for `--json`: `{"source": 171, "meta": 3, ..., "none": 2}`.
fn dated_json(dated: &crate::lastmod::DatedCounts) -> serde_json::Value {
    let mut map: serde_json::Map<String, serde_json::Value> = crate::lastmod::LastmodSource::NAMES
        .iter()
        .zip(dated.by)
        .filter(|((name, _), _)| *name != "none")
        .map(|((name, _), n)| (name.to_string(), n.into()))
        .collect();
    map.insert("none".to_string(), dated.undated.into());
    serde_json::Value::Object(map)
}

/// The `<image:image>` entries of all URLs.
fn image_count(collection: &Collection) -> usize {
    collection.entries.iter().map(|e| e.images().count()).sum()
}

/// `1,234 URLs (56 excluded by rules, 3 noindex, 2 redirects) in 38 ms`
pub(super) fn summary(collection: &Collection, elapsed: Duration) -> String {
    let mut line = crate::text::count(collection.entries.len(), "URL", "URLs");
    let mut notes = collection.counts.describe();
    let warnings = collection.warnings.len();
    if warnings > 0 {
        notes.push(crate::text::count(warnings, "warning", "warnings"));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join(", ")));
    }
    let ms = elapsed.as_millis();
    if ms < 1000 {
        line.push_str(&format!(" in {ms} ms"));
    } else {
        line.push_str(&format!(" in {:.2} s", elapsed.as_secs_f64()));
    }
    let images = image_count(collection);
    if images > 0 {
        let images = crate::text::count(images, "image entry", "image entries");
        line.push_str(&format!("; {images}"));
    }
    let dated = collection.dated.describe();
    if !dated.is_empty() {
        line.push_str(&format!("; lastmod: {}", dated.join(", ")));
    }
    if !collection.sections.is_empty() {
        let each: Vec<String> = collection
            .sections
            .iter()
            .map(|s| {
                let name = s.name.as_deref().unwrap_or("no section");
                format!("{name} {}", crate::text::thousands(s.urls))
            })
            .collect();
        line.push_str(&format!("; sections: {}", each.join(", ")));
    }
    if let Some(changes) = &collection.changes {
        line.push_str(&format!("; {}", changes.describe()));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_bar_only_for_a_person_at_a_terminal() {
        // (quiet or --json, stderr is a terminal, CI set) -> bar
        let table = [
            ((false, true, false), true),
            ((true, true, false), false),
            ((false, false, false), false),
            ((false, true, true), false),
            ((false, false, true), false),
        ];
        for ((quiet, terminal, ci), want) in table {
            assert_eq!(
                wants_progress(quiet, terminal, ci),
                want,
                "{quiet} {terminal} {ci}"
            );
        }
    }

    #[test]
    fn the_progress_bar_stays_away_from_short_runs() {
        let progress = crate::Progress::default();
        let finished = AtomicBool::new(true);
        let start = Instant::now();
        let counted = Counted {
            total: &progress.pages,
            done: &progress.done,
            waiting: "walking the site",
            noun: "pages",
        };
        draw_progress(counted, &finished, start);
        assert!(start.elapsed() < PROGRESS_AFTER);
    }

    #[test]
    fn a_bounded_number_of_warnings_of_a_kind_is_printed() {
        let n = WARNINGS_SHOWN_PER_KIND;
        // Kind 0 over the bound, kind 1 under it.
        let warnings: Vec<(u8, String)> = (0..n + 5)
            .map(|i| (0, format!("date {i}")))
            .chain([(1, "robots".to_string())])
            .collect();
        let note = format!(
            "note: 5 more warnings like those above ({n} of a kind are printed; -v prints all, --json lists all)"
        );
        // (all, lines printed, the note)
        let table = [(false, n + 2, Some(note)), (true, n + 6, None)];
        for (all, lines, want_note) in table {
            let mut out = Vec::new();
            let texts = warnings.iter().map(|(kind, text)| Shown(*kind, text));
            print_warnings(&mut out, texts, |w| w.0, all);
            let out = String::from_utf8(out).unwrap();
            assert_eq!(out.lines().count(), lines, "{out}");
            assert!(out.starts_with("warning: date 0\n"), "{out}");
            assert!(out.contains("warning: robots\n"), "{out}");
            assert_eq!(
                out.lines().last().filter(|l| l.starts_with("note:")),
                want_note.as_deref(),
                "{out}"
            );
        }
    }

    /// A warning of a kind, as the printer sees it.
    struct Shown<'a>(u8, &'a str);

    impl std::fmt::Display for Shown<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.1)
        }
    }

    #[test]
    fn numbers_get_thousands_separators() {
        let table = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ];
        for (n, want) in table {
            assert_eq!(crate::text::thousands(n), want);
        }
    }
}
