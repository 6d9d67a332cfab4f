//! The network half of `submit` (the `submit` feature): IndexNow POSTs and the key check.

use jiff::Timestamp;

use super::{BATCH, Outcome, SubmitError, SubmitOptions, batch, key_location};
use crate::changes::{self, ChangeFile, Submitted};
use crate::fsutil::At;
use crate::http::{self, Retry, Timeouts, Unanswered};

/// Checks the key file when asked, then sends the batches (to `host`) from `done` on.
pub(super) fn send(
    options: &SubmitOptions,
    file: &mut ChangeFile,
    host: &str,
    done: usize,
) -> Result<Outcome, SubmitError> {
    let agent = agent();
    if options.verify_key {
        verify_key(&agent, options)?;
    }
    send_batches(&agent, options, file, host, done)
}

/// Sends the batches from `done` on, recording each one accepted.
fn send_batches(
    agent: &ureq::Agent,
    options: &SubmitOptions,
    file: &mut ChangeFile,
    host: &str,
    done: usize,
) -> Result<Outcome, SubmitError> {
    let batches = file.url_count().div_ceil(BATCH);
    let mut urls = 0;
    for i in done..batches {
        let (body, count) = batch(file, host, options, i);
        post(agent, options, &body)?;
        urls += count;
        file.submitted = Some(Submitted {
            endpoint: options.endpoint.clone(),
            at: Timestamp::now(),
            batches: i + 1,
        });
        changes::save_file(&options.changes, file)
            .at(&options.changes)
            .map_err(SubmitError::Record)?;
    }
    Ok(Outcome::Sent {
        batches: batches - done,
        urls,
    })
}

/// The client: redirects are returned, not followed (a followed 301/302 turns the POST
/// into a GET without the URLs, whose 200 would count as acceptance), and the key file
/// must be served at the very URL sent as `keyLocation`.
fn agent() -> ureq::Agent {
    http::agent(&Timeouts::default(), 1)
}

/// Checks that the key file is deployed with the key: IndexNow answers 403 to every
/// submission otherwise.
fn verify_key(agent: &ureq::Agent, options: &SubmitOptions) -> Result<(), SubmitError> {
    let url = key_location(options);
    let not_served = |problem: String| SubmitError::KeyNotServed {
        url: url.clone(),
        problem,
        key: options.key.clone(),
    };
    let mut response = agent
        .get(&url)
        .call()
        .map_err(|e| not_served(format!("cannot be fetched ({e})")))?;
    let status = response.status().as_u16();
    if response.status().is_redirection() {
        return Err(not_served(format!(
            "answered HTTP {status}, a redirect to {} (not followed: IndexNow reads the key at this URL; set base_url to where the site is served)",
            location(&response)
        )));
    }
    if status != 200 {
        return Err(not_served(format!("answered HTTP {status}")));
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(4096)
        .read_to_string()
        .map_err(|e| not_served(format!("cannot be read ({e})")))?;
    if body.trim() != options.key {
        return Err(not_served("does not hold the key".to_string()));
    }
    Ok(())
}

/// POSTs one batch, retrying 429, 5xx and network errors as [`http::answer`] does
/// (doubling waits, or the endpoint's `Retry-After`).
fn post(agent: &ureq::Agent, options: &SubmitOptions, body: &str) -> Result<(), SubmitError> {
    let endpoint = &options.endpoint;
    let retry = Retry {
        retries: options.retries,
        backoff: options.backoff,
    };
    let answer = http::answer(&retry, ANSWER_LIMIT, || {
        agent
            .post(endpoint)
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body)
    });
    let status = match answer {
        Ok(answer) => answer.status,
        Err(Unanswered::GaveUp { problem, tries }) => {
            return Err(SubmitError::GaveUp {
                endpoint: endpoint.clone(),
                problem,
                tries,
            });
        }
        Err(Unanswered::Redirected { status, location }) => {
            return Err(SubmitError::Redirected {
                endpoint: endpoint.clone(),
                status,
                location,
            });
        }
    };
    match status {
        200 | 202 => Ok(()),
        _ => Err(SubmitError::Refused {
            endpoint: endpoint.clone(),
            status,
            meaning: meaning(status).to_string(),
        }),
    }
}

/// The most of IndexNow's answer read: it says nothing past its status.
const ANSWER_LIMIT: u64 = 64 * 1024;

/// Where a redirect points, or what stands for a missing `Location`.
fn location<B>(response: &ureq::http::Response<B>) -> String {
    http::location(response).unwrap_or_else(|| http::NO_LOCATION.to_string())
}

/// What an IndexNow status means, and what to do about it.
fn meaning(status: u16) -> &'static str {
    match status {
        400 => {
            "bad request: the request is not valid JSON or a URL in it is not valid; report this as a bug"
        }
        403 => {
            "forbidden: the key is not valid for this host; check that {base_url}{key}.txt is deployed and holds the key (submit --verify-key checks it)"
        }
        422 => {
            "unprocessable: a URL does not belong to the host, or the key does not match the key file; check base_url and the key"
        }
        _ => "unexpected answer; check the endpoint (indexnow_endpoint, --endpoint)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_a_meaning_that_says_what_to_do() {
        for status in [400, 403, 422, 418] {
            assert!(meaning(status).contains(';'), "{status}");
        }
    }
}
