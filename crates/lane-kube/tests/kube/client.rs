//! The client half against `tower-test`'s mock service: the exact method,
//! path, query and body of every request, and the answers it acts on; and
//! the watcher's state machine from Job and Pod JSON.

use std::time::Duration;

use http::{Method, Request, Response};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::client::Body;
use kube::runtime::watcher::Event;
use lane_kube::*;
use serde_json::{json, Value};
use tower_test::mock;

type Handle = mock::Handle<Request<Body>, Response<Body>>;

const JOBS: &str = "/apis/batch/v1/namespaces/lane/jobs";
const PODS: &str = "/api/v1/namespaces/lane/pods";
/// `run_selector("0.93.3", RUN)`, form-encoded (adoption, the watch).
const RUN_SELECTOR_Q: &str = "labelSelector=app.kubernetes.io%2Fmanaged-by%3Dlane%2Clane.dev%2Flane%3D0.93.3%2Clane.dev%2Frun%3Drun-20250101T000000Z";
/// The run of `super::mint`.
const RUN: &str = "run-20250101T000000Z";
/// `lane_selector("0.93.3")`, form-encoded (`lane cancel`: every run).
const SELECTOR_Q: &str =
    "labelSelector=app.kubernetes.io%2Fmanaged-by%3Dlane%2Clane.dev%2Flane%3D0.93.3";

fn backend() -> (KubeClient, Handle) {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    (KubeClient::new(client, super::cfg()), handle)
}

fn the_job() -> Job {
    job_for(
        &super::mint(super::id("0.93.3", "sdxl-turbo", "L40S", 1, 1)),
        &super::cfg(),
    )
    .expect("job builds")
}

/// Takes the next request, checks it exactly, answers `status` + `reply`.
async fn expect(
    handle: &mut Handle,
    method: Method,
    uri: impl Into<String>,
    body: Option<Value>,
    status: u16,
    reply: Value,
) {
    let uri: String = uri.into();
    let (req, send) = handle.next_request().await.expect("a request");
    assert_eq!(req.method(), method, "method of {}", req.uri());
    assert_eq!(req.uri().to_string(), uri);
    let bytes = req.into_body().collect_bytes().await.expect("body");
    match body {
        Some(want) => {
            let got: Value = serde_json::from_slice(&bytes).expect("a JSON body");
            assert_eq!(got, want, "body of {method} {uri}");
        }
        None => assert!(bytes.is_empty(), "{method} {uri} has no body"),
    }
    send.send_response(
        Response::builder()
            .status(status)
            .header("content-type", "application/json")
            .body(Body::from(serde_json::to_vec(&reply).unwrap()))
            .unwrap(),
    );
}

fn status_409(name: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
           "message": format!("jobs.batch \"{name}\" already exists"),
           "reason": "AlreadyExists", "details": {"name": name, "group": "batch", "kind": "jobs"},
           "code": 409})
}

fn job_list(items: Vec<Value>) -> Value {
    json!({"apiVersion": "batch/v1", "kind": "JobList", "metadata": {"resourceVersion": "7"}, "items": items})
}

#[tokio::test]
async fn submit_posts_the_job() {
    let (b, mut h) = backend();
    let job = the_job();
    let body = serde_json::to_value(&job).unwrap();
    let server = expect(
        &mut h,
        Method::POST,
        format!("{JOBS}?"),
        Some(body.clone()),
        201,
        body,
    );
    let (got, ()) = tokio::join!(b.submit(&job), server);
    assert!(matches!(got.unwrap(), Submitted::Created(j) if j == job));
}

#[tokio::test]
async fn a_409_for_the_same_mint_id_is_adopted() {
    let (b, mut h) = backend();
    let job = the_job();
    let name = job.metadata.name.clone().unwrap();
    let mut existing = serde_json::to_value(&job).unwrap();
    existing["metadata"]["uid"] = json!("u-1");
    let server = async {
        let body = serde_json::to_value(&job).unwrap();
        expect(
            &mut h,
            Method::POST,
            format!("{JOBS}?"),
            Some(body),
            409,
            status_409(&name),
        )
        .await;
        expect(
            &mut h,
            Method::GET,
            format!("{JOBS}/{name}"),
            None,
            200,
            existing.clone(),
        )
        .await;
    };
    let (got, ()) = tokio::join!(b.submit(&job), server);
    match got.unwrap() {
        Submitted::Adopted(j) => assert_eq!(j.metadata.uid.as_deref(), Some("u-1")),
        other => panic!("not adopted: {other:?}"),
    }
}

