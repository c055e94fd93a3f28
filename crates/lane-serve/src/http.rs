//! The HTTP side: `POST /webhook`, `GET /healthz`, `GET /readyz`,
//! `GET /metrics`. A delivery is capped, its signature checked before its
//! body is read as JSON, its id checked against the ones seen (a replay is
//! 409), decided ([`lane_webhook::decide`]), recorded in the state store,
//! queued for the worker and acknowledged (202) at once: nothing here waits
//! for a command.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use lane_core::Secret;
use lane_webhook::{decide, Decision, Delivery, Policy, SignatureError, SIGNATURE_HEADER};

use crate::answer;
use crate::metrics::{DeliveryOutcome, Metrics};
use crate::store::{Kind, NewCommand, Recorded, Store};
use crate::worker::Job;

/// What the handlers share.
pub(crate) struct App {
    pub(crate) secret: Secret,
    pub(crate) policy: Policy,
    pub(crate) max_body_bytes: usize,
    pub(crate) body_timeout: std::time::Duration,
    pub(crate) store: Arc<Store>,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) jobs: Sender<Job>,
    pub(crate) worker_alive: Arc<AtomicBool>,
}

/// The routes.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/webhook", post(webhook))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .with_state(app)
}

async fn readyz(State(app): State<Arc<App>>) -> Response {
    let store = Arc::clone(&app.store);
    let store_ok = tokio::task::spawn_blocking(move || store.ping())
        .await
        .unwrap_or(false);
    let worker_ok = app.worker_alive.load(Ordering::SeqCst);
    let text = format!(
        "state store: {}\nworker: {}\n",
        if store_ok { "open" } else { "unavailable" },
        if worker_ok { "alive" } else { "stopped" }
    );
    let code = if store_ok && worker_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, text).into_response()
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        app.metrics.encode(),
    )
        .into_response()
}

fn answer(code: StatusCode, text: impl Into<String>) -> Response {
    let mut t = text.into();
    t.push('\n');
    (code, t).into_response()
}

async fn webhook(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    let started = Instant::now();
    let (outcome, response) = handle(&app, &headers, body).await;
    app.metrics.delivery(outcome);
    app.metrics.ack(started.elapsed().as_secs_f64());
    response
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

async fn handle(app: &Arc<App>, headers: &HeaderMap, body: Body) -> (DeliveryOutcome, Response) {
    let cap = app.max_body_bytes;
    let too_large = || {
        (
            DeliveryOutcome::TooLarge,
            answer(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("body over the {cap}-byte cap"),
            ),
        )
    };
    // A declared length over the cap is refused before a byte is read.
    let declared = header_str(headers, header::CONTENT_LENGTH.as_str())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > cap as u64) {
        return too_large();
    }
    // The whole body within the body timeout, however it trickles in: a
    // client sending a byte a second holds no connection for long.
    let within = app.body_timeout;
    let Ok(read) = tokio::time::timeout(within, axum::body::to_bytes(body, cap)).await else {
        tracing::debug!(
            timeout_s = within.as_secs_f64(),
            "refused a delivery: slow body"
        );
        let mut r = answer(
            StatusCode::REQUEST_TIMEOUT,
            format!("body not received within {} s", within.as_secs_f64()),
        );
        r.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        return (DeliveryOutcome::SlowBody, r);
    };
    let Ok(bytes) = read else {
        // Over the cap while reading (no or a false Content-Length), or
        // the client went away: either way nothing was read past the cap.
        return too_large();
    };
    let signature = header_str(headers, SIGNATURE_HEADER);
    if let Err(e) =
        lane_webhook::verify_signature(app.secret.expose().as_bytes(), &bytes, signature)
    {
        tracing::debug!(error = %e, len = bytes.len(), "refused a delivery: signature");
        let outcome = if e == SignatureError::Missing {
            DeliveryOutcome::Unsigned
        } else {
            DeliveryOutcome::Forged
        };
        return (
            outcome,
            answer(StatusCode::UNAUTHORIZED, "signature refused"),
        );
    }
    let event = header_str(headers, "x-github-event").unwrap_or("");
    let id = header_str(headers, "x-github-delivery").unwrap_or("");
    let delivery = match Delivery::parse(event, id, &bytes) {
        Ok(d) => d,
        Err(e) => {
            tracing::info!(error = %e, "refused a signed delivery");
            return (
                DeliveryOutcome::Invalid,
                answer(StatusCode::BAD_REQUEST, e.to_string()),
            );
        }
    };
    let event = event.to_owned();
    let app2 = Arc::clone(app);
    // The state store is SQLite (blocking): off the async workers.
    let done = tokio::task::spawn_blocking(move || record(&app2, &delivery, &event)).await;
    match done {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            tracing::error!(error = %lane_app::describe(&e), "state store");
            (
                DeliveryOutcome::Invalid,
                answer(StatusCode::SERVICE_UNAVAILABLE, "state store unavailable"),
            )
        }
        Err(_) => (
            DeliveryOutcome::Invalid,
            answer(StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
        ),
    }
}

