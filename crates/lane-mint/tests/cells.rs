//! A mint's cells travel beside its result bundle, each under a store key
//! of its own: a real agent gathers a cell far larger than any in-memory
//! budget (200 MiB of pseudo-random bytes, from `/dev/urandom` straight to
//! disk), its bundle goes to S3 (moto on loopback, a real S3 server) with
//! the cell streamed in the parts of a multipart upload, and gathering
//! streams it back into the results folder, checked as it streams. A
//! peak-counting allocator measures both ways: memory stays flat in the
//! cell's size. A manifest naming more than the cap is refused before
//! anything is fetched, and a cell that does not come back as its manifest
//! says is its slot's failure, named.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use lane_agent::agent::{fingerprint, run_agent, AgentSpec};
use lane_core::{ArtifactState, BundleState, MintStatus, Recipe};
use lane_mint::collect::{collect, FetchLimits};
use lane_store::{ArtifactStore, LocalStore, S3Config, S3Credentials, S3Store, StoreKey};
use lane_testkit::Moto;
use peak_alloc::PeakAlloc;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

/// One test at a time: the allocator's peak is one per process.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// The bytes allocated at the peak of `f`, above what was allocated before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = PEAK.current_usage();
    PEAK.reset_peak_usage();
    let out = f();
    (out, PEAK.peak_usage().saturating_sub(before))
}

/// A lane of one cell on L4, one repeat.
fn lane() -> lane_file::LaneFile {
    lane_file::parse(
        "0.93.3.yaml",
        "version: \"0.93.3\"\nupstream: {repo: ./up}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 1\n  cells:\n    - name: big\n      recipe: aot\n      command: [mint]\n",
    )
    .unwrap()
}

/// The lane's one attempt, run by a real agent whose mint writes a cell of
/// `bytes` pseudo-random bytes outside `artifacts/` and names it in its
/// report: the agent gathers it. No store: the test puts the bundle.
fn mint(dir: &Path, bytes: u64) -> lane_core::AgentResult {
    let script = format!(
        r#"mkdir -p out && head -c {bytes} /dev/urandom > out/cell.tar.gz && printf '{{"status":"minted","recipe":"aot","artifact":"out/cell.tar.gz","phases":{{"load":1.0}}}}' > "$LANE_REPORT_PATH""#
    );
    let spec = AgentSpec::new(
        lane().plan().remove(0).id,
        Recipe::Aot,
        dir.to_owned(),
        ["sh", "-c", &script].map(str::to_owned).to_vec(),
        Duration::from_secs(120),
    );
    let result = run_agent(&spec).unwrap();
    assert_eq!(result.outcome, MintStatus::Minted, "{result:?}");
    assert!(
        matches!(&result.gathering.artifact, Some(ArtifactState::Gathered { file, size, .. }) if file == "cell.tar.gz" && *size == bytes),
        "{:?}",
        result.gathering.artifact
    );
    result
}

/// Gathers the lane from `store` into `out`: the one slot's summary line.
fn gather(store: &dyn ArtifactStore, out: &Path, limits: &FetchLimits) -> lane_core::SlotSummary {
    let summary = collect(
        &lane(),
        store,
        None,
        out,
        &Default::default(),
        false,
        limits,
        &mut |id| panic!("{id} has a bundle"),
    )
    .unwrap();
    summary.mints.into_iter().next().unwrap()
}

fn record(out: &Path) -> lane_core::MintRecord {
    use lane_core::Contract;
    let bytes = std::fs::read(out.join("results/big/L4/r1/mint.json")).unwrap();
    lane_core::MintRecord::from_json("mint.json", &bytes).unwrap()
}

