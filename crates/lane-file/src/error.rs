//! The one error a lane file can produce: where, and what was expected.

use std::fmt;

/// A lane file that cannot be used, with the position of the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LaneFileError {
    /// The file as named by the caller (e.g. `lanes/0.93.3.yaml`).
    pub file: String,
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column of the problem.
    pub column: usize,
    /// The key path of the problem when known (`picks[1].commit`).
    pub path: Option<String>,
    /// What was wrong and what was expected, lower case.
    pub message: String,
}

impl fmt::Display for LaneFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(p) = &self.path {
            write!(f, "{p}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl LaneFileError {
    /// Builds an error from serde_yaml's, keeping its position and key path
    /// and dropping its own " at line L column C" suffix.
    pub(crate) fn from_yaml(file: &str, err: &serde_yaml::Error) -> Self {
        let (line, column) = err
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((1, 1));
        let mut text = err.to_string();
        if let Some(i) = text.rfind(" at line ") {
            text.truncate(i);
        }
        // serde_yaml prefixes the key path ("picks[1]: unknown field …").
        let (path, message) = match split_path(&text) {
            Some((p, m)) => (Some(p.to_owned()), m.to_owned()),
            None => (None, text.clone()),
        };
        let message = if message.contains("EOF while parsing") {
            "the file is empty: expected a mapping with `version`, `upstream`, `base`".to_owned()
        } else {
            message
        };
        LaneFileError {
            file: file.to_owned(),
            line,
            column,
            path,
            message: lower_first(&message),
        }
    }
}

fn split_path(text: &str) -> Option<(&str, &str)> {
    let (head, tail) = text.split_once(": ")?;
    let looks_like_path = !head.is_empty()
        && !head.contains(' ')
        && head
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.[]".contains(c));
    looks_like_path.then_some((head, tail))
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if f.is_uppercase() && !c.clone().next().is_some_and(char::is_uppercase) => {
            f.to_lowercase().chain(c).collect()
        }
        _ => s.to_owned(),
    }
}
