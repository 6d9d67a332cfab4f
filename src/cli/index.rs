//! `sitemapgen index`.

use super::IndexArgs;
use crate::stylesheet::Stylesheet;
use crate::urls::BaseUrl;

pub(super) fn index(args: &IndexArgs) -> i32 {
    let base_url = match BaseUrl::parse(&args.base_url) {
        Ok(base) => base,
        Err(e) => {
            super::say(format_args!("error: --base-url: {e}"));
            return 2;
        }
    };
    let root = args
        .root
        .clone()
        .unwrap_or_else(|| crate::fsutil::parent_dir(&args.output).to_path_buf());
    let format = if args.date_only {
        crate::w3c::LastmodFormat::Date
    } else {
        crate::w3c::LastmodFormat::Datetime
    };
    if let Err(e) = crate::index::refuse_output_among_inputs(&args.output, &args.sitemaps) {
        super::say(format_args!("error: {e}"));
        return 2;
    }
    let stylesheet = match &args.stylesheet {
        None => None,
        Some(value) => match Stylesheet::new(value, base_url.url().path()) {
            Ok(stylesheet) => Some(stylesheet),
            Err(problem) => {
                let value = crate::text::one_line(value);
                super::say(format_args!(
                    "error: --stylesheet: '{value}' {problem}; give \"default\" or a path such as /sitemap.xsl"
                ));
                return 2;
            }
        },
    };
    let hosts = crate::index::Hosts {
        any: args.allow_other_hosts,
    };
    let children = crate::index::children(&args.sitemaps, &root, &base_url, hosts);
    let result = children.and_then(|children| {
        if stylesheet.as_ref().is_some_and(|s| s.bundled) {
            crate::stylesheet::write_bundled(&root)?;
        }
        let href = stylesheet.as_ref().map(|s| s.href.as_str());
        crate::index::write(&args.output, &children, format, href).map(|()| children.len())
    });
    match result {
        Ok(n) => {
            if !args.quiet {
                super::say(format_args!(
                    "wrote {}: index of {}",
                    crate::text::path(&args.output),
                    crate::text::count(n, "sitemap", "sitemaps")
                ));
            }
            0
        }
        Err(e) => {
            super::say(format_args!("error: {e}"));
            1
        }
    }
}
