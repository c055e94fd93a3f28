//! The pull requests lane opens: a trunk lane's cut PR (the cut branch into
//! the default branch), and a fold-back PR. Never two for one branch: an
//! open PR from the same head into the same base is found first and
//! reused, and a POST whose answer was lost is re-listed before it is sent
//! again (lane never sends a POST twice on its own).

use http::Method;
use serde::Serialize;
use serde_json::{json, Value};

use crate::client::GithubClient;
use crate::error::GithubError;

/// A pull request lane wants open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PullSpec {
    /// The branch with the changes (in the same repository).
    pub head: String,
    /// The branch it merges into.
    pub base: String,
    /// Its title.
    pub title: String,
    /// Its body (markdown, rendered by lane-render).
    pub body: String,
}

impl PullSpec {
    /// The request body of `POST /repos/{owner}/{repo}/pulls`.
    pub fn body(&self) -> Value {
        json!({
            "title": self.title,
            "head": self.head,
            "base": self.base,
            "body": self.body,
            "maintainer_can_modify": false,
        })
    }
}

/// The pull request, open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenedPull {
    /// Its number.
    pub number: u64,
    /// Its page.
    pub html_url: String,
    /// Whether lane opened it now (false: it was open already).
    pub created: bool,
}

fn decode(v: &Value, method: &str, path: &str) -> Result<(u64, String), GithubError> {
    let number = v.get("number").and_then(Value::as_u64);
    let url = v.get("html_url").and_then(Value::as_str);
    match (number, url) {
        (Some(n), Some(u)) => Ok((n, u.to_owned())),
        _ => Err(GithubError::Decode {
            method: method.into(),
            path: path.into(),
            message: "a pull request without number or html_url".into(),
        }),
    }
}

impl GithubClient {
    /// The open pull request from `head` into `base`, when there is one
    /// (`GET /repos/{owner}/{repo}/pulls?state=open&head=owner:head&base=base`).
    pub async fn find_open_pull(
        &self,
        head: &str,
        base: &str,
    ) -> Result<Option<OpenedPull>, GithubError> {
        let path = format!(
            "/repos/{}/{}/pulls?state=open&head={}:{}&base={}",
            self.repo.owner,
            self.repo.name,
            self.repo.owner,
            query(head),
            query(base)
        );
        let v = self.send_json(Method::GET, &path, None).await?;
        let Some(list) = v.as_array() else {
            return Err(GithubError::Decode {
                method: "GET".into(),
                path,
                message: "expected a list of pull requests".into(),
            });
        };
        match list.first() {
            None => Ok(None),
            Some(pr) => {
                let (number, html_url) = decode(pr, "GET", &path)?;
                Ok(Some(OpenedPull {
                    number,
                    html_url,
                    created: false,
                }))
            }
        }
    }

    /// Opens the pull request (`POST /repos/{owner}/{repo}/pulls`), without
    /// looking for an open one first: [`GithubClient::open_pull`] does.
    pub async fn create_pull(&self, spec: &PullSpec) -> Result<OpenedPull, GithubError> {
        let path = format!("/repos/{}/{}/pulls", self.repo.owner, self.repo.name);
        let v = self
            .send_json(Method::POST, &path, Some(&spec.body()))
            .await?;
        let (number, html_url) = decode(&v, "POST", &path)?;
        Ok(OpenedPull {
            number,
            html_url,
            created: true,
        })
    }

    /// Makes sure the pull request is open: reuses the open one from the
    /// same head into the same base, else opens it; a POST that failed is
    /// re-listed, and counts as applied when the pull request is there.
    pub async fn open_pull(&self, spec: &PullSpec) -> Result<OpenedPull, GithubError> {
        if let Some(open) = self.find_open_pull(&spec.head, &spec.base).await? {
            tracing::info!(number = open.number, "the pull request is open already");
            return Ok(open);
        }
        match self.create_pull(spec).await {
            Ok(p) => Ok(p),
            Err(e) => match self.find_open_pull(&spec.head, &spec.base).await {
                Ok(Some(mut p)) => {
                    p.created = true;
                    Ok(p)
                }
                _ => Err(e),
            },
        }
    }
}

/// A branch name as a query value: the characters a ref may hold that a
/// query may not are percent-encoded.
fn query(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_branch_is_a_safe_query_value() {
        assert_eq!(super::query("cut/0.127.1"), "cut/0.127.1");
        assert_eq!(super::query("a&b=c"), "a%26b%3Dc");
    }
}
