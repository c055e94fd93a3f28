//! Validated scalars of a lane file. Each one checks its value inside the
//! YAML deserializer's visitor, so a bad value is reported at its own
//! line:column (an error raised after `deserialize` returns would only carry
//! the position of the enclosing mapping).

use lane_core::string_scalar;

/// The lane version is lane-core's one type; the lane file names it here.
pub use lane_core::LaneVersion;

/// A commit id: 7 to 40 hexadecimal digits (an abbreviation is resolved and
/// must be unambiguous).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommitId(String);

impl CommitId {
    /// Parses a full or abbreviated hexadecimal commit id.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = (7..=40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit());
        if ok {
            Ok(CommitId(s.to_ascii_lowercase()))
        } else {
            Err(format!(
                "expected a commit id of 7 to 40 hexadecimal digits, found `{s}`"
            ))
        }
    }
    /// The id as written (lower case).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

string_scalar!(
    CommitId,
    "a commit id of 7 to 40 hexadecimal digits",
    {
        "type": "string",
        "pattern": "^[0-9a-fA-F]{7,40}$",
        "description": "A commit id, full or abbreviated (7 to 40 hexadecimal digits)."
    }
);

/// A git ref short name (tag or branch), checked against git's ref-name rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RefName(String);

impl RefName {
    /// Checks `s` against the rules of `git check-ref-format`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = s.is_empty()
            || s.starts_with('-')
            || s.starts_with('/')
            || s.ends_with('/')
            || s.ends_with('.')
            || s.ends_with(".lock")
            || s.contains("..")
            || s.contains("@{")
            || s.contains("//")
            || s == "@"
            || s.chars().any(|c| c.is_control() || " ~^:?*[\\".contains(c))
            || s.split('/').any(|part| part.starts_with('.'));
        if bad {
            Err(format!(
                "expected a git ref name (no spaces, `..`, `~^:?*[\\`, leading `-`), found `{s}`"
            ))
        } else {
            Ok(RefName(s.to_owned()))
        }
    }
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

string_scalar!(
    RefName,
    "a git branch or tag name",
    {
        "type": "string",
        "minLength": 1,
        "pattern": "^[^-/ ~^:?*\\[\\\\][^ ~^:?*\\[\\\\]*$",
        "description": "A git branch or tag name (git check-ref-format rules)."
    }
);

/// A path inside the upstream repository: relative, `/`-separated, no `..`.
/// A trailing `/` marks a folder (`proto/`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RepoPath(String);

impl RepoPath {
    /// Checks that `s` is a relative path inside the repository.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = s.is_empty()
            || s.starts_with('/')
            || s.contains('\\')
            || s.contains('\0')
            || s.split('/').any(|p| p == ".." || p == ".");
        if bad {
            Err(format!(
                "expected a relative path inside the repository (no leading `/`, no `..`), found `{s}`"
            ))
        } else {
            Ok(RepoPath(s.to_owned()))
        }
    }
    /// The path as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The path without a trailing `/`.
    pub fn trimmed(&self) -> &str {
        self.0.trim_end_matches('/')
    }
    /// Whether `path` (a file path in the repository) is this path or lies under it.
    pub fn covers(&self, path: &str) -> bool {
        let me = self.trimmed();
        path == me
            || (path.len() > me.len() && path.starts_with(me) && path.as_bytes()[me.len()] == b'/')
    }
}

string_scalar!(
    RepoPath,
    "a relative path inside the repository",
    {
        "type": "string",
        "minLength": 1,
        "pattern": "^[^/\\\\]",
        "description": "A path inside the upstream repository, relative, `/`-separated; a trailing `/` marks a folder."
    }
);

/// A regular expression (Rust `regex` syntax), matched in multi-line mode:
/// `^` and `$` match at line boundaries.
#[derive(Debug, Clone)]
pub struct Pattern {
    text: String,
    regex: regex::Regex,
}

