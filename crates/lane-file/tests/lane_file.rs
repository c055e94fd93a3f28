//! The lane file's integration tests: the shipped lanes parse, every
//! malformed case names its line:column, and the kept schema is current.

use lane_file::{parse, LaneFileError, PickRef, VersionFileKind};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn err(name: &str, text: &str) -> LaneFileError {
    match parse(name, text) {
        Ok(l) => panic!("expected an error, parsed {l:?}"),
        Err(e) => e,
    }
}

const GOOD: &str = "\
version: \"0.93.3\"
upstream:
  repo: ../upstream
base: v0.93.2
picks:
  - pr: 515
    issue: 992
  - commit: 67288eda5d58dc98b5604b206d98a5be957be3e7
version_files:
  - path: pyproject.toml
    kind: pyproject
guards:
  - name: wire-v1
    frozen_paths: [proto/]
";

#[test]
fn the_shipped_real_lane_parses_with_its_adapted_pick_and_wire_guards() {
    let path = format!("{ROOT}/lanes/0.93.3.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let lane = parse("lanes/0.93.3.yaml", &text).unwrap();
    assert_eq!(lane.version.as_str(), "0.93.3");
    assert_eq!(lane.base.as_str(), "v0.93.2");
    assert_eq!(lane.branch_name(), "release/0.93.3");
    assert_eq!(lane.tag_name(), "v0.93.3");
    assert!(lane.upstream.is_url());
    let picks: Vec<_> = lane
        .picks
        .iter()
        .map(|p| (p.target.clone(), p.issue))
        .collect();
    // The real line: #515, pgw#989 adapted from #511 (which conflicts
    // there), #516.
    assert_eq!(
        picks,
        vec![
            (PickRef::Pr(515), None),
            (
                PickRef::Adapted {
                    commit: lane_file::CommitId::parse("0720e64c0894ddd05a08232bde5406e5c60bd28d")
                        .unwrap(),
                    from: lane_file::Origin::Pr(511),
                },
                Some(989)
            ),
            (PickRef::Pr(516), None)
        ]
    );
    let guard = &lane.guards[0];
    assert_eq!(guard.name, "wire-v1");
    assert_eq!(
        guard.forbidden_commits[0].as_str(),
        "d322e547ffd013d890a4fd268f0a9b5a63b741af"
    );
    // Compatible wire changes pass by buf's rules instead of a freeze.
    let wire = lane.guards[1].wire.as_ref().unwrap();
    assert_eq!(wire.rules, [lane_file::WireRule::Wire]);
    let probe = &guard.probes[0];
    assert_eq!(probe.path.as_str(), "proto/worker_scheduler.proto");
    let m = probe.must_match.as_ref().unwrap().regex();
    assert!(m.is_match("syntax = \"proto3\";\npackage cozy.scheduler;\n"));
    assert!(!m.is_match("package cozy.scheduler.v1;\n"));
    let kinds: Vec<_> = lane.version_files.iter().map(|v| v.kind).collect();
    assert_eq!(kinds, [VersionFileKind::Pyproject, VersionFileKind::UvLock]);
    assert_eq!(lane.version_files[1].package.as_deref(), Some("gen-worker"));
    assert_eq!(
        lane.changelog.as_ref().unwrap().fragment_path(989),
        "changelog.d/pgw989.md"
    );
}

#[test]
fn every_shipped_lane_parses() {
    for entry in std::fs::read_dir(format!("{ROOT}/lanes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = format!("lanes/{}", path.file_name().unwrap().to_string_lossy());
            parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn the_kept_schema_is_current() {
    let kept = std::fs::read_to_string(format!("{ROOT}/docs/lane.schema.json"))
        .expect("docs/lane.schema.json exists (regenerate: lane schema > docs/lane.schema.json)");
    assert!(
        kept == lane_file::schema_text(),
        "docs/lane.schema.json is stale: run `cargo run -p lane-cli -- schema > docs/lane.schema.json`"
    );
}

#[test]
fn schema_rejects_unknown_keys_and_requires_base() {
    let schema = lane_file::schema();
    assert_eq!(schema["additionalProperties"], serde_json::json!(false));
    let required: Vec<_> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for key in ["version", "upstream", "base"] {
        assert!(required.contains(&key), "{key} not required: {required:?}");
    }
}

#[test]
fn a_good_lane_parses() {
    let lane = parse("lanes/0.93.3.yaml", GOOD).unwrap();
    assert_eq!(lane.picks.len(), 2);
    assert!(!lane.upstream.is_url());
}

fn case(text: &str) -> String {
    err("lanes/0.93.3.yaml", text).to_string()
}

#[test]
fn unknown_top_level_key_names_its_position() {
    let e = case(&GOOD.replace("base: v0.93.2\n", "base: v0.93.2\nbsae: x\n"));
    assert!(e.starts_with("lanes/0.93.3.yaml:"), "{e}");
    assert!(e.contains("unknown field `bsae`"), "{e}");
    assert!(e.contains("expected one of"), "{e}");
}

#[test]
fn unknown_key_in_a_pick_points_at_the_pick() {
    let e = err(
        "lanes/0.93.3.yaml",
        &GOOD.replace("    issue: 992\n", "    isue: 992\n"),
    );
    assert_eq!((e.line, e.column), (7, 5), "{e}");
    assert_eq!(e.path.as_deref(), Some("picks[0]"));
    assert!(e.message.contains("unknown field `isue`"), "{e}");
}

#[test]
fn wrong_type_names_line_column_and_expectation() {
    let e = err(
        "lanes/0.93.3.yaml",
        &GOOD.replace("  - pr: 515", "  - pr: many"),
    );
    assert_eq!((e.line, e.column), (6, 9), "{e}");
    assert!(
        e.to_string()
            .contains("picks[0].pr: expected a whole number of at least 1, found a string"),
        "{e}"
    );
}

#[test]
fn missing_base_is_named() {
    let e = case(&GOOD.replace("base: v0.93.2\n", ""));
    assert!(e.contains("missing field `base`"), "{e}");
    assert!(e.starts_with("lanes/0.93.3.yaml:1:1:"), "{e}");
}

#[test]
fn bad_yaml_names_line_column() {
    let e = err(
        "lanes/0.93.3.yaml",
        "version: \"0.93.3\"\nupstream: {repo: x\nbase: v1\n",
    );
    assert!(e.line >= 2, "{e}");
    assert!(e.to_string().starts_with("lanes/0.93.3.yaml:"), "{e}");
}

#[test]
fn a_version_that_is_not_a_version_points_at_it() {
    let e = err(
        "lanes/x.yaml",
        &GOOD.replace("version: \"0.93.3\"", "version: \"0.93\""),
    );
    assert_eq!((e.line, e.column), (1, 10), "{e}");
    assert!(
        e.message.contains("expected a version MAJOR.MINOR.PATCH"),
        "{e}"
    );
}

#[test]
fn an_unquoted_version_reads_as_the_version_not_a_float() {
    let lane = parse(
        "lanes/0.93.3.yaml",
        &GOOD.replace("version: \"0.93.3\"", "version: 0.93.3"),
    )
    .unwrap();
    assert_eq!(lane.version.as_str(), "0.93.3");
    let e = err(
        "lanes/x.yaml",
        &GOOD.replace("version: \"0.93.3\"", "version: 1.5"),
    );
    assert!(e.message.contains("found `1.5`"), "{e}");
}

#[test]
fn version_must_agree_with_the_file_name() {
    let e = err("lanes/0.93.4.yaml", GOOD);
    assert_eq!((e.line, e.column), (1, 1));
    assert!(
        e.message
            .contains("expected `0.93.3.yaml` for version 0.93.3, found `0.93.4.yaml`"),
        "{e}"
    );
}

/// Regression: `foo.yaml` holding 0.93.3, and `0.93.3-rc1.yaml` /
/// `0.93.3+build.1.yaml` holding those versions, were accepted; the docs
/// say a lane file is `<MAJOR.MINOR.PATCH>.yaml`.
#[test]
fn a_lane_file_is_named_for_a_release_version_and_nothing_else() {
    let e = err("lanes/foo.yaml", GOOD);
    assert!(e.message.contains("expected `0.93.3.yaml`"), "{e}");
    for suffixed in ["0.93.3-rc1", "0.93.3+build.1"] {
        let text = GOOD.replace("version: \"0.93.3\"", &format!("version: \"{suffixed}\""));
        assert_ne!(text, GOOD, "the test lane names its version");
        let e = err(&format!("lanes/{suffixed}.yaml"), &text);
        assert_eq!(e.path.as_deref(), Some("version"), "{e}");
        assert!(e.message.contains("without a pre-release"), "{e}");
    }
}

#[test]
fn a_pick_with_both_commit_and_pr_is_refused_at_the_pick() {
    let e = err(
        "lanes/0.93.3.yaml",
        &GOOD.replace("  - pr: 515\n", "  - pr: 515\n    commit: abcdef1\n"),
    );
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("exactly one of `commit`, `pr`"), "{e}");
}

#[test]
fn a_pick_with_neither_is_refused() {
    let e = case(&GOOD.replace("  - pr: 515\n    issue: 992\n", "  - issue: 992\n"));
    assert!(
        e.contains("needs one of `commit`, `pr`, `pr_head` or `adapted`"),
        "{e}"
    );
}

#[test]
fn a_bad_commit_id_points_at_it() {
    let e = err(
        "lanes/0.93.3.yaml",
        &GOOD.replace("67288eda5d58dc98b5604b206d98a5be957be3e7", "HEAD~1"),
    );
    assert_eq!((e.line, e.column), (8, 13), "{e}");
    assert!(e.message.contains("hexadecimal"), "{e}");
}

#[test]
fn duplicate_picks_point_at_the_second() {
    let e = err(
        "lanes/0.93.3.yaml",
        &GOOD.replace(
            "  - commit: 67288eda5d58dc98b5604b206d98a5be957be3e7\n",
            "  - commit: 67288eda5d58dc98b5604b206d98a5be957be3e7\n  - pr: 515\n",
        ),
    );
    assert_eq!((e.line, e.column), (9, 5), "{e}");
    assert!(e.message.contains("PR #515 is picked twice"), "{e}");
}

#[test]
fn uv_lock_needs_its_package() {
    let e = case(&GOOD.replace("    kind: pyproject\n", "    kind: uv-lock\n"));
    assert!(e.contains("needs `package`"), "{e}");
}

#[test]
fn unknown_version_file_kind_lists_the_kinds() {
    let e = case(&GOOD.replace("    kind: pyproject\n", "    kind: setup-py\n"));
    assert!(e.contains("unknown variant `setup-py`"), "{e}");
    assert!(e.contains("pyproject"), "{e}");
}

#[test]
fn a_bad_regex_in_a_probe_points_at_it() {
    let text = format!(
        "{GOOD}    probes:\n      - path: proto/a.proto\n        must_match: '^package (cozy'\n"
    );
    let e = err("lanes/0.93.3.yaml", &text);
    assert_eq!(e.line, 17, "{e}");
    assert!(e.message.contains("expected a regular expression"), "{e}");
}

#[test]
fn a_probe_without_patterns_is_refused() {
    let text = format!("{GOOD}    probes:\n      - path: proto/a.proto\n");
    assert!(case(&text).contains("needs `must_match` or `must_not_match`"));
}

#[test]
fn a_frozen_path_outside_the_repo_is_refused() {
    let e = case(&GOOD.replace("frozen_paths: [proto/]", "frozen_paths: [../proto]"));
    assert!(e.contains("relative path inside the repository"), "{e}");
}

#[test]
fn a_guard_that_checks_nothing_is_refused() {
    let e = case(&GOOD.replace("    frozen_paths: [proto/]\n", ""));
    assert!(e.contains("checks nothing"), "{e}");
}

#[test]
fn an_empty_file_says_what_is_expected() {
    let e = case("");
    assert!(e.contains("expected a mapping"), "{e}");
}

#[test]
fn a_base_equal_to_the_release_tag_is_refused() {
    let e = case(&GOOD.replace("base: v0.93.2", "base: v0.93.3"));
    assert!(e.contains("the lane's own release tag"), "{e}");
}

#[test]
fn a_bad_branch_name_is_refused() {
    let e = case(&GOOD.replace("base: v0.93.2\n", "base: v0.93.2\nbranch: release 0.93.3\n"));
    assert!(e.contains("expected a git ref name"), "{e}");
}

#[test]
fn parsing_arbitrary_text_never_panics() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 512,
        ..Default::default()
    });
    runner
        .run(
            &proptest::string::string_regex("(?s).{0,200}").unwrap(),
            |s| {
                let _ = parse("x.yaml", &s);
                Ok(())
            },
        )
        .unwrap();
    // Mutations of a good file: drop or duplicate a byte at every position.
    for i in 0..GOOD.len() {
        let mut cut = GOOD.as_bytes().to_vec();
        cut.remove(i);
        let _ = parse("x.yaml", &String::from_utf8_lossy(&cut));
        let mut dup = GOOD.as_bytes().to_vec();
        dup.insert(i, GOOD.as_bytes()[i]);
        let _ = parse("x.yaml", &String::from_utf8_lossy(&dup));
    }
    let _ = prop::num::u8::ANY; // keep the prelude import meaningful
}

