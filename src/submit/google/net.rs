//! Sending (the `net` feature): requests tried again on 429 and 5xx, answers read within
//! a limit, and the Search Console calls with the access token, fetched anew once when
//! refused.

use ureq::Body;
use ureq::http::Response;

use super::api::{self, SitemapStatus};
use super::error::detail;
use super::{Google, GoogleError, Secret};
use crate::http::{self, Answer, Retry, Unanswered};

/// The most of an answer read: Google's answers are a few kilobytes.
const LIMIT: u64 = 1 << 20;

/// What sending needs: the client and the retry policy.
pub(crate) struct Net<'a> {
    /// The client ([`http::agent`]: redirects not followed, statuses read).
    pub agent: &'a ureq::Agent,
    /// How often 429, 5xx and unanswered requests are tried again.
    pub retry: &'a Retry,
}

impl Net<'_> {
    /// Sends what `send` makes to `url` (which carries no credential: it is shown in
    /// errors) as [`http::answer`] does; a redirect, and a 429 or 5xx left after the
    /// retries, are errors.
    pub fn call(
        &self,
        url: &str,
        send: impl Fn(&ureq::Agent) -> Result<Response<Body>, ureq::Error>,
    ) -> Result<Answer, GoogleError> {
        http::answer(self.retry, LIMIT, || send(self.agent)).map_err(|e| match e {
            Unanswered::GaveUp { problem, tries } => GoogleError::GaveUp {
                url: url.to_string(),
                problem,
                tries,
            },
            Unanswered::Redirected { status, location } => GoogleError::Redirected {
                url: url.to_string(),
                status,
                location,
            },
        })
    }
}

/// The two Search Console calls made.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Call {
    /// `sitemaps.submit`.
    Submit,
    /// `sitemaps.get`.
    Get,
}

impl Google {
    /// Submits each of `sitemaps` (`sitemaps.submit`), fetching the access token first;
    /// the sitemaps submitted, in order. Every sitemap is checked against the property
    /// before anything is sent.
    pub fn submit(
        &mut self,
        agent: &ureq::Agent,
        retry: &Retry,
        sitemaps: &[String],
    ) -> Result<Vec<String>, GoogleError> {
        self.check(sitemaps)?;
        let net = Net { agent, retry };
        let mut submitted = Vec::with_capacity(sitemaps.len());
        for sitemap in sitemaps {
            let url = api::sitemap_url(&self.api, &self.property, sitemap);
            self.authorized(&net, &url, Call::Submit)?;
            submitted.push(sitemap.clone());
        }
        Ok(submitted)
    }

    /// What Search Console says of `sitemap` (`sitemaps.get`).
    pub fn status(
        &mut self,
        agent: &ureq::Agent,
        retry: &Retry,
        sitemap: &str,
    ) -> Result<SitemapStatus, GoogleError> {
        self.property.covers(sitemap)?;
        let net = Net { agent, retry };
        let url = api::sitemap_url(&self.api, &self.property, sitemap);
        let answer = self.authorized(&net, &url, Call::Get)?;
        SitemapStatus::parse(&answer.body, &url)
    }

    /// Makes `call` with the access token; a 401 drops the token and tries once more
    /// with a fresh one (it expired, or was revoked, since it was fetched).
    fn authorized(&mut self, net: &Net, url: &str, call: Call) -> Result<Answer, GoogleError> {
        let (mut answer, mut token) = self.with_token(net, url, call)?;
        if answer.status == 401 {
            self.token = None;
            (answer, token) = self.with_token(net, url, call)?;
        }
        let detail = detail(&answer.body, &[token.expose()]);
        match answer.status {
            200..=299 => Ok(answer),
            401 => Err(GoogleError::Unauthorized { detail }),
            403 => Err(GoogleError::Forbidden {
                account: self
                    .account()
                    .unwrap_or("the federated identity")
                    .to_string(),
                property: self.property.as_str().to_string(),
                detail,
            }),
            404 => Err(GoogleError::NotFound {
                url: url.to_string(),
                detail,
                fix: match call {
                    Call::Submit => {
                        "the property is not a verified property of this account; set [google] property to the exact form Search Console shows (https://example.org/ or sc-domain:example.org)"
                    }
                    Call::Get => {
                        "the property is not a verified property of this account (use the exact form Search Console shows), or the sitemap was never submitted (run `sitemapgen submit` first)"
                    }
                },
            }),
            status => Err(GoogleError::Refused {
                url: url.to_string(),
                status,
                detail,
            }),
        }
    }

    /// Sends `call` with the access token (fetched if none is held), and the token used.
    fn with_token(
        &mut self,
        net: &Net,
        url: &str,
        call: Call,
    ) -> Result<(Answer, Secret), GoogleError> {
        let token = match &self.token {
            Some(token) => token.clone(),
            None => self
                .token
                .insert(self.credentials.fetch_token(net)?)
                .clone(),
        };
        let bearer = format!("Bearer {}", token.expose());
        let answer = net.call(url, |agent| match call {
            Call::Submit => agent.put(url).header("Authorization", &bearer).send_empty(),
            Call::Get => agent.get(url).header("Authorization", &bearer).call(),
        })?;
        Ok((answer, token))
    }
}
