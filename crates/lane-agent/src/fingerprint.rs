//! The environment a mint ran in, probed by its agent beside the mint: the
//! GPU model and driver from `nvidia-smi`, torch, CUDA and triton from the
//! mint's own Python (the wheel's environment first on `PATH`, as the mint
//! had it), the upstream's version from the wheel's file name, and the
//! image digest and node where the pod sets them (`LANE_IMAGE_DIGEST`,
//! `NODE_NAME`).
//!
//! The Python probe reads the versions from the packages' own files
//! (`torch/version.py`, `triton/__init__.py`, found with
//! `importlib.util.find_spec`, which imports nothing): the same strings
//! `import torch` gives, without the import. On the H200 that is 0.08 s of
//! one core against 6.5 s for importing torch
//! (`tests/data/h200-env-probe/`), so it runs while the mint does instead
//! of after it, off the slot's critical path, and touches none of the
//! files the mint's own cold start reads.
//!
//! Every probe is bounded ([`PROBE_TIMEOUT`], [`MAX_OUTPUT`]) and every
//! failure leaves its fields absent: a machine without a GPU or torch
//! records what it has, and the mint's outcome never depends on a probe.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use lane_core::EnvFingerprint;
use tracing::debug;

use crate::agent::WheelSource;

/// The longest a probe may run (it reads a few files: a tenth of a second
/// on the H200; a loaded machine or a slow `nvidia-smi` gets far more).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// The most bytes of a probe's output read.
pub const MAX_OUTPUT: u64 = 16 * 1024;

/// The longest value kept of one field.
const MAX_FIELD: usize = 200;

/// Prints `{"torch": …, "cuda": …, "triton": …}` (what it found) from the
/// packages' version files, importing neither package.
const PYTHON_PROBE: &str = r#"import json, os, re
from importlib.util import find_spec
out = {}
def grab(text, name):
    m = re.search(r"^" + name + r"\b[^=\n]*=\s*(?:'([^'\n]*)'|\"([^\"\n]*)\")", text, re.M)
    return (m.group(1) or m.group(2)) if m else None
for pkg, fields in (("torch", (("__version__", "torch"), ("cuda", "cuda"))), ("triton", (("__version__", "triton"),))):
    try:
        spec = find_spec(pkg)
        for d in list(spec.submodule_search_locations or [])[:1] if spec else []:
            for f in ("version.py", "__init__.py"):
                p = os.path.join(d, f)
                if os.path.isfile(p) and os.path.getsize(p) < 1 << 20:
                    with open(p, encoding="utf-8", errors="replace") as fh:
                        text = fh.read()
                    for name, key in fields:
                        v = None if key in out else grab(text, name)
                        if v:
                            out[key] = v
    except Exception:
        pass
print(json.dumps(out))
"#;

/// What the agent knows when it probes.
#[derive(Debug, Clone, Copy)]
pub struct Probe<'a> {
    /// The folder holding the wheel's environment's `python3`, put first
    /// on `PATH` as it was for the mint.
    pub path_prefix: Option<&'a Path>,
    /// The wheel the mint installed.
    pub wheel: Option<&'a WheelSource>,
    /// The working folder the probes run in.
    pub dir: &'a Path,
    /// The longest each probe may run ([`PROBE_TIMEOUT`]).
    pub timeout: Duration,
}

/// Probes the environment; what cannot be probed is absent.
pub fn collect(probe: &Probe<'_>) -> EnvFingerprint {
    let (gpu_model, driver) = run(
        probe,
        "nvidia-smi",
        &["--query-gpu=name,driver_version", "--format=csv,noheader"],
    )
    .map_or((None, None), |out| nvidia_smi(&out));
    let python = run(probe, "python3", &["-c", PYTHON_PROBE])
        .and_then(|out| serde_json::from_str::<serde_json::Value>(out.trim()).ok());
    let field = |k: &str| {
        python
            .as_ref()
            .and_then(|v| v.get(k))
            .and_then(serde_json::Value::as_str)
            .and_then(clean)
    };
    let env = |k: &str| std::env::var(k).ok().as_deref().and_then(clean);
    EnvFingerprint {
        gpu_model,
        driver,
        cuda: field("cuda"),
        torch: field("torch"),
        triton: field("triton"),
        upstream: probe.wheel.and_then(wheel_version),
        image_digest: env("LANE_IMAGE_DIGEST"),
        node: env("NODE_NAME"),
    }
}

