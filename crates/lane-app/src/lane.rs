//! Finding and loading a lane: `0.93.3` means `lanes/0.93.3.yaml` (looked up
//! from the current folder upwards); a path is taken as it is.

use std::path::{Path, PathBuf};

use crate::error::AppError;

/// A loaded lane file.
pub struct LoadedLane {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its model.
    pub lane: lane_file::LaneFile,
}

/// Resolves a LANE argument to a lane file path.
pub fn lane_path(arg: &str) -> Result<PathBuf, AppError> {
    let p = Path::new(arg);
    if arg.ends_with(".yaml") || arg.ends_with(".yml") || p.components().count() > 1 {
        return Ok(p.to_owned());
    }
    let cwd = std::env::current_dir().map_err(|e| AppError::io(".", e))?;
    for dir in cwd.ancestors() {
        let candidate = lane_core::layout::lane_file(dir, arg);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(AppError::NoLaneFile {
        name: arg.to_owned(),
        dir: cwd,
    })
}

/// Reads and parses a lane file.
pub fn load(arg: &str) -> Result<LoadedLane, AppError> {
    let path = lane_path(arg)?;
    let text = std::fs::read_to_string(&path)
        .map_err(|e| AppError::invalid(format!("cannot read lane file {}", path.display()), e))?;
    let lane = lane_file::parse(&path.display().to_string(), &text)?;
    Ok(LoadedLane { path, lane })
}

/// The folder lane caches upstream clones in: `$LANE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/lane`, else `~/.cache/lane`.
pub fn cache_root() -> PathBuf {
    if let Some(d) = std::env::var_os("LANE_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("lane");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    home.join(".cache").join("lane")
}

/// The repository a lane operates on: `--repo`, else the upstream's local
/// path (relative to the lane file), else a cached clone of its URL.
pub fn repository(loaded: &LoadedLane, repo_override: Option<&Path>) -> Result<PathBuf, AppError> {
    if let Some(r) = repo_override {
        return Ok(r.to_owned());
    }
    let up = &loaded.lane.upstream;
    if up.is_url() {
        return Ok(lane_git::remote::clone_or_fetch(&cache_root(), &up.repo)?);
    }
    let p = Path::new(&up.repo);
    if p.is_absolute() {
        Ok(p.to_owned())
    } else {
        let dir = loaded.path.parent().unwrap_or(Path::new("."));
        Ok(dir.join(p))
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`, or `$SOURCE_DATE_EPOCH`'s when set
/// (reproducible builds' convention).
pub fn today() -> String {
    let ts = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .unwrap_or_else(jiff::Timestamp::now);
    ts.strftime("%Y-%m-%d").to_string()
}

/// Opens an artifact store location (`file:///path`, a path, `s3://...`).
pub fn open_store(location: &str) -> Result<Box<dyn lane_store::ArtifactStore>, AppError> {
    Ok(lane_store::open(location)?)
}

/// Refuses (exit 6, each commit named) a lane branch that is not exactly
/// the lane's cut before anything trusts its head; a branch not cut yet
/// is `lane_wheel`'s to say (`run lane cut first`).
pub fn prove_branch(
    repo: &git2::Repository,
    lane: &lane_file::LaneFile,
    doing: &'static str,
) -> Result<lane_git::proof::CutProof, AppError> {
    let branch = lane.branch_name();
    if repo
        .find_reference(&format!("refs/heads/{branch}"))
        .is_err()
    {
        return Err(lane_wheel::WheelError::NoBranch { branch }.into());
    }
    lane_git::proof::require_branch_is_cut(repo, lane).map_err(|e| AppError::git(e, doing))
}

#[cfg(test)]
mod tests {
    /// Every shipped lane file parses, and its cells are the ones its era's
    /// mint runs: gen-worker 0.95 and later have no dynamo recipe, and from
    /// 0.127 there is no rig, only `gen-worker compile` and its verdict.
    #[test]
    fn the_shipped_lanes_parse_and_their_cells_fit_their_era() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lanes");
        let mut seen = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let name = format!("lanes/{}", path.file_name().unwrap().to_string_lossy());
            let lane = lane_file::parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            // The era is the line's: a probe lane (0.0.x) mints its base's.
            let minor = match lane.version.semver().minor {
                0 => lane
                    .base
                    .as_str()
                    .split('.')
                    .nth(1)
                    .unwrap()
                    .parse()
                    .unwrap(),
                m => m,
            };
            for c in &lane.mint.as_ref().expect("every shipped lane mints").cells {
                let command = c.command.join(" ");
                if minor >= 95 {
                    assert_eq!(
                        c.recipe,
                        lane_core::Recipe::Aot,
                        "{name}: {}",
                        c.name.as_str()
                    );
                }
                if minor >= 127 {
                    assert!(command.contains("GW_TOY127"), "{name}: {command}");
                    assert_eq!(c.report.as_ref().map(|r| r.as_str()), Some("verdict.json"));
                } else {
                    assert!(
                        command.contains("scripts/micro_mint_rig.py"),
                        "{name}: {command}"
                    );
                    assert_eq!(
                        c.report.as_ref().map(|r| r.as_str()),
                        Some("rig/mint/report.json")
                    );
                }
            }
            seen.push(lane.version.as_str().to_owned());
        }
        seen.sort();
        assert_eq!(
            seen,
            [
                "0.0.0", "0.0.1", "0.0.2", "0.0.3", "0.0.4", "0.0.5", "0.100.2", "0.126.1",
                "0.126.4", "0.127.1", "0.128.1", "0.93.3"
            ]
        );
    }

    #[test]
    fn today_follows_source_date_epoch() {
        // The only test in this binary that sets the variable.
        std::env::set_var("SOURCE_DATE_EPOCH", "951782400");
        assert_eq!(super::today(), "2000-02-29");
        std::env::remove_var("SOURCE_DATE_EPOCH");
    }
}
