//! The run store and gathering a lane from the store's result bundles,
//! with bundles real agents wrote.

use lane_agent::agent::{run_agent, AgentSpec};
use lane_core::{MintId, MintStatus, Recipe};
use lane_mint::store::{MintState, RunStore};
use std::path::Path;
use std::time::Duration;

/// The one slot's first attempt, as the lane's plan names it.
fn sdxl() -> MintId {
    one_slot_lane().plan().remove(0).id
}

/// A bundle-writing agent for that attempt: `sh -c script`.
fn spec(dir: &Path, script: &str, timeout_s: u64) -> AgentSpec {
    let sh = ["sh", "-c", script].map(str::to_owned).to_vec();
    AgentSpec::new(
        sdxl(),
        Recipe::Dynamo,
        dir.to_owned(),
        sh,
        Duration::from_secs(timeout_s),
    )
}

/// A mint that writes a minted report.
const MINTED: &str = r#"echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"; printf '{"status":"minted","recipe":"dynamo","phases":{"load":1.0}}' > "$LANE_REPORT_PATH""#;

#[test]
fn the_run_store_survives_reopening_and_counts_submissions() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("runs.sqlite");
    let a = sdxl();
    {
        let s = RunStore::open(&path).unwrap();
        assert!(s.ensure_planned(&a).unwrap());
        assert!(
            !s.ensure_planned(&a).unwrap(),
            "planning twice adds nothing"
        );
        s.mark_submitted(&a, d.path()).unwrap();
        s.set_pid(&a, 42).unwrap();
    }
    let s = RunStore::open(&path).unwrap();
    let rows = s.rows().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, MintState::Submitted);
    assert_eq!(rows[0].pid, Some(42));
    s.mark_finished(&a, MintStatus::Failed, "named error", Some(3.5), "{}", None)
        .unwrap();
    let rows = s.rows().unwrap();
    assert_eq!(
        (rows[0].outcome, rows[0].wall_s),
        (Some(MintStatus::Failed), Some(3.5))
    );
    assert_eq!(s.submissions(&a).unwrap(), 1);
}

/// Regression (the fault injection, a full disk): an attempt's end and its
/// retry were two commits; a disk that filled between them left the slot
/// ended `crashed` for good with no retry planned, though its policy
/// retries it (`lane mint` exited 7, a mint blamed). Now they are one
/// commit: a next attempt that cannot be written takes the end back too.
#[test]
fn regression_an_attempts_end_and_its_retry_are_one_commit() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("runs.sqlite");
    let a = sdxl();
    let s = RunStore::open(&path).unwrap();
    s.ensure_planned(&a).unwrap();
    s.mark_submitted(&a, d.path()).unwrap();
    // The next attempt's row is refused, as a full disk refuses it.
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch(
            "CREATE TRIGGER full BEFORE INSERT ON mints WHEN NEW.attempt = 2
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;",
        )
        .unwrap();
    let end = (MintStatus::Crashed, "exited 3", Some(0.5), "null");
    let refused = s.mark_finished(&a, end.0, end.1, end.2, end.3, Some(None));
    assert!(refused.is_err());
    let rows = s.rows().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, MintState::Submitted, "the end is taken back");
    other.execute_batch("DROP TRIGGER full;").unwrap();
    s.mark_finished(&a, end.0, end.1, end.2, end.3, Some(None))
        .unwrap();
    let rows = s.rows().unwrap();
    let states: Vec<(u32, MintState)> = rows.iter().map(|r| (r.id.attempt, r.state)).collect();
    assert_eq!(
        states,
        [(1, MintState::Finished), (2, MintState::Planned)],
        "ended, and retried"
    );
}

