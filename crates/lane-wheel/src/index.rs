//! Uploading a wheel to a package index the way twine does: one
//! `multipart/form-data` POST to the index's legacy upload URL with basic
//! auth (`__token__` and the token). The token is never shown.

use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::time::Duration;

use crate::error::WheelError;
use crate::verify::VerifiedWheel;

/// The index token: lane's one secret wrapper.
pub use lane_core::Secret as IndexToken;

/// Where to upload and as whom.
#[derive(Debug, Clone)]
pub struct IndexTarget {
    /// The legacy upload URL (`https://upload.pypi.org/legacy/`, or a
    /// pypiserver's root `http://host:port/`).
    pub upload_url: String,
    /// The user name (`__token__` for API tokens).
    pub username: String,
    /// The token or password.
    pub token: IndexToken,
}

/// What the index said.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct UploadReceipt {
    /// The URL uploaded to.
    pub upload_url: String,
    /// The HTTP status.
    pub status: u16,
}

/// Uploads `wheel` (its bytes, already verified as `verified`) to `target`.
pub fn upload(
    target: &IndexTarget,
    verified: &VerifiedWheel,
    wheel: &[u8],
) -> Result<UploadReceipt, WheelError> {
    let boundary = format!(
        "lane-{}",
        crate::hex(&Sha256::digest(wheel))[..32].to_owned()
    );
    let sha256 = crate::hex(&Sha256::digest(wheel));
    let fields: [(&str, &str); 9] = [
        (":action", "file_upload"),
        ("protocol_version", "1"),
        ("name", &verified.name),
        ("version", &verified.version),
        ("filetype", "bdist_wheel"),
        ("pyversion", &verified.python_tag),
        ("metadata_version", &verified.metadata_version),
        ("sha256_digest", &sha256),
        ("comment", "uploaded by lane publish"),
    ];
    let mut body = Vec::with_capacity(wheel.len() + 2048);
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"content\"; filename=\"{}\"\r\nContent-Type: application/octet-stream\r\n\r\n",
            verified.file_name
        )
        .as_bytes(),
    );
    body.extend_from_slice(wheel);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());

    let auth = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        target.username,
        target.token.expose()
    ));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(300)))
        .build()
        .into();
    let mut resp = agent
        .post(&target.upload_url)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .header("authorization", format!("Basic {auth}"))
        .send(&body[..])
        .map_err(|e| WheelError::IndexTransport {
            url: lane_store::redact_url(&target.upload_url),
            source: Box::new(e),
        })?;
    let status = resp.status().as_u16();
    if !(200..300).contains(&status) {
        let text = resp.body_mut().read_to_string().unwrap_or_default();
        return Err(WheelError::IndexRefused {
            url: lane_store::redact_url(&target.upload_url),
            status,
            body: text
                .replace(target.token.expose(), "***")
                .chars()
                .take(400)
                .collect(),
        });
    }
    // A URL may carry `user:password@`: it never reaches an error, a log or
    // the receipt whole.
    let shown = lane_store::redact_url(&target.upload_url);
    tracing::info!(url = %shown, wheel = %verified.file_name, "uploaded");
    Ok(UploadReceipt {
        upload_url: shown,
        status,
    })
}