/// Decides, records and queues one delivery (blocking).
fn record(
    app: &App,
    delivery: &Delivery,
    event: &str,
) -> Result<(DeliveryOutcome, Response), crate::ServeError> {
    let store = &app.store;
    let id = delivery.id.as_str();
    let decision = decide(delivery, &app.policy, |c| store.already_ran(c));
    let queued = match &decision {
        Decision::Run {
            command,
            pr,
            comment_id,
            login,
        } => {
            let text = command.to_string();
            let cmd = NewCommand {
                repo: pr.repo.as_str(),
                pr: pr.number,
                comment_id: *comment_id,
                kind: Kind::Run,
                text: text.as_str(),
                login: login.as_raw(),
            };
            store.record(id, event, Some(cmd))?
        }
        Decision::Refuse {
            pr,
            comment_id,
            reason,
            login,
        } => {
            let text = answer::refusal(reason, &app.policy);
            let cmd = NewCommand {
                repo: pr.repo.as_str(),
                pr: pr.number,
                comment_id: *comment_id,
                kind: Kind::Refuse,
                text: text.as_str(),
                login: login.as_raw(),
            };
            store.record(id, event, Some(cmd))?
        }
        Decision::Outdated { .. } | Decision::Ignore(_) => store.record(id, event, None)?,
    };
    match queued {
        Recorded::Replay => {
            tracing::info!(delivery = id, "refused a replayed delivery");
            Ok((
                DeliveryOutcome::Replayed,
                answer(
                    StatusCode::CONFLICT,
                    format!("delivery {id} was received before"),
                ),
            ))
        }
        Recorded::New(Some(command)) => {
            tracing::info!(delivery = id, command, "queued");
            // A worker gone is seen by /readyz; the command stays queued
            // and is adopted at the next start.
            let _ = app.jobs.send(Job::Command(command));
            Ok((
                DeliveryOutcome::Queued,
                answer(StatusCode::ACCEPTED, format!("queued command {command}")),
            ))
        }
        Recorded::New(None) => {
            if let Decision::Outdated { pr, head_sha, lane } = &decision {
                let marked = store.outdate(
                    pr.repo.as_str(),
                    pr.number,
                    lane.as_deref(),
                    head_sha.as_str(),
                )?;
                tracing::info!(delivery = id, %pr, lane = ?marked, "report outdated");
                if marked.is_some() {
                    let _ = app.jobs.send(Job::Outdated {
                        repo: pr.repo.as_str().to_owned(),
                        pr: pr.number,
                    });
                }
                return Ok((
                    DeliveryOutcome::Ignored,
                    answer(StatusCode::OK, "report marked outdated"),
                ));
            }
            let why = match &decision {
                Decision::Ignore(reason) => format!("ignored: {reason:?}"),
                _ => "ignored".to_owned(),
            };
            tracing::debug!(delivery = id, %why, "nothing to do");
            Ok((DeliveryOutcome::Ignored, answer(StatusCode::OK, why)))
        }
    }
}
