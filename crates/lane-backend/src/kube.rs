//! The Kubernetes backend: one Job per mint. A dry run shows them as YAML
//! and creates nothing. Otherwise the lane's existing Jobs are adopted, the
//! missing ones created, all of them watched to their end, and every slot
//! is gathered from the result bundles the pods put in the store (the pod
//! log's tail stands in where a bundle is missing).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use lane_core::Progress;
pub use lane_kube::{KubeConfig, KubeError};
use lane_kube::{MintJob, StagedWheel};
use lane_mint::collect::{collect, NoBundle};

use crate::error::BackendError;
use crate::seam::{Backend, Cancelled, DryRun, JobEnd, MintPlan, Minted};

/// How much of a pod's log stands in for a missing bundle.
const LOG_TAIL_BYTES: i64 = 64 * 1024;

/// Reads the kube backend's configuration (YAML, `docs/kubernetes.md`).
pub fn load_config(path: &Path) -> Result<KubeConfig, BackendError> {
    let text =
        std::fs::read_to_string(path).map_err(|source| BackendError::KubeConfigUnreadable {
            path: path.to_owned(),
            source,
        })?;
    let cfg: KubeConfig =
        serde_yaml::from_str(&text).map_err(|source| BackendError::KubeConfigInvalid {
            path: path.to_owned(),
            source,
        })?;
    cfg.check()
        .map_err(|source| BackendError::KubeConfigRefused {
            path: path.to_owned(),
            source,
        })?;
    Ok(cfg)
}

fn hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The staged wheel behind `key` and the source archive beside it (when
/// the manifest names one): the manifest gives their sha256; the URLs are
/// presigned for `ttl`.
fn staged_wheel(
    store: &dyn lane_store::ArtifactStore,
    key: &str,
    ttl: Duration,
) -> Result<(StagedWheel, Option<StagedWheel>, lane_core::WheelRef), BackendError> {
    let wheel_key = lane_store::StoreKey::new(key.to_owned()).map_err(BackendError::BadWheelKey)?;
    let (dir, file) = key
        .rsplit_once('/')
        .ok_or_else(|| BackendError::WheelKeyShape {
            key: key.to_owned(),
        })?;
    let manifest_key = lane_store::StoreKey::new(format!("{dir}/manifest.json"))
        .map_err(BackendError::StagedWheel)?;
    let bytes = store
        .get(&manifest_key)
        .map_err(BackendError::StagedWheel)?;
    let at = format!("{}/{manifest_key}", store.location());
    // The type `lane wheel` wrote it with.
    let manifest: lane_wheel::WheelManifest =
        serde_json::from_slice(&bytes).map_err(|source| BackendError::ManifestUnreadable {
            at: at.clone(),
            line: source.line(),
            column: source.column(),
            source,
        })?;
    if !hex64(&manifest.sha256) {
        return Err(BackendError::ManifestDigest {
            at,
            sha256: manifest.sha256,
        });
    }
    if manifest.wheel != file {
        return Err(BackendError::ManifestOfAnotherWheel {
            at,
            theirs: manifest.wheel,
            file: file.to_owned(),
        });
    }
    let staged =
        |key: &lane_store::StoreKey, sha256: String| -> Result<StagedWheel, BackendError> {
            Ok(
                match store
                    .fetch_location(key, ttl)
                    .map_err(BackendError::StagedWheel)?
                {
                    lane_store::FetchLocation::Url(url) => StagedWheel { url, sha256 },
                    lane_store::FetchLocation::Path(p) => StagedWheel {
                        url: format!("file://{}", p.display()),
                        sha256,
                    },
                },
            )
        };
    let source = match manifest.source {
        Some(src) if hex64(&src.sha256) && !src.file.contains('/') => {
            let key = lane_store::StoreKey::new(format!("{dir}/{}", src.file))
                .map_err(BackendError::StagedWheel)?;
            Some(staged(&key, src.sha256)?)
        }
        Some(_) => return Err(BackendError::ManifestSource { at }),
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
) -> Result<(), BackendError> {
    let specs: BTreeMap<&str, &str> = jobs
        .iter()
        .filter_map(|j| Some((lane_kube::mint_id_of(j)?, lane_kube::spec_of(j)?)))
        .collect();
    let bytes = serde_json::to_vec_pretty(&specs).map_err(BackendError::Json)?;
    let key = format!(
        "{}spec.json",
        lane_core::layout::lane_prefix(lane.version.as_str(), Some(run))
    );
    let store_key = lane_store::StoreKey::new(key.clone()).map_err(BackendError::SpecKey)?;
    match store.put_atomic(&store_key, lane_store::Content::Bytes(&bytes)) {
        Ok(_) => Ok(()),
        Err(lane_store::StoreError::Conflict { .. }) => Err(BackendError::RunSpecDiffers {
            run: run.to_owned(),
            lane: lane.version.to_string(),
            at: format!("{}/{key}", store.location()),
        }),
        Err(e) => Err(BackendError::Mint(lane_mint::MintError::ArtifactStore {
            what: format!("keeping {key}"),
            source: e,
        })),
    }
}

/// Mints in a Kubernetes cluster (the ambient kubeconfig or service account).
#[derive(Default)]
pub struct KubeBackend {
    /// The store the run's bundles are in, and the run's prefix in it
    /// (after a run).
    kept: Option<(Box<dyn lane_store::ArtifactStore>, String)>,
    /// The configuration, for `cancel` (`lane cancel`).
    config: Option<KubeConfig>,
}

impl std::fmt::Debug for KubeBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KubeBackend")
            .field("config", &self.config.as_ref().map(|c| &c.namespace))
            .finish_non_exhaustive()
    }
}

