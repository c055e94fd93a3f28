//! `lane replay-mint`: a mint command that replays a recorded real mint
//! (the H200 fixtures embedded in the binary) instead of compiling: it
//! writes the recorded report to `$LANE_REPORT_PATH` and the recorded
//! artifacts under `$LANE_ARTIFACTS_DIR`. Every output of a lane that used
//! it says "replay". It lets the demo run the whole pipeline with no GPU.

use include_dir::{include_dir, Dir};
use std::path::{Path, PathBuf};

use crate::exit::{CliError, CliResult, Exit, WithExit};

/// The real H200 mint (torch 2.11): `jit_report.json`, two cold AOT compiles.
pub static H200: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../tests/data/h200-torch2.11");

/// Arguments of `lane replay-mint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which recording: `jit` (the dynamo warm-ledger mint) or `aot` (odd
    /// repeats replay cold compile A, even repeats cold compile B).
    #[arg(long)]
    pub recorded: String,
    /// Seconds to take, standing in for the compile.
    #[arg(long, default_value_t = 0.2)]
    pub seconds: f64,
}

fn write_tree(dir: &Dir<'_>, root: &Path, strip: &Path) -> std::io::Result<()> {
    for f in dir.files() {
        let rel = f.path().strip_prefix(strip).unwrap_or(f.path());
        let dst = root.join(rel);
        if let Some(p) = dst.parent() {
            std::fs::create_dir_all(p)?;
        }
        std::fs::write(dst, f.contents())?;
    }
    for d in dir.dirs() {
        write_tree(d, root, strip)?;
    }
    Ok(())
}

/// Runs `lane replay-mint`.
pub fn run(args: Args) -> CliResult {
    let report_path = std::env::var_os("LANE_REPORT_PATH")
        .map(PathBuf::from)
        .ok_or_else(|| {
            CliError::new(
                Exit::Usage,
                anyhow::anyhow!("LANE_REPORT_PATH is not set: run me under `lane agent`"),
            )
        })?;
    let artifacts = std::env::var_os("LANE_ARTIFACTS_DIR").map(PathBuf::from);
    let repeat: u32 = std::env::var("LANE_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    std::thread::sleep(std::time::Duration::from_secs_f64(
        args.seconds.clamp(0.0, 3600.0),
    ));
    let (report_name, tree) = match args.recorded.as_str() {
        "jit" => ("jit_report.json", None),
        "aot" if repeat % 2 == 1 => ("aot_a.json", Some("aot_a")),
        "aot" => ("aot_b.json", Some("aot_b")),
        other => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!("unknown recording `{other}`: expected `jit` or `aot`"),
            ))
        }
    };
    let file = H200.get_file(report_name).expect("embedded at build time");
    let mut report: serde_json::Value =
        serde_json::from_slice(file.contents()).exit(Exit::Failure)?;
    // The probe's AOT records predate the report envelope: give them the
    // fields every report has, and say it is a replay.
    if let Some(obj) = report.as_object_mut() {
        obj.entry("status").or_insert_with(|| "minted".into());
        obj.entry("recipe").or_insert_with(|| {
            if tree.is_some() {
                "aot".into()
            } else {
                "dynamo".into()
            }
        });
        obj.insert("replay".into(), true.into());
    }
    std::fs::write(
        &report_path,
        serde_json::to_vec_pretty(&report).exit(Exit::Failure)?,
    )
    .exit(Exit::Failure)?;
    if let (Some(t), Some(out)) = (tree, artifacts) {
        let dir = H200.get_dir(t).expect("embedded at build time");
        write_tree(dir, &out, Path::new(t)).exit(Exit::Failure)?;
    }
    Ok(Exit::Ok)
}
