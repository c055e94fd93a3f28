//! The wheel a mint installs first: fetched from the store (its sha256
//! checked) and installed into the attempt's own environment with `uv`,
//! whose own reason is the attempt's when it refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tracing::{info, warn};

use crate::agent::{io, MAX_WHEEL_BYTES};
use crate::error::AgentError;

/// Downloads the wheel into `<dir>/wheel/<name>` (the name is the URL's
/// last path segment: `uv` reads the version and tags from it) and checks
/// its sha256.
pub(crate) fn download(dir: &Path, url: &str, sha256: &str) -> Result<PathBuf, AgentError> {
    let shown = lane_store::redact_url(url);
    let name = shown
        .rsplit('/')
        .next()
        .map(percent_decode)
        .filter(|n| n.ends_with(".whl") && !n.contains(['/', '\\']) && !n.starts_with('.'))
        .ok_or_else(|| AgentError::Wheel {
            what: shown.clone(),
            source: lane_store::StoreError::BadLocation {
                location: shown.clone(),
                why: "the URL's last path segment must be a wheel file name (`*.whl`)".into(),
            },
        })?;
    let bytes = crate::source::fetch_staged(url, sha256, MAX_WHEEL_BYTES).map_err(|source| {
        AgentError::Wheel {
            what: shown.clone(),
            source,
        }
    })?;
    let folder = dir.join("wheel");
    std::fs::create_dir_all(&folder).map_err(io(&folder))?;
    let path = folder.join(name);
    std::fs::write(&path, &bytes).map_err(io(&path))?;
    info!(wheel = %shown, bytes = bytes.len(), "wheel downloaded and its sha256 checked");
    Ok(path)
}

/// `%XX` escapes decoded (a wheel name with a local version carries `%2B`).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
            if let Ok(v) = u8::from_str_radix(hex, 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(crate) fn install(dir: &Path, wheel: &Path) -> Result<PathBuf, AgentError> {
    let uv = std::env::var_os("LANE_UV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("uv"));
    let venv = dir.join("venv");
    for args in [
        vec![
            "venv".into(),
            "--quiet".into(),
            venv.to_string_lossy().into_owned(),
        ],
        vec![
            "pip".into(),
            "install".into(),
            "--quiet".into(),
            "--python".into(),
            venv.join("bin/python").to_string_lossy().into_owned(),
            wheel.to_string_lossy().into_owned(),
        ],
    ] {
        // uv's own reason (an interpreter that does not meet the wheel's
        // `requires-python`, say) is the slot's reason, not only a line of
        // agent.log.
        let ran = Command::new(&uv)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|source| AgentError::Spawn {
                program: uv.to_string_lossy().into_owned(),
                source,
            })?;
        if !ran.status.success() {
            let said = String::from_utf8_lossy(&ran.stderr);
            let said = said.lines().map(str::trim).filter(|l| !l.is_empty());
            let said = crate::report::bounded_text(&said.collect::<Vec<_>>().join(" | "), 600);
            warn!(status = %ran.status, uv = %said, "uv could not install the wheel");
            return Err(AgentError::Spawn {
                program: format!("{} {}", uv.to_string_lossy(), args.join(" ")),
                source: std::io::Error::other(if said.is_empty() {
                    format!("exited with {}", ran.status)
                } else {
                    format!("exited with {}: {said}", ran.status)
                }),
            });
        }
    }
    Ok(venv.join("bin"))
}
