//! The client: octocrab built for one API base and one credential, and
//! `send`, the one function every request goes through, with the retry
//! policy:
//!
//! - 5xx and transport errors are retried for GET, PATCH and DELETE; a POST
//!   is never blindly resent after a 5xx (it may have been applied): the
//!   caller re-lists first (see `comments.rs`);
//! - 429, and 403 carrying `retry-after` or `x-ratelimit-remaining: 0` (the
//!   secondary and primary rate limits), are retried for every method: the
//!   request was refused, not applied;
//! - the wait is `Retry-After` seconds, else until `x-ratelimit-reset`, else
//!   an exponential backoff; a wait above [`RetryPolicy::max_wait`] fails at
//!   once; at most [`RetryPolicy::max_attempts`] attempts.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::{HeaderMap, Method, StatusCode};
use octocrab::models::{AppId, InstallationId};
use octocrab::Octocrab;
use serde_json::Value;

use crate::auth::{Auth, Redactor};
use crate::error::GithubError;
use crate::Repo;

/// api.github.com, used when `GITHUB_API_URL` is not set.
pub const DEFAULT_API_URL: &str = "https://api.github.com";

/// How hard to retry.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Attempts per request, the first included.
    pub max_attempts: u32,
    /// The first backoff; doubled per attempt.
    pub backoff: Duration,
    /// The longest wait honoured (Retry-After, rate-limit reset).
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    /// 4 attempts, 1 s backoff doubling, waits up to 120 s.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            backoff: Duration::from_secs(1),
            max_wait: Duration::from_secs(120),
        }
    }
}

/// What a client is built from.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The API base (`GITHUB_API_URL`; `https://HOST/api/v3` on GitHub
    /// Enterprise Server).
    pub api_url: String,
    /// The credential.
    pub auth: Auth,
    /// The retry policy.
    pub retry: RetryPolicy,
    /// The login lane posts as, when known; otherwise `GET /user` is asked
    /// (tokens) or `GET /app` (apps, `<slug>[bot]`), best effort.
    pub login: Option<String>,
}

impl ClientConfig {
    /// A config for `auth` with the API base from `GITHUB_API_URL` (as
    /// GitHub Actions sets it), else [`DEFAULT_API_URL`].
    pub fn from_env(auth: Auth) -> Self {
        let api_url = std::env::var("GITHUB_API_URL")
            .ok()
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_API_URL.to_owned());
        ClientConfig {
            api_url,
            auth,
            retry: RetryPolicy::default(),
            login: None,
        }
    }
}

/// A GitHub client for one repository.
pub struct GithubClient {
    pub(crate) crab: Octocrab,
    pub(crate) repo: Repo,
    pub(crate) retry: RetryPolicy,
    pub(crate) redactor: Redactor,
    pub(crate) login: Option<String>,
    api_url: String,
    auth_kind: &'static str,
}

impl fmt::Debug for GithubClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GithubClient")
            .field("api_url", &self.api_url)
            .field("repo", &self.repo.to_string())
            .field("auth", &self.auth_kind)
            .field("login", &self.login)
            .finish_non_exhaustive()
    }
}

/// One answer: status, headers, body text.
pub(crate) struct Answer {
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn json(&self, method: &Method, path: &str) -> Result<Value, GithubError> {
        serde_json::from_str(&self.body).map_err(|e| GithubError::Decode {
            method: method.to_string(),
            path: path.to_owned(),
            message: e.to_string(),
        })
    }
}

fn check_url(api_url: &str) -> Result<String, GithubError> {
    let url = api_url.trim().trim_end_matches('/');
    let invalid = || GithubError::InvalidApiUrl {
        url: url.chars().take(200).collect(),
    };
    let parsed: http::Uri = url.parse().map_err(|_| invalid())?;
    if parsed.scheme().is_none() || parsed.authority().is_none() {
        return Err(invalid());
    }
    Ok(url.to_owned())
}

fn invalid_url(url: &str) -> GithubError {
    GithubError::InvalidApiUrl {
        url: url.chars().take(200).collect(),
    }
}

