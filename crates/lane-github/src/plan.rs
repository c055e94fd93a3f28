//! The exact requests lane would send, for `--dry-run`: the same paths and
//! bodies the client sends, built without a client or a network.

use serde::Serialize;
use serde_json::{json, Value};

use crate::checks::CheckRun;
use crate::Repo;

/// One request, as it would be sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedRequest {
    /// The HTTP method.
    pub method: &'static str,
    /// The path under the API base.
    pub path: String,
    /// The JSON body.
    pub body: Value,
    /// When the request is sent instead of another one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Creating the lane's comment on `issue` (sent when no comment carries
/// the marker; otherwise the same body goes by PATCH to that comment).
pub fn comment(repo: &Repo, issue: u64, body: &str) -> PlannedRequest {
    PlannedRequest {
        method: "POST",
        path: format!(
            "/repos/{}/{}/issues/{issue}/comments",
            repo.owner, repo.name
        ),
        body: json!({ "body": body }),
        note: Some(
            "when a comment of lane's already carries the marker, this body is sent as \
             PATCH /repos/{owner}/{repo}/issues/comments/{comment_id} instead"
                .to_owned(),
        ),
    }
}

/// Creating the lane's check run.
pub fn check_run(repo: &Repo, run: &CheckRun) -> PlannedRequest {
    PlannedRequest {
        method: "POST",
        path: format!("/repos/{}/{}/check-runs", repo.owner, repo.name),
        body: run.body(),
        note: Some(
            "when a check run of this name exists on the commit, it is updated with \
             PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} (without head_sha)"
                .to_owned(),
        ),
    }
}

/// Opening a pull request (sent when no open one has the same head and base).
pub fn pull(repo: &Repo, spec: &crate::PullSpec) -> PlannedRequest {
    PlannedRequest {
        method: "POST",
        path: format!("/repos/{}/{}/pulls", repo.owner, repo.name),
        body: spec.body(),
        note: Some(
            "when an open pull request from the same head into the same base exists \
             (GET /repos/{owner}/{repo}/pulls?state=open&head=...&base=...), it is reused"
                .to_owned(),
        ),
    }
}
