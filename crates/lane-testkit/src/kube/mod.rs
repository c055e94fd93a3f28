//! An emulated Kubernetes API server and the kubelet stand-in that runs
//! the pods of the Jobs created on it.

mod emulator;
mod kubelet;

pub use emulator::{Hooks, KubeEmulator};
pub use kubelet::{JobEnd, Kubelet};