#[tokio::test]
async fn a_409_for_another_mint_id_is_refused() {
    let (b, mut h) = backend();
    let job = the_job();
    let name = job.metadata.name.clone().unwrap();
    let mut existing = serde_json::to_value(&job).unwrap();
    existing["metadata"]["annotations"][ANNOTATION_MINT_ID] = json!("other/cell/L4/r1/a1");
    let server = async {
        let body = serde_json::to_value(&job).unwrap();
        expect(
            &mut h,
            Method::POST,
            format!("{JOBS}?"),
            Some(body),
            409,
            status_409(&name),
        )
        .await;
        expect(
            &mut h,
            Method::GET,
            format!("{JOBS}/{name}"),
            None,
            200,
            existing.clone(),
        )
        .await;
    };
    let (got, ()) = tokio::join!(b.submit(&job), server);
    match got {
        Err(KubeError::NameTaken { theirs, .. }) => {
            assert_eq!(theirs.as_deref(), Some("other/cell/L4/r1/a1"))
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test]
async fn other_errors_are_not_adopted() {
    let (b, mut h) = backend();
    let job = the_job();
    let forbidden = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "jobs.batch is forbidden", "reason": "Forbidden", "code": 403});
    let body = serde_json::to_value(&job).unwrap();
    let server = expect(
        &mut h,
        Method::POST,
        format!("{JOBS}?"),
        Some(body),
        403,
        forbidden,
    );
    let (got, ()) = tokio::join!(b.submit(&job), server);
    match got {
        Err(KubeError::Api(kube::Error::Api(s))) => assert_eq!(s.code, 403),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn adopt_lists_the_lanes_jobs_by_label() {
    let (b, mut h) = backend();
    let job = serde_json::to_value(the_job()).unwrap();
    let server = expect(
        &mut h,
        Method::GET,
        format!("{JOBS}?&{RUN_SELECTOR_Q}"),
        None,
        200,
        job_list(vec![job]),
    );
    let (got, ()) = tokio::join!(b.adopt("0.93.3", RUN), server);
    let got = got.unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(mint_id_of(&got[0]), Some("0.93.3/sdxl-turbo/L40S/r1/a1"));
}

/// Regression: `lane cancel` once sent DELETE on the Job and pod
/// collections, a verb (`deletecollection`) the chart's Role does not
/// grant. It now lists and deletes each object (verbs `list` and `delete`),
/// and an object already gone is not an error.
#[tokio::test]
async fn cancel_deletes_each_job_in_background_then_each_pod() {
    let (b, mut h) = backend();
    let server = async {
        expect(
            &mut h,
            Method::GET,
            format!("{JOBS}?&{SELECTOR_Q}"),
            None,
            200,
            job_list(vec![
                json!({"metadata": {"name": "lane-a"}}),
                json!({"metadata": {"name": "lane-b"}}),
            ]),
        )
        .await;
        expect(
            &mut h,
            Method::DELETE,
            format!("{JOBS}/lane-a?"),
            Some(json!({"propagationPolicy": "Background"})),
            200,
            json!({"metadata": {"name": "lane-a"}}),
        )
        .await;
        expect(
            &mut h,
            Method::DELETE,
            format!("{JOBS}/lane-b?"),
            Some(json!({"propagationPolicy": "Background"})),
            404,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                   "message": "jobs.batch \"lane-b\" not found", "reason": "NotFound", "code": 404}),
        )
        .await;
        expect(
            &mut h,
            Method::GET,
            format!("{PODS}?&{SELECTOR_Q}"),
            None,
            200,
            json!({"apiVersion": "v1", "kind": "PodList", "metadata": {},
                   "items": [{"metadata": {"name": "lane-a-x1"}}]}),
        )
        .await;
        expect(
            &mut h,
            Method::DELETE,
            format!("{PODS}/lane-a-x1?"),
            Some(json!({})),
            200,
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "lane-a-x1"}}),
        )
        .await;
    };
    let (got, ()) = tokio::join!(b.cancel("0.93.3"), server);
    assert_eq!(
        got.unwrap(),
        CancelReport {
            jobs: vec!["lane-a".into()],
            pods: vec!["lane-a-x1".into()]
        }
    );
}

