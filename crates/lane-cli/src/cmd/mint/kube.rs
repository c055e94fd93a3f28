//! `lane mint --backend kube`: one Job per mint. `--dry-run` prints them as
//! YAML and creates nothing. Otherwise the lane's existing Jobs are adopted,
//! the missing ones created, all of them watched to their end, and every
//! slot is gathered from the result bundles the pods put in the store (the
//! pod log's tail stands in where a bundle is missing), then reported like a
//! local lane.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use lane_core::Progress;
use lane_core::Summary;
use lane_kube::{JobEnd, KubeConfig, MintJob, StagedWheel};
use lane_mint::collect::{collect, NoBundle};

use super::Args;
use crate::exit::{CliError, CliResult, Exit};
use crate::output::print_json;

/// How much of a pod's log stands in for a missing bundle.
const LOG_TAIL_BYTES: i64 = 64 * 1024;

fn invalid(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::new(
        Exit::InvalidInput,
        anyhow::anyhow!("{}: {e}", path.display()),
    )
}

/// Reads the kube backend's configuration (YAML, `docs/kubernetes.md`).
pub fn load_config(path: &Path) -> Result<KubeConfig, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| invalid(path, e))?;
    let cfg: KubeConfig = serde_yaml::from_str(&text).map_err(|e| invalid(path, e))?;
    cfg.check().map_err(|e| invalid(path, e))?;
    Ok(cfg)
}

/// The staged wheel behind `key` and the source archive beside it (when
/// the manifest names one): the manifest gives their sha256; the URLs are
/// presigned for `ttl`.
fn staged_wheel(
    store: &dyn lane_store::ArtifactStore,
    key: &str,
    ttl: Duration,
) -> Result<(StagedWheel, Option<StagedWheel>, lane_core::WheelRef), CliError> {
    let fail = |e: lane_store::StoreError| CliError::new(Exit::Precondition, e);
    let wheel_key = lane_store::StoreKey::new(key.to_owned())
        .map_err(|e| CliError::new(Exit::Usage, anyhow::anyhow!("--wheel-key: {e}")))?;
    let (dir, file) = key.rsplit_once('/').ok_or_else(|| {
        CliError::new(
            Exit::Usage,
            anyhow::anyhow!("--wheel-key must be lanes/<lane>/<commit>/<file>.whl, found `{key}`"),
        )
    })?;
    let manifest_key = lane_store::StoreKey::new(format!("{dir}/manifest.json")).map_err(fail)?;
    let bytes = store.get(&manifest_key).map_err(fail)?;
    // The type `lane wheel` wrote it with.
    let manifest: lane_wheel::WheelManifest = serde_json::from_slice(&bytes).map_err(|e| {
        CliError::new(
            Exit::InvalidInput,
            anyhow::anyhow!(
                "{}/{manifest_key}: line {} column {}: {e}",
                store.location(),
                e.line(),
                e.column()
            ),
        )
    })?;
    if manifest.sha256.len() != 64 || !manifest.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::new(
            Exit::InvalidInput,
            anyhow::anyhow!(
                "{}/{manifest_key}: sha256 must be 64 hex digits, found `{}`",
                store.location(),
                manifest.sha256
            ),
        ));
    }
    if manifest.wheel != file {
        return Err(CliError::new(
            Exit::Verification,
            anyhow::anyhow!(
                "{}/{manifest_key} is the manifest of {}, not {file}",
                store.location(),
                manifest.wheel
            ),
        ));
    }
    let staged = |key: &lane_store::StoreKey, sha256: String| -> Result<StagedWheel, CliError> {
        Ok(match store.fetch_location(key, ttl).map_err(fail)? {
            lane_store::FetchLocation::Url(url) => StagedWheel { url, sha256 },
            lane_store::FetchLocation::Path(p) => StagedWheel {
                url: format!("file://{}", p.display()),
                sha256,
            },
        })
    };
    let source = match manifest.source {
        Some(src)
            if src.sha256.len() == 64
                && src.sha256.bytes().all(|b| b.is_ascii_hexdigit())
                && !src.file.contains('/') =>
        {
            let key = lane_store::StoreKey::new(format!("{dir}/{}", src.file)).map_err(fail)?;
            Some(staged(&key, src.sha256)?)
        }
        Some(_) => {
            return Err(CliError::new(
                Exit::InvalidInput,
                anyhow::anyhow!(
                "{}/{manifest_key}: source: `file` must be a file name and `sha256` 64 hex digits",
                store.location()
            ),
            ))
        }
        None => None,
    };
    let shown = lane_core::WheelRef {
        file: manifest.wheel.clone(),
        sha256: manifest.sha256.clone(),
        key: Some(key.to_owned()),
        commit: Some(manifest.commit.clone()),
    };
    Ok((staged(&wheel_key, manifest.sha256)?, source, shown))
}

