//! The `lane` binary end to end: exit codes, `--json`, and what a person sees.

mod adversary;
mod cut;
mod demo;
mod diff;
mod faults;
mod help;
mod history;
mod html;
mod init;
mod kube;
mod ledger;
mod lock;
mod mint;
mod proof;
mod repair;
mod report;
mod secrets;
#[cfg(feature = "serve")]
mod serve;
mod standin;
mod streams;
mod warm;
mod wheel;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `lane` with `args` in `dir`.
pub fn lane(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(args)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .output()
        .expect("the lane binary runs")
}

/// Its exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed")
}

/// Its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The repository root.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// What varies between machines and runs, replaced by a name so a snapshot
/// holds only what the command decided: the checkout's root (`<ROOT>`), the
/// folders a test made (each under its own name), times, loopback ports,
/// and, where asked, seconds measured and commits made afresh.
pub struct Redact {
    /// Exact texts and their names, longest first when applied.
    paths: Vec<(String, String)>,
    /// Patterns and what each match becomes.
    patterns: Vec<(regex::Regex, &'static str)>,
    /// JSON fields whose value varies by run or machine.
    keys: Vec<String>,
}

impl Default for Redact {
    fn default() -> Redact {
        Redact::new()
    }
}

impl Redact {
    /// The root, RFC 3339 times and loopback ports.
    pub fn new() -> Redact {
        Redact {
            paths: Vec::new(),
            patterns: Vec::new(),
            keys: Vec::new(),
        }
        .dir(Path::new(ROOT), "<ROOT>")
        .pattern(
            r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?",
            "<TIME>",
        )
        .pattern(r"(127\.0\.0\.1|localhost):\d+", "$1:<PORT>")
    }

    /// `dir` (as given and canonical) becomes `name`.
    pub fn dir(mut self, dir: &Path, name: &str) -> Redact {
        let mut forms = vec![dir.display().to_string()];
        if let Ok(c) = dir.canonicalize() {
            forms.push(c.display().to_string());
        }
        for f in forms {
            if !f.is_empty() && !self.paths.iter().any(|(p, _)| *p == f) {
                self.paths.push((f, name.to_owned()));
            }
        }
        self.paths.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        self
    }

    /// Matches of `re` become `with` (`$1` names a group).
    pub fn pattern(mut self, re: &str, with: &'static str) -> Redact {
        self.patterns
            .push((regex::Regex::new(re).expect("a valid pattern"), with));
        self
    }

    /// Seconds measured on this run, as text shows them (`1.234 s`).
    pub fn seconds(self) -> Redact {
        self.pattern(r"\b\d+\.\d+ s\b", "<S> s")
    }

    /// JSON fields (by name, at any depth) whose value varies by run or
    /// machine: [`Redact::json`] shows them as `"<name>"`.
    pub fn keys(mut self, keys: &[&str]) -> Redact {
        self.keys.extend(keys.iter().map(|k| (*k).to_owned()));
        self
    }

    /// Commit ids (full, and the 12-digit short form) made by this run.
    pub fn shas(self) -> Redact {
        self.pattern(r"\b[0-9a-f]{40}\b", "<SHA>")
            .pattern(r"\b[0-9a-f]{12}\b", "<SHORT>")
    }

    /// One JSON document as printed (pretty, in lane's key order), with the
    /// value of each field [`Redact::keys`] names, a scalar or a whole
    /// object or array, shown as `"<name>"`; then as [`Redact::apply`].
    pub fn json(&self, text: &str) -> String {
        serde_json::from_str::<serde_json::Value>(text)
            .unwrap_or_else(|e| panic!("not one JSON document ({e}): {text}"));
        let mut out = String::new();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let indent = &line[..line.len() - line.trim_start().len()];
            let named = self.keys.iter().find_map(|k| {
                let rest = line.trim_start().strip_prefix(&format!("\"{k}\": "))?;
                Some((k, rest))
            });
            let Some((k, rest)) = named.filter(|(_, rest)| !rest.starts_with("null")) else {
                out.push_str(line);
                out.push('\n');
                continue;
            };
            let mut comma = rest.ends_with(',');
            if rest == "{" || rest == "[" {
                // A pretty object or array ends at its indent's closing line.
                for inner in lines.by_ref() {
                    if inner.starts_with(indent)
                        && matches!(inner[indent.len()..].trim_end_matches(','), "}" | "]")
                    {
                        comma = inner.ends_with(',');
                        break;
                    }
                }
            }
            out.push_str(&format!(
                "{indent}\"{k}\": \"<{k}>\"{}\n",
                if comma { "," } else { "" }
            ));
        }
        self.apply(&out)
    }

    /// `text` with everything named replaced.
    pub fn apply(&self, text: &str) -> String {
        let mut s = text.to_owned();
        for (p, name) in &self.paths {
            s = s.replace(p.as_str(), name);
        }
        for (re, with) in &self.patterns {
            s = re.replace_all(&s, *with).into_owned();
        }
        s
    }
}

/// `lane report` of a recorded results folder (`results`, relative to the
/// workspace) as lane `version`, judged against a fresh history store in
/// `dir`.
pub fn report_with_history(dir: &Path, version: &str, results: &str) -> Output {
    let lane_file = format!("{ROOT}/lanes/{version}.yaml");
    let results = format!("{ROOT}/{results}");
    let store = dir.join("store").display().to_string();
    lane(
        dir,
        &[
            "report",
            &lane_file,
            "--results",
            &results,
            "--history",
            &store,
        ],
    )
}
