//! The engines `submit` tells and `status` asks, behind one interface, so that one
//! failing never stops the others and each is reported the same way: IndexNow (the
//! change list's URLs), Google Search Console and Bing Webmaster Tools (the sitemaps, and
//! Bing the changed URLs too, within its quota).

use jiff::Timestamp;

use super::bing::{self, Bing, BingSettings};
use super::google::{self, Google, GoogleSettings};
use super::{Request, SubmitError};

/// What a run hands every engine.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    /// The published sitemaps' URLs, the root first (`published`).
    pub sitemaps: &'a [String],
    /// The change list's URLs added and updated, for engines that take URLs.
    pub changed: &'a [&'a str],
}

/// The network, as every engine uses it: one client, one retry policy.
#[derive(Debug, Clone)]
pub struct Net {
    /// The client (redirects returned, statuses read).
    #[cfg(feature = "net")]
    pub agent: ureq::Agent,
    /// Retries of 429, 5xx and unanswered requests.
    pub retry: crate::http::Retry,
}

/// What an engine was told.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Told {
    /// The sitemaps it was told of.
    pub sitemaps: Vec<String>,
    /// URLs sent to it now.
    pub urls: usize,
    /// Requests that sent them.
    pub requests: usize,
    /// Changed URLs left unsent (past its quota).
    pub left: usize,
    /// What the engine's limit was, when it has one (Bing's daily quota).
    pub quota: Option<u64>,
    /// Nothing was sent: it had been told already (at that time).
    pub already: Option<Timestamp>,
}

/// What an engine says of one sitemap.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct SitemapReport {
    /// The sitemap's URL.
    pub sitemap: String,
    /// When it was last submitted, as the engine has it.
    pub submitted_at: Option<Timestamp>,
    /// When the engine last read it.
    pub read_at: Option<Timestamp>,
    /// The engine has not read it since it was submitted.
    pub pending: bool,
    /// Its state in the engine's words (Bing's `Status`), when it gives one.
    pub state: Option<String>,
    /// Errors the engine found in it.
    pub errors: u64,
    /// Warnings the engine found in it.
    pub warnings: u64,
    /// URLs the engine counts in it.
    pub urls: Option<u64>,
    /// Of those, how many it has indexed, where it says.
    pub indexed: Option<u64>,
}

/// One search engine.
pub trait Engine {
    /// Its name in the summary and in `--json` (`indexnow`, `google`, `bing`).
    fn name(&self) -> &'static str;

    /// The requests [`Engine::tell`] would send, every credential redacted; nothing is
    /// sent, and no token fetched.
    fn requests(&self, plan: &Plan) -> Result<Vec<Request>, SubmitError>;

    /// Tells the engine of the plan's sitemaps (and URLs, if it takes them).
    #[cfg(feature = "net")]
    fn tell(&mut self, net: &Net, plan: &Plan) -> Result<Told, SubmitError>;

    /// What it says of each sitemap; `None` for an engine that says nothing back
    /// (IndexNow).
    #[cfg(feature = "net")]
    fn ask(
        &mut self,
        net: &Net,
        sitemaps: &[String],
    ) -> Option<Result<Vec<SitemapReport>, SubmitError>>;
}

