//! Uploading a wheel to a package index with `uv publish`: the ecosystem's
//! own uploader (the legacy upload API, its retries and its error words),
//! run with lane's located `uv`. The credentials travel in `uv`'s
//! environment (`UV_PUBLISH_USERNAME`/`UV_PUBLISH_PASSWORD`), never on its
//! command line (which other users can read in `/proc`), and a URL's
//! `user:password@` is taken off before `uv` sees it. No configuration file,
//! keyring or trusted-publishing lookup can redirect the upload: the URL and
//! the credentials lane was given are the only ones used.

use std::process::Command;

use crate::error::{io, WheelError};
use crate::uv::Uv;
use crate::verify::VerifiedWheel;

/// The index token: lane's one secret wrapper.
pub use lane_core::Secret as IndexToken;

/// How long one upload may take, in seconds (`UV_HTTP_TIMEOUT`).
const UPLOAD_TIMEOUT_S: u32 = 300;

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
    /// The URL uploaded to (without credentials).
    pub upload_url: String,
    /// `uv --version` of the uploader.
    pub uploader: String,
}

/// Uploads `wheel` (its bytes, already verified as `verified`) to `target`
/// with `uv publish`.
pub fn upload(
    uv: &Uv,
    target: &IndexTarget,
    verified: &VerifiedWheel,
    wheel: &[u8],
) -> Result<UploadReceipt, WheelError> {
    let shown = lane_store::redact_url(&target.upload_url);
    let url = lane_core::secret::without_userinfo(&target.upload_url);
    let dir = tempfile::tempdir().map_err(io("making a folder for the upload"))?;
    // `uv publish` reads the name, version and tags from the file name.
    let file = dir.path().join(&verified.file_name);
    std::fs::write(&file, wheel).map_err(io(format!("writing {}", file.display())))?;
    let mut cmd = Command::new(&uv.path);
    cmd.args([
        "publish",
        "--no-config",
        "--trusted-publishing",
        "never",
        "--keyring-provider",
        "disabled",
        "--no-attestations",
        "--no-progress",
        "--color",
        "never",
        "--publish-url",
    ])
    .arg(&url)
    .arg(&file)
    .current_dir(dir.path())
    .env("UV_PUBLISH_USERNAME", &target.username)
    .env("UV_PUBLISH_PASSWORD", target.token.expose())
    .env("UV_HTTP_TIMEOUT", UPLOAD_TIMEOUT_S.to_string())
    .env("NO_COLOR", "1");
    // Settings from lane's own environment must not redirect the upload
    // or swap its credentials.
    for var in [
        "UV_PUBLISH_URL",
        "UV_PUBLISH_TOKEN",
        "UV_PUBLISH_INDEX",
        "UV_PUBLISH_CHECK_URL",
        "UV_CONFIG_FILE",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd
        .output()
        .map_err(io(format!("running {}", uv.path.display())))?;
    if !out.status.success() {
        let mut said = String::from_utf8_lossy(&out.stderr).into_owned();
        said.push_str(&String::from_utf8_lossy(&out.stdout));
        return Err(WheelError::IndexRefused {
            url: shown,
            status: out.status.to_string(),
            said: uploader_words(&said, &target.token),
        });
    }
    tracing::info!(url = %shown, wheel = %verified.file_name, "uploaded with uv publish");
    Ok(UploadReceipt {
        upload_url: shown,
        uploader: uv.tools.uv.clone(),
    })
}

/// What `uv` said, in one line: its last lines, with the token, any URL
/// credentials and progress noise taken out, at most 600 characters.
fn uploader_words(said: &str, token: &IndexToken) -> String {
    let lines: Vec<String> = said
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Publishing ") && !l.starts_with("Uploading "))
        .map(|l| lane_core::secret::redact_userinfo(&l.replace(token.expose(), "***")))
        .collect();
    let kept = &lines[lines.len().saturating_sub(6)..];
    let text = kept.join(" | ");
    if text.chars().count() > 600 {
        text.chars().take(600).chain("…".chars()).collect()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uploaders_words_never_carry_the_token() {
        let token = IndexToken::new("tok-123-secret");
        let said = "Publishing 1 file to http://u:pw@h/\nUploading x.whl (1KiB)\nerror: Failed to publish `x.whl` to http://u:pw@h/\n  Caused by: Permission denied (status code 403 Forbidden): tok-123-secret is not valid\n";
        let words = uploader_words(said, &token);
        assert!(!words.contains("tok-123-secret"), "{words}");
        assert!(!words.contains("pw@"), "{words}");
        assert!(words.contains("403 Forbidden"), "{words}");
        assert!(!words.contains('\n'), "{words}");
    }
}