/// Regression: the schema was `CREATE TABLE IF NOT EXISTS` with no
/// version, and a state lane did not know was read as `planned`. The store
/// carries its schema version (`user_version`): a store from before it is
/// adopted, one from a newer lane is refused, and an unknown state or
/// status is an error naming it.
#[test]
fn the_run_store_has_a_schema_version_and_refuses_what_it_does_not_know() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("runs.sqlite");
    {
        let s = RunStore::open(&path).unwrap();
        assert!(s.ensure_planned(&sdxl()).unwrap());
    }
    let version = |p: &Path| -> i64 {
        rusqlite::Connection::open(p)
            .unwrap()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&path), 2);
    // A store an earlier lane wrote (no version yet, the first schema) is
    // adopted, rows kept, and brought to the latest schema.
    let old = d.path().join("old.sqlite");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute_batch(
            "CREATE TABLE mints (id TEXT PRIMARY KEY, slot TEXT NOT NULL, lane TEXT NOT NULL,
                cell TEXT NOT NULL, gpu TEXT NOT NULL, repeat INTEGER NOT NULL,
                attempt INTEGER NOT NULL, state TEXT NOT NULL, pid INTEGER, mint_dir TEXT,
                outcome TEXT, reason TEXT, wall_s REAL, retry_after REAL, result TEXT,
                updated_at REAL NOT NULL);
             CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL,
                mint_id TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT);
             INSERT INTO mints (id, slot, lane, cell, gpu, repeat, attempt, state, updated_at)
                VALUES ('0.93.3/sdxl/L4/r1/a1', '0.93.3/sdxl/L4/r1', '0.93.3', 'sdxl', 'L4', 1, 1, 'planned', 0);",
        )
        .unwrap();
    let s = RunStore::open(&old).unwrap();
    assert_eq!(s.rows().unwrap().len(), 1);
    assert_eq!(version(&old), 2);
    // A newer lane's store is refused, not guessed at.
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 7)
        .unwrap();
    let e = RunStore::open(&path).err().expect("refused");
    assert!(
        e.to_string()
            .contains("its schema is not one this lane can use"),
        "{e}"
    );
    // An unknown state is an error, never `planned`.
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute("UPDATE mints SET state = 'teleported'", [])
        .unwrap();
    let s = RunStore::open(&old).unwrap();
    let e = s.rows().unwrap_err();
    let said = format!(
        "{e}: {}",
        std::error::Error::source(&e)
            .map(|c| c.to_string())
            .unwrap_or_default()
    );
    assert!(
        said.contains("`teleported` is not a state or status this lane knows"),
        "{said}"
    );
}

/// A lane of one cell on L4, one repeat.
fn one_slot_lane() -> lane_file::LaneFile {
    lane_file::parse(
        "0.93.3.yaml",
        "version: \"0.93.3\"\nupstream: {repo: ./up}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 1\n  cells:\n    - name: sdxl\n      recipe: dynamo\n      command: [mint]\n",
    )
    .unwrap()
}

