//! `lane cancel`: delete a lane's Kubernetes Jobs and their pods.

use std::path::PathBuf;

use serde::Serialize;

use crate::exit::{CliError, CliResult, Exit};
use crate::lane::load;
use crate::output::print_json;

/// Arguments of `lane cancel`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The lane: a version (`0.93.3`) or a lane file path.
    pub lane: String,
    /// The Kubernetes backend's configuration (YAML, `docs/kubernetes.md`).
    #[arg(long)]
    pub kube_config: PathBuf,
    /// Say what would be deleted (the label selector) and delete nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print what was deleted as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Cancelled {
    lane: String,
    namespace: String,
    jobs: Vec<String>,
    pods: Vec<String>,
}

/// Runs `lane cancel`.
pub fn run(args: Args) -> CliResult {
    let loaded = load(&args.lane)?;
    let cfg = crate::cmd::mint::load_kube_config(&args.kube_config)?;
    let lane = loaded.lane.version.to_string();
    if args.dry_run {
        println!(
            "would delete every Job and pod in namespace {} with labels {}",
            cfg.namespace,
            lane_kube::lane_selector(&lane)
        );
        return Ok(Exit::Ok);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let namespace = cfg.namespace.clone();
    let report = rt
        .block_on(async {
            let backend = lane_kube::KubeBackend::connect(cfg).await?;
            backend.cancel(&lane).await
        })
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let out = Cancelled {
        lane,
        namespace,
        jobs: report.jobs,
        pods: report.pods,
    };
    if args.json {
        print_json(&out)?;
    } else {
        println!(
            "lane {}: deleted {} Jobs and {} pods in {}",
            out.lane,
            out.jobs.len(),
            out.pods.len(),
            out.namespace
        );
        for j in &out.jobs {
            println!("  job {j}");
        }
    }
    Ok(Exit::Ok)
}
