//! `lane diff`'s edge: classes found, digests checked, limits, verdict names.

use super::*;

const SHA: &str = "7f5394ecde6ad25792ad05304d7b659158b25801842a9b036ed37c417aa0130f";

/// A mint folder whose report says `entries` is `entries`.
fn mint(entries: serde_json::Value) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let report = serde_json::json!({"status": "minted", "entries": entries});
    std::fs::write(d.path().join("report.json"), report.to_string()).unwrap();
    d
}

fn problem(e: AppError) -> String {
    match e {
        AppError::InvalidInput { at, problem } => format!("{at}: {problem}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_folder_whose_report_names_no_entries_is_a_cell() {
    let d = tempfile::tempdir().unwrap();
    assert!(classes_of(d.path()).unwrap().is_none());
    std::fs::write(d.path().join("report.json"), r#"{"status": "minted"}"#).unwrap();
    assert!(classes_of(d.path()).unwrap().is_none());
    // A file is a cell, whatever its name.
    assert!(classes_of(&d.path().join("report.json")).unwrap().is_none());
}

#[test]
fn an_entry_is_found_by_its_name_beside_the_report_or_under_artifacts() {
    let d = mint(serde_json::json!([
        ["k1", "/tmp/elsewhere/rig/mint/k1.tar.gz", SHA],
        ["k2", "k2.tar.gz", SHA.to_uppercase()],
    ]));
    std::fs::write(d.path().join("k1.tar.gz"), "1").unwrap();
    std::fs::create_dir(d.path().join("artifacts")).unwrap();
    std::fs::write(d.path().join("artifacts/k2.tar.gz"), "2").unwrap();
    let m = classes_of(d.path()).unwrap().unwrap();
    let found: Vec<(&str, PathBuf)> = m
        .classes
        .iter()
        .map(|(c, sha)| {
            assert_eq!(sha, SHA);
            (c.key.as_str(), PathBuf::from(&c.path))
        })
        .collect();
    assert_eq!(
        found,
        [
            ("k1", d.path().join("k1.tar.gz")),
            ("k2", d.path().join("artifacts/k2.tar.gz")),
        ]
    );
}

#[test]
fn bad_entries_are_refused_at_their_json_path() {
    let cases = [
        (serde_json::json!({"k": 1}), "$.entries: expected an array"),
        (serde_json::json!([["k", "k.tar.gz"]]), "$.entries[0]: expected [key, path, sha256]"),
        (serde_json::json!([["k", "k.tar.gz", "abc"]]), "$.entries[0][2]: expected a sha256"),
        (serde_json::json!([["k", "../..", SHA]]), "$.entries[0][1]: \"../..\" names no file"),
        (serde_json::json!([["k", "gone.tar.gz", SHA]]), "$.entries[0]: graph class \"k\": its file \"gone.tar.gz\" is neither beside the report nor under artifacts/"),
    ];
    for (entries, want) in cases {
        let d = mint(entries);
        let got = problem(classes_of(d.path()).err().unwrap());
        assert!(got.contains(want), "{got}");
    }
}

#[test]
#[cfg(unix)]
fn an_entry_that_is_a_link_is_never_followed() {
    let d = mint(serde_json::json!([["k", "k.tar.gz", SHA]]));
    std::os::unix::fs::symlink("/etc/hostname", d.path().join("k.tar.gz")).unwrap();
    let got = problem(classes_of(d.path()).err().unwrap());
    assert!(got.contains("a symbolic link, never followed"), "{got}");
}

#[test]
fn a_file_that_is_not_what_the_report_names_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("k.tar.gz");
    std::fs::write(&f, "not the class").unwrap();
    let got = problem(check_digest(&f, "k", SHA, 1 << 20).err().unwrap());
    assert!(
        got.contains(&format!("the report names {SHA} for graph class \"k\"")),
        "{got}"
    );
    let got = problem(check_digest(&f, "k", SHA, 4).err().unwrap());
    assert!(got.ends_with("more than the 4-byte cap"), "{got}");
}

#[test]
fn repeats_of_which_only_one_names_graph_classes_are_refused() {
    let a = mint(serde_json::json!([["k", "k.tar.gz", SHA]]));
    std::fs::create_dir(a.path().join("artifacts")).unwrap();
    std::fs::write(a.path().join("artifacts/k.tar.gz"), "1").unwrap();
    let b = mint(serde_json::Value::Null);
    std::fs::write(b.path().join("report.json"), r#"{"status": "minted"}"#).unwrap();
    let got = problem(diff_repeats(a.path(), b.path(), 1 << 20).unwrap_err());
    assert!(
        got.contains("report.json: names no graph classes (entries) while")
            && got.contains("the two repeats are not mints of one kind"),
        "{got}"
    );
}

#[test]
fn max_content_bytes_of_3_gb_was_capped_by_the_256_mib_side_budget() {
    let limits = content_limits(3_000_000_000);
    assert_eq!(limits.max_content_bytes, 3_000_000_000);
    assert_eq!(limits.max_total_content_bytes, 3_000_000_000);
    // A lower cap keeps the default budget.
    let default = ReadLimits::default().max_total_content_bytes;
    assert_eq!(content_limits(1 << 20).max_total_content_bytes, default);
}

#[test]
fn a_verdict_is_named_as_fail_on_spells_it() {
    assert_eq!(
        verdict_name(DeterminismVerdict::DecisionsFlipped),
        "decisions-flipped"
    );
    assert_eq!(
        verdict_name(DeterminismVerdict::PathNoiseOnly),
        "path-noise-only"
    );
}
