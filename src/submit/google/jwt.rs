//! The JWT a service account signs to ask for a token (RFC 7523's JWT bearer grant, as
//! Google documents it for service accounts): header, claims, and (with the network)
//! the RS256 signature.

// The claims are built (and tested) in every build; only signing needs the network's
// crates, so without it they have no user.
#![cfg_attr(not(feature = "net"), allow(dead_code))]

use super::SCOPE;

/// A token is asked for an hour, the longest Google grants.
pub(crate) const LIFETIME: i64 = 3600;

/// The JWT's header: RS256, the one algorithm Google's token endpoint takes.
pub(crate) const HEADER: &str = r#"{"alg":"RS256","typ":"JWT"}"#;

/// The JWT's claims.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Claims<'a> {
    /// The service account's email.
    pub iss: &'a str,
    /// What the token may do.
    pub scope: &'a str,
    /// The token endpoint.
    pub aud: &'a str,
    /// Issued at (Unix seconds).
    pub iat: i64,
    /// Expires at.
    pub exp: i64,
}

impl<'a> Claims<'a> {
    /// The claims of `email`, for `token_uri`, issued at `now` (Unix seconds).
    pub fn new(email: &'a str, token_uri: &'a str, now: i64) -> Claims<'a> {
        Claims {
            iss: email,
            scope: SCOPE,
            aud: token_uri,
            iat: now,
            exp: now + LIFETIME,
        }
    }
}

#[cfg(feature = "net")]
pub(crate) use sign::sign;

#[cfg(feature = "net")]
mod sign {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ring::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
    use rustls_pki_types::PrivatePkcs8KeyDer;
    use rustls_pki_types::pem::PemObject;

    use super::{Claims, HEADER};
    use crate::submit::google::GoogleError;
    use crate::submit::google::credentials::{Secret, ServiceAccountKey};

    /// The signed JWT (`header.claims.signature`, each base64url) for `key`, issued at
    /// `now`: itself a credential.
    pub(crate) fn sign(key: &ServiceAccountKey, now: i64) -> Result<Secret, GoogleError> {
        let bad = |problem: String| GoogleError::Key {
            origin: key.origin.clone(),
            problem,
        };
        // The PEM reader's errors may quote a line of the key: only its kind is said.
        let der = PrivatePkcs8KeyDer::from_pem_slice(key.private_key.expose().as_bytes())
            .map_err(|_| bad("is not a PKCS#8 PEM private key".to_string()))?;
        let pair = RsaKeyPair::from_pkcs8(der.secret_pkcs8_der())
            .map_err(|e| bad(format!("is not an RSA key ring can use ({e})")))?;
        let claims = Claims::new(&key.client_email, &key.token_uri, now);
        let claims = serde_json::to_string(&claims).expect("claims serialize");
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(HEADER),
            URL_SAFE_NO_PAD.encode(claims)
        );
        let mut signature = vec![0; pair.public().modulus_len()];
        let rng = ring::rand::SystemRandom::new();
        pair.sign(&RSA_PKCS1_SHA256, &rng, input.as_bytes(), &mut signature)
            .map_err(|_| bad("cannot sign".to_string()))?;
        let signature = URL_SAFE_NO_PAD.encode(signature);
        Ok(Secret::new(format!("{input}.{signature}")))
    }
}
