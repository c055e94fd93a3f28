//! How a cut writes the changelog, in the upstream's ways: its own
//! assembler (`scripts/assemble_changelog.py`), lane's built-in one in the
//! same format, or none; and what a person adds at the cut (a preamble,
//! fragments owed or edited, fragments renamed or dropped, sections folded
//! in from other releases).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::scalar::{LaneVersion, Prose, RefName, RepoPath};

/// How the changelog is assembled: fragments collapse into a new section.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Changelog {
    /// The changelog file.
    #[serde(
        default = "default_changelog_file",
        skip_serializing_if = "is_default_file"
    )]
    pub file: RepoPath,
    /// The folder of fragments, one per issue.
    #[serde(
        default = "default_fragments",
        skip_serializing_if = "is_default_fragments"
    )]
    pub fragments: RepoPath,
    /// A fragment's file name, with `{issue}` standing for the issue number.
    #[serde(
        default = "default_fragment_name",
        skip_serializing_if = "is_default_fragment_name"
    )]
    pub fragment_name: String,
    /// Who assembles: `auto` (the tree's own assembler when it has one,
    /// else lane's), `tree`, `builtin`, or `none` (the cut writes no section).
    #[serde(default, skip_serializing_if = "is_default")]
    pub assemble: Assemble,
    /// The tree's own assembler, run as `python3 <assembler> --version V
    /// --date D [--headline TITLE]` in an export of the cut's tree.
    #[serde(
        default = "default_assembler",
        skip_serializing_if = "is_default_assembler"
    )]
    pub assembler: RepoPath,
    /// For lane's assembler: the picks' fragments, or every pending one.
    #[serde(default, skip_serializing_if = "is_default")]
    pub take: Take,
    /// For lane's assembler: consumed fragments are deleted, or recorded in
    /// `<fragments>/consumed.tsv` (`<version>\t<stem>`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub consumed: Consumed,
    /// The section's date (`YYYY-MM-DD`); default: `lane cut --date`, else today.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Date>,
    /// Text placed right below the section's heading, above the fragments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preamble: Option<Prose>,
    /// Fragments written (or rewritten) at the cut, before assembly: an
    /// entry owed by a change that carried none, or a fragment edited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub write: Vec<FragmentText>,
    /// Fragments renamed before assembly (a name the assembler refuses).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rename: Vec<Rename>,
    /// Fragments removed without being assembled (already shipped elsewhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop: Vec<RepoPath>,
    /// Sections of other releases folded in from another ref's changelog
    /// (an off-master release's notes brought onto this line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fold: Vec<Fold>,
}

/// Who assembles the section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Assemble {
    /// The tree's own assembler when the tree has it, else lane's.
    #[default]
    Auto,
    /// The tree's own assembler (its rules are the upstream's); refused when absent.
    Tree,
    /// lane's assembler, in the upstream's format.
    Builtin,
    /// No section: the cut changes only the version files.
    None,
}

/// Which fragments lane's assembler takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Take {
    /// The picks' fragments (by issue number).
    #[default]
    Picks,
    /// Every pending fragment in the folder (a cut off master takes them all).
    Pending,
}

/// What lane's assembler does with a fragment it assembled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Consumed {
    /// Delete it.
    #[default]
    Delete,
    /// Keep it and record `<version>\t<stem>` in `consumed.tsv` (0.115 on).
    Tsv,
}

/// A fragment's text written at the cut.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FragmentText {
    /// The fragment's path (inside the fragments folder).
    pub path: RepoPath,
    /// Its text.
    pub text: Prose,
}

/// A fragment renamed before assembly.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    /// The fragment's path.
    pub from: RepoPath,
    /// Its new path.
    pub to: RepoPath,
}

/// A release section folded in from another ref's changelog.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fold {
    /// The ref whose changelog holds the section (e.g. `v0.95.0`).
    pub from: RefName,
    /// The release whose section is folded in.
    pub version: LaneVersion,
}

/// A calendar date, `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(transparent)]
#[schemars(transparent)]
pub struct Date(#[schemars(regex(pattern = r"^\d{4}-\d{2}-\d{2}$"))] String);

impl Date {
    /// Parses `YYYY-MM-DD` (a real calendar date).
    pub fn parse(s: &str) -> Result<Date, String> {
        let b = s.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        let shaped = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && digits(0..4)
            && digits(5..7)
            && digits(8..10);
        let valid = shaped && {
            let (y, m, d): (u32, u32, u32) = (
                s[0..4].parse().unwrap_or(0),
                s[5..7].parse().unwrap_or(0),
                s[8..10].parse().unwrap_or(0),
            );
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let days = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            (1..=12).contains(&m) && d >= 1 && d <= days[(m - 1) as usize]
        };
        if valid {
            Ok(Date(s.to_owned()))
        } else {
            Err(format!("expected a date YYYY-MM-DD, found `{s}`"))
        }
    }
    /// The date as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Date::parse(&s).map_err(serde::de::Error::custom)
    }
}

// Defaults are left out when a lane file is written (`lane init`).
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn is_default_file(p: &RepoPath) -> bool {
    *p == default_changelog_file()
}
fn is_default_fragments(p: &RepoPath) -> bool {
    *p == default_fragments()
}
fn is_default_fragment_name(n: &String) -> bool {
    *n == default_fragment_name()
}
fn is_default_assembler(p: &RepoPath) -> bool {
    *p == default_assembler()
}

fn default_changelog_file() -> RepoPath {
    RepoPath::parse("CHANGELOG.md").expect("valid")
}
fn default_fragments() -> RepoPath {
    RepoPath::parse("changelog.d/").expect("valid")
}
fn default_fragment_name() -> String {
    "pgw{issue}.md".to_owned()
}
fn default_assembler() -> RepoPath {
    RepoPath::parse("scripts/assemble_changelog.py").expect("valid")
}

impl Changelog {
    /// A changelog with every default (`changelog: {}`).
    pub fn defaults() -> Changelog {
        Changelog {
            file: default_changelog_file(),
            fragments: default_fragments(),
            fragment_name: default_fragment_name(),
            assemble: Assemble::Auto,
            assembler: default_assembler(),
            take: Take::Picks,
            consumed: Consumed::Delete,
            date: None,
            preamble: None,
            write: Vec::new(),
            rename: Vec::new(),
            drop: Vec::new(),
            fold: Vec::new(),
        }
    }

    /// The path of the fragment of `issue`.
    pub fn fragment_path(&self, issue: u64) -> String {
        format!(
            "{}/{}",
            self.fragments.trimmed(),
            self.fragment_name.replace("{issue}", &issue.to_string())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_calendar_days() {
        assert!(Date::parse("2026-08-13").is_ok());
        assert!(Date::parse("2024-02-29").is_ok());
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-8-13",
            "13-08-2026",
            "2026-08-00",
        ] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_empty_changelog_mapping_takes_every_default() {
        let c: Changelog = serde_yaml::from_str("{}").unwrap();
        assert_eq!(c.assemble, Assemble::Auto);
        assert_eq!(c.fragment_path(989), "changelog.d/pgw989.md");
        assert_eq!(c.assembler.as_str(), "scripts/assemble_changelog.py");
    }
}
