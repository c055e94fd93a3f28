//! Every recorded pair: lane-wire's verdict equals buf's, category by
//! category (pass or fail, and the set of rule ids that fired), and where
//! buf refused a side lane-wire refuses it too.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use lane_wire::{judge, Category, Judgement, WireError};
use serde::Deserialize;

use crate::upstream::{clone, proto_tree};

#[derive(Deserialize)]
pub struct Recorded {
    pub buf_version: String,
    pub pairs: Vec<Pair>,
}

#[derive(Deserialize, Clone)]
pub struct Pair {
    pub kind: String,
    pub name: String,
    pub before: String,
    pub after: String,
    pub before_tree: String,
    pub after_tree: String,
    pub summary: String,
    pub buf: BTreeMap<String, BufVerdict>,
}

#[derive(Deserialize, Clone, PartialEq, Eq, Debug)]
#[serde(untagged)]
pub enum BufVerdict {
    Judged { passed: bool, rules: Vec<String> },
    Refused { refused: String },
}

pub fn recorded() -> Recorded {
    let text = include_str!("../data/buf-verdicts.json");
    serde_json::from_str(text).expect("buf-verdicts.json reads")
}

/// lane-wire's verdict on a pair, in buf's shape.
pub fn lane_verdicts(result: &Result<Judgement, WireError>) -> BTreeMap<String, BufVerdict> {
    Category::ALL
        .iter()
        .map(|c| {
            let v = match result {
                Ok(j) => BufVerdict::Judged {
                    passed: j.passed[c],
                    rules: {
                        let mut ids: Vec<String> =
                            j.rules(*c).iter().map(|r| r.as_str().to_owned()).collect();
                        ids.sort();
                        ids
                    },
                },
                Err(e) => BufVerdict::Refused {
                    refused: e.to_string(),
                },
            };
            (c.as_str().to_owned(), v)
        })
        .collect()
}

/// Whether two verdicts agree: the same pass or fail and rules, or both
/// refused (for whatever words).
pub fn agree(buf: &BufVerdict, lane: &BufVerdict) -> bool {
    match (buf, lane) {
        (BufVerdict::Refused { .. }, BufVerdict::Refused { .. }) => true,
        (a, b) => a == b,
    }
}

#[test]
fn lane_wire_agrees_with_buf_on_every_real_proto_change() {
    let Some(repo) = clone() else { return };
    let recorded = recorded();
    let mut disagreements = String::new();
    let mut judged = 0;
    for pair in &recorded.pairs {
        let before = proto_tree(repo, &pair.before);
        let after = proto_tree(repo, &pair.after);
        let lane = lane_verdicts(&judge(&before, &after, &Category::ALL));
        judged += 1;
        for (category, buf) in &pair.buf {
            let mine = &lane[category];
            if !agree(buf, mine) {
                writeln!(
                    disagreements,
                    "{} {} {category}: buf {buf:?}, lane-wire {mine:?}",
                    pair.kind, pair.name
                )
                .unwrap();
            }
        }
    }
    assert_eq!(judged, 440, "every recorded pair is judged");
    assert!(
        disagreements.is_empty(),
        "lane-wire and buf {}:\n{disagreements}",
        recorded.buf_version
    );
}

