//! The grammar of a comment: which line is the `/lane` command, and what
//! it asks.
//!
//! The command is the first line that starts (after leading whitespace)
//! with the word `/lane` (`/lanes` is not it), outside fenced code blocks
//! (```` ``` ```` or `~~~`) and quotes (`>`), so quoting someone's command
//! does not run it. The line is split on ASCII whitespace, never by a
//! shell, and read strictly:
//!
//! ```text
//! /lane mint <MAJOR.MINOR.PATCH> [--cell NAME]... [--gpu CLASS]...
//! /lane status
//! /lane cancel
//! /lane diff <cell> <gpu>
//! /lane help          (and a bare /lane)
//! ```
//!
//! Work is bounded: a comment over [`MAX_COMMENT_BYTES`] is only searched
//! that far, and its command (if any) refused; a command line over
//! [`MAX_COMMAND_LINE_BYTES`] is refused unread.

mod grammar;
mod scan;

use crate::Foreign;
use lane_core::LaneVersion;
use std::fmt;

/// The longest comment lane reads a command from (64 KiB). GitHub's own
/// cap is 65,536 characters, which multi-byte text can take past this.
pub const MAX_COMMENT_BYTES: usize = 64 * 1024;

/// The longest `/lane` line lane reads (1 KiB).
pub const MAX_COMMAND_LINE_BYTES: usize = 1024;

/// What a comment asks of lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentCommand {
    /// No `/lane` line: an ordinary comment.
    None,
    /// A command lane understood.
    Command(Command),
    /// A `/lane` line lane did not understand: answered with
    /// [`help_text`] and the error.
    Invalid(CommandError),
}

/// A command lane understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/lane mint <version> [--cell NAME]... [--gpu CLASS]...`.
    Mint(Mint),
    /// `/lane status`: where every mint stands.
    Status,
    /// `/lane cancel`: stop the lane's mints.
    Cancel,
    /// `/lane diff <cell> <gpu>`: the determinism diff of one cell on one
    /// GPU class.
    Diff {
        /// The cell.
        cell: CellName,
        /// The GPU class.
        gpu: GpuClass,
    },
    /// `/lane help`, or a bare `/lane`.
    Help,
}

/// `/lane mint`: mint a lane, or some of its cells and GPU classes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mint {
    /// The lane.
    pub version: LaneVersion,
    /// `--cell`s, in the order given, each once (empty: every cell).
    pub cells: Vec<CellName>,
    /// `--gpu`s, in the order given, each once (empty: every GPU class).
    pub gpus: Vec<GpuClass>,
}

impl Command {
    /// The subcommand.
    pub fn subcommand(&self) -> Subcommand {
        match self {
            Command::Mint(_) => Subcommand::Mint,
            Command::Status => Subcommand::Status,
            Command::Cancel => Subcommand::Cancel,
            Command::Diff { .. } => Subcommand::Diff,
            Command::Help => Subcommand::Help,
        }
    }
}

impl fmt::Display for Command {
    /// The command in its canonical spelling (`/lane mint 0.93.3 --cell
    /// a`); every word in it was checked, so it is safe to show.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/lane {}", self.subcommand().as_str())?;
        match self {
            Command::Mint(m) => {
                write!(f, " {}", m.version)?;
                for c in &m.cells {
                    write!(f, " --cell {c}")?;
                }
                for g in &m.gpus {
                    write!(f, " --gpu {g}")?;
                }
                Ok(())
            }
            Command::Diff { cell, gpu } => write!(f, " {cell} {gpu}"),
            Command::Status | Command::Cancel | Command::Help => Ok(()),
        }
    }
}

/// A `/lane` subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subcommand {
    /// `mint`.
    Mint,
    /// `status`.
    Status,
    /// `cancel`.
    Cancel,
    /// `diff`.
    Diff,
    /// `help`.
    Help,
}

impl Subcommand {
    /// The word.
    pub fn as_str(self) -> &'static str {
        match self {
            Subcommand::Mint => "mint",
            Subcommand::Status => "status",
            Subcommand::Cancel => "cancel",
            Subcommand::Diff => "diff",
            Subcommand::Help => "help",
        }
    }
}

