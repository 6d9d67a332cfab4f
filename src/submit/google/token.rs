//! Fetching the access token (the `net` feature): a service account's signed JWT traded
//! at its token endpoint, or a federated identity's outside token (GitHub's OIDC token)
//! exchanged at STS, then traded at IAM Credentials for the service account's token.

use jiff::Timestamp;

use super::credentials::{Credentials, Federation, ServiceAccountKey, iam_body, jwt_grant};
use super::error::detail;
use super::net::Net;
use super::{GoogleError, Secret, jwt};
use crate::http::Answer;

const FORM: &str = "application/x-www-form-urlencoded";

/// A step of getting the token, for what its refusal means.
#[derive(Clone, Copy)]
enum Step {
    /// The JWT traded at the key's `token_uri`.
    Jwt,
    /// GitHub's OIDC token.
    Oidc,
    /// The STS exchange.
    Sts,
    /// IAM Credentials' `generateAccessToken`.
    Iam,
}

impl Credentials {
    /// A fresh access token for Search Console.
    pub(crate) fn fetch_token(&self, net: &Net) -> Result<Secret, GoogleError> {
        match self {
            Credentials::ServiceAccount(key) => service_account(key, net),
            Credentials::Federation(federation) => federated(federation, net, self.email()),
        }
    }
}

fn service_account(key: &ServiceAccountKey, net: &Net) -> Result<Secret, GoogleError> {
    let jwt = jwt::sign(key, Timestamp::now().as_second())?;
    // The JWT is base64url and dots: nothing in it needs escaping in a form.
    let form = format!("{}&assertion={}", jwt_grant(), jwt.expose());
    let url = &key.token_uri;
    let answer = net.call(url, |agent| {
        agent.post(url).header("Content-Type", FORM).send(&form)
    })?;
    let email = Some(key.client_email.as_str());
    let json = accepted(Step::Jwt, url, answer, &[jwt.expose()], email)?;
    field(&json, "access_token", url)
}

fn federated(f: &Federation, net: &Net, email: Option<&str>) -> Result<Secret, GoogleError> {
    let url = &f.source_url;
    let answer = net.call(url, |agent| {
        (f.source_headers.iter())
            .fold(agent.get(url), |r, (name, value)| {
                r.header(name, value.expose())
            })
            .call()
    })?;
    let headers: Vec<&str> = f.source_headers.iter().map(|(_, v)| v.expose()).collect();
    let json = accepted(Step::Oidc, url, answer, &headers, email)?;
    let subject = field(&json, &f.source_field, url)?;

    let url = &f.token_url;
    let form = f.sts_form(subject.expose());
    let answer = net.call(url, |agent| {
        agent.post(url).header("Content-Type", FORM).send(&form)
    })?;
    let json = accepted(Step::Sts, url, answer, &[subject.expose()], email)?;
    let federated = field(&json, "access_token", url)?;
    let Some(url) = &f.impersonation_url else {
        return Ok(federated);
    };

    let bearer = format!("Bearer {}", federated.expose());
    let answer = net.call(url, |agent| {
        (agent.post(url))
            .header("Authorization", &bearer)
            .header("Content-Type", "application/json")
            .send(&iam_body())
    })?;
    let json = accepted(Step::Iam, url, answer, &[federated.expose()], email)?;
    field(&json, "accessToken", url)
}

/// A 200 answer's JSON; any other status is the step's refusal, explained.
fn accepted(
    step: Step,
    url: &str,
    answer: Answer,
    secrets: &[&str],
    email: Option<&str>,
) -> Result<serde_json::Value, GoogleError> {
    if answer.status != 200 {
        let (name, fix) = refusal(step, answer.status, email.unwrap_or("the service account"));
        return Err(GoogleError::Token {
            step: name,
            endpoint: url.to_string(),
            status: answer.status,
            detail: detail(&answer.body, secrets),
            fix,
        });
    }
    serde_json::from_str(&answer.body).map_err(|_| GoogleError::Answer {
        endpoint: url.to_string(),
        problem: "HTTP 200 with a body that is not JSON".to_string(),
    })
}

/// A token in an answer's `name` field.
fn field(json: &serde_json::Value, name: &str, url: &str) -> Result<Secret, GoogleError> {
    match json.get(name).and_then(|v| v.as_str()) {
        Some(token) if !token.is_empty() => Ok(Secret::new(token)),
        _ => Err(GoogleError::Answer {
            endpoint: url.to_string(),
            problem: format!("HTTP 200 without {name}"),
        }),
    }
}

/// The step's name, and what its refusal with `status` means and how to fix it.
fn refusal(step: Step, status: u16, email: &str) -> (&'static str, String) {
    let refused = matches!(status, 400 | 401 | 403);
    let fix = match step {
        Step::Jwt if refused => format!(
            "the key was refused: it may have been deleted or disabled (make a new key for {email} and update the secret), or this machine's clock is off"
        ),
        Step::Oidc if refused => "GitHub refused to issue an OIDC token: give the job `permissions: id-token: write`".to_string(),
        Step::Sts if refused => "the Workload Identity provider refused GitHub's token: its attribute condition may not admit this repository (or branch), or workload_identity_provider names another provider".to_string(),
        Step::Iam if refused => format!(
            "the pool's identity may not act as {email}: grant it roles/iam.workloadIdentityUser on that service account (principalSet://iam.googleapis.com/projects/NUM/locations/global/workloadIdentityPools/POOL/attribute.repository/OWNER/REPO), and enable the IAM Service Account Credentials API"
        ),
        Step::Iam if status == 404 => format!("there is no service account {email}: check [google] service_account"),
        _ => "check [google] sts_endpoint and iam_endpoint (if set), or the key's token_uri or credentials file's token_url".to_string(),
    };
    let name = match step {
        Step::Jwt => "the service account key's token request",
        Step::Oidc => "GitHub's OIDC token request",
        Step::Sts => "the Workload Identity Federation exchange (STS)",
        Step::Iam => "the service account's token (IAM Credentials)",
    };
    (name, fix)
}
