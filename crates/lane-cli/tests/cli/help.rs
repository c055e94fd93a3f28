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
