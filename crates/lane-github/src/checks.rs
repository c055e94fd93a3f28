//! The lane's check run on the lane branch's head commit: found again by
//! name on that commit and updated (PATCH), else created (POST).

use http::Method;
use serde::Serialize;
use serde_json::{json, Value};

use crate::client::GithubClient;
use crate::error::GithubError;

/// A check run to create or update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckRun {
    /// The check's name, e.g. `lane 0.93.3`.
    pub name: String,
    /// The commit it reports on (40 hex digits).
    pub head_sha: String,
    /// `success`, `neutral` or `failure`.
    pub conclusion: String,
    /// The output title (one line).
    pub title: String,
    /// The output summary (markdown, at most 65,535 characters).
    pub summary: String,
    /// A link to the full report.
    pub details_url: Option<String>,
}

impl CheckRun {
    /// The request body GitHub takes (`status: completed`).
    pub fn body(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "head_sha": self.head_sha,
            "status": "completed",
            "conclusion": self.conclusion,
            "output": { "title": self.title, "summary": self.summary },
        });
        if let Some(u) = &self.details_url {
            v["details_url"] = json!(u);
        }
        v
    }
}

/// What happened to the check run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckRunOutcome {
    /// The check run's id.
    pub id: u64,
    /// True when it was created, false when updated.
    pub created: bool,
}

impl GithubClient {
    /// Creates the check run, or updates the one of the same name on the
    /// same commit.
    pub async fn upsert_check_run(&self, run: &CheckRun) -> Result<CheckRunOutcome, GithubError> {
        let (o, r) = (&self.repo.owner, &self.repo.name);
        let name: String = run
            .name
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        let list = format!(
            "/repos/{o}/{r}/commits/{}/check-runs?check_name={name}&per_page=100",
            run.head_sha
        );
        let found = self
            .send_json(Method::GET, &list, None)
            .await?
            .get("check_runs")
            .and_then(Value::as_array)
            .and_then(|runs| {
                runs.iter()
                    .filter(|c| c.get("name").and_then(Value::as_str) == Some(run.name.as_str()))
                    .filter_map(|c| c.get("id").and_then(Value::as_u64))
                    .min()
            });
        let mut body = run.body();
        match found {
            Some(id) => {
                // `head_sha` is not accepted on update.
                if let Some(m) = body.as_object_mut() {
                    m.remove("head_sha");
                }
                let path = format!("/repos/{o}/{r}/check-runs/{id}");
                self.send_json(Method::PATCH, &path, Some(&body)).await?;
                Ok(CheckRunOutcome { id, created: false })
            }
            None => {
                let path = format!("/repos/{o}/{r}/check-runs");
                let v = self.send_json(Method::POST, &path, Some(&body)).await?;
                let id =
                    v.get("id")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| GithubError::Decode {
                            method: "POST".into(),
                            path,
                            message: "no check run id in the answer".into(),
                        })?;
                Ok(CheckRunOutcome { id, created: true })
            }
        }
    }
}
