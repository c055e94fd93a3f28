//! The real Apache Otava over the evaluations' simulated series:
//! `otava-eval.py`, run once over a CSV of `a,b,c,d,v0,...,vN` (four keys,
//! then one series' lane means, the new lane last).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Runs `otava-eval.py` with `python` over `csv` and returns the four keys
/// of each series it flags (a change point at the new lane going up).
pub fn run_otava(python: &Path, csv: &str) -> BTreeSet<(usize, usize, usize, usize)> {
    let dir = std::env::temp_dir().join(format!("lane-otava-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let input = dir.join("series.csv");
    std::fs::write(&input, csv).expect("the series written");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/otava-eval.py");
    let out = Command::new(python)
        .arg(&script)
        .arg(&input)
        .output()
        .expect("the Otava script started");
    assert!(
        out.status.success(),
        "otava-eval.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<usize> = l.split(',').filter_map(|x| x.trim().parse().ok()).collect();
            (f.len() == 4).then(|| (f[0], f[1], f[2], f[3]))
        })
        .collect()
}
