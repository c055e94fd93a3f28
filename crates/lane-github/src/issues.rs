//! What `lane serve` asks of a pull request besides the sticky comment: a
//! reaction on the comment that asked (`eyes`, `rocket`, `confused`), and
//! the pull request's base branch and head commit (its lane, and the commit
//! its check run reports on).

use http::Method;
use serde_json::{json, Value};

use crate::client::GithubClient;
use crate::error::GithubError;

/// A reaction GitHub allows on an issue comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reaction {
    /// 👀: seen, working on it.
    Eyes,
    /// 🚀: done.
    Rocket,
    /// 😕: failed or refused.
    Confused,
}

impl Reaction {
    /// GitHub's `content` word.
    pub fn as_str(self) -> &'static str {
        match self {
            Reaction::Eyes => "eyes",
            Reaction::Rocket => "rocket",
            Reaction::Confused => "confused",
        }
    }
}

/// A pull request, as far as lane reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullInfo {
    /// `base.ref`: the branch it merges into (`release/0.93.3`).
    pub base_ref: String,
    /// `head.sha`: its head commit.
    pub head_sha: String,
}

impl GithubClient {
    /// Adds `reaction` to the issue comment `comment_id`
    /// (`POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions`;
    /// GitHub answers 200 when it was there already).
    pub async fn add_reaction(
        &self,
        comment_id: u64,
        reaction: Reaction,
    ) -> Result<(), GithubError> {
        let path = format!(
            "/repos/{}/{}/issues/comments/{comment_id}/reactions",
            self.repo.owner, self.repo.name
        );
        let body = json!({ "content": reaction.as_str() });
        self.send(Method::POST, &path, Some(&body)).await?;
        Ok(())
    }

    /// GitHub's answer on `login`'s permission on the repository (`GET
    /// /repos/{owner}/{repo}/collaborators/{username}/permission`), as JSON;
    /// a 404 (not a collaborator) is `{"permission": "none"}`. A login
    /// that is not one GitHub allows (letters, digits, single hyphens, at
    /// most 39) is never sent.
    pub async fn collaborator_permission(&self, login: &str) -> Result<Value, GithubError> {
        let valid = !login.is_empty()
            && login.len() <= 39
            && login
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !login.starts_with('-')
            && !login.ends_with('-')
            && !login.contains("--");
        if !valid {
            return Err(GithubError::Decode {
                method: "GET".into(),
                path: "/repos/{owner}/{repo}/collaborators/{username}/permission".into(),
                message: "the commenter's login is not a GitHub login".into(),
            });
        }
        let path = format!(
            "/repos/{}/{}/collaborators/{login}/permission",
            self.repo.owner, self.repo.name
        );
        match self.send_json(Method::GET, &path, None).await {
            Err(e) if e.status() == Some(404) => Ok(json!({ "permission": "none" })),
            answer => answer,
        }
    }

    /// The pull request `number`'s base branch and head commit
    /// (`GET /repos/{owner}/{repo}/pulls/{pull_number}`).
    pub async fn pull_request(&self, number: u64) -> Result<PullInfo, GithubError> {
        let path = format!(
            "/repos/{}/{}/pulls/{number}",
            self.repo.owner, self.repo.name
        );
        let v = self.send_json(Method::GET, &path, None).await?;
        let field = |side: &str, key: &str| {
            v.get(side)
                .and_then(|s| s.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| GithubError::Decode {
                    method: "GET".into(),
                    path: path.clone(),
                    message: format!("no {side}.{key}"),
                })
        };
        Ok(PullInfo {
            base_ref: field("base", "ref")?,
            head_sha: field("head", "sha")?,
        })
    }
}