impl GithubClient {
    /// Builds the client; for an App, exchanges the JWT for an installation
    /// token now, so a bad key or installation fails before anything is
    /// posted.
    pub async fn connect(config: ClientConfig, repo: Repo) -> Result<GithubClient, GithubError> {
        let mut redactor = Redactor::default();
        let auth_kind = config.auth.kind();
        // octocrab is never given the URL's `user:password@` (its spans
        // log `http.url=`); the client authenticates itself (a token or
        // the App's), so the userinfo is not sent at all.
        let url = lane_core::secret::without_userinfo(&check_url(&config.api_url)?);
        let transport = |message: String| GithubError::Transport {
            method: "BUILD".into(),
            path: "/".into(),
            message,
        };
        let (crab, login) = match &config.auth {
            Auth::Token(t) => {
                redactor.add(t.expose());
                let crab = Octocrab::builder()
                    .base_uri(url.as_str())
                    .map_err(|_| invalid_url(&url))?
                    .personal_token(t.expose().to_owned())
                    .build()
                    .map_err(|e| transport(redactor.clean(&e.to_string())))?;
                (crab, config.login.clone())
            }
            Auth::App {
                app_id,
                private_key,
                installation_id,
            } => {
                redactor.add(private_key.expose());
                let key = octocrab::EncodingKey::from_rsa_pem(private_key.expose().as_bytes())
                    .map_err(|_| GithubError::InvalidAppKey)?;
                let app = Octocrab::builder()
                    .base_uri(url.as_str())
                    .map_err(|_| invalid_url(&url))?
                    .app(AppId(*app_id), key)
                    .build()
                    .map_err(|e| transport(redactor.clean(&e.to_string())))?;
                let mut probe = GithubClient {
                    crab: app,
                    repo: repo.clone(),
                    retry: config.retry.clone(),
                    redactor: redactor.clone(),
                    login: None,
                    api_url: url.clone(),
                    auth_kind,
                };
                let installation = match installation_id {
                    Some(id) => *id,
                    None => {
                        let path = format!("/repos/{}/{}/installation", repo.owner, repo.name);
                        let v = probe.send_json(Method::GET, &path, None).await?;
                        v.get("id")
                            .and_then(Value::as_u64)
                            .ok_or_else(|| GithubError::Decode {
                                method: "GET".into(),
                                path: path.clone(),
                                message: "no installation id".into(),
                            })?
                    }
                };
                let login = match &config.login {
                    Some(l) => Some(l.clone()),
                    None => probe
                        .send_json(Method::GET, "/app", None)
                        .await
                        .ok()
                        .and_then(|v| {
                            v.get("slug")
                                .and_then(Value::as_str)
                                .map(|s| format!("{s}[bot]"))
                        }),
                };
                let (crab, token) = probe
                    .crab
                    .installation_and_token(InstallationId(installation))
                    .await
                    .map_err(|e| GithubError::Transport {
                        method: "POST".into(),
                        path: format!("/app/installations/{installation}/access_tokens"),
                        message: redactor.clean(&octocrab_message(&e)),
                    })?;
                redactor.add(octocrab::secrecy::ExposeSecret::expose_secret(&token));
                probe.crab = crab;
                (probe.crab, login)
            }
        };
        let mut client = GithubClient {
            crab,
            repo,
            retry: config.retry,
            redactor,
            login,
            api_url: url,
            auth_kind,
        };
        if client.login.is_none() && auth_kind == "token" {
            // GITHUB_TOKEN in Actions may not read /user; then comments are
            // matched by marker and author of the oldest one.
            client.login = client
                .send_json(Method::GET, "/user", None)
                .await
                .ok()
                .and_then(|v| v.get("login").and_then(Value::as_str).map(str::to_owned));
        }
        tracing::debug!(client = ?client, "github client ready");
        Ok(client)
    }

    /// The repository this client posts to.
    pub fn repo(&self) -> &Repo {
        &self.repo
    }