impl KubeBackend {
    /// A backend for `lane cancel`: its configuration only.
    pub fn with_config(config: KubeConfig) -> KubeBackend {
        KubeBackend {
            kept: None,
            config: Some(config),
        }
    }
}

/// What both a dry run and a run need: the configuration, the store, the
/// wheel and the Jobs' plan.
struct Prepared {
    cfg: KubeConfig,
    store: Option<Box<dyn lane_store::ArtifactStore>>,
    mints: Vec<MintJob>,
    wheel_ref: Option<lane_core::WheelRef>,
    notes: Vec<String>,
}

/// The kube configuration's file, once the plan's flags are ones pods can take.
fn config_path<'p>(plan: &'p MintPlan<'_>) -> Result<&'p Path, BackendError> {
    if !lane_kube_job::valid_run_id(&plan.run_id) {
        return Err(BackendError::BadRunId {
            run: plan.run_id.clone(),
        });
    }
    let Some(path) = &plan.kube_config else {
        return Err(BackendError::NoKubeConfig);
    };
    if plan.wheel.is_some() {
        return Err(BackendError::WheelFileInPods);
    }
    Ok(path)
}

fn prepare(plan: &MintPlan<'_>) -> Result<Prepared, BackendError> {
    let lane = plan.lane;
    let dry_run = plan.dry_run;
    let path = config_path(plan)?;
    let mut cfg = load_config(path)?;
    if let Some(s) = &plan.store {
        if lane_store::has_userinfo(s) {
            return Err(BackendError::StoreCredentials);
        }
        cfg.store = Some(s.clone());
    }
    let store = match &cfg.store {
        Some(location) => Some(lane_store::open(location).map_err(BackendError::Store)?),
        None if dry_run => None,
        None => {
            return Err(BackendError::NoStore {
                config: path.to_owned(),
            })
        }
    };
    let deadline_s = lane
        .mint
        .as_ref()
        .map(|m| {
            (m.timeout_s + cfg.startup_grace_s + lane_core::results::UPLOAD_WINDOW_S)
                * (u64::from(m.retry.crashed) + 1)
        })
        .unwrap_or(0);
    let wheel = match (&plan.wheel_key, &store) {
        (Some(key), Some(store)) => Some(staged_wheel(
            store.as_ref(),
            key,
            // Valid for the longest a Job can run, plus a day of queueing
            // (SigV4 caps presigned URLs at 7 days).
            Duration::from_secs((deadline_s + 86_400).min(7 * 86_400)),
        )?),
        (Some(_), None) => return Err(BackendError::WheelKeyNeedsStore),
        (None, _) => None,
    };
    let (wheel, source, wheel_ref) = match wheel {
        Some((w, s, r)) => (Some(w), s, Some(r)),
        None => (None, None, None),
    };
    let mut notes = Vec::new();
    let needs_source = lane
        .mint
        .as_ref()
        .is_some_and(|m| m.cells.iter().any(|c| c.source));
    if needs_source && source.is_none() && dry_run {
        notes.push("dry run: no staged source archive (--wheel-key): the cells with `source: true` are shown without one".to_owned());
    } else if needs_source && source.is_none() {
        return Err(BackendError::NoSourceArchive);
    }
    // A presigned URL is a bearer secret until it expires: a dry run shows
    // where the wheel and the source are, not URLs that fetch them.
    let unsigned = |s: Option<StagedWheel>| match s {
        Some(w) if dry_run => Some(StagedWheel {
            url: lane_store::redact_url(&w.url),
            sha256: w.sha256,
        }),
        w => w,
    };
    if dry_run && wheel.is_some() {
        notes.push("dry run: presigned URLs are shown without their signatures".to_owned());
    }
    let (wheel, source) = (unsigned(wheel), unsigned(source));
    let mints = MintJob::plan_with_source(
        lane,
        &plan.run_id,
        wheel.as_ref(),
        source.as_ref(),
        cfg.store.as_deref(),
    )?;
    Ok(Prepared {
        cfg,
        store,
        mints,
        wheel_ref,
        notes,
    })
}

/// `fut` run on the process's one runtime.
fn block_on<F: std::future::Future>(fut: F) -> Result<F::Output, BackendError> {
    lane_runtime::block_on_here(fut).map_err(BackendError::Runtime)
}

