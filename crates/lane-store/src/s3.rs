//! The S3-compatible store: SigV4-signed requests over a small sync HTTP
//! client. An upload is one `PUT` (S3 makes an object visible only once its
//! whole body has arrived, so a broken upload leaves nothing behind); the
//! content's sha256 travels as `x-amz-meta-sha256` so a re-stage compares
//! with one `HEAD`.

use std::time::{Duration, SystemTime};

use crate::sigv4::{uri_encode, Signer, UNSIGNED_PAYLOAD};
use crate::{sha256_hex, ArtifactStore, Content, FetchLocation, PutOutcome, StoreError, StoreKey};

/// An access key pair, and a session token for temporary credentials (the
/// secrets print `***`).
#[derive(Clone, Debug)]
pub struct S3Credentials {
    /// `AWS_ACCESS_KEY_ID`.
    pub access_key_id: String,
    /// `AWS_SECRET_ACCESS_KEY`: never shown.
    pub secret_access_key: lane_core::Secret,
    /// `AWS_SESSION_TOKEN`: never shown.
    pub session_token: Option<lane_core::Secret>,
}

/// Where an S3 store lives and how to sign for it.
#[derive(Debug, Clone)]
pub struct S3Config {
    /// The bucket.
    pub bucket: String,
    /// A key prefix inside the bucket (no leading or trailing `/`), may be empty.
    pub prefix: String,
    /// The region signed for (`us-east-1` when unset).
    pub region: String,
    /// An S3-compatible endpoint such as `http://127.0.0.1:9000` (path-style
    /// addressing); `None` means AWS itself (virtual-hosted style).
    pub endpoint: Option<String>,
    /// The credentials.
    pub credentials: S3Credentials,
    /// How long one request may take in all.
    pub timeout: Duration,
}

impl S3Config {
    /// A config for `bucket`/`prefix` from the environment:
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`
    /// (optional), `AWS_REGION` or `AWS_DEFAULT_REGION` (default
    /// `us-east-1`), and the endpoint from `LANE_S3_ENDPOINT` or
    /// `AWS_ENDPOINT_URL` (optional).
    pub fn from_env(bucket: &str, prefix: &str) -> Result<S3Config, StoreError> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let access_key_id = var("AWS_ACCESS_KEY_ID").ok_or(StoreError::MissingSetting {
            missing: "AWS_ACCESS_KEY_ID",
        })?;
        let secret_access_key = var("AWS_SECRET_ACCESS_KEY").ok_or(StoreError::MissingSetting {
            missing: "AWS_SECRET_ACCESS_KEY",
        })?;
        Ok(S3Config {
            bucket: bucket.to_owned(),
            prefix: prefix.trim_matches('/').to_owned(),
            region: var("AWS_REGION")
                .or_else(|| var("AWS_DEFAULT_REGION"))
                .unwrap_or_else(|| "us-east-1".into()),
            endpoint: var("LANE_S3_ENDPOINT").or_else(|| var("AWS_ENDPOINT_URL")),
            credentials: S3Credentials {
                access_key_id,
                secret_access_key: lane_core::Secret::new(secret_access_key),
                session_token: var("AWS_SESSION_TOKEN").map(lane_core::Secret::new),
            },
            timeout: Duration::from_secs(300),
        })
    }
}

/// A store in an S3-compatible bucket.
#[derive(Debug)]
pub struct S3Store {
    config: S3Config,
    /// `http(s)://host[:port]`.
    origin: String,
    /// The `Host` header value.
    host: String,
    /// The path before the object key: `/bucket` (path style) or empty.
    bucket_path: String,
    agent: ureq::Agent,
}

