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
        // The problem's own mark is the `file:line:column` prefix already;
        // the parser's context mark ("while parsing a flow sequence at line
        // 3 column 9") is kept, since it says where the unclosed thing began.
        let mark = format!(" at line {line} column {column}");
        match text.find(&mark) {
            Some(i) => text.replace_range(i..i + mark.len(), ""),
            None => {
                if let Some(i) = text.rfind(" at line ") {
                    text.truncate(i);
                }
            }
        }
        if let Some(w) = text.find(", while ") {
            if let Some(a) = text[w..].find(" at line ") {
                text.insert_str(w + a, " that starts");
            }
        }
        // serde_yaml prefixes the key path ("picks[1]: unknown field …").
        let (path, message) = match split_path(&text) {
            Some((p, m)) => (Some(p.to_owned()), m.to_owned()),
            None => (None, text.clone()),
        };
        let message = if message.contains("EOF while parsing") {
            "the file is empty: expected a mapping with `version`, `upstream`, `base`".to_owned()
        } else {
            plain(&message)
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

/// serde's words in plain ones, and never the foreign value an
/// "invalid type" quotes: a file that is not a lane file (a `.env`) must
/// not be echoed. `invalid type: string "GITHUB_TOKEN=…", expected struct
/// LaneFile` becomes `expected a lane file (a mapping with `version`,
/// `upstream` and `base`), found a string`.
fn plain(message: &str) -> String {
    let Some(rest) = message.strip_prefix("invalid type: ") else {
        return message.replace("struct LaneFile", "a lane file");
    };
    let Some((found, expected)) = rest.rsplit_once(", expected ") else {
        return message.to_owned();
    };
    // `string "…"`, `integer `7``, `map`: the kind, without the value.
    let kind = found.split([' ', '`', '"']).next().unwrap_or(found);
    let expected = match expected.strip_prefix("struct ") {
        Some("LaneFile") => {
            "a lane file (a mapping with `version`, `upstream` and `base`)".to_owned()
        }
        Some(_) => "a mapping".to_owned(),
        None => match expected {
            "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number, 0 or more".to_owned(),
            "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_owned(),
            "f32" | "f64" => "a number".to_owned(),
            other => other.to_owned(),
        },
    };
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("expected {expected}, found {article} {kind}")
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

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn an_invalid_type_names_kinds_not_the_foreign_value() {
        assert_eq!(
            plain("invalid type: string \"GITHUB_TOKEN=ghp_sekrit\", expected struct LaneFile"),
            "expected a lane file (a mapping with `version`, `upstream` and `base`), found a string"
        );
        assert_eq!(
            plain("invalid type: integer `7`, expected a sequence"),
            "expected a sequence, found an integer"
        );
        assert_eq!(
            plain("invalid type: sequence, expected struct Cell"),
            "expected a mapping, found a sequence"
        );
        assert_eq!(plain("unknown field `isue`"), "unknown field `isue`");
    }
}
