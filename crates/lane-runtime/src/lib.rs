//! The process's one async runtime.
//!
//! lane's commands are synchronous; its edges (octocrab, kube-rs,
//! object_store's S3, axum for `lane serve`) are async. They all run on
//! one multi-threaded tokio runtime per process: the binary builds it and
//! hands it down with [`install`] before any command runs; a library
//! caller that installed none gets one built on first use, once.
//! [`built`] counts the runtimes this crate built (a test holds it at one).
//!
//! What it owns: the runtime and [`block_on`], the one bridge from a
//! synchronous caller to an async edge. What it must not touch: any lane
//! noun, any I/O of its own, any other lane crate.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use tokio::runtime::Runtime;

static RUNTIME: OnceLock<Runtime> = OnceLock::new();
static BUILT: AtomicUsize = AtomicUsize::new(0);

/// Worker threads of the runtime [`build`] makes: the async edges wait on
/// the network, so two are plenty on any machine.
pub const WORKER_THREADS: usize = 2;

/// The runtime lane uses: multi-threaded, [`WORKER_THREADS`] workers named
/// `lane-rt`, IO and time enabled. Counted by [`built`].
pub fn build() -> std::io::Result<Runtime> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKER_THREADS)
        .thread_name("lane-rt")
        .enable_all()
        .build()?;
    BUILT.fetch_add(1, Ordering::SeqCst);
    Ok(rt)
}

/// Hands `rt` down as the process's runtime (the binary, before any
/// command). `Err(rt)` when one is already in place.
pub fn install(rt: Runtime) -> Result<(), Runtime> {
    RUNTIME.set(rt)
}

/// The process's runtime: the installed one, else one built now (once).
pub fn get() -> std::io::Result<&'static Runtime> {
    if let Some(rt) = RUNTIME.get() {
        return Ok(rt);
    }
    let rt = build()?;
    // Two first callers may race: the loser's runtime is dropped here, on
    // this thread, before anything ran on it.
    match RUNTIME.set(rt) {
        Ok(()) => {}
        Err(extra) => {
            BUILT.fetch_sub(1, Ordering::SeqCst);
            drop(extra);
        }
    }
    Ok(RUNTIME.get().expect("set above"))
}

/// How many runtimes this process built through [`build`] (and kept).
pub fn built() -> usize {
    BUILT.load(Ordering::SeqCst)
}

/// Runs `fut` to completion on the process's runtime and returns its
/// output: on this thread, or on a scoped thread when this one is already
/// inside a runtime (where blocking on another future would panic).
pub fn block_on<F>(fut: F) -> std::io::Result<F::Output>
where
    F: Future + Send,
    F::Output: Send,
{
    let rt = get()?;
    if tokio::runtime::Handle::try_current().is_err() {
        return Ok(rt.block_on(fut));
    }
    Ok(std::thread::scope(|s| {
        s.spawn(|| rt.block_on(fut))
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }))
}

/// Runs `fut` to completion on the process's runtime, on this thread, for
/// a future that cannot move to another thread (it borrows a callback
/// that is not `Send`). A caller already inside a runtime gets an error
/// (blocking there would panic): synchronous commands only.
pub fn block_on_here<F: Future>(fut: F) -> std::io::Result<F::Output> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(std::io::Error::other(
            "a synchronous command was called from inside an async runtime",
        ));
    }
    Ok(get()?.block_on(fut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_caller_shares_one_runtime_from_any_thread() {
        let here = block_on(async { tokio::runtime::Handle::current().id() }).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    block_on(async { tokio::runtime::Handle::current().id() }).unwrap()
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), here);
        }
        // From inside the runtime (an async edge calling a synchronous
        // helper that blocks): no panic, the same runtime.
        let nested =
            block_on(async { block_on(async { tokio::runtime::Handle::current().id() }).unwrap() })
                .unwrap();
        assert_eq!(nested, here);
        assert_eq!(block_on_here(async { 7 }).unwrap(), 7);
        let refused = block_on(async { block_on_here(async { 7 }).is_err() }).unwrap();
        assert!(
            refused,
            "blocking inside the runtime is refused, not a panic"
        );
        assert_eq!(built(), 1);
        assert!(install(build().unwrap()).is_err(), "one is in place");
    }
}
