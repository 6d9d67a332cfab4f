//! Per-glob rules: which pages are excluded, and the `changefreq` and `priority` of the
//! rest. Every glob of every rule is compiled once into a single [`GlobSet`], so a page
//! is matched against all rules in one pass.

use std::fmt;
use std::path::Path;

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;

/// How often a page is likely to change (the protocol's `<changefreq>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Changefreq {
    /// Changes on every access.
    Always,
    /// Hourly.
    Hourly,
    /// Daily.
    Daily,
    /// Weekly.
    Weekly,
    /// Monthly.
    Monthly,
    /// Yearly.
    Yearly,
    /// Archived; never changes.
    Never,
}

impl Changefreq {
    /// Every value, in the protocol's order.
    pub const ALL: [Changefreq; 7] = [
        Changefreq::Always,
        Changefreq::Hourly,
        Changefreq::Daily,
        Changefreq::Weekly,
        Changefreq::Monthly,
        Changefreq::Yearly,
        Changefreq::Never,
    ];

    /// The value as written in a sitemap.
    pub fn as_str(self) -> &'static str {
        match self {
            Changefreq::Always => "always",
            Changefreq::Hourly => "hourly",
            Changefreq::Daily => "daily",
            Changefreq::Weekly => "weekly",
            Changefreq::Monthly => "monthly",
            Changefreq::Yearly => "yearly",
            Changefreq::Never => "never",
        }
    }
}

/// A page's priority relative to the site's other pages, from 0.0 to 1.0.
///
/// Kept as `f32`: every entry of a million-page site carries one, and priorities are
/// written with a few decimals at most, which `f32` prints back exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Priority(f32);

impl Priority {
    /// Accepts a value from 0.0 to 1.0 inclusive; `None` for anything else, NaN included.
    pub fn new(value: f64) -> Option<Priority> {
        // `+ 0.0` turns -0.0 into 0.0, which would otherwise be written `-0.0`: not a
        // priority the schema (or our own check) accepts.
        (0.0..=1.0)
            .contains(&value)
            .then_some(Priority((value + 0.0) as f32))
    }

    /// Its `f32` bits, to pack it where `Option`'s tag would cost more.
    pub(crate) fn to_bits(self) -> u32 {
        self.0.to_bits()
    }

    /// The priority of [`Priority::to_bits`]'s bits; `None` for any others.
    pub(crate) fn from_bits(bits: u32) -> Option<Priority> {
        let value = f32::from_bits(bits);
        (0.0..=1.0).contains(&value).then_some(Priority(value))
    }

    /// The numeric value.
    pub fn get(self) -> f64 {
        // Through the shortest decimal form, so 0.8 reads back as 0.8, not 0.800000011920929.
        self.0.to_string().parse().unwrap_or(f64::from(self.0))
    }
}

impl fmt::Display for Priority {
    /// Shortest form that reads back as the same value, always with a decimal point.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.fract() == 0.0 {
            write!(f, "{:.1}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// What a rule sets; `None` leaves the field as earlier rules set it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleFields {
    /// `changefreq` to set.
    pub changefreq: Option<Changefreq>,
    /// `priority` to set.
    pub priority: Option<Priority>,
    /// Exclude (true) or bring back (false) matching pages.
    pub exclude: Option<bool>,
}

/// One `[[rule]]` as written in the configuration, before its globs are compiled.
#[derive(Debug, Clone)]
pub struct RuleSpec {
    /// Glob patterns; the rule applies when any of them matches.
    pub globs: Vec<String>,
    /// What the rule sets.
    pub fields: RuleFields,
}

/// Which part of the configuration a glob came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleRef {
    /// The top-level `exclude` list.
    Exclude,
    /// A `[[rule]]`, 1-based in file order.
    Rule(usize),
    /// A `[[section]]`, 1-based in file order.
    Section(usize),
    /// The rules as a whole (the compiled set).
    All,
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleRef::Exclude => f.write_str("exclude"),
            RuleRef::Rule(n) => write!(f, "[[rule]] #{n}"),
            RuleRef::Section(n) => write!(f, "[[section]] #{n}"),
            RuleRef::All => f.write_str("rules"),
        }
    }
}

/// A glob that does not compile; names the rule it came from.
#[derive(Debug, Clone, thiserror::Error)]
#[error("invalid glob '{glob}' in {rule}: {message}")]
pub struct GlobError {
    /// Which rule: `[[rule]] #2`, or `exclude`.
    pub rule: RuleRef,
    /// The pattern as written.
    pub glob: String,
    /// What globset said is wrong with it.
    pub message: String,
}

/// Why a page was left out by the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExcludedBy {
    /// A pattern of the top-level `exclude` list.
    Exclude(String),
    /// A `[[rule]]` with `exclude = true`; 1-based, in file order, with the glob that matched.
    Rule(usize, String),
    /// Another of the `[[shards]]` lists it (`None`: none does).
    Shard(Option<String>),
}