#[tokio::test]
async fn the_log_fallback_reads_the_newest_pod_capped() {
    let (b, mut h) = backend();
    let server = async {
        expect(
            &mut h,
            Method::GET,
            format!("{PODS}?&labelSelector=batch.kubernetes.io%2Fjob-name%3Dlane-j"),
            None,
            200,
            json!({"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": [
                {"metadata": {"name": "old", "creationTimestamp": "2026-01-01T00:00:00Z"}},
                {"metadata": {"name": "new", "creationTimestamp": "2026-01-01T01:00:00Z"}}]}),
        )
        .await;
        let (req, send) = h.next_request().await.expect("a request");
        assert_eq!(req.method(), Method::GET);
        assert_eq!(
            req.uri().to_string(),
            format!("{PODS}/new/log?&container=mint&limitBytes=65536&tailLines=1000")
        );
        send.send_response(
            Response::builder()
                .body(Body::from("the tail\n".as_bytes().to_vec()))
                .unwrap(),
        );
    };
    let (got, ()) = tokio::join!(b.mint_log("lane-j", 65536), server);
    assert_eq!(got.unwrap().as_deref(), Some("the tail\n"));
}

// --- the state machine ---------------------------------------------------

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn job_with(status: Value) -> Job {
    let mut j = serde_json::to_value(the_job()).unwrap();
    j["status"] = status;
    serde_json::from_value(j).unwrap()
}

fn pod(name: &str, status: Value) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "annotations": {ANNOTATION_MINT_ID: "0.93.3/sdxl-turbo/L40S/r1/a1"}},
        "status": status
    }))
    .unwrap()
}

fn unschedulable(since: &str) -> Value {
    json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
        "reason": "Unschedulable", "lastTransitionTime": since,
        "message": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."}]})
}

const NOW: &str = "2026-01-01T01:00:00Z";
const LIMIT: Duration = Duration::from_secs(600);

#[test]
fn job_conditions_decide_the_end() {
    let done = job_with(json!({"conditions": [{"type": "Complete", "status": "True"}]}));
    assert_eq!(job_state(&done, &[], ts(NOW), LIMIT), JobState::Succeeded);
    let failed = job_with(json!({"conditions": [{"type": "Failed", "status": "True",
        "reason": "PodFailurePolicy", "message": "Container mint exited with 11"}]}));
    assert_eq!(
        job_state(&failed, &[], ts(NOW), LIMIT),
        JobState::Failed {
            reason: "PodFailurePolicy: Container mint exited with 11".into()
        }
    );
    // Regression: the interim conditions once ended the Job while its pods
    // still terminated (and uploaded their bundles). Only the final ones do.
    let target = job_with(
        json!({"conditions": [{"type": "FailureTarget", "status": "True", "reason": "DeadlineExceeded"}]}),
    );
    assert!(!job_state(&target, &[], ts(NOW), LIMIT).is_finished());
    let met = job_with(
        json!({"conditions": [{"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached"}]}),
    );
    assert!(!job_state(&met, &[], ts(NOW), LIMIT).is_finished());
    let not_yet = job_with(json!({"conditions": [{"type": "Failed", "status": "False"}]}));
    assert_eq!(job_state(&not_yet, &[], ts(NOW), LIMIT), JobState::Pending);
}

#[test]
fn a_running_pod_makes_it_running() {
    let j = job_with(json!({"active": 1}));
    let p = pod("p", json!({"phase": "Running"}));
    assert_eq!(job_state(&j, &[&p], ts(NOW), LIMIT), JobState::Running);
}

#[test]
fn unschedulable_only_after_the_limit_and_named_by_gpu() {
    let j = job_with(json!({"active": 1}));
    let fresh = pod("p", unschedulable("2026-01-01T00:55:00Z"));
    assert_eq!(job_state(&j, &[&fresh], ts(NOW), LIMIT), JobState::Pending);
    let old = pod("p", unschedulable("2026-01-01T00:50:00Z"));
    assert_eq!(
        job_state(&j, &[&old], ts(NOW), LIMIT),
        JobState::Unschedulable {
            since: ts("2026-01-01T00:50:00Z"),
            gpu: "L40S".into()
        }
    );
    // scheduled after all: PodScheduled=True is no longer Unschedulable
    let scheduled = pod(
        "p",
        json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True"}]}),
    );
    assert_eq!(
        job_state(&j, &[&scheduled], ts(NOW), LIMIT),
        JobState::Pending
    );
}

