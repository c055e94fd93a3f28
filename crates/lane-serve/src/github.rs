//! The worker's way to GitHub: lane-github's async client driven from a
//! plain thread by a runtime of its own (one per thread that posts; never
//! the HTTP server's), one client per repository, best effort: a failed
//! answer is logged, and the command's own state stays what it is.

use std::collections::HashMap;

use lane_github::{Auth, ClientConfig, GithubClient, PullInfo, Reaction, Repo};

/// A thread's GitHub connection.
pub(crate) struct Github {
    /// The process's one runtime (this thread blocks on it).
    rt: &'static tokio::runtime::Runtime,
    clients: HashMap<String, GithubClient>,
}

impl Github {
    /// A connection for this thread.
    pub(crate) fn new() -> std::io::Result<Github> {
        Ok(Github {
            rt: lane_runtime::get()?,
            clients: HashMap::new(),
        })
    }

    fn client(&mut self, repo: &str) -> Option<(&tokio::runtime::Runtime, &GithubClient)> {
        if !self.clients.contains_key(repo) {
            let Some(auth) = Auth::from_env() else {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| tracing::warn!("no GitHub credentials (GITHUB_TOKEN, or the App's): nothing is answered on GitHub"));
                return None;
            };
            let parsed = Repo::parse(repo).ok()?;
            let config = ClientConfig::from_env(auth);
            match self.rt.block_on(GithubClient::connect(config, parsed)) {
                Ok(c) => {
                    self.clients.insert(repo.to_owned(), c);
                }
                Err(e) => {
                    tracing::warn!(error = %e, repo, "cannot connect to GitHub");
                    return None;
                }
            }
        }
        Some((self.rt, self.clients.get(repo)?))
    }

    /// `login`'s permission on `repo`, as GitHub's API answers it; `Err`
    /// says why it could not be read (no credentials, a refusal, an
    /// answer lane does not know).
    pub(crate) fn permission(
        &mut self,
        repo: &str,
        login: &str,
    ) -> Result<lane_webhook::Permission, String> {
        let Some((rt, c)) = self.client(repo) else {
            return Err("lane has no GitHub credentials to ask".to_owned());
        };
        let answer = rt
            .block_on(c.collaborator_permission(login))
            .map_err(|e| e.to_string())?;
        lane_webhook::Permission::from_value(&answer).map_err(|e| e.to_string())
    }

    /// Adds `reaction` to comment `comment_id`.
    pub(crate) fn react(&mut self, repo: &str, comment_id: u64, reaction: Reaction) {
        let Some((rt, c)) = self.client(repo) else {
            return;
        };
        let done = rt.block_on(c.add_reaction(comment_id, reaction));
        if let Err(e) = done {
            tracing::warn!(error = %e, comment_id, reaction = reaction.as_str(), "reaction not added");
        }
    }

    /// Creates or updates the comment holding `marker` on `issue`.
    pub(crate) fn upsert(&mut self, repo: &str, issue: u64, marker: &str, body: &str) -> bool {
        let Some((rt, c)) = self.client(repo) else {
            return false;
        };
        match rt.block_on(c.upsert_comment(issue, marker, body)) {
            Ok(o) => {
                tracing::info!(issue, comment = o.comment_id, "answered");
                // What was posted (lane's own words, never a secret or a
                // delivery's body), for whoever follows a command.
                tracing::debug!(issue, comment = o.comment_id, body, "answer posted");
                true
            }
            Err(e) => {
                tracing::warn!(error = %e, issue, "answer not posted");
                false
            }
        }
    }

    /// The pull request's base branch and head commit.
    pub(crate) fn pull(&mut self, repo: &str, pr: u64) -> Option<PullInfo> {
        let (rt, c) = self.client(repo)?;
        match rt.block_on(c.pull_request(pr)) {
            Ok(p) => Some(p),
            Err(e) => {
                tracing::warn!(error = %e, pr, "cannot read the pull request");
                None
            }
        }
    }
}
