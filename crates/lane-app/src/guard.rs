//! `lane guard`: the lane's guards alone, on an existing ref (a release
//! branch's CI).

use std::path::PathBuf;

use serde::Serialize;

use crate::error::AppError;
use crate::lane::{load, repository};

/// What `lane guard` is asked.
#[derive(Debug, Clone)]
pub struct GuardRequest {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// The ref to check (default: the lane branch, local or `origin/`).
    pub ref_: Option<String>,
    /// Operate on this local clone instead of the lane's upstream.
    pub repo: Option<PathBuf>,
}

/// The guards' verdicts on one ref.
#[derive(Debug, Serialize)]
pub struct GuardOutcome {
    /// The lane.
    pub lane: String,
    /// The ref checked.
    pub r#ref: String,
    /// The commit it names.
    pub head: String,
    /// The lane's base tag.
    pub base: String,
    /// Whether every guard passed.
    pub passed: bool,
    /// Each guard's verdict.
    pub report: lane_git::guard::GuardReport,
}

impl GuardOutcome {
    /// A refusal is an error (exit 4), after the verdicts are shown.
    pub fn verdict(&self) -> Result<(), AppError> {
        if self.passed {
            return Ok(());
        }
        Err(AppError::GuardRefused {
            lane: self.lane.clone(),
            at: self.r#ref.clone(),
        })
    }
}

/// `lane guard`.
pub fn guard(request: &GuardRequest) -> Result<GuardOutcome, AppError> {
    let loaded = load(&request.lane)?;
    let lane = &loaded.lane;
    let repo_dir = repository(&loaded, request.repo.as_deref())?;
    let repo = lane_git::repo::open(&repo_dir)?;
    let branch = lane.branch_name();
    let name = match &request.ref_ {
        Some(r) => r.clone(),
        None => {
            if repo.find_reference(&format!("refs/heads/{branch}")).is_ok() {
                branch.clone()
            } else if repo
                .find_reference(&format!("refs/remotes/origin/{branch}"))
                .is_ok()
            {
                format!("origin/{branch}")
            } else {
                return Err(AppError::Precondition(format!(
                    "neither {branch} nor origin/{branch} exists: pass --ref"
                )));
            }
        }
    };
    let head = lane_git::repo::resolve_commit(&repo, "ref", &name)?;
    let base = lane_git::repo::resolve_commit(&repo, "base tag", lane.base.as_str())?;
    let mut ids = lane_git::repo::PatchIds::default();
    let report = lane_git::guard::check_after(&repo, lane, base.id(), head.id(), &name, &mut ids)?;
    Ok(GuardOutcome {
        lane: lane.version.to_string(),
        head: head.id().to_string(),
        base: lane.base.to_string(),
        passed: report.passed(),
        r#ref: name,
        report,
    })
}