impl S3Store {
    /// A store for `config` (no request is made).
    pub fn new(config: S3Config) -> Result<S3Store, StoreError> {
        let bad = |why: &str| StoreError::BadLocation {
            location: format!("s3://{}/{}", config.bucket, config.prefix),
            why: why.to_owned(),
        };
        if config.bucket.is_empty() || config.bucket.contains(['/', ' ']) {
            return Err(bad("the bucket name is empty or invalid"));
        }
        let (origin, bucket_path) = match &config.endpoint {
            Some(e) => (
                e.trim_end_matches('/').to_owned(),
                format!("/{}", config.bucket),
            ),
            None => (
                format!(
                    "https://{}.s3.{}.amazonaws.com",
                    config.bucket, config.region
                ),
                String::new(),
            ),
        };
        let host = origin
            .split_once("://")
            .map(|(_, rest)| rest.split('/').next().unwrap_or(rest).to_owned())
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("the endpoint must look like http(s)://host[:port]"))?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(config.timeout))
            .build()
            .into();
        Ok(S3Store {
            config,
            origin,
            host,
            bucket_path,
            agent,
        })
    }

    fn signer(&self) -> Signer<'_> {
        Signer {
            access_key: &self.config.credentials.access_key_id,
            secret_key: self.config.credentials.secret_access_key.expose(),
            session_token: self
                .config
                .credentials
                .session_token
                .as_ref()
                .map(lane_core::Secret::expose),
            region: &self.config.region,
        }
    }

    fn object_path(&self, key: &StoreKey) -> String {
        if self.config.prefix.is_empty() {
            format!("{}/{}", self.bucket_path, key)
        } else {
            format!("{}/{}/{}", self.bucket_path, self.config.prefix, key)
        }
    }

    fn url(&self, path: &str, query: &str) -> String {
        let mut u = format!("{}{}", self.origin, uri_encode(path, true));
        if !query.is_empty() {
            u.push('?');
            u.push_str(query);
        }
        u
    }

    fn signed(
        &self,
        method: &'static str,
        path: &str,
        query: &[(&str, &str)],
        extra: &[(String, String)],
        payload_sha256: &str,
    ) -> (String, Vec<(String, String)>) {
        let path = if path.is_empty() { "/" } else { path };
        let headers = self.signer().sign(
            method,
            &self.host,
            path,
            query,
            extra,
            payload_sha256,
            SystemTime::now(),
        );
        (
            self.url(path, &crate::sigv4::canonical_query(query)),
            headers,
        )
    }

    fn transport(operation: &'static str, key: &str) -> impl FnOnce(ureq::Error) -> StoreError {
        let key = key.to_owned();
        move |e| StoreError::Transport {
            operation,
            key,
            source: Box::new(e),
        }
    }

    fn status_error(
        operation: &'static str,
        key: &str,
        resp: &mut http::Response<ureq::Body>,
    ) -> StoreError {
        let body = resp.body_mut().read_to_string().unwrap_or_default();
        StoreError::Status {
            operation,
            key: key.to_owned(),
            status: resp.status().as_u16(),
            body: body.chars().take(400).collect(),
        }
    }

    /// `HEAD`: `None` when absent, else the stored `x-amz-meta-sha256` (if any).
    fn head(&self, key: &StoreKey) -> Result<Option<Option<String>>, StoreError> {
        let empty = sha256_hex(b"");
        let (url, headers) = self.signed("HEAD", &self.object_path(key), &[], &[], &empty);
        let mut req = self.agent.head(&url);
        for (k, v) in &headers {
            req = req.header(k, v);
        }
        let mut resp = req.call().map_err(Self::transport("HEAD", key.as_str()))?;
        match resp.status().as_u16() {
            200 => Ok(Some(
                resp.headers()
                    .get("x-amz-meta-sha256")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned),
            )),
            404 => Ok(None),
            _ => Err(Self::status_error("HEAD", key.as_str(), &mut resp)),
        }
    }

    fn compare(
        &self,
        key: &StoreKey,
        stored: Option<String>,
        sha256: String,
        size: u64,
    ) -> Result<PutOutcome, StoreError> {
        let stored = match stored {
            Some(s) => s,
            None => sha256_hex(&self.get(key)?),
        };
        if stored == sha256 {
            tracing::debug!(%key, "identical content already stored");
            Ok(PutOutcome::AlreadyThere { sha256, size })
        } else {
            Err(StoreError::Conflict {
                key: key.to_string(),
                existing: stored,
                new: sha256,
            })
        }
    }

    /// Creates the bucket when it does not exist (for local S3-compatible
    /// servers and first-time setup).
    pub fn ensure_bucket(&self) -> Result<(), StoreError> {
        let empty = sha256_hex(b"");
        let path = if self.bucket_path.is_empty() {
            "/"
        } else {
            &self.bucket_path
        };
        let (url, headers) = self.signed("PUT", path, &[], &[], &empty);
        let mut req = self.agent.put(&url);
        for (k, v) in &headers {
            req = req.header(k, v);
        }
        let mut resp = req
            .send_empty()
            .map_err(Self::transport("PUT", &self.config.bucket))?;
        match resp.status().as_u16() {
            200 | 409 => Ok(()),
            _ => Err(Self::status_error("PUT", &self.config.bucket, &mut resp)),
        }
    }
}

