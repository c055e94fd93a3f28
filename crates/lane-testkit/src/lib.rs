//! lane's test kit: a dev-only crate, used only as a `[dev-dependency]`.
//!
//! It owns how lane's tests reach the real test servers and tools:
//!
//! - [`tools`]: the tools `./just tools` installs under `.tools/` (a
//!   missing one fails the test, never skips it);
//! - [`ServerProcess`]: a server as a child process that **binds its own
//!   port** (port 0) and announces it; readiness is that announcement,
//!   awaited for a bounded time, and a failure names the server and the
//!   tail of its output; killed on drop;
//! - the servers: [`Prism`] (GitHub's OpenAPI description, for contract
//!   tests), [`Moto`] (S3), [`PypiServer`] (a package index) and
//!   [`KubeEmulator`] (kmock's Kubernetes API emulator);
//! - [`OutageProxy`]: a TCP forwarder to a real server that can be taken
//!   down and brought back (a store outage mid-upload);
//! - [`Kubelet`]: the kubelet and Job controller stand-in that runs the
//!   pods of the Jobs created on the emulator, for real, on this machine;
//! - [`time`]: timestamps as the Kubernetes API writes them;
//! - [`data`]: the recorded test data under `tests/data/`;
//! - [`chromium`]: screenshots of a page in headless Chromium;
//! - [`history`]: the real upstream's whole history (the bundle under
//!   `../shared/upstream/`), one mirror per test binary.
//!
//! It must not touch lane: it depends on no lane crate and knows none of
//! lane's types (what a Job runs, a store's layout, a report's shape are
//! the tests' business), and nothing outside tests may depend on it. It
//! binds only loopback, and it never picks a port for a child.

pub mod chromium;
pub mod data;
pub mod history;
pub mod kube;
pub mod octokit;
mod outage;
mod process;
mod servers;
pub mod time;
pub mod tools;

pub use kube::{Hooks, JobEnd, KubeEmulator, Kubelet};
pub use outage::OutageProxy;
pub use process::{Announce, ServerProcess};
pub use servers::{Moto, Prism, PypiServer};
