//! The wire-compatibility judge for protobuf schema changes, as `buf
//! breaking` judges them: two snapshots of a folder of `.proto` files (a
//! "before" and an "after"), compiled with protox into descriptors, and
//! buf's breaking rules of the categories asked for (`WIRE`, `WIRE_JSON`,
//! `PACKAGE`), each finding named by buf's rule id.
//!
//! What it owns, each in one place:
//! - [`judge`]: the verdict on a change ([`Judgement`]): every [`Finding`]
//!   (rule, file, element, buf's message) and per [`Category`] whether it
//!   passed;
//! - [`RuleId`]: buf's rules of the three categories, with the categories
//!   each belongs to in buf's v2 configuration (`model`), and the rules
//!   themselves (`rules`, one module per kind of element they pair);
//! - [`ProtoTree`] and [`Limits`]: a side, and what a side may cost
//!   before a byte of it is parsed;
//! - [`WireError`]: an input it refuses to judge, with the side, the file
//!   and, where the text is at fault, line, column and what was expected;
//! - [`generated_without_proto`]: generated code that changed without
//!   the `.proto` change it would come from (`GENERATED_WITHOUT_PROTO`).
//!
//! What it must not touch: no filesystem, git, network, process, clock or
//! async runtime, and no other lane crate. Values in, values out: a caller
//! reads the two trees (lane-git from commits, a test from a clone) and
//! hands their texts over; imports resolve in the tree itself and to the
//! well-known types protox carries, never to a folder.
//!
//! Files are proto2 or proto3 (protox reads no editions): the rules that
//! buf decides by resolved features (open or closed enums, UTF-8
//! validation, JSON format) are decided by the file's syntax, which is what
//! those features resolve to outside editions. See `docs/wire.md`.

mod compile;
mod error;
mod generated;
mod index;
mod model;
mod rules;
mod tree;

use std::collections::BTreeSet;

pub use error::{Side, WireError};
pub use generated::generated_without_proto;
pub use model::{Category, Finding, Judgement, RuleId, UnknownCategory};
pub use tree::{Limits, ProtoTree};

use index::Index;

/// Judges the change from `before` to `after` in `categories`, with the
/// default [`Limits`].
pub fn judge(
    before: &ProtoTree,
    after: &ProtoTree,
    categories: &[Category],
) -> Result<Judgement, WireError> {
    judge_with(before, after, categories, &Limits::default())
}

/// Judges the change from `before` to `after` in `categories`, each side
/// held to `limits`.
///
/// A side without `.proto` files is refused ([`WireError::NoProtoFiles`]),
/// as buf refuses it: a schema that appears or vanishes whole is for the
/// caller to judge.
pub fn judge_with(
    before: &ProtoTree,
    after: &ProtoTree,
    categories: &[Category],
    limits: &Limits,
) -> Result<Judgement, WireError> {
    tree::check(before, Side::Before, limits)?;
    tree::check(after, Side::After, limits)?;
    let was = Index::new(compile::compile(before, Side::Before)?);
    let now = Index::new(compile::compile(after, Side::After)?);
    let asked: BTreeSet<Category> = categories.iter().copied().collect();
    let findings: Vec<Finding> = rules::run(&was, &now)
        .into_iter()
        .filter(|f| asked.iter().any(|c| f.rule.in_category(*c)))
        .map(|mut f| {
            f.categories.retain(|c| asked.contains(c));
            f
        })
        .collect();
    let passed = asked
        .iter()
        .map(|c| (*c, !findings.iter().any(|f| f.rule.in_category(*c))))
        .collect();
    Ok(Judgement { findings, passed })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const REAL: &str = "syntax = \"proto3\";\npackage cozy.scheduler.v1;\n\nmessage SchedulerMessage {\n  reserved 7;\n  reserved \"run_attempt\";\n  oneof msg {\n    RunJob run = 1;\n    string note = 2;\n  }\n  map<string, int64> sizes = 3;\n}\n\nmessage RunJob {\n  string file_base_url = 22 [json_name = \"fileBaseUrl\"];\n  repeated int32 slots = 24;\n}\n\nenum Phase {\n  PHASE_UNSPECIFIED = 0;\n  PHASE_READY = 1;\n}\n\nservice WorkerScheduler {\n  rpc Connect(stream SchedulerMessage) returns (stream RunJob);\n}\n";

    fn tree(text: &str) -> ProtoTree {
        [("worker_scheduler.proto", text)].into_iter().collect()
    }

    #[test]
    fn a_change_only_asked_categories_are_judged() {
        let was = tree(REAL);
        let now = tree(&REAL.replace("file_base_url", "base_url"));
        let j = judge(&was, &now, &[Category::Wire]).unwrap();
        assert_eq!(j.passed.len(), 1);
        assert!(j.all_passed());
        let j = judge(&was, &now, &Category::ALL).unwrap();
        assert_eq!(
            j.passed,
            [
                (Category::Wire, true),
                (Category::WireJson, false),
                (Category::Package, false)
            ]
            .into_iter()
            .collect()
        );
        insta::assert_json_snapshot!(j.findings, @r#"
        [
          {
            "rule": "FIELD_SAME_NAME",
            "categories": [
              "WIRE_JSON",
              "PACKAGE"
            ],
            "file": "worker_scheduler.proto",
            "element": "cozy.scheduler.v1.RunJob.base_url",
            "message": "Field \"22\" on message \"RunJob\" changed name from \"file_base_url\" to \"base_url\"."
          }
        ]
        "#);
    }

    #[test]
    fn a_hostile_nesting_is_refused_not_recursed_into() {
        let deep = format!(
            "syntax = \"proto3\";\n{}{}",
            "message A {".repeat(100_000),
            "}".repeat(100_000)
        );
        let err = judge(&tree(REAL), &tree(&deep), &Category::ALL).unwrap_err();
        assert!(
            matches!(
                err,
                WireError::TooDeep {
                    side: Side::After,
                    line: 2,
                    ..
                }
            ),
            "{err}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any edit of a real file is judged or refused with a place,
        /// never a panic.
        #[test]
        fn an_edited_file_is_judged_or_refused_never_a_panic(
            at in 0usize..REAL.len(),
            cut in 0usize..40,
            insert in "[ -~\n{}\\[\\]()\"';=]{0,12}",
        ) {
            let mut text = REAL.to_owned();
            let at = (0..=at).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
            let end = (at + cut).min(text.len());
            text.replace_range(at..end, &insert);
            match judge(&tree(REAL), &tree(&text), &Category::ALL) {
                Ok(_) => {}
                Err(WireError::Syntax { line, column, .. }) => prop_assert!(line >= 1 && column >= 1),
                Err(WireError::Compile { .. } | WireError::TooDeep { .. }) => {}
                Err(other) => prop_assert!(false, "{other}"),
            }
        }
    }
}
