//! Which files are pages, which are documents, and how their paths become URLs: the
//! keys `extensions`, `documents`, `error_pages`, `trailing_slash` and `clean_urls`
//! (the last two else the host's form).

use super::ConfigError;
use super::file::{FileConfig, Source, bad_value};
use crate::urls::UrlStyle;

/// `extensions`: the page extensions, lower-case, without the dot.
pub(super) fn extensions(file: &FileConfig, src: &Source) -> Result<Vec<String>, ConfigError> {
    let Some(list) = &file.extensions else {
        return Ok(vec!["html".to_string(), "htm".to_string()]);
    };
    let exts: Vec<String> = list
        .get_ref()
        .iter()
        .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
        .collect();
    if exts.is_empty() || exts.iter().any(|e| e.is_empty() || e.contains(['/', '\\'])) {
        let message = "must be a non-empty list of extensions such as [\"html\", \"htm\"]";
        return Err(bad_value(
            src,
            list.span(),
            "extensions",
            message.to_string(),
        ));
    }
    Ok(exts)
}

/// How files map to URLs: the file's keys, else the form the host serves.
pub(super) fn url_style(file: &FileConfig, form: &crate::host::UrlForm) -> UrlStyle {
    let trailing_slash = file.trailing_slash.or(form.trailing_slash).unwrap_or(true);
    let clean_urls = file.clean_urls.or(form.clean_urls).unwrap_or(false);
    UrlStyle {
        trailing_slash,
        clean_urls,
        clean_slash: form.clean_slash && trailing_slash && clean_urls,
        dotted_bare: form.dotted_bare && trailing_slash,
    }
}

/// `documents`: extensions of files listed as they are (`["pdf"]`), none a page's.
pub(super) fn documents(file: &FileConfig, src: &Source) -> Result<Vec<String>, ConfigError> {
    let Some(list) = &file.documents else {
        return Ok(Vec::new());
    };
    let pages = extensions(file, src)?;
    let mut exts = Vec::new();
    for ext in list.get_ref() {
        let ext = ext.trim_start_matches('.').to_ascii_lowercase();
        let why = if ext.is_empty() || !ext.chars().all(|c| c.is_ascii_alphanumeric()) {
            Some(format!(
                "'{}' is not an extension such as \"pdf\"",
                crate::text::one_line(&ext)
            ))
        } else if pages.contains(&ext) {
            Some(format!(
                "'{ext}' is a page extension (extensions); a document is a file listed unread"
            ))
        } else {
            None
        };
        if let Some(message) = why {
            return Err(bad_value(src, list.span(), "documents", message));
        }
        exts.push(ext);
    }
    Ok(exts)
}

pub(super) fn error_pages(file: &FileConfig, src: &Source) -> Result<Vec<String>, ConfigError> {
    let Some(list) = &file.error_pages else {
        return Ok(crate::scan::DEFAULT_ERROR_PAGES.map(String::from).to_vec());
    };
    let bad = list
        .get_ref()
        .iter()
        .find(|p| !crate::scan::is_error_page_pattern(p));
    if let Some(bad) = bad {
        let message = format!(
            "'{}' is not a file name or dir/file such as \"404.html\" or \"404/index.html\" (no globs, no leading /)",
            crate::text::one_line(bad)
        );
        return Err(bad_value(src, list.span(), "error_pages", message));
    }
    Ok(list.get_ref().clone())
}