#[test]
fn the_view_follows_events_and_a_relist_drops_the_gone() {
    let mut v = LaneView::new();
    let j = job_with(json!({"active": 1}));
    let id = "0.93.3/sdxl-turbo/L40S/r1/a1".to_owned();
    v.apply(LaneEvent::Job(Event::Init));
    v.apply(LaneEvent::Job(Event::InitApply(j.clone())));
    v.apply(LaneEvent::Job(Event::InitDone));
    v.apply(LaneEvent::Pod(Event::Apply(pod(
        "p",
        unschedulable("2026-01-01T00:00:00Z"),
    ))));
    assert_eq!(
        v.states(ts(NOW), LIMIT)[&id],
        JobState::Unschedulable {
            since: ts("2026-01-01T00:00:00Z"),
            gpu: "L40S".into()
        }
    );
    v.apply(LaneEvent::Pod(Event::Apply(pod(
        "p",
        json!({"phase": "Running"}),
    ))));
    assert_eq!(v.states(ts(NOW), LIMIT)[&id], JobState::Running);
    // a 410 relist that no longer holds the Job: it disappears at InitDone
    v.apply(LaneEvent::Job(Event::Init));
    assert_eq!(v.jobs().len(), 1, "the old view stays until InitDone");
    v.apply(LaneEvent::Job(Event::InitDone));
    assert!(v.states(ts(NOW), LIMIT).is_empty());
}

// --- the watcher against the mock: LIST, WATCH, a 410, and the relist ----

#[tokio::test]
async fn the_watcher_lists_watches_and_relists_after_410() {
    use futures::StreamExt;
    let (svc, mut h) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let job = serde_json::to_value(the_job()).unwrap();
    let server = async move {
        let mut seen = Vec::new();
        let mut held = Vec::new(); // open pod watches, never answered
        let mut job_lists = 0;
        while job_lists < 2 {
            let (req, send) = h.next_request().await.expect("a request");
            let uri = req.uri().to_string();
            seen.push(format!("{} {uri}", req.method()));
            let reply = if uri.starts_with(JOBS) && !uri.contains("watch=true") {
                job_lists += 1;
                let rv = if job_lists == 1 { "7" } else { "9" };
                let mut l = job_list(vec![job.clone()]);
                l["metadata"]["resourceVersion"] = json!(rv);
                serde_json::to_vec(&l).unwrap()
            } else if uri.starts_with(JOBS) {
                // the watch from resourceVersion 7 is too old
                let gone = json!({"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1",
                    "metadata": {}, "status": "Failure", "message": "too old resource version: 7 (8)",
                    "reason": "Expired", "code": 410}});
                let mut b = serde_json::to_vec(&gone).unwrap();
                b.push(b'\n');
                b
            } else if !uri.contains("watch=true") {
                serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "PodList",
                    "metadata": {"resourceVersion": "7"}, "items": []}))
                .unwrap()
            } else {
                held.push(send);
                continue;
            };
            send.send_response(Response::builder().body(Body::from(reply)).unwrap());
        }
        (seen, held)
    };
    let watch = async {
        let mut s = std::pin::pin!(watch_lane(client, "lane", "0.93.3", RUN));
        let mut v = LaneView::new();
        let mut inits = 0;
        let mut errors = 0;
        while inits < 2 {
            match s.next().await.expect("the stream goes on") {
                Ok(e) => {
                    if matches!(e, LaneEvent::Job(Event::InitDone)) {
                        inits += 1;
                    }
                    v.apply(e);
                }
                Err(_) => errors += 1,
            }
        }
        (v, errors)
    };
    let ((seen, _held), (v, errors)) = tokio::join!(server, watch);
    assert_eq!(errors, 1, "the 410 surfaces once, then the watcher relists");
    assert_eq!(v.jobs().len(), 1);
    let jobs: Vec<_> = seen.iter().filter(|s| s.contains(JOBS)).cloned().collect();
    assert_eq!(
        jobs,
        vec![
            format!("GET {JOBS}?&{RUN_SELECTOR_Q}&limit=500"),
            format!("GET {JOBS}?&watch=true&timeoutSeconds=290&{RUN_SELECTOR_Q}&allowWatchBookmarks=true&resourceVersion=7"),
            format!("GET {JOBS}?&{RUN_SELECTOR_Q}&limit=500"),
        ],
        "all requests: {seen:#?}"
    );
    assert!(
        seen.contains(&format!("GET {PODS}?&{RUN_SELECTOR_Q}&limit=500")),
        "{seen:#?}"
    );
}

