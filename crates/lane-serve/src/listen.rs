//! The connections: lane serve is reachable by anyone who can reach its
//! port, before a signature is checked, so a connection costs a client
//! time it must keep paying. hyper's own HTTP/1 connection with its timer
//! reads a request's head within [`Limits::header_timeout`] (from the
//! connection's start, or from the end of the previous response on a
//! kept-alive one: a client that sends one header line a second, or
//! nothing at all, is disconnected); the webhook handler reads a body
//! within [`Limits::body_timeout`], the whole body, not per byte
//! (`http.rs`); and at most [`Limits::max_connections`] are open at once:
//! one over it is answered 503 at once and closed, without a task or a
//! parser (a client holding every slot open is itself disconnected at the
//! header timeout).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::metrics::Metrics;

/// The default [`Limits::header_timeout`]: 10 s (GitHub sends a delivery
/// at once and gives up on it after 10 s).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The default [`Limits::body_timeout`]: 10 s for the whole body.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The default [`Limits::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// What a connection may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest a request's head (its line and headers) may take to
    /// arrive, whole.
    pub header_timeout: Duration,
    /// The longest a delivery's body may take to arrive, whole.
    pub body_timeout: Duration,
    /// Connections open at once; one more is refused (503) at once.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
        }
    }
}

/// What a connection over the limit is told before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\
retry-after: 1\r\ncontent-length: 28\r\n\r\ntoo many connections, retry\n";

/// How long open connections may take to finish once the service stops.
const DRAIN_WITHIN: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` within `limits` until `stop` resolves,
/// then lets the open connections finish their requests (at most
/// [`DRAIN_WITHIN`]).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    metrics: Arc<Metrics>,
    stop: impl std::future::Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let service = TowerToHyperService::new(router);
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            metrics.connection_refused();
            refuse(stream);
            continue;
        };
        let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), service.clone()));
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                // A header timeout, a client gone: the connection's own end.
                tracing::debug!(error = %e, "connection ended");
            }
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_WITHIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!("connections still open at shutdown were closed");
    }
}

/// Answers a connection over the limit 503 if its socket takes the bytes
/// at once, and closes it.
fn refuse(stream: TcpStream) {
    let _ = stream.try_write(BUSY);
}
