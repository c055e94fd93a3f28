//! Secrets: ONE wrapper ([`Secret`], on the `secrecy` crate: zeroed on
//! drop, `Debug`/`Display` print `***`) and ONE way to take credentials out
//! of URLs and of text that may hold URLs.

use secrecy::{ExposeSecret, SecretString};
use std::fmt;

/// A secret string (a token, a private key, a store key). The value is
/// reachable only through [`Secret::expose`], for the one place that sends
/// it; formatting it prints `***`.
#[derive(Clone)]
pub struct Secret(SecretString);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(SecretString::from(value.into()))
    }

    /// The value, for the one place that sends it.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// `text` with every URL's `user:password@` replaced by `***@` (error
/// messages, command lines, logs).
pub fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '/')
            .unwrap_or(rest.len());
        if let Some(at) = rest[..end].rfind('@') {
            out.push_str("***@");
            rest = &rest[at + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// `url` split at its authority: `(scheme, authority, the rest)`, the rest
/// starting at the first `/`, `?` or `#` after it; `None` without `://`.
fn authority(url: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some((scheme, &rest[..end], &rest[end..]))
}

/// `url` without its `user:password@` and otherwise whole (a URL lane
/// passes on, never with the credentials it may carry).
pub fn without_userinfo(url: &str) -> String {
    match authority(url) {
        Some((scheme, auth, rest)) => {
            let host = auth.rsplit('@').next().unwrap_or(auth);
            format!("{scheme}://{host}{rest}")
        }
        None => url.to_owned(),
    }
}

/// `url` as an HTTP client may be given it, and what its `user:password@`
/// becomes: the URL without userinfo, and the `Authorization` header value
/// (`Basic` of the userinfo as written) to send instead, if it had any. A
/// client's own spans and logs name the URL it was given (`http.url=`,
/// its connection pool's key); a header value is never logged.
pub fn split_userinfo(url: &str) -> (String, Option<Secret>) {
    use base64::Engine as _;
    let Some((_, auth, _)) = authority(url) else {
        return (url.to_owned(), None);
    };
    let Some((userinfo, _)) = auth.rsplit_once('@') else {
        return (url.to_owned(), None);
    };
    let encoded = base64::engine::general_purpose::STANDARD.encode(userinfo);
    (
        without_userinfo(url),
        Some(Secret::new(format!("Basic {encoded}"))),
    )
}

/// A URL as it may be shown: no credentials, no query (a presigned URL's
/// signature is a bearer secret until it expires), no fragment.
pub fn shown_url(url: &str) -> String {
    without_userinfo(url.split(['?', '#']).next().unwrap_or(url))
}

/// Whether `url` carries credentials in its authority (`scheme://user@` or
/// `scheme://user:password@`): a URL that is copied into manifests, Jobs or
/// output must not.
pub fn has_userinfo(url: &str) -> bool {
    authority(url).is_some_and(|(_, auth, _)| auth.contains('@'))
}

/// Whether `url` carries a password in its authority
/// (`scheme://user:password@`): a user alone (`ssh://git@host/…`) is not
/// a secret, a password is.
pub fn has_password(url: &str) -> bool {
    authority(url).is_some_and(|(_, auth, _)| {
        auth.rsplit_once('@')
            .is_some_and(|(userinfo, _)| userinfo.contains(':'))
    })
}

/// The names of the environment variables that hold lane's credentials:
/// the Job builder refuses to copy them into a Job. (A mint's environment
/// is built from an allow list, `lane_agent::mint_env`, not from this.)
pub const CREDENTIAL_ENV: &[&str] = &[
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "LANE_GITHUB_APP_KEY",
    "LANE_INDEX_TOKEN",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_told_from_a_user_alone() {
        assert!(has_password("http://user:PW@host/gw.git"));
        assert!(has_password("https://:token@host/gw.git"));
        assert!(!has_password("ssh://git@github.com/cozy-creator/gw.git"));
        assert!(!has_password("https://github.com/cozy-creator/gw.git"));
        assert!(!has_password("git@github.com:cozy-creator/gw.git"));
        assert!(!has_password("https://host/a:b@c"));
    }

    #[test]
    fn userinfo_is_split_off_into_a_basic_header() {
        let (url, header) = split_userinfo("http://u:pass@127.0.0.1:9/api?x=1");
        assert_eq!(url, "http://127.0.0.1:9/api?x=1");
        assert_eq!(header.unwrap().expose(), "Basic dTpwYXNz");
        assert_eq!(
            split_userinfo("https://api.github.com"),
            ("https://api.github.com".to_owned(), None)
        );
    }

    #[test]
    fn a_secret_never_formats_its_value() {
        let s = Secret::new("ghs_sekrit");
        assert_eq!(format!("{s} {s:?}"), "*** Secret(***)");
        assert_eq!(s.expose(), "ghs_sekrit");
    }

    #[test]
    fn credentials_in_urls_are_redacted_shown_and_detected() {
        assert_eq!(
            redact_userinfo("clone https://x-access-token:ghs_secret@github.com/a/b failed"),
            "clone https://***@github.com/a/b failed"
        );
        assert_eq!(
            redact_userinfo("https://github.com/a/b"),
            "https://github.com/a/b"
        );
        assert_eq!(
            shown_url("https://u:p@host/legacy/x.whl?X-Amz-Signature=s#f"),
            "https://host/legacy/x.whl"
        );
        assert!(has_userinfo("s3://KEY:secret@bucket/x"));
        assert!(!has_userinfo("s3://bucket/x?a=b@c"));
        assert_eq!(
            without_userinfo("http://ci:pw@127.0.0.1:8080/legacy/?a=b"),
            "http://127.0.0.1:8080/legacy/?a=b"
        );
        assert_eq!(
            without_userinfo("https://upload.pypi.org/legacy/"),
            "https://upload.pypi.org/legacy/"
        );
        assert_eq!(without_userinfo("http://a@b@host"), "http://host");
    }
}
