//! The S3-compatible store, on the `object_store` crate's S3 client: the
//! AWS credential chain, SigV4, bounded retries, conditional writes,
//! multipart uploads, pagination and presigning are its. What is lane's:
//!
//! - The trait is sync. The store blocks on the client's futures on the
//!   process's one runtime (`lane_runtime::block_on`: from inside an
//!   async caller, such as lane-app's kube backend, on a scoped thread).
//! - Write-once. A put is `If-None-Match: *` (`PutMode::Create`); when the
//!   key is taken the stored sha256 (`x-amz-meta-sha256`, or the stored
//!   bytes hashed when it is missing) decides between `AlreadyThere` and
//!   `Conflict`. moto honours `If-None-Match` on `PUT` and on
//!   `CompleteMultipartUpload`, as S3 does.
//! - Up to [`PART_SIZE`] the content goes in one `PUT`; above, a file is
//!   streamed from disk in parts of a multipart upload, never read whole.
//!   object_store completes multipart uploads unconditionally, so the store
//!   completes them through a second client of the same settings whose
//!   every request carries `If-None-Match: *` (it is used for nothing
//!   else). S3 shows an object only once its upload is complete; an upload
//!   that fails is aborted, so nothing half-written is ever visible (a
//!   process killed mid-upload leaves an incomplete upload, invisible, that
//!   a bucket lifecycle rule removes). This is object_store's own multipart
//!   API (`MultipartStore`: create, put each part, complete), not its
//!   `put_multipart` writer, whose completion cannot be made conditional.
//! - A read can stream ([`ArtifactStore::get_to`]): the body goes to the
//!   caller's writer chunk by chunk, so a cell of gigabytes comes back with
//!   memory flat in its size.

use std::future::Future;
use std::io::{Read, Write};
use std::time::Duration;

use futures::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey, S3ConditionalPut};
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path as ObjectPath;
use object_store::signer::{Method, Signer};
use object_store::{
    Attribute, Attributes, BackoffConfig, Certificate, ClientOptions, GetOptions, ObjectStore,
    ObjectStoreExt, PutMode, PutMultipartOptions, PutOptions, PutPayload, RetryConfig,
};
use sha2::Digest;

use crate::error::{scrub, S3Error};
use crate::{
    hex, sha256_hex, ArtifactStore, Content, FetchLocation, PutOutcome, StoreError, StoreKey,
};

/// Content up to this size goes in one `PUT`; larger content in parts of
/// this size (or more, for a file that would need over 10,000 parts).
pub const PART_SIZE: usize = 8 << 20;

/// The user metadata that keeps an object's sha256 (`x-amz-meta-sha256`).
const SHA256_META: &str = "sha256";

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

/// Where an S3 store lives and how to reach it. Start from
/// [`S3Config::new`] (or [`S3Config::from_env`]) and set what differs.
#[derive(Debug, Clone)]
pub struct S3Config {
    /// The bucket.
    pub bucket: String,
    /// A key prefix inside the bucket (no leading or trailing `/`), may be empty.
    pub prefix: String,
    /// The region signed for (`us-east-1` when unset).
    pub region: String,
    /// An S3-compatible endpoint such as `http://127.0.0.1:9000` (path-style
    /// addressing; plain HTTP is allowed only for an `http://` endpoint);
    /// `None` means AWS itself (virtual-hosted style, HTTPS).
    pub endpoint: Option<String>,
    /// Explicit credentials. `None`: the AWS chain from the environment,
    /// as the AWS SDKs read it: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`
    /// (and `AWS_SESSION_TOKEN`), a web identity (`AWS_WEB_IDENTITY_TOKEN_FILE`
    /// with `AWS_ROLE_ARN`: EKS's IRSA), container credentials (ECS, EKS pod
    /// identity), else the instance metadata service.
    pub credentials: Option<S3Credentials>,
    /// How long one request may take (each retry has its own).
    pub timeout: Duration,
    /// How often a request that failed in passing (a broken connection, a
    /// timeout, a 5xx or 429) is tried again, with exponential backoff and
    /// no retry started more than two minutes after the first try.
    pub max_retries: usize,
}

