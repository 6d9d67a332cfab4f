//! A Search Console property, and which URLs it covers: a URL-prefix property those under
//! its prefix, a domain property its host and subdomains, over http and https.

use super::GoogleError;

/// A verified property, as the API names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Property {
    /// `https://example.org/` (ends in `/`).
    Prefix(String),
    /// `sc-domain:example.org`.
    Domain {
        /// The whole name, `sc-domain:` included.
        name: String,
        /// The host (lower case).
        host: String,
    },
}

impl Property {
    /// `text` as a property, refused when it is neither form.
    pub fn parse(text: &str) -> Result<Property, GoogleError> {
        if !crate::config::is_property(text) {
            return Err(GoogleError::PropertyForm(text.to_string()));
        }
        Ok(match text.strip_prefix("sc-domain:") {
            Some(host) => Property::Domain {
                name: text.to_string(),
                host: host.to_ascii_lowercase(),
            },
            None => Property::Prefix(text.to_string()),
        })
    }

    /// The property as the API takes it (and Search Console shows it).
    pub fn as_str(&self) -> &str {
        match self {
            Property::Prefix(prefix) => prefix,
            Property::Domain { name, .. } => name,
        }
    }

    /// Ok when the property covers `sitemap`; else the refusal, saying which property
    /// would.
    pub fn covers(&self, sitemap: &str) -> Result<(), GoogleError> {
        let url = url::Url::parse(sitemap).ok();
        let host = url.as_ref().and_then(|u| u.host_str()).unwrap_or_default();
        let scheme = url.as_ref().map(|u| u.scheme()).unwrap_or_default();
        let covered = match self {
            Property::Prefix(prefix) => url.is_some() && sitemap.starts_with(prefix.as_str()),
            Property::Domain { host: domain, .. } => {
                matches!(scheme, "http" | "https")
                    && (host == domain || host.ends_with(&format!(".{domain}")))
            }
        };
        if covered {
            return Ok(());
        }
        let fix = match (self, host.is_empty()) {
            (_, true) => "give the sitemap's full URL (https://...)".to_string(),
            (Property::Prefix(_), false) => format!(
                "set [google] property to {scheme}://{host}/ (a URL prefix) or sc-domain:{host} (a domain property: its subdomains too, http and https), as verified in Search Console"
            ),
            (Property::Domain { .. }, false) => format!(
                "set [google] property to sc-domain:{host} or {scheme}://{host}/, as verified in Search Console"
            ),
        };
        Err(GoogleError::OutsideProperty {
            sitemap: sitemap.to_string(),
            property: self.as_str().to_string(),
            fix,
        })
    }
}