impl fmt::Display for Subcommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A flag of `/lane mint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flag {
    /// `--cell NAME`.
    Cell,
    /// `--gpu CLASS`.
    Gpu,
}

impl Flag {
    /// The flag as written (`--cell`).
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::Cell => "--cell",
            Flag::Gpu => "--gpu",
        }
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A cell's name in a command: 1 to 64 ASCII letters, digits, `.`, `_` and
/// `-`, starting with a letter or a digit (so it is never a flag, `.` or
/// `..`). Whether the lane has that cell is the server's to check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellName(String);

/// A GPU class in a command: 1 to 32 ASCII letters, digits, `_` and `-`,
/// starting with a letter or a digit. Whether the lane has it is the
/// server's to check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GpuClass(String);

fn word_ok(s: &str, max: usize, punctuation: &[u8]) -> bool {
    (1..=max).contains(&s.len())
        && s.as_bytes()[0].is_ascii_alphanumeric()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || punctuation.contains(&b))
}

impl CellName {
    /// Checks a cell name.
    pub fn parse(s: &str) -> Option<CellName> {
        word_ok(s, 64, b"._-").then(|| CellName(s.to_owned()))
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl GpuClass {
    /// Checks a GPU class.
    pub fn parse(s: &str) -> Option<GpuClass> {
        word_ok(s, 32, b"_-").then(|| GpuClass(s.to_owned()))
    }
    /// The class.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for GpuClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a `/lane` line is not understood. The messages are plain words and
/// hold no text the commenter wrote: the word refused is kept as
/// [`Foreign`] ([`CommandError::offending`]) for the server to quote,
/// escaped, if it wants to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The comment is over [`MAX_COMMENT_BYTES`].
    #[error("the comment is {len} bytes, over the {limit}-byte limit for a comment with a /lane command: put the command in a short comment of its own")]
    CommentTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// The `/lane` line is over [`MAX_COMMAND_LINE_BYTES`].
    #[error("the /lane line is {len} bytes, over the {limit}-byte limit")]
    LineTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// The word after `/lane` is not a subcommand.
    #[error("unknown subcommand: /lane takes mint, status, cancel, diff or help")]
    UnknownSubcommand {
        /// The word.
        word: Foreign,
    },
    /// A flag the subcommand does not take.
    #[error("unknown flag for /lane {subcommand}: {}", flags_of(*.subcommand))]
    UnknownFlag {
        /// The subcommand.
        subcommand: Subcommand,
        /// The flag as written.
        flag: Foreign,
    },
    /// A flag without its value.
    #[error("{flag} needs a value: {flag} {} or {flag}={}", flag_value(*.flag), flag_value(*.flag))]
    MissingValue {
        /// The flag.
        flag: Flag,
    },
    /// The subcommand needs an argument that is not there.
    #[error("/lane {subcommand} needs {what}")]
    MissingArgument {
        /// The subcommand.
        subcommand: Subcommand,
        /// What is missing, in words.
        what: &'static str,
    },
    /// An argument the subcommand does not take.
    #[error("too many arguments: {}", usage(*.subcommand))]
    ExtraArgument {
        /// The subcommand.
        subcommand: Subcommand,
        /// The first word too many.
        word: Foreign,
    },
    /// A version that is not `MAJOR.MINOR.PATCH`.
    #[error("invalid version: a lane's version is MAJOR.MINOR.PATCH in digits, such as 0.93.3")]
    InvalidVersion {
        /// The word.
        word: Foreign,
    },
    /// A cell name that is not 1 to 64 letters, digits, `.`, `_`, `-`.
    #[error("invalid cell name: 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit")]
    InvalidCell {
        /// The word.
        word: Foreign,
    },
    /// A GPU class that is not 1 to 32 letters, digits, `_`, `-`.
    #[error(
        "invalid GPU class: 1 to 32 letters, digits, `_` or `-`, starting with a letter or digit"
    )]
    InvalidGpu {
        /// The word.
        word: Foreign,
    },
    /// The same `--cell` or `--gpu` value twice.
    #[error("{flag} `{value}` is given twice")]
    DuplicateValue {
        /// The flag.
        flag: Flag,
        /// The value (checked: letters, digits, `.`, `_`, `-`).
        value: String,
    },
}

impl CommandError {
    /// The word the commenter wrote that was refused, if the error is about
    /// one (raw: escape it where it is shown).
    pub fn offending(&self) -> Option<&Foreign> {
        match self {
            CommandError::UnknownSubcommand { word }
            | CommandError::ExtraArgument { word, .. }
            | CommandError::InvalidVersion { word }
            | CommandError::InvalidCell { word }
            | CommandError::InvalidGpu { word } => Some(word),
            CommandError::UnknownFlag { flag, .. } => Some(flag),
            CommandError::CommentTooLong { .. }
            | CommandError::LineTooLong { .. }
            | CommandError::MissingValue { .. }
            | CommandError::MissingArgument { .. }
            | CommandError::DuplicateValue { .. } => None,
        }
    }
}

fn flags_of(subcommand: Subcommand) -> &'static str {
    match subcommand {
        Subcommand::Mint => "it takes --cell NAME and --gpu CLASS",
        _ => "it takes no flags",
    }
}

fn flag_value(flag: Flag) -> &'static str {
    match flag {
        Flag::Cell => "NAME",
        Flag::Gpu => "CLASS",
    }
}

fn usage(subcommand: Subcommand) -> &'static str {
    match subcommand {
        Subcommand::Mint => "/lane mint takes one version, then --cell NAME and --gpu CLASS flags",
        Subcommand::Status => "/lane status takes no arguments",
        Subcommand::Cancel => "/lane cancel takes no arguments",
        Subcommand::Diff => "/lane diff takes a cell and a GPU class",
        Subcommand::Help => "/lane help takes no arguments",
    }
}

/// What lane answers a `/lane help`, or a command it did not understand
/// (markdown).
pub const HELP: &str = "\
**lane** runs a release lane's mints from a pull request on its `release/<version>` branch.

```text
/lane mint <MAJOR.MINOR.PATCH> [--cell NAME]... [--gpu CLASS]...
/lane status
/lane cancel
/lane diff <cell> <gpu>
/lane help
```

- `mint`: mint the lane (`/lane mint 0.93.3`), or only some of its cells and GPU classes \
(`--cell NAME` or `--cell=NAME`, `--gpu CLASS` or `--gpu=CLASS`, each may repeat, never the same value twice).
- `status`: where every mint of the lane stands.
- `cancel`: stop the lane's mints.
- `diff`: the determinism diff of one cell's two cold compiles on one GPU class.
- `help`: this text (a bare `/lane` too).

The command is the first line of the comment that starts with `/lane`; lines in code blocks \
and quotes are not commands. Editing a comment does not run its command again. Only the \
repository's owners, members and collaborators may run commands.
";

/// [`HELP`]: the markdown answer to `/lane help` and to a command lane did
/// not understand.
pub fn help_text() -> &'static str {
    HELP
}

/// What `body` (a comment) asks of lane: its `/lane` command, if it has one.
pub fn parse_comment(body: &str) -> CommentCommand {
    let over = body.len() > MAX_COMMENT_BYTES;
    let searched = if over {
        &body[..scan::floor_char_boundary(body, MAX_COMMENT_BYTES)]
    } else {
        body
    };
    let Some(line) = scan::command_line(searched) else {
        return CommentCommand::None;
    };
    if over {
        return CommentCommand::Invalid(CommandError::CommentTooLong {
            len: body.len(),
            limit: MAX_COMMENT_BYTES,
        });
    }
    if line.len() > MAX_COMMAND_LINE_BYTES {
        return CommentCommand::Invalid(CommandError::LineTooLong {
            len: line.len(),
            limit: MAX_COMMAND_LINE_BYTES,
        });
    }
    match grammar::parse_line(line) {
        Ok(command) => CommentCommand::Command(command),
        Err(e) => CommentCommand::Invalid(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canonical_spelling_reads_back() {
        for text in [
            "/lane mint 0.93.3",
            "/lane mint 0.93.3 --cell a --cell b.c --gpu L4 --gpu L40S",
            "/lane status",
            "/lane cancel",
            "/lane diff cell_1 H200",
            "/lane help",
        ] {
            let CommentCommand::Command(c) = parse_comment(text) else {
                panic!("{text}")
            };
            assert_eq!(c.to_string(), text);
        }
    }

    #[test]
    fn the_help_text_shows_every_subcommand() {
        for s in ["mint", "status", "cancel", "diff", "help"] {
            assert!(HELP.contains(&format!("/lane {s}")), "{s}");
        }
        assert_eq!(help_text(), HELP);
    }

    #[test]
    fn no_error_message_holds_the_commenters_words() {
        let words = "<img src=x onerror=alert(1)>@everyone";
        for body in [
            format!("/lane {words}"),
            format!("/lane status {words}"),
            format!("/lane mint {words}"),
            format!("/lane mint 1.2.3 --cell {words}"),
            format!("/lane mint 1.2.3 --gpu={words}"),
            format!("/lane mint 1.2.3 --{words}"),
            format!("/lane diff a b {words}"),
        ] {
            let CommentCommand::Invalid(e) = parse_comment(&body) else {
                panic!("{body}")
            };
            let shown = e.to_string();
            assert!(
                !shown.contains("onerror") && !shown.contains('@'),
                "{shown}"
            );
            assert!(e.offending().is_some(), "{e:?}");
        }
    }
}
