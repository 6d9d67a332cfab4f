//! `sitemapgen explain`.

use std::io::{self, Write};

use super::ExplainArgs;
use crate::config::{Config, Overrides};
use crate::explain::{Explained, Under, Verdict};
use crate::{Details, Error};

/// Collects the site as a build does, with its details, and answers for each page
/// asked about; the exit code: 2 when a path or URL names no page of the site.
pub(super) fn explain(args: &ExplainArgs) -> i32 {
    let (config, answers) = match run(args) {
        Ok(run) => run,
        Err(err) => {
            super::say(format_args!("error: {err}"));
            return err.exit_code();
        }
    };
    let printed = if args.json {
        let list: Vec<serde_json::Value> = answers.iter().map(json).collect();
        super::report::print_json(&serde_json::Value::Array(list))
    } else {
        print(&config, &answers)
    };
    let code = super::finish_stdout(printed);
    // A folder without an index page names no page either.
    let none =
        (answers.iter()).any(|a| matches!(a.verdict, Verdict::NotFound(_) | Verdict::Folder(_)));
    if code == 0 && none { 2 } else { code }
}

fn run(args: &ExplainArgs) -> Result<(Config, Vec<Explained>), Error> {
    let path = super::config_file(args.config.as_deref());
    let overrides = Overrides {
        public_dir: args.dir.clone(),
        base_url: args.base_url.clone(),
        ..Overrides::default()
    };
    let config = path.load(&overrides)?;
    let collection = crate::collect(&config, Details::Keep)?;
    let answers = crate::explain::explain(&config, &collection, &args.pages);
    Ok((config, answers))
}

/// Each answer as a few lines, every value escaped ([`crate::text::one_line`]).
fn print(config: &Config, answers: &[Explained]) -> io::Result<()> {
    let line = |s: &str| crate::text::one_line(s);
    let mut out = io::stdout().lock();
    for a in answers {
        let head = (a.path.as_ref()).map_or(a.asked.clone(), |p| {
            let mut head = crate::text::slashed(&config.public_dir.join(p));
            if matches!(a.verdict, Verdict::Folder(_)) && !head.ends_with('/') {
                head.push('/');
            }
            head
        });
        writeln!(out, "{}", line(&head))?;
        let page = !matches!(a.verdict, Verdict::Skipped(_) | Verdict::Folder(_));
        if let (Some(url), true) = (&a.url, page) {
            let style = &config.url_style;
            writeln!(
                out,
                "  url:       {} (trailing_slash = {}, clean_urls = {})",
                line(url),
                style.trailing_slash,
                style.clean_urls
            )?;
        }
        match &a.verdict {
            Verdict::Listed(l) => {
                writeln!(out, "  listed:    {}", line(&l.loc))?;
                let date = l.lastmod.map_or("none".to_string(), |t| t.to_string());
                let by = l.dated_by.map_or("no source dated it".to_string(), |s| {
                    format!("from \"{}\"", s.name())
                });
                writeln!(out, "  lastmod:   {date}, {by}")?;
                if let Some(src) = &l.source {
                    let found = match &src.file {
                        Some(file) => format!("{}, found {}", crate::text::path(file), src.found),
                        None => src.found.to_string(),
                    };
                    writeln!(out, "  source:    {}", line(&found))?;
                    writeln!(out, "  dated by:  {}", line(&src.dated))?;
                }
                for (source, why) in &l.tried {
                    writeln!(out, "  not from:  \"{}\": {}", source.name(), line(why))?;
                }
                for (lang, href) in &l.alternates {
                    writeln!(out, "  alternate: {} {}", line(lang), line(href))?;
                }
                if l.images > 0 {
                    writeln!(out, "  images:    {}", l.images)?;
                }
            }
            Verdict::LeftOut(why) => {
                writeln!(out, "  left out:  {}", line(&why.to_string()))?;
                if let Some((at, rule)) = &a.robots_line {
                    let file = config.public_dir.join("robots.txt");
                    writeln!(
                        out,
                        "  rule:      {}:{at}: {}",
                        line(&crate::text::slashed(&file)),
                        line(rule)
                    )?;
                }
            }
            Verdict::Skipped(why) => writeln!(out, "  not a page: {}", line(&why.to_string()))?,
            Verdict::NotFound(why) => writeln!(out, "  not found: {}", line(why))?,
            Verdict::Folder(under) => {
                writeln!(
                    out,
                    "  url:       {}",
                    line(a.url.as_deref().unwrap_or_default())
                )?;
                writeln!(out, "  folder:    {}", folder_line(under))?;
            }
        }
    }
    out.flush()
}

/// What a folder without an index page holds, and what to ask instead.
fn folder_line(under: &Under) -> String {
    match under.pages {
        0 => "a folder with no index page, and no page under it".to_string(),
        n => format!(
            "a folder with no index page; {} under it ({} left out): explain each by its path",
            crate::text::count(n, "page", "pages"),
            under.left_out
        ),
    }
}

fn json(a: &Explained) -> serde_json::Value {
    let mut value = serde_json::json!({
        "asked": a.asked,
        "path": a.path.as_ref().map(|p| crate::text::slashed(p)),
        "url": a.url,
    });
    let (status, extra) = match &a.verdict {
        Verdict::Listed(l) => (
            "listed",
            serde_json::json!({
                "loc": l.loc,
                "lastmod": l.lastmod.map(|t| t.to_string()),
                "lastmod_source": l.dated_by.map(|s| s.name()),
                "source": l.source.as_ref().map(|s| serde_json::json!({
                    "file": s.file.as_ref().map(|f| crate::text::slashed(f)),
                    "found": match s.found {
                        crate::explain::Found::Route => "route",
                        crate::explain::Found::Link => "link",
                        crate::explain::Found::Text(_) => "text",
                        crate::explain::Found::Below => "below",
                    },
                    "score": match s.found {
                        crate::explain::Found::Text(score) => Some(f64::from(score) / 1000.0),
                        _ => None,
                    },
                    "dated_by": s.dated,
                })),
                "not_from": l.tried.iter().map(|(s, why)| serde_json::json!({"source": s.name(), "why": why})).collect::<Vec<_>>(),
                "alternates": l.alternates.iter().map(|(lang, href)| serde_json::json!({"hreflang": lang, "href": href})).collect::<Vec<_>>(),
                "images": l.images,
            }),
        ),
        Verdict::LeftOut(why) => (
            "left_out",
            serde_json::json!({
                "reason": why.to_string(),
                "robots_line": a.robots_line.as_ref().map(|(at, rule)| serde_json::json!({"line": at, "rule": rule})),
            }),
        ),
        Verdict::Skipped(why) => (
            "not_a_page",
            serde_json::json!({ "reason": why.to_string() }),
        ),
        Verdict::NotFound(why) => ("not_found", serde_json::json!({ "reason": why })),
        Verdict::Folder(under) => (
            "folder",
            serde_json::json!({ "pages": under.pages, "left_out": under.left_out }),
        ),
    };
    value["status"] = status.into();
    if let (Some(object), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
        object.extend(extra);
    }
    value
}
