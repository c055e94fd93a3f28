//! One writer per lane (`lane.lock`): two `lane mint` of one lane, started
//! together or apart, both end with every slot gathered; `--no-wait`
//! refuses at once with exit 9 while another command holds the lane.

use super::mint::{runs, write_lane};
use super::{code, lane, stderr, stdout, Redact};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `lane mint 0.93.3` in `dir` with `extra` arguments, in the background.
fn spawn_mint(dir: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["mint", "0.93.3"])
        .args(extra)
        .current_dir(dir)
        .env_remove("LANE_LOG")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lane binary runs")
}

/// Every slot of `write_lane`'s lane (`cells` cells × 2 repeats on L4) has
/// its gathered report and a minted record.
fn assert_every_slot_gathered(dir: &Path, cells: usize) {
    for i in 0..cells {
        for r in ["r1", "r2"] {
            let slot = dir.join(format!("out/lanes/0.93.3/results/cell{i:02}/L4/{r}"));
            assert!(slot.join("report.json").is_file(), "{}", slot.display());
            let m: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(slot.join("mint.json")).unwrap())
                    .unwrap();
            assert_eq!(m["status"], "minted", "{}", slot.display());
        }
    }
}

#[test]
fn regression_two_mints_of_one_lane_lost_a_slots_results() {
    for gap in [Duration::ZERO, Duration::from_millis(400)] {
        let d = tempfile::tempdir().unwrap();
        write_lane(d.path(), 3, 2, "");
        let first = spawn_mint(d.path(), &[]);
        std::thread::sleep(gap);
        let second = spawn_mint(d.path(), &[]);
        let (first, second) = (
            first.wait_with_output().unwrap(),
            second.wait_with_output().unwrap(),
        );
        for o in [&first, &second] {
            assert_eq!(code(o), 0, "gap {gap:?}: {}{}", stdout(o), stderr(o));
            assert!(stdout(o).contains("6 mints, green"), "{}", stdout(o));
        }
        // One of the two waited, and said for what.
        let waited = [&first, &second]
            .iter()
            .filter(|o| stderr(o).contains("waiting   for lane 0.93.3: held by `lane mint` (pid "))
            .count();
        assert_eq!(waited, 1, "{}\n---\n{}", stderr(&first), stderr(&second));
        assert_every_slot_gathered(d.path(), 3);
        // Each mint ran once: the second adopted what the first gathered.
        assert!(
            runs(d.path()).values().all(|n| *n == 1),
            "{:?}",
            runs(d.path())
        );
        let o = lane(d.path(), &["report", "0.93.3"]);
        assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    }
}

#[test]
fn a_mint_asked_not_to_wait_is_refused_while_another_holds_the_lane() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 3, 1, "");
    let mut first = spawn_mint(d.path(), &[]);
    // The first holds the lane once its lock file says so.
    let lock = d.path().join("out/lanes/0.93.3/lane.lock");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("held by")) {
        assert!(
            Instant::now() < deadline,
            "the first mint never took the lane"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = lane(d.path(), &["mint", "0.93.3", "--no-wait"]);
    let o2 = lane(d.path(), &["report", "0.93.3", "--no-wait"]);
    assert!(first.wait().unwrap().success());
    assert_eq!(code(&o), 9, "{}", stderr(&o));
    assert_eq!(code(&o2), 9, "{}", stderr(&o2));
    let redact = Redact::new()
        .pattern(r"pid \d+", "pid <PID>")
        .pattern(r"since \S+\)", "since <TIME>)");
    insta::assert_snapshot!(redact.apply(&stderr(&o)), @"error: lane 0.93.3 is busy: held by `lane mint` (pid <PID>) since <TIME> (run again without --no-wait to wait for it)");
    assert_every_slot_gathered(d.path(), 3);
}
