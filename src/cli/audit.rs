//! The site audit's findings, printed grouped by kind with their totals, or as JSON.

use std::io::Write;

use crate::audit::{Audit, Kind};
use crate::check::Severity;

/// Prints the findings on stdout, grouped, each group with its count (and how many of
/// it are not listed); the totals on stderr unless `quiet`.
pub(super) fn print_audit(audit: &Audit, quiet: bool) {
    let mut out = std::io::stdout().lock();
    let mut kinds: Vec<Kind> = audit.counts.iter().map(|(k, _, _)| *k).collect();
    kinds.dedup();
    for kind in kinds {
        let total: usize = (audit.counts.iter())
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, _, n)| n)
            .sum();
        super::say_to(&mut out, format_args!("{} ({total}):", kind.title()));
        let shown: Vec<_> = audit.findings.iter().filter(|f| f.kind == kind).collect();
        for finding in &shown {
            super::say_to(
                &mut out,
                format_args!("  {}: {}", finding.severity, finding.message),
            );
        }
        if total > shown.len() {
            super::say_to(
                &mut out,
                format_args!("  ... and {} more", total - shown.len()),
            );
        }
    }
    let _ = out.flush();
    if !quiet {
        let plural = |n: usize, what: &str| crate::text::count(n, what, &format!("{what}s"));
        super::say(format_args!(
            "audited {}: {}, {}",
            plural(audit.pages, "page"),
            plural(audit.errors(), "error"),
            plural(audit.warnings(), "warning"),
        ));
    }
}

/// The audit as JSON: the totals, each kind's count, and the findings kept.
pub(super) fn audit_json(audit: &Audit) -> serde_json::Value {
    let severity = |s: Severity| s.to_string();
    serde_json::json!({
        "pages": audit.pages,
        "errors": audit.errors(),
        "warnings": audit.warnings(),
        "counts": audit.counts.iter().map(|(kind, s, n)| serde_json::json!({
            "kind": kind.name(), "severity": severity(*s), "count": n,
        })).collect::<Vec<_>>(),
        "findings": audit.findings.iter().map(|f| serde_json::json!({
            "kind": f.kind.name(), "severity": severity(f.severity), "message": f.message,
        })).collect::<Vec<_>>(),
    })
}

/// Whether the audit fails the command: an error, or with `strict` any finding.
pub(super) fn fails(audit: &Audit, strict: bool) -> bool {
    audit.errors() > 0 || (strict && audit.warnings() > 0)
}