impl S3Config {
    /// A config for `bucket`/`prefix` on AWS in `us-east-1`, credentials
    /// from the environment's chain, 300 s a request, 3 retries.
    pub fn new(bucket: &str, prefix: &str) -> S3Config {
        S3Config {
            bucket: bucket.to_owned(),
            prefix: prefix.trim_matches('/').to_owned(),
            region: "us-east-1".into(),
            endpoint: None,
            credentials: None,
            timeout: Duration::from_secs(300),
            max_retries: 3,
        }
    }

    /// A config for `bucket`/`prefix` from the environment: the region from
    /// `AWS_REGION` or `AWS_DEFAULT_REGION` (default `us-east-1`), the
    /// endpoint from `LANE_S3_ENDPOINT` or `AWS_ENDPOINT_URL` (optional),
    /// and the credentials left to the AWS chain (see
    /// [`S3Config::credentials`]), read when the store is made. Half a key
    /// pair is refused rather than silently passed over.
    pub fn from_env(bucket: &str, prefix: &str) -> Result<S3Config, StoreError> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        match (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
            (Some(_), None) => Err(StoreError::MissingSetting {
                missing: "AWS_SECRET_ACCESS_KEY",
            }),
            (None, Some(_)) => Err(StoreError::MissingSetting {
                missing: "AWS_ACCESS_KEY_ID",
            }),
            _ => Ok(S3Config {
                region: var("AWS_REGION")
                    .or_else(|| var("AWS_DEFAULT_REGION"))
                    .unwrap_or_else(|| "us-east-1".into()),
                endpoint: var("LANE_S3_ENDPOINT").or_else(|| var("AWS_ENDPOINT_URL")),
                ..S3Config::new(bucket, prefix)
            }),
        }
    }

    fn location(&self) -> String {
        if self.prefix.is_empty() {
            format!("s3://{}", self.bucket)
        } else {
            format!("s3://{}/{}", self.bucket, self.prefix)
        }
    }
}

/// A store in an S3-compatible bucket.
pub struct S3Store {
    config: S3Config,
    s3: AmazonS3,
    /// The same client, every request `If-None-Match: *`: only for
    /// completing multipart uploads (see the module docs).
    create_only: AmazonS3,
    /// The secret values known to the store, scrubbed from error text.
    secrets: Vec<lane_core::Secret>,
}

impl std::fmt::Debug for S3Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Store")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The environment keys that [`S3Config`] decides itself: the chain may
/// not override the bucket, the region or the endpoint it names.
fn config_owns(key: &AmazonS3ConfigKey) -> bool {
    matches!(
        key,
        AmazonS3ConfigKey::Bucket
            | AmazonS3ConfigKey::Region
            | AmazonS3ConfigKey::DefaultRegion
            | AmazonS3ConfigKey::Endpoint
            | AmazonS3ConfigKey::S3Endpoint
            | AmazonS3ConfigKey::VirtualHostedStyleRequest
    )
}

