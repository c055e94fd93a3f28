//! `/metrics`: the service's counters in the Prometheus text format
//! (`prometheus-client`).

use std::sync::atomic::AtomicI64;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

type Labels = Vec<(String, String)>;

/// Every metric of the service.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    deliveries: Family<Labels, Counter>,
    commands: Family<Labels, Counter>,
    ack: Histogram,
    running: Gauge<i64, AtomicI64>,
    refused: Counter,
}

/// What became of a delivery (the `outcome` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// A command was queued.
    Queued,
    /// Nothing to run (a ping, a plain comment, another event).
    Ignored,
    /// No signature.
    Unsigned,
    /// A signature that is not the body's.
    Forged,
    /// A delivery id seen before.
    Replayed,
    /// Over the body cap.
    TooLarge,
    /// Its body did not arrive within the body timeout.
    SlowBody,
    /// Signed but not a delivery lane reads (headers, JSON).
    Invalid,
}

impl DeliveryOutcome {
    fn as_str(self) -> &'static str {
        match self {
            DeliveryOutcome::Queued => "queued",
            DeliveryOutcome::Ignored => "ignored",
            DeliveryOutcome::Unsigned => "unsigned",
            DeliveryOutcome::Forged => "forged",
            DeliveryOutcome::Replayed => "replayed",
            DeliveryOutcome::TooLarge => "too_large",
            DeliveryOutcome::SlowBody => "slow_body",
            DeliveryOutcome::Invalid => "invalid",
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::default();
        let deliveries = Family::<Labels, Counter>::default();
        registry.register(
            "lane_serve_deliveries",
            "Webhook deliveries received, by outcome",
            deliveries.clone(),
        );
        let commands = Family::<Labels, Counter>::default();
        registry.register(
            "lane_serve_commands",
            "/lane commands ended, by command and outcome",
            commands.clone(),
        );
        let ack = Histogram::new([0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0]);
        registry.register(
            "lane_serve_ack_seconds",
            "Seconds from a delivery's request to its answer",
            ack.clone(),
        );
        let running = Gauge::<i64, AtomicI64>::default();
        registry.register(
            "lane_serve_mints_running",
            "Lanes minting now",
            running.clone(),
        );
        let refused = Counter::default();
        registry.register(
            "lane_serve_connections_refused",
            "Connections refused at once, over the connection limit",
            refused.clone(),
        );
        Metrics {
            registry,
            deliveries,
            commands,
            ack,
            running,
            refused,
        }
    }
}

impl Metrics {
    /// Counts a delivery.
    pub fn delivery(&self, outcome: DeliveryOutcome) {
        self.deliveries
            .get_or_create(&vec![("outcome".into(), outcome.as_str().into())])
            .inc();
    }

    /// Counts a command's end (`ok`: done, else failed or refused).
    pub fn command(&self, command: &str, outcome: &str) {
        self.commands
            .get_or_create(&vec![
                ("command".into(), command.into()),
                ("outcome".into(), outcome.into()),
            ])
            .inc();
    }

    /// Records one acknowledgement's latency.
    pub fn ack(&self, seconds: f64) {
        self.ack.observe(seconds);
    }

    /// Counts a connection refused over the connection limit.
    pub fn connection_refused(&self) {
        self.refused.inc();
    }

    /// Lanes minting now, up or down by `delta`.
    pub fn running(&self, delta: i64) {
        self.running.inc_by(delta);
    }

    /// The text exposition.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing to a String never fails.
        let _ = encode(&mut out, &self.registry);
        out
    }
}