impl ArtifactStore for S3Store {
    fn put_atomic(&self, key: &StoreKey, content: Content<'_>) -> Result<PutOutcome, StoreError> {
        let bytes = content.load()?;
        let sha256 = sha256_hex(&bytes);
        let size = bytes.len() as u64;
        if let Some(stored) = self.head(key)? {
            return self.compare(key, stored, sha256, size);
        }
        let extra = vec![
            (
                "content-type".to_string(),
                "application/octet-stream".to_string(),
            ),
            ("if-none-match".to_string(), "*".to_string()),
            ("x-amz-meta-sha256".to_string(), sha256.clone()),
        ];
        let (url, headers) = self.signed("PUT", &self.object_path(key), &[], &extra, &sha256);
        let mut req = self.agent.put(&url);
        for (k, v) in &headers {
            req = req.header(k, v);
        }
        let mut resp = req
            .send(&bytes[..])
            .map_err(Self::transport("PUT", key.as_str()))?;
        match resp.status().as_u16() {
            200 => {
                tracing::info!(%key, %sha256, size, "stored in S3");
                Ok(PutOutcome::Written { sha256, size })
            }
            // Another writer got there between our HEAD and our PUT.
            412 | 409 => {
                let stored = self.head(key)?.flatten();
                self.compare(key, stored, sha256, size)
            }
            _ => Err(Self::status_error("PUT", key.as_str(), &mut resp)),
        }
    }

    fn get(&self, key: &StoreKey) -> Result<Vec<u8>, StoreError> {
        let (url, headers) = self.signed("GET", &self.object_path(key), &[], &[], UNSIGNED_PAYLOAD);
        let mut req = self.agent.get(&url);
        for (k, v) in &headers {
            req = req.header(k, v);
        }
        let mut resp = req.call().map_err(Self::transport("GET", key.as_str()))?;
        match resp.status().as_u16() {
            200 => resp
                .body_mut()
                .with_config()
                .limit(u64::MAX)
                .read_to_vec()
                .map_err(Self::transport("GET", key.as_str())),
            404 => Err(StoreError::NotFound {
                key: key.to_string(),
            }),
            _ => Err(Self::status_error("GET", key.as_str(), &mut resp)),
        }
    }

    fn exists(&self, key: &StoreKey) -> Result<bool, StoreError> {
        Ok(self.head(key)?.is_some())
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let strip = if self.config.prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.config.prefix)
        };
        let full_prefix = format!("{strip}{prefix}");
        let mut keys = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut query = vec![("list-type", "2"), ("prefix", full_prefix.as_str())];
            if let Some(t) = &token {
                query.push(("continuation-token", t.as_str()));
            }
            let empty = sha256_hex(b"");
            let (url, headers) = self.signed("GET", &self.bucket_path, &query, &[], &empty);
            let mut req = self.agent.get(&url);
            for (k, v) in &headers {
                req = req.header(k, v);
            }
            let mut resp = req.call().map_err(Self::transport("LIST", prefix))?;
            if resp.status().as_u16() != 200 {
                return Err(Self::status_error("LIST", prefix, &mut resp));
            }
            let xml = resp
                .body_mut()
                .with_config()
                .limit(64 << 20)
                .read_to_string()
                .map_err(Self::transport("LIST", prefix))?;
            for k in xml_values(&xml, "Key") {
                if let Some(rest) = k.strip_prefix(&strip) {
                    keys.push(rest.to_owned());
                }
            }
            let truncated =
                xml_values(&xml, "IsTruncated").first().map(String::as_str) == Some("true");
            token = xml_values(&xml, "NextContinuationToken").into_iter().next();
            if !truncated || token.is_none() {
                break;
            }
        }
        keys.sort();
        Ok(keys)
    }

    fn fetch_location(&self, key: &StoreKey, ttl: Duration) -> Result<FetchLocation, StoreError> {
        let path = self.object_path(key);
        let query =
            self.signer()
                .presign("GET", &self.host, &path, ttl.as_secs(), SystemTime::now());
        Ok(FetchLocation::Url(self.url(&path, &query)))
    }

    fn location(&self) -> String {
        if self.config.prefix.is_empty() {
            format!("s3://{}", self.config.bucket)
        } else {
            format!("s3://{}/{}", self.config.bucket, self.config.prefix)
        }
    }
}

/// The unescaped text of every `<tag>...</tag>` in `xml` (S3's list answers
/// are flat enough for this).
fn xml_values(xml: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        rest = &rest[i + open.len()..];
        let Some(j) = rest.find(&close) else { break };
        out.push(
            rest[..j]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&"),
        );
        rest = &rest[j + close.len()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_answers_are_read_and_unescaped() {
        let xml = "<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>a&amp;b</Key></Contents><Contents><Key>c</Key></Contents><NextContinuationToken>t1</NextContinuationToken></ListBucketResult>";
        assert_eq!(xml_values(xml, "Key"), ["a&b", "c"]);
        assert_eq!(xml_values(xml, "NextContinuationToken"), ["t1"]);
    }
}