impl S3Store {
    /// A store for `config`. No request is made; with no explicit
    /// credentials the environment's chain is read now (and its tokens
    /// fetched on the first request).
    pub fn new(config: S3Config) -> Result<S3Store, StoreError> {
        let location = lane_core::secret::redact_userinfo(&config.location());
        if config.bucket.is_empty()
            || !config
                .bucket
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
        {
            return Err(StoreError::BadLocation {
                location,
                why: "the bucket name is empty or invalid".into(),
            });
        }
        // reqwest's TLS comes without a crypto provider: ring, like the
        // rest of lane (a no-op when one is installed already).
        let _ = rustls::crypto::ring::default_provider().install_default();

        // The client is never given the endpoint's `user:password@` (its
        // spans and connection pool would log it): it goes as a header.
        let (endpoint, basic) = match config.endpoint.as_deref() {
            Some(e) => {
                let (url, basic) = lane_core::secret::split_userinfo(e);
                (Some(url), basic)
            }
            None => (None, None),
        };
        let mut secrets: Vec<lane_core::Secret> = match &config.credentials {
            Some(c) => std::iter::once(c.secret_access_key.clone())
                .chain(c.session_token.clone())
                .collect(),
            None => ["AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]
                .iter()
                .filter_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
                .map(lane_core::Secret::new)
                .collect(),
        };
        secrets.extend(basic.clone());
        let shown: Vec<&str> = secrets.iter().map(lane_core::Secret::expose).collect();
        let setup = |e: object_store::Error| StoreError::Setup {
            location: location.clone(),
            source: Box::new(S3Error::new(e, &shown)),
        };

        let http = config
            .endpoint
            .as_deref()
            .is_some_and(|e| e.starts_with("http://"));
        // The binary carries Mozilla's roots (as ureq does), on top of the
        // system's: the runtime image has no CA bundle.
        let mut defaults = object_store::signer::HeaderMap::new();
        if let Some(b) = &basic {
            if let Ok(mut v) = object_store::signer::HeaderValue::from_str(b.expose()) {
                v.set_sensitive(true);
                defaults.insert(
                    object_store::signer::HeaderName::from_static("authorization"),
                    v,
                );
            }
        }
        let mut client = ClientOptions::new()
            .with_default_headers(defaults.clone())
            .with_timeout(config.timeout)
            .with_connect_timeout(config.timeout.min(Duration::from_secs(10)));
        for der in webpki_root_certs::TLS_SERVER_ROOT_CERTS {
            if let Ok(cert) = Certificate::from_der(der) {
                client = client.with_root_certificate(cert);
            }
        }
        let retry = RetryConfig {
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(200),
                max_backoff: Duration::from_secs(5),
                base: 2.0,
            },
            max_retries: config.max_retries,
            retry_timeout: Duration::from_secs(120),
        };
        let builder = |client: ClientOptions| {
            let mut b = AmazonS3Builder::new().with_client_options(client);
            match &config.credentials {
                Some(c) => {
                    b = b
                        .with_access_key_id(&c.access_key_id)
                        .with_secret_access_key(c.secret_access_key.expose());
                    if let Some(t) = &c.session_token {
                        b = b.with_token(t.expose());
                    }
                }
                // `AmazonS3Builder::from_env`'s reading, over lane's client
                // options rather than instead of them.
                None => {
                    for (k, v) in std::env::vars_os() {
                        let (Some(k), Some(v)) = (k.to_str(), v.to_str()) else {
                            continue;
                        };
                        if !k.starts_with("AWS_") {
                            continue;
                        }
                        if let Ok(key) = k.to_ascii_lowercase().parse::<AmazonS3ConfigKey>() {
                            if !config_owns(&key) {
                                b = b.with_config(key, v);
                            }
                        }
                    }
                }
            }
            b = b
                .with_bucket_name(&config.bucket)
                .with_region(&config.region)
                .with_retry(retry.clone())
                .with_conditional_put(S3ConditionalPut::ETagMatch)
                .with_allow_http(http);
            if let Some(e) = &endpoint {
                b = b
                    .with_endpoint(e.trim_end_matches('/'))
                    .with_virtual_hosted_style_request(false);
            }
            b
        };
        let s3 = builder(client.clone()).build().map_err(setup)?;
        let mut create = defaults;
        create.insert(
            object_store::signer::HeaderName::from_static("if-none-match"),
            object_store::signer::HeaderValue::from_static("*"),
        );
        let create_only = builder(client.with_default_headers(create))
            .with_credentials(std::sync::Arc::clone(s3.credentials()))
            .build()
            .map_err(setup)?;
        // The client's threads are the process's runtime's, started now
        // so that a failure to start them is this store's error.
        lane_runtime::get().map_err(|source| StoreError::Io {
            what: "starting the S3 client's threads".into(),
            source,
        })?;
        Ok(S3Store {
            config,
            s3,
            create_only,
            secrets,
        })
    }

    /// Runs `fut` to completion on the process's runtime (started when the
    /// store was opened).
    fn block_on<F>(&self, fut: F) -> F::Output
    where
        F: Future + Send,
        F::Output: Send,
    {
        lane_runtime::block_on(fut).expect("the runtime started when the store opened")
    }

    /// `e`, scrubbed of this store's secrets.
    fn scrubbed(&self, e: object_store::Error) -> Box<S3Error> {
        let secrets: Vec<&str> = self.secrets.iter().map(lane_core::Secret::expose).collect();
        Box::new(S3Error::new(e, &secrets))
    }

