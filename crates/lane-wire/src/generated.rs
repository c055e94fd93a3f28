//! lane's own rule beside buf's: generated code that changed without the
//! `.proto` change it would have been generated from (`GENERATED_WITHOUT_PROTO`),
//! judged from the list of paths a change touched.

use crate::model::{Finding, RuleId};

/// Findings for every changed generated file that no changed `.proto` file
/// explains.
///
/// A path is generated when it starts with one of `generated_paths`
/// (`src/gen_worker/pb/`), a `.proto` file of the schema when it starts
/// with one of `proto_paths` (`proto/`) and ends in `.proto`. A generated
/// file is explained by a changed `.proto` file whose stem begins its file
/// name, followed by `.`, `_pb` or `_grpc` as protoc's generators name
/// their files (`worker_scheduler.proto` explains `worker_scheduler_pb2.py`,
/// `worker_scheduler_pb2_grpc.py`, `worker_scheduler_pb2.pyi` and
/// `worker_scheduler.pb.go`, `worker.proto` none of them); anything else under `generated_paths`
/// that changed alone (`__init__.py` too) is a finding, since regenerating
/// code from an unchanged schema changes nothing.
pub fn generated_without_proto<'a>(
    changed_paths: impl IntoIterator<Item = &'a str>,
    generated_paths: &[&str],
    proto_paths: &[&str],
) -> Vec<Finding> {
    let changed: Vec<&str> = changed_paths.into_iter().collect();
    let stems: Vec<&str> = changed
        .iter()
        .filter(|p| p.ends_with(".proto") && proto_paths.iter().any(|pre| p.starts_with(pre)))
        .map(|p| file_name(p).trim_end_matches(".proto"))
        .collect();
    let mut findings: Vec<Finding> = changed
        .iter()
        .filter(|p| generated_paths.iter().any(|pre| p.starts_with(pre)))
        .filter(|p| !stems.iter().any(|stem| explains(stem, file_name(p))))
        .map(|p| Finding {
            rule: RuleId::GeneratedWithoutProto,
            categories: Vec::new(),
            file: (*p).to_owned(),
            element: (*p).to_owned(),
            message: format!(
                "Generated file {p:?} changed without a change to the .proto file it is generated from (under {}).",
                proto_paths
                    .iter()
                    .map(|p| format!("{p:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
        .collect();
    findings.sort();
    findings.dedup();
    findings
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn explains(stem: &str, name: &str) -> bool {
    !stem.is_empty()
        && name.strip_prefix(stem).is_some_and(|rest| {
            rest.starts_with('.') || rest.starts_with("_pb") || rest.starts_with("_grpc")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GEN: &[&str] = &["src/gen_worker/pb/"];
    const PROTO: &[&str] = &["proto/"];

    fn flagged(changed: &[&str]) -> Vec<String> {
        generated_without_proto(changed.iter().copied(), GEN, PROTO)
            .into_iter()
            .map(|f| f.file)
            .collect()
    }

    #[test]
    fn regenerated_code_with_its_proto_change_passes() {
        assert!(flagged(&[
            "proto/worker_scheduler.proto",
            "src/gen_worker/pb/worker_scheduler_pb2.py",
            "src/gen_worker/pb/worker_scheduler_pb2_grpc.py",
            "src/gen_worker/pb/worker_scheduler_pb2.pyi",
            "src/gen_worker/worker.py",
        ])
        .is_empty());
    }

    #[test]
    fn generated_code_changed_alone_is_a_finding_per_file() {
        assert_eq!(
            flagged(&[
                "src/gen_worker/pb/worker_scheduler_pb2.py",
                "src/gen_worker/pb/__init__.py",
                "proto/CONTRACT.md",
            ]),
            [
                "src/gen_worker/pb/__init__.py",
                "src/gen_worker/pb/worker_scheduler_pb2.py"
            ]
        );
        let f =
            &generated_without_proto(["src/gen_worker/pb/worker_scheduler_pb2.py"], GEN, PROTO)[0];
        assert_eq!(f.rule.as_str(), "GENERATED_WITHOUT_PROTO");
        insta::assert_snapshot!(f.message, @r#"Generated file "src/gen_worker/pb/worker_scheduler_pb2.py" changed without a change to the .proto file it is generated from (under "proto/")."#);
    }

    #[test]
    fn another_proto_or_a_prefix_that_is_no_stem_explains_nothing() {
        assert_eq!(
            flagged(&[
                "proto/other.proto",
                "proto/worker.proto",
                "src/gen_worker/pb/worker_scheduler_pb2.py"
            ]),
            ["src/gen_worker/pb/worker_scheduler_pb2.py"]
        );
        // a .proto outside the proto paths is not the schema
        assert_eq!(
            flagged(&[
                "vendor/worker_scheduler.proto",
                "src/gen_worker/pb/worker_scheduler_pb2.py"
            ]),
            ["src/gen_worker/pb/worker_scheduler_pb2.py"]
        );
    }
}
