//! Cold means cold: two concurrent repeats of a mint that erases the
//! `TORCH*` variables as the upstream's mint child does (`env_seal`,
//! pgw#718) and writes where the upstream's compilers then write (under
//! `$TMPDIR`, `$HOME`, and a fixed `/tmp` path, as gen-worker 0.117-0.126's
//! `/tmp/tensorhub-cache`) share nothing.

use super::*;
use lane_core::TmpIsolation;

/// The child: scrubs `TORCH*`, then at each place checks that nothing of
/// another attempt is there, writes its own mark, waits for the other
/// attempt to do the same, and checks again; minted only when it never
/// saw a foreign mark.
fn scrubbing_child(fixed: &Path) -> String {
    let fixed = fixed.display();
    format!(
        r#"for v in $(env | sed -n 's/^\(TORCH[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
[ -z "${{TORCH_TRACE:-}}" ] && [ -z "${{TORCHINDUCTOR_CACHE_DIR:-}}" ] || exit 5
me=$LANE_REPEAT
places="{fixed}/cas ${{TMPDIR:-/tmp}}/torchinductor_lane $HOME/.triton/cache $XDG_CACHE_HOME/cozy/compile-cells $TENSORHUB_CACHE_DIR/cas"
saw=""
for p in $places; do mkdir -p "$p"; for f in "$p"/*; do [ -e "$f" ] && [ "$f" != "$p/$me" ] && saw="$saw $f"; done; echo "$me" > "$p/$me"; done
sleep 1.5
for p in $places; do for f in "$p"/*; do [ "$f" != "$p/$me" ] && saw="$saw $f"; done; done
echo cell > "$LANE_ARTIFACTS_DIR/cell.bin"
if [ -z "$saw" ]; then s=minted; else s=failed; fi
printf '{{"status":"%s","detail":"saw:%s","recipe":"aot"}}' "$s" "$saw" > "$LANE_REPORT_PATH""#
    )
}

#[test]
fn two_concurrent_repeats_of_a_scrubbing_child_share_nothing() {
    let d = tempfile::tempdir().unwrap();
    // A fixed path, as the upstream hard-codes /tmp/tensorhub-cache (named
    // per test run, so a machine without private mount namespaces, where it
    // is shared, is not left with it).
    let fixed = std::env::temp_dir().join(format!("lane-fixed-cache-{}", std::process::id()));
    let script = scrubbing_child(&fixed);
    let runs: Vec<_> = (1..=2)
        .map(|repeat| {
            let mut s = spec(&d.path().join(format!("r{repeat}")), &script, 60);
            s.recipe = "aot".into();
            s.id.repeat = repeat;
            std::thread::spawn(move || run_agent(&s).unwrap())
        })
        .collect();
    let results: Vec<_> = runs.into_iter().map(|t| t.join().unwrap()).collect();
    let iso = results[0]
        .gathering
        .isolation
        .clone()
        .expect("the record says which isolation held");
    assert_eq!(
        iso.roots,
        [
            "TMPDIR",
            "HOME",
            "XDG_CACHE_HOME",
            "TENSORHUB_CACHE_DIR",
            "GEN_WORKER_LOCAL_CELLS_DIR",
            "COZY_GRAPH_CAS",
            "LANE_GRAPH_STORE",
            "CUDA_CACHE_PATH"
        ]
    );
    match &iso.tmp {
        TmpIsolation::Private { how } => {
            // Each repeat saw only itself, everywhere, the fixed path included.
            for r in &results {
                assert_eq!(r.outcome, MintStatus::Minted, "{}: {}", r.id, r.reason);
                assert!(
                    r.gathering.notes.iter().all(|n| !n.contains("coldness")),
                    "{:?}",
                    r.gathering.notes
                );
            }
            assert!(how.contains("namespace"), "{how}");
            assert!(iso.is_cold() && iso.shared.is_empty());
            // ... and the machine's /tmp never saw the fixed path.
            assert!(
                !fixed.exists(),
                "{} leaked onto the machine",
                fixed.display()
            );
        }
        TmpIsolation::Shared { why } => {
            // A machine without private mount namespaces: the repeats met at
            // the fixed path, and lane says so, naming the paths it knows.
            let _ = std::fs::remove_dir_all(&fixed);
            assert!(!iso.is_cold(), "{why}");
            assert!(
                iso.shared[0].starts_with("/tmp/tensorhub-cache"),
                "{:?}",
                iso.shared
            );
            assert!(results.iter().any(|r| r.outcome == MintStatus::Failed));
            assert!(results[0]
                .gathering
                .notes
                .iter()
                .any(|n| n.starts_with("coldness not guaranteed")));
        }
        TmpIsolation::Container { .. } => panic!("no container here"),
    }
}

#[test]
fn the_mint_folder_and_paths_the_cell_names_stay_where_they_are() {
    let d = tempfile::tempdir().unwrap();
    let outside = d.path().join("named-by-the-cell");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("input"), "given").unwrap();
    let script = format!(
        r#"[ "$(cat {o}/input)" = given ] || exit 3; echo out > {o}/output; [ -d "$LANE_ARTIFACTS_DIR" ] || exit 4; [ "$(pwd -P)" = "$(cd "$(dirname "$LANE_REPORT_PATH")" && pwd -P)" ] || exit 6; {MINTED}"#,
        o = outside.display()
    );
    let r = run_agent(&spec(&d.path().join("m"), &script, 30)).unwrap();
    assert_eq!(
        r.outcome,
        MintStatus::Minted,
        "{}: {}",
        r.reason,
        r.stderr_tail
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("output")).unwrap(),
        "out\n"
    );
}

#[test]
fn a_pod_runs_on_its_containers_tmp_without_a_namespace() {
    let d = tempfile::tempdir().unwrap();
    let mut s = spec(
        d.path(),
        &format!("[ ! -e /tmp/.lane-private-tmp ] || exit 3; {MINTED}"),
        30,
    );
    s.container_per_attempt = true;
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{}", r.reason);
    let iso = r.gathering.isolation.unwrap();
    assert!(matches!(iso.tmp, TmpIsolation::Container { .. }) && iso.is_cold());
}

#[test]
fn regression_a_file_made_in_tmpdir_renames_into_the_mint_folder() {
    // On the H200 the 0.126 rig's safetensors checkpoint failed: "Invalid
    // cross-device link". The mint's cwd stayed on the machine's /tmp mount
    // while TMPDIR resolved through the attempt's own /tmp: a rename(2)
    // between them crossed mounts. The wrapper enters its cwd again.
    let d = tempfile::tempdir().unwrap();
    let script = r#"python3 -c '
import os, tempfile
fd, tmp = tempfile.mkstemp()
os.write(fd, b"cell"); os.close(fd)
os.makedirs("rig/checkpoint", exist_ok=True)
os.rename(tmp, "rig/checkpoint/model.safetensors")
os.rename("rig/checkpoint/model.safetensors", os.path.join(os.environ["LANE_ARTIFACTS_DIR"], "cell.bin"))
' && printf '{"status":"minted","recipe":"aot"}' > "$LANE_REPORT_PATH""#;
    let mut s = spec(&d.path().join("r1"), script, 60);
    s.recipe = "aot".into();
    let r = run_agent(&s).unwrap();
    assert_eq!(r.outcome, MintStatus::Minted, "{}", r.reason);
}