impl Pattern {
    /// Compiles `s` with multi-line mode on.
    pub fn parse(s: &str) -> Result<Self, String> {
        let regex = regex::RegexBuilder::new(s)
            .multi_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| format!("expected a regular expression, found `{s}`: {e}"))?;
        Ok(Pattern {
            text: s.to_owned(),
            regex,
        })
    }
    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The compiled expression.
    pub fn regex(&self) -> &regex::Regex {
        &self.regex
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

string_scalar!(
    Pattern,
    "a regular expression",
    {
        "type": "string",
        "format": "regex",
        "description": "A regular expression (Rust regex syntax), multi-line: ^ and $ match at line boundaries."
    }
);

/// A name that is safe as a folder name, a label value and part of a Job
/// name: 1 to 63 of letters, digits, `.`, `_`, `-`, starting with a letter or digit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(String);

impl Name {
    /// Checks `s`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = (1..=63).contains(&s.len())
            && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if ok {
            Ok(Name(s.to_owned()))
        } else {
            Err(format!(
                "expected a name of 1 to 63 letters, digits, `.`, `_`, `-` (starting with a letter or digit), found `{s}`"
            ))
        }
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

string_scalar!(
    Name,
    "a name of letters, digits, `.`, `_`, `-`",
    {
        "type": "string",
        "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$",
        "description": "A name usable as a folder, label value and Job name part."
    }
);

/// A one-line text a person wrote for others to read (a release title): at
/// most 500 characters, with no control characters (NUL, ESC, line breaks)
/// and no bidirectional formatting characters, which would make a heading,
/// a tag message or a terminal line read differently from its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Title(String);

/// Bidirectional formatting characters (the "Trojan Source" set, CVE-2021-42574).
const BIDI: &[char] = &[
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

impl Title {
    /// Checks `s`.
    pub fn parse(s: &str) -> Result<Self, String> {
        if let Some((i, c)) = s
            .chars()
            .enumerate()
            .find(|(_, c)| c.is_control() || BIDI.contains(c))
        {
            return Err(format!(
                "expected one line of text without control or bidirectional formatting characters, found U+{:04X} at character {}",
                c as u32,
                i + 1
            ));
        }
        if s.trim().is_empty() {
            return Err("expected a title, found an empty one (leave `title` out instead)".into());
        }
        let n = s.chars().count();
        if n > 500 {
            return Err(format!(
                "expected a title of at most 500 characters, found {n}"
            ));
        }
        Ok(Title(s.to_owned()))
    }
    /// The title.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

string_scalar!(
    Title,
    "one line of text (a title)",
    {
        "type": "string",
        "minLength": 1,
        "maxLength": 500,
        "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]*$",
        "description": "One line of text: no control or bidirectional formatting characters."
    }
);

/// Text a person wrote, possibly over several lines (a preamble, a
/// fragment): at most 64 KiB, line breaks and tabs allowed, no other control
/// characters and no bidirectional formatting characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Prose(String);

impl Prose {
    /// Checks `s`.
    pub fn parse(s: &str) -> Result<Self, String> {
        if let Some((line, c)) = s.lines().enumerate().find_map(|(i, l)| {
            l.chars()
                .find(|c| (c.is_control() && *c != '\t') || BIDI.contains(c))
                .map(|c| (i + 1, c))
        }) {
            return Err(format!(
                "expected text without control or bidirectional formatting characters, found U+{:04X} on its line {line}",
                c as u32
            ));
        }
        if s.contains('\r') {
            return Err("expected text with LF line breaks, found a CR".into());
        }
        if s.len() > 64 * 1024 {
            return Err(format!(
                "expected at most 64 KiB of text, found {} bytes",
                s.len()
            ));
        }
        Ok(Prose(s.to_owned()))
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

string_scalar!(
    Prose,
    "text",
    {
        "type": "string",
        "maxLength": 65536,
        "description": "Text, possibly over several lines: no control characters but line breaks and tabs."
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_with_control_or_bidi_characters_is_refused() {
        for bad in [
            "a\0b",
            "a\u{1b}[31mred",
            "line\nbreak",
            "abc\u{202E}cba",
            "x\u{2066}y",
            "",
        ] {
            assert!(Title::parse(bad).is_err(), "{bad:?}");
        }
        let e = Title::parse("ok\u{202E}").unwrap_err();
        assert!(e.contains("U+202E at character 3"), "{e}");
        assert_eq!(
            Title::parse("the worker accepts cell-receipt-v2 (th#1678) — ok")
                .unwrap()
                .as_str(),
            "the worker accepts cell-receipt-v2 (th#1678) — ok"
        );
    }

    #[test]
    fn version_refuses_tag_spelling() {
        assert!(LaneVersion::parse("v0.93.3").is_err());
        assert!(LaneVersion::parse("0.93").is_err());
        assert_eq!(LaneVersion::parse("0.93.3").unwrap().as_str(), "0.93.3");
    }

    #[test]
    fn commit_ids_are_hex_of_sane_length() {
        assert!(CommitId::parse("d322e547ffd013d890a4fd268f0a9b5a63b741af").is_ok());
        assert!(CommitId::parse("d322e54").is_ok());
        assert!(CommitId::parse("d322e5").is_err());
        assert!(CommitId::parse("zzzzzzzz").is_err());
    }

    #[test]
    fn ref_names_follow_git_rules() {
        assert!(RefName::parse("release/0.93.3").is_ok());
        assert!(RefName::parse("v0.93.2").is_ok());
        for bad in ["", "-x", "a..b", "a b", "a.lock", "a/", "a~1", "a/.hidden"] {
            assert!(RefName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn repo_path_covers_folder_members_only() {
        let p = RepoPath::parse("proto/").unwrap();
        assert!(p.covers("proto/worker_scheduler.proto"));
        assert!(p.covers("proto"));
        assert!(!p.covers("protobuf/x"));
        assert!(RepoPath::parse("../etc").is_err());
        assert!(RepoPath::parse("/abs").is_err());
    }

    #[test]
    fn patterns_are_multi_line() {
        let p = Pattern::parse(r"^package cozy\.scheduler;$").unwrap();
        assert!(p
            .regex()
            .is_match("syntax = \"proto3\";\npackage cozy.scheduler;\n"));
        assert!(!p.regex().is_match("package cozy.scheduler.v1;\n"));
    }
}