/// A run is what it runs: its first `lane mint` keeps every mint's spec
/// digest (`lane.dev/spec`) in the store, write-once, as
/// `lanes/<lane>/runs/<run>/spec.json`. A restart from another lane file,
/// wheel or configuration is refused (exit 6) before anything is created or
/// reused, even when the run's Jobs are gone.
fn keep_run_spec(
    store: &dyn lane_store::ArtifactStore,
    lane: &lane_file::LaneFile,
    run: &str,
    jobs: &[lane_kube::Job],
) -> Result<(), CliError> {
    let specs: BTreeMap<&str, &str> = jobs
        .iter()
        .filter_map(|j| Some((lane_kube::mint_id_of(j)?, lane_kube::spec_of(j)?)))
        .collect();
    let bytes = serde_json::to_vec_pretty(&specs).map_err(|e| CliError::new(Exit::Failure, e))?;
    let key = format!(
        "{}spec.json",
        lane_agent::bundle::lane_prefix(lane.version.as_str(), Some(run))
    );
    let store_key =
        lane_store::StoreKey::new(key.clone()).map_err(|e| CliError::new(Exit::Usage, e))?;
    match store.put_atomic(&store_key, lane_store::Content::Bytes(&bytes)) {
        Ok(_) => Ok(()),
        Err(lane_store::StoreError::Conflict { .. }) => Err(CliError::new(
            Exit::Precondition,
            anyhow::anyhow!(
                "run `{run}` of lane {} was started from another lane file, wheel or configuration ({}/{key} differs): give this run a new --run-id",
                lane.version,
                store.location()
            ),
        )),
        Err(e) => Err(CliError::new(Exit::Failure, e)),
    }
}

#[derive(Serialize)]
struct KubeSummary<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    /// Each mint id's Job: its name, final state and seconds.
    jobs: BTreeMap<&'a String, JobOut<'a>>,
}

#[derive(Serialize)]
struct JobOut<'a> {
    job: &'a str,
    state: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
}