#[test]
fn collecting_from_the_store_takes_the_last_attempt_and_every_attempts_seconds() {
    let d = tempfile::tempdir().unwrap();
    let store_dir = d.path().join("store");
    let location = store_dir.to_string_lossy().into_owned();
    // Two attempts, as a Job's two pods would leave them; the second with
    // the upstream's ledger files beside its report (a share report, a
    // TORCH_TRACE log), which travel in the bundle to the results slot.
    let ledger = format!(
        r#"mkdir -p compile-pool/share-000 && echo '{{"entry":"share-000"}}' > compile-pool/share-000/report.json && echo trace > "$TORCH_TRACE/t.log"; {MINTED}"#
    );
    for (attempt, script) in [(1, "kill -SEGV $$"), (2, ledger.as_str())] {
        let mut s = spec(&d.path().join(format!("pod{attempt}")), script, 30);
        s.id.attempt = attempt;
        s.store = Some(location.clone());
        run_agent(&s).unwrap();
    }
    let store = lane_store::open(&location).unwrap();
    assert_eq!(
        lane_agent::bundle::next_attempt(store.as_ref(), &sdxl(), None).unwrap(),
        3
    );
    let out = d.path().join("out");
    let mut asked = 0;
    let summary = lane_mint::collect::collect(
        &one_slot_lane(),
        store.as_ref(),
        None,
        &out,
        &Default::default(),
        false,
        &Default::default(),
        &mut |_| {
            asked += 1;
            Default::default()
        },
    )
    .unwrap();
    assert_eq!(asked, 0, "a slot with bundles needs no fallback");
    assert!(summary.green, "{summary:?}");
    assert_eq!(summary.mints[0].attempt, 2);
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results/sdxl/L4/r1/mint.json")).unwrap())
            .unwrap();
    assert_eq!(record["attempts_wall_s"].as_array().unwrap().len(), 2);
    assert_eq!(
        record["bundle"]["key"],
        "lanes/0.93.3/mints/sdxl/L4/r1/a2/bundle.zip"
    );
    assert!(out.join("results/sdxl/L4/r1/report.json").is_file());
    let slot = out.join("results/sdxl/L4/r1/ledger");
    assert!(slot.join("compile-pool/share-000/report.json").is_file());
    assert_eq!(
        std::fs::read_to_string(slot.join("trace/t.log")).unwrap(),
        "trace\n"
    );
}

#[test]
fn a_slot_without_a_bundle_is_crashed_with_the_jobs_reason_seconds_and_log() {
    let d = tempfile::tempdir().unwrap();
    let store = lane_store::open(&d.path().join("store").to_string_lossy()).unwrap();
    let out = d.path().join("out");
    let summary = lane_mint::collect::collect(
        &one_slot_lane(),
        store.as_ref(),
        None,
        &out,
        &Default::default(),
        false,
        &Default::default(),
        &mut |id| {
            assert_eq!(id.to_string(), "0.93.3/sdxl/L4/r1/a1");
            lane_mint::collect::NoBundle {
                reason: "Job lane-x: failed (DeadlineExceeded: too long)".into(),
                seconds: Some(42.5),
                log_tail: Some("CUDA out of memory".into()),
            }
        },
    )
    .unwrap();
    assert!(!summary.green);
    let m = &summary.mints[0];
    assert_eq!(m.status, MintStatus::Crashed);
    assert!(
        m.reason.contains("no result bundle") && m.reason.contains("DeadlineExceeded"),
        "{}",
        m.reason
    );
    // Nothing measured the mint itself; the Job's seconds are kept, as such.
    assert_eq!(m.wall_s, None);
    assert_eq!(m.job_s, Some(42.5), "a failed Job keeps its seconds");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results/sdxl/L4/r1/mint.json")).unwrap())
            .unwrap();
    assert_eq!(record["job_s"], 42.5, "{record}");
    assert!(record.get("wall_s").is_none(), "{record}");
    assert_eq!(
        record["stderr_tail"], "CUDA out of memory",
        "the pod log is kept"
    );
}