    /// Sends and decodes a JSON answer (2xx only).
    pub(crate) async fn send_json(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, GithubError> {
        let answer = self.send(method.clone(), path, body).await?;
        answer.json(&method, path)
    }

    /// Sends one request with the retry policy; a 2xx answer or an error.
    pub(crate) async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Answer, GithubError> {
        let idempotent = method != Method::POST;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let sent = match method.as_str() {
                "GET" => self.crab._get(path).await,
                "POST" => self.crab._post(path, body).await,
                "PATCH" => self.crab._patch(path, body).await,
                "DELETE" => self.crab._delete(path, body).await,
                other => unreachable!("lane sends no {other}"),
            };
            let response = match sent {
                Ok(r) => r,
                Err(e) => {
                    let message = self.redactor.clean(&octocrab_message(&e));
                    tracing::warn!(%method, path, attempt, %message, "request failed");
                    if idempotent && attempt < self.retry.max_attempts {
                        tokio::time::sleep(self.backoff(attempt)).await;
                        continue;
                    }
                    return Err(GithubError::Transport {
                        method: method.to_string(),
                        path: path.to_owned(),
                        message,
                    });
                }
            };
            let status = response.status();
            let headers = response.headers().clone();
            let text = self.crab.body_to_string(response).await.unwrap_or_default();
            tracing::debug!(%method, path, status = status.as_u16(), attempt, "github answered");
            if status.is_success() {
                return Ok(Answer { body: text });
            }
            let rate_limited = is_rate_limited(status, &headers, &text);
            let retryable = rate_limited || (status.is_server_error() && idempotent);
            if !retryable {
                return Err(self.status_error(&method, path, status, &text));
            }
            if attempt >= self.retry.max_attempts {
                return Err(GithubError::RetriesExhausted {
                    method: method.to_string(),
                    path: path.to_owned(),
                    attempts: attempt,
                    status: status.as_u16(),
                });
            }
            let wait = wait_for(&headers, now_epoch()).unwrap_or_else(|| self.backoff(attempt));
            if wait > self.retry.max_wait {
                return Err(GithubError::RateLimitTooLong {
                    method: method.to_string(),
                    path: path.to_owned(),
                    wait_s: wait.as_secs(),
                    max_wait_s: self.retry.max_wait.as_secs(),
                });
            }
            tracing::info!(%method, path, status = status.as_u16(), wait_ms = wait.as_millis() as u64, "retrying");
            tokio::time::sleep(wait).await;
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        self.retry
            .backoff
            .saturating_mul(1 << (attempt.saturating_sub(1)).min(10))
            .min(self.retry.max_wait)
    }

    pub(crate) fn status_error(
        &self,
        method: &Method,
        path: &str,
        status: StatusCode,
        text: &str,
    ) -> GithubError {
        let message = serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| text.chars().take(200).collect());
        GithubError::Status {
            method: method.to_string(),
            path: path.to_owned(),
            status: status.as_u16(),
            message: self.redactor.clean(&message),
        }
    }
}

/// octocrab's error with its sources, one line.
fn octocrab_message(e: &octocrab::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

fn header_u64(headers: &HeaderMap, name: &str) -> Option<u64> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

/// 429, or a 403 that is a rate limit (secondary: `retry-after`; primary:
/// `x-ratelimit-remaining: 0`; or GitHub's message saying so).
fn is_rate_limited(status: StatusCode, headers: &HeaderMap, body: &str) -> bool {
    if status == StatusCode::TOO_MANY_REQUESTS {
        return true;
    }
    status == StatusCode::FORBIDDEN
        && (headers.contains_key("retry-after")
            || header_u64(headers, "x-ratelimit-remaining") == Some(0)
            || body.to_ascii_lowercase().contains("rate limit"))
}

/// How long GitHub asks to wait: `Retry-After` seconds, else until
/// `x-ratelimit-reset` (epoch seconds) when `x-ratelimit-remaining` is 0.
pub(crate) fn wait_for(headers: &HeaderMap, now: u64) -> Option<Duration> {
    if let Some(s) = header_u64(headers, "retry-after") {
        return Some(Duration::from_secs(s));
    }
    if header_u64(headers, "x-ratelimit-remaining") == Some(0) {
        let reset = header_u64(headers, "x-ratelimit-reset")?;
        return Some(Duration::from_secs(reset.saturating_sub(now) + 1));
    }
    None
}

fn now_epoch() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "7".parse().unwrap());
        assert_eq!(wait_for(&h, 0), Some(Duration::from_secs(7)));
        let mut h = HeaderMap::new();
        h.insert("x-ratelimit-remaining", "0".parse().unwrap());
        h.insert("x-ratelimit-reset", "1010".parse().unwrap());
        assert_eq!(wait_for(&h, 1000), Some(Duration::from_secs(11)));
        assert!(is_rate_limited(StatusCode::FORBIDDEN, &h, ""));
        assert!(!is_rate_limited(
            StatusCode::FORBIDDEN,
            &HeaderMap::new(),
            "nope"
        ));
    }
}