/// Runs `lane mint --backend kube`.
pub fn run(args: &Args, loaded: &crate::lane::LoadedLane) -> CliResult {
    let lane = &loaded.lane;
    super::check_run_id(&args.run_id)?;
    let Some(path) = &args.kube_config else {
        return Err(CliError::new(
            Exit::Usage,
            anyhow::anyhow!("--backend kube needs --kube-config FILE (images, namespace, store, GPU classes; see docs/kubernetes.md)"),
        ));
    };
    if args.wheel.is_some() {
        return Err(CliError::new(
            Exit::Usage,
            anyhow::anyhow!("--wheel is a local file; pods fetch the staged wheel: pass --wheel-key (as `lane wheel --store ...` printed it)"),
        ));
    }
    let mut cfg = load_config(path)?;
    if let Some(s) = &args.store {
        if lane_store::has_userinfo(s) {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!("--store carries credentials in its URL (`user:password@`): they would be plain text in every Job; give them through the kube config's storeSecret"),
            ));
        }
        cfg.store = Some(s.clone());
    }
    let store = match &cfg.store {
        Some(location) => Some(crate::cmd::wheel::open_store(location)?),
        None if args.dry_run => None,
        None => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!("{}: the kube backend needs `store:` (or --store): pods put their result bundles there and lane gathers them from it", path.display()),
            ))
        }
    };
    let deadline_s = lane
        .mint
        .as_ref()
        .map(|m| (m.timeout_s + cfg.startup_grace_s) * (u64::from(m.retry.crashed) + 1))
        .unwrap_or(0);
    let wheel = match (&args.wheel_key, &store) {
        (Some(key), Some(store)) => Some(staged_wheel(
            store.as_ref(),
            key,
            // Valid for the longest a Job can run, plus a day of queueing
            // (SigV4 caps presigned URLs at 7 days).
            Duration::from_secs((deadline_s + 86_400).min(7 * 86_400)),
        )?),
        (Some(_), None) => {
            return Err(CliError::new(
                Exit::Usage,
                anyhow::anyhow!(
                    "--wheel-key needs a store (`store:` in the kube config, or --store)"
                ),
            ))
        }
        (None, _) => None,
    };
    let (wheel, source, wheel_ref) = match wheel {
        Some((w, s, r)) => (Some(w), s, Some(r)),
        None => (None, None, None),
    };
    let needs_source = lane
        .mint
        .as_ref()
        .is_some_and(|m| m.cells.iter().any(|c| c.source));
    if needs_source && source.is_none() && args.dry_run {
        eprintln!("dry run: no staged source archive (--wheel-key): the cells with `source: true` are shown without one");
    } else if needs_source && source.is_none() {
        return Err(CliError::new(
            Exit::Precondition,
            anyhow::anyhow!(
                "a cell needs the upstream's tree (`source: true`), and pods get it only as the source archive `lane wheel` stages beside the wheel: give --wheel-key of a wheel staged by this lane"
            ),
        ));
    }
    // A presigned URL is a bearer secret until it expires: a dry run shows
    // where the wheel and the source are, not URLs that fetch them.
    let unsigned = |s: Option<StagedWheel>| match s {
        Some(w) if args.dry_run => Some(StagedWheel {
            url: lane_store::redact_url(&w.url),
            sha256: w.sha256,
        }),
        w => w,
    };
    if args.dry_run && wheel.is_some() {
        eprintln!("dry run: presigned URLs are shown without their signatures");
    }
    let (wheel, source) = (unsigned(wheel), unsigned(source));
    let mints = MintJob::plan_with_source(
        lane,
        &args.run_id,
        wheel.as_ref(),
        source.as_ref(),
        cfg.store.as_deref(),
    )
    .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    if args.dry_run {
        let yaml =
            lane_kube::jobs_yaml(&mints, &cfg).map_err(|e| CliError::new(Exit::InvalidInput, e))?;
        print!("{yaml}");
        return Ok(Exit::Ok);
    }
    let store = store.expect("a live run has a store");
    let all = mints
        .iter()
        .map(|m| lane_kube::job_for(m, &cfg))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    keep_run_spec(store.as_ref(), lane, &args.run_id, &all)?;
    // A slot of this run whose result is already final in the store is not
    // minted again (its Job may be gone: the TTL controller).
    let ended = lane_mint::collect::ended_slots(lane, store.as_ref(), Some(&args.run_id))
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    for slot in &ended {
        eprintln!("ended     {slot} (its result is in the store)");
    }
    let wanted: Vec<_> = all
        .into_iter()
        .zip(&mints)
        .filter(|(_, m)| !ended.contains(&m.id.slot().to_string()))
        .map(|(j, _)| j)
        .collect();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let lane_name = lane.version.to_string();
    let unschedulable_after = Duration::from_secs(cfg.unschedulable_after_s);
    let (backend, ends) = rt
        .block_on(async {
            let backend = lane_kube::KubeBackend::connect(cfg.clone()).await?;
            let mut on = |p: Progress| eprintln!("{p}");
            let ends = backend
                .run_lane(
                    &lane_name,
                    &args.run_id,
                    wanted,
                    unschedulable_after,
                    &mut on,
                )
                .await?;
            Ok::<_, lane_kube::KubeError>((backend, ends))
        })
        .map_err(|e| match e {
            e @ lane_kube::KubeError::SpecChanged { .. } => CliError::new(Exit::Precondition, e),
            e => CliError::new(Exit::Failure, e),
        })?;

    // Every Job has ended: gather each slot from its bundles in the store.
    let provenance = lane_core::Provenance {
        wheel: wheel_ref,
        guard: super::provenance::guards(loaded, args.repo.as_deref())?,
    };
    let out = std::path::absolute(args.out.join("lanes").join(lane.version.as_str()))
        .map_err(|e| CliError::new(Exit::Failure, e))?;
    let mut no_bundle = |id: &lane_core::MintId| {
        let end = ends.get(&id.to_string());
        let job = end
            .map(|e| e.job.clone())
            .unwrap_or_else(|| lane_kube::job_name(id, &args.run_id));
        let log_tail = match rt.block_on(backend.mint_log(&job, LOG_TAIL_BYTES)) {
            Ok(log) => log,
            Err(e) => Some(format!("(the pod log could not be read: {e})")),
        };
        NoBundle {
            reason: match end {
                Some(e) => format!("Job {job}: {}", e.state),
                None => format!("Job {job} was not seen"),
            },
            seconds: end.and_then(|e| e.seconds),
            log_tail,
        }
    };
    let summary = collect(
        lane,
        store.as_ref(),
        Some(&args.run_id),
        &out,
        &provenance,
        &mut no_bundle,
    )
    .map_err(|e| CliError::new(Exit::Failure, e))?;
    print_summary(args, lane, &summary, &ends, &out)?;
    let prefix = lane_agent::bundle::lane_prefix(lane.version.as_str(), Some(&args.run_id));
    super::report_and_exit(
        args,
        loaded,
        &out,
        summary.green,
        Some((store.as_ref(), prefix)),
    )
}

fn print_summary(
    args: &Args,
    lane: &lane_file::LaneFile,
    summary: &Summary,
    ends: &BTreeMap<String, JobEnd>,
    out: &Path,
) -> Result<(), CliError> {
    if args.json {
        return print_json(&KubeSummary {
            summary,
            jobs: ends
                .iter()
                .map(|(id, e)| {
                    (
                        id,
                        JobOut {
                            job: &e.job,
                            state: e.state.to_string(),
                            seconds: e.seconds,
                        },
                    )
                })
                .collect(),
        });
    }
    println!(
        "lane {}: {} mints on Kubernetes, {}",
        lane.version,
        summary.mints.len(),
        if summary.green { "green" } else { "NOT green" }
    );
    super::print_slots(summary);
    println!("jobs:");
    for (id, e) in ends {
        println!("  {id:<44} {}", e.state);
    }
    println!("results: {}", lane_mint::local::results_dir(out).display());
    Ok(())
}