    fn fail(
        &self,
        operation: &'static str,
        key: &str,
    ) -> impl FnOnce(object_store::Error) -> StoreError + '_ {
        let key = key.to_owned();
        move |e| StoreError::Transport {
            operation,
            key,
            source: self.scrubbed(e),
        }
    }

    fn path(&self, rest: &str) -> Result<ObjectPath, StoreError> {
        let full = match (self.config.prefix.as_str(), rest) {
            ("", r) => r.to_owned(),
            (p, "") => p.to_owned(),
            (p, r) => format!("{p}/{r}"),
        };
        ObjectPath::parse(&full).map_err(|e| StoreError::BadKey {
            key: full.clone(),
            why: e.to_string(),
        })
    }

    /// `None` when `key` is absent, else its stored sha256 when it has one.
    fn stored_sha256(
        &self,
        key: &StoreKey,
        path: &ObjectPath,
    ) -> Result<Option<Option<String>>, StoreError> {
        let head = GetOptions {
            head: true,
            ..Default::default()
        };
        match self.block_on(self.s3.get_opts(path, head)) {
            Ok(r) => Ok(Some(
                r.attributes
                    .get(&Attribute::Metadata(SHA256_META.into()))
                    .map(|v| v.to_ascii_lowercase())
                    .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit())),
            )),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.fail("HEAD", key.as_str())(e)),
        }
    }

    /// The key is taken: the same content is a no-op, other content a conflict.
    fn compare(
        &self,
        key: &StoreKey,
        path: &ObjectPath,
        sha256: String,
        size: u64,
    ) -> Result<PutOutcome, StoreError> {
        let stored = match self.stored_sha256(key, path)? {
            Some(Some(s)) => s,
            // No sha256 kept (written by something else): hash the bytes.
            Some(None) => self
                .block_on(async {
                    let mut h = sha2::Sha256::new();
                    let mut body = self.s3.get(path).await?.into_stream();
                    while let Some(chunk) = body.try_next().await? {
                        h.update(&chunk);
                    }
                    Ok::<_, object_store::Error>(hex(&h.finalize()))
                })
                .map_err(self.fail("GET", key.as_str()))?,
            None => {
                return Err(StoreError::NotFound {
                    key: key.to_string(),
                })
            }
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

    /// One conditional `PUT`.
    fn put_whole(
        &self,
        key: &StoreKey,
        path: &ObjectPath,
        bytes: Vec<u8>,
    ) -> Result<PutOutcome, StoreError> {
        let sha256 = sha256_hex(&bytes);
        let size = bytes.len() as u64;
        let opts = PutOptions {
            mode: PutMode::Create,
            attributes: attributes(&sha256),
            ..Default::default()
        };
        match self.block_on(self.s3.put_opts(path, PutPayload::from(bytes), opts)) {
            Ok(_) => {
                tracing::info!(%key, %sha256, size, "stored in S3");
                Ok(PutOutcome::Written { sha256, size })
            }
            Err(
                object_store::Error::AlreadyExists { .. }
                | object_store::Error::Precondition { .. },
            ) => self.compare(key, path, sha256, size),
            Err(e) => Err(self.fail("PUT", key.as_str())(e)),
        }
    }

    /// A multipart upload of `size` bytes read from `reader`, whose sha256
    /// is `sha256` (checked again as the parts are read).
    fn put_parts(
        &self,
        key: &StoreKey,
        path: &ObjectPath,
        what: &str,
        reader: &mut dyn Read,
        sha256: String,
        size: u64,
    ) -> Result<PutOutcome, StoreError> {
        // A re-stage of a large file: look before uploading it all again.
        if self.stored_sha256(key, path)?.is_some() {
            return self.compare(key, path, sha256, size);
        }
        let part_size = PART_SIZE.max(size.div_ceil(10_000) as usize);
        let opts = PutMultipartOptions {
            attributes: attributes(&sha256),
            ..Default::default()
        };
        let id = self
            .block_on(self.s3.create_multipart_opts(path, opts))
            .map_err(self.fail("PUT", key.as_str()))?;
        enum Failed {
            S3(object_store::Error),
            Io(std::io::Error),
        }
        let uploaded = (|| -> Result<(), Failed> {
            let mut parts: Vec<PartId> = Vec::new();
            let mut hasher = sha2::Sha256::new();
            let mut read = 0u64;
            loop {
                let chunk = read_chunk(reader, part_size).map_err(Failed::Io)?;
                if chunk.is_empty() {
                    break;
                }
                hasher.update(&chunk);
                read += chunk.len() as u64;
                let idx = parts.len();
                let part = self
                    .block_on(self.s3.put_part(path, &id, idx, PutPayload::from(chunk)))
                    .map_err(Failed::S3)?;
                parts.push(part);
            }
            if read != size || hex(&hasher.finalize()) != sha256 {
                return Err(Failed::Io(std::io::Error::other(
                    "its size or sha256 changed while it was uploaded",
                )));
            }
            self.block_on(self.create_only.complete_multipart(path, &id, parts))
                .map(|_| ())
                .map_err(Failed::S3)
        })();
        let failed = match uploaded {
            Ok(()) => {
                tracing::info!(%key, %sha256, size, "stored in S3 (multipart)");
                return Ok(PutOutcome::Written { sha256, size });
            }
            Err(f) => f,
        };
        // Nothing of an incomplete upload is visible; aborting frees its parts.
        if let Err(e) = self.block_on(self.s3.abort_multipart(path, &id)) {
            let e = self.scrubbed(e);
            tracing::warn!(%key, error = %e, "could not abort the multipart upload (invisible; a lifecycle rule removes it)");
        }
        match failed {
            Failed::S3(
                object_store::Error::AlreadyExists { .. }
                | object_store::Error::Precondition { .. },
            ) => self.compare(key, path, sha256, size),
            Failed::S3(e) => Err(self.fail("PUT", key.as_str())(e)),
            Failed::Io(source) => Err(StoreError::Io {
                what: format!("reading {what}"),
                source,
            }),
        }
    }

    /// Creates the bucket when it does not exist, for a local S3-compatible
    /// server in tests and for first-time setup. object_store has no bucket
    /// operations, so this is S3's `CreateBucket`, a `PUT` on the bucket
    /// itself, authorised the way a pod's reads are: a presigned URL (good
    /// for 5 minutes), sent with the small sync client (with the location
    /// constraint outside `us-east-1`). An answer that the bucket exists
    /// (409) counts as done. The credentials need `s3:CreateBucket`.
    pub fn ensure_bucket(&self) -> Result<(), StoreError> {
        let bucket = self.config.bucket.clone();
        let url = self
            .block_on(self.s3.signed_url(
                Method::PUT,
                &ObjectPath::default(),
                Duration::from_secs(300),
            ))
            .map_err(self.fail("SIGN", &bucket))?
            .to_string();
        let body = if self.config.region == "us-east-1" {
            String::new()
        } else {
            format!(
                "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\
                 <LocationConstraint>{}</LocationConstraint></CreateBucketConfiguration>",
                self.config.region
            )
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(self.config.timeout))
            .build()
            .into();
        let mut resp = agent
            .put(&url)
            .send(body.as_bytes())
            .map_err(|e| StoreError::Request {
                operation: "PUT",
                what: bucket.clone(),
                source: Box::new(e),
            })?;
        match resp.status().as_u16() {
            200..=299 | 409 => Ok(()),
            status => {
                let text = resp.body_mut().read_to_string().unwrap_or_default();
                let secrets: Vec<&str> =
                    self.secrets.iter().map(lane_core::Secret::expose).collect();
                Err(StoreError::Status {
                    operation: "PUT",
                    key: bucket,
                    status,
                    body: scrub(&text.chars().take(400).collect::<String>(), &secrets),
                })
            }
        }
    }
}

/// The attributes every object is written with.
fn attributes(sha256: &str) -> Attributes {
    let mut a = Attributes::new();
    a.insert(Attribute::ContentType, "application/octet-stream".into());
    a.insert(
        Attribute::Metadata(SHA256_META.into()),
        sha256.to_owned().into(),
    );
    a
}

/// Up to `len` bytes from `reader`: fewer only at its end.
fn read_chunk(reader: &mut dyn Read, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(len);
    reader.take(len as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

impl ArtifactStore for S3Store {
    fn put_atomic(&self, key: &StoreKey, content: Content<'_>) -> Result<PutOutcome, StoreError> {
        let path = self.path(key.as_str())?;
        match content {
            Content::Bytes(b) if b.len() <= PART_SIZE => self.put_whole(key, &path, b.to_vec()),
            Content::Bytes(mut b) => {
                let sha256 = sha256_hex(b);
                let size = b.len() as u64;
                self.put_parts(key, &path, key.as_str(), &mut b, sha256, size)
            }
            Content::File(p) => {
                let shown = p.display().to_string();
                let io = |source| StoreError::Io {
                    what: format!("reading {shown}"),
                    source,
                };
                let open = || std::fs::File::open(p).map_err(io);
                let size = open()?.metadata().map_err(io)?.len();
                if size <= PART_SIZE as u64 {
                    let mut bytes = Vec::new();
                    open()?.read_to_end(&mut bytes).map_err(io)?;
                    return self.put_whole(key, &path, bytes);
                }
                let mut hasher = sha2::Sha256::new();
                std::io::copy(&mut open()?, &mut hasher).map_err(io)?;
                let sha256 = hex(&hasher.finalize());
                self.put_parts(key, &path, &shown, &mut open()?, sha256, size)
            }
        }
    }

    fn get(&self, key: &StoreKey) -> Result<Vec<u8>, StoreError> {
        let path = self.path(key.as_str())?;
        match self.block_on(async { self.s3.get(&path).await?.bytes().await }) {
            Ok(b) => Ok(b.to_vec()),
            Err(object_store::Error::NotFound { .. }) => Err(StoreError::NotFound {
                key: key.to_string(),
            }),
            Err(e) => Err(self.fail("GET", key.as_str())(e)),
        }
    }

    fn get_to(
        &self,
        key: &StoreKey,
        sink: &mut (dyn Write + Send),
        max_bytes: u64,
    ) -> Result<u64, StoreError> {
        let path = self.path(key.as_str())?;
        enum Failed {
            S3(object_store::Error),
            Io(std::io::Error),
            TooLarge,
        }
        // The body is written out chunk by chunk as it arrives: memory is
        // one chunk, whatever the object's size.
        let streamed = self.block_on(async {
            let got = self.s3.get(&path).await.map_err(Failed::S3)?;
            if got.meta.size > max_bytes {
                return Err(Failed::TooLarge);
            }
            let mut body = got.into_stream();
            let mut n = 0u64;
            while let Some(chunk) = body.try_next().await.map_err(Failed::S3)? {
                n = n.saturating_add(chunk.len() as u64);
                if n > max_bytes {
                    return Err(Failed::TooLarge);
                }
                sink.write_all(&chunk).map_err(Failed::Io)?;
            }
            Ok(n)
        });
        match streamed {
            Ok(n) => Ok(n),
            Err(Failed::S3(object_store::Error::NotFound { .. })) => Err(StoreError::NotFound {
                key: key.to_string(),
            }),
            Err(Failed::S3(e)) => Err(self.fail("GET", key.as_str())(e)),
            Err(Failed::Io(source)) => Err(StoreError::Io {
                what: format!("writing what {key} holds"),
                source,
            }),
            Err(Failed::TooLarge) => Err(StoreError::TooLarge {
                what: key.to_string(),
                limit: max_bytes,
            }),
        }
    }

    fn exists(&self, key: &StoreKey) -> Result<bool, StoreError> {
        let path = self.path(key.as_str())?;
        Ok(self.stored_sha256(key, &path)?.is_some())
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        // object_store lists whole path segments: list the folder the
        // prefix is in, keep what starts with the prefix.
        let folder = prefix.rfind('/').map_or("", |i| &prefix[..i]);
        let under = self.path(folder)?;
        let under = (!under.as_ref().is_empty()).then_some(under);
        let strip = if self.config.prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.config.prefix)
        };
        let found = self
            .block_on(self.s3.list(under.as_ref()).try_collect::<Vec<_>>())
            .map_err(self.fail("LIST", prefix))?;
        let mut keys: Vec<String> = found
            .into_iter()
            .filter_map(|m| {
                let k = m.location.as_ref().strip_prefix(&strip)?.to_owned();
                k.starts_with(prefix).then_some(k)
            })
            .collect();
        keys.sort();
        Ok(keys)
    }

    fn remove(&self, key: &StoreKey) -> Result<bool, StoreError> {
        let path = self.path(key.as_str())?;
        // S3's DELETE answers 204 whether or not the key held an object:
        // look first, so the answer says whether one went away.
        if self.stored_sha256(key, &path)?.is_none() {
            return Ok(false);
        }
        self.block_on(self.s3.delete(&path))
            .map_err(self.fail("DELETE", key.as_str()))?;
        tracing::info!(%key, "removed");
        Ok(true)
    }

    fn fetch_location(&self, key: &StoreKey, ttl: Duration) -> Result<FetchLocation, StoreError> {
        let path = self.path(key.as_str())?;
        let url = self
            .block_on(self.s3.signed_url(Method::GET, &path, ttl))
            .map_err(self.fail("SIGN", key.as_str()))?;
        Ok(FetchLocation::Url(url.to_string()))
    }

    fn location(&self) -> String {
        self.config.location()
    }
}
