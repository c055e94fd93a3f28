//! The sticky comment: one per (lane, PR), found again by its hidden
//! marker, updated in place with PATCH (never POST: the OpenAPI description
//! has only PATCH for `/repos/{owner}/{repo}/issues/comments/{comment_id}`).
//!
//! 1. List the issue's comments (every page). Ours are those holding the
//!    marker and written by lane's login (when known; else by the author of
//!    the oldest marked comment).
//! 2. One or more found: PATCH the oldest when its body differs, DELETE the
//!    other ones of ours (a 404 there means a racing run removed it).
//! 3. None found: POST one, then list again: when a racing run also
//!    created one, keep the oldest, PATCH it if needed, DELETE the rest of
//!    ours. Other users' comments are never touched.
//!
//! A POST is resent only when the re-list shows it was not applied.

use http::Method;
use serde::Serialize;
use serde_json::{json, Value};

use crate::client::GithubClient;
use crate::error::GithubError;

/// What happened to the comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommentAction {
    /// A new comment was created.
    Created,
    /// The existing comment was updated (PATCH).
    Updated,
    /// The existing comment already had this body.
    Unchanged,
}

/// The outcome of [`GithubClient::upsert_comment`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommentOutcome {
    /// The issue or PR number.
    pub issue: u64,
    /// The comment kept.
    pub comment_id: u64,
    /// Its `html_url`, when GitHub gave one.
    pub html_url: Option<String>,
    /// What was done.
    pub action: CommentAction,
    /// Extra comments of ours removed (duplicates from a race).
    pub removed: Vec<u64>,
}

#[derive(Debug, Clone)]
struct Comment {
    id: u64,
    body: String,
    login: Option<String>,
    html_url: Option<String>,
}

fn parse_comment(v: &Value) -> Option<Comment> {
    Some(Comment {
        id: v.get("id")?.as_u64()?,
        body: v
            .get("body")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        login: v
            .get("user")
            .and_then(|u| u.get("login"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        html_url: v.get("html_url").and_then(Value::as_str).map(str::to_owned),
    })
}

const PAGE: usize = 100;
const MAX_PAGES: usize = 100;

impl GithubClient {
    async fn list_comments(&self, issue: u64) -> Result<Vec<Comment>, GithubError> {
        let mut all = Vec::new();
        for page in 1..=MAX_PAGES {
            let path = format!(
                "/repos/{}/{}/issues/{issue}/comments?per_page={PAGE}&page={page}",
                self.repo.owner, self.repo.name
            );
            let v = self.send_json(Method::GET, &path, None).await?;
            let items = v.as_array().ok_or_else(|| GithubError::Decode {
                method: "GET".into(),
                path: path.clone(),
                message: "expected an array of comments".into(),
            })?;
            all.extend(items.iter().filter_map(parse_comment));
            if items.len() < PAGE {
                break;
            }
        }
        Ok(all)
    }

    /// Ours among `all`: holding `marker`, by `login` when given, else by
    /// the author of the oldest marked comment. Sorted by id (oldest first).
    fn ours(&self, all: &[Comment], marker: &str, login: Option<&str>) -> Vec<Comment> {
        let mut marked: Vec<Comment> = all
            .iter()
            .filter(|c| c.body.contains(marker))
            .cloned()
            .collect();
        marked.sort_by_key(|c| c.id);
        let author = login
            .map(str::to_owned)
            .or_else(|| marked.first().and_then(|c| c.login.clone()));
        match author {
            Some(a) => marked
                .into_iter()
                .filter(|c| c.login.as_deref() == Some(a.as_str()))
                .collect(),
            None => marked.into_iter().take(1).collect(),
        }
    }

    async fn patch_comment(&self, id: u64, body: &str) -> Result<Option<String>, GithubError> {
        let path = format!(
            "/repos/{}/{}/issues/comments/{id}",
            self.repo.owner, self.repo.name
        );
        let v = self
            .send_json(Method::PATCH, &path, Some(&json!({ "body": body })))
            .await?;
        Ok(v.get("html_url").and_then(Value::as_str).map(str::to_owned))
    }

    async fn delete_comment(&self, id: u64) -> Result<bool, GithubError> {
        let path = format!(
            "/repos/{}/{}/issues/comments/{id}",
            self.repo.owner, self.repo.name
        );
        match self.send(Method::DELETE, &path, None).await {
            Ok(_) => Ok(true),
            // A racing run removed it first.
            Err(e) if e.status() == Some(404) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Keeps the oldest of `ours` with `body`, deletes the others.
    async fn settle(
        &self,
        issue: u64,
        ours: Vec<Comment>,
        body: &str,
        created: Option<u64>,
    ) -> Result<CommentOutcome, GithubError> {
        let keep = ours[0].clone();
        let mut action = if created == Some(keep.id) {
            CommentAction::Created
        } else {
            CommentAction::Unchanged
        };
        let mut html_url = keep.html_url.clone();
        if keep.body != body {
            html_url = self.patch_comment(keep.id, body).await?.or(html_url);
            action = CommentAction::Updated;
        }
        let mut removed = Vec::new();
        for extra in &ours[1..] {
            if self.delete_comment(extra.id).await? {
                removed.push(extra.id);
            }
        }
        if !removed.is_empty() {
            tracing::info!(
                issue,
                kept = keep.id,
                ?removed,
                "removed duplicate lane comments"
            );
        }
        Ok(CommentOutcome {
            issue,
            comment_id: keep.id,
            html_url,
            action,
            removed,
        })
    }

    /// Creates or updates the comment holding `marker` on issue or PR
    /// `issue` so that its body is `body` (which must contain `marker`).
    pub async fn upsert_comment(
        &self,
        issue: u64,
        marker: &str,
        body: &str,
    ) -> Result<CommentOutcome, GithubError> {
        debug_assert!(body.contains(marker), "the body must carry the marker");
        let all = self.list_comments(issue).await?;
        let ours = self.ours(&all, marker, self.login.as_deref());
        if !ours.is_empty() {
            return self.settle(issue, ours, body, None).await;
        }
        let path = format!(
            "/repos/{}/{}/issues/{issue}/comments",
            self.repo.owner, self.repo.name
        );
        let payload = json!({ "body": body });
        let mut attempts = 0;
        let created = loop {
            attempts += 1;
            match self.send_json(Method::POST, &path, Some(&payload)).await {
                Ok(v) => break parse_comment(&v),
                Err(e) if e.status().is_some_and(|s| s >= 500) => {
                    // The POST may have been applied: look before resending.
                    let again = self.list_comments(issue).await?;
                    let ours = self.ours(&again, marker, self.login.as_deref());
                    if !ours.is_empty() {
                        return self.settle(issue, ours, body, None).await;
                    }
                    if attempts >= self.retry.max_attempts {
                        return Err(e);
                    }
                    tracing::warn!(issue, attempts, "comment not created; posting again");
                }
                Err(e) => return Err(e),
            }
        };
        let login = self
            .login
            .clone()
            .or_else(|| created.as_ref().and_then(|c| c.login.clone()));
        let created_id = created.as_ref().map(|c| c.id);
        let again = self.list_comments(issue).await?;
        let mut ours = self.ours(&again, marker, login.as_deref());
        if ours.is_empty() {
            // Not listed yet (eventual consistency): trust the POST.
            let c = created.ok_or_else(|| GithubError::Decode {
                method: "POST".into(),
                path: path.clone(),
                message: "no comment id in the answer".into(),
            })?;
            ours.push(c);
        }
        self.settle(issue, ours, body, created_id).await
    }
}
