//! Places: an agent started ahead of a free place makes everything ready,
//! then its mint waits for the place (a lock file the mint holds while it
//! lives); the wait is neither billed to the mint nor counted against its
//! timeout, and an attempt stopped while it waits never runs its mint.

use super::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Holds `place` from another process (util-linux `flock`) for `seconds`.
fn hold(place: &Path, seconds: &str) -> std::process::Child {
    let child = std::process::Command::new("flock")
        .arg(place)
        .args(["sleep", seconds])
        .spawn()
        .unwrap();
    // Until it holds: a second, non-blocking lock on it fails.
    while std::process::Command::new("flock")
        .args(["-n"])
        .arg(place)
        .arg("true")
        .status()
        .unwrap()
        .success()
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// A mint that writes when it started (seconds since the epoch) and
/// whether its place was held while it ran, then sleeps and is minted.
fn timed(sleep: &str) -> String {
    format!(
        r#"date +%s.%N > started
if flock -n "$PLACE_COPY" true; then echo free > place; else echo held > place; fi
sleep {sleep}; date +%s.%N > ended; {MINTED}"#
    )
}

fn read_f64(path: &Path) -> f64 {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn two_agents_of_one_place_never_run_their_mints_at_once_and_the_wait_is_not_billed() {
    let d = tempfile::tempdir().unwrap();
    let place = d.path().join("places/0");
    let run = |name: &str, sleep: &str| {
        let mut s = spec(&d.path().join(name), &timed(sleep), 30);
        s.place = Some(place.clone());
        s.env
            .insert("PLACE_COPY".into(), place.display().to_string());
        s
    };
    let (first, second) = (run("first", "1.0"), run("second", "0.2"));
    let a = std::thread::spawn(move || run_agent(&first).unwrap());
    // The second agent is started while the first mint runs.
    while !d.path().join("first/started").exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let b = run_agent(&second).unwrap();
    let a = a.join().unwrap();
    assert_eq!(
        (a.outcome, b.outcome),
        (MintStatus::Minted, MintStatus::Minted)
    );
    let first_ended = read_f64(&d.path().join("first/ended"));
    let second_started = read_f64(&d.path().join("second/started"));
    assert!(
        second_started >= first_ended,
        "the second mint started at {second_started}, before the first ended at {first_ended}"
    );
    // Each mint held the place while it ran.
    for m in ["first", "second"] {
        let said = std::fs::read_to_string(d.path().join(m).join("place")).unwrap();
        assert_eq!(said, "held\n", "{m}");
    }
    // The second waited most of a second; its seconds are its mint's (0.2 s).
    let wall = b.wall_s.unwrap();
    assert!((0.2..0.8).contains(&wall), "{wall}");
    assert!(
        b.started_at.unwrap() >= first_ended - 0.05,
        "{:?}",
        b.started_at
    );
    // Both gone, the place is free.
    assert!(std::process::Command::new("flock")
        .arg("-n")
        .arg(&place)
        .arg("true")
        .status()
        .unwrap()
        .success());
}

#[test]
fn the_timeout_runs_from_the_mints_start_not_from_its_wait_for_a_place() {
    let d = tempfile::tempdir().unwrap();
    let place = d.path().join("place");
    let mut holder = hold(&place, "1.5");
    let mut s = spec(&d.path().join("m"), &format!("sleep 0.2; {MINTED}"), 1);
    s.place = Some(place.clone());
    let r = run_agent(&s).unwrap();
    holder.wait().unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{r:?}");
    assert!(r.wall_s.is_some_and(|w| w < 1.0), "{:?}", r.wall_s);
}

#[test]
fn an_attempt_stopped_while_it_waits_for_its_place_never_runs_its_mint() {
    let d = tempfile::tempdir().unwrap();
    let place = d.path().join("place");
    let mut holder = hold(&place, "3");
    let stop = Arc::new(AtomicBool::new(false));
    let mut s = spec(
        &d.path().join("m"),
        &format!("echo ran > ran; {MINTED}"),
        30,
    );
    s.place = Some(place.clone());
    s.stop = Some(Arc::clone(&stop));
    let agent = std::thread::spawn(move || run_agent(&s));
    // Ready and waiting: its group is recorded, its mint not started.
    while !d.path().join("m/mint.pid").exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(200));
    stop.store(true, Ordering::SeqCst);
    let r = agent.join().unwrap();
    assert!(
        matches!(r, Err(lane_agent::AgentError::Interrupted)),
        "{r:?}"
    );
    let _ = holder.kill();
    let _ = holder.wait();
    assert!(!d.path().join("m/ran").exists());
    assert!(!d.path().join("m/result.json").exists());
}