#[test]
fn adopted_mint_ids_are_not_created_again() {
    let m = |gpu: &str| {
        job_for(
            &super::mint(super::id("0.93.3", "c", gpu, 1, 1)),
            &super::cfg(),
        )
        .unwrap()
    };
    let left = still_to_create(vec![m("L40S"), m("L4")], &[m("L40S")]);
    assert_eq!(left.len(), 1);
    assert_eq!(mint_id_of(&left[0]), Some("0.93.3/c/L4/r1/a1"));
}

#[test]
fn unschedulable_is_reported_by_gpu_class() {
    let s = JobState::Unschedulable {
        since: ts("2026-01-01T00:50:00Z"),
        gpu: "L40S".into(),
    };
    assert_eq!(
        s.to_string(),
        "unschedulable since 2026-01-01T00:50:00Z: no node has capacity for GPU class `L40S`"
    );
}

#[test]
fn a_jobs_seconds_run_from_its_start_to_its_end_and_are_absent_before_it_starts() {
    let job = |status: Value| -> Job {
        serde_json::from_value(json!({"metadata": {"name": "j"}, "status": status})).unwrap()
    };
    // Complete: completionTime.
    let done =
        job(json!({"startTime": "2026-11-30T08:00:00Z", "completionTime": "2026-11-30T08:01:30Z"}));
    assert_eq!(job_seconds(&done), Some(90.0));
    // Failed: no completionTime; the Failed condition's transition ends it.
    let failed = job(json!({"startTime": "2026-11-30T08:00:00Z", "conditions": [
        {"type": "Failed", "status": "True", "reason": "DeadlineExceeded",
         "lastTransitionTime": "2026-11-30T09:00:00Z"}]}));
    assert_eq!(
        job_seconds(&failed),
        Some(3600.0),
        "a failed Job keeps its seconds"
    );
    // Never started, or still running: nothing measured, so nothing shown.
    assert_eq!(job_seconds(&job(json!({}))), None);
    assert_eq!(
        job_seconds(&job(
            json!({"startTime": "2026-11-30T08:00:00Z", "active": 1})
        )),
        None
    );
}

/// Regression: a Job created and then deleted before the watch's first LIST
/// was never seen, so `run_lane` waited for it forever. Every Job exists
/// before the watch begins; one the first full LIST lacks is gone.
#[tokio::test]
async fn a_job_deleted_before_the_first_list_ends_the_lane_as_deleted() {
    let (b, mut h) = backend();
    let job = the_job();
    let id = mint_id_of(&job).unwrap().to_owned();
    let name = job.metadata.name.clone().unwrap();
    let created = serde_json::to_value(&job).unwrap();
    let server = async move {
        let mut held = Vec::new();
        loop {
            let Some((req, send)) = h.next_request().await else {
                return held.len();
            };
            let uri = req.uri().to_string();
            let reply = if req.method() == Method::POST {
                serde_json::to_vec(&created).unwrap()
            } else if uri.contains("watch=true") {
                held.push(send);
                continue;
            } else if uri.starts_with(JOBS) {
                serde_json::to_vec(&job_list(vec![])).unwrap()
            } else {
                serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "PodList",
                    "metadata": {"resourceVersion": "7"}, "items": []}))
                .unwrap()
            };
            send.send_response(Response::builder().body(Body::from(reply)).unwrap());
        }
    };
    let lane = async {
        let ends = b
            .run_lane(
                "0.93.3",
                RUN,
                vec![the_job()],
                Duration::from_secs(600),
                &mut |_| {},
            )
            .await
            .unwrap();
        drop(b);
        ends
    };
    let ends = tokio::time::timeout(Duration::from_secs(20), async {
        let (ends, _) = tokio::join!(lane, server);
        ends
    })
    .await
    .expect("run_lane ended instead of waiting for a Job it never saw");
    let end = &ends[&id];
    assert_eq!(end.job, name);
    assert!(end.state == JobState::Deleted, "{end:?}");
    assert_eq!(end.seconds, None, "never seen running: no seconds");
}
