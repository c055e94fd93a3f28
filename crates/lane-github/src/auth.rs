//! Credentials: a token (`GITHUB_TOKEN`) or a GitHub App (app id and RSA
//! private key, exchanged for an installation token), and the redaction
//! that keeps them out of every message.

pub use lane_core::Secret;

/// How lane authenticates.
#[derive(Clone, Debug)]
pub enum Auth {
    /// A token sent as `Authorization: Bearer` (`GITHUB_TOKEN`, a PAT).
    Token(Secret),
    /// A GitHub App: a JWT (RS256) signed with the private key is exchanged
    /// for an installation token
    /// (`POST /app/installations/{id}/access_tokens`).
    App {
        /// The App's id.
        app_id: u64,
        /// The App's RSA private key, PEM.
        private_key: Secret,
        /// The installation; looked up from the repository
        /// (`GET /repos/{owner}/{repo}/installation`) when absent.
        installation_id: Option<u64>,
    },
}

impl Auth {
    /// Credentials from the environment: `GITHUB_TOKEN`, else
    /// `LANE_GITHUB_APP_ID` + `LANE_GITHUB_APP_KEY` (the PEM itself) and
    /// optionally `LANE_GITHUB_APP_INSTALLATION_ID`. `None` when neither.
    pub fn from_env() -> Option<Auth> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        if let Some(t) = var("GITHUB_TOKEN") {
            return Some(Auth::Token(Secret::new(t.trim())));
        }
        let app_id = var("LANE_GITHUB_APP_ID")?.trim().parse().ok()?;
        let key = var("LANE_GITHUB_APP_KEY")?;
        Some(Auth::App {
            app_id,
            private_key: Secret::new(key),
            installation_id: var("LANE_GITHUB_APP_INSTALLATION_ID")
                .and_then(|v| v.trim().parse().ok()),
        })
    }

    /// `token` or `app`, for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Auth::Token(_) => "token",
            Auth::App { .. } => "app",
        }
    }
}

/// Replaces every known secret in a message with `***`.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    secrets: Vec<String>,
}

impl Redactor {
    pub(crate) fn add(&mut self, secret: &str) {
        // Very short values would redact ordinary words; tokens are long.
        if secret.len() >= 8 && !self.secrets.iter().any(|s| s == secret) {
            self.secrets.push(secret.to_owned());
            // A PEM is also redacted line by line.
            for line in secret.lines().map(str::trim).filter(|l| l.len() >= 16) {
                self.secrets.push(line.to_owned());
            }
        }
    }

    pub(crate) fn clean(&self, message: &str) -> String {
        let mut out = message.to_owned();
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), "***");
            }
        }
        // Whatever else looks like a GitHub token goes too.
        redact_token_shapes(&out)
    }
}

/// Blanks anything shaped like a GitHub token (`ghp_…`, `ghs_…`,
/// `github_pat_…`) or a bearer credential.
fn redact_token_shapes(s: &str) -> String {
    let prefixes = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    'outer: while !rest.is_empty() {
        for p in prefixes {
            if rest.starts_with(p) {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                out.push_str("***");
                rest = &rest[end..];
                continue 'outer;
            }
        }
        let c = rest.chars().next().expect("non-empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_print() {
        let s = Secret::new("ghp_abcdefghijklmnop");
        assert_eq!(format!("{s}"), "***");
        assert!(!format!("{s:?}").contains("abcdef"));
        let a = Auth::Token(s);
        assert!(!format!("{a:?}").contains("abcdef"));
    }

    #[test]
    fn redaction() {
        let mut r = Redactor::default();
        r.add("sekrit-value-123");
        assert_eq!(r.clean("x sekrit-value-123 y"), "x *** y");
        assert_eq!(r.clean("token ghs_AbC123 end"), "token *** end");
    }
}
