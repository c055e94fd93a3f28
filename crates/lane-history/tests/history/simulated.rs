//! A judged lane on a deterministic simulated history (history-sim.py's
//! model, `sim.rs`): eight earlier lanes, three cold repeats, six cells of
//! one CPU-bound phase on two GPU classes; the first cell 20 % slower on
//! both classes, the second on one class only. Snapshotted as JSON.

use lane_history::{
    judge_lane, read_rows, write_rows, Ack, AckScope, Policy, Row, SeriesKey, Verdict,
};

use crate::sim::{simulate, split, Rng, Setting};

fn setting() -> Setting {
    Setting {
        series: 6,
        regressed: 1,
        ..Setting::base("snapshot")
    }
}

fn lane() -> (Vec<lane_history::Row>, Vec<lane_history::Row>) {
    let s = setting();
    let sim = simulate(&s, 0.20, &mut Rng::new(2026));
    let (history, mut lane) = split(sim.rows, &s);
    // The second cell slower on L4 only.
    for r in lane
        .iter_mut()
        .filter(|r| r.cell == "cell01" && r.gpu == "L4")
    {
        r.seconds = r.seconds.map(|v| v * 1.2);
    }
    (history, lane)
}

#[test]
fn a_judged_simulated_lane() {
    let (history, lane) = lane();
    let j = judge_lane(&history, &lane, &[], &Policy::default());
    let words: Vec<(String, Verdict, bool)> = j
        .series
        .iter()
        .map(|s| (s.key.to_string(), s.verdict, s.confirmed))
        .collect();
    assert_eq!(
        words[0],
        ("cell00/L4/codegen_s".into(), Verdict::Regressed, true)
    );
    assert_eq!(
        words[1],
        ("cell00/L40S/codegen_s".into(), Verdict::Regressed, true)
    );
    assert!(j.environment_shift.is_none());
    insta::assert_json_snapshot!("simulated_lane", j);
}

#[test]
fn rows_survive_json_lines_and_an_ack_starts_a_new_segment() {
    let (history, lane) = lane();
    let text = write_rows(&history);
    assert_eq!(text.lines().count(), history.len());
    let back = read_rows(&text).unwrap();
    // serde_json reads a float back to within one unit in the last place.
    assert_eq!(back.len(), history.len());
    for (a, b) in back.iter().zip(&history) {
        let (x, y) = (a.seconds.unwrap(), b.seconds.unwrap());
        assert!((x - y).abs() <= 1e-12 * y, "{x} vs {y}");
        assert_eq!(
            Row {
                seconds: None,
                ..a.clone()
            },
            Row {
                seconds: None,
                ..b.clone()
            }
        );
    }
    // Acknowledging cell00 on L40S at the newest history run leaves it one
    // lane of history: too few to judge.
    let ack = Ack {
        run: "run07".into(),
        scope: AckScope::Series(SeriesKey {
            cell: "cell00".into(),
            gpu: "L40S".into(),
            phase: "codegen_s".into(),
        }),
        reason: "a bigger graph on purpose".into(),
    };
    let j = judge_lane(&back, &lane, &[ack], &Policy::default());
    let s = j
        .series
        .iter()
        .find(|s| s.key.to_string() == "cell00/L40S/codegen_s")
        .unwrap();
    assert_eq!((s.verdict, s.history), (Verdict::InsufficientHistory, 1));
    assert_eq!(
        s.segment.as_ref().unwrap().detail,
        "a bigger graph on purpose"
    );
}
