//! `lane serve`: the service that receives GitHub's webhooks so a release
//! engineer can type `/lane mint 0.93.3` on a pull request.
//!
//! **What it owns.** The webhook HTTP service ([`http`]: `POST /webhook`,
//! `/healthz`, `/readyz`, `/metrics`, the body cap, signature first,
//! replays refused); its state ([`store`]: deliveries seen, comments that
//! ran, commands `queued → running → done/failed`, each pull request's
//! lane, in one SQLite file that survives a restart); its queue and worker
//! ([`worker`]: plain threads, one lane at a time per pull request, a stop
//! flag per lane, adoption of what a restart left); and its answers
//! ([`answer`]: reactions, one answer comment per pull request, the lane's
//! sticky comment filled in while it mints).
//!
//! **What it must not touch.** The command grammar and the trust decisions
//! (what a comment asks, who may ask, what a delivery means) are
//! `lane-webhook`'s: this crate asks [`lane_webhook::decide`] and acts.
//! Minting, status, cancel and diff are `lane-app`'s functions, called as
//! `lane` calls them. GitHub's wire details are `lane-github`'s. It prints
//! nothing (tracing only) and never logs a secret or a delivery's body.

pub mod answer;
mod error;
mod github;
mod http;
mod listen;
pub mod metrics;
pub mod store;
mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use error::ServeError;
use lane_core::Secret;
use lane_webhook::Policy;
pub use listen::{Limits, DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONNECTIONS};

/// The default body cap: 1 MiB (GitHub's deliveries for these events are
/// a few KiB).
pub const DEFAULT_MAX_BODY_BYTES: usize = 1024 * 1024;

/// Where mints run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// Agents on this machine.
    Local,
    /// One Kubernetes Job per mint (feature `kube`).
    Kube,
}

/// How `lane serve` runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The state folder (`serve.sqlite`; the lanes' runs under `out/`).
    pub state: PathBuf,
    /// The folder of lane files (`<version>.yaml`).
    pub lanes: PathBuf,
    /// Where mints run.
    pub backend: BackendKind,
    /// The kube backend's configuration.
    pub kube_config: Option<PathBuf>,
    /// Who may run commands.
    pub policy: Policy,
    /// The largest delivery body read.
    pub max_body_bytes: usize,
    /// What a connection may cost: the header and body timeouts, the
    /// connection limit.
    pub limits: Limits,
    /// Lanes minting at once (each pull request one at a time).
    pub workers: usize,
    /// The webhook secret.
    pub secret: Secret,
    /// The command that runs one mint (`[lane, agent]`).
    pub agent: Vec<String>,
    /// The least time between two progress updates of a lane's comment.
    pub progress_every: Duration,
}

/// A running service.
pub struct Running {
    addr: SocketAddr,
    store: Arc<store::Store>,
    jobs: std::sync::mpsc::Sender<worker::Job>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<std::thread::JoinHandle<Result<(), ServeError>>>,
    worker: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Running")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

/// An error and its sources, one line.
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    lane_app::describe(e)
}

/// The shortest webhook secret `lane serve` accepts, in bytes.
pub const MIN_SECRET_BYTES: usize = 16;

/// Starts the service: opens the state, adopts what a restart left,
/// starts the worker and binds the listener. Returns once it listens.
pub fn start(config: ServeConfig) -> Result<Running, ServeError> {
    match config.secret.expose().len() {
        0 => return Err(ServeError::EmptySecret),
        len if len < MIN_SECRET_BYTES => {
            return Err(ServeError::ShortSecret {
                len,
                min: MIN_SECRET_BYTES,
            })
        }
        _ => {}
    }
    if config.workers == 0 {
        return Err(ServeError::Config(
            "--workers must be at least 1".to_owned(),
        ));
    }
    let l = &config.limits;
    if l.max_connections == 0 || l.header_timeout.is_zero() || l.body_timeout.is_zero() {
        return Err(ServeError::Config(
            "--max-connections, --header-timeout-s and --body-timeout-s must each be at least 1"
                .to_owned(),
        ));
    }
    let store = Arc::new(store::Store::open(&config.state)?);
    let metrics = Arc::new(metrics::Metrics::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let adopted = store.adopt()?;
    if !adopted.is_empty() {
        tracing::info!(commands = ?adopted, "adopting the commands a restart left");
    }
    for id in adopted {
        let _ = tx.send(worker::Job::Command(id));
    }
    let ctx = Arc::new(worker::Ctx {
        lanes: std::path::absolute(&config.lanes).unwrap_or(config.lanes.clone()),
        out: std::path::absolute(config.state.join("out")).unwrap_or(config.state.join("out")),
        backend: config.backend,
        kube_config: config.kube_config.clone(),
        agent: config.agent.clone(),
        workers: config.workers,
        progress_every: config.progress_every,
        store: Arc::clone(&store),
        metrics: Arc::clone(&metrics),
        policy: config.policy.clone(),
    });
    let alive = Arc::new(AtomicBool::new(true));
    let (alive2, tx2) = (Arc::clone(&alive), tx.clone());
    let worker = std::thread::Builder::new()
        .name("lane-serve-worker".into())
        .spawn(move || worker::dispatch(ctx, rx, tx2, alive2))
        .map_err(|source| ServeError::Start {
            what: "worker thread",
            source,
        })?;
    let app = Arc::new(http::App {
        secret: config.secret.clone(),
        policy: config.policy.clone(),
        max_body_bytes: config.max_body_bytes,
        body_timeout: config.limits.body_timeout,
        store: Arc::clone(&store),
        metrics: Arc::clone(&metrics),
        jobs: tx.clone(),
        worker_alive: alive,
    });
    let runtime = lane_runtime::get().map_err(|source| ServeError::Start {
        what: "async runtime",
        source,
    })?;
    let listen = config.listen;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(listen))
        .map_err(|source| ServeError::Listen {
            addr: listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Listen {
        addr: listen,
        source,
    })?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let router = http::router(app);
    let limits = config.limits;
    let server = std::thread::Builder::new()
        .name("lane-serve-http".into())
        .spawn(move || {
            runtime.block_on(async move {
                listen::serve(listener, router, limits, metrics, async move {
                    let _ = stop_rx.await;
                })
                .await;
                Ok(())
            })
        })
        .map_err(|source| ServeError::Start {
            what: "HTTP thread",
            source,
        })?;
    tracing::info!(%addr, "lane serve listening");
    Ok(Running {
        addr,
        store,
        jobs: tx,
        shutdown: Some(stop_tx),
        server: Some(server),
        worker: Some(worker),
    })
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The state store (tests read what was recorded).
    pub fn store(&self) -> &store::Store {
        &self.store
    }

    /// Serves until the HTTP server stops.
    pub fn wait(mut self) -> Result<(), ServeError> {
        let server = self.server.take().expect("a running server");
        server.join().unwrap_or(Ok(()))
    }

    /// Stops taking deliveries and work; running mints are asked to stop
    /// (their state is kept and adopted at the next start).
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
        if let Some(h) = self.server.take() {
            let _ = h.join();
        }
        let _ = self.jobs.send(worker::Job::Shutdown);
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `lane serve`: [`start`], then serve until the process ends.
pub fn serve(config: ServeConfig) -> Result<(), ServeError> {
    start(config)?.wait()
}