impl Backend for KubeBackend {
    fn name(&self) -> &'static str {
        "kube"
    }

    fn runs_here(&self) -> bool {
        false
    }

    fn check(&self, plan: &MintPlan<'_>) -> Result<(), BackendError> {
        config_path(plan).map(|_| ())
    }

    fn dry_run(&mut self, plan: &MintPlan<'_>) -> Result<DryRun, BackendError> {
        let p = prepare(plan)?;
        let jobs = p
            .mints
            .iter()
            .map(|m| lane_kube::job_for(m, &p.cfg))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DryRun::Jobs {
            yaml: lane_kube::yaml_of(&jobs)?,
            json: serde_json::json!({"apiVersion": "v1", "kind": "List", "items": jobs}),
            notes: p.notes,
        })
    }

    fn mint(
        &mut self,
        plan: &MintPlan<'_>,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, BackendError> {
        let lane = plan.lane;
        let run_id = &plan.run_id;
        let Prepared {
            cfg,
            store,
            mints,
            wheel_ref,
            notes: _,
        } = prepare(plan)?;
        // Not a dry run: `prepare` refused a configuration without a store.
        let Some(store) = store else {
            return Err(BackendError::NoStore {
                config: config_path(plan)?.to_owned(),
            });
        };
        let all = mints
            .iter()
            .map(|m| lane_kube::job_for(m, &cfg))
            .collect::<Result<Vec<_>, _>>()?;
        keep_run_spec(store.as_ref(), lane, run_id, &all)?;
        // A slot of this run whose result is already final in the store is
        // not minted again (its Job may be gone: the TTL controller).
        let ended = lane_mint::collect::ended_slots(lane, store.as_ref(), Some(run_id))?;
        let wanted: Vec<_> = all
            .into_iter()
            .zip(&mints)
            .filter(|(_, m)| !ended.contains(&m.id.slot().to_string()))
            .map(|(j, _)| j)
            .collect();
        let lane_name = lane.version.to_string();
        let unschedulable_after = Duration::from_secs(cfg.unschedulable_after_s);
        let (backend, ends) = block_on(async {
            let backend = lane_kube::KubeClient::connect(cfg.clone()).await?;
            let ends = backend
                .run_lane(&lane_name, run_id, wanted, unschedulable_after, on)
                .await?;
            Ok::<_, lane_kube::KubeError>((backend, ends))
        })??;

        // Every Job has ended: gather each slot from its bundles in the store.
        let provenance = lane_core::Provenance {
            wheel: wheel_ref,
            guard: plan.provenance.guard.clone(),
        };
        let out = &plan.out;
        let mut no_bundle = |id: &lane_core::MintId| {
            let end = ends.get(&id.to_string());
            let job = end
                .map(|e| e.job.clone())
                .unwrap_or_else(|| lane_kube::job_name(id, run_id));
            let log_tail = match block_on(backend.mint_log(&job, LOG_TAIL_BYTES)) {
                Ok(Ok(log)) => log,
                Ok(Err(e)) => Some(format!("(the pod log could not be read: {e})")),
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
        // Jobs deleted before they finished: someone cancelled the lane
        // (`lane cancel` from another terminal, or `/lane cancel`).
        let deleted = ends
            .values()
            .any(|e| e.state == lane_kube::JobState::Deleted);
        let summary = collect(
            lane,
            store.as_ref(),
            Some(run_id),
            out,
            &provenance,
            deleted || plan.stop.load(std::sync::atomic::Ordering::SeqCst),
            &lane_mint::collect::FetchLimits {
                max_bytes: cfg
                    .max_fetch_bytes
                    .unwrap_or(lane_mint::collect::DEFAULT_MAX_FETCH_BYTES),
                ..Default::default()
            },
            &mut no_bundle,
        )?;
        let prefix = lane_core::layout::lane_prefix(lane.version.as_str(), Some(run_id));
        self.kept = Some((store, prefix));
        let jobs = ends
            .iter()
            .map(|(id, e)| {
                (
                    id.clone(),
                    JobEnd {
                        job: e.job.clone(),
                        state: e.state.to_string(),
                        seconds: e.seconds,
                    },
                )
            })
            .collect();
        Ok(Minted {
            summary,
            jobs: Some(jobs),
            ended: ended.into_iter().collect(),
        })
    }

    fn keeps(&self) -> Option<(&dyn lane_store::ArtifactStore, String)> {
        self.kept.as_ref().map(|(s, p)| (s.as_ref(), p.clone()))
    }

    fn cancel(&mut self, lane: &str) -> Result<Cancelled, BackendError> {
        let cfg = self
            .config
            .clone()
            .ok_or(BackendError::CancelNeedsKubeConfig)?;
        let namespace = cfg.namespace.clone();
        let report = block_on(async {
            let backend = lane_kube::KubeClient::connect(cfg).await?;
            backend.cancel(lane).await
        })??;
        Ok(Cancelled {
            lane: lane.to_owned(),
            namespace,
            jobs: report.jobs,
            pods: report.pods,
        })
    }
}