/// Starts probing the environment of an attempt installing `wheel`, in
/// its folder `dir` with the wheel's environment `path_prefix` first on
/// `PATH`, on a thread of its own (what `run_agent` starts as the mint
/// starts, and joins once it has ended).
pub fn beside_the_mint(
    wheel: Option<WheelSource>,
    path_prefix: Option<PathBuf>,
    dir: PathBuf,
) -> std::thread::JoinHandle<EnvFingerprint> {
    std::thread::spawn(move || {
        collect(&Probe {
            path_prefix: path_prefix.as_deref(),
            wheel: wheel.as_ref(),
            dir: &dir,
            timeout: PROBE_TIMEOUT,
        })
    })
}

/// A value kept: trimmed, printable, bounded; empty is absent.
fn clean(s: &str) -> Option<String> {
    let s = s.trim();
    let kept: String = s
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_FIELD)
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// `nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`'s
/// first GPU: `NVIDIA H200, 580.159.04`.
fn nvidia_smi(out: &str) -> (Option<String>, Option<String>) {
    let Some(line) = out.lines().find(|l| !l.trim().is_empty()) else {
        return (None, None);
    };
    let mut parts = line.split(',');
    (parts.next().and_then(clean), parts.next().and_then(clean))
}

/// The version in a wheel's file name (`gen_worker-0.93.3-py3-none-any.whl`).
fn wheel_version(wheel: &WheelSource) -> Option<String> {
    let name = match wheel {
        WheelSource::File(p) => p.file_name()?.to_string_lossy().into_owned(),
        WheelSource::Url { url, .. } => {
            let path = url.split(['?', '#']).next()?;
            path.rsplit('/').next()?.to_owned()
        }
    };
    let stem = name.strip_suffix(".whl")?;
    clean(stem.split('-').nth(1)?)
}