impl fmt::Display for ExcludedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExcludedBy::Exclude(glob) => write!(f, "excluded by exclude pattern '{glob}'"),
            ExcludedBy::Rule(n, glob) => write!(f, "excluded by [[rule]] #{n} ('{glob}')"),
            ExcludedBy::Shard(Some(name)) => write!(f, "another shard's page (shard '{name}')"),
            ExcludedBy::Shard(None) => f.write_str("in no shard (no [[shards]] match takes it)"),
        }
    }
}

/// The outcome of the rules for one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Set when the page is left out.
    pub excluded: Option<ExcludedBy>,
    /// The last rule to decide said `exclude = false`: the user's explicit word, which
    /// overrides what the page's head says (noindex, canonical, redirect).
    pub included: bool,
    /// The page's `changefreq`, if anything set one.
    pub changefreq: Option<Changefreq>,
    /// The page's `priority`, if anything set one.
    pub priority: Option<Priority>,
}

/// A layer of the cascade: the top-level `exclude` list is layer 0, rules follow.
#[derive(Debug)]
struct Layer {
    fields: RuleFields,
    /// The rule's number (1-based), or `None` for the top-level `exclude` list.
    rule: Option<usize>,
}

/// All rules, compiled: the top-level `exclude` globs first, then each `[[rule]]` in
/// file order, every matching one applied over the ones before it.
#[derive(Debug)]
pub struct Rules {
    defaults: RuleFields,
    globs: GlobSet,
    /// For each glob in `globs`, in the same order: its layer and its text. Globs are
    /// added layer by layer, so glob order is cascade order.
    glob_layer: Vec<(usize, String)>,
    layers: Vec<Layer>,
}

/// Compiles a glob with the project's semantics: matched against the path relative to
/// the public directory with `/` separators; `*` stops at `/`, `**` crosses it.
pub(crate) fn compile_glob(glob: &str, rule: RuleRef) -> Result<globset::Glob, GlobError> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| GlobError {
            rule,
            glob: crate::text::one_line(glob),
            message: crate::text::one_line(&e.kind().to_string()),
        })
}

/// Builds a set of compiled globs (each already checked by [`compile_glob`]).
pub(crate) fn build_set(builder: &GlobSetBuilder) -> Result<GlobSet, GlobError> {
    builder.build().map_err(|e| GlobError {
        rule: RuleRef::All,
        glob: e.glob().unwrap_or_default().to_string(),
        message: e.kind().to_string(),
    })
}

impl Rules {
    /// Compiles the defaults, the top-level `exclude` patterns and the rules.
    pub fn new(
        defaults: RuleFields,
        exclude: &[String],
        rules: &[RuleSpec],
    ) -> Result<Rules, GlobError> {
        let mut builder = GlobSetBuilder::new();
        let mut glob_layer = Vec::new();
        let mut layers = Vec::new();
        for glob in exclude {
            builder.add(compile_glob(glob, RuleRef::Exclude)?);
            glob_layer.push((layers.len(), glob.clone()));
            layers.push(Layer {
                fields: RuleFields {
                    exclude: Some(true),
                    ..RuleFields::default()
                },
                rule: None,
            });
        }
        for (i, rule) in rules.iter().enumerate() {
            for glob in &rule.globs {
                builder.add(compile_glob(glob, RuleRef::Rule(i + 1))?);
                glob_layer.push((layers.len(), glob.clone()));
            }
            layers.push(Layer {
                fields: rule.fields.clone(),
                rule: Some(i + 1),
            });
        }
        let globs = build_set(&builder)?;
        Ok(Rules {
            defaults,
            globs,
            glob_layer,
            layers,
        })
    }