#[test]
fn a_cell_far_larger_than_memory_goes_to_s3_and_comes_back_whole_with_memory_flat() {
    let _one = serial();
    const CELL: u64 = 200 << 20;
    let d = tempfile::tempdir().unwrap();
    let moto = Moto::start();
    let store = S3Store::new(S3Config {
        endpoint: Some(moto.endpoint()),
        credentials: Some(S3Credentials {
            access_key_id: "testing".into(),
            secret_access_key: "testing-secret".into(),
            session_token: None,
        }),
        timeout: Duration::from_secs(120),
        ..S3Config::new("lane-cells", "ci")
    })
    .unwrap();
    store.ensure_bucket().unwrap();
    let attempt = d.path().join("attempt");
    let result = mint(&attempt, CELL);
    let cell = result
        .files
        .iter()
        .find(|f| f.path == "cell.tar.gz")
        .unwrap();

    let (state, put_peak) =
        peak_of(|| lane_agent::bundle::write_bundle(&store, None, &attempt, &result));
    let BundleState::Stored { key, stored, .. } = &state else {
        panic!("{state:?}")
    };
    assert_eq!(key, "lanes/0.93.3/mints/big/L4/r1/a1/bundle.zip");
    // The cell is named in the manifest by its own key, not inlined.
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(stored[0].path, "artifacts/cell.tar.gz");
    assert_eq!(
        stored[0].key,
        format!("lanes/0.93.3/mints/big/L4/r1/a1/files/{}", cell.sha256)
    );
    assert_eq!((stored[0].size, &stored[0].sha256), (CELL, &cell.sha256));
    let bundle = store.get(&StoreKey::new(key.clone()).unwrap()).unwrap();
    assert!(
        bundle.len() < 1 << 20,
        "the bundle inlines the cell: {} bytes",
        bundle.len()
    );

    let out = d.path().join("out");
    let (slot, fetch_peak) = peak_of(|| gather(&store, &out, &FetchLimits::default()));
    assert_eq!(slot.status, MintStatus::Minted, "{slot:?}");
    let got = fingerprint(&out.join("results/big/L4/r1/artifacts")).unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].size, &got[0].sha256), (CELL, &cell.sha256));
    // mint.json says where the cell came from.
    match &record(&out).bundle {
        Some(BundleState::Stored {
            stored: s, skipped, ..
        }) => {
            assert_eq!(s, stored);
            assert!(skipped.is_empty(), "{skipped:?}");
        }
        other => panic!("{other:?}"),
    }
    eprintln!(
        "cells: a {CELL}-byte cell: {put_peak} bytes at peak putting it in S3, {fetch_peak} gathering it"
    );
    // Flat: about one part (8 MiB) putting, a few chunks fetching, whatever
    // the cell's size.
    for (what, peak) in [("put", put_peak), ("fetch", fetch_peak)] {
        assert!(
            (peak as u64) < CELL / 8,
            "{what}: {peak} bytes at peak for a {CELL}-byte cell"
        );
    }
}

/// An attempt whose 3 MiB cell went to a folder store, for the refusals.
fn small_attempt(d: &Path) -> (LocalStore, lane_core::BundleState) {
    let store = LocalStore::new(d.join("store")).unwrap();
    let attempt = d.join("attempt");
    let result = mint(&attempt, 3 << 20);
    let state = lane_agent::bundle::write_bundle(&store, None, &attempt, &result);
    assert!(matches!(state, BundleState::Stored { .. }), "{state:?}");
    (store, state)
}

#[test]
fn a_manifest_naming_more_than_the_cap_is_refused_before_fetching() {
    let _one = serial();
    let d = tempfile::tempdir().unwrap();
    let (store, state) = small_attempt(d.path());
    let BundleState::Stored { stored, .. } = state else {
        unreachable!()
    };
    // Gone from the store: a fetch would say "not in the store".
    std::fs::remove_file(store.path_of(&StoreKey::new(stored[0].key.clone()).unwrap())).unwrap();
    let out = d.path().join("out");
    let limits = FetchLimits {
        max_bytes: 1 << 20,
        ..Default::default()
    };
    let slot = gather(&store, &out, &limits);
    assert_eq!(slot.status, MintStatus::Crashed, "{slot:?}");
    assert!(
        slot.reason
            .contains("more than the 65536 file(s) or 1048576 bytes lane fetches for one slot")
            && slot.reason.contains("refused before fetching"),
        "{}",
        slot.reason
    );
    assert!(!slot.reason.contains("not in the store"), "{}", slot.reason);
    let artifacts = out.join("results/big/L4/r1/artifacts");
    assert!(fingerprint(&artifacts).unwrap().is_empty());
}

#[test]
fn a_cell_that_does_not_come_back_as_named_is_its_slots_failure_and_leaves_nothing() {
    let _one = serial();
    let d = tempfile::tempdir().unwrap();
    let (store, state) = small_attempt(d.path());
    let BundleState::Stored { stored, .. } = state else {
        unreachable!()
    };
    let object = store.path_of(&StoreKey::new(stored[0].key.clone()).unwrap());
    let out = d.path().join("out");
    // Other bytes of the same size, then the right bytes cut short.
    let good = std::fs::read(&object).unwrap();
    let mut other = good.clone();
    other[12345] ^= 1;
    for (bytes, says) in [
        (other, format!("sha256 {}", "")),
        (
            good[..good.len() - 7].to_vec(),
            format!("{} bytes, expected {}", good.len() - 7, good.len()),
        ),
    ] {
        std::fs::write(&object, &bytes).unwrap();
        let slot = gather(&store, &out, &FetchLimits::default());
        assert_eq!(slot.status, MintStatus::Crashed, "{slot:?}");
        assert!(
            slot.reason.contains("artifacts/cell.tar.gz (store key ")
                && slot.reason.contains("did not come back whole")
                && slot.reason.contains(&says),
            "{}",
            slot.reason
        );
        let slot_dir = out.join("results/big/L4/r1");
        assert!(fingerprint(&slot_dir.join("artifacts")).unwrap().is_empty());
        // Nothing half-fetched is left in the attempt's folder either.
        let left = fingerprint(&out.join("mints/big/L4/r1/a1")).unwrap();
        assert!(left.is_empty(), "{left:?}");
    }
}