/// Every refusal names the file and a place inside it, whatever the text.
#[test]
fn every_refusal_names_a_place_inside_the_file() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 512,
        ..Default::default()
    });
    let mutated = (0..GOOD.len(), any::<u8>(), 0..3u8).prop_map(|(at, byte, how)| {
        let mut b = GOOD.as_bytes().to_vec();
        match how {
            0 => {
                b.remove(at);
            }
            1 => b.insert(at, byte),
            _ => b[at] = byte,
        }
        String::from_utf8_lossy(&b).into_owned()
    });
    runner
        .run(&mutated, |text| {
            if let Err(e) = parse("lanes/0.93.3.yaml", &text) {
                let lines = text.lines().count().max(1);
                prop_assert_eq!(&e.file, "lanes/0.93.3.yaml");
                prop_assert!(
                    e.line >= 1 && e.line <= lines + 1,
                    "{} ({} lines)",
                    e,
                    lines
                );
                prop_assert!(e.column >= 1, "{}", e);
                prop_assert!(!e.message.is_empty());
            }
            Ok(())
        })
        .unwrap();
}

/// Nesting and aliases past the bounds, in any shape, are refused before
/// the parser sees them (the parser's time grows with the square of the
/// depth, and aliases multiply what it builds).
#[test]
fn adversarial_nesting_and_aliases_are_refused_before_parsing() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 64,
        ..Default::default()
    });
    let shapes = (65usize..20_000, 0..4u8).prop_map(|(n, shape)| match shape {
        0 => format!(
            "version: \"0.93.3\"\nx: {}{}\n",
            "[".repeat(n),
            "]".repeat(n)
        ),
        1 => format!(
            "version: \"0.93.3\"\nx: {}1{}\n",
            "{a: ".repeat(n),
            "}".repeat(n)
        ),
        2 => {
            let mut t = String::from("version: \"0.93.3\"\n");
            for d in 0..n.min(3000) {
                t.push_str(&format!("{}k{d}:\n", " ".repeat(d)));
            }
            t
        }
        _ => format!(
            "version: \"0.93.3\"\nbig: &b [1, 2, 3]\nx: [{}]\n",
            vec!["*b"; n].join(", ")
        ),
    });
    runner
        .run(&shapes, |text| {
            let e = parse("lanes/0.93.3.yaml", &text).unwrap_err();
            prop_assert!(e.message.starts_with("refused before parsing:"), "{}", e);
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_github_repo_comes_from_the_upstream_url_or_the_lane() {
    let text = GOOD.replace(
        "repo: ../upstream",
        "repo: https://github.com/cozy-creator/python-gen-worker.git",
    );
    let lane = parse("lanes/0.93.3.yaml", &text).unwrap();
    assert_eq!(
        lane.github_repo().as_deref(),
        Some("cozy-creator/python-gen-worker")
    );
    let lane = parse("lanes/0.93.3.yaml", GOOD).unwrap();
    assert_eq!(lane.github_repo(), None);
    let text = format!("{GOOD}github:\n  repo: a/b\n  post_to: [7]\n");
    let lane = parse("lanes/0.93.3.yaml", &text).unwrap();
    assert_eq!(lane.github_repo().as_deref(), Some("a/b"));
    assert_eq!(lane.github.unwrap().post_to, [7]);
}

#[test]
fn a_cell_names_its_report_file_and_whether_it_needs_the_source() {
    let base = "version: \"0.93.3\"\nupstream: {repo: ../up}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cells:\n";
    let lane = lane_file::parse(
        "lanes/0.93.3.yaml",
        &format!("{base}    - {{name: rig, recipe: aot, source: true, report: rig/mint/report.json, command: [sh, rig.sh]}}\n"),
    )
    .unwrap();
    let cell = &lane.mint.as_ref().unwrap().cells[0];
    assert_eq!(
        cell.report.as_ref().map(|r| r.as_str()),
        Some("rig/mint/report.json")
    );
    assert!(cell.source);
    // Both are optional: the report then goes to $LANE_REPORT_PATH.
    let lane = lane_file::parse(
        "lanes/0.93.3.yaml",
        &format!("{base}    - {{name: plain, recipe: dynamo, command: [sh, m.sh]}}\n"),
    )
    .unwrap();
    let cell = &lane.mint.as_ref().unwrap().cells[0];
    assert_eq!((cell.report.is_none(), cell.source), (true, false));
    // A report outside the mint folder, or a folder, is refused with its place.
    for (report, want) in [
        (
            "../report.json",
            "expected a relative path inside the repository",
        ),
        (
            "/tmp/report.json",
            "expected a relative path inside the repository",
        ),
        ("rig/mint/", "found the folder `rig/mint/`"),
    ] {
        let err = lane_file::parse(
            "lanes/0.93.3.yaml",
            &format!("{base}    - {{name: rig, recipe: aot, report: \"{report}\", command: [sh, rig.sh]}}\n"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("lanes/0.93.3.yaml:"), "{err}");
        assert!(err.contains(want), "{report}: {err}");
    }
}

#[test]
fn the_real_lane_mints_the_upstreams_rig_on_l40s_and_l4() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../lanes/0.93.3.yaml");
    let lane = lane_file::parse(path, &std::fs::read_to_string(path).unwrap()).unwrap();
    let m = lane
        .mint
        .as_ref()
        .expect("lanes/0.93.3.yaml has a mint section");
    let gpus: Vec<&str> = m.gpus.iter().map(|g| g.as_str()).collect();
    assert_eq!(gpus, ["L40S", "L4"]);
    assert_eq!(m.cold_repeats, 2);
    for (cell, recipe) in [("rig-dynamo", "dynamo"), ("rig-aot", "aot")] {
        let c = m.cells.iter().find(|c| c.name.as_str() == cell).unwrap();
        assert_eq!(format!("{:?}", c.recipe).to_lowercase(), recipe);
        assert!(c.source, "{cell} runs the rig from the lane tree");
        assert_eq!(c.report.as_ref().unwrap().as_str(), "rig/mint/report.json");
        assert!(c
            .command
            .join(" ")
            .contains("$LANE_SOURCE_DIR/scripts/micro_mint_rig.py"));
        assert_eq!(c.env["PGW978_RECIPE"], recipe);
    }
}

/// Values that parse but mean nothing were accepted: `timeout_s: 0` killed
/// every mint at once, `concurrency: 0` ran nothing, `[H200, H200]` planned
/// four mints and ran two, an empty program or an env key that is lane's own
/// (or no variable name at all) reached the agent. (A number out of its
/// bounds, `timeout_s: 0`, is refused where it is written:
/// `regression_the_schema_and_the_parser_hold_the_same_bounds`.)
#[test]
fn values_that_mean_nothing_are_refused_with_their_place() {
    let head = "version: \"0.93.3\"\nupstream: {repo: ../up}\nbase: v0.93.2\n";
    let cell = "  cells:\n    - {name: c, recipe: dynamo, command: [sh, m.sh]}\n";
    let cases = [
        (format!("mint:\n  gpus: [H200, H200]\n{cell}"), "mint.gpus[1]", "GPU class `H200` is listed twice"),
        ("mint:\n  gpus: [L4]\n  cells:\n    - {name: c, recipe: dynamo, command: [\"\"]}\n".to_owned(), "mint.cells[0].command[0]", "empty program"),
        ("mint:\n  gpus: [L4]\n  cells:\n    - {name: c, recipe: dynamo, command: [sh], env: {LANE_REPORT_PATH: /tmp/x}}\n".to_owned(), "mint.cells[0].env.LANE_REPORT_PATH", "lane's own"),
        ("mint:\n  gpus: [L4]\n  cells:\n    - {name: c, recipe: dynamo, command: [sh], env: {\"A=B\": x}}\n".to_owned(), "mint.cells[0].env", "`A=B` is not a variable name"),
        (format!("mint:\n  gpus: [H200]\n  stand_in: {{L40S: L4}}\n{cell}"), "mint.stand_in.L40S", "`L40S` is not one of this lane's GPU classes"),
    ];
    for (mint, path, want) in cases {
        let text = format!("{head}{mint}");
        let err = lane_file::parse("lanes/0.93.3.yaml", &text).unwrap_err();
        let shown = err.to_string();
        assert!(shown.starts_with("lanes/0.93.3.yaml:4:1: "), "{shown}");
        assert_eq!(err.path.as_deref(), Some(path), "{shown}");
        assert!(shown.contains(want), "{path}: {shown}");
    }
    // A card may stand in for a class the lane mints on.
    let ok = format!("{head}mint:\n  gpus: [H200]\n  stand_in: {{H200: H100}}\n{cell}");
    let lane = lane_file::parse("lanes/0.93.3.yaml", &ok).unwrap();
    assert_eq!(lane.mint.unwrap().stand_in_for("H200"), Some("H100"));
    // A replaying cell's label is the one LANE_ variable a cell may set.
    let ok = format!("{head}mint:\n  gpus: [L4]\n  cells:\n    - {{name: c, recipe: dynamo, command: [sh], env: {{LANE_REPLAY: \"1\", PYTHONUNBUFFERED: \"1\"}}}}\n");
    lane_file::parse("lanes/0.93.3.yaml", &ok).unwrap();
}

/// Regression: `lane mint ./.env` quoted the file's content in its error
/// (`invalid type: string "GITHUB_TOKEN=ghp_..."`). A file that is not a
/// lane file is named and described, never echoed.
#[test]
fn a_file_that_is_not_a_lane_file_is_never_echoed() {
    let e = err("0.93.3.yaml", "GITHUB_TOKEN=ghp_NeverEchoMe0123456789\n");
    let shown = e.to_string();
    assert!(!shown.contains("ghp_"), "{shown}");
    assert!(
        shown.contains("expected a lane file (a mapping with `version`, `upstream` and `base`), found a string"),
        "{shown}"
    );
}

/// Regression: a duplicate `base:` was reported at the start of its
/// mapping (1:1), not where the duplicate is.
#[test]
fn a_duplicate_key_points_at_the_duplicate() {
    let text = format!("{GOOD}base: v0.93.1\n");
    let e = err("lanes/0.93.3.yaml", &text);
    assert!(e.message.contains("duplicate field `base`"), "{e}");
    assert_eq!((e.line, e.column), (text.lines().count(), 1), "{e}");
}

#[test]
fn an_unclosed_bracket_is_named_at_the_files_end_and_where_it_began() {
    // The parser marks the end of the stream on line 4 of this 3-line file,
    // and its message repeated the mark the prefix already gives.
    let e = err("0.93.3.yaml", "version: \"0.93.3\"\nmint:\n  gpus: [L4");
    assert_eq!((e.line, e.column), (3, 12), "{e}");
    assert_eq!(
        e.to_string(),
        "0.93.3.yaml:3:12: did not find expected ',' or ']', while parsing a flow sequence that starts at line 3 column 9"
    );
}

/// Every bound the schema sets beyond its type's (`minimum` above 0, any
/// `maximum`): `(definition, field, minimum, maximum)`.
fn schema_bounds() -> Vec<(String, String, u64, Option<u64>)> {
    let schema = lane_file::schema();
    let mut found = Vec::new();
    for (def, body) in schema["$defs"].as_object().unwrap() {
        let Some(props) = body["properties"].as_object() else {
            continue;
        };
        for (field, p) in props {
            let min = p["minimum"].as_u64().unwrap_or(0);
            let max = p["maximum"].as_u64();
            if min > 0 || max.is_some() {
                found.push((def.clone(), field.clone(), min, max));
            }
        }
    }
    found.sort();
    found
}

/// A lane file holding `value` in `bound`'s field, and the line and column
/// the value is written at.
fn holding(bound: &lane_file::limits::Bound, value: u64) -> (String, usize, usize) {
    let head = "version: \"0.93.3\"\nupstream: {repo: ../up}\nbase: v0.93.2\n";
    let (body, key) = match (bound.definition, bound.field) {
        ("MintMatrix", f) => (
            format!("mint:\n  gpus: [L4]\n  {f}: {value}\n  cells:\n    - {{name: c, recipe: dynamo, command: [\"true\"]}}\n"),
            format!("  {f}: "),
        ),
        ("PickSpec", "mainline") => (
            format!("picks:\n  - commit: abcdef1\n    mainline: {value}\n"),
            "    mainline: ".to_owned(),
        ),
        ("PickSpec", "issue") => (
            format!("picks:\n  - pr: 5\n    issue: {value}\n"),
            "    issue: ".to_owned(),
        ),
        ("PickSpec", f) => (format!("picks:\n  - {f}: {value}\n"), format!("  - {f}: ")),
        ("OriginSpec", "pr") => (
            format!("picks:\n  - adapted: abcdef1\n    from:\n      pr: {value}\n"),
            "      pr: ".to_owned(),
        ),
        other => panic!("no lane file for the bounded field {other:?}: add one here"),
    };
    let text = format!("{head}{body}");
    let n = text.lines().position(|l| l.starts_with(&key)).unwrap();
    (text, n + 1, key.len() + 1)
}

/// Regression (issue 35): `cold_repeats` was bounded (16) in the schema but
/// not by the parser: `cold_repeats: 100000000` hung `lane mint --dry-run`.
/// Every bound is written once (`lane_file::limits`), the schema's bounds
/// are exactly those, and the parser holds each: its edges parse, one past
/// them is refused at the value's line:column, naming the bound.
#[test]
fn regression_the_schema_and_the_parser_hold_the_same_bounds() {
    let mut listed: Vec<_> = lane_file::limits::BOUNDED
        .iter()
        .map(|b| (b.definition.to_owned(), b.field.to_owned(), b.min, b.max))
        .collect();
    listed.sort();
    assert_eq!(
        schema_bounds(),
        listed,
        "the schema's bounds are lane_file::limits::BOUNDED"
    );
    for b in lane_file::limits::BOUNDED {
        let mut inside = vec![b.min];
        let mut outside = Vec::new();
        if b.min > 0 {
            outside.push(b.min - 1);
        }
        if let Some(max) = b.max {
            inside.push(max);
            outside.extend([max + 1, 100_000_000]);
        }
        for v in inside {
            let (text, _, _) = holding(b, v);
            if let Err(e) = parse("0.93.3.yaml", &text) {
                panic!(
                    "{}.{} = {v} is within its bounds: {e}\n{text}",
                    b.definition, b.field
                );
            }
        }
        for v in outside {
            let (text, line, column) = holding(b, v);
            let e = err("0.93.3.yaml", &text);
            let shown = e.to_string();
            assert_eq!(
                (e.line, e.column),
                (line, column),
                "{}.{} = {v}: {shown}\n{text}",
                b.definition,
                b.field
            );
            assert!(shown.contains(&v.to_string()), "{shown}");
            assert!(shown.contains(&b.min.to_string()), "{shown}");
            if let Some(max) = b.max {
                assert!(shown.contains(&format!("{}..={max}", b.min)), "{shown}");
            }
        }
    }
}