#[test]
fn a_slot_whose_job_never_ran_has_no_seconds_rather_than_zero() {
    let d = tempfile::tempdir().unwrap();
    let store = lane_store::open(&d.path().join("store").to_string_lossy()).unwrap();
    let out = d.path().join("out");
    let summary = lane_mint::collect::collect(
        &one_slot_lane(),
        store.as_ref(),
        None,
        &out,
        &Default::default(),
        false,
        &Default::default(),
        &mut |_| lane_mint::collect::NoBundle {
            reason: "Job lane-x: failed (Deleted: before it started)".into(),
            seconds: None,
            log_tail: None,
        },
    )
    .unwrap();
    assert_eq!(
        summary.mints[0].wall_s, None,
        "unmeasured is absent, never 0"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results/sdxl/L4/r1/mint.json")).unwrap())
            .unwrap();
    assert!(record.get("wall_s").is_none(), "{record}");
    assert_eq!(record["attempts_wall_s"], serde_json::json!([]));
    let text = std::fs::read_to_string(out.join("results/summary.json")).unwrap();
    assert!(!text.contains("\"wall_s\""), "{text}");
}

#[test]
fn a_bundle_whose_entry_would_leave_the_mint_folder_is_refused_on_its_slot_alone() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    let location = d.path().join("store").to_string_lossy().into_owned();
    let mut s = spec(&d.path().join("pod"), MINTED, 30);
    s.store = None;
    let result = run_agent(&s).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    zip.start_file("result.json", opts).unwrap();
    zip.write_all(&serde_json::to_vec(&result).unwrap())
        .unwrap();
    zip.start_file("artifacts/../../../escaped.txt", opts)
        .unwrap();
    zip.write_all(b"x").unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    let store = lane_store::open(&location).unwrap();
    store
        .put_atomic(
            &lane_store::StoreKey::new(lane_core::layout::bundle_key(&sdxl(), None)).unwrap(),
            lane_store::Content::Bytes(&bytes),
        )
        .unwrap();
    let out = d.path().join("out");
    let summary = lane_mint::collect::collect(
        &one_slot_lane(),
        store.as_ref(),
        None,
        &out,
        &Default::default(),
        false,
        &Default::default(),
        &mut |_| Default::default(),
    )
    .unwrap();
    // Named on its slot, not fatal to the lane, and nothing escaped.
    let m = &summary.mints[0];
    assert_eq!(m.status, MintStatus::Crashed);
    assert!(
        m.reason.contains("would leave the mint folder"),
        "{}",
        m.reason
    );
    assert!(!d.path().join("escaped.txt").exists());
    assert!(!out.join("results/sdxl/L4/r1/report.json").exists());
}

#[test]
fn a_pod_killed_before_its_bundle_keeps_its_attempt_number_and_ends_the_slot() {
    let d = tempfile::tempdir().unwrap();
    let location = d.path().join("store").to_string_lossy().into_owned();
    let store = lane_store::open(&location).unwrap();
    let slot = sdxl();
    // Pod 1 claims a1 and mints (its bundle lands).
    let a1 = lane_agent::bundle::claim_attempt(store.as_ref(), &slot, Some("r"), "pod-1").unwrap();
    assert_eq!(a1, 1);
    let mut s = spec(&d.path().join("pod1"), "kill -SEGV $$", 30);
    s.store = Some(location.clone());
    s.run = Some("r".into());
    run_agent(&s).unwrap();
    // Pod 2 claims a2 and is OOM-killed before writing anything.
    let a2 = lane_agent::bundle::claim_attempt(store.as_ref(), &slot, Some("r"), "pod-2").unwrap();
    assert_eq!(a2, 2);
    // A third pod never reuses a2, nor does one that raced pod 2 to it.
    assert_eq!(
        lane_agent::bundle::claim_attempt(store.as_ref(), &slot, Some("r"), "pod-3").unwrap(),
        3
    );
    let out = d.path().join("out");
    // (Pod 3's own attempt is left unfinished too here: the slot ends on it.)
    let summary = lane_mint::collect::collect(
        &one_slot_lane(),
        store.as_ref(),
        Some("r"),
        &out,
        &Default::default(),
        false,
        &Default::default(),
        &mut |_| lane_mint::collect::NoBundle {
            reason: "Job j: failed (BackoffLimitExceeded)".into(),
            seconds: Some(99.0),
            log_tail: None,
        },
    )
    .unwrap();
    let m = &summary.mints[0];
    assert_eq!(m.attempt, 3, "{m:?}");
    assert_eq!(m.status, MintStatus::Crashed);
    assert!(
        m.reason
            .contains("attempt a3 was claimed but left no result bundle"),
        "{}",
        m.reason
    );
    // a1's measured seconds still count; the Job's are named as such.
    assert!(m.wall_s.is_some_and(|w| w > 0.0), "{m:?}");
    assert_eq!(m.job_s, Some(99.0));
}