/// An engine, or why it could not be set up (no credentials): it fails alone.
pub type Ready = Result<Box<dyn Engine>, (&'static str, SubmitError)>;

/// Tells each engine in turn; each one's result, by name, in order.
#[cfg_attr(not(feature = "net"), allow(unused_variables))]
pub fn tell_all(
    engines: Vec<Ready>,
    net: &Net,
    plan: &Plan,
) -> Vec<(&'static str, Result<Told, SubmitError>)> {
    let tell = |ready: Ready| match ready {
        #[cfg(feature = "net")]
        Ok(mut engine) => (engine.name(), engine.tell(net, plan)),
        // Without the network nothing is told ([`super::submit`] refuses first).
        #[cfg(not(feature = "net"))]
        Ok(engine) => (engine.name(), Err(SubmitError::NoNetwork)),
        Err((name, err)) => (name, Err(err)),
    };
    engines.into_iter().map(tell).collect()
}

/// Every engine's requests for a dry run, by name, in order.
pub fn requests_all(
    engines: Vec<Ready>,
    plan: &Plan,
) -> Vec<(&'static str, Result<Vec<Request>, SubmitError>)> {
    let requests = |ready: Ready| match ready {
        Ok(engine) => (engine.name(), engine.requests(plan)),
        Err((name, err)) => (name, Err(err)),
    };
    engines.into_iter().map(requests).collect()
}

/// Asks each engine that answers; each one's reports, by name, in order.
#[cfg_attr(not(feature = "net"), allow(unused_variables))]
pub fn ask_all(
    engines: Vec<Ready>,
    net: &Net,
    sitemaps: &[String],
) -> Vec<(&'static str, Result<Vec<SitemapReport>, SubmitError>)> {
    let ask = |ready: Ready| match ready {
        #[cfg(feature = "net")]
        Ok(mut engine) => engine.ask(net, sitemaps).map(|r| (engine.name(), r)),
        #[cfg(not(feature = "net"))]
        Ok(engine) => Some((engine.name(), Err(SubmitError::NoNetwork))),
        Err((name, err)) => Some((name, Err(err))),
    };
    engines.into_iter().filter_map(ask).collect()
}

/// Google's engine as `[google]` sets it up, with credentials from `env`.
pub fn google_engine(config: &crate::config::Google, base_url: &str, env: super::Env) -> Ready {
    let or =
        |value: &Option<String>, default: &str| value.clone().unwrap_or_else(|| default.into());
    let settings = GoogleSettings {
        property: Some(config.property.clone()),
        service_account: config.service_account.clone(),
        workload_identity_provider: config.workload_identity_provider.clone(),
        api_endpoint: or(&config.api_endpoint, google::API_ENDPOINT),
        sts_endpoint: or(&config.sts_endpoint, google::STS_ENDPOINT),
        iam_endpoint: or(&config.iam_endpoint, google::IAM_ENDPOINT),
    };
    match Google::from_env(&settings, base_url, env) {
        Ok(google) => Ok(Box::new(google)),
        Err(err) => Err(("google", err.into())),
    }
}

impl Engine for Google {
    fn name(&self) -> &'static str {
        "google"
    }

    fn requests(&self, plan: &Plan) -> Result<Vec<Request>, SubmitError> {
        Ok(self.dry_run(plan.sitemaps)?)
    }

    #[cfg(feature = "net")]
    fn tell(&mut self, net: &Net, plan: &Plan) -> Result<Told, SubmitError> {
        let sitemaps = self.submit(&net.agent, &net.retry, plan.sitemaps)?;
        Ok(Told {
            sitemaps,
            ..Told::default()
        })
    }

    #[cfg(feature = "net")]
    fn ask(
        &mut self,
        net: &Net,
        sitemaps: &[String],
    ) -> Option<Result<Vec<SitemapReport>, SubmitError>> {
        let report = |sitemap: &String, status: google::SitemapStatus| {
            let indexed = status.contents.iter().filter_map(|c| c.indexed);
            SitemapReport {
                sitemap: sitemap.clone(),
                submitted_at: status.last_submitted,
                read_at: status.last_downloaded,
                pending: status.is_pending,
                state: None,
                errors: status.errors,
                warnings: status.warnings,
                urls: Some(status.contents.iter().map(|c| c.submitted).sum()),
                indexed: status
                    .contents
                    .iter()
                    .any(|c| c.indexed.is_some())
                    .then(|| indexed.sum()),
            }
        };
        let mut reports = Vec::new();
        for sitemap in sitemaps {
            match self.status(&net.agent, &net.retry, sitemap) {
                Ok(status) => reports.push(report(sitemap, status)),
                Err(err) => return Some(Err(err.into())),
            }
        }
        Some(Ok(reports))
    }
}

/// Bing's engine as `[bing]` sets it up, with its key from `env`.
pub fn bing_engine(config: &crate::config::Bing, base_url: &str, env: super::Env) -> Ready {
    let settings = BingSettings {
        site_url: Some(config.site_url.clone()),
        api_endpoint: (config.api_endpoint.clone())
            .unwrap_or_else(|| bing::DEFAULT_ENDPOINT.into()),
    };
    match Bing::from_env(&settings, base_url, env) {
        Ok(bing) => Ok(Box::new(bing)),
        Err(err) => Err(("bing", err.into())),
    }
}

impl Engine for Bing {
    fn name(&self) -> &'static str {
        "bing"
    }

    fn requests(&self, plan: &Plan) -> Result<Vec<Request>, SubmitError> {
        let sitemaps: Vec<&str> = plan.sitemaps.iter().map(String::as_str).collect();
        Ok(self.dry_run(&sitemaps, plan.changed))
    }

    #[cfg(feature = "net")]
    fn tell(&mut self, net: &Net, plan: &Plan) -> Result<Told, SubmitError> {
        let sitemaps: Vec<&str> = plan.sitemaps.iter().map(String::as_str).collect();
        self.submit_feeds(&net.agent, &net.retry, &sitemaps)?;
        let sent = self.submit_urls(&net.agent, &net.retry, plan.changed)?;
        Ok(Told {
            sitemaps: plan.sitemaps.to_vec(),
            urls: sent.sent,
            requests: 0,
            left: sent.left,
            quota: sent.daily_quota,
            already: None,
        })
    }

    #[cfg(feature = "net")]
    fn ask(
        &mut self,
        net: &Net,
        sitemaps: &[String],
    ) -> Option<Result<Vec<SitemapReport>, SubmitError>> {
        let asked: Vec<&str> = sitemaps.iter().map(String::as_str).collect();
        let report = |status: bing::FeedStatus| match status.feed {
            Some(feed) => SitemapReport {
                sitemap: status.url,
                submitted_at: feed.submitted,
                read_at: feed.last_crawled,
                pending: feed.last_crawled.is_none(),
                state: feed.status,
                urls: feed.url_count,
                ..SitemapReport::default()
            },
            None => SitemapReport {
                sitemap: status.url,
                state: Some("not among the site's sitemaps in Bing: run submit".to_string()),
                ..SitemapReport::default()
            },
        };
        let statuses = self.status(&net.agent, &net.retry, &asked);
        Some(
            statuses
                .map(|s| s.into_iter().map(report).collect())
                .map_err(Into::into),
        )
    }
}
