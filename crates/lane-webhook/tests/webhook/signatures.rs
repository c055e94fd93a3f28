//! Signatures against octokit's reference implementation
//! (`@octokit/webhooks-methods`, run by `node`) over real example bodies.

use crate::examples::{self, body};
use lane_webhook::{sign, verify_signature, SignatureError};
use serde_json::Value;

const SECRET: &str = "lane serve's webhook secret: ünïcödé too";

/// The reference's `sign(secret, body)` of each body.
fn reference_sign(secret: &str, bodies: &[String]) -> Vec<String> {
    lane_testkit::octokit::sign_all(secret, bodies)
}

/// The reference's `verify(secret, body, signature)` of each pair.
fn reference_verify(secret: &str, pairs: &[(String, String)]) -> Vec<bool> {
    lane_testkit::octokit::verify_all(secret, pairs)
}

/// Real bodies: every issue_comment, pull_request and ping example of
/// github.com, the one example with non-ASCII text (a Dependabot alert's
/// emoji), and a real comment edited to hold non-ASCII text.
fn bodies() -> Vec<String> {
    let mut all: Vec<String> = examples::all()
        .iter()
        .filter(|e| e.set == "api.github.com")
        .filter(|e| ["issue_comment", "pull_request", "ping"].contains(&e.event.as_str()))
        .map(|e| String::from_utf8(body(&e.payload)).unwrap())
        .collect();
    let non_ascii: Vec<String> = examples::all()
        .iter()
        .map(|e| String::from_utf8(body(&e.payload)).unwrap())
        .filter(|b| !b.is_ascii())
        .collect();
    assert!(!non_ascii.is_empty(), "the package has a non-ASCII example");
    all.extend(non_ascii);
    let mut comment = examples::dotcom("issue_comment", Some("created"));
    comment["comment"]["body"] = Value::from("/lane mint 0.93.3 — ça marche, 日本語, 🚀\r\n");
    all.push(String::from_utf8(body(&comment)).unwrap());
    all
}

#[test]
fn signatures_made_by_the_reference_verify_and_altered_ones_do_not() {
    let bodies = bodies();
    let signatures = reference_sign(SECRET, &bodies);
    assert_eq!(signatures.len(), bodies.len());
    for (b, s) in bodies.iter().zip(&signatures) {
        let b = b.as_bytes();
        assert_eq!(verify_signature(SECRET.as_bytes(), b, Some(s)), Ok(()));
        assert_eq!(
            &sign(SECRET.as_bytes(), b),
            s,
            "lane signs as the reference does"
        );
        // One byte of the body flipped, anywhere.
        for at in [0, b.len() / 2, b.len() - 1] {
            let mut flipped = b.to_vec();
            flipped[at] ^= 0x01;
            assert_eq!(
                verify_signature(SECRET.as_bytes(), &flipped, Some(s)),
                Err(SignatureError::Mismatch)
            );
        }
        assert_eq!(
            verify_signature(b"not the secret", b, Some(s)),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(SECRET.as_bytes(), b, None),
            Err(SignatureError::Missing)
        );
    }
}

#[test]
fn signatures_made_by_lane_pass_the_reference_verify() {
    let bodies = bodies();
    let mut pairs: Vec<(String, String)> = bodies
        .iter()
        .map(|b| (b.clone(), sign(SECRET.as_bytes(), b.as_bytes())))
        .collect();
    let n = pairs.len();
    // And the reference refuses lane's signature of another body.
    let (first, _) = pairs[0].clone();
    let (_, second_sig) = pairs[1].clone();
    pairs.push((first, second_sig));
    let verdicts = reference_verify(SECRET, &pairs);
    assert_eq!(verdicts[..n], vec![true; n][..]);
    assert!(!verdicts[n]);
}
