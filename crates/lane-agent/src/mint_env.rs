//! A mint's environment is built from an allow list, never from lane's own.
//!
//! The mint is upstream code under test: whatever lane holds (the webhook
//! secret of `lane serve`, a store endpoint with a password in it, GitHub
//! and index tokens, and whatever a future secret is called) must not
//! reach it, or the code under test could sign its own `/lane` commands.
//! A deny list misses what it does not name, so the mint's environment is
//! cleared and built up from what a mint needs:
//!
//! - the variables named in [`INHERITED`] and those starting with one of
//!   [`INHERITED_PREFIXES`], taken from the agent's environment (the
//!   program search path, the dynamic loader's path, the locale, the time
//!   zone, the CA bundle's place, and the GPU runtime's device selection);
//! - what the agent sets itself for each attempt (the attempt's own
//!   `TMPDIR`, `HOME`, `XDG_CACHE_HOME` and compile caches, `TORCH_TRACE`,
//!   the `LANE_*` contract variables, the wheel's environment first on
//!   `PATH`);
//! - the cell's `env:` in the lane file, set last.

use std::ffi::{OsStr, OsString};

/// Variables a mint inherits from the agent by exact name.
pub const INHERITED: &[&str] = &[
    "PATH",
    "LD_LIBRARY_PATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "USER",
    "LOGNAME",
    // Where the machine's CA bundle is (a mint downloading weights over
    // TLS needs it); a path, never a credential.
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    // The machine's Python packages outside the wheel's environment (the
    // device machine's torch and the upstream's dependencies live there,
    // examples/gw-mint/device-run.sh); a list of folders, never a credential.
    "PYTHONPATH",
];

/// Prefixes of the variables a mint inherits from the agent: the locale's
/// categories, and the CUDA runtime's and the NVIDIA container runtime's
/// device selection and capabilities (`CUDA_VISIBLE_DEVICES`,
/// `NVIDIA_VISIBLE_DEVICES`, `NVIDIA_DRIVER_CAPABILITIES`, …).
pub const INHERITED_PREFIXES: &[&str] = &["LC_", "CUDA_", "NVIDIA_"];

/// Whether a mint inherits the agent's variable `name`.
pub fn is_inherited(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    INHERITED.contains(&name) || INHERITED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The part of `vars` (the agent's environment) a mint inherits.
pub fn inherited(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
) -> Vec<(OsString, OsString)> {
    vars.into_iter().filter(|(k, _)| is_inherited(k)).collect()
}

/// `cmd` with its environment cleared and only what a mint inherits put
/// back (the caller adds what the attempt sets).
pub fn from_allow_list(cmd: &mut std::process::Command) -> &mut std::process::Command {
    cmd.env_clear().envs(inherited(std::env::vars_os()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(vars: &[(&str, &str)]) -> Vec<String> {
        inherited(
            vars.iter()
                .map(|(k, v)| (OsString::from(k), OsString::from(v))),
        )
        .into_iter()
        .map(|(k, _)| k.into_string().unwrap())
        .collect()
    }

    #[test]
    fn what_a_mint_needs_is_kept_and_every_secret_lane_knows_is_not() {
        let env = [
            ("PATH", "/usr/bin"),
            ("LD_LIBRARY_PATH", "/usr/local/cuda/lib64"),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", "C.UTF-8"),
            ("CUDA_VISIBLE_DEVICES", "0"),
            ("NVIDIA_VISIBLE_DEVICES", "all"),
            ("LANE_WEBHOOK_SECRET", "s"),
            ("LANE_S3_ENDPOINT", "http://user:password@127.0.0.1:9000"),
            ("GITHUB_TOKEN", "t"),
            ("GH_TOKEN", "t"),
            ("LANE_GITHUB_APP_KEY", "k"),
            ("LANE_GITHUB_APP_ID", "1"),
            ("LANE_INDEX_TOKEN", "t"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("AWS_ACCESS_KEY_ID", "k"),
            ("HTTPS_PROXY", "http://u:p@proxy:3128"),
            ("PYTHONPATH", "/opt/lane-site"),
            ("LD_PRELOAD", "/evil.so"),
            ("TORCHINDUCTOR_CACHE_DIR", "/shared/warm"),
            ("HOME", "/root"),
        ];
        assert_eq!(
            names(&env),
            [
                "PATH",
                "LD_LIBRARY_PATH",
                "LANG",
                "LC_ALL",
                "CUDA_VISIBLE_DEVICES",
                "NVIDIA_VISIBLE_DEVICES",
                "PYTHONPATH"
            ]
        );
    }

    #[test]
    fn a_name_that_is_not_unicode_is_not_inherited() {
        use std::os::unix::ffi::OsStrExt;
        assert!(!is_inherited(OsStr::from_bytes(b"PATH\xff")));
        assert!(is_inherited(OsStr::new("PATH")));
    }
}
