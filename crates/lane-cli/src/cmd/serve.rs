//! `lane serve`: the GitHub webhook service (see `lane_serve`). This module
//! turns the arguments and `LANE_WEBHOOK_SECRET` into a
//! `lane_serve::ServeConfig` and serves.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use lane_app::AppError;
use lane_core::Secret;

/// Where the Helm chart mounts the kube backend's configuration.
const CHART_KUBE_CONFIG: &str = "/etc/lane/kube.yaml";

/// Arguments of `lane serve`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Wiring it to GitHub (docs/serve.md has the whole story):
  1. Create a GitHub App with permissions Issues: read/write, Pull requests:
     read/write, Checks: read/write, Metadata: read; subscribe it to the
     `Issue comment` and `Pull request` events.
  2. Set its webhook URL to https://<where lane serve is reachable>/webhook
     and its webhook secret to a long random string; give lane serve the same
     string in LANE_WEBHOOK_SECRET (it refuses to start without it).
  3. Give lane serve credentials to answer with: GITHUB_TOKEN, or the App's
     LANE_GITHUB_APP_ID and LANE_GITHUB_APP_KEY.
  4. Install the App on the repository, then comment `/lane help` on a pull request.")]
pub struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The state folder: deliveries seen, commands, and the lanes' runs (`out/`).
    #[arg(long, default_value = ".lane/serve")]
    pub state: PathBuf,
    /// The folder of lane files (`<version>.yaml`) that `/lane mint <version>` mints.
    #[arg(long, default_value = "lanes")]
    pub lanes: PathBuf,
    /// Where mints run: `local` (this machine) or `kube` (one Job per mint).
    #[arg(long, default_value = "local", value_parser = ["local", "kube"])]
    pub backend: String,
    /// The Kubernetes namespace; must agree with the kube config's (kube backend).
    #[arg(long)]
    pub namespace: Option<String>,
    /// The kube backend's configuration [default with `--backend kube`:
    /// /etc/lane/kube.yaml, where the Helm chart mounts it].
    #[arg(long)]
    pub kube_config: Option<PathBuf>,
    /// Who may run commands, by GitHub's author association (comma-separated).
    #[arg(
        long,
        default_value = "OWNER,MEMBER,COLLABORATOR",
        conflicts_with = "allow_permission"
    )]
    pub allow: String,
    /// Who may run commands, by their permission on the repository as
    /// GitHub's API answers it for each command (instead of --allow; the
    /// App needs the Metadata read permission).
    #[arg(long, value_parser = ["read", "triage", "write", "maintain", "admin"])]
    pub allow_permission: Option<String>,
    /// The largest delivery body read; a larger one is refused (413) unread.
    #[arg(long, default_value_t = lane_serve::DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,
    /// Seconds a request's line and headers may take to arrive, whole (from
    /// the connection's start, or its previous answer); then it is closed.
    #[arg(long, default_value_t = lane_serve::DEFAULT_HEADER_TIMEOUT.as_secs())]
    pub header_timeout_s: u64,
    /// Seconds a delivery's body may take to arrive, whole; then it is
    /// refused (408) and the connection closed.
    #[arg(long, default_value_t = lane_serve::DEFAULT_BODY_TIMEOUT.as_secs())]
    pub body_timeout_s: u64,
    /// Connections open at once; one more is answered 503 and closed at once.
    #[arg(long, default_value_t = lane_serve::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Lanes minting at once (each pull request mints one lane at a time).
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// The least seconds between two progress updates of a lane's comment.
    #[arg(long, default_value_t = 10, hide = true)]
    pub progress_every_s: u64,
}

/// Runs `lane serve`.
pub fn run(args: Args) -> Result<(), AppError> {
    let secret = std::env::var("LANE_WEBHOOK_SECRET").unwrap_or_default();
    if secret.is_empty() {
        return Err(AppError::Precondition(
            "LANE_WEBHOOK_SECRET is not set: lane serve checks every delivery's signature with \
             the GitHub App's webhook secret (see docs/serve.md)"
                .to_owned(),
        ));
    }
    let policy = match args.allow_permission.as_deref() {
        Some(word) => lane_webhook::Policy::by_permission(
            lane_webhook::Permission::parse(word)
                .ok_or_else(|| AppError::Usage(format!("--allow-permission: unknown `{word}`")))?,
        ),
        None => lane_webhook::Policy::parse(&args.allow)
            .map_err(|e| AppError::Usage(format!("--allow: {e}")))?,
    };
    let backend = match args.backend.as_str() {
        "kube" => lane_serve::BackendKind::Kube,
        _ => lane_serve::BackendKind::Local,
    };
    let kube_config = match backend {
        lane_serve::BackendKind::Kube => Some(
            args.kube_config
                .clone()
                .unwrap_or_else(|| PathBuf::from(CHART_KUBE_CONFIG)),
        ),
        lane_serve::BackendKind::Local => args.kube_config.clone(),
    };
    if let (lane_serve::BackendKind::Kube, Some(ns), Some(path)) =
        (backend, &args.namespace, &kube_config)
    {
        check_namespace(ns, path)?;
    }
    let exe = std::env::current_exe().map_err(|e| AppError::io("the lane binary", e))?;
    let config = lane_serve::ServeConfig {
        listen: args.listen,
        state: args.state,
        lanes: args.lanes,
        backend,
        kube_config,
        policy,
        max_body_bytes: args.max_body_bytes,
        limits: lane_serve::Limits {
            header_timeout: Duration::from_secs(args.header_timeout_s),
            body_timeout: Duration::from_secs(args.body_timeout_s),
            max_connections: args.max_connections,
        },
        workers: args.workers,
        secret: Secret::new(secret),
        agent: vec![exe.to_string_lossy().into_owned(), "agent".into()],
        progress_every: Duration::from_secs(args.progress_every_s),
    };
    let running = lane_serve::start(config).map_err(serve_error)?;
    // The address it bound (port 0 picks one): a line for people and tests.
    errln!("lane serve listening on http://{}", running.addr());
    running.wait().map_err(serve_error)
}

#[cfg(feature = "kube")]
fn check_namespace(ns: &str, path: &std::path::Path) -> Result<(), AppError> {
    let cfg = lane_app::mint::load_kube_config(path)?;
    if cfg.namespace != ns {
        return Err(AppError::Usage(format!(
            "--namespace {ns} disagrees with the kube config's namespace {} ({})",
            cfg.namespace,
            path.display()
        )));
    }
    Ok(())
}

#[cfg(not(feature = "kube"))]
fn check_namespace(_: &str, _: &std::path::Path) -> Result<(), AppError> {
    Err(AppError::Usage(
        "this lane was built without the kube backend (cargo feature `kube`)".to_owned(),
    ))
}

fn serve_error(e: lane_serve::ServeError) -> AppError {
    match e {
        lane_serve::ServeError::EmptySecret | lane_serve::ServeError::ShortSecret { .. } => {
            AppError::Precondition(e.to_string())
        }
        lane_serve::ServeError::Config(m) => AppError::Usage(m),
        other => AppError::Precondition(lane_app::describe(&other)),
    }
}
