//! AWS Signature Version 4 for S3: signed request headers and presigned
//! query strings. Pure functions of their inputs (the clock is passed in),
//! checked against the AWS documentation's published example.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use std::time::SystemTime;

use crate::hex;

/// The payload hash S3 accepts for presigned URLs.
pub(crate) const UNSIGNED_PAYLOAD: &str = "UNSIGNED-PAYLOAD";

/// What signs: the key pair, an optional session token and the region.
pub(crate) struct Signer<'a> {
    pub access_key: &'a str,
    pub secret_key: &'a str,
    pub session_token: Option<&'a str>,
    pub region: &'a str,
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("hmac takes any key length");
    m.update(data);
    m.finalize().into_bytes().to_vec()
}

/// `%XX`-encodes every byte but the unreserved ones (and `/` when `keep_slash`).
pub(crate) fn uri_encode(s: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) || (keep_slash && b == b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `(YYYYMMDD'T'HHMMSS'Z', YYYYMMDD)` for `t`, in UTC.
pub(crate) fn amz_dates(t: SystemTime) -> (String, String) {
    let ts = jiff::Timestamp::try_from(t).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    (
        ts.strftime("%Y%m%dT%H%M%SZ").to_string(),
        ts.strftime("%Y%m%d").to_string(),
    )
}

impl Signer<'_> {
    fn scope(&self, date: &str) -> String {
        format!("{date}/{}/s3/aws4_request", self.region)
    }

    fn signature(&self, amz_date: &str, date: &str, canonical_request: &str) -> String {
        let to_sign = format!(
            "AWS4-HMAC-SHA256\n{amz_date}\n{}\n{}",
            self.scope(date),
            hex(&Sha256::digest(canonical_request.as_bytes()))
        );
        let k = hmac(
            format!("AWS4{}", self.secret_key).as_bytes(),
            date.as_bytes(),
        );
        let k = hmac(&k, self.region.as_bytes());
        let k = hmac(&k, b"s3");
        let k = hmac(&k, b"aws4_request");
        hex(&hmac(&k, to_sign.as_bytes()))
    }

    /// The headers to send with a request: `x-amz-date`,
    /// `x-amz-content-sha256`, the token when there is one, and
    /// `authorization`, signing `host` and every header in `extra`
    /// (lower-case names).
    #[allow(clippy::too_many_arguments)] // one per part of SigV4's canonical request
    pub(crate) fn sign(
        &self,
        method: &str,
        host: &str,
        path: &str,
        query: &[(&str, &str)],
        extra: &[(String, String)],
        payload_sha256: &str,
        now: SystemTime,
    ) -> Vec<(String, String)> {
        let (amz_date, date) = amz_dates(now);
        let mut headers: Vec<(String, String)> = extra.to_vec();
        headers.push(("host".into(), host.into()));
        headers.push(("x-amz-content-sha256".into(), payload_sha256.into()));
        headers.push(("x-amz-date".into(), amz_date.clone()));
        if let Some(t) = self.session_token {
            headers.push(("x-amz-security-token".into(), t.into()));
        }
        headers.sort();
        let canonical_headers: String = headers
            .iter()
            .map(|(k, v)| format!("{k}:{}\n", v.trim()))
            .collect();
        let signed: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
        let signed = signed.join(";");
        let canonical = format!(
            "{method}\n{}\n{}\n{canonical_headers}\n{signed}\n{payload_sha256}",
            uri_encode(path, true),
            canonical_query(query)
        );
        let sig = self.signature(&amz_date, &date, &canonical);
        headers.retain(|(k, _)| k != "host");
        headers.push((
            "authorization".into(),
            format!(
                "AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={signed}, Signature={sig}",
                self.access_key,
                self.scope(&date)
            ),
        ));
        headers
    }

    /// The query string of a presigned `method` URL for `path`, valid `ttl_secs`.
    pub(crate) fn presign(
        &self,
        method: &str,
        host: &str,
        path: &str,
        ttl_secs: u64,
        now: SystemTime,
    ) -> String {
        let (amz_date, date) = amz_dates(now);
        let credential = format!("{}/{}", self.access_key, self.scope(&date));
        let ttl = ttl_secs.clamp(1, 604_800).to_string();
        let mut query: Vec<(&str, &str)> = vec![
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", &credential),
            ("X-Amz-Date", &amz_date),
            ("X-Amz-Expires", &ttl),
            ("X-Amz-SignedHeaders", "host"),
        ];
        if let Some(t) = self.session_token {
            query.push(("X-Amz-Security-Token", t));
        }
        let canonical = format!(
            "{method}\n{}\n{}\nhost:{host}\n\nhost\n{UNSIGNED_PAYLOAD}",
            uri_encode(path, true),
            canonical_query(&query)
        );
        let sig = self.signature(&amz_date, &date, &canonical);
        format!("{}&X-Amz-Signature={sig}", canonical_query(&query))
    }
}

/// The canonical (sorted, encoded) query string.
pub(crate) fn canonical_query(query: &[(&str, &str)]) -> String {
    let mut q: Vec<(String, String)> = query
        .iter()
        .map(|(k, v)| (uri_encode(k, false), uri_encode(v, false)))
        .collect();
    q.sort();
    q.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    const EXAMPLE_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    fn example() -> Signer<'static> {
        Signer {
            access_key: "AKIAIOSFODNN7EXAMPLE",
            secret_key: EXAMPLE_SECRET,
            session_token: None,
            region: "us-east-1",
        }
    }

    /// 2013-05-24T00:00:00Z, the date of AWS's published S3 SigV4 examples.
    fn may_24_2013() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_369_353_600)
    }

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(amz_dates(may_24_2013()).0, "20130524T000000Z");
        assert_eq!(
            amz_dates(UNIX_EPOCH + Duration::from_secs(951_782_400)).1,
            "20000229"
        );
    }

    #[test]
    fn get_object_matches_the_aws_documentation_example() {
        let extra = vec![("range".to_string(), "bytes=0-9".to_string())];
        let h = example().sign(
            "GET",
            "examplebucket.s3.amazonaws.com",
            "/test.txt",
            &[],
            &extra,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            may_24_2013(),
        );
        let auth = &h.iter().find(|(k, _)| k == "authorization").unwrap().1;
        assert!(
            auth.ends_with(
                "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
            ),
            "{auth}"
        );
    }

    #[test]
    fn presigned_url_matches_the_aws_documentation_example() {
        let q = example().presign(
            "GET",
            "examplebucket.s3.amazonaws.com",
            "/test.txt",
            86_400,
            may_24_2013(),
        );
        assert!(
            q.ends_with(
                "X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
            ),
            "{q}"
        );
    }
}
