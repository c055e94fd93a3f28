//! Reading a `/lane` line, split on ASCII whitespace, strictly.

use super::{CellName, Command, CommandError, Flag, GpuClass, Mint, Subcommand};
use crate::Foreign;
use lane_core::LaneVersion;

type Words<'a> = std::str::SplitAsciiWhitespace<'a>;

/// The command of `line` (it starts with the word `/lane`).
pub(super) fn parse_line(line: &str) -> Result<Command, CommandError> {
    let mut words = line.split_ascii_whitespace();
    // Consumed outside the assertion: a `debug_assert!` is compiled out of
    // release builds, and with it the `next()` that skips `/lane`.
    let first = words.next();
    debug_assert_eq!(first, Some("/lane"));
    let Some(sub) = words.next() else {
        return Ok(Command::Help);
    };
    match sub {
        "mint" => mint(words).map(Command::Mint),
        "status" => bare(words, Subcommand::Status, Command::Status),
        "cancel" => bare(words, Subcommand::Cancel, Command::Cancel),
        "help" => bare(words, Subcommand::Help, Command::Help),
        "diff" => diff(words),
        other => Err(CommandError::UnknownSubcommand {
            word: Foreign::new(other),
        }),
    }
}

/// A word that is a flag (or meant as one): it starts with `-`.
fn is_flag(word: &str) -> bool {
    word.starts_with('-')
}

/// A subcommand without arguments.
fn bare(
    words: Words<'_>,
    subcommand: Subcommand,
    command: Command,
) -> Result<Command, CommandError> {
    no_more(words, subcommand).map(|()| command)
}

/// Nothing after the arguments.
fn no_more(mut words: Words<'_>, subcommand: Subcommand) -> Result<(), CommandError> {
    match words.next() {
        None => Ok(()),
        Some(w) if is_flag(w) => Err(CommandError::UnknownFlag {
            subcommand,
            flag: Foreign::new(w),
        }),
        Some(w) => Err(CommandError::ExtraArgument {
            subcommand,
            word: Foreign::new(w),
        }),
    }
}

/// `/lane diff <cell> <gpu>`.
fn diff(mut words: Words<'_>) -> Result<Command, CommandError> {
    let sub = Subcommand::Diff;
    let mut positional = |what: &'static str| match words.next() {
        None => Err(CommandError::MissingArgument {
            subcommand: sub,
            what,
        }),
        Some(w) if is_flag(w) => Err(CommandError::UnknownFlag {
            subcommand: sub,
            flag: Foreign::new(w),
        }),
        Some(w) => Ok(w),
    };
    let cell = positional("a cell name and a GPU class: /lane diff <cell> <gpu>")?;
    let cell = CellName::parse(cell).ok_or_else(|| CommandError::InvalidCell {
        word: Foreign::new(cell),
    })?;
    let gpu = positional("a GPU class after the cell: /lane diff <cell> <gpu>")?;
    let gpu = GpuClass::parse(gpu).ok_or_else(|| CommandError::InvalidGpu {
        word: Foreign::new(gpu),
    })?;
    no_more(words, sub)?;
    Ok(Command::Diff { cell, gpu })
}

/// `/lane mint <version> [--cell NAME]... [--gpu CLASS]...`.
fn mint(mut words: Words<'_>) -> Result<Mint, CommandError> {
    let sub = Subcommand::Mint;
    let mut version = None;
    let mut cells: Vec<CellName> = Vec::new();
    let mut gpus: Vec<GpuClass> = Vec::new();
    while let Some(word) = words.next() {
        if !is_flag(word) {
            if version.is_some() {
                return Err(CommandError::ExtraArgument {
                    subcommand: sub,
                    word: Foreign::new(word),
                });
            }
            let v = LaneVersion::parse(word).map_err(|_| CommandError::InvalidVersion {
                word: Foreign::new(word),
            })?;
            version = Some(v);
            continue;
        }
        let (name, inline) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (word, None),
        };
        let flag = match name {
            "--cell" => Flag::Cell,
            "--gpu" => Flag::Gpu,
            _ => {
                return Err(CommandError::UnknownFlag {
                    subcommand: sub,
                    flag: Foreign::new(word),
                })
            }
        };
        let value = match inline {
            Some("") => None,
            Some(v) => Some(v),
            // A following flag is not this one's value.
            None => words.next().filter(|w| !is_flag(w)),
        }
        .ok_or(CommandError::MissingValue { flag })?;
        match flag {
            Flag::Cell => {
                let cell = CellName::parse(value).ok_or_else(|| CommandError::InvalidCell {
                    word: Foreign::new(value),
                })?;
                once(&mut cells, cell, flag, CellName::as_str)?;
            }
            Flag::Gpu => {
                let gpu = GpuClass::parse(value).ok_or_else(|| CommandError::InvalidGpu {
                    word: Foreign::new(value),
                })?;
                once(&mut gpus, gpu, flag, GpuClass::as_str)?;
            }
        }
    }
    let version = version.ok_or(CommandError::MissingArgument {
        subcommand: sub,
        what: "a version MAJOR.MINOR.PATCH, such as /lane mint 0.93.3",
    })?;
    Ok(Mint {
        version,
        cells,
        gpus,
    })
}

