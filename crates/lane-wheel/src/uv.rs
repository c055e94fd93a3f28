//! Finding `uv` (PATH, then the tools folder, else installing it there from
//! PyPI with pip, as `./just` bootstraps `just`) and running `uv build`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{io, WheelError};

/// The build tools used, as recorded in the manifest.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BuildTools {
    /// `uv --version`.
    pub uv: String,
    /// `python --version` of the interpreter the build ran with.
    pub python: String,
}

/// A located `uv` and the Python it builds with.
#[derive(Debug, Clone)]
pub struct Uv {
    /// The `uv` executable.
    pub path: PathBuf,
    /// The Python interpreter passed to `uv build --python`.
    pub python: PathBuf,
    /// Versions, for the manifest.
    pub tools: BuildTools,
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn output_line(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    if !o.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(if o.stdout.is_empty() {
        &o.stderr
    } else {
        &o.stdout
    })
    .into_owned();
    text.lines().next().map(|l| l.trim().to_owned())
}

impl Uv {
    /// Finds `uv`: `$LANE_UV`, then `PATH`, then `<tools>/bin/uv`, then
    /// `<tools>/uv/bin/uv`; when none exists, installs it with
    /// `python3 -m pip install --target <tools>/uv uv` (its own folder:
    /// pip will not add to the `bin/` of a target that has one).
    pub fn locate(tools: &Path) -> Result<Uv, WheelError> {
        Uv::locate_with(tools, std::env::var_os("LANE_UV"))
    }

    /// [`Uv::locate`] with `$LANE_UV` given: set (not empty), it must name
    /// a file, else [`WheelError::LaneUvNotAFile`]; a wrong `LANE_UV` is
    /// never passed over in silence for another uv.
    pub fn locate_with(
        tools: &Path,
        lane_uv: Option<std::ffi::OsString>,
    ) -> Result<Uv, WheelError> {
        let lane_uv = lane_uv.filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(p) = lane_uv.as_ref().filter(|p| !p.is_file()) {
            return Err(WheelError::LaneUvNotAFile { path: p.clone() });
        }
        // Absolute: `uv build` runs in the export folder, where a relative
        // `.tools/uv/bin/uv` names nothing.
        let tools = &std::path::absolute(tools).map_err(io(format!(
            "resolving the tools folder {}",
            tools.display()
        )))?;
        let candidates = [
            lane_uv,
            on_path("uv"),
            Some(tools.join("bin/uv")),
            Some(tools.join("uv/bin/uv")),
        ];
        let path = match candidates.into_iter().flatten().find(|p| p.is_file()) {
            Some(p) => p,
            None => install(tools)?,
        };
        // `$LANE_UV` or a PATH entry may be relative too.
        let path =
            std::path::absolute(&path).map_err(io(format!("resolving {}", path.display())))?;
        let uv =
            output_line(Command::new(&path).arg("--version")).ok_or_else(|| WheelError::NoUv {
                tools: tools.to_owned(),
                why: format!("{} --version failed", path.display()),
            })?;
        let python = output_line(Command::new(&path).args(["python", "find"]))
            .map(PathBuf::from)
            .ok_or_else(|| WheelError::NoUv {
                tools: tools.to_owned(),
                why: "`uv python find` found no Python interpreter".into(),
            })?;
        let python_version =
            output_line(Command::new(&python).arg("--version")).unwrap_or_default();
        tracing::debug!(uv = %path.display(), python = %python.display(), "located uv");
        Ok(Uv {
            path,
            python,
            tools: BuildTools {
                uv,
                python: python_version,
            },
        })
    }

    /// Runs `uv build --wheel` in `src`, writing into `out`; returns the
    /// one wheel built. `source_date_epoch` makes the build reproducible.
    pub fn build_wheel(
        &self,
        src: &Path,
        out: &Path,
        source_date_epoch: i64,
    ) -> Result<PathBuf, WheelError> {
        let o = Command::new(&self.path)
            .args([
                "build",
                "--wheel",
                "--no-config",
                "--color",
                "never",
                "--python",
            ])
            .arg(&self.python)
            .arg("--out-dir")
            .arg(out)
            .arg(src)
            .current_dir(src)
            .env("SOURCE_DATE_EPOCH", source_date_epoch.to_string())
            .env("NO_COLOR", "1")
            .output()
            .map_err(io(format!("running {}", self.path.display())))?;
        if !o.status.success() {
            let mut log = String::from_utf8_lossy(&o.stdout).into_owned();
            log.push_str(&String::from_utf8_lossy(&o.stderr));
            return Err(WheelError::BuildFailed {
                status: o.status.to_string(),
                log_tail: tail(&log, 30),
            });
        }
        let wheels: Vec<PathBuf> = std::fs::read_dir(out)
            .map_err(io(format!("listing {}", out.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "whl"))
            .collect();
        match <[PathBuf; 1]>::try_from(wheels) {
            Ok([w]) => Ok(w),
            Err(v) => Err(WheelError::NoWheel {
                dir: out.to_owned(),
                count: v.len(),
            }),
        }
    }
}

fn install(tools: &Path) -> Result<PathBuf, WheelError> {
    tracing::info!(tools = %tools.display(), "installing uv from PyPI");
    let target = tools.join("uv");
    let o = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
        ])
        .arg(&target)
        .arg("uv")
        .output()
        .map_err(|e| WheelError::NoUv {
            tools: tools.to_owned(),
            why: format!("cannot run python3 -m pip: {e}"),
        })?;
    let uv = target.join("bin/uv");
    if !o.status.success() || !uv.is_file() {
        return Err(WheelError::NoUv {
            tools: tools.to_owned(),
            why: tail(&String::from_utf8_lossy(&o.stderr), 10),
        });
    }
    Ok(uv)
}

/// The last `n` lines of `log`.
pub(crate) fn tail(log: &str, n: usize) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod lane_uv_tests {
    use super::*;

    #[test]
    fn regression_a_lane_uv_that_names_nothing_was_ignored_silently() {
        let tools = tempfile::tempdir().unwrap();
        let err = Uv::locate_with(tools.path(), Some("/nonexistent/uv".into())).unwrap_err();
        assert!(matches!(err, WheelError::LaneUvNotAFile { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "LANE_UV is /nonexistent/uv, which is not a file: point it at uv, or unset it to let lane find or install one"
        );
    }
}
