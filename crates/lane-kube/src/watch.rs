//! Status by watching, never polling: two `kube-runtime` watchers (the
//! lane run's Jobs and its pods, by [`crate::run_selector`]) feed a [`LaneView`],
//! whose [`LaneView::states`] turns each Job and its pods into a
//! [`JobState`]. The watcher relists after a `410 Gone` (it restarts with
//! `Init`/`InitApply`/`InitDone`); the view replaces its store at
//! `InitDone`, so objects deleted while the watch was down disappear.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::{Stream, StreamExt};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::Api;
use kube::runtime::{watcher, WatchStreamExt};
use kube::Client;

use crate::client::mint_id_of;
use crate::{run_selector, ANNOTATION_MINT_ID, LABEL_GPU};

/// Where one mint's Job stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobState {
    /// Created, not running yet (queued, suspended by Kueue, being
    /// scheduled, pulling images).
    Pending,
    /// A pod of it is running.
    Running,
    /// The Job completed (`Complete`: its pods have terminated; the interim
    /// `SuccessCriteriaMet` is not yet the end).
    Succeeded,
    /// The Job failed (`Failed`: its pods have terminated, so every bundle
    /// they wrote is in the store; the interim `FailureTarget` is not yet
    /// the end), with the condition's
    /// reason and message (`BackoffLimitExceeded`, `DeadlineExceeded`,
    /// `PodFailurePolicy`, ...).
    Failed {
        /// `reason: message` of the condition.
        reason: String,
    },
    /// The Job was deleted before it finished (`lane cancel`, or by hand):
    /// it keeps the seconds it ran until lane saw it go.
    Deleted,
    /// Its pod has been `PodScheduled=False, reason=Unschedulable` for at
    /// least the limit: no node of GPU class `gpu` has room.
    Unschedulable {
        /// When the pod became unschedulable.
        since: Timestamp,
        /// The GPU class (the Job's `lane.dev/gpu` label).
        gpu: String,
    },
}

impl std::fmt::Display for JobState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobState::Pending => f.write_str("pending"),
            JobState::Running => f.write_str("running"),
            JobState::Succeeded => f.write_str("succeeded"),
            JobState::Failed { reason } => write!(f, "failed ({reason})"),
            JobState::Deleted => f.write_str("deleted before it finished (lane cancel?)"),
            JobState::Unschedulable { since, gpu } => write!(
                f,
                "unschedulable since {since}: no node has capacity for GPU class `{gpu}`"
            ),
        }
    }
}

impl JobState {
    /// Succeeded, Failed or Deleted: the Job will not change any more.
    pub fn is_finished(&self) -> bool {
        matches!(
            self,
            JobState::Succeeded | JobState::Failed { .. } | JobState::Deleted
        )
    }
}

fn condition_true<'a>(
    conds: &'a [k8s_openapi::api::batch::v1::JobCondition],
    types: &[&str],
) -> Option<&'a k8s_openapi::api::batch::v1::JobCondition> {
    conds
        .iter()
        .find(|c| c.status == "True" && types.contains(&c.type_.as_str()))
}

/// The state of `job` given its pods, at `now`, reporting Unschedulable
/// only after `limit`. Pure: the tests feed it Job and Pod JSON.
pub fn job_state(job: &Job, pods: &[&Pod], now: Timestamp, limit: Duration) -> JobState {
    let conds = job
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_deref())
        .unwrap_or_default();
    if condition_true(conds, &["Complete"]).is_some() {
        return JobState::Succeeded;
    }
    if let Some(c) = condition_true(conds, &["Failed"]) {
        let reason = match (c.reason.as_deref(), c.message.as_deref()) {
            (Some(r), Some(m)) => format!("{r}: {m}"),
            (Some(r), None) => r.to_owned(),
            (None, Some(m)) => m.to_owned(),
            (None, None) => c.type_.clone(),
        };
        return JobState::Failed { reason };
    }
    let phase = |p: &Pod| p.status.as_ref().and_then(|s| s.phase.clone());
    if pods.iter().any(|p| phase(p).as_deref() == Some("Running")) {
        return JobState::Running;
    }
    let limit = SignedDuration::try_from(limit).unwrap_or(SignedDuration::MAX);
    let stuck = pods
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| {
            p.status
                .as_ref()?
                .conditions
                .as_ref()?
                .iter()
                .find(|c| {
                    c.type_ == "PodScheduled"
                        && c.status == "False"
                        && c.reason.as_deref() == Some("Unschedulable")
                })?
                .last_transition_time
                .as_ref()
                .map(|t| t.0)
        })
        .min();
    if let Some(since) = stuck {
        if now.duration_since(since) >= limit {
            let gpu = job
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(LABEL_GPU))
                .cloned()
                .unwrap_or_default();
            return JobState::Unschedulable { since, gpu };
        }
    }
    JobState::Pending
}

