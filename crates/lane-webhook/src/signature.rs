//! `X-Hub-Signature-256`: GitHub signs every delivery's body with the
//! webhook's secret (HMAC-SHA256) and sends `sha256=<64 hex digits>`.
//!
//! Only the body is signed: the `X-GitHub-Event` and `X-GitHub-Delivery`
//! headers are not, so they are validated where they are read
//! ([`Delivery::parse`](crate::Delivery::parse)).

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header that carries the signature.
pub const SIGNATURE_HEADER: &str = "X-Hub-Signature-256";

/// The header value's prefix.
const PREFIX: &str = "sha256=";

type HmacSha256 = Hmac<Sha256>;

/// Why a delivery's signature is refused. No variant holds the secret, the
/// expected digest or the header's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// The secret is empty: anyone could sign with it (a configuration
    /// mistake, refused rather than accepted).
    #[error("the webhook secret is empty: refusing to verify with it")]
    EmptySecret,
    /// The request has no `X-Hub-Signature-256` header.
    #[error("missing X-Hub-Signature-256 header")]
    Missing,
    /// The header is not `sha256=` followed by 64 hexadecimal digits.
    #[error("malformed X-Hub-Signature-256 header: expected `sha256=` and 64 hexadecimal digits")]
    Malformed,
    /// The signature is well formed but is not the body's under the secret.
    #[error("X-Hub-Signature-256 does not match the body")]
    Mismatch,
}

/// Checks `header` (the `X-Hub-Signature-256` value, if the request had
/// one) against `body` under `secret`, comparing in constant time.
///
/// `body` is the request body exactly as received (before any parsing).
pub fn verify_signature(
    secret: &[u8],
    body: &[u8],
    header: Option<&str>,
) -> Result<(), SignatureError> {
    if secret.is_empty() {
        return Err(SignatureError::EmptySecret);
    }
    let header = header.ok_or(SignatureError::Missing)?;
    let digest = header
        .strip_prefix(PREFIX)
        .and_then(unhex32)
        .ok_or(SignatureError::Malformed)?;
    mac(secret, body)
        .verify_slice(&digest)
        .map_err(|_| SignatureError::Mismatch)
}

/// The `X-Hub-Signature-256` value GitHub would send for `body` under
/// `secret` (`sha256=` and lowercase hex), for tests and tools.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    format!(
        "{PREFIX}{}",
        lane_core::hex::hex(&mac(secret, body).finalize().into_bytes())
    )
}

fn mac(secret: &[u8], body: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length; `new_from_slice` never fails for it.
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(body);
    mac
}

/// 64 hexadecimal digits (either case) as 32 bytes.
fn unhex32(s: &str) -> Option<[u8; 32]> {
    let s = s.as_bytes();
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in s.chunks_exact(2).enumerate() {
        out[i] = (nibble(pair[0])? << 4) | nibble(pair[1])?;
    }
    Some(out)
}

fn nibble(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"It's a Secret to Everybody";
    const BODY: &[u8] = b"Hello, World!";

    /// GitHub's own worked example ("Validating webhook deliveries").
    const GITHUB_EXAMPLE: &str =
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

    #[test]
    fn sign_gives_githubs_documented_example() {
        assert_eq!(sign(SECRET, BODY), GITHUB_EXAMPLE);
        assert_eq!(verify_signature(SECRET, BODY, Some(GITHUB_EXAMPLE)), Ok(()));
    }

    #[test]
    fn upper_case_hex_is_accepted() {
        let upper = format!("sha256={}", GITHUB_EXAMPLE[7..].to_ascii_uppercase());
        assert_eq!(verify_signature(SECRET, BODY, Some(&upper)), Ok(()));
    }

    #[test]
    fn each_failure_has_its_variant() {
        use SignatureError::*;
        let v = |h: Option<&str>| verify_signature(SECRET, BODY, h);
        assert_eq!(v(None), Err(Missing));
        let digest = &GITHUB_EXAMPLE[7..];
        for bad in [
            "",
            "sha256=",
            digest,
            &format!("sha1={digest}"),
            &format!("SHA256={digest}"),
            &format!("sha256={}", &digest[..63]),
            &format!("sha256={digest}0"),
            &format!("sha256={}g", &digest[..63]),
            &format!(" sha256={digest}"),
            &format!("sha256={digest} "),
        ] {
            assert_eq!(v(Some(bad)), Err(Malformed), "{bad:?}");
        }
        let mut flipped = GITHUB_EXAMPLE.to_owned();
        flipped.replace_range(70..71, "0");
        assert_eq!(v(Some(&flipped)), Err(Mismatch));
        assert_eq!(
            verify_signature(b"another secret", BODY, Some(GITHUB_EXAMPLE)),
            Err(Mismatch)
        );
        assert_eq!(
            verify_signature(b"", BODY, Some(&sign(b"", BODY))),
            Err(EmptySecret)
        );
    }

    #[test]
    fn no_error_names_the_secret_or_the_digest() {
        let expected = &sign(SECRET, BODY)[7..];
        for e in [
            SignatureError::EmptySecret,
            SignatureError::Missing,
            SignatureError::Malformed,
            SignatureError::Mismatch,
        ] {
            for shown in [e.to_string(), format!("{e:?}")] {
                assert!(!shown.contains("Secret to"), "{shown}");
                assert!(!shown.contains(expected), "{shown}");
            }
        }
    }
}