#[test]
fn the_recorded_pairs_cover_every_proto_commit_and_every_tag_pair() {
    let Some(repo) = clone() else { return };
    let recorded = recorded();
    let commits = crate::upstream::git(repo, &["log", "--all", "--format=%H", "--", "proto/"]);
    let mut want: Vec<&str> = commits.lines().collect();
    let mut have: Vec<&str> = recorded
        .pairs
        .iter()
        .filter(|p| p.kind == "commit")
        .map(|p| p.after.as_str())
        .collect();
    want.sort_unstable();
    have.sort_unstable();
    assert_eq!(
        have, want,
        "a commit touching proto/ is missing from buf-verdicts.json: run record-buf.sh"
    );
    let tags = crate::upstream::git(repo, &["tag", "-l", "v*", "--sort=version:refname"]);
    let tags: Vec<&str> = tags
        .lines()
        .filter(|t| {
            t[1..].split('.').count() == 3 && t[1..].split('.').all(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    let pairs: Vec<String> = tags
        .windows(2)
        .map(|w| format!("{}..{}", w[0], w[1]))
        .collect();
    let recorded_pairs: Vec<&str> = recorded
        .pairs
        .iter()
        .filter(|p| p.kind == "tags")
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(recorded_pairs, pairs);
    let patches = recorded.pairs.iter().filter(|p| p.kind == "patch").count();
    assert_eq!(patches, 17);
}

/// The table of docs/wire.md, from the recorded verdicts and lane-wire's
/// own: every pair whose proto trees differ, one row per distinct pair of
/// trees and kind. `LANE_WIRE_BLESS=1` rewrites it.
#[test]
fn the_docs_table_is_the_recorded_one() {
    let Some(repo) = clone() else { return };
    let recorded = recorded();
    let mut rows = String::from(
        "| pair | summary | buf WIRE | buf WIRE_JSON | buf PACKAGE | lane-wire WIRE | lane-wire WIRE_JSON | lane-wire PACKAGE |\n|---|---|---|---|---|---|---|---|\n",
    );
    let cell = |v: &BufVerdict| match v {
        BufVerdict::Refused { .. } => "refused".to_owned(),
        BufVerdict::Judged { passed: true, .. } => "pass".to_owned(),
        BufVerdict::Judged { rules, .. } => format!("**fail**: {}", rules.join(", ")),
    };
    let mut shown = 0;
    for pair in recorded
        .pairs
        .iter()
        .filter(|p| p.before_tree != p.after_tree)
    {
        let before = proto_tree(repo, &pair.before);
        let after = proto_tree(repo, &pair.after);
        let lane = lane_verdicts(&judge(&before, &after, &Category::ALL));
        let name = match pair.kind.as_str() {
            "commit" => format!("commit `{}`", &pair.name[..10]),
            "patch" => format!("patch `{}`", pair.name),
            _ => format!("tags `{}`", pair.name),
        };
        let summary: String = pair
            .summary
            .chars()
            .take(90)
            .collect::<String>()
            .replace('|', "\\|")
            .replace('`', "'");
        let mut row = format!("| {name} | {summary} |");
        for c in ["WIRE", "WIRE_JSON", "PACKAGE"] {
            write!(row, " {} |", cell(&pair.buf[c])).unwrap();
        }
        for c in ["WIRE", "WIRE_JSON", "PACKAGE"] {
            write!(row, " {} |", cell(&lane[c])).unwrap();
        }
        rows.push_str(&row);
        rows.push('\n');
        shown += 1;
    }
    let same: Vec<&Pair> = recorded
        .pairs
        .iter()
        .filter(|p| p.before_tree == p.after_tree)
        .collect();
    assert_eq!(same.len() + shown, recorded.pairs.len());
    let refused = same
        .iter()
        .filter(|p| matches!(p.buf["WIRE"], BufVerdict::Refused { .. }))
        .count();
    let table = format!(
        "{rows}\n{} more recorded pairs have the same `proto/` tree on both sides (tags \
         without a `proto/` change): buf passes {} of them and refuses {refused} (no \
         `.proto` file on either side), and so does lane-wire. Recorded with {}.\n",
        same.len(),
        same.len() - refused,
        recorded.buf_version
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/wire.md");
    let doc = std::fs::read_to_string(&path).expect("docs/wire.md");
    let (start, end) = ("<!-- table: begin -->\n", "<!-- table: end -->");
    let i = doc.find(start).expect("table begin marker") + start.len();
    let j = doc.find(end).expect("table end marker");
    if std::env::var_os("LANE_WIRE_BLESS").is_some() {
        let new = format!("{}{table}{}", &doc[..i], &doc[j..]);
        std::fs::write(&path, new).unwrap();
        return;
    }
    assert!(
        doc[i..j] == table,
        "docs/wire.md's table is not the recorded one: LANE_WIRE_BLESS=1 cargo test -p lane-wire --test wire"
    );
}
