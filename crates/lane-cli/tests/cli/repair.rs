//! A rerun repairs a gathered result that went missing: from the attempt's
//! folder, else from its bundle in the store, else by minting the slot
//! again; it never says green over a slot whose results are gone.

use super::mint::{runs, write_lane};
use super::{code, lane, stderr, stdout};

#[test]
fn regression_a_rerun_said_green_over_a_slot_whose_results_were_gone() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 2, "");
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = d.path().join("out/lanes/0.93.3");
    let slot = |r: u32| out.join(format!("results/cell00/L4/r{r}"));
    let cell = |r: u32| slot(r).join("artifacts/cell.bin");

    // r1 loses its cell, r2 its whole folder: both gathered again from
    // their attempt folders, without minting.
    std::fs::remove_file(cell(1)).unwrap();
    std::fs::remove_dir_all(slot(2)).unwrap();
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let said = stdout(&o) + &stderr(&o);
    assert!(
        said.contains("0.93.3/cell00/L4/r1/a1: gathered again: its results folder had lost artifacts/cell.bin"),
        "{said}"
    );
    assert!(
        said.contains(
            "0.93.3/cell00/L4/r2/a1: gathered again: its results folder had lost mint.json"
        ),
        "{said}"
    );
    assert_eq!(std::fs::read(cell(1)).unwrap(), b"cell\n");
    assert_eq!(std::fs::read(cell(2)).unwrap(), b"cell\n");
    assert_eq!(
        runs(d.path()).values().sum::<usize>(),
        2,
        "nothing minted again"
    );

    // r1's attempt folder goes too: its bundle in the store brings it back.
    std::fs::remove_dir_all(slot(1)).unwrap();
    std::fs::remove_dir_all(out.join("mints/cell00/L4/r1")).unwrap();
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(std::fs::read(cell(1)).unwrap(), b"cell\n");
    assert_eq!(
        runs(d.path()).values().sum::<usize>(),
        2,
        "nothing minted again"
    );

    // r2 lost everywhere (results, attempt folder, store): minted again as
    // its next attempt, said so, and the lane is green only once it is back.
    std::fs::remove_dir_all(slot(2)).unwrap();
    std::fs::remove_dir_all(out.join("mints/cell00/L4/r2")).unwrap();
    std::fs::remove_dir_all(d.path().join("out/store/lanes/0.93.3/mints/cell00/L4/r2")).unwrap();
    let o = lane(d.path(), &["mint", "0.93.3"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let said = stdout(&o) + &stderr(&o);
    assert!(
        said.contains("neither its attempt folder nor the store holds it: minted again as 0.93.3/cell00/L4/r2/a2"),
        "{said}"
    );
    assert_eq!(
        runs(d.path())["0.93.3/cell00/L4/r2/a2"],
        1,
        "{:?}",
        runs(d.path())
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(slot(2).join("mint.json")).unwrap()).unwrap();
    assert_eq!(
        (record["attempt"].as_u64(), record["status"].as_str()),
        (Some(2), Some("minted"))
    );
}
