//! `lane --help` and every command's `--help`, one snapshot each: what a
//! person reads first, and the guard on the shared argument groups (a flag
//! whose name, env var, default or help moves shows here).

use super::{code, stderr, stdout, ROOT};
use std::process::Command;

/// `lane <path> --help`, with no environment a flag reads (clap shows an
/// env var's value in the help), the checkout's root redacted (a default
/// path such as the demo's recordings is the build's own).
fn help(path: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(path)
        .arg("--help")
        .env_clear()
        .env("NO_COLOR", "1")
        .output()
        .expect("the lane binary runs");
    assert_eq!(code(&o), 0, "{path:?}: {}", stderr(&o));
    // Only the root: a help's defaults hold ports and times on purpose.
    let root = std::path::Path::new(ROOT).canonicalize().unwrap();
    stdout(&o).replace(&root.display().to_string(), "<ROOT>")
}

/// The subcommands a help text lists under `Commands:` (without `help`).
fn commands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_commands_help_is_pinned() {
    let mut todo = vec![Vec::<String>::new()];
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = help(&args);
        for c in commands(&text) {
            let mut sub = path.clone();
            sub.push(c);
            todo.push(sub);
        }
        let name = if path.is_empty() {
            "help_lane".to_owned()
        } else {
            format!("help_lane_{}", path.join("_").replace('-', "_"))
        };
        insta::assert_snapshot!(name, text);
        seen += 1;
    }
    assert!(
        seen > 18,
        "only {seen} help texts: the command list was not read"
    );
}

/// Runs `lane args` with its standard output a pipe nobody reads.
fn with_reader_gone(args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(args)
        .env_clear()
        .env("NO_COLOR", "1")
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the lane binary runs")
}

/// Regression: `lane ledger REPORT | head -1` ended in a panic ("failed
/// printing to stdout: Broken pipe", exit 101) once `head` had its line,
/// and `lane schema | head -1` in an error. A reader that goes away ends
/// the output, not the command: the exit code is the command's own.
#[test]
fn regression_a_reader_that_goes_away_early_is_not_a_panic() {
    let report = format!("{ROOT}/tests/data/h200-torch2.11/jit_report.json");
    for args in [
        &["ledger", report.as_str()][..],
        &["ledger", "--json", report.as_str()],
        &["schema"],
        &["--help"],
        &["status", "--help"],
    ] {
        let o = with_reader_gone(args);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code(&o), 0, "{args:?}: {err}");
    }
    // A command that fails keeps its own code (usage: 2) with its reader gone.
    let o = with_reader_gone(&["ledger", "--json", "/nonexistent/report.json"]);
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(code(&o), 0, "{err}");
    assert_ne!(code(&o), 101, "{err}");
}

/// No line of a help text ends in spaces (clap pads the blank lines of a
/// long help with the indent).
#[test]
fn no_help_line_ends_in_a_space() {
    for path in [&[][..], &["cut"], &["serve"], &["history", "check"]] {
        let text = help(path);
        for (n, l) in text.lines().enumerate() {
            assert!(!l.ends_with(' '), "{path:?} line {}: {l:?}", n + 1);
        }
    }
}
