//! Driving a lane's mints on Kubernetes to their end: adopt the lane's
//! existing Jobs, create only the missing ones (a 409 is adopted), then
//! follow them through the watcher until every one has finished, naming
//! each mint that stays Unschedulable (and its GPU class) once.

use futures::{FutureExt, StreamExt};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::jiff::Timestamp;
use lane_core::Progress;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use tracing::warn;

use crate::client::{still_to_create, KubeClient, Submitted};
use crate::watch::{job_seconds, watch_lane, JobState, LaneView};
use crate::KubeError;

/// What the watch last saw of one mint's Job, kept after it is gone.
#[derive(Debug, Clone, Default)]
struct Seen {
    name: String,
    /// Start to end, once it ended (or until lane saw it deleted).
    seconds: Option<f64>,
    /// `status.startTime`.
    start: Option<Timestamp>,
}

/// How one mint's Job ended.
#[derive(Debug, Clone, PartialEq)]
pub struct JobOutcome {
    /// The Job's name.
    pub job: String,
    /// Its final state.
    pub state: JobState,
    /// Seconds from the Job's start to its end, when it started (a failed
    /// Job keeps its seconds; a Job that never started has none).
    pub seconds: Option<f64>,
}

impl KubeClient {
    /// Connects with the ambient configuration (the pod's service account
    /// in a cluster, else `KUBECONFIG`).
    pub async fn connect(cfg: crate::KubeConfig) -> Result<KubeClient, KubeError> {
        let mut config = kube::Config::infer()
            .await
            .map_err(kube::Error::InferConfig)?;
        // The client is never given the API server URL's
        // `user:password@` (its spans log the URL): it goes as a header.
        let (url, basic) = lane_core::secret::split_userinfo(&config.cluster_url.to_string());
        if let Some(b) = basic {
            config.cluster_url = url.parse().map_err(|_| KubeError::ClusterUrl)?;
            let mut v =
                http::HeaderValue::from_str(b.expose()).map_err(|_| KubeError::ClusterUrl)?;
            v.set_sensitive(true);
            config.headers.push((http::header::AUTHORIZATION, v));
        }
        let client = kube::Client::try_from(config)?;
        Ok(KubeClient::new(client, cfg))
    }

    /// Adopts, creates what is missing, and watches until every mint's Job
    /// has finished. Returns how each mint id's Job ended.
    pub async fn run_lane(
        &self,
        lane: &str,
        run: &str,
        wanted: Vec<Job>,
        unschedulable_after: Duration,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<BTreeMap<String, JobOutcome>, KubeError> {
        let ids: BTreeSet<String> = wanted
            .iter()
            .filter_map(|j| crate::client::mint_id_of(j).map(str::to_owned))
            .collect();
        // Each mint's Job name, as created or adopted.
        let mut created: BTreeMap<String, String> = wanted
            .iter()
            .filter_map(|j| {
                Some((
                    crate::client::mint_id_of(j)?.to_owned(),
                    j.metadata.name.clone()?,
                ))
            })
            .collect();
        let adopted = self.adopt(lane, run).await?;
        for existing in &adopted {
            let theirs = crate::client::mint_id_of(existing);
            if let Some(w) = wanted
                .iter()
                .find(|w| theirs.is_some() && crate::client::mint_id_of(w) == theirs)
            {
                crate::client::check_spec(w, existing)?;
            }
        }
        for existing in &adopted {
            if let Some(id) = crate::client::mint_id_of(existing) {
                on(Progress::Adopted {
                    mint: id.to_owned(),
                });
            }
        }
        for job in still_to_create(wanted, &adopted) {
            let id = crate::client::mint_id_of(&job)
                .unwrap_or_default()
                .to_owned();
            match self.submit(&job).await? {
                Submitted::Created(_) => on(Progress::Started { mint: id }),
                Submitted::Adopted(_) => on(Progress::Adopted { mint: id }),
            }
        }
        let mut view = LaneView::new();
        let mut shown: BTreeMap<String, JobState> = BTreeMap::new();
        // What the watch last saw of each mint's Job (its name, its seconds),
        // kept after the Job is gone: a Job that vanishes was deleted (`lane
        // cancel`, a person, the TTL controller) and will never change again.
        let mut last: BTreeMap<String, Seen> = BTreeMap::new();
        let mut events = std::pin::pin!(watch_lane(
            self.client().clone(),
            &self.config().namespace,
            lane,
            run
        ));
        'watch: loop {
            // Wake at least every 30 s without an event, so a pod that stays
            // Unschedulable is named once its limit passes, not at the next event.
            match tokio::time::timeout(Duration::from_secs(30), events.next()).await {
                Ok(Some(Ok(e))) => {
                    view.apply(e);
                    // Take every event already waiting (a relist delivers
                    // one per Job) before recomputing the states once.
                    loop {
                        match events.next().now_or_never() {
                            Some(Some(Ok(e))) => view.apply(e),
                            Some(Some(Err(e))) => {
                                warn!(error = %e, "the watch failed; it retries with backoff")
                            }
                            Some(None) => break 'watch,
                            None => break,
                        }
                    }
                }
                Ok(Some(Err(e))) => {
                    warn!(error = %e, "the watch failed; it retries with backoff");
                    continue;
                }
                Ok(None) => break 'watch,
                Err(_) => {}
            }
            // Every Job was created or adopted before the watch began, so
            // one missing from the first full LIST was deleted in between:
            // it counts as seen (and then gone), or lane would wait forever.
            if view.jobs_synced() {
                for (id, name) in std::mem::take(&mut created) {
                    last.entry(id).or_insert(Seen {
                        name,
                        ..Seen::default()
                    });
                }
            }
            for job in view.jobs().values() {
                if let Some(id) = crate::client::mint_id_of(job).filter(|id| ids.contains(*id)) {
                    last.insert(
                        id.to_owned(),
                        Seen {
                            name: job.metadata.name.clone().unwrap_or_default(),
                            seconds: job_seconds(job),
                            start: job
                                .status
                                .as_ref()
                                .and_then(|s| s.start_time.as_ref())
                                .map(|t| t.0),
                        },
                    );
                }
            }
            let now = Timestamp::now();
            let mut states = view.states(now, unschedulable_after);
            for (id, seen) in last.iter_mut() {
                if states.contains_key(id) {
                    continue;
                }
                // A Job that had finished keeps its end.
                let state = match shown.get(id) {
                    Some(end) if end.is_finished() => end.clone(),
                    _ => {
                        // It ran until lane saw it go: it keeps those seconds.
                        if seen.seconds.is_none() {
                            seen.seconds = seen
                                .start
                                .map(|s| now.duration_since(s).as_secs_f64().max(0.0));
                        }
                        JobState::Deleted
                    }
                };
                states.insert(id.clone(), state);
            }
            for (id, state) in &states {
                if ids.contains(id) && shown.get(id) != Some(state) {
                    shown.insert(id.clone(), state.clone());
                    on(Progress::State {
                        mint: id.clone(),
                        state: state.to_string(),
                    });
                }
            }
            let done = ids
                .iter()
                .all(|id| states.get(id).is_some_and(JobState::is_finished));
            if done {
                return Ok(states
                    .into_iter()
                    .filter(|(id, _)| ids.contains(id))
                    .map(|(id, state)| {
                        let Seen {
                            name: job, seconds, ..
                        } = last.get(&id).cloned().unwrap_or_default();
                        (
                            id,
                            JobOutcome {
                                job,
                                state,
                                seconds,
                            },
                        )
                    })
                    .collect());
            }
        }
        Err(KubeError::WatchEnded)
    }
}