    /// Applies the cascade to a path relative to the public directory.
    pub fn apply(&self, rel: &Path, matched: &mut Vec<usize>) -> Verdict {
        let mut verdict = Verdict {
            excluded: None,
            included: false,
            changefreq: self.defaults.changefreq,
            priority: self.defaults.priority,
        };
        self.globs
            .matches_candidate_into(&Candidate::new(rel), matched);
        matched.sort_unstable();
        let mut previous = None;
        for &g in matched.iter() {
            let (l, glob) = &self.glob_layer[g];
            // Several globs of one rule may match: apply each layer once, in order.
            if previous == Some(*l) {
                continue;
            }
            previous = Some(*l);
            let layer = &self.layers[*l];
            if let Some(c) = layer.fields.changefreq {
                verdict.changefreq = Some(c);
            }
            if let Some(p) = layer.fields.priority {
                verdict.priority = Some(p);
            }
            match layer.fields.exclude {
                Some(true) => {
                    verdict.excluded = Some(match layer.rule {
                        Some(n) => ExcludedBy::Rule(n, glob.clone()),
                        None => ExcludedBy::Exclude(glob.clone()),
                    });
                    verdict.included = false;
                }
                Some(false) => {
                    verdict.excluded = None;
                    verdict.included = true;
                }
                None => {}
            }
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(globs: &[&str], c: Option<Changefreq>, p: Option<f64>, ex: Option<bool>) -> RuleSpec {
        RuleSpec {
            globs: globs.iter().map(|g| g.to_string()).collect(),
            fields: RuleFields {
                changefreq: c,
                priority: p.map(|p| Priority::new(p).unwrap()),
                exclude: ex,
            },
        }
    }

    fn verdict(rules: &Rules, path: &str) -> (bool, Option<&'static str>, Option<f64>) {
        let v = rules.apply(Path::new(path), &mut Vec::new());
        (
            v.excluded.is_some(),
            v.changefreq.map(Changefreq::as_str),
            v.priority.map(Priority::get),
        )
    }

    #[test]
    fn rules_cascade_in_file_order() {
        use Changefreq::*;
        let defaults = RuleFields {
            changefreq: Some(Weekly),
            priority: Some(Priority::new(0.5).unwrap()),
            exclude: None,
        };
        let rules = Rules::new(
            defaults,
            &["drafts/**".to_string()],
            &[
                rule(&["blog/**"], Some(Daily), Some(0.8), None),
                rule(&["blog/page/**"], None, None, Some(true)),
                rule(&["blog/page/1/**", "x.html"], None, Some(0.1), Some(false)),
                rule(&["drafts/keep.html"], None, None, Some(false)),
                rule(&["*.html"], Some(Monthly), None, None),
            ],
        )
        .unwrap();
        let table = [
            ("index.html", (false, Some("monthly"), Some(0.5))),
            ("about/index.html", (false, Some("weekly"), Some(0.5))),
            ("blog/index.html", (false, Some("daily"), Some(0.8))),
            ("blog/a/b/c.html", (false, Some("daily"), Some(0.8))),
            ("blog/page/2/index.html", (true, Some("daily"), Some(0.8))),
            ("blog/page/1/index.html", (false, Some("daily"), Some(0.1))),
            ("drafts/a.html", (true, Some("weekly"), Some(0.5))),
            ("drafts/keep.html", (false, Some("weekly"), Some(0.5))),
            ("blog/page/1/x.html", (false, Some("daily"), Some(0.1))),
            ("x.html", (false, Some("monthly"), Some(0.1))),
        ];
        for (path, want) in table {
            assert_eq!(verdict(&rules, path), want, "path {path}");
        }
        let included = |p: &str| rules.apply(Path::new(p), &mut Vec::new()).included;
        assert!(included("drafts/keep.html") && included("blog/page/1/x.html"));
        assert!(!included("blog/index.html") && !included("drafts/a.html"));
    }

    #[test]
    fn star_does_not_cross_slash_but_double_star_does() {
        let rules = Rules::new(
            RuleFields::default(),
            &[],
            &[rule(&["docs/*.html"], None, None, Some(true))],
        )
        .unwrap();
        assert!(verdict(&rules, "docs/a.html").0);
        assert!(!verdict(&rules, "docs/sub/a.html").0);
        let rules = Rules::new(RuleFields::default(), &["docs/**/*.html".into()], &[]).unwrap();
        assert!(verdict(&rules, "docs/a.html").0);
        assert!(verdict(&rules, "docs/sub/deeper/a.html").0);
    }

    #[test]
    fn the_reason_names_the_deciding_rule() {
        let rules = Rules::new(
            RuleFields::default(),
            &["tmp/**".into()],
            &[rule(&["a/**", "b/**"], None, None, Some(true))],
        )
        .unwrap();
        let v = rules.apply(Path::new("b/x.html"), &mut Vec::new());
        assert_eq!(v.excluded, Some(ExcludedBy::Rule(1, "b/**".into())));
        let v = rules.apply(Path::new("tmp/x.html"), &mut Vec::new());
        assert_eq!(
            v.excluded.unwrap().to_string(),
            "excluded by exclude pattern 'tmp/**'"
        );
    }

    #[test]
    fn invalid_globs_name_the_rule() {
        let err = Rules::new(
            RuleFields::default(),
            &[],
            &[
                rule(&["ok/**"], None, None, None),
                rule(&["blog/[a"], None, None, None),
            ],
        )
        .unwrap_err();
        assert_eq!(err.rule.to_string(), "[[rule]] #2");
        assert_eq!(err.glob, "blog/[a");
        let err = Rules::new(RuleFields::default(), &["{a".into()], &[]).unwrap_err();
        assert_eq!(err.rule.to_string(), "exclude");
    }

    #[test]
    fn priorities_are_checked_and_printed_exactly() {
        assert!(Priority::new(-0.1).is_none());
        assert!(Priority::new(1.01).is_none());
        assert!(Priority::new(f64::NAN).is_none());
        let table = [
            (0.0, "0.0"),
            (-0.0, "0.0"),
            (1.0, "1.0"),
            (0.5, "0.5"),
            (0.85, "0.85"),
            (0.1, "0.1"),
        ];
        for (p, want) in table {
            assert_eq!(Priority::new(p).unwrap().to_string(), want);
        }
    }
}
