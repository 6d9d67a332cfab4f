//! The calls that go out (the `net` feature): each tried again on 429, 5xx or no
//! answer as [`http::answer`] does, redirects not followed.

use super::answer::{ANSWER_LIMIT, already_known, parse_feeds, parse_quota};
use super::{Bing, BingError, Call, FeedStatus, Method, URL_BATCH, UrlsSent};
use crate::http::{self, Retry, Unanswered};

impl Bing {
    /// Sends `SubmitFeed` for each of `sitemaps`, stopping at the first refused;
    /// returns how many Bing took.
    pub fn submit_feeds(
        &self,
        agent: &ureq::Agent,
        retry: &Retry,
        sitemaps: &[&str],
    ) -> Result<usize, BingError> {
        for sitemap in sitemaps {
            self.send(agent, retry, &self.submit_feed(sitemap))?;
        }
        Ok(sitemaps.len())
    }

    /// Submits `urls` within the quota Bing reports (the smaller of today's and this
    /// month's), [`URL_BATCH`] a request; what does not fit is counted in
    /// [`UrlsSent::left`]. A quota of 0, or a batch refused for the quota, is not an
    /// error. No URLs: nothing is asked.
    pub fn submit_urls(
        &self,
        agent: &ureq::Agent,
        retry: &Retry,
        urls: &[&str],
    ) -> Result<UrlsSent, BingError> {
        let mut done = UrlsSent {
            sent: 0,
            left: urls.len(),
            daily_quota: None,
            over_quota: None,
        };
        if urls.is_empty() {
            return Ok(done);
        }
        let quota = self.send(agent, retry, &self.quota())?;
        let quota =
            parse_quota(&quota).map_err(|e| self.bad_answer(Method::GetUrlSubmissionQuota, &e))?;
        done.daily_quota = Some(quota.daily);
        let room = usize::try_from(quota.daily.min(quota.monthly)).unwrap_or(usize::MAX);
        for batch in urls[..room.min(urls.len())].chunks(URL_BATCH) {
            match self.send(agent, retry, &self.url_batch(batch)) {
                Ok(_) => {}
                Err(BingError::OverQuota { answer, .. }) => {
                    done.over_quota = Some(answer);
                    break;
                }
                Err(e) => return Err(e),
            }
            done.sent += batch.len();
            done.left -= batch.len();
        }
        Ok(done)
    }

    /// What Bing says of each of `sitemaps` (one `GetFeeds`).
    pub fn status(
        &self,
        agent: &ureq::Agent,
        retry: &Retry,
        sitemaps: &[&str],
    ) -> Result<Vec<FeedStatus>, BingError> {
        let body = self.send(agent, retry, &self.feeds())?;
        parse_feeds(&body, sitemaps).map_err(|e| self.bad_answer(Method::GetFeeds, &e))
    }

    /// Sends `call`, returning the body of a 2xx answer.
    fn send(&self, agent: &ureq::Agent, retry: &Retry, call: &Call) -> Result<String, BingError> {
        let answer = http::answer(retry, ANSWER_LIMIT, || match &call.shown.body {
            Some(body) => agent
                .post(&call.url)
                .header("Content-Type", "application/json; charset=utf-8")
                .send(body),
            None => agent.get(&call.url).call(),
        });
        let answer = answer.map_err(|e| match e {
            Unanswered::GaveUp { problem, tries } => BingError::GaveUp {
                url: call.shown.url.clone(),
                problem: self.scrub(&problem),
                tries,
            },
            Unanswered::Redirected { status, location } => BingError::Redirected {
                url: call.shown.url.clone(),
                status,
                location: self.scrub(&location),
            },
        })?;
        if (200..300).contains(&answer.status) {
            return Ok(answer.body);
        }
        match already_known(call.method, &answer.body) {
            true => Ok(String::new()),
            false => Err(self.refusal(call.method, answer.status, &answer.body)),
        }
    }

    /// An answer of 2xx that does not parse (what serde quotes of it scrubbed).
    fn bad_answer(&self, method: Method, e: &serde_json::Error) -> BingError {
        BingError::BadAnswer {
            method: method.name(),
            problem: self.scrub(&e.to_string()),
        }
    }
}