/// Seconds from the Job's `startTime` to its end (`completionTime`, else
/// the `Complete`/`Failed` condition's transition), when it started and
/// ended. Pure.
pub fn job_seconds(job: &Job) -> Option<f64> {
    let status = job.status.as_ref()?;
    let start = status.start_time.as_ref()?.0;
    let end = status.completion_time.as_ref().map(|t| t.0).or_else(|| {
        let conds = status.conditions.as_deref().unwrap_or_default();
        condition_true(conds, &["Complete", "Failed"])?
            .last_transition_time
            .as_ref()
            .map(|t| t.0)
    })?;
    let d = end.duration_since(start).as_secs_f64();
    (d >= 0.0).then_some(d)
}

/// One watcher event of either kind.
// Events are moved once into the view; boxing would only add allocations.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum LaneEvent {
    /// A Job event.
    Job(watcher::Event<Job>),
    /// A pod event.
    Pod(watcher::Event<Pod>),
}

/// The lane's Jobs and pods, as two watchers merged (default watcher
/// config: a paged LIST, then WATCH; a `410 Gone` relists). Errors are
/// yielded, not fatal: each watcher retries after kube's default
/// exponential backoff (so an unreachable API server is not hammered).
pub fn watch_lane(
    client: Client,
    namespace: &str,
    lane: &str,
    run: &str,
) -> impl Stream<Item = Result<LaneEvent, watcher::Error>> + Send {
    let cfg = watcher::Config::default().labels(&run_selector(lane, run));
    let jobs = watcher(
        Api::<Job>::namespaced(client.clone(), namespace),
        cfg.clone(),
    )
    .default_backoff()
    .map(|e| e.map(LaneEvent::Job));
    let pods = watcher(Api::<Pod>::namespaced(client, namespace), cfg)
        .default_backoff()
        .map(|e| e.map(LaneEvent::Pod));
    futures::stream::select(jobs, pods)
}

#[derive(Debug, Default)]
struct Store<K> {
    live: BTreeMap<String, K>,
    init: Option<BTreeMap<String, K>>,
    /// A first full LIST has arrived (`InitDone`).
    synced: bool,
}

impl<K: kube::Resource> Store<K> {
    fn apply(&mut self, e: watcher::Event<K>) {
        let name = |k: &K| k.meta().name.clone().unwrap_or_default();
        match e {
            watcher::Event::Apply(k) => {
                self.live.insert(name(&k), k);
            }
            watcher::Event::Delete(k) => {
                self.live.remove(&name(&k));
            }
            watcher::Event::Init => self.init = Some(BTreeMap::new()),
            watcher::Event::InitApply(k) => {
                self.init
                    .get_or_insert_with(BTreeMap::new)
                    .insert(name(&k), k);
            }
            watcher::Event::InitDone => {
                if let Some(fresh) = self.init.take() {
                    self.live = fresh;
                }
                self.synced = true;
            }
        }
    }
}

/// What the watchers have seen of one lane.
#[derive(Debug, Default)]
pub struct LaneView {
    jobs: Store<Job>,
    pods: Store<Pod>,
}

impl LaneView {
    /// An empty view.
    pub fn new() -> LaneView {
        LaneView::default()
    }

    /// Takes one watcher event.
    pub fn apply(&mut self, e: LaneEvent) {
        match e {
            LaneEvent::Job(e) => self.jobs.apply(e),
            LaneEvent::Pod(e) => self.pods.apply(e),
        }
    }

    /// The Jobs seen, by name.
    pub fn jobs(&self) -> &BTreeMap<String, Job> {
        &self.jobs.live
    }

    /// Whether a full LIST of the Jobs has arrived: from then on, a Job
    /// the view lacks is not in the cluster.
    pub fn jobs_synced(&self) -> bool {
        self.jobs.synced
    }

    /// Mint id -> state of every Job seen (a Job without the mint-id
    /// annotation is keyed by its name). A pod belongs to the Job whose
    /// mint id its own annotation names.
    pub fn states(&self, now: Timestamp, limit: Duration) -> BTreeMap<String, JobState> {
        let mut pods_of: BTreeMap<&str, Vec<&Pod>> = BTreeMap::new();
        for p in self.pods.live.values() {
            if let Some(id) = p
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(ANNOTATION_MINT_ID))
            {
                pods_of.entry(id.as_str()).or_default().push(p);
            }
        }
        self.jobs
            .live
            .iter()
            .map(|(name, job)| {
                let id = mint_id_of(job).unwrap_or(name);
                let pods = pods_of.get(id).map(Vec::as_slice).unwrap_or_default();
                (id.to_owned(), job_state(job, pods, now, limit))
            })
            .collect()
    }
}