/// Adds `value` to `values` unless it is there already.
fn once<T: PartialEq>(
    values: &mut Vec<T>,
    value: T,
    flag: Flag,
    text: fn(&T) -> &str,
) -> Result<(), CommandError> {
    if values.contains(&value) {
        return Err(CommandError::DuplicateValue {
            flag,
            value: text(&value).to_owned(),
        });
    }
    values.push(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{parse_comment, CommentCommand};
    use super::*;
    use CommandError as E;

    fn v(s: &str) -> LaneVersion {
        LaneVersion::parse(s).unwrap()
    }
    fn cell(s: &str) -> CellName {
        CellName::parse(s).unwrap()
    }
    fn gpu(s: &str) -> GpuClass {
        GpuClass::parse(s).unwrap()
    }
    fn f(s: &str) -> Foreign {
        Foreign::new(s)
    }
    fn mint(version: &str, cells: &[&str], gpus: &[&str]) -> Command {
        Command::Mint(Mint {
            version: v(version),
            cells: cells.iter().map(|c| cell(c)).collect(),
            gpus: gpus.iter().map(|g| gpu(g)).collect(),
        })
    }

    #[test]
    fn commands_lane_understands() {
        let table: Vec<(&str, Command)> = vec![
            ("/lane", Command::Help),
            ("/lane   ", Command::Help),
            ("/lane help", Command::Help),
            ("/lane status", Command::Status),
            ("/lane\tcancel", Command::Cancel),
            ("/lane mint 0.93.3", mint("0.93.3", &[], &[])),
            ("/lane  mint\t0.93.3  ", mint("0.93.3", &[], &[])),
            (
                "/lane mint 0.93.3 --cell flux_dynamo --gpu L40S",
                mint("0.93.3", &["flux_dynamo"], &["L40S"]),
            ),
            (
                "/lane mint --gpu=L4 0.93.3 --cell=a.b-c --cell 9 --gpu H200_x",
                mint("0.93.3", &["a.b-c", "9"], &["L4", "H200_x"]),
            ),
            (
                "/lane diff sdxl_aot L40S",
                Command::Diff {
                    cell: cell("sdxl_aot"),
                    gpu: gpu("L40S"),
                },
            ),
        ];
        for (line, want) in table {
            assert_eq!(parse_line(line), Ok(want), "{line:?}");
        }
    }

    #[test]
    fn commands_lane_refuses_each_with_its_reason() {
        let s = Subcommand::Mint;
        let table: Vec<(&str, CommandError)> = vec![
            ("/lane mnt 0.93.3", E::UnknownSubcommand { word: f("mnt") }),
            (
                "/lane Mint 0.93.3",
                E::UnknownSubcommand { word: f("Mint") },
            ),
            ("/lane --help", E::UnknownSubcommand { word: f("--help") }),
            (
                "/lane mint",
                E::MissingArgument {
                    subcommand: s,
                    what: "a version MAJOR.MINOR.PATCH, such as /lane mint 0.93.3",
                },
            ),
            (
                "/lane mint --cell a",
                E::MissingArgument {
                    subcommand: s,
                    what: "a version MAJOR.MINOR.PATCH, such as /lane mint 0.93.3",
                },
            ),
            (
                "/lane mint v0.93.3",
                E::InvalidVersion { word: f("v0.93.3") },
            ),
            ("/lane mint 0.93", E::InvalidVersion { word: f("0.93") }),
            (
                "/lane mint 0.93.3;rm",
                E::InvalidVersion {
                    word: f("0.93.3;rm"),
                },
            ),
            (
                "/lane mint 0.93.3 0.93.4",
                E::ExtraArgument {
                    subcommand: s,
                    word: f("0.93.4"),
                },
            ),
            (
                "/lane mint 0.93.3 --cells a",
                E::UnknownFlag {
                    subcommand: s,
                    flag: f("--cells"),
                },
            ),
            (
                "/lane mint 0.93.3 -c a",
                E::UnknownFlag {
                    subcommand: s,
                    flag: f("-c"),
                },
            ),
            (
                "/lane mint 0.93.3 --",
                E::UnknownFlag {
                    subcommand: s,
                    flag: f("--"),
                },
            ),
            (
                "/lane mint 0.93.3 --cell",
                E::MissingValue { flag: Flag::Cell },
            ),
            (
                "/lane mint 0.93.3 --cell=",
                E::MissingValue { flag: Flag::Cell },
            ),
            (
                "/lane mint 0.93.3 --cell --gpu L4",
                E::MissingValue { flag: Flag::Cell },
            ),
            (
                "/lane mint 0.93.3 --gpu",
                E::MissingValue { flag: Flag::Gpu },
            ),
            (
                "/lane mint 0.93.3 --cell a/b",
                E::InvalidCell { word: f("a/b") },
            ),
            (
                "/lane mint 0.93.3 --cell=..",
                E::InvalidCell { word: f("..") },
            ),
            (
                "/lane mint 0.93.3 --cell=-x",
                E::InvalidCell { word: f("-x") },
            ),
            (
                "/lane mint 0.93.3 --cell $(id)",
                E::InvalidCell { word: f("$(id)") },
            ),
            (
                "/lane mint 0.93.3 --gpu L4.1",
                E::InvalidGpu { word: f("L4.1") },
            ),
            (
                "/lane mint 0.93.3 --cell a --cell a",
                E::DuplicateValue {
                    flag: Flag::Cell,
                    value: "a".into(),
                },
            ),
            (
                "/lane mint 0.93.3 --gpu=L4 --gpu L4",
                E::DuplicateValue {
                    flag: Flag::Gpu,
                    value: "L4".into(),
                },
            ),
            (
                "/lane status now",
                E::ExtraArgument {
                    subcommand: Subcommand::Status,
                    word: f("now"),
                },
            ),
            (
                "/lane cancel --force",
                E::UnknownFlag {
                    subcommand: Subcommand::Cancel,
                    flag: f("--force"),
                },
            ),
            (
                "/lane help mint",
                E::ExtraArgument {
                    subcommand: Subcommand::Help,
                    word: f("mint"),
                },
            ),
            (
                "/lane diff",
                E::MissingArgument {
                    subcommand: Subcommand::Diff,
                    what: "a cell name and a GPU class: /lane diff <cell> <gpu>",
                },
            ),
            (
                "/lane diff a",
                E::MissingArgument {
                    subcommand: Subcommand::Diff,
                    what: "a GPU class after the cell: /lane diff <cell> <gpu>",
                },
            ),
            (
                "/lane diff a L4 r2",
                E::ExtraArgument {
                    subcommand: Subcommand::Diff,
                    word: f("r2"),
                },
            ),
            (
                "/lane diff --cell a L4",
                E::UnknownFlag {
                    subcommand: Subcommand::Diff,
                    flag: f("--cell"),
                },
            ),
            ("/lane diff a! L4", E::InvalidCell { word: f("a!") }),
            ("/lane diff a L4.0", E::InvalidGpu { word: f("L4.0") }),
        ];
        for (line, want) in table {
            assert_eq!(parse_line(line), Err(want), "{line:?}");
        }
    }

    #[test]
    fn names_have_their_charsets_and_lengths() {
        assert!(CellName::parse(&"a".repeat(64)).is_some());
        assert!(CellName::parse(&"a".repeat(65)).is_none());
        assert!(GpuClass::parse(&"G".repeat(32)).is_some());
        assert!(GpuClass::parse(&"G".repeat(33)).is_none());
        for bad in ["", ".a", "_a", "-a", "a b", "é", "a\u{0}"] {
            assert!(CellName::parse(bad).is_none(), "{bad:?}");
        }
        for bad in ["", "L4.0", "-L4", "L 4", "L4/x"] {
            assert!(GpuClass::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn the_caps_refuse_without_reading() {
        let long_line = format!("/lane mint 0.93.3 {}", "--cell a ".repeat(200));
        assert!(matches!(
            parse_comment(&long_line),
            CommentCommand::Invalid(E::LineTooLong { limit: 1024, .. })
        ));
        let padded = format!("/lane status\n{}", "x".repeat(70_000));
        assert_eq!(
            parse_comment(&padded),
            CommentCommand::Invalid(E::CommentTooLong {
                len: padded.len(),
                limit: 64 * 1024
            })
        );
        // A long comment with no command is just a comment.
        assert_eq!(parse_comment(&"é".repeat(40_000)), CommentCommand::None);
    }
}