/// Runs `program` with `args` in the probe's folder, bounded; its stdout
/// when it exits 0 in time.
fn run(probe: &Probe<'_>, program: &str, args: &[&str]) -> Option<String> {
    let mut cmd = Command::new(program);
    // The probe imports the mint's packages: it gets a mint's environment.
    crate::mint_env::from_allow_list(&mut cmd)
        .args(args)
        .current_dir(probe.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(prefix) = probe.path_prefix {
        let old = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![prefix.to_owned()];
        paths.extend(std::env::split_paths(&old));
        if let Ok(joined) = std::env::join_paths(paths) {
            cmd.env("PATH", joined);
        }
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            debug!(program, error = %e, "environment probe unavailable");
            return None;
        }
    };
    // Taken before the wait: the output (at most MAX_OUTPUT, under a
    // pipe's buffer) is read once the probe has ended.
    let stdout = child.stdout.take();
    let status = match crate::procs::wait_within(child, probe.timeout) {
        Ok(Some(status)) => Some(status),
        _ => {
            debug!(program, "environment probe timed out");
            None
        }
    };
    let mut out = String::new();
    let _ = stdout?.take(MAX_OUTPUT).read_to_string(&mut out);
    status.filter(|s| s.success()).map(|_| out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_smi_names_the_first_gpu_and_its_driver() {
        let (gpu, driver) = nvidia_smi("NVIDIA H200, 580.159.04\nNVIDIA H200, 580.159.04\n");
        assert_eq!(gpu.as_deref(), Some("NVIDIA H200"));
        assert_eq!(driver.as_deref(), Some("580.159.04"));
        assert_eq!(nvidia_smi("\n"), (None, None));
    }

    #[test]
    fn the_upstream_version_is_the_wheels() {
        let file = WheelSource::File("/w/gen_worker-0.93.3-py3-none-any.whl".into());
        assert_eq!(wheel_version(&file).as_deref(), Some("0.93.3"));
        let url = WheelSource::Url {
            url: "https://s3/b/gen_worker-0.93.4-py3-none-any.whl?X-Amz-Signature=s".into(),
            sha256: String::new(),
        };
        assert_eq!(wheel_version(&url).as_deref(), Some("0.93.4"));
        let odd = WheelSource::File("/w/not-a-wheel.tar.gz".into());
        assert_eq!(wheel_version(&odd), None);
    }

    #[test]
    fn a_machine_without_the_tools_records_what_it_has() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("bin");
        std::fs::create_dir_all(&empty).unwrap();
        let f = collect(&Probe {
            path_prefix: Some(&empty),
            wheel: None,
            dir: dir.path(),
            timeout: PROBE_TIMEOUT,
        });
        // Whatever this machine has, nothing is made up: no upstream
        // without a wheel, and every value is printable.
        assert_eq!(f.upstream, None);
        let text = serde_json::to_string(&f).unwrap();
        assert!(!text.chars().any(char::is_control), "{text}");
    }

    fn python3(script: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let python = bin.join("python3");
        std::fs::write(&python, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
        (dir, bin)
    }

    #[test]
    fn the_mints_own_python_is_the_one_probed() {
        let (dir, bin) = python3(r#"echo '{"torch": "9.9", "cuda": null}'"#);
        let f = collect(&Probe {
            path_prefix: Some(&bin),
            wheel: None,
            dir: dir.path(),
            timeout: PROBE_TIMEOUT,
        });
        assert_eq!(f.torch.as_deref(), Some("9.9"));
        assert_eq!(f.cuda, None);
    }

    /// The probe against the H200's own `torch/version.py` (recorded with
    /// `tests/data/h200-env-probe/`), in a package whose `__init__` fails
    /// when imported: the real `python3` must read the same strings
    /// `import torch` gave on the device, without importing anything.
    #[test]
    fn the_probe_reads_the_h200_versions_without_importing_torch() {
        if Command::new("python3")
            .arg("-c")
            .arg("pass")
            .status()
            .is_err()
        {
            return; // No Python on this machine: nothing to probe.
        }
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/h200-env-probe");
        let site = tempfile::tempdir().unwrap();
        let torch = site.path().join("torch");
        let triton = site.path().join("triton");
        std::fs::create_dir_all(&torch).unwrap();
        std::fs::create_dir_all(&triton).unwrap();
        std::fs::copy(data.join("torch-version.py"), torch.join("version.py")).unwrap();
        let refuse = "raise SystemExit('imported')\n";
        std::fs::write(torch.join("__init__.py"), refuse).unwrap();
        std::fs::write(
            triton.join("__init__.py"),
            format!("__version__ = '3.6.0'\n{refuse}"),
        )
        .unwrap();
        let out = Command::new("python3")
            .args(["-c", PYTHON_PROBE])
            .env("PYTHONPATH", site.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // What the import-based probe printed on the device (probe.txt).
        let recorded = std::fs::read_to_string(data.join("probe.txt")).unwrap();
        let imported = recorded
            .lines()
            .find(|l| l.starts_with("{\"torch\""))
            .unwrap();
        let imported: serde_json::Value = serde_json::from_str(imported).unwrap();
        assert_eq!(found, imported);
        assert_eq!(found["cuda"], "13.0");
    }

    #[test]
    fn a_probe_that_hangs_is_cut_off_and_says_nothing() {
        let (dir, bin) = python3(r#"echo '{"torch": "9.9"}'; exec sleep 30"#);
        let start = std::time::Instant::now();
        let f = collect(&Probe {
            path_prefix: Some(&bin),
            wheel: None,
            dir: dir.path(),
            timeout: Duration::from_millis(300),
        });
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(f.torch, None);
    }
}
