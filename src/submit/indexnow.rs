//! IndexNow as one of the engines: the change list's URLs, recorded as sent.

use super::engines::{Engine, Plan};
#[cfg(feature = "net")]
use super::engines::{Net, SitemapReport, Told};
use super::{Outcome, Request, SubmitError, SubmitOptions, submit};

/// IndexNow, with its settings.
#[derive(Debug, Clone)]
pub struct IndexNow {
    /// Its settings (`dry_run` is set by [`Engine::requests`] itself).
    pub options: SubmitOptions,
}

impl Engine for IndexNow {
    fn name(&self) -> &'static str {
        "indexnow"
    }

    fn requests(&self, _: &Plan) -> Result<Vec<Request>, SubmitError> {
        let options = SubmitOptions {
            dry_run: true,
            ..self.options.clone()
        };
        let requests = match submit(&options)? {
            Outcome::DryRun(requests) => requests,
            _ => Vec::new(),
        };
        let request = |(url, body): (String, String)| Request {
            method: "POST",
            url,
            headers: Vec::new(),
            body: Some(body),
        };
        Ok(requests.into_iter().map(request).collect())
    }

    #[cfg(feature = "net")]
    fn tell(&mut self, net: &Net, _: &Plan) -> Result<Told, SubmitError> {
        let options = SubmitOptions {
            retries: net.retry.retries,
            backoff: net.retry.backoff,
            ..self.options.clone()
        };
        Ok(match submit(&options)? {
            Outcome::Sent { batches, urls } => Told {
                urls,
                requests: batches,
                ..Told::default()
            },
            Outcome::AlreadySubmitted(at) => Told {
                already: Some(at),
                ..Told::default()
            },
            Outcome::NothingChanged | Outcome::DryRun(_) => Told::default(),
        })
    }

    #[cfg(feature = "net")]
    fn ask(&mut self, _: &Net, _: &[String]) -> Option<Result<Vec<SitemapReport>, SubmitError>> {
        None
    }
}
